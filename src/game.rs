//! The game loop: real time in, fixed steps out.
//!
//! Each turn drains every pending terminal event, then runs as many
//! physics ticks as the elapsed real time holds (an accumulator; at most a
//! quarter second at once, so a stall does not fast-forward the race), then
//! draws if something visible changed and a frame is due (`--fps`, 30 by
//! default). The clock is read here and nowhere else: the physics only
//! ever sees ticks, so frame rate and terminal size cannot change a race.
//!
//! Events come from a [`Console`] and frames go to it: the local terminal
//! or any other screen. Output goes through one 64 KiB buffer, flushed
//! once per frame, each frame inside synchronized output so no terminal
//! shows half of one.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::queue;
use ratatui::crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use ratatui::layout::{Rect, Size};

use crate::app::{App, LOCAL, Screen};
use crate::console::{Console, FrameWriter, SizedBackend, Wire, commit};
use crate::input::Key;
use crate::keys::{self, KeyName};
use crate::ui;

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

/// ratatui's terminal over a console's frame writer.
pub type FrameTerminal<W> = Terminal<SizedBackend<FrameWriter<W>>>;

/// A screen of `size` writing to `out`, and what its writer counts.
pub fn frame_terminal<W: Write>(
    out: W,
    size: Size,
) -> io::Result<(FrameTerminal<W>, std::rc::Rc<Wire>)> {
    let (writer, wire) = FrameWriter::new(out);
    Ok((Terminal::new(SizedBackend::new(writer, size))?, wire))
}

/// Draws the game's screen as one frame and sends it at once.
pub fn draw_frame<W: Write>(
    terminal: &mut FrameTerminal<W>,
    wire: &Wire,
    app: &App,
) -> io::Result<()> {
    send_frame(terminal, wire, |f| ui::draw(f, app))
}

/// Draws one frame with `draw` inside synchronized output (so no
/// terminal shows half of it) and sends it at once.
pub fn send_frame<W: Write>(
    terminal: &mut FrameTerminal<W>,
    wire: &Wire,
    draw: impl FnOnce(&mut ratatui::Frame),
) -> io::Result<()> {
    queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    terminal.draw(draw)?;
    queue!(terminal.backend_mut(), EndSynchronizedUpdate)?;
    commit(terminal.backend_mut(), wire)
}

/// The key a terminal event names, as [`crate::keys`] knows keys.
pub fn key_name(k: &KeyEvent) -> Option<KeyName> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Up => KeyName::Up,
        KeyCode::Down => KeyName::Down,
        KeyCode::Left => KeyName::Left,
        KeyCode::Right => KeyName::Right,
        KeyCode::Enter => KeyName::Enter,
        KeyCode::Esc => KeyName::Esc,
        KeyCode::Char(' ') => KeyName::Space,
        KeyCode::Char(c) if ctrl => KeyName::Ctrl(c.to_ascii_lowercase()),
        // The kitty protocol may report '?' as Shift and '/'.
        KeyCode::Char('/') if k.modifiers.contains(KeyModifiers::SHIFT) => KeyName::Char('?'),
        KeyCode::Char(c) => KeyName::Char(c.to_ascii_lowercase()),
        _ => return None,
    })
}

/// Tells keys apart for learning the terminal's key repeat.
pub fn key_id(code: KeyCode) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    code.hash(&mut h);
    h.finish() as u32
}

/// Applies one terminal event; returns whether the screen must be cleared.
pub fn handle(app: &mut App, ev: Event, now: f64) -> bool {
    match ev {
        Event::Key(k) => {
            let name = key_name(&k);
            if name.is_some_and(keys::is_redraw) {
                app.dirty = true;
                return true;
            }
            let release = k.kind == KeyEventKind::Release;
            app.key(name.and_then(Key::of), release, key_id(k.code), now);
            // A held command key repeats: act on presses only, except for
            // moving through the menu.
            let repeat = k.kind == KeyEventKind::Repeat;
            let command = name.and_then(keys::command).filter(|_| !release);
            if let Some(c) = command.filter(|_| !repeat || app.screen == Screen::Menu) {
                app.command(c);
            }
            false
        }
        Event::FocusLost => {
            app.focus_lost();
            false
        }
        Event::Resize(w, h) => {
            app.resize(w, h);
            true
        }
        _ => false,
    }
}

/// Clears the screen and makes the next frame a full one, without asking
/// the terminal anything: `Terminal::clear` asks for the cursor position
/// (`ESC[6n`) and waits up to 2 s for an answer that a bare pty, a slow
/// link or an SSH channel may never send (TERMINAL.md). Resizing to the
/// current size clears through the backend (`Clear(All)`) and resets the
/// previous frame instead.
pub fn redraw_all<W: Write>(terminal: &mut FrameTerminal<W>, wire: &Wire) -> io::Result<()> {
    let size = terminal.size()?;
    terminal.resize(Rect::new(0, 0, size.width, size.height))?;
    commit(terminal.backend_mut(), wire)
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
    mut recorder: Option<&mut crate::script::Recorder>,
) -> io::Result<Stats> {
    let size = console.size()?;
    let (mut terminal, wire) = frame_terminal(console.output(), size)?;
    redraw_all(&mut terminal, &wire)?;
    app.resize(size.width, size.height);

    let start = Instant::now();
    let dt = Duration::from_secs_f64(1.0 / f64::from(settings.hz.max(1)));
    let frame = Duration::from_secs_f64(1.0 / f64::from(settings.fps.max(1)));
    let mut stats = Stats::default();
    let mut acc = Duration::ZERO;
    let mut last = start;
    let mut next_frame = start;
    loop {
        let wait = if app.running() { dt.min(frame) } else { frame };
        let mut next = console.next_event(wait)?;
        while let Some(ev) = next {
            if let Event::Resize(w, h) = ev {
                terminal.backend_mut().set_size(Size::new(w, h));
            }
            if handle(app, ev, start.elapsed().as_secs_f64()) {
                redraw_all(&mut terminal, &wire)?;
            }
            next = console.next_event(Duration::ZERO)?;
        }
        if console.redraw_wanted() {
            // Back from a stop: the screen is the shell's, and the player
            // comes back to a paused race.
            redraw_all(&mut terminal, &wire)?;
            if app.screen == Screen::Race && !app.paused {
                app.command(crate::app::Command::Pause);
            }
            app.dirty = true;
        }
        app.poll();
        let now = Instant::now();
        if app.running() {
            acc += (now - last).min(Duration::from_millis(250));
            while acc >= dt {
                acc -= dt;
                app.tick((now - start).as_secs_f64());
                stats.steps += 1;
            }
        } else {
            acc = Duration::ZERO;
        }
        last = now;
        let replay_over = app
            .race
            .as_ref()
            .is_some_and(|r| r.view(LOCAL).replay_done());
        if app.quit || (settings.quit_at_end && (replay_over || app.screen == Screen::Results)) {
            break;
        }
        if let (Some(rec), Some(race)) = (recorder.as_deref_mut(), &app.race) {
            let _ = rec.sync(&race.seats[LOCAL].recording, app.races, false);
        }
        if app.dirty && now >= next_frame {
            draw_frame(&mut terminal, &wire, app)?;
            app.dirty = false;
            stats.frames += 1;
            // A steady cadence: the next frame is due a frame after this
            // one was due, unless the loop fell more than a frame behind.
            next_frame = (next_frame + frame).max(now);
        }
    }
    stats.bytes = wire.bytes();
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}
