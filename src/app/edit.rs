//! The track editor's loop (`skid edit`): a terminal's key presses to the
//! editor ([`Editor::key`]), its screen drawn when something changed (a
//! key, a resize, the checks' answer). There is no clock to keep: the
//! editor waits for keys, and for the thread that checks the drawing. d
//! races the drawing there and then in the game's own loop ([`drive`]),
//! and q comes back to the editor as it was.

use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Size;

use crate::console::damage::Damage;
use crate::console::{Console, Frames};
use crate::input::keys::key_name;
use crate::race::edit::{Asked, Editor};
use crate::race::session::screen_size;

/// How long the loop waits for a key before it looks for the checks'
/// answer again.
const LOOK: Duration = Duration::from_millis(25);

/// Races `editor`'s drawing on `console` from its start (the game's own
/// loop, alone on the track), until the person leaves the race with q.
/// A drawing that no longer parses (it was checked before) is said so.
fn drive<C: Console>(console: &mut C, editor: &mut Editor, color: bool) -> io::Result<()> {
    let path = editor.path.display().to_string();
    let text = editor.draft.text();
    let track = crate::track::parse(&path, text.as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|t| crate::track::course::raceable(t, &path).map_err(|e| e.to_string()));
    let track = match track {
        Ok(track) => track,
        Err(why) => {
            editor.note = Some(why);
            return Ok(());
        }
    };
    let hz = crate::physics::DEFAULT_HZ;
    let name = track.track().name.clone();
    let mut app = crate::app::App::new(crate::app::Options {
        track: Some((name, track)),
        hz,
        color,
        background: true,
        ..crate::app::Options::default()
    });
    app.start_race();
    let settings = crate::app::game::Settings {
        fps: 30,
        hz,
        quit_at_end: false,
    };
    crate::app::game::run(console, &mut app, &settings, None).map(|_| ())
}

/// Runs `editor` on `console` (in colour unless `color` is false) until
/// the person leaves it.
pub fn run<C: Console>(console: &mut C, editor: &mut Editor, color: bool) -> io::Result<()> {
    let size = console.size()?;
    let (mut frames, _) = Frames::new(console.output(), sized(size.width, size.height));
    frames.redraw_all()?;
    let now = sized(size.width, size.height);
    editor.resize(now.width, now.height);
    console.mouse(true)?;
    let left = edit_until_left(console, editor, color, &mut frames);
    console.mouse(false)?;
    left
}

/// Whether `k` went into the setting being typed, if one is: a
/// character as typed (case and all), or Backspace.
fn typing(editor: &mut Editor, k: &KeyEvent) -> bool {
    if editor.prompt.is_none() || k.modifiers.contains(KeyModifiers::CONTROL) {
        return false;
    }
    match k.code {
        KeyCode::Char(c) => editor.typed(c),
        KeyCode::Backspace => editor.erase(),
        _ => return false,
    }
    true
}

/// A terminal's size as the screen is drawn (clamped as every screen).
fn sized(w: u16, h: u16) -> Size {
    let (w, h) = screen_size(w.into(), h.into());
    Size::new(w, h)
}

/// [`run`]'s loop, on `frames`, until the person leaves the editor.
fn edit_until_left<C: Console>(
    console: &mut C,
    editor: &mut Editor,
    color: bool,
    frames: &mut Frames<C::Out>,
) -> io::Result<()> {
    let mut dirty = true;
    loop {
        let mut next = console.next_event(LOOK)?;
        while let Some(ev) = next {
            match ev {
                // A press or a key's repeat (held, an arrow moves on).
                // A setting being typed: characters as typed.
                Event::Key(k) if k.kind != KeyEventKind::Release && typing(editor, &k) => {
                    dirty = true;
                }
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(key) = key_name(&k) {
                        match editor.key(key) {
                            Asked::Leave => return Ok(()),
                            Asked::Drive => {
                                // The game reads no mouse.
                                console.mouse(false)?;
                                drive(console, editor, color)?;
                                console.mouse(true)?;
                                frames.redraw_all()?;
                            }
                            Asked::Nothing => {}
                        }
                        dirty = true;
                    }
                }
                Event::Mouse(m) => {
                    editor.mouse(m.kind, m.column, m.row);
                    dirty = true;
                }
                Event::Resize(w, h) => {
                    let size = sized(w, h);
                    frames.set_size(size)?;
                    editor.resize(size.width, size.height);
                    dirty = true;
                }
                _ => {}
            }
            next = console.next_event(Duration::ZERO)?;
        }
        if console.redraw_wanted() {
            frames.redraw_all()?;
            dirty = true;
        }
        dirty |= editor.poll();
        if dirty {
            frames.frame(|buf, area, _| {
                crate::ui::edit::edit(buf, area, editor);
                crate::ui::theme::finish(buf, color);
                Damage::All
            })?;
            dirty = false;
        }
    }
}
