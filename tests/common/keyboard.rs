//! A player at a terminal, for driving the game through its real input
//! path (`game::handle`) in simulated time.
//!
//! [`Keyboard`] turns physical key downs and ups into the bytes a
//! terminal sends: a press when a key goes down, then, after the repeat
//! delay, repeats at the repeat rate of the newest key only (holding W and
//! then A repeats only A). A press-only terminal (tmux, most terminals
//! over SSH) sends a key's legacy bytes (`w`, `ESC [ A`) and nothing when
//! a key goes up; a kitty-protocol terminal sends `CSI code ; 1 : kind u`
//! reports, releases and repeats marked. The bytes go through the
//! server's parser ([`skid::serve::Keyboard`]), one packet per key, so
//! the game reads what it would read from a real terminal.
//!
//! [`Player`] runs an [`App`] at its physics rate with the clock the game
//! loop would give it, handing each event over before the tick it falls
//! in, and keeps the controls the game read on every tick.
#![allow(dead_code)]

use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};
use skid::app::game;
use skid::app::{App, Options};
use skid::physics::Controls;
use skid::race::Phase;

/// A terminal's keyboard.
pub struct Keyboard {
    /// Seconds from a press to the first repeat.
    pub delay: f64,
    /// Seconds between repeats.
    pub period: f64,
    /// Sends releases (the kitty keyboard protocol).
    pub releases: bool,
    /// Key downs (true) and ups to come, by time.
    plan: Vec<(f64, KeyCode, bool)>,
    down: Vec<KeyCode>,
    /// The key that repeats and when its next repeat is due.
    repeating: Option<(KeyCode, f64)>,
    queue: Vec<(f64, Event)>,
    /// The server's parser, which reads every packet this terminal sends.
    parser: skid::serve::Keyboard,
}

/// The bytes a terminal sends for `code` (a letter, Space or an arrow):
/// legacy ones, or with `kitty` a key report of the event's kind.
fn bytes(code: KeyCode, kind: KeyEventKind, kitty: bool) -> Vec<u8> {
    let (legacy, number, end): (&[u8], u32, char) = match code {
        KeyCode::Up => (b"\x1b[A", 1, 'A'),
        KeyCode::Down => (b"\x1b[B", 1, 'B'),
        KeyCode::Right => (b"\x1b[C", 1, 'C'),
        KeyCode::Left => (b"\x1b[D", 1, 'D'),
        KeyCode::Char(c) => return char_bytes(c, kind, kitty),
        other => panic!("no bytes for {other:?}"),
    };
    if !kitty {
        return legacy.to_vec();
    }
    format!("\x1b[{number};1:{}{end}", kind_number(kind)).into_bytes()
}

fn char_bytes(c: char, kind: KeyEventKind, kitty: bool) -> Vec<u8> {
    if kitty {
        format!("\x1b[{};1:{}u", u32::from(c), kind_number(kind)).into_bytes()
    } else {
        c.to_string().into_bytes()
    }
}

/// The kitty protocol's event type.
fn kind_number(kind: KeyEventKind) -> u8 {
    match kind {
        KeyEventKind::Press => 1,
        KeyEventKind::Repeat => 2,
        KeyEventKind::Release => 3,
    }
}

impl Keyboard {
    /// A terminal without key releases: tmux, or most terminals over SSH.
    pub fn press_only(delay: f64, period: f64) -> Keyboard {
        Keyboard {
            delay,
            period,
            releases: false,
            plan: Vec::new(),
            down: Vec::new(),
            repeating: None,
            queue: Vec::new(),
            parser: skid::serve::Keyboard::default(),
        }
    }

    /// A terminal with the kitty keyboard protocol.
    pub fn kitty(delay: f64, period: f64) -> Keyboard {
        Keyboard {
            releases: true,
            ..Keyboard::press_only(delay, period)
        }
    }

    /// `code` goes down at `t` (nothing is sent if it is down already).
    pub fn down(&mut self, code: KeyCode, t: f64) {
        self.plan.push((t, code, true));
    }

    /// `code` comes up at `t`.
    pub fn up(&mut self, code: KeyCode, t: f64) {
        self.plan.push((t, code, false));
    }

    /// `code` held from `from` to `to`.
    pub fn hold(&mut self, code: KeyCode, from: f64, to: f64) {
        self.down(code, from);
        self.up(code, to);
    }

    /// Whether `code` is down, as of the last [`Keyboard::sent`].
    pub fn is_down(&self, code: KeyCode) -> bool {
        self.down.contains(&code)
    }

    /// One packet of `code`'s bytes at `t`, read by the server's parser:
    /// the key event (after, for the first kitty report, the word that
    /// releases come).
    fn send(&mut self, t: f64, code: KeyCode, kind: KeyEventKind) {
        let events = self.parser.feed(&bytes(code, kind, self.releases));
        match events.last() {
            Some(Event::Key(k)) if k.code == code && k.kind == kind => {}
            _ => panic!("{code:?} {kind:?} read as {events:?}"),
        }
        self.queue.extend(events.into_iter().map(|ev| (t, ev)));
    }

    /// Queues the repeats due up to `t`.
    fn repeat_to(&mut self, t: f64) {
        while let Some((code, due)) = self.repeating.filter(|&(_, due)| due <= t) {
            let kind = if self.releases {
                KeyEventKind::Repeat
            } else {
                KeyEventKind::Press
            };
            self.send(due, code, kind);
            self.repeating = Some((code, due + self.period));
        }
    }

    /// The events sent up to `t`, in order, each with its time.
    pub fn sent(&mut self, t: f64) -> Vec<(f64, Event)> {
        // The earliest planned change first; at equal times, in the order
        // planned.
        self.plan.sort_by(|a, b| a.0.total_cmp(&b.0));
        while let Some(&(at, code, down)) = self.plan.first().filter(|p| p.0 <= t) {
            self.plan.remove(0);
            self.repeat_to(at);
            match (down, self.is_down(code)) {
                (true, false) => {
                    self.down.push(code);
                    self.send(at, code, KeyEventKind::Press);
                    self.repeating = Some((code, at + self.delay));
                }
                (false, true) => {
                    self.down.retain(|&c| c != code);
                    if self.repeating.is_some_and(|(c, _)| c == code) {
                        self.repeating = None;
                    }
                    if self.releases {
                        self.send(at, code, KeyEventKind::Release);
                    }
                }
                _ => {}
            }
        }
        self.repeat_to(t);
        std::mem::take(&mut self.queue)
    }
}

/// A game and the player at its keyboard, in simulated time: t = 0 is
/// the race's first physics step (the end of the countdown).
pub struct Player {
    pub app: App,
    pub keys: Keyboard,
    /// Ticks run since the race started.
    pub tick: u64,
    hz: f64,
}

impl Player {
    /// A race from `opts`, its countdown run through (keys planned before
    /// t = 0 are sent during it).
    pub fn racing(opts: Options, keys: Keyboard) -> Player {
        let hz = f64::from(opts.hz);
        let mut app = App::new(opts);
        app.start_race();
        let Some(Phase::Countdown(n)) = app.race.as_ref().map(|r| r.phase) else {
            panic!("a race starts with a countdown");
        };
        let mut keys = keys;
        for k in 0..n {
            let t = (f64::from(k) - f64::from(n)) / hz;
            for (at, ev) in keys.sent(t) {
                game::handle(&mut app, ev, at);
            }
            app.tick(t);
        }
        Player {
            app,
            keys,
            tick: 0,
            hz,
        }
    }

    /// The same race with the steering aid turned off (`t`): the keys'
    /// own reading, which the aid adds to where there are no releases.
    pub fn without_aid(mut self) -> Player {
        self.app.command(skid::input::keys::Command::ToggleAid);
        self
    }

    /// The time of tick `k`.
    pub fn time(&self, k: u64) -> f64 {
        k as f64 / self.hz
    }

    /// The time of the next tick.
    pub fn now(&self) -> f64 {
        self.time(self.tick)
    }

    /// Runs one tick: the events sent by then, then the physics step.
    pub fn step(&mut self) {
        let now = self.now();
        for (at, ev) in self.keys.sent(now) {
            game::handle(&mut self.app, ev, at);
        }
        self.app.tick(now);
        self.tick += 1;
    }

    /// Runs ticks until `t` seconds.
    pub fn run_to(&mut self, t: f64) {
        while self.now() <= t + 1e-9 {
            self.step();
        }
    }

    /// The controls the game read on every tick so far (its recording,
    /// what `--record` saves).
    pub fn controls(&self) -> Vec<Controls> {
        let race = self.app.race.as_ref().expect("racing");
        race.seats[&skid::race::world::FIRST]
            .recording
            .clone()
            .into_controls()
            .collect()
    }

    /// The ticks whose time lies in `from..to` seconds.
    pub fn ticks(&self, from: f64, to: f64) -> std::ops::Range<usize> {
        (from * self.hz).ceil() as usize..(to * self.hz).ceil() as usize
    }
}
