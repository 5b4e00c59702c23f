//! One race: the player's car and the computer cars on the track, the
//! countdown, laps, positions, car-to-car contact, and the controls the
//! player's held keys give each tick. It knows no screen and no menu.

use std::collections::VecDeque;

use glam::DVec2;

use crate::ai::{Driver, Line};
use crate::input::{Action, Held, Latch};
use crate::physics::{Controls, ModelKind, Shift, wheel_positions};
use crate::race::{GHOST_EVERY, Lap, LapLog, Laps};
use crate::script::Script;
use crate::sim::Sim;

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
    /// 0 is the player, `i` the computer car `opponents[i - 1]`.
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

/// A computer car in the race.
pub struct Opponent {
    pub car: crate::physics::Car,
    pub laps: Laps,
    pub(super) driver: Driver,
    /// Where it is on the racing line.
    pub(super) at: usize,
}

/// One race.
pub struct Race {
    /// Computer cars, on the start slots after the player's.
    pub opponents: Vec<Opponent>,
    pub sim: Sim,
    pub phase: Phase,
    pub laps: u32,
    /// Lap ends, splits, the best lap and its ghost.
    pub log: LapLog,
    /// Whether the best lap's ghost is drawn (`g`).
    pub show_ghost: bool,
    /// The racing line: which way the course runs here.
    pub line: Line,
    pub(super) line_at: usize,
    /// Ticks spent driving against the course.
    pub(super) wrong_way: u64,
    /// The checkpoint missed at the latest finish crossing, and its tick.
    pub(super) missed: Option<(u8, u64)>,
    /// The middle of the finish line (0) and of each checkpoint.
    pub marks: Vec<DVec2>,
    /// Whether the player's car has stayed finite all race: a lap from a
    /// run that ever went non-finite is never saved.
    pub finite: bool,
    /// Opponents placed and asked for, when the grid had less room.
    pub short_of: Option<(usize, usize)>,
    /// The order when the player finished.
    pub final_standings: Option<Vec<Standing>>,
    pub skids: VecDeque<DVec2>,
    pub camera: Option<Camera>,
    pub autostrafe: bool,
    /// The race's inputs so far, as an input script.
    pub recording: Script,
    /// A replayed script's ticks and how many are left.
    pub(super) replay: Option<(Box<dyn Iterator<Item = Controls>>, u64)>,
    pub(super) pending_shift: Option<Shift>,
    pub(super) pending_manual: Option<bool>,
    /// Which controls are on by a latch, not their key (the panel marks
    /// them; see [`crate::input`]).
    pub kept: Kept,
    /// The controls of the latest tick: what the game read.
    pub last: Controls,
}

impl Race {
    pub fn new(sim: Sim, laps: u32, replay: Option<&Script>, record: Option<Lap>) -> Race {
        let line = race_line(&sim.track);
        Race::on_line(sim, laps, replay, record, line)
    }

    /// [`Race::new`] on a racing line already computed for its track (the
    /// costly part of starting a race on a large map).
    pub fn on_line(
        sim: Sim,
        laps: u32,
        replay: Option<&Script>,
        record: Option<Lap>,
        line: Line,
    ) -> Race {
        let countdown = (COUNTDOWN / sim.dt).round() as u32;
        Race {
            opponents: Vec::new(),
            phase: Phase::Countdown(countdown),
            laps,
            log: LapLog::against(record),
            show_ghost: true,
            line,
            line_at: 0,
            wrong_way: 0,
            missed: None,
            marks: sim.track.mark_centres(),
            short_of: None,
            final_standings: None,
            finite: true,
            skids: VecDeque::new(),
            camera: None,
            autostrafe: true,
            recording: Script::default(),
            replay: replay.map(|s| {
                let ticks: Box<dyn Iterator<Item = Controls>> = Box::new(s.clone().into_controls());
                (ticks, s.total_ticks())
            }),
            pending_shift: None,
            pending_manual: None,
            kept: Kept::default(),
            last: Controls::default(),
            sim,
        }
    }

    /// Seconds into the current lap.
    pub fn lap_time(&self) -> f64 {
        (self.sim.tick - self.log.lap_start()) as f64 * self.sim.dt
    }

    /// Each completed lap's length in seconds.
    pub fn lap_times(&self) -> Vec<f64> {
        let mut start = 0;
        self.log
            .ends
            .iter()
            .map(|&end| {
                let t = (end - start) as f64 * self.sim.dt;
                start = end;
                t
            })
            .collect()
    }

    pub fn best_time(&self) -> Option<f64> {
        self.log.best.as_ref().map(|b| b.ticks as f64 * self.sim.dt)
    }

    /// The latest split's difference to the best lap's, seconds.
    pub fn split_delta(&self) -> Option<f64> {
        self.log.split_delta.map(|d| d as f64 * self.sim.dt)
    }

    /// Puts up to `n` computer cars of the player's model and car on the
    /// start slots after the player's, skipping any slot where a car would
    /// come within [`GRID_GAP`] metres of one already placed; returns how
    /// many were placed.
    pub fn add_opponents(&mut self, n: usize, skill: f64) -> usize {
        let track = &self.sim.track;
        let car = &self.sim.car;
        let driver = Driver::along(&self.line, track, car.spec(), car.kind, skill);
        let body = &car.spec().body;
        let room = |pos, heading| {
            crate::track::Obb::new(pos, heading, body.length + GRID_GAP, body.width + GRID_GAP)
        };
        let b = &car.state.body;
        let mut placed = vec![room(b.pos, b.heading)];
        for slot in 1..track.starts.len() {
            if self.opponents.len() == n {
                break;
            }
            let (pos, heading) = track.start_pose(slot);
            let here = room(pos, heading);
            if placed.iter().any(|p| p.overlap(&here).is_some()) {
                continue;
            }
            placed.push(here);
            self.opponents.push(Opponent {
                car: crate::physics::Car::new(car.spec().clone(), car.kind, pos, heading),
                laps: Laps::new(track),
                driver: driver.clone(),
                at: 0,
            });
        }
        self.opponents.len()
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
        let mut cars: Vec<(usize, (u32, u8, i64))> =
            std::iter::once((0, self.progress(&self.sim.laps, self.line_at)))
                .chain(
                    self.opponents
                        .iter()
                        .enumerate()
                        .map(|(i, o)| (i + 1, self.progress(&o.laps, o.at))),
                )
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
        let since = self.sim.tick - self.log.lap_start();
        self.log
            .last
            .as_ref()
            .filter(|_| (since as f64) * self.sim.dt < 5.0)
    }

    /// Seconds since tick `at`.
    pub(super) fn since(&self, at: u64) -> f64 {
        self.sim.tick.saturating_sub(at) as f64 * self.sim.dt
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
                lap.ticks as f64 * self.sim.dt,
                self.log.lap_delta.map(|d| d as f64 * self.sim.dt),
            )
        })
    }

    /// The mark to cross next: checkpoint `n`, or 0 for the finish line.
    pub fn next_mark(&self) -> u8 {
        let passed = self.sim.laps.checkpoint;
        if passed < self.sim.track.checkpoints {
            passed + 1
        } else {
            0
        }
    }

    /// Whether this race replays a script (it then sets no records).
    pub fn is_replay(&self) -> bool {
        self.replay.is_some()
    }

    /// Whether the car has been driving against the course for a second.
    pub fn wrong_way(&self) -> bool {
        self.wrong_way >= (1.0 / self.sim.dt).round() as u64
    }

    /// Where the best lap's ghost is now: (x, y, heading).
    pub fn ghost_pose(&self) -> Option<[f64; 3]> {
        let ghost = &self.log.best.as_ref()?.ghost;
        if !self.show_ghost || self.phase != Phase::Running || ghost.is_empty() {
            return None;
        }
        let i = ((self.sim.tick - self.log.lap_start()) / GHOST_EVERY) as usize;
        Some(ghost[i.min(ghost.len() - 1)])
    }

    /// Whether the replayed script has run out.
    pub fn replay_done(&self) -> bool {
        self.replay.as_ref().is_some_and(|(_, left)| *left == 0)
    }

    /// The next tick's controls: the replay's, or the keyboard's.
    pub(super) fn controls(&mut self, held: &mut Held, now: f64) -> Controls {
        if let Some((ticks, left)) = &mut self.replay {
            *left = left.saturating_sub(1);
            return ticks.next().unwrap_or_default();
        }
        let kind = self.sim.car.kind;
        // Which pedals latch in a terminal without releases (crate::input):
        // the hop in `strafe`, and the brake while it means reverse (in
        // reverse, or at a crawl, where holding it selects reverse).
        let car = &self.sim.car.state;
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
            let slide = self.sim.car.telemetry().slip_rear.abs();
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
        let spec = &self.sim.car.spec().body;
        let v2 = self.sim.car.state.body.vel.length_squared();
        let lock = spec.max_steer_deg.to_radians();
        if v2 < 1e-6 || lock <= 0.0 {
            return 1.0;
        }
        (crate::trig::atan2(spec.wheelbase * STEER_ASSIST, v2) / lock).min(1.0)
    }

    /// The computer cars' step, then every pair of cars that touch.
    pub(super) fn step_opponents(&mut self) {
        let track = &self.sim.track;
        let dt = self.sim.dt;
        for o in &mut self.opponents {
            let from = o.car.state.body.pos;
            let c = if o.laps.lap < self.laps {
                o.driver.controls(&o.car, dt)
            } else {
                Controls {
                    brake: 1.0,
                    ..Controls::default()
                }
            };
            o.car.step(&c, track, dt);
            o.laps.update(track, from, o.car.state.body.pos);
            o.at = self.line.nearest(o.car.state.body.pos, o.at);
        }
        if self.opponents.is_empty() {
            return;
        }
        let mut cars: Vec<&mut crate::physics::Car> = std::iter::once(&mut self.sim.car)
            .chain(self.opponents.iter_mut().map(|o| &mut o.car))
            .collect();
        for j in 1..cars.len() {
            let (left, right) = cars.split_at_mut(j);
            for a in left.iter_mut() {
                a.collide(right[0], track);
            }
        }
    }

    /// One physics tick of the race.
    pub(super) fn tick(&mut self, held: &mut Held, now: f64) {
        match self.phase {
            Phase::Countdown(0) => self.phase = Phase::Running,
            Phase::Countdown(n) => {
                self.phase = Phase::Countdown(n - 1);
                // The throttle held on the grid revs the engine on the
                // panel; nothing moves until the start.
                if self.replay.is_none() {
                    self.last = Controls {
                        throttle: held.is_held(Action::Throttle, now) as u8 as f64,
                        ..Controls::default()
                    };
                }
                return;
            }
            Phase::Running => {}
        }
        let c = self.controls(held, now);
        self.recording.push(&c);
        self.last = c;
        let event = self.sim.step(&c);
        self.finite &= self.sim.car.state.body.is_finite();
        if let Some(crate::race::Event::Missed(n)) = event {
            self.missed = Some((n, self.sim.tick));
        }
        self.step_opponents();
        let car = &self.sim.car;
        let b = &car.state.body;
        let pose = [b.pos.x, b.pos.y, b.heading];
        let sample = || {
            let tel = car.telemetry();
            (tel.speed, tel.slip_front.abs().max(tel.slip_rear.abs()))
        };
        self.log.after_step(self.sim.tick, pose, sample, event);
        // Against the course: moving at speed opposite to the line's
        // direction where the car is.
        self.line_at = self.line.nearest(b.pos, self.line_at);
        let along = self.line.ahead(self.line_at, 4.0) - self.line.points[self.line_at];
        let against =
            b.vel.length() > 3.0 && b.vel.normalize_or_zero().dot(along.normalize_or_zero()) < -0.5;
        self.wrong_way = if against { self.wrong_way + 1 } else { 0 };
        let s = &self.sim.car.state;
        if s.contact.sliding.iter().any(|&x| x) {
            let wheels = wheel_positions(s.body.pos, s.body.axes(), self.sim.car.spec());
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
        self.log.ends.len() as u32 >= self.laps
    }
}
