//! A test driver that laps `pocket` with nothing but keys, as a player at
//! a terminal would, once in a terminal that sends releases (the kitty
//! protocol) and once in one that sends only presses and autorepeat of
//! the newest key (tmux, most terminals over SSH: 500 ms, then every
//! 33 ms). Without releases its three laps must come within 15% of its
//! three laps with them, on every model but `dynamic` (see below).
//!
//! Measured when written (seconds for three laps from a standing start,
//! with releases / without): arcade 148.5 / 133.3, dynamic 70.4 / 93.2,
//! strafe 70.3 / 69.3, kinematic 62.2 / 58.6, tire 68.1 / 68.6. The
//! rear-driven `dynamic` is 32% slower without releases: coasting through
//! a bend, a steering tap lasts a whole repeat delay, and its slip-angle
//! physics turns the resulting weave into slides; it is held to 50%.

mod common;

use common::keyboard::{Keyboard, Player};
use ratatui::crossterm::event::KeyCode;
use skid::ai::Driver;
use skid::app::Options;
use skid::physics::ModelKind;
use skid::track::bundled;

const W: KeyCode = KeyCode::Char('w');
const A: KeyCode = KeyCode::Char('a');
const S: KeyCode = KeyCode::Char('s');
const D: KeyCode = KeyCode::Char('d');

/// Laps timed.
const LAPS: usize = 3;
/// Seconds of simulated time before giving up.
const LIMIT: f64 = 400.0;

/// A player at the keyboard, following what the computer driver (at skill
/// 0.9, a margin below its limit) would do. Every 1/30 s they look and
/// set their keys:
/// * W while it wants throttle, S while it wants to brake (its wishes
///   smoothed over 0.15 s, as a person does not flick keys on a one-tick
///   wish), braking first and turning after, unless the turn cannot wait;
/// * A or D by the steering owed: the driver's wished steer less the steer
///   the game actually read (as the player sees the car respond), summed
///   over time, with hysteresis;
/// * as the README's controls say, in both terminals: after pressing a
///   pedal while a steering key is down, that steering key again (the last
///   key pressed is the one that steers); after letting go of a steering
///   key while a pedal is down, that pedal again (which ends the steering
///   at once).
struct Racer {
    driver: Driver,
    gas: f64,
    brake: f64,
    /// Lock fraction x seconds.
    owed: f64,
    /// A steering key to press again at the next look.
    again: Option<KeyCode>,
    /// The keys that steer right and left.
    right: KeyCode,
    left: KeyCode,
}

impl Racer {
    fn new(p: &Player, model: ModelKind) -> Racer {
        let race = p.app.race.as_ref().unwrap();
        let driver = Driver::new(&race.sim.track, race.sim.car.spec(), model, 0.9);
        let (right, left) = if model == ModelKind::Strafe {
            (KeyCode::Right, KeyCode::Left)
        } else {
            (D, A)
        };
        Racer {
            driver,
            gas: 0.0,
            brake: 0.0,
            owed: 0.0,
            again: None,
            right,
            left,
        }
    }

    /// Watches one tick and, every fourth, sets the keys.
    fn drive(&mut self, p: &mut Player) {
        let race = p.app.race.as_ref().unwrap();
        let dt = race.sim.dt;
        let want = self.driver.controls(&race.sim.car, dt);
        let k = dt / 0.15;
        self.gas += k * (want.throttle - self.gas);
        self.brake += k * (want.brake - self.brake);
        let read = race.last.steer;
        self.owed = (self.owed + (want.steer - read) * dt).clamp(-0.1, 0.1);
        if !p.tick.is_multiple_of(4) {
            return;
        }
        let t = p.now();
        let keys = &mut p.keys;
        let set = |keys: &mut Keyboard, code, on: bool| {
            if on {
                keys.down(code, t)
            } else {
                keys.up(code, t)
            }
        };
        if let Some(code) = self.again.take() {
            keys.down(code, t);
        }
        let braking = self.brake > 0.25;
        let throttle = self.gas > 0.45 && !braking;
        let pedal_down = (braking && !keys.is_down(S)) || (throttle && !keys.is_down(W));
        set(keys, S, braking);
        set(keys, W, throttle);
        let wait = braking && self.owed.abs() < 0.05;
        let right = !wait && self.owed > if keys.is_down(self.right) { 0.0 } else { 0.02 };
        let left = !wait && self.owed < if keys.is_down(self.left) { 0.0 } else { -0.02 };
        let mut let_go = false;
        for (code, on) in [(self.right, right), (self.left, left)] {
            if on && pedal_down && keys.is_down(code) {
                keys.up(code, t);
                self.again = Some(code);
            } else {
                let_go |= !on && keys.is_down(code);
                set(keys, code, on);
            }
        }
        if let_go && !right && !left && !pedal_down {
            for code in [W, S] {
                if keys.is_down(code) {
                    keys.up(code, t);
                    keys.down(code, t);
                }
            }
        }
    }
}

/// Seconds for [`LAPS`] laps of `pocket` driven by keys on `keys`; None if
/// not done in [`LIMIT`] seconds.
fn laps(model: ModelKind, keys: Keyboard) -> Option<f64> {
    let mut p = Player::racing(
        Options {
            track: Some(("pocket".into(), bundled::load("pocket").unwrap())),
            model: Some(model),
            hz: 120,
            ..Options::default()
        },
        keys,
    );
    let mut racer = Racer::new(&p, model);
    while p.now() < LIMIT {
        let race = p.app.race.as_ref().unwrap();
        if let Some(&end) = race.log.ends.get(LAPS - 1) {
            return Some(end as f64 * race.sim.dt);
        }
        racer.drive(&mut p);
        p.step();
    }
    None
}

#[test]
fn laps_by_keys_alone_without_releases_are_within_15_percent() {
    let mut report = Vec::new();
    for model in ModelKind::ALL {
        let exact = laps(model, Keyboard::kitty(0.5, 0.033));
        let tmux = laps(model, Keyboard::press_only(0.5, 0.033));
        report.push(format!("{model}: {exact:?} / {tmux:?}"));
        let (Some(exact), Some(tmux)) = (exact, tmux) else {
            panic!("{model} did not finish: {report:?}");
        };
        let most = if model == ModelKind::Dynamic {
            1.5
        } else {
            1.15
        };
        assert!(
            tmux <= exact * most,
            "{model}: {tmux:.1} s without releases, {exact:.1} s with: {report:?}"
        );
    }
    eprintln!("{LAPS} laps, with releases / without: {report:?}");
}
