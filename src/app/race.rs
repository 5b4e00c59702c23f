//! One race as the player sees it: the [`World`] (the player's car, car
//! 0, and the computer cars), the countdown, the player's laps and splits,
//! positions on the racing line, and the controls the player's held keys
//! give each tick. It knows no screen and no menu.

use std::collections::VecDeque;

use glam::DVec2;

use crate::ai::{Driver, Line};
use crate::input::{Action, Held, Latch};
use crate::physics::{Car, Controls, ModelKind, Shift, wheel_positions};
use crate::race::{GHOST_EVERY, Lap, LapLog, Laps};
use crate::script::Script;
use crate::world::{Source, World};

use super::camera::Camera;
use super::planner::race_line;

/// Seconds of countdown before the start.
pub const COUNTDOWN: f64 = 3.0;
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

/// Metres kept clear around each car on the grid.
pub const GRID_GAP: f64 = 0.6;

/// One car's place in the race.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    /// The car's index in the world: 0 is the player.
    pub car: usize,
    /// Completed laps.
    pub laps: u32,
    /// Metres of racing line behind the leader.
    pub gap: f64,
}

/// Controls kept on by a latch in a terminal without key releases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kept {
    pub throttle: bool,
    pub brake: bool,
    /// The handbrake, or `strafe`'s hop.
    pub space: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// Ticks left before the start.
    Countdown(u32),
    Running,
}

/// One race.
pub struct Race {
    /// The player's car (0) and the computer cars, on the start slots
    /// after the player's.
    pub world: World,
    pub phase: Phase,
    /// Lap ends, splits, the best lap and its ghost.
    pub log: LapLog,
    /// Whether the best lap's ghost is drawn (`g`).
    pub show_ghost: bool,
    /// The racing line: which way the course runs here.
    pub line: Line,
    /// Where each car is on the racing line.
    pub(super) at: Vec<usize>,
    /// Ticks spent driving against the course.
    pub(super) wrong_way: u64,
    /// The checkpoint missed at the latest finish crossing, and its tick.
    pub(super) missed: Option<(u8, u64)>,
    /// The middle of the finish line (0) and of each checkpoint.
    pub marks: Vec<DVec2>,
    /// Opponents placed and asked for, when the grid had less room.
    pub short_of: Option<(usize, usize)>,
    /// The order when the player finished.
    pub final_standings: Option<Vec<Standing>>,
    pub skids: VecDeque<DVec2>,
    pub camera: Option<Camera>,
    pub autostrafe: bool,
    /// The race's inputs so far, as an input script.
    pub recording: Script,
    pub(super) pending_shift: Option<Shift>,
    pub(super) pending_manual: Option<bool>,
    /// Which controls are on by a latch, not their key (the panel marks
    /// them; see [`crate::input`]).
    pub kept: Kept,
    /// The controls of the latest tick: what the game read.
    pub last: Controls,
}

impl Race {
    pub fn new(world: World, laps: u32, replay: Option<&Script>, record: Option<Lap>) -> Race {
        let line = race_line(&world.track);
        Race::on_line(world, laps, replay, record, line)
    }

    /// [`Race::new`] on a racing line already computed for its track (the
    /// costly part of starting a race on a large map).
    pub fn on_line(
        mut world: World,
        laps: u32,
        replay: Option<&Script>,
        record: Option<Lap>,
        line: Line,
    ) -> Race {
        let countdown = (COUNTDOWN / world.dt).round() as u32;
        world.laps = laps;
        if let Some(script) = replay {
            world.cars[0].source = Source::script(script);
        }
        Race {
            phase: Phase::Countdown(countdown),
            log: LapLog::against(record),
            show_ghost: true,
            line,
            at: vec![0; world.cars.len()],
            wrong_way: 0,
            missed: None,
            marks: world.track.mark_centres(),
            short_of: None,
            final_standings: None,
            skids: VecDeque::new(),
            camera: None,
            autostrafe: true,
            recording: Script::default(),
            pending_shift: None,
            pending_manual: None,
            kept: Kept::default(),
            last: Controls::default(),
            world,
        }
    }

    /// The player's car.
    pub fn car(&self) -> &Car {
        &self.world.cars[0].car
    }

    /// The player's lap counter: laps and checkpoints passed.
    pub fn counter(&self) -> &Laps {
        &self.world.cars[0].laps
    }

    /// Laps in the race.
    pub fn laps(&self) -> u32 {
        self.world.laps
    }

    /// The computer cars.
    pub fn rivals(&self) -> impl Iterator<Item = &Car> {
        self.world.cars.iter().skip(1).map(|e| &e.car)
    }

    /// Whether the player's car has stayed finite all race: a lap from a
    /// run that ever went non-finite is never saved.
    pub fn finite(&self) -> bool {
        self.world.cars[0].finite
    }

    /// Seconds into the current lap.
    pub fn lap_time(&self) -> f64 {
        (self.world.tick - self.log.lap_start()) as f64 * self.world.dt
    }

    /// Each completed lap's length in seconds.
    pub fn lap_times(&self) -> Vec<f64> {
        let mut start = 0;
        self.log
            .ends
            .iter()
            .map(|&end| {
                let t = (end - start) as f64 * self.world.dt;
                start = end;
                t
            })
            .collect()
    }

    pub fn best_time(&self) -> Option<f64> {
        self.log
            .best
            .as_ref()
            .map(|b| b.ticks as f64 * self.world.dt)
    }

    /// The latest split's difference to the best lap's, seconds.
    pub fn split_delta(&self) -> Option<f64> {
        self.log.split_delta.map(|d| d as f64 * self.world.dt)
    }

    /// Puts up to `n` computer cars of the player's model and car on the
    /// start slots after the player's, skipping any slot where a car would
    /// come within [`GRID_GAP`] metres of one already placed; returns how
    /// many were placed.
    pub fn add_opponents(&mut self, n: usize, skill: f64) -> usize {
        let track = &self.world.track;
        let car = &self.world.cars[0].car;
        let driver = Driver::along(&self.line, track, car.spec(), car.kind, skill);
        let mut rivals = Vec::new();
        let body = &car.spec().body;
        let room = |pos, heading| {
            crate::track::Obb::new(pos, heading, body.length + GRID_GAP, body.width + GRID_GAP)
        };
        let b = &car.state.body;
        let mut placed = vec![room(b.pos, b.heading)];
        for slot in 1..track.starts.len() {
            if rivals.len() == n {
                break;
            }
            let (pos, heading) = track.start_pose(slot);
            let here = room(pos, heading);
            if placed.iter().any(|p| p.overlap(&here).is_some()) {
                continue;
            }
            placed.push(here);
            rivals.push(Car::new(car.spec().clone(), car.kind, pos, heading));
        }
        let placed = rivals.len();
        for car in rivals {
            self.world
                .enter(car, Source::Driver(Box::new(driver.clone())));
            self.at.push(0);
        }
        placed
    }

    /// Progress round the race: laps, checkpoints, then the point on the
    /// racing line (negative behind the line before the first lap).
    pub(super) fn progress(&self, laps: &Laps, at: usize) -> (u32, u8, i64) {
        let n = self.line.points.len() as i64;
        let at = at as i64;
        let at = if laps.checkpoint == 0 && at > n / 2 {
            at - n
        } else {
            at
        };
        (laps.lap, laps.checkpoint, at)
    }

    /// Every car in race order: the leader first, each with its completed
    /// laps and how many metres of racing line it is behind the leader.
    pub fn standings(&self) -> Vec<Standing> {
        let n = self.line.points.len() as f64;
        let mut cars: Vec<(usize, (u32, u8, i64))> = (self.world.cars.iter().zip(&self.at))
            .map(|(e, &at)| self.progress(&e.laps, at))
            .enumerate()
            .collect();
        // Stable: on equal progress, the player before the computer cars.
        cars.sort_by_key(|c| std::cmp::Reverse(c.1));
        let metres =
            |(lap, _, at): (u32, u8, i64)| (lap as f64 * n + at as f64) * crate::ai::line::SPACING;
        let lead = cars.first().map_or(0.0, |c| metres(c.1));
        cars.into_iter()
            .map(|(car, p)| Standing {
                car,
                laps: p.0,
                gap: (lead - metres(p)).max(0.0),
            })
            .collect()
    }

    /// The lap to chart over the track, for five seconds after it ended.
    pub fn fresh_lap(&self) -> Option<&Lap> {
        let since = self.world.tick - self.log.lap_start();
        self.log
            .last
            .as_ref()
            .filter(|_| (since as f64) * self.world.dt < 5.0)
    }

    /// Seconds since tick `at`.
    pub(super) fn since(&self, at: u64) -> f64 {
        self.world.tick.saturating_sub(at) as f64 * self.world.dt
    }

    /// The checkpoint the finish was crossed without, for three seconds.
    pub fn missed_checkpoint(&self) -> Option<u8> {
        self.missed
            .filter(|&(_, at)| self.since(at) < 3.0)
            .map(|(n, _)| n)
    }

    /// For four seconds after a lap: its time, and its difference to the
    /// best lap before it (negative: a new best; none: the first).
    pub fn lap_banner(&self) -> Option<(f64, Option<f64>)> {
        let end = *self.log.ends.last()?;
        let lap = self.log.last.as_ref()?;
        (self.since(end) < 4.0).then(|| {
            (
                lap.ticks as f64 * self.world.dt,
                self.log.lap_delta.map(|d| d as f64 * self.world.dt),
            )
        })
    }

    /// The mark to cross next: checkpoint `n`, or 0 for the finish line.
    pub fn next_mark(&self) -> u8 {
        let passed = self.counter().checkpoint;
        if passed < self.world.track.checkpoints {
            passed + 1
        } else {
            0
        }
    }

    /// Whether this race replays a script (it then sets no records).
    pub fn is_replay(&self) -> bool {
        matches!(self.world.cars[0].source, Source::Script(..))
    }

    /// Whether the car has been driving against the course for a second.
    pub fn wrong_way(&self) -> bool {
        self.wrong_way >= (1.0 / self.world.dt).round() as u64
    }

    /// Where the best lap's ghost is now: (x, y, heading).
    pub fn ghost_pose(&self) -> Option<[f64; 3]> {
        let ghost = &self.log.best.as_ref()?.ghost;
        if !self.show_ghost || self.phase != Phase::Running || ghost.is_empty() {
            return None;
        }
        let i = ((self.world.tick - self.log.lap_start()) / GHOST_EVERY) as usize;
        Some(ghost[i.min(ghost.len() - 1)])
    }

    /// Whether the replayed script has run out.
    pub fn replay_done(&self) -> bool {
        self.world.cars[0].script_done()
    }

    /// The next tick's controls from the keyboard.
    pub(super) fn controls(&mut self, held: &mut Held, now: f64) -> Controls {
        let kind = self.car().kind;
        // Which pedals latch in a terminal without releases (crate::input):
        // the hop in `strafe`, and the brake while it means reverse (in
        // reverse, or at a crawl, where holding it selects reverse).
        let car = &self.world.cars[0].car.state;
        // At a crawl or in reverse the brake means reverse and is kept while
        // steering, to back out of a wall; otherwise a steering key ends it.
        // `strafe`'s hop is kept until Space is pressed again; the
        // handbrake while steering, for a drift.
        let reversing = car.drive.gear < 0 || car.body.vel.length() < REVERSE_SPEED;
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
        let on = |a| held.is_held(a, now) as u8 as f64;
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
            let slide = self.car().telemetry().slip_rear.abs();
            if slide > KEPT_SLIDE_DEG && car.body.vel.length() > REVERSE_SPEED {
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
                c.steer *= self.steer_assist();
            }
        }
        c
    }

    /// The share of full lock the keyboard asks for at this speed.
    pub(super) fn steer_assist(&self) -> f64 {
        let spec = &self.car().spec().body;
        let v2 = self.car().state.body.vel.length_squared();
        let lock = spec.max_steer_deg.to_radians();
        if v2 < 1e-6 || lock <= 0.0 {
            return 1.0;
        }
        (crate::trig::atan2(spec.wheelbase * STEER_ASSIST, v2) / lock).min(1.0)
    }

    /// One physics tick of the race.
    pub(super) fn tick(&mut self, held: &mut Held, now: f64) {
        match self.phase {
            Phase::Countdown(0) => self.phase = Phase::Running,
            Phase::Countdown(n) => {
                self.phase = Phase::Countdown(n - 1);
                // The throttle held on the grid revs the engine on the
                // panel; nothing moves until the start.
                if !self.is_replay() {
                    self.last = Controls {
                        throttle: held.is_held(Action::Throttle, now) as u8 as f64,
                        ..Controls::default()
                    };
                }
                return;
            }
            Phase::Running => {}
        }
        if !self.is_replay() {
            let c = self.controls(held, now);
            self.world.cars[0].source = Source::Seat(c);
        }
        let event = self.world.step()[0];
        let c = self.world.cars[0].last;
        self.recording.push(&c);
        self.last = c;
        if let Some(crate::race::Event::Missed(n)) = event {
            self.missed = Some((n, self.world.tick));
        }
        for (e, at) in self.world.cars.iter().zip(&mut self.at) {
            *at = self.line.nearest(e.car.state.body.pos, *at);
        }
        let car = &self.world.cars[0].car;
        let b = &car.state.body;
        let pose = [b.pos.x, b.pos.y, b.heading];
        let sample = || {
            let tel = car.telemetry();
            (tel.speed, tel.slip_front.abs().max(tel.slip_rear.abs()))
        };
        self.log.after_step(self.world.tick, pose, sample, event);
        // Against the course: moving at speed opposite to the line's
        // direction where the car is.
        let along = self.line.ahead(self.at[0], 4.0) - self.line.points[self.at[0]];
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

    pub fn finished(&self) -> bool {
        self.log.ends.len() as u32 >= self.world.laps
    }
}
