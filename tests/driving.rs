//! A test driver that laps `pocket` with nothing but keys, as a player at
//! a terminal would, once in a terminal that sends releases (the kitty
//! protocol) and once in one that sends only presses and autorepeat of
//! the newest key (tmux, most terminals over SSH: 500 ms, then every
//! 33 ms). Without releases its three laps must come within 15% of its
//! three laps with them, on every model.
//!
//! Measured when written (seconds for three laps from a standing start,
//! with releases / without): arcade 148.5 / 137.7, dynamic 70.4 / 72.9,
//! strafe 70.3 / 69.1, kinematic 62.2 / 64.8, tire 68.1 / 67.1. The
//! rear-driven `dynamic` was 32% slower without releases until taps
//! steered lightly (`skid::input`, "a tap steers lightly") and this
//! driver waited a tap out instead of steering against it. Over repeat
//! delays of 0.3 to 0.6 s and periods of 25 to 50 ms every model stays
//! within 15% but `arcade` at 0.6 s / 50 ms (22%).

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
///   at once);
/// * in a car, without releases: never the other steering key against a
///   tap that still steers (it ends within a repeat delay, and opposite
///   lock on top of it sets a sliding car weaving); in `strafe`, where
///   turning is only the view, they press it at once.
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
    /// When the steering key that is down went down.
    pressed: f64,
    /// Until when the game still steers by the last tap (a steering key
    /// let go before its first repeat), in a terminal without releases.
    tap_until: f64,
    /// Whether to wait out a tap rather than steer against it.
    waits: bool,
}

impl Racer {
    fn new(p: &Player, model: ModelKind) -> Racer {
        let race = p.app.race.as_ref().unwrap();
        let driver = Driver::new(&race.world.track, race.world.cars[0].car.spec(), model, 0.9);
        let strafe = model == ModelKind::Strafe;
        let (right, left) = if strafe {
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
            pressed: 0.0,
            tap_until: 0.0,
            waits: !strafe,
        }
    }

    /// Watches one tick and, every fourth, sets the keys.
    fn drive(&mut self, p: &mut Player) {
        let race = p.app.race.as_ref().unwrap();
        let dt = race.world.dt;
        let want = self.driver.controls(&race.world.cars[0].car, dt);
        let k = dt / 0.15;
        self.gas += k * (want.throttle - self.gas);
        self.brake += k * (want.brake - self.brake);
        let read = race.seats[0].last.steer;
        self.owed = (self.owed + (want.steer - read) * dt).clamp(-0.1, 0.1);
        if !p.tick.is_multiple_of(4) {
            return;
        }
        let t = p.now();
        let keys = &mut p.keys;
        let set = |keys: &mut Keyboard, code, on: bool| {
            if on {
                keys.down(code, t);
            } else {
                keys.up(code, t);
            }
        };
        if let Some(code) = self.again.take() {
            keys.down(code, t);
            self.pressed = t;
        }
        let braking = self.brake > 0.25;
        let throttle = self.gas > 0.45 && !braking;
        let pedal_down = (braking && !keys.is_down(S)) || (throttle && !keys.is_down(W));
        set(keys, S, braking);
        set(keys, W, throttle);
        if pedal_down {
            // A pedal pressed: any steering still read has ended.
            self.tap_until = t;
        }
        let hold_off = braking && self.owed.abs() < 0.05;
        let tap = self.waits && t < self.tap_until;
        let right = !hold_off
            && if keys.is_down(self.right) {
                self.owed > 0.0
            } else {
                self.owed > 0.02 && !(tap && read < 0.0)
            };
        let left = !hold_off
            && if keys.is_down(self.left) {
                self.owed < 0.0
            } else {
                self.owed < -0.02 && !(tap && read > 0.0)
            };
        let mut let_go = false;
        for (code, on) in [(self.right, right), (self.left, left)] {
            let down = keys.is_down(code);
            if on && pedal_down && down {
                keys.up(code, t);
                self.again = Some(code);
            } else {
                if on && !down {
                    self.pressed = t;
                }
                if !on && down {
                    let_go = true;
                    if !keys.releases && t < self.pressed + keys.delay {
                        self.tap_until = self.pressed + keys.delay + 0.025;
                    }
                }
                set(keys, code, on);
            }
        }
        if let_go && !right && !left && !pedal_down {
            for code in [W, S] {
                if keys.is_down(code) {
                    keys.up(code, t);
                    keys.down(code, t);
                    self.tap_until = t;
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
            track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
            model: Some(model),
            hz: 120,
            ..Options::default()
        },
        keys,
    );
    let mut racer = Racer::new(&p, model);
    while p.now() < LIMIT {
        let race = p.app.race.as_ref().unwrap();
        if let Some(&end) = race.seats[0].log.ends.get(LAPS - 1) {
            return Some(end as f64 * race.world.dt);
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
        assert!(
            tmux <= exact * 1.15,
            "{model}: {tmux:.1} s without releases, {exact:.1} s with: {report:?}"
        );
    }
    eprintln!("{LAPS} laps, with releases / without: {report:?}");
}
