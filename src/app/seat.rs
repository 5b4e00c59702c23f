//! One person's place in a [`Race`]: which car is theirs, their laps and
//! splits, the controls their held keys give that car each tick, their
//! recording, and what they see of the race (camera, ghost, banners). A
//! race has a seat for each person in it: one in local play, one for each
//! player in a server's room; a [`SeatView`] is one seat reading its race.

use std::collections::VecDeque;

use glam::DVec2;

use crate::ai::Line;
use crate::input::{Action, Held, Latch};
use crate::physics::{Car, Controls, ModelKind, Shift, wheel_positions};
use crate::race::{Event, GHOST_EVERY, Lap, LapLog, Laps};
use crate::script::Script;
use crate::world::{Source, World};

use super::camera::Camera;
use super::race::{Phase, Race, Standing};

/// Skid mark dots kept.
const SKIDS: usize = 3000;
/// Lateral acceleration the keyboard's steering aims at, m/s²: full steer
/// asks for the wheel angle that gives about this at the current speed
/// (`delta = atan(L a / v^2)`), so a key press at speed is a steering
/// input a driver would make, not full lock. Arcade and strafe steer by
/// their own rules and get the key as it is.
const STEER_ASSIST: f64 = 14.0;

/// Below this speed (m/s) the brake key means reverse, and is kept while
/// steering in a terminal without key releases.
const REVERSE_SPEED: f64 = 1.0;

/// Rear slip angle, degrees, above which a throttle kept on by steering
/// eases off (as the computer driver lifts at the same angle).
const KEPT_SLIDE_DEG: f64 = 5.0;

/// Controls kept on by a latch in a terminal without key releases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kept {
    pub throttle: bool,
    pub brake: bool,
    /// The handbrake, or `strafe`'s hop.
    pub space: bool,
}

/// One person's place in a race.
pub struct Seat {
    /// The index of this seat's car in the race's world.
    pub car: usize,
    /// Lap ends, splits, the best lap and its ghost.
    pub log: LapLog,
    /// Whether the best lap's ghost is drawn (`g`).
    pub show_ghost: bool,
    /// Ticks spent driving against the course.
    pub(super) wrong_way: u64,
    /// The checkpoint missed at the latest finish crossing, and its tick.
    pub(super) missed: Option<(u8, u64)>,
    /// The order when this seat's car finished.
    pub final_standings: Option<Vec<Standing>>,
    pub skids: VecDeque<DVec2>,
    pub camera: Option<Camera>,
    pub autostrafe: bool,
    /// The seat's inputs so far, as an input script.
    pub recording: Script,
    pub(super) pending_shift: Option<Shift>,
    pub(super) pending_manual: Option<bool>,
    /// Which controls are on by a latch, not their key (the panel marks
    /// them; see [`crate::input`]).
    pub kept: Kept,
    /// The controls of the latest tick: what the game read.
    pub last: Controls,
}

impl Seat {
    /// A seat driving car `car`, against the record `record` if any.
    pub fn new(car: usize, record: Option<Lap>) -> Seat {
        Seat {
            car,
            log: LapLog::against(record),
            show_ghost: true,
            wrong_way: 0,
            missed: None,
            final_standings: None,
            skids: VecDeque::new(),
            camera: None,
            autostrafe: true,
            recording: Script::default(),
            pending_shift: None,
            pending_manual: None,
            kept: Kept::default(),
            last: Controls::default(),
        }
    }

    /// Applies one of a seat's own commands to it and its car `car`:
    /// gears, the gearbox, autostrafe, the ghost. Returns whether `cmd`
    /// was one.
    pub fn command(&mut self, cmd: crate::keys::Command, car: &Car) -> bool {
        use crate::keys::Command;
        match cmd {
            Command::ToggleManual => self.pending_manual = Some(!car.state.drive.manual),
            Command::ShiftUp => self.pending_shift = Some(Shift::Up),
            Command::ShiftDown => self.pending_shift = Some(Shift::Down),
            Command::ToggleAutostrafe => self.autostrafe = !self.autostrafe,
            Command::ToggleGhost => self.show_ghost = !self.show_ghost,
            _ => return false,
        }
        true
    }

    /// Whether this seat's car replays a script (it then takes no keys and
    /// sets no records).
    pub fn is_replay(&self, world: &World) -> bool {
        matches!(world.cars[self.car].source, Source::Script(..))
    }

    /// During the countdown: the throttle held on the grid revs the engine
    /// on the panel; nothing moves until the start.
    pub(super) fn on_grid(&mut self, world: &World, held: &Held, now: f64) {
        if !self.is_replay(world) {
            self.last = Controls {
                throttle: f64::from(u8::from(held.is_held(Action::Throttle, now))),
                ..Controls::default()
            };
        }
    }

    /// The next tick's controls from the held keys.
    pub(super) fn controls(&mut self, car: &Car, held: &mut Held, now: f64) -> Controls {
        let kind = car.kind;
        let state = &car.state;
        // Which pedals latch in a terminal without releases (crate::input).
        // At a crawl or in reverse the brake means reverse and is kept while
        // steering, to back out of a wall; otherwise a steering key ends it.
        // `strafe`'s hop is kept until Space is pressed again; the
        // handbrake while steering, for a drift.
        let reversing = state.drive.gear < 0 || state.body.vel.length() < REVERSE_SPEED;
        held.set_latching(
            Action::Brake,
            if reversing {
                Latch::WhileSteering
            } else {
                Latch::No
            },
        );
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
        let mut c = Controls {
            throttle: on(Action::Throttle),
            brake: on(Action::Brake),
            steer: held.share(Action::Right, now) - held.share(Action::Left, now),
            shift: self.pending_shift.take(),
            manual: self.pending_manual.take(),
            ..Controls::default()
        };
        // In the rear-driven `dynamic`, a throttle kept on by steering eases
        // off while the rear slides: the player cannot lift without letting
        // go of the steering, and power would spin the car.
        self.kept = Kept {
            throttle: held.latched(Action::Throttle, now),
            brake: held.latched(Action::Brake, now),
            space: held.latched(Action::Space, now),
        };
        if self.kept.throttle && kind == ModelKind::Dynamic {
            let slide = car.telemetry().slip_rear.abs();
            if slide > KEPT_SLIDE_DEG && state.body.vel.length() > REVERSE_SPEED {
                c.throttle = 0.0;
            }
        }
        if kind == ModelKind::Strafe {
            c.strafe = held.share(Action::StrafeRight, now) - held.share(Action::StrafeLeft, now);
            c.jump = held.is_held(Action::Space, now);
            c.autostrafe = self.autostrafe && c.jump;
        } else {
            c.handbrake = held.is_held(Action::Space, now);
            if kind != ModelKind::Arcade {
                c.steer *= steer_assist(car);
            }
        }
        c
    }

    /// What the step just taken did for this seat: its controls
    /// recorded, its lap log, the wrong-way count (its car at point `at`
    /// of the racing line `line`) and the skid marks.
    pub(super) fn after_step(&mut self, world: &World, line: &Line, at: usize) {
        let event = world.events()[self.car];
        let c = world.cars[self.car].last;
        self.recording.push(&c);
        self.last = c;
        if let Some(Event::Missed(n)) = event {
            self.missed = Some((n, world.tick));
        }
        let car = &world.cars[self.car].car;
        let b = &car.state.body;
        let pose = [b.pos.x, b.pos.y, b.heading];
        let sample = || {
            let tel = car.telemetry();
            (tel.speed, tel.slip_front.abs().max(tel.slip_rear.abs()))
        };
        self.log.after_step(world.tick, pose, sample, event);
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
                if self.skids.len() == SKIDS {
                    self.skids.pop_front();
                }
                self.skids.push_back(*at);
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
    (crate::trig::atan2(spec.wheelbase * STEER_ASSIST, v2) / lock).min(1.0)
}

/// One seat reading its race: what the screen of that seat draws.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    pub race: &'a Race,
    pub seat: &'a Seat,
}

impl<'a> SeatView<'a> {
    /// This seat's car.
    pub fn car(&self) -> &'a Car {
        &self.race.world.cars[self.seat.car].car
    }

    /// This seat's lap counter: laps and checkpoints passed.
    pub fn counter(&self) -> &'a Laps {
        &self.race.world.cars[self.seat.car].laps
    }

    /// Laps in the race.
    pub fn laps(&self) -> u32 {
        self.race.world.laps
    }

    /// Every other car in the race.
    pub fn rivals(&self) -> impl Iterator<Item = &'a Car> + use<'a> {
        let mine = self.seat.car;
        (self.race.world.cars.iter().enumerate())
            .filter(move |(i, _)| *i != mine)
            .map(|(_, e)| &e.car)
    }

    /// Whether this seat's car has stayed finite all race: a lap from a
    /// run that ever went non-finite is never saved.
    pub fn finite(&self) -> bool {
        self.race.world.cars[self.seat.car].finite
    }

    /// Seconds since tick `at`.
    fn since(&self, at: u64) -> f64 {
        self.race.world.tick.saturating_sub(at) as f64 * self.race.world.dt
    }

    /// Seconds into the current lap.
    pub fn lap_time(&self) -> f64 {
        self.since(self.seat.log.lap_start())
    }

    /// Each completed lap's length in seconds.
    pub fn lap_times(&self) -> Vec<f64> {
        let mut start = 0;
        let dt = self.race.world.dt;
        (self.seat.log.ends.iter())
            .map(|&end| {
                let t = (end - start) as f64 * dt;
                start = end;
                t
            })
            .collect()
    }

    pub fn best_time(&self) -> Option<f64> {
        let best = self.seat.log.best.as_ref()?;
        Some(best.ticks as f64 * self.race.world.dt)
    }

    /// The latest split's difference to the best lap's, seconds.
    pub fn split_delta(&self) -> Option<f64> {
        let d = self.seat.log.split_delta?;
        Some(d as f64 * self.race.world.dt)
    }

    /// The lap to chart over the track, for five seconds after it ended.
    pub fn fresh_lap(&self) -> Option<&'a Lap> {
        let fresh = self.lap_time() < 5.0;
        self.seat.log.last.as_ref().filter(|_| fresh)
    }

    /// The checkpoint the finish was crossed without, for three seconds.
    pub fn missed_checkpoint(&self) -> Option<u8> {
        (self.seat.missed)
            .filter(|&(_, at)| self.since(at) < 3.0)
            .map(|(n, _)| n)
    }

    /// For four seconds after a lap: its time, and its difference to the
    /// best lap before it (negative: a new best; none: the first).
    pub fn lap_banner(&self) -> Option<(f64, Option<f64>)> {
        let log = &self.seat.log;
        let end = *log.ends.last()?;
        let lap = log.last.as_ref()?;
        let dt = self.race.world.dt;
        (self.since(end) < 4.0)
            .then(|| (lap.ticks as f64 * dt, log.lap_delta.map(|d| d as f64 * dt)))
    }

    /// The mark to cross next: checkpoint `n`, or 0 for the finish line.
    pub fn next_mark(&self) -> u8 {
        let passed = self.counter().checkpoint;
        if passed < self.race.world.track.checkpoints {
            passed + 1
        } else {
            0
        }
    }

    /// Whether this seat replays a script (it then sets no records).
    pub fn is_replay(&self) -> bool {
        self.seat.is_replay(&self.race.world)
    }

    /// Whether the car has been driving against the course for a second.
    pub fn wrong_way(&self) -> bool {
        self.seat.wrong_way >= (1.0 / self.race.world.dt).round() as u64
    }

    /// Where the best lap's ghost is now: (x, y, heading).
    pub fn ghost_pose(&self) -> Option<[f64; 3]> {
        let ghost = &self.seat.log.best.as_ref()?.ghost;
        if !self.seat.show_ghost || self.race.phase != Phase::Running || ghost.is_empty() {
            return None;
        }
        let i = ((self.race.world.tick - self.seat.log.lap_start()) / GHOST_EVERY) as usize;
        Some(ghost[i.min(ghost.len() - 1)])
    }

    /// Whether the replayed script has run out.
    pub fn replay_done(&self) -> bool {
        self.race.world.cars[self.seat.car].script_done()
    }

    /// Whether this seat's car has run the race's laps.
    pub fn finished(&self) -> bool {
        self.seat.log.ends.len() as u32 >= self.race.world.laps
    }
}
