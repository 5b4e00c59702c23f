//! One car's place in a race: which car, its laps and splits, and for a
//! person's car the controls their held keys give it each tick, their
//! recording, and what they see of the race (camera, ghost, banners). A
//! race has a seat for each car: the people's (one in local play, one for
//! each player in a server's room), then the computer cars', which only
//! keep laps for whoever watches them; a seat reading its race is a
//! [`super::view::SeatView`].

use super::said::{Said, Sayings};
use super::skids::Skids;
use crate::ai::Line;
use crate::input::{Action, Held, Latch, Tap};
use crate::physics::{Car, Controls, ModelKind, Shift, Telemetry, wheel_positions};
use crate::race::camera::Camera;
use crate::race::script::Script;
use crate::race::timing::{Event, Lap, LapLog};
use crate::race::world::{CarId, World};

/// Lateral acceleration the keyboard's steering aims at, m/s²: full steer
/// asks for the wheel angle that gives about this at the current speed
/// (`delta = atan(L a / v^2)`), so a key press at speed is a steering
/// input a driver would make, not full lock. Arcade and strafe steer by
/// their own rules and get the key as it is.
const STEER_ASSIST: f64 = 14.0;

/// Below this speed (m/s) the brake key means reverse, and is kept while
/// steering in a terminal without key releases.
const REVERSE_SPEED: f64 = 1.0;

/// Rear slip angle, degrees, above which `dynamic` eases off the
/// keyboard's pedals ([`ease_in_slide`]; the computer driver lifts at the
/// same angle).
const SLIDE_DEG: f64 = 5.0;

/// The share of full lock the keyboard's steering must allow
/// ([`steer_assist`]) for a tap to steer lightly in `dynamic`
/// ([`Tap::LIGHT`]): below about 52 km/h for the Corvette.
const LIGHT_TAP_LOCK: f64 = 1.0 / 3.0;

/// The panel's figures (lap clock, speed, revs, slip, steering): the
/// car's telemetry and lap clock as they were at the first tick of the
/// current tenth of a second of race time. Ten times a second is as
/// often as a figure can be read (at thirty its last digits blur), and
/// costs a third of the bytes that drawing them in every frame did
/// (docs/TERMINAL.md, "Bytes on the wire"). The gear, the keys read and
/// everything drawn on the track stay live.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Readout {
    /// The tick it was read at.
    pub tick: u64,
    pub telemetry: Telemetry,
    /// The throttle then (the tachometer shows revs it asks for).
    pub throttle: f64,
    /// Seconds into the lap then.
    pub lap_time: f64,
}

impl Readout {
    /// What `car` shows at tick `tick`, `lap_time` seconds into its lap,
    /// its throttle at `throttle`.
    pub fn of(tick: u64, car: &Car, throttle: f64, lap_time: f64) -> Readout {
        Readout {
            tick,
            telemetry: car.telemetry(),
            throttle,
            lap_time,
        }
    }
}

/// Tenths of a second of race time at tick `tick`, ticks `dt` long.
fn tenths(tick: u64, dt: f64) -> u64 {
    (tick as f64 * dt * 10.0 + 1e-9) as u64
}

/// The controls kept on by a latch in a terminal without key releases:
/// a set of [`Action`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Latched(u8);

impl Latched {
    /// The controls `held` keeps on by a latch at `now`.
    pub fn of(held: &Held, now: f64) -> Latched {
        let kept = Action::ALL.into_iter().filter(|&a| held.latched(a, now));
        Latched(kept.fold(0, |bits, a| bits | 1 << a.index()))
    }

    /// Whether `action` is kept on.
    pub fn has(self, action: Action) -> bool {
        self.0 & 1 << action.index() != 0
    }
}

/// A seat's steering aid ([`super::aid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aid {
    /// Turned off by its person.
    Off,
    /// On where the keyboard sends no releases; it did not steer the
    /// latest tick.
    On,
    /// It steered the latest tick (the panel's AID).
    Steering,
}

impl Aid {
    /// Off, or on again (`t`).
    #[must_use]
    pub fn toggled(self) -> Aid {
        if self == Aid::Off { Aid::On } else { Aid::Off }
    }
}

/// One car's place in the race.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub car: CarId,
    /// Completed laps.
    pub laps: u32,
    /// Metres of racing line behind the leader of the cars still racing.
    pub gap: f64,
    /// Seconds from the start to its finish, if it finished.
    pub finish: Option<f64>,
}

/// Who drives a seat's car.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sitter {
    /// A person, with their keys.
    Keys,
    /// A person's seat replaying a script from the start (it takes no
    /// keys and sets no records).
    Replay,
    /// A computer driver: the seat only keeps the car's laps.
    Computer,
}

/// One car's place in a race: a person's, or a computer car's (kept so
/// that anyone may watch it with its laps and gauges).
pub struct Seat {
    /// This seat's car.
    pub car: CarId,
    /// Who drives the car.
    pub(super) driver: Sitter,
    /// The keys its person holds, which drive the car.
    pub held: Held,
    /// Lap ends, splits, the best lap and its ghost.
    pub log: LapLog,
    /// Whether the ghost is drawn (`g`).
    pub show_ghost: bool,
    /// Someone else's lap raced as the ghost, with their name (a board's
    /// entry picked on the server); none: the best lap's ghost.
    pub their_ghost: Option<(String, Lap)>,
    /// Ticks spent driving against the course.
    pub(super) wrong_way: u64,
    /// The checkpoint missed at the latest finish crossing, and its tick.
    pub(super) missed: Option<(u8, u64)>,
    /// Where its tires slid.
    pub skids: Skids,
    pub camera: Option<Camera>,
    pub autostrafe: bool,
    /// The seat's inputs so far, as an input script (none on a server:
    /// [`crate::race::session::Door::keeps_inputs`]).
    pub recording: Script,
    /// The one-shot controls asked for (a shift, the gearbox, a
    /// respawn, a model switch), for the next tick.
    pub(super) pending: Controls,
    /// Which controls are on by a latch, not their key (the panel marks
    /// them; see [`crate::input`]).
    pub kept: Latched,
    /// The controls of the latest tick: what the game read.
    pub last: Controls,
    /// The steering aid, where the keyboard sends no releases
    /// ([`super::aid`]; `t` turns it off and on).
    pub aid: Aid,
    /// What the seat said back lately ([`Said`]).
    pub said: Sayings,
    /// Whether the aid has said what it does in this race.
    aid_told: bool,
    /// The panel's figures, none before the first tick.
    pub readout: Option<Readout>,
    /// Why this seat's new record is not kept yet (a save that failed: a
    /// full disk, a directory gone), so that the screen does not show it
    /// as kept; none once kept. Local play tries the save again at the
    /// next lap and when the race is left; a server's records' thread
    /// goes on trying, and says when it holds the lap (`serve::keeper`).
    pub unsaved: Option<String>,
}

impl Seat {
    /// A seat driving car `car`, against `records` (one a board).
    pub fn new(car: CarId, records: Vec<Lap>) -> Seat {
        Seat {
            car,
            driver: Sitter::Keys,
            held: Held::new(),
            log: LapLog::against(records),
            show_ghost: true,
            their_ghost: None,
            wrong_way: 0,
            missed: None,
            skids: Skids::new(),
            camera: None,
            autostrafe: true,
            recording: Script::default(),
            pending: Controls::default(),
            kept: Latched::default(),
            last: Controls::default(),
            aid: Aid::On,
            said: Sayings::default(),
            aid_told: false,
            readout: None,
            unsaved: None,
        }
    }

    /// The seat of a computer car `car`: its laps kept, no keys.
    pub fn computer(car: CarId) -> Seat {
        Seat {
            driver: Sitter::Computer,
            ..Seat::new(car, Vec::new())
        }
    }

    /// Whether a person drives this seat's car.
    pub fn is_person(&self) -> bool {
        self.driver != Sitter::Computer
    }

    /// Applies one of a seat's own commands to it and its car `car`:
    /// gears, the gearbox, autostrafe, the ghost, back to the last mark.
    /// Returns whether `cmd` was one.
    pub fn command(&mut self, cmd: crate::input::keys::Command, car: &Car, tick: u64) -> bool {
        use crate::input::keys::Command;
        match cmd {
            Command::ToggleGhost if self.their_ghost.is_none() && self.log.best().is_none() => {
                self.said.say(Said::NoGhost, tick);
            }
            Command::ToggleAid if self.held.explicit() => {
                self.said.say(Said::AidNotNeeded, tick);
            }
            Command::ToggleAid => {
                self.aid = self.aid.toggled();
                let said = if self.aid == Aid::Off {
                    Said::AidOff
                } else {
                    Said::AidOn
                };
                self.said.say(said, tick);
            }
            Command::ToggleManual => self.pending.manual = Some(!car.state.drive.manual),
            Command::ShiftUp => self.pending.shift = Some(Shift::Up),
            Command::ShiftDown => self.pending.shift = Some(Shift::Down),
            Command::ToggleAutostrafe => self.autostrafe = !self.autostrafe,
            Command::ToggleGhost => self.show_ghost = !self.show_ghost,
            Command::Respawn => {
                self.pending.respawn = true;
                self.held.release_all();
            }
            _ => return false,
        }
        true
    }

    /// Asks for the next model for car `car` on the next tick, recorded
    /// with it (`World::step`); asked again before that tick, the model
    /// after the one already asked for (m m m switches three times).
    pub fn switch_model(&mut self, car: &Car) {
        self.pending.model = Some(self.pending.model.unwrap_or(car.kind).next());
    }

    /// The steering aid as the panel shows it: none for a replay, a
    /// computer car or a keyboard that sends releases (it is not for
    /// them), nor while it is on but has not steered yet in this race
    /// (a keyboard not heard from may send releases).
    pub fn aid_shown(&self) -> Option<Aid> {
        let shown = self.aid != Aid::On || self.aid_told;
        (self.driver == Sitter::Keys && !self.held.explicit() && shown).then_some(self.aid)
    }

    /// Whether this seat's car replays a script (it then takes no keys and
    /// sets no records). Said when the race starts: a replay that finished
    /// is parked by a computer driver, and is still a replay.
    pub fn is_replay(&self) -> bool {
        self.driver == Sitter::Replay
    }

    /// During the countdown: the throttle held on the grid revs the engine
    /// on the panel; nothing moves until the start.
    pub(super) fn on_grid(&mut self, now: f64) {
        if !self.is_replay() {
            self.last = Controls {
                throttle: f64::from(u8::from(self.held.is_held(Action::Throttle, now))),
                ..Controls::default()
            };
        }
    }

    /// Whether the steering aid may steer this seat's car: its person
    /// has not turned it off and their keyboard sends no releases.
    pub(super) fn wants_aid(&self) -> bool {
        self.aid != Aid::Off && !self.held.explicit()
    }

    /// The next tick's controls from the held keys, and where the person
    /// wants it and their keyboard sends no releases, the steering aid's
    /// `aid` (none where it lets go).
    pub(super) fn controls(
        &mut self,
        car: &Car,
        now: f64,
        aid: Option<(&Line, usize, &super::aid::Pace)>,
    ) -> Controls {
        let held = &mut self.held;
        let kind = car.kind;
        let state = &car.state;
        // Which pedals latch in a terminal without releases (crate::input).
        // At a crawl or in reverse the brake means reverse and is kept while
        // steering, to back out of a wall; at speed a steering key leaves it
        // on for one repeat delay, braking into the corner. `strafe`'s hop
        // is kept until Space is pressed again; the handbrake while
        // steering, for a drift. A tap steers lightly in `dynamic` at low
        // speed, where a long one near full lock sets it sliding; at speed
        // the keyboard's lock is small and a firm tap is safe.
        let reversing = state.drive.gear < 0 || state.body.vel.length() < REVERSE_SPEED;
        let assist = steer_assist(car);
        held.set_latching(
            Action::Brake,
            if reversing {
                Latch::WhileSteering
            } else {
                Latch::Briefly
            },
        );
        held.set_tap(match kind {
            ModelKind::Dynamic if assist > LIGHT_TAP_LOCK => Tap::LIGHT,
            ModelKind::Arcade => Tap::ARCADE,
            _ => Tap::FIRM,
        });
        let hop = kind == ModelKind::Strafe;
        held.set_latching(
            Action::Space,
            if hop {
                Latch::Always
            } else {
                Latch::WhileSteering
            },
        );
        let on = |a| f64::from(u8::from(held.is_held(a, now)));
        let keys = held.share(Action::Right, now) - held.share(Action::Left, now);
        let mut c = Controls {
            throttle: on(Action::Throttle),
            brake: on(Action::Brake),
            steer: keys,
            shift: self.pending.shift.take(),
            manual: self.pending.manual.take(),
            respawn: std::mem::take(&mut self.pending.respawn),
            model: self.pending.model.take(),
            ..Controls::default()
        };
        self.kept = Latched::of(held, now);
        if kind == ModelKind::Dynamic {
            ease_in_slide(&mut c, car, self.kept);
        }
        if kind == ModelKind::Strafe {
            c.strafe = held.share(Action::StrafeRight, now) - held.share(Action::StrafeLeft, now);
            c.jump = held.is_held(Action::Space, now);
            c.autostrafe = self.autostrafe && c.jump;
        } else {
            c.handbrake = held.is_held(Action::Space, now);
            if kind != ModelKind::Arcade {
                c.steer = keyboard_steer(car, c.steer, assist);
            }
        }
        // The aid steers for a point beside the line where the keys
        // steer ([`super::aid::of`]).
        let aid = (aid.filter(|_| self.wants_aid()))
            .and_then(|(line, at, pace)| super::aid::of(line, at, car, pace, keys));
        self.aid = match (self.aid, aid.and_then(|a| a.steer)) {
            (Aid::Off, _) => Aid::Off,
            (_, None) => Aid::On,
            (_, Some(_)) => Aid::Steering,
        };
        if let Some(aid) = aid {
            c = aid.with(c);
        }
        c
    }

    /// What the step just taken did for this seat: its controls
    /// recorded (a person's, where the door `keeps` them), its lap log,
    /// the wrong-way count (its car at point `at` of the racing line
    /// `line`) and the skid marks.
    pub(super) fn after_step(&mut self, world: &World, line: &Line, keeps: bool) {
        let Some(entrant) = world.car(self.car) else {
            return;
        };
        let (c, at, event) = (entrant.last, entrant.along, entrant.event);
        if keeps && self.is_person() {
            self.recording.push(&c);
        }
        self.last = c;
        if let Some(Event::Missed(n)) = event {
            self.missed = Some((n, world.tick));
        }
        let car = &entrant.car;
        let b = &car.state.body;
        let pose = [b.pos.x, b.pos.y, b.heading];
        let sample = || {
            let tel = car.telemetry();
            (tel.speed, tel.slip_front.abs().max(tel.slip_rear.abs()))
        };
        if self.aid == Aid::Steering {
            self.log.steered_by_aid();
            if !std::mem::replace(&mut self.aid_told, true) {
                self.said.say(Said::AidStarts, world.tick);
            }
        }
        self.log.after_step(world.tick, &c, pose, sample, event);
        let fresh = |r: &Readout| tenths(r.tick, world.dt) == tenths(world.tick, world.dt);
        if !self.readout.as_ref().is_some_and(fresh) {
            let lap_time = world.tick.saturating_sub(self.log.lap_start()) as f64 * world.dt;
            self.readout = Some(Readout::of(world.tick, car, c.throttle, lap_time));
        }
        // Against the course: moving at speed opposite to the line's
        // direction where the car is.
        let along = line.ahead(at, 4.0) - line.points[at];
        let against =
            b.vel.length() > 3.0 && b.vel.normalize_or_zero().dot(along.normalize_or_zero()) < -0.5;
        self.wrong_way = if against { self.wrong_way + 1 } else { 0 };
        let s = &car.state;
        if s.contact.sliding.iter().any(|&x| x) {
            let wheels = wheel_positions(s.body.pos, s.body.axes(), car.spec());
            for (at, _) in wheels
                .iter()
                .zip(s.contact.sliding)
                .filter(|(_, slid)| *slid)
            {
                self.skids.push(*at);
            }
        }
    }
}

/// The share of full lock the keyboard asks for at this speed.
pub(super) fn steer_assist(car: &Car) -> f64 {
    let spec = &car.spec().body;
    let v2 = car.state.body.vel.length_squared();
    let lock = spec.max_steer_deg.to_radians();
    if v2 < 1e-6 || lock <= 0.0 {
        return 1.0;
    }
    (crate::base::trig::atan2(spec.wheelbase * STEER_ASSIST, v2) / lock).min(1.0)
}

/// The steer the keyboard's share `share` (-1 to 1) asks for: the
/// assisted lock (`assist`, [`steer_assist`]), widened by the rear's slide when the
/// key steers into it, so that counter-steer turns the wheels towards
/// where the car is going at any speed (at 100 km/h the assisted lock is
/// under 3 degrees, and a slide of 20 degrees could not be caught).
fn keyboard_steer(car: &Car, share: f64, assist: f64) -> f64 {
    let lock = car.spec().body.max_steer_deg.to_radians();
    let slide = if lock > 0.0 {
        car.rear_slide() / lock
    } else {
        0.0
    };
    let assisted = share * assist;
    if share * slide > 0.0 {
        (assisted + share.abs() * slide).clamp(-1.0, 1.0)
    } else {
        assisted
    }
}

/// `dynamic`'s pedals while the rear slides more than [`SLIDE_DEG`] going
/// forwards: a throttle kept on by steering eases off (the player cannot
/// lift without letting go of the steering, and power would spin the
/// car), and so does the brake, whatever the terminal: a key's brake is
/// all or nothing, and at full brake the weight leaving the rear wheels
/// turns a slide into a spin.
fn ease_in_slide(c: &mut Controls, car: &Car, kept: Latched) {
    let state = &car.state;
    let forwards = state.drive.gear >= 0 && state.body.vel.length() > REVERSE_SPEED;
    if forwards && car.telemetry().slip_rear.abs() > SLIDE_DEG {
        if kept.has(Action::Throttle) {
            c.throttle = 0.0;
        }
        c.brake = 0.0;
    }
}
