//! The game loop: real time in, fixed steps out.
//!
//! Each turn drains every pending terminal event, then runs the physics
//! ticks that the [`Clock`] says are due (the same fixed-step clock as
//! the server's hub), then draws if something visible changed and a frame
//! is due (`--fps`, 30 by default). Real time is read here and nowhere
//! else: the physics only ever sees ticks, so frame rate and terminal
//! size cannot change a race.
//!
//! Events come from a [`Console`] and frames go to it: the local terminal
//! or any other screen. Output goes through one 64 KiB buffer, flushed
//! once per frame, each frame inside synchronized output so no terminal
//! shows half of one.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::Event;
use ratatui::layout::Size;

use crate::app::{App, LOCAL, Screen};
use crate::base::clock::{Cadence, Clock};
use crate::console::{Console, Frames};
use crate::race::session::{self, Read, screen_size};

/// How a game ends and what it reports.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    pub fps: u32,
    pub hz: u32,
    pub quit_at_end: bool,
}

/// What `--stats` prints.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub frames: u64,
    pub bytes: u64,
    pub steps: u64,
    pub seconds: f64,
}

impl Stats {
    pub fn line(&self) -> String {
        let fps = if self.seconds > 0.0 {
            self.frames as f64 / self.seconds
        } else {
            0.0
        };
        format!(
            "frames={} bytes={} steps={} fps={:.1}",
            self.frames, self.bytes, self.steps, fps
        )
    }
}

/// Draws the game's screen as one frame and sends it at once.
pub fn draw_frame<W: Write>(frames: &mut Frames<W>, app: &App) -> io::Result<()> {
    frames.frame(|buf, area, before| crate::app::paint(buf, area, app, before))
}

/// Applies one terminal event; returns whether the screen must be cleared.
pub fn handle(app: &mut App, ev: Event, now: f64) -> bool {
    match ev {
        Event::Key(k) => match session::read(&k, app.screen == Screen::Menu) {
            Read::Redraw => {
                app.session.dirty = true;
                true
            }
            Read::Key {
                drive,
                release,
                id,
                command,
            } => {
                app.key(drive, release, id, now);
                if let Some(c) = command {
                    app.command(c);
                }
                false
            }
        },
        Event::FocusLost => {
            app.focus_lost();
            false
        }
        Event::Resize(w, h) => {
            let (w, h) = screen_size(w.into(), h.into());
            app.resize(w, h);
            true
        }
        _ => false,
    }
}

/// Runs the game on `console` until the player quits; returns what
/// `--stats` reports. With a `recorder`, the race's complete holds are
/// written as it goes (each turn of the loop; a failed write is tried
/// again the next turn); the caller writes the last hold when the game is
/// over.
pub fn run<C: Console>(
    console: &mut C,
    app: &mut App,
    settings: &Settings,
    mut recorder: Option<&mut crate::race::script::Recorder>,
) -> io::Result<Stats> {
    let size = console.size()?;
    let (w, h) = screen_size(size.width.into(), size.height.into());
    let (mut frames, wire) = Frames::new(console.output(), Size::new(w, h));
    frames.redraw_all()?;
    app.resize(w, h);

    let start = Instant::now();
    let mut clock = Clock::new(settings.hz, start);
    let mut frames_due = Cadence::new(settings.fps, start);
    let mut stats = Stats::default();
    loop {
        let frame = frames_due.every();
        let wait = if app.running() {
            clock.dt().min(frame)
        } else {
            frame
        };
        let mut next = console.next_event(wait)?;
        while let Some(ev) = next {
            let resized = matches!(ev, Event::Resize(..));
            if handle(app, ev, clock.secs(Instant::now())) {
                if resized {
                    // The size the game draws (`handle` took it).
                    let (w, h) = app.session.size;
                    frames.set_size(Size::new(w, h))?;
                } else {
                    frames.redraw_all()?;
                }
            }
            next = console.next_event(Duration::ZERO)?;
        }
        if console.redraw_wanted() {
            // Back from a stop: the screen is the shell's, and the player
            // comes back to a paused race.
            frames.redraw_all()?;
            if app.screen == Screen::Race && !app.paused {
                app.command(crate::app::Command::Pause);
            }
            app.session.dirty = true;
        }
        app.poll();
        let now = Instant::now();
        if app.running() {
            while let Some(at) = clock.step_due(now) {
                app.tick(clock.secs(at));
                stats.steps += 1;
            }
        } else {
            clock.hold(now);
        }
        let replay_over = app
            .race
            .as_ref()
            .and_then(|r| r.view(LOCAL))
            .is_some_and(|v| v.replay_done());
        // The title menu's Build a track: the caller runs the editor.
        if app.quit
            || app.editor_asked
            || (settings.quit_at_end && (replay_over || app.screen == Screen::Results))
        {
            break;
        }
        let seat = app.race.as_ref().and_then(|race| race.seat(LOCAL));
        if let (Some(rec), Some(seat)) = (recorder.as_deref_mut(), seat) {
            let _ = rec.sync(&seat.recording, app.races, false, || app.race_about());
        }
        if app.session.dirty && frames_due.due(now) {
            draw_frame(&mut frames, app)?;
            app.session.dirty = false;
            stats.frames += 1;
            frames_due.drawn(now);
        }
    }
    stats.bytes = wire.bytes();
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}
