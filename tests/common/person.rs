//! A person at the keyboard who knows nothing of skid's key rules: every
//! look they decide which keys they want down now, press the ones that
//! are not down (in no fixed order) and let go of the ones they no longer
//! want. What they want comes from the computer driver (`skid::ai`), as a
//! player follows the line they see; how they hold the keys comes from
//! what the screen shows them, never from the game's code.
//!
//! * W while they want throttle, S while they want to brake (the wishes
//!   smoothed over 0.15 s: nobody flicks a key for one tick's wish),
//!   braking first and turning after unless the turn cannot wait.
//! * A or D by the steering owed: the driver's wished steer less the
//!   steer the screen shows the game read, summed over time, in seconds of
//!   a key (a person learns by feel how far one key turns the wheels at
//!   the speed they are going), with hysteresis: the way a person
//!   feathers a key.
//! * A key they hold whose effect the screen has not shown for
//!   [`REACT`] seconds (the INPUT line and the pedal gauges) they let go
//!   of and press again, as anyone does with a key that seems not to
//!   take. This can be turned off, to see how the game does for a player
//!   who never does.
#![allow(dead_code)]

use super::keyboard::Player;
use ratatui::crossterm::event::KeyCode;
use skid::ai::Driver;
use skid::physics::Controls;

/// A person's reaction time to a key that does not take, seconds.
pub const REACT: f64 = 0.25;
/// Looks a second.
const LOOKS: f64 = 30.0;

const THROTTLE: usize = 0;
const BRAKE: usize = 1;
const RIGHT: usize = 2;
const LEFT: usize = 3;

pub struct Person {
    driver: Driver,
    gas: f64,
    brake: f64,
    /// Seconds of a steering key owed (right positive).
    owed: f64,
    /// How far a held steering key turns the wheels, as last seen.
    reach: f64,
    /// The keys for throttle, brake, right and left.
    keys: [KeyCode; 4],
    /// Since when each key is down without the screen showing it.
    unread: [Option<f64>; 4],
    /// Since when the throttle is on without their wanting it.
    unwanted_gas: Option<f64>,
    /// Whether they press again a key that does not take.
    pub presses_again: bool,
    /// The order of presses at one look comes from here.
    rng: u64,
    next_look: f64,
}

/// Whether the controls the game read show key `k`'s effect.
fn shows(read: &Controls, k: usize) -> bool {
    match k {
        THROTTLE => read.throttle > 0.0,
        BRAKE => read.brake > 0.0,
        RIGHT => read.steer > 0.0,
        _ => read.steer < 0.0,
    }
}

impl Person {
    /// A person following `driver`'s wishes with W A S D, the order of
    /// simultaneous presses shuffled from `seed`.
    pub fn new(driver: Driver, seed: u64) -> Person {
        Person {
            driver,
            gas: 0.0,
            brake: 0.0,
            owed: 0.0,
            reach: 1.0,
            keys: [
                KeyCode::Char('w'),
                KeyCode::Char('s'),
                KeyCode::Char('d'),
                KeyCode::Char('a'),
            ],
            unread: [None; 4],
            unwanted_gas: None,
            presses_again: true,
            rng: seed | 1,
            next_look: 0.0,
        }
    }

    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Watches one tick and, when a look is due, sets the keys.
    pub fn drive(&mut self, p: &mut Player) {
        let race = p.app.race.as_ref().unwrap();
        let dt = race.world.dt;
        // The next mark to cross: the screen shows it in green.
        let me = &race.world.cars[0];
        let want = (self.driver).controls(&me.car, dt, me.laps.wanted(&race.world.track));
        let k = dt / 0.15;
        self.gas += k * (want.throttle - self.gas);
        self.brake += k * (want.brake - self.brake);
        let read = race.seats[&skid::race::world::FIRST].last;
        self.reach = (self.reach * (1.0 - dt)).max(read.steer.abs()).max(0.02);
        self.owed = (self.owed + (want.steer - read.steer) / self.reach * dt).clamp(-0.6, 0.6);
        let t = p.now();
        if t + 1e-9 < self.next_look {
            return;
        }
        self.next_look = t + 1.0 / LOOKS;
        let keys = &mut p.keys;
        let down = |i: usize| keys.is_down(self.keys[i]);
        let gas = self.gas > 0.45;
        let lift = if !gas && read.throttle > 0.0 {
            t - *self.unwanted_gas.get_or_insert(t) >= REACT
        } else {
            self.unwanted_gas = None;
            false
        };
        let braking = self.brake > 0.25 || lift;
        let band = 0.05;
        let hold_off = braking && self.owed.abs() < 2.0 * band;
        let wanted = [
            gas && !braking,
            braking,
            !hold_off
                && if down(RIGHT) {
                    self.owed > 0.0
                } else {
                    self.owed > band
                },
            !hold_off
                && if down(LEFT) {
                    self.owed < 0.0
                } else {
                    self.owed < -band
                },
        ];
        let mut presses = Vec::new();
        for (i, &wanted) in wanted.iter().enumerate() {
            let is_down = keys.is_down(self.keys[i]);
            if !wanted {
                if is_down {
                    keys.up(self.keys[i], t);
                }
                self.unread[i] = None;
                continue;
            }
            if !is_down {
                presses.push(i);
                self.unread[i] = None;
            } else if shows(&read, i) {
                self.unread[i] = None;
            } else {
                let since = *self.unread[i].get_or_insert(t);
                if self.presses_again && t - since >= REACT {
                    keys.up(self.keys[i], t);
                    presses.push(i);
                    self.unread[i] = None;
                }
            }
        }
        // Keys wanted at the same look go down in any order.
        for n in (1..presses.len()).rev() {
            let j = (self.random() % (n as u64 + 1)) as usize;
            presses.swap(n, j);
        }
        for i in presses {
            p.keys.down(self.keys[i], t);
        }
    }
}

/// Seconds a lap at most before a run is given up.
const LAP_LIMIT: f64 = 300.0;

/// A person's run of `laps` laps of the bundled `track` in `model` on
/// `keys`: the best lap's seconds, or None if the laps were not done in
/// [`LAP_LIMIT`] seconds each. The person's simultaneous presses are
/// ordered from `seed`. With `aid` false, the steering aid is turned off
/// first (`t`): the keys' own reading.
pub fn best_lap(
    track: &str,
    laps: usize,
    model: skid::physics::ModelKind,
    keys: super::keyboard::Keyboard,
    seed: u64,
    aid: bool,
) -> Option<f64> {
    let mut p = Player::racing(
        skid::app::Options {
            track: Some((
                track.into(),
                skid::track::bundled::load_raceable(track).unwrap(),
            )),
            model: Some(model),
            hz: 120,
            ..skid::app::Options::default()
        },
        keys,
    );
    if !aid {
        p = p.without_aid();
    }
    let race = p.app.race.as_ref().unwrap();
    let spec = race.world.cars[0].car.spec();
    let mut person = Person::new(Driver::new(&race.world.track, spec, model, 0.9), seed);
    while p.now() < LAP_LIMIT * laps as f64 {
        let race = p.app.race.as_ref().unwrap();
        let ends = &race.seats[&skid::race::world::FIRST].log.ends;
        if ends.len() >= laps {
            let ticks = ends.iter().scan(0, |prev, &end| {
                let lap = end - *prev;
                *prev = end;
                Some(lap)
            });
            return ticks.min().map(|t| t as f64 * race.world.dt);
        }
        person.drive(&mut p);
        p.step();
    }
    None
}

/// A person's race of one lap of `pocket` in `arcade` at `hz` (kitty
/// keys, so every run drives the same), its records in `records`, at
/// 80x24: the player once the results show (or after 300 s, not done).
pub fn one_lap_of_pocket(hz: u32, records: Option<skid::race::records::Store>) -> Player {
    use skid::physics::ModelKind;
    let mut p = Player::racing(
        skid::app::Options {
            track: Some((
                "pocket".into(),
                skid::track::bundled::load_raceable("pocket").unwrap(),
            )),
            model: Some(ModelKind::Arcade),
            laps: Some(1),
            hz,
            records,
            ..skid::app::Options::default()
        },
        super::keyboard::Keyboard::kitty(0.5, 0.033),
    );
    p.app.resize(80, 24);
    let race = p.app.race.as_ref().unwrap();
    let spec = race.world.cars[0].car.spec();
    let mut person = Person::new(
        Driver::new(&race.world.track, spec, ModelKind::Arcade, 0.9),
        1,
    );
    while p.app.screen == skid::app::Screen::Race && p.now() < 300.0 {
        person.drive(&mut p);
        p.step();
    }
    p
}
