//! The track editor (`skid edit`, issue 64) as a person uses it: keys
//! pressed into its loop on a console whose frames a terminal emulator
//! reads. A small circuit is drawn from nothing, its problems go away
//! one by one as it is drawn, it is saved, driven at once (q comes back
//! to the editor with its history), and the file saved passes `skid
//! check` and is raced to the finish by the computer. The mouse paints.
//! Every bundled track opened and saved untouched is the same bytes.

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Size;
use skid::console::{Console, Sink};
use skid::race::edit::Editor;
use skid::race::medals::book::Lookup;
use skid::track::draft::Draft;

/// A console that hands the editor one key a wait and, before each,
/// reads what it drew into a terminal emulator.
struct Keys {
    pressed: VecDeque<Event>,
    tap: Sink,
    term: vt100::Parser,
    /// The screen before each key, and at the end.
    seen: Vec<String>,
}

impl Keys {
    /// A console of 80x24 that hands the editor `events`, one a wait.
    fn new(events: Vec<Event>) -> Keys {
        Keys {
            pressed: events.into(),
            tap: Sink::default(),
            term: vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0),
            seen: Vec::new(),
        }
    }
}

impl Console for Keys {
    type Out = Sink;

    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if timeout.is_zero() {
            return Ok(None);
        }
        // A person's pace: the checks' thread answers meanwhile.
        std::thread::sleep(timeout);
        self.term.process(&self.tap.take());
        self.seen.push(self.term.screen().contents());
        Ok(Some(self.pressed.pop_front().unwrap_or_else(|| press('q'))))
    }

    fn size(&mut self) -> io::Result<Size> {
        Ok(Size::new(80, 24))
    }

    fn output(&mut self) -> Sink {
        self.tap.clone()
    }
}

fn press(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn code(c: KeyCode) -> Event {
    Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

fn ctrl(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-edit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The keys that take the cursor from `from` to `to`.
fn go(from: (usize, usize), to: (usize, usize)) -> Vec<Event> {
    let (dx, dy) = (
        to.0 as isize - from.0 as isize,
        to.1 as isize - from.1 as isize,
    );
    let h = if dx < 0 {
        KeyCode::Left
    } else {
        KeyCode::Right
    };
    let v = if dy < 0 { KeyCode::Up } else { KeyCode::Down };
    let mut keys = vec![code(h); dx.unsigned_abs()];
    keys.extend(vec![code(v); dy.unsigned_abs()]);
    keys
}

/// How many problems the panel lists on `screen` (none: raceable).
fn problems(screen: &str) -> Option<usize> {
    if screen.contains("RACEABLE: a lap") {
        return Some(0);
    }
    let at = screen.find("NOT RACEABLE (")? + "NOT RACEABLE (".len();
    screen[at..].split(')').next()?.parse().ok()
}

#[test]
fn a_circuit_drawn_from_nothing_is_checked_as_it_grows_and_saved() {
    let dir = temp("circuit");
    let path = dir.join("ring.track");
    // A new track of 30 x 12: grass in a wall; the cursor in the middle.
    let mut editor = Editor::new(Draft::new(30, 12), path.clone(), true);
    let mut at = editor.cursor;
    let mut keys = Vec::new();
    let mut stroke = |keys: &mut Vec<Event>, tool: char, brush: char, points: &[(usize, usize)]| {
        keys.extend([press(tool), press(brush)]);
        for &p in points {
            keys.extend(go(at, p));
            keys.push(code(KeyCode::Char(' ')));
            at = p;
        }
        // A look at the panel after each stroke.
        keys.push(code(KeyCode::Null));
    };
    // A block of asphalt, a grass island in it: a ring road.
    stroke(&mut keys, 'b', 'a', &[(2, 2), (27, 9)]);
    stroke(&mut keys, 'b', 'g', &[(6, 5), (23, 6)]);
    // The finish across the top of the ring, a start slot behind it
    // facing along, checkpoint 1 across the bottom.
    stroke(&mut keys, 'l', 'f', &[(14, 2), (14, 4)]);
    stroke(&mut keys, 'p', 's', &[(11, 3)]);
    stroke(&mut keys, 'l', '1', &[(14, 7), (14, 9)]);
    // Waits for the checks' last answer, then saves.
    keys.extend(vec![code(KeyCode::Null); 40]);
    keys.push(ctrl('s'));
    keys.push(code(KeyCode::Null));
    // Drive it: the race's screen, then q back to the editor as it was,
    // its last stroke still there to undo.
    keys.push(press('d'));
    keys.extend(vec![code(KeyCode::Null); 30]);
    keys.push(press('q'));
    keys.extend(vec![code(KeyCode::Null); 3]);
    keys.push(press('u'));
    keys.push(code(KeyCode::Null));
    let mut console = Keys::new(keys);
    skid::app::edit::run(&mut console, &mut editor, true).unwrap();
    let counts: Vec<usize> = console.seen.iter().filter_map(|s| problems(s)).collect();
    let first = console.seen.iter().find(|s| problems(s).is_some()).unwrap();
    assert!(
        first.contains("EDIT ring.track") && first.contains("w # wall"),
        "{first}"
    );
    assert!(counts[0] > 0 && counts.last() == Some(&0), "{counts:?}");
    let saved = console.seen.iter().find(|s| s.contains("saved: "));
    assert!(saved.is_some(), "{:?}", console.seen.last());
    // Saved, its medals are timed off the keys' loop, and shown.
    assert!(
        console.seen.iter().any(|s| s.contains("arcade: ")),
        "{saved:?}"
    );
    let until = std::time::Instant::now() + Duration::from_mins(2);
    while !matches!(editor.medals, Some((_, Lookup::Known(_)))) {
        assert!(std::time::Instant::now() < until, "no medals in 120 s");
        editor.poll();
        std::thread::sleep(Duration::from_millis(50));
    }
    let medals = editor.medals.as_ref().and_then(|m| m.1.medals());
    assert!(medals.is_some_and(|m| m.author > 5.0), "{medals:?}");
    let raced = console
        .seen
        .iter()
        .position(|s| s.contains("LAP") && !s.contains("EDIT"));
    let back = console
        .seen
        .iter()
        .rposition(|s| s.contains("EDIT ring.track *"));
    assert!(raced.is_some() && back > raced, "{:?}", console.seen.last());
    let last = console.seen.last().unwrap();
    assert!(
        last.contains("EDIT ring.track *") && last.contains("1-9 ckpt"),
        "{last}"
    );
    // The file passes skid check, and the computer races it.
    saved_and_raced(&path);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The track at `path` passes `skid check`, and the computer races the
/// three laps a new track has.
fn saved_and_raced(path: &std::path::Path) {
    use skid::physics::{ModelKind, car::CarSpec};
    use skid::race::world::{Source, World};
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .arg("check")
        .arg(path)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let bytes = std::fs::read(path).unwrap();
    let track = skid::track::parse("ring.track", &bytes).unwrap();
    let raceable = skid::track::course::raceable(track, "ring.track").unwrap();
    let (track, kind) = (raceable.track().clone(), ModelKind::Arcade);
    let spec = CarSpec::default_for(kind);
    let driver = skid::ai::Driver::new(&track, &spec, kind, 1.0);
    let mut world = World::new(track, spec, kind, 120);
    world.cars[0].source = Source::Driver(Box::new(driver));
    while world.cars[0].laps.lap < 3 {
        assert!(world.time() < 300.0, "the computer did not finish its laps");
        world.step();
    }
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// The mouse paints where it is dragged, press to release one stroke;
/// a rectangle goes from where it is pressed to where it is let go; a
/// press off the map does nothing.
#[test]
fn the_mouse_paints_where_it_is_dragged() {
    use MouseEventKind::{Down, Drag, Up};
    let left = MouseButton::Left;
    let dir = temp("mouse");
    let mut editor = Editor::new(Draft::new(30, 12), dir.join("m.track"), false);
    let events = vec![
        press('a'),
        mouse(Down(left), 2, 2),
        mouse(Drag(left), 6, 2),
        mouse(Drag(left), 8, 2),
        mouse(Drag(left), 8, 4),
        mouse(Up(left), 8, 4),
        press('e'),
        press('w'),
        mouse(Down(left), 12, 6),
        mouse(Drag(left), 13, 7),
        mouse(Up(left), 16, 9),
        mouse(Down(left), 70, 20),
    ];
    let mut console = Keys::new(events);
    skid::app::edit::run(&mut console, &mut editor, false).unwrap();
    let d = &editor.draft;
    let road: String = (2..=8).map(|x| d.get(x, 2).unwrap()).collect();
    assert_eq!(road, ".......");
    assert_eq!((d.get(8, 3), d.get(8, 4)), (Some('.'), Some('.')));
    let corners = [(12, 6), (16, 6), (12, 9), (16, 9), (14, 6)].map(|(x, y)| d.get(x, y));
    assert_eq!(corners, [Some('#'); 5]);
    assert_eq!(d.get(14, 7), Some(' '), "an outline, not filled");
    assert_eq!(editor.history(), (2, 0), "a stroke each");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Name, laps and the map's size are set by keys, typed as typed (case
/// and all); a size that cannot be is refused, saying why; an
/// unraceable track is saved, as a draft, when asked twice.
#[test]
fn name_laps_and_size_are_set_and_saved() {
    let dir = temp("settings");
    let path = dir.join("s.track");
    let mut editor = Editor::new(Draft::new(60, 20), path.clone(), false);
    let mut events = vec![press('n')];
    events.extend(vec![code(KeyCode::Backspace); 12]);
    events.extend("My Ring".chars().map(press));
    events.extend([code(KeyCode::Enter), press(']'), press(']'), press('x')]);
    events.extend(vec![code(KeyCode::Backspace); 8]);
    events.extend("2x2".chars().map(press));
    events.push(code(KeyCode::Enter));
    events.extend(vec![code(KeyCode::Backspace); 3]);
    events.extend("40x15".chars().map(press));
    events.extend([
        code(KeyCode::Enter),
        ctrl('s'),
        ctrl('s'),
        code(KeyCode::Null),
    ]);
    let mut console = Keys::new(events);
    skid::app::edit::run(&mut console, &mut editor, false).unwrap();
    assert!(
        console.seen.iter().any(|s| s.contains("a size is WxH")),
        "the bad size refused"
    );
    assert!(console.seen.iter().any(|s| s.contains("My Ring · 5 laps")));
    let text = std::fs::read_to_string(&path).unwrap();
    let saved = Draft::read(&text);
    assert_eq!(saved.front("name").as_deref(), Some("My Ring"), "{text}");
    assert_eq!(saved.front("laps").as_deref(), Some("5"), "{text}");
    assert_eq!(saved.size(), (40, 15), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undo_and_redo_go_back_and_forth_without_limit() {
    use skid::input::keys::KeyName::{Char, Left, Right, Space};
    let dir = temp("undo");
    let mut e = Editor::new(Draft::new(20, 8), dir.join("u.track"), false);
    let blank = e.draft.text();
    for _ in 0..20 {
        e.key(Left);
    }
    for _ in 0..12 {
        e.key(Char('a'));
        e.key(Space);
        e.key(Right);
    }
    let drawn = e.draft.text();
    assert_eq!(e.history(), (12, 0));
    for _ in 0..12 {
        e.key(Char('u'));
    }
    assert_eq!(e.draft.text(), blank);
    for _ in 0..12 {
        e.key(Char('y'));
    }
    assert_eq!(e.draft.text(), drawn);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_bundled_track_opens_and_saves_as_the_same_bytes() {
    let dir = temp("bundled");
    for (name, text) in skid::track::bundled::TRACKS {
        let path = dir.join(format!("{name}.track"));
        std::fs::write(&path, text).unwrap();
        let (draft, at) = skid::app::edit::open(Some(path.to_str().unwrap())).unwrap();
        let mut e = Editor::new(draft, at, false);
        e.key(skid::input::keys::KeyName::Ctrl('s'));
        assert!(
            e.note.as_deref().is_some_and(|n| n.starts_with("saved: ")),
            "{name}: {:?}",
            e.note
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), *text, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
