//! The screen-reading driver that presses-only driving is measured with
//! (issue 50), ported to simulated time: every look it sees where the car
//! is, which way it points and the speed the panel shows, as they were
//! a moment ago; steers towards the next point of a route round `pocket`,
//! slows for sharp turns, and presses the keys it wants now, in whatever
//! order it needs them, knowing none of skid's key rules:
//!
//! * A or D while the car points more than 0.15 rad off the next point;
//!   W below the speed it wants less 3 km/h, S above it plus 12;
//! * on a terminal without releases, when it lets go of a key and wants
//!   no new one, it presses the keys it still holds again (an older key
//!   under a newer one never repeats again), and it does not press a new
//!   key while one it let go of may still count as held (0.62 s after a
//!   press, 0.17 s after a repeat): a careful person;
//! * stuck under 3 km/h with W down for a second, it backs up for 1.3 s.
//!
//! The real one reads the screen through tmux and is slower and noisier;
//! this one is exact, so designs can be compared in seconds, then checked
//! on the real one.
#![allow(dead_code)]

use super::keyboard::Player;
use ratatui::crossterm::event::KeyCode;
use std::f64::consts::PI;

/// The route round `pocket`, in track cells (column, row).
const POCKET: [(f64, f64); 21] = [
    (30.0, 2.5),
    (38.0, 3.0),
    (42.0, 3.5),
    (45.5, 5.5),
    (46.5, 8.0),
    (46.0, 10.0),
    (42.0, 11.2),
    (36.0, 11.2),
    (31.0, 10.5),
    (27.0, 10.0),
    (23.0, 10.3),
    (20.5, 12.5),
    (19.5, 14.5),
    (15.0, 15.3),
    (8.0, 15.0),
    (5.0, 12.0),
    (5.0, 8.0),
    (5.5, 5.0),
    (9.0, 3.2),
    (16.0, 3.0),
    (24.0, 2.7),
];

/// The top speed it wants, km/h, and the braking it plans with, m/s².
const VMAX: f64 = 50.0;
const DECEL: f64 = 4.0;

/// Seconds between looks, and how old what a look sees is.
const LOOK: f64 = 0.035;
const LATE: f64 = 0.045;

const W: KeyCode = KeyCode::Char('w');
const A: KeyCode = KeyCode::Char('a');
const S: KeyCode = KeyCode::Char('s');
const D: KeyCode = KeyCode::Char('d');

/// What one look sees: position in metres (one braille dot each way),
/// heading, speed in whole km/h.
#[derive(Clone, Copy)]
struct Seen {
    t: f64,
    x: f64,
    y: f64,
    heading: f64,
    kmh: f64,
}

/// The driver: what it saw, what it holds, what the terminal sent.
pub struct ScreenDriver {
    careful: bool,
    route: Vec<(f64, f64)>,
    next: usize,
    seen: Vec<Seen>,
    next_look: f64,
    /// Keys it holds, in the order pressed.
    down: Vec<KeyCode>,
    /// The key the terminal repeats, and when its next repeat is due.
    rep: Option<(KeyCode, f64)>,
    /// Each key's last press or repeat, and whether that was a repeat.
    sent: Vec<(KeyCode, f64, bool)>,
    stuck: Option<f64>,
    reverse: Option<(f64, KeyCode)>,
    releases: bool,
    /// What a look gets wrong: how much, and the state of its noise.
    noise: f64,
    rng: u64,
}

fn wrap(a: f64) -> f64 {
    (a + PI).rem_euclid(2.0 * PI) - PI
}

impl ScreenDriver {
    /// Round `pocket` on a keyboard with or without releases (as the
    /// [`Player`]'s keyboard is), reading and pressing as `how` says.
    pub fn pocket(releases: bool, how: Reading) -> ScreenDriver {
        ScreenDriver {
            careful: how.careful,
            route: POCKET
                .iter()
                .map(|&(c, r)| (c * 2.0 + 1.0, r * 4.0 + 2.0))
                .collect(),
            next: 0,
            seen: Vec::new(),
            next_look: 0.0,
            down: Vec::new(),
            rep: None,
            sent: Vec::new(),
            stuck: None,
            reverse: None,
            releases,
            noise: how.noise,
            rng: 0x9e37_79b9_7f4a_7c15 ^ (how.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1),
        }
    }

    /// Uniform in -1..1.
    fn unit(&mut self) -> f64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn expired(&self, k: KeyCode, now: f64) -> bool {
        self.sent
            .iter()
            .find(|s| s.0 == k)
            .is_none_or(|&(_, last, rep)| now - last > if rep { 0.15 } else { 0.6 } + 0.02)
    }

    fn note(&mut self, k: KeyCode, t: f64, repeat: bool) {
        self.sent.retain(|s| s.0 != k);
        self.sent.push((k, t, repeat));
    }

    fn set(&mut self, p: &mut Player, want: &[KeyCode], now: f64) {
        let rel: Vec<KeyCode> = self
            .down
            .iter()
            .copied()
            .filter(|k| !want.contains(k))
            .collect();
        let mut new: Vec<KeyCode> = want
            .iter()
            .copied()
            .filter(|k| !self.down.contains(k))
            .collect();
        for k in &rel {
            self.down.retain(|d| d != k);
            p.keys.up(*k, now);
        }
        if self.rep.is_some_and(|(k, _)| rel.contains(&k)) {
            self.rep = None;
        }
        if self.releases {
            for k in new {
                p.keys.down(k, now);
                self.down.push(k);
            }
            return;
        }
        if self.careful && !new.is_empty() {
            let blocking = self
                .sent
                .iter()
                .any(|s| !want.contains(&s.0) && !self.expired(s.0, now));
            if blocking {
                return;
            }
        }
        if !rel.is_empty() && new.is_empty() && !self.down.is_empty() {
            new = std::mem::take(&mut self.down);
            for &k in &new {
                p.keys.up(k, now);
            }
        }
        for k in new {
            p.keys.down(k, now);
            self.down.push(k);
            self.rep = Some((k, now + 0.5));
            self.note(k, now, false);
        }
    }

    /// The repeats the terminal sent since the last look, as the driver
    /// counts them.
    fn repeats(&mut self, now: f64) {
        while let Some((k, due)) = self.rep.filter(|&(_, due)| due <= now) {
            self.note(k, due, true);
            self.rep = Some((k, due + 0.033));
        }
    }

    /// Watches one tick and, when a look is due, sets the keys.
    pub fn drive(&mut self, p: &mut Player) {
        let now = p.now();
        let race = p.app.race.as_ref().unwrap();
        let body = race.world.cars[0].car.state.body;
        self.seen.push(Seen {
            t: now,
            x: body.pos.x,
            y: body.pos.y,
            heading: body.heading,
            kmh: (body.vel.length() * 3.6).round(),
        });
        if now + 1e-9 < self.next_look {
            return;
        }
        let jitter = self.unit();
        self.next_look = now + LOOK * (1.0 + 0.5 * self.noise * jitter);
        self.repeats(now);
        let late = LATE * (1.0 + self.noise * self.unit().abs());
        let cut = self
            .seen
            .iter()
            .rposition(|s| s.t <= now - late)
            .unwrap_or(0);
        self.seen.drain(..cut);
        let mut s = self.seen[0];
        s.heading += 0.2 * self.noise * (self.unit() + self.unit());
        s.x += self.noise * self.unit();
        s.y += self.noise * self.unit();
        while (self.route[self.next].0 - s.x).hypot(self.route[self.next].1 - s.y) < 7.0 {
            self.next = (self.next + 1) % self.route.len();
        }
        let (tx, ty) = self.route[self.next];
        let ang = (ty - s.y).atan2(tx - s.x);
        let err = wrap(ang - s.heading);
        let mut vt = VMAX;
        let mut d = (tx - s.x).hypot(ty - s.y);
        let (mut prev, mut pa) = ((tx, ty), ang);
        for k in 1..4 {
            let a2 = self.route[(self.next + k) % self.route.len()];
            let ang2 = (a2.1 - prev.1).atan2(a2.0 - prev.0);
            let turn = wrap(ang2 - pa).abs();
            let vc = VMAX * (1.0 - 0.75 * turn.min(1.6) / 1.6) / 3.6;
            vt = vt.min(3.6 * (vc * vc + 2.0 * DECEL * (d - 4.0).max(0.0)).sqrt());
            d += (a2.0 - prev.0).hypot(a2.1 - prev.1);
            pa = ang2;
            prev = a2;
        }
        if err.abs() > 0.8 {
            vt = vt.min(VMAX * 0.35);
        }
        if s.kmh < 3.0 && self.down.contains(&W) {
            self.stuck.get_or_insert(now);
        } else {
            self.stuck = None;
        }
        if self.stuck.is_some_and(|t| now - t > 1.0) {
            self.reverse = Some((now + 1.3, if err < 0.0 { D } else { A }));
            self.stuck = None;
        }
        if let Some((_, steer)) = self.reverse.filter(|r| r.0 > now) {
            self.set(p, &[S, steer], now);
            return;
        }
        let mut want = Vec::new();
        if err.abs() > 0.15 {
            want.push(if err < 0.0 { A } else { D });
        }
        if s.kmh < vt - 3.0 {
            want.push(W);
        } else if s.kmh > vt + 12.0 {
            want.push(S);
        }
        self.set(p, &want, now);
    }
}

/// The best lap in `secs` seconds of `model` round `pocket` on `keys`,
/// read and pressed as `how` says, or None.
pub fn best_lap(
    model: skid::physics::ModelKind,
    keys: super::keyboard::Keyboard,
    secs: f64,
    how: Reading,
) -> Option<f64> {
    let releases = keys.releases;
    let mut p = Player::racing(
        skid::app::Options {
            track: Some((
                "pocket".into(),
                skid::track::bundled::load_raceable("pocket").unwrap(),
            )),
            model: Some(model),
            hz: 120,
            ..skid::app::Options::default()
        },
        keys,
    );
    let mut driver = ScreenDriver::pocket(releases, how);
    if releases {
        // The real driver's first act: a release, which tells the game
        // that releases come.
        p.keys.down(W, 0.0);
        p.keys.up(W, 0.0);
    }
    while p.now() < secs {
        driver.drive(&mut p);
        p.step();
    }
    let race = p.app.race.as_ref().unwrap();
    let mut prev = 0;
    let laps = race.seats[&skid::race::world::FIRST]
        .log
        .ends
        .iter()
        .map(|&e| {
            let lap = e - prev;
            prev = e;
            lap
        });
    laps.min().map(|t| t as f64 * race.world.dt)
}

/// How the driver reads the screen and presses.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// How wrong a look is: 1 is about what the real driver's reading of
    /// braille gets wrong (heading off by up to 0.4 rad, position by a
    /// metre, a look late by up to twice its usual lateness); 0 exact.
    pub noise: f64,
    /// The noise's seed.
    pub seed: u64,
    /// Waits for a key it let go of to stop counting before pressing a
    /// new one, as the real driver does by default.
    pub careful: bool,
}
