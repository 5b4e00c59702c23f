//! The real-time game loop (`game::run`) on a console that is not the
//! process's terminal, as an SSH channel will be: events from a script,
//! frames into a buffer that a terminal emulator (vt100) reads, the size
//! told, never asked. What the player sees after each batch of events is
//! asserted.

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Size;
use skid::app::game::{self, Settings};
use skid::app::{App, Options, Screen};
use skid::console::{Console, Sink};
use skid::track::bundled;

/// A console that hands the game one batch of events per wait and, before
/// each batch, reads what the game drew so far into a terminal emulator.
struct Scripted {
    /// How long to wait before each batch, and the batch.
    batches: VecDeque<(Duration, Vec<Event>)>,
    pending: VecDeque<Event>,
    size: Size,
    tap: Sink,
    term: vt100::Parser,
    /// The screen as the player saw it before each batch (the first: the
    /// first frame), and last when the script ran out.
    seen: Vec<String>,
    /// How many times the game asked for the size.
    asked: usize,
}

impl Scripted {
    fn new(size: Size, batches: Vec<(Duration, Vec<Event>)>) -> Scripted {
        // A first wait with nothing in it: the first frame is drawn then.
        let mut batches: VecDeque<_> = batches.into();
        batches.push_front((Duration::from_millis(1), Vec::new()));
        Scripted {
            batches,
            pending: VecDeque::new(),
            size,
            tap: Sink::default(),
            term: vt100::Parser::new(nz(size.height), nz(size.width), 0),
            seen: Vec::new(),
            asked: 0,
        }
    }

    fn look(&mut self) {
        let bytes = self.tap.take();
        self.term.process(&bytes);
        self.seen.push(self.term.screen().contents());
    }
}

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).unwrap()
}

impl Console for Scripted {
    type Out = Sink;

    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if let Some(ev) = self.pending.pop_front() {
            return Ok(Some(ev));
        }
        if timeout.is_zero() {
            return Ok(None);
        }
        // A wait: the frame the last batch asked for is due by now.
        std::thread::sleep(timeout);
        let Some((wait, batch)) = self.batches.pop_front() else {
            self.look();
            // Out of script: the player quits.
            return Ok(Some(key(KeyCode::Char('q'))));
        };
        if !wait.is_zero() {
            // The game goes on meanwhile: hand it nothing until then.
            self.batches.push_front((Duration::ZERO, batch));
            let slept = wait.min(timeout.max(Duration::from_millis(1)));
            std::thread::sleep(slept);
            if let Some(front) = self.batches.front_mut() {
                front.0 = wait.saturating_sub(slept);
            }
            return Ok(None);
        }
        self.look();
        self.pending = batch.into();
        for ev in &self.pending {
            if let Event::Resize(w, h) = *ev {
                self.size = Size::new(w, h);
                self.term.screen_mut().set_size(nz(h), nz(w));
            }
        }
        Ok(self.pending.pop_front())
    }

    fn size(&mut self) -> io::Result<Size> {
        self.asked += 1;
        Ok(self.size)
    }

    fn output(&mut self) -> Sink {
        self.tap.clone()
    }
}

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn app() -> App {
    App::new(Options {
        track: Some(("oval".into(), bundled::load_raceable("oval").unwrap())),
        hz: 120,
        ..Options::default()
    })
}

/// Runs the game on a scripted console at `fps`; returns the console and
/// the app.
fn play(size: Size, fps: u32, batches: Vec<(Duration, Vec<Event>)>) -> (Scripted, App) {
    let mut console = Scripted::new(size, batches);
    let mut app = app();
    let settings = Settings {
        fps,
        hz: 120,
        quit_at_end: false,
    };
    let stats = game::run(&mut console, &mut app, &settings, None).unwrap();
    assert!(stats.frames >= 1, "no frame was drawn");
    (console, app)
}

/// The rows of a screen, trimmed.
fn rows(screen: &str) -> Vec<&str> {
    screen.lines().map(str::trim_end).collect()
}

/// A batch of events handed over at once.
fn now(events: Vec<Event>) -> (Duration, Vec<Event>) {
    (Duration::ZERO, events)
}

#[test]
fn the_first_frame_is_the_title_menu_at_the_consoles_size_with_nothing_asked() {
    let (console, app) = play(Size::new(80, 24), 1000, vec![]);
    let first = &console.seen[0];
    assert!(first.contains("oval"), "no track named:\n{first}");
    assert!(first.contains("Start race"), "{first}");
    assert_eq!(console.asked, 1, "the size is asked once, at start");
    assert_eq!(app.screen, Screen::Menu);
    assert!(app.quit);
}

#[test]
fn a_resize_from_the_console_redraws_the_whole_screen_at_the_new_size() {
    let big = Size::new(150, 45);
    let (console, _) = play(
        Size::new(80, 24),
        1000,
        vec![now(vec![Event::Resize(big.width, big.height)])],
    );
    let (small, large) = (&console.seen[0], console.seen.last().unwrap());
    // The menu's box sits in the middle of the screen, whatever its width.
    let margins = |screen: &str| {
        let row = rows(screen).into_iter().find(|r| r.contains('┌')).unwrap();
        let chars: Vec<char> = row.chars().collect();
        let left = chars.iter().position(|&c| c == '┌').unwrap();
        let right = chars.iter().position(|&c| c == '┐').unwrap();
        (left, right)
    };
    let (l, r) = margins(small);
    assert!(
        l.abs_diff(80 - 1 - r) <= 1,
        "not centred in 80 columns:\n{small}"
    );
    let (l, r) = margins(large);
    assert!(
        l.abs_diff(usize::from(big.width) - 1 - r) <= 1,
        "not centred in 150 columns:\n{large}"
    );
    // Nothing of the 80-column frame is left.
    assert!(
        rows(large).iter().all(|r| r.chars().nth(15) != Some('│')),
        "the old frame shows through:\n{large}"
    );
}

#[test]
fn keys_from_the_console_start_a_race_and_drive_the_car() {
    let w = || key(KeyCode::Char('w'));
    let mut batches = vec![now(vec![key(KeyCode::Enter)])];
    // The countdown is 3 s of the game's real time.
    batches.push((Duration::from_millis(3200), vec![w()]));
    // W held in a terminal without releases: a press, repeats after half a
    // second, every 33 ms.
    batches.push((Duration::from_millis(500), vec![w()]));
    batches.extend((0..20).map(|_| (Duration::from_millis(33), vec![w()])));
    let (console, app) = play(Size::new(80, 24), 30, batches);
    // Out of script the player presses q: from a race begun in the menu,
    // back to the menu, and q again quits.
    assert_eq!(app.screen, Screen::Menu);
    let race = (console.seen.iter().rev())
        .find(|s| s.contains("SPEED"))
        .expect("a frame of the race");
    let kmh: u32 = (race.lines())
        .find_map(|l| l.split("SPEED").nth(1))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("a speed on screen");
    assert!(kmh > 18, "the car did not obey W: {kmh} km/h\n{race}");
}
