//! The racing line of a track, computed off the game's thread: on a large
//! map the line takes up to seconds (README, "Benchmarks"), and the game
//! must keep drawing and answering keys (Esc, q, Ctrl-C) meanwhile.
//!
//! The line depends on the track alone, so the race that waits for it is
//! the same race, tick for tick, as one whose line was computed at once:
//! traces stay deterministic. Headless runs (`skid render`, tests) compute
//! it at once and never start a thread.

use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::ai::{Line, race_line};
use crate::track::Track;

/// A line being computed on a thread of its own for the track whose
/// content id is `id`.
pub struct Planner {
    pub id: String,
    /// The track's name, for the screen.
    pub name: String,
    /// Whether the player waits for it (false once they went back: the
    /// line is still kept when done, for when they ask again).
    pub wanted: bool,
    rx: Receiver<Line>,
}

/// What a planner has to say when asked.
pub enum Planned {
    Waiting,
    Done(Line),
    /// The thread ended without a line (it panicked: a bug).
    Failed,
}

impl Planner {
    pub fn start(track: &Track, name: &str) -> Planner {
        let (tx, rx) = mpsc::channel();
        let id = track.content_id();
        let track = track.clone();
        // Where no thread can be had, the sender is dropped unused and the
        // planner says it failed (a notice, not a panic).
        let _ = std::thread::Builder::new().spawn(move || {
            // The receiver may be gone (the player went back): fine.
            let _ = tx.send(race_line(&track));
        });
        Planner {
            id,
            name: name.to_string(),
            wanted: true,
            rx,
        }
    }

    /// Whether the line is ready, without waiting.
    pub fn poll(&self) -> Planned {
        match self.rx.try_recv() {
            Ok(line) => Planned::Done(line),
            Err(TryRecvError::Empty) => Planned::Waiting,
            Err(TryRecvError::Disconnected) => Planned::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{App, Command, Options, Screen};
    use std::time::{Duration, Instant};

    fn background_app() -> App {
        let mut app = App::new(Options {
            hz: 120,
            ..Options::default()
        });
        app.background = true;
        app
    }

    /// Polls until `done` holds; fails (not hangs) after a minute.
    fn poll_until(app: &mut App, done: impl Fn(&App) -> bool) {
        let since = Instant::now();
        while !done(app) {
            assert!(
                since.elapsed() < Duration::from_mins(1),
                "no line in a minute"
            );
            std::thread::sleep(Duration::from_millis(5));
            app.poll();
        }
    }

    #[test]
    fn the_game_waits_for_the_line_on_the_menu_and_then_races_on_it() {
        let mut app = background_app();
        app.start_race();
        // Nothing started yet: the menu shows the wait, and keys other
        // than Esc and q do nothing meanwhile.
        assert!(app.planner.is_some());
        assert!(app.race.is_none());
        assert_eq!(app.screen, Screen::Menu);
        let row = app.menu.row;
        app.command(Command::Up);
        app.command(Command::Enter);
        assert_eq!(app.menu.row, row);
        poll_until(&mut app, |a| a.race.is_some());
        assert!(app.planner.is_none());
        assert_eq!(app.screen, Screen::Race);
        assert_eq!(app.races, 1);
        // The very line a headless run computes at once.
        let track = &app.choices[app.menu.track].track;
        assert_eq!(app.race.as_ref().unwrap().line, race_line(track));
        // A restart needs no wait: the line is kept.
        app.command(Command::Restart);
        assert!(app.planner.is_none());
        assert_eq!(app.races, 2);
    }

    #[test]
    fn esc_gives_up_waiting_and_the_line_is_kept_for_later() {
        let mut app = background_app();
        app.start_race();
        app.command(Command::Back);
        assert!(!app.planner.as_ref().unwrap().wanted);
        // The menu answers keys again.
        let row = app.menu.row;
        app.command(Command::Up);
        assert_ne!(app.menu.row, row);
        app.command(Command::Down);
        // The line done after Esc starts no race, but is kept: asking
        // again starts the race at once.
        poll_until(&mut app, |a| a.planner.is_none());
        assert!(app.race.is_none());
        assert_eq!(app.screen, Screen::Menu);
        app.start_race();
        assert!(app.planner.is_none());
        assert_eq!(app.screen, Screen::Race);
    }

    #[test]
    fn q_quits_while_waiting() {
        let mut app = background_app();
        app.start_race();
        app.command(Command::Quit);
        assert!(app.quit);
    }
}
