//! The game as a state machine, with no terminal in it: screens, the race
//! and its clock, the keys held, recording and replay. The game loop feeds
//! it inputs and one [`App::tick`] per physics step; the UI draws it
//! without changing it. The race steps the same [`Sim`] as `skid sim`.

pub mod camera;
pub mod planner;

use std::collections::VecDeque;

use glam::DVec2;

use crate::ai::{Driver, Line};
use crate::car::{self, CarSpec};
use crate::input::{Action, Held, Key, Latch};
use crate::physics::{Controls, ModelKind, Shift, wheel_positions};
use crate::race::{GHOST_EVERY, Lap, LapLog, Laps};
use crate::records::{Loaded, Record, Store};
use crate::script::Script;
use crate::sim::Sim;
use crate::track::{Track, bundled};
pub use camera::Camera;
use planner::{Planned, Planner, race_line};

/// The smallest terminal the race is drawn in; below it a message shows
/// and the race pauses.
pub const MIN_SIZE: (u16, u16) = (60, 16);
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

/// Commands from single key presses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Pause,
    Restart,
    SwitchModel,
    Help,
    Quit,
    ToggleManual,
    ShiftUp,
    ShiftDown,
    ToggleAutostrafe,
    ToggleGhost,
    Back,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Menu,
    Race,
    Results,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// Ticks left before the start.
    Countdown(u32),
    Running,
}

/// A track the menu offers.
pub struct TrackChoice {
    pub name: String,
    pub track: Track,
}

/// What the title menu has selected.
#[derive(Debug, Clone, PartialEq)]
pub struct Menu {
    pub row: usize,
    pub track: usize,
    pub model: ModelKind,
    /// 0: the model's own preset; then the presets in order.
    pub car: usize,
    /// 0: the track's own number of laps.
    pub laps: u32,
    /// Computer cars, 0 to 7.
    pub opponents: usize,
}

pub const MENU_ROWS: usize = 6;

/// A computer car in the race.
pub struct Opponent {
    pub car: crate::physics::Car,
    pub laps: Laps,
    driver: Driver,
    /// Where it is on the racing line.
    at: usize,
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
    line_at: usize,
    /// Ticks spent driving against the course.
    wrong_way: u64,
    /// The checkpoint missed at the latest finish crossing, and its tick.
    missed: Option<(u8, u64)>,
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
    replay: Option<(Box<dyn Iterator<Item = Controls>>, u64)>,
    pending_shift: Option<Shift>,
    pending_manual: Option<bool>,
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
    fn progress(&self, laps: &Laps, at: usize) -> (u32, u8, i64) {
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
    fn since(&self, at: u64) -> f64 {
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
    fn controls(&mut self, held: &mut Held, now: f64) -> Controls {
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
    fn steer_assist(&self) -> f64 {
        let spec = &self.sim.car.spec().body;
        let v2 = self.sim.car.state.body.vel.length_squared();
        let lock = spec.max_steer_deg.to_radians();
        if v2 < 1e-6 || lock <= 0.0 {
            return 1.0;
        }
        (crate::trig::atan2(spec.wheelbase * STEER_ASSIST, v2) / lock).min(1.0)
    }

    /// The computer cars' step, then every pair of cars that touch.
    fn step_opponents(&mut self) {
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
    fn tick(&mut self, held: &mut Held, now: f64) {
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

/// How the game was started.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A bundled track's name or a file (with the track already parsed).
    pub track: Option<(String, Track)>,
    pub model: Option<ModelKind>,
    /// A preset's name or a file, with the preset parsed.
    pub car: Option<(String, CarSpec)>,
    pub laps: Option<u32>,
    pub hz: u32,
    pub replay: Option<Script>,
    pub color: bool,
    /// Where records and ghosts are kept; none: not kept.
    pub records: Option<Store>,
    /// Computer cars in a race, and their skill (0.5 to 1).
    pub opponents: usize,
    pub skill: f64,
}

pub struct App {
    pub screen: Screen,
    pub menu: Menu,
    pub choices: Vec<TrackChoice>,
    /// Car presets the menu offers after "the model's own".
    pub cars: Vec<(String, CarSpec)>,
    pub race: Option<Race>,
    pub paused: bool,
    pub help: bool,
    pub quit: bool,
    pub held: Held,
    pub size: (u16, u16),
    pub color: bool,
    /// Something visible changed since the last draw.
    pub dirty: bool,
    hz: u32,
    replay: Option<Script>,
    records: Option<Store>,
    skill: f64,
    /// Things to tell the player once the terminal is theirs again.
    pub notices: Vec<String>,
    /// How many races have started: a recording starts over with each.
    pub races: u64,
    /// The racing line of the last track raced, by its content id.
    line: Option<(String, Line)>,
    /// Whether a racing line not yet known is computed on a thread while
    /// the game goes on (the game) or at once (headless runs, tests).
    pub background: bool,
    /// The line being computed for the race the player asked for.
    pub planner: Option<Planner>,
    /// The record lap time for the menu's track, model and car, seconds;
    /// read when the selection changes, not on every frame.
    pub menu_best: Option<f64>,
}

impl App {
    /// The title menu, preselected from the options.
    pub fn new(opts: Options) -> App {
        let mut choices: Vec<TrackChoice> = bundled::TRACKS
            .iter()
            .filter_map(|(n, _)| {
                bundled::load(n).map(|track| TrackChoice {
                    name: n.to_string(),
                    track,
                })
            })
            .collect();
        let mut cars: Vec<(String, CarSpec)> = car::PRESETS
            .iter()
            .filter_map(|(n, _)| CarSpec::bundled(n).map(|s| (n.to_string(), s)))
            .collect();
        let track = match opts.track {
            Some((name, track)) => match choices.iter().position(|c| c.name == name) {
                Some(i) => i,
                None => {
                    choices.push(TrackChoice { name, track });
                    choices.len() - 1
                }
            },
            None => 0,
        };
        let car_index = match &opts.car {
            Some((name, spec)) => {
                1 + match cars.iter().position(|(n, _)| n == name) {
                    Some(i) => i,
                    None => {
                        cars.push((name.clone(), spec.clone()));
                        cars.len() - 1
                    }
                }
            }
            None => 0,
        };
        let model = opts
            .model
            .or(opts.car.as_ref().map(|(_, s)| s.model))
            .unwrap_or(ModelKind::Arcade);
        let mut app = App {
            screen: Screen::Menu,
            menu: Menu {
                row: MENU_ROWS - 1,
                track,
                model,
                car: car_index,
                laps: opts.laps.unwrap_or(0),
                opponents: opts.opponents.min(7),
            },
            choices,
            cars,
            race: None,
            paused: false,
            help: false,
            quit: false,
            held: Held::new(),
            size: (80, 24),
            color: opts.color,
            dirty: true,
            hz: opts.hz.max(1),
            replay: opts.replay,
            records: opts.records,
            skill: opts.skill,
            notices: Vec::new(),
            menu_best: None,
            races: 0,
            line: None,
            background: false,
            planner: None,
        };
        app.refresh_best();
        app
    }

    /// Reads the record for the menu's selection from the records file.
    fn refresh_best(&mut self) {
        let Some(store) = &self.records else { return };
        let track = self.choices[self.menu.track].track.content_id();
        let (_, spec) = self.selected_car();
        self.menu_best = match store.load() {
            Ok(loaded) => {
                self.notices.extend(loaded.notice());
                loaded
                    .records
                    .iter()
                    .find(|r| {
                        r.key() == (track.as_str(), self.menu.model, spec.content_id().as_str())
                    })
                    .map(|r| r.time)
            }
            Err(_) => None,
        };
    }

    /// The car the menu's selection drives.
    pub fn selected_car(&self) -> (String, CarSpec) {
        match self.menu.car {
            0 => {
                let spec = CarSpec::default_for(self.menu.model);
                (format!("{} (own)", spec.name), spec)
            }
            i => self.cars[i - 1].clone(),
        }
    }

    pub fn selected_laps(&self) -> u32 {
        match self.menu.laps {
            0 => self.choices[self.menu.track].track.laps,
            n => n,
        }
    }

    /// Starts a race with the menu's selection; in the background mode,
    /// on a track whose racing line is not known yet, starts computing the
    /// line instead, and [`App::poll`] starts the race when it is done.
    pub fn start_race(&mut self) {
        let choice = &self.choices[self.menu.track];
        let known = self
            .line
            .as_ref()
            .is_some_and(|(id, _)| *id == choice.track.content_id());
        if self.background && !known {
            match &mut self.planner {
                Some(p) if p.id == choice.track.content_id() => p.wanted = true,
                _ => self.planner = Some(Planner::start(&choice.track, &choice.name)),
            }
            self.dirty = true;
            return;
        }
        let track = self.choices[self.menu.track].track.clone();
        let (_, spec) = self.selected_car();
        let laps = self.selected_laps();
        let found = self.records.as_ref().map(|store| {
            (
                store.dir.clone(),
                store.best(&track.content_id(), self.menu.model, &spec.content_id()),
            )
        });
        let record = match found {
            Some((_, Ok((best, loaded)))) => {
                self.notice_damage(&loaded);
                // A record set at another physics rate, in this race's ticks.
                best.map(|(r, lap)| lap.at_rate(r.hz, self.hz))
            }
            Some((dir, Err(e))) => {
                self.notices
                    .push(format!("{}: cannot read the records: {e}", dir.display()));
                None
            }
            None => None,
        };
        let sim = Sim::new(track, spec, self.menu.model, self.hz);
        // The racing line depends on the track alone: kept across restarts.
        let id = sim.track.content_id();
        let line = match &self.line {
            Some((cached, line)) if *cached == id => line.clone(),
            _ => {
                let line = race_line(&sim.track);
                self.line = Some((id, line.clone()));
                line
            }
        };
        let mut race = Race::on_line(sim, laps, self.replay.as_ref(), record, line);
        let asked = self.menu.opponents;
        let placed = race.add_opponents(asked, self.skill);
        if placed < asked {
            let note = format!(
                "{}: room on the grid for {placed} of the {asked} opponents asked for",
                self.choices[self.menu.track].name
            );
            race.short_of = Some((placed, asked));
            self.notices.push(note);
        }
        self.race = Some(race);
        self.races += 1;
        self.screen = Screen::Race;
        self.paused = false;
        self.held.release_all();
        self.dirty = true;
    }

    fn notice_damage(&mut self, loaded: &Loaded) {
        self.notices.extend(loaded.notice());
    }

    /// Saves the race's best lap if it beat the record.
    /// A replay never sets records or ghosts: it is not a lap driven now.
    fn save_record(&mut self) {
        if self.replay.is_some() {
            return;
        }
        let (Some(store), Some(race)) = (&self.records, &mut self.race) else {
            return;
        };
        let Some(best) = race
            .log
            .best
            .as_ref()
            .filter(|b| race.log.improved && race.finite && b.ticks > 0)
        else {
            return;
        };
        race.log.improved = false;
        let record = Record::of(&race.sim, best);
        match store.save(record, &best.ghost) {
            Ok((_, loaded)) => self.notice_damage(&loaded),
            Err(e) => self.notices.push(format!(
                "{}: cannot save the record: {e}",
                store.dir.display()
            )),
        }
    }

    /// Whether the terminal is too small to draw the race.
    pub fn too_small(&self) -> bool {
        self.size.0 < MIN_SIZE.0 || self.size.1 < MIN_SIZE.1
    }

    /// Whether physics ticks advance now.
    pub fn running(&self) -> bool {
        self.screen == Screen::Race && !self.paused && !self.help && !self.too_small()
    }

    pub fn resize(&mut self, w: u16, h: u16) {
        self.size = (w, h);
        if let Some(r) = &mut self.race {
            r.camera = None;
        }
        self.dirty = true;
    }

    /// The control `key` drives in the race's model.
    fn action(&self, key: Key) -> Action {
        let strafe = self
            .race
            .as_ref()
            .is_some_and(|r| r.sim.car.kind == ModelKind::Strafe);
        key.action(strafe)
    }

    /// A press or autorepeat of a driving key.
    pub fn press(&mut self, key: Key, now: f64) {
        if self.running() {
            self.held.press(self.action(key), now);
        }
    }

    /// A release of a driving key (terminals with the kitty protocol).
    pub fn release(&mut self, key: Key) {
        self.held.release(self.action(key));
    }

    pub fn focus_lost(&mut self) {
        self.held.release_all();
    }

    /// Starts the race the player is waiting for if its racing line is
    /// done (see [`planner`]); the game calls this every turn of its loop.
    pub fn poll(&mut self) {
        let Some(planner) = &self.planner else { return };
        match planner.poll() {
            Planned::Waiting => {}
            Planned::Done(line) => {
                let wanted = planner.wanted;
                self.line = Some((planner.id.clone(), line));
                self.planner = None;
                if wanted {
                    self.start_race();
                }
            }
            Planned::Failed => {
                let note = format!("{}: the racing line could not be computed", planner.name);
                self.notices.push(note);
                self.planner = None;
                self.dirty = true;
            }
        }
    }

    /// One physics tick, when the race runs.
    pub fn tick(&mut self, now: f64) {
        if !self.running() {
            return;
        }
        let Some(race) = &mut self.race else { return };
        let laps_before = race.log.ends.len();
        race.tick(&mut self.held, now);
        let lap_done = race.log.ends.len() > laps_before;
        let view = crate::ui::track_view_size(self.size);
        race.camera = Some(Camera::follow(
            race.camera,
            &race.sim.track,
            view,
            race.sim.car.state.body.pos,
            race.sim.car.state.body.vel,
        ));
        let finished = race.finished();
        if finished {
            race.final_standings = Some(race.standings());
        }
        if lap_done {
            self.save_record();
        }
        if finished {
            self.screen = Screen::Results;
            self.held.release_all();
        }
        self.dirty = true;
    }

    pub fn command(&mut self, cmd: Command) {
        self.dirty = true;
        if self.help {
            if matches!(
                cmd,
                Command::Help | Command::Back | Command::Pause | Command::Enter
            ) {
                self.help = false;
            } else if cmd == Command::Quit {
                self.quit = true;
            }
            return;
        }
        if let Some(planner) = self.planner.as_mut().filter(|p| p.wanted) {
            // Waiting for a racing line: the menu stays still; Esc gives
            // up waiting (the line goes on being computed, and is kept).
            match cmd {
                Command::Quit => self.quit = true,
                Command::Back => planner.wanted = false,
                _ => {}
            }
            return;
        }
        match (self.screen, cmd) {
            (_, Command::Help) => self.help = true,
            (_, Command::Quit) => self.quit = true,
            (Screen::Menu, c) => self.menu_command(c),
            (Screen::Results, Command::Enter | Command::Back) => {
                self.screen = Screen::Menu;
                self.race = None;
                self.refresh_best();
            }
            (Screen::Results, Command::Restart) => self.start_race(),
            (Screen::Results, _) => {}
            (Screen::Race, c) => self.race_command(c),
        }
    }

    fn menu_command(&mut self, cmd: Command) {
        let m = &mut self.menu;
        let step = |cmd| if cmd == Command::Left { -1 } else { 1 };
        match cmd {
            Command::Up => m.row = (m.row + MENU_ROWS - 1) % MENU_ROWS,
            Command::Down => m.row = (m.row + 1) % MENU_ROWS,
            Command::Left | Command::Right => {
                let d = step(cmd);
                match m.row {
                    0 => m.track = wrap(m.track, d, self.choices.len()),
                    1 => {
                        let i = ModelKind::ALL
                            .iter()
                            .position(|&k| k == m.model)
                            .unwrap_or(0);
                        m.model = ModelKind::ALL[wrap(i, d, ModelKind::ALL.len())];
                    }
                    2 => m.car = wrap(m.car, d, self.cars.len() + 1),
                    3 => m.laps = wrap(m.laps as usize, d, 100) as u32,
                    4 => m.opponents = wrap(m.opponents, d, 8),
                    _ => {}
                }
            }
            Command::Enter => self.start_race(),
            _ => {}
        }
        if matches!(cmd, Command::Left | Command::Right) {
            self.refresh_best();
        }
    }

    fn race_command(&mut self, cmd: Command) {
        let Some(race) = &mut self.race else { return };
        match cmd {
            Command::Pause | Command::Back => {
                self.paused = !self.paused;
                self.held.release_all();
            }
            Command::Restart => self.start_race(),
            Command::SwitchModel => {
                let next = race.sim.car.kind.next();
                race.sim.car.switch_model(next);
            }
            Command::ToggleManual => race.pending_manual = Some(!race.sim.car.state.drive.manual),
            Command::ShiftUp => race.pending_shift = Some(Shift::Up),
            Command::ShiftDown => race.pending_shift = Some(Shift::Down),
            Command::ToggleAutostrafe => race.autostrafe = !race.autostrafe,
            Command::ToggleGhost => race.show_ghost = !race.show_ghost,
            Command::Enter if self.paused => self.paused = false,
            _ => {}
        }
    }
}

/// `i + d` wrapped into `0..n`.
fn wrap(i: usize, d: i64, n: usize) -> usize {
    (i as i64 + d).rem_euclid(n as i64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh records store in a temporary folder, and the pocket track.
    fn stored(name: &str) -> (std::path::PathBuf, Store, Track) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::new(&dir);
        (dir, store, bundled::load("pocket").unwrap())
    }

    /// A record on `track` for the arcade model's own car, at 120 Hz.
    fn arcade_record(track: &Track, time: f64, ticks: u64, splits: Vec<u64>) -> Record {
        Record {
            track: track.name.clone(),
            track_id: track.content_id(),
            model: ModelKind::Arcade,
            car: "hatch".into(),
            car_id: CarSpec::default_for(ModelKind::Arcade).content_id(),
            time,
            ticks,
            hz: 120,
            splits,
        }
    }

    fn race_app(model: ModelKind) -> App {
        let mut app = App::new(Options {
            model: Some(model),
            hz: 120,
            ..Options::default()
        });
        app.start_race();
        app
    }

    /// Ticks through the countdown.
    fn go(app: &mut App, now: &mut f64) {
        for _ in 0..=360 {
            *now += 1.0 / 120.0;
            app.tick(*now);
        }
        assert_eq!(app.race.as_ref().unwrap().phase, Phase::Running);
    }

    #[test]
    fn the_menu_cycles_rows_and_values() {
        let mut app = App::new(Options {
            hz: 120,
            ..Options::default()
        });
        assert_eq!(app.menu.row, MENU_ROWS - 1, "Start is selected");
        app.command(Command::Down);
        assert_eq!(app.menu.row, 0);
        app.command(Command::Left);
        assert_eq!(
            app.menu.track,
            app.choices.len() - 1,
            "wraps to the last track"
        );
        app.command(Command::Down);
        app.command(Command::Right);
        assert_eq!(app.menu.model, ModelKind::Dynamic);
        assert_eq!(
            app.selected_car().1.name,
            "corvette-c5",
            "the model's own car"
        );
        app.command(Command::Enter);
        assert_eq!(app.screen, Screen::Race);
    }

    #[test]
    fn the_countdown_holds_the_car_then_the_keys_drive_it() {
        let mut app = race_app(ModelKind::Arcade);
        let mut now = 0.0;
        app.press(Key::Up, now);
        for _ in 0..100 {
            now += 1.0 / 120.0;
            app.tick(now);
        }
        assert_eq!(
            app.race.as_ref().unwrap().sim.tick,
            0,
            "no physics in the countdown"
        );
        go(&mut app, &mut now);
        // Hold W with autorepeat for a second.
        for i in 0..120 {
            now += 1.0 / 120.0;
            if i % 4 == 0 {
                app.press(Key::W, now);
            }
            app.tick(now);
        }
        let r = app.race.as_ref().unwrap();
        assert!(r.sim.car.state.body.vel.length() > 3.0, "it drove");
        assert!(
            r.recording
                .hold
                .iter()
                .any(|h| h.throttle == 1.0 && h.ticks >= 100),
            "{:?}",
            r.recording
        );
    }

    #[test]
    fn pause_stops_the_clock_and_releases_keys() {
        let mut app = race_app(ModelKind::Tire);
        let mut now = 0.0;
        go(&mut app, &mut now);
        app.command(Command::Pause);
        let tick = app.race.as_ref().unwrap().sim.tick;
        for _ in 0..50 {
            now += 0.01;
            app.press(Key::Up, now);
            app.tick(now);
        }
        assert_eq!(app.race.as_ref().unwrap().sim.tick, tick);
        app.command(Command::Pause);
        app.tick(now);
        assert_eq!(app.race.as_ref().unwrap().sim.tick, tick + 1);
        assert!(
            !app.held.is_held(Action::Throttle, now),
            "keys pressed while paused do not count"
        );
    }

    #[test]
    fn driving_against_the_course_warns_after_a_second() {
        let mut app = race_app(ModelKind::Arcade);
        let mut now = 0.0;
        go(&mut app, &mut now);
        // The start straight runs east: drive west at speed.
        let race = app.race.as_mut().unwrap();
        race.sim.car.state.body.vel = DVec2::new(-12.0, 0.0);
        race.sim.car.state.body.heading = std::f64::consts::PI;
        for i in 0..130 {
            now += 1.0 / 120.0;
            app.tick(now);
            assert_eq!(app.race.as_ref().unwrap().wrong_way(), i >= 119, "tick {i}");
        }
    }

    #[test]
    fn the_ghost_of_the_record_drives_with_the_lap_and_g_hides_it() {
        let (dir, store, track) = stored("skid-app-ghost");
        let ghost: Vec<[f64; 3]> = (0..100).map(|i| [50.0 + i as f64, 10.0, 0.0]).collect();
        let record = arcade_record(&track, 20.0, 2400, vec![]);
        store.save(record, &ghost).unwrap();
        let mut app = App::new(Options {
            model: Some(ModelKind::Arcade),
            hz: 120,
            records: Some(store),
            ..Options::default()
        });
        app.start_race();
        let mut now = 0.0;
        go(&mut app, &mut now);
        for _ in 0..39 {
            now += 1.0 / 120.0;
            app.tick(now);
        }
        // 40 ticks into the lap: the tenth sample, every four ticks.
        assert_eq!(
            app.race.as_ref().unwrap().ghost_pose(),
            Some([60.0, 10.0, 0.0])
        );
        app.command(Command::ToggleGhost);
        assert_eq!(app.race.as_ref().unwrap().ghost_pose(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_menu_shows_the_record_for_its_selection() {
        let (dir, store, track) = stored("skid-app-menu");
        let record = arcade_record(&track, 21.25, 2550, vec![]);
        store.save(record, &[[0.0, 0.0, 0.0]]).unwrap();
        let mut app = App::new(Options {
            track: Some(("pocket".into(), track)),
            model: Some(ModelKind::Arcade),
            hz: 120,
            records: Some(store),
            ..Options::default()
        });
        assert_eq!(app.menu_best, Some(21.25));
        app.menu.row = 1;
        app.command(Command::Right);
        assert_eq!(app.menu.model, ModelKind::Dynamic);
        assert_eq!(app.menu_best, None, "no record for dynamic");
        app.command(Command::Left);
        assert_eq!(app.menu_best, Some(21.25));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_set_at_another_rate_reads_in_time() {
        let (dir, store, track) = stored("skid-app-rate");
        let record = arcade_record(&track, 40.5, 4860, vec![1200, 3000]);
        store.save(record, &[[0.0, 0.0, 0.0]]).unwrap();
        let mut app = App::new(Options {
            track: Some(("pocket".into(), track)),
            model: Some(ModelKind::Arcade),
            hz: 10_000,
            records: Some(store),
            ..Options::default()
        });
        app.start_race();
        let best = app.race.as_ref().unwrap().best_time().unwrap();
        assert!((best - 40.5).abs() < 1e-9, "BEST reads {best} s");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_replay_never_saves_a_record() {
        let dir = std::env::temp_dir().join(format!("skid-app-replay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::new(&dir);
        let script = Script::parse("r.toml", "[[hold]]\nticks = 10\nthrottle = 1.0\n").unwrap();
        let lap = Lap {
            ticks: 1000,
            splits: vec![400, 700],
            ghost: vec![[1.0, 1.0, 0.0]],
            trace: vec![],
        };
        for replay in [Some(script), None] {
            let mut app = App::new(Options {
                hz: 120,
                replay: replay.clone(),
                records: Some(store.clone()),
                ..Options::default()
            });
            app.start_race();
            let race = app.race.as_mut().unwrap();
            race.log.best = Some(lap.clone());
            race.log.improved = true;
            app.save_record();
            let track = app.race.as_ref().unwrap().sim.track.content_id();
            let id = CarSpec::default_for(ModelKind::Arcade).content_id();
            let (best, _) = store.best(&track, ModelKind::Arcade, &id).unwrap();
            assert_eq!(
                best.is_some(),
                replay.is_none(),
                "replay: {}",
                replay.is_some()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn opponents_race_from_the_next_slots_and_never_share_space() {
        let mut app = App::new(Options {
            model: Some(ModelKind::Tire),
            hz: 120,
            opponents: 3,
            skill: 1.0,
            ..Options::default()
        });
        app.start_race();
        let mut now = 0.0;
        go(&mut app, &mut now);
        let track = app.race.as_ref().unwrap().sim.track.clone();
        let starts: Vec<DVec2> = (1..=3).map(|i| track.start_pose(i).0).collect();
        let r = app.race.as_ref().unwrap();
        assert_eq!(r.opponents.len(), 3);
        for (o, s) in r.opponents.iter().zip(&starts) {
            assert!(o.car.state.body.pos.distance(*s) < 0.5, "on its slot");
        }
        for _ in 0..(120 * 20) {
            now += 1.0 / 120.0;
            app.tick(now);
            let r = app.race.as_ref().unwrap();
            let mut boxes = vec![r.sim.car.footprint()];
            boxes.extend(r.opponents.iter().map(|o| o.car.footprint()));
            for (i, a) in boxes.iter().enumerate() {
                assert!(!r.sim.track.box_hits_wall(a));
                for b in &boxes[i + 1..] {
                    assert!(
                        a.overlap(b).is_none_or(|c| c.depth < 0.3),
                        "cars overlap deeply"
                    );
                }
            }
        }
        let r = app.race.as_ref().unwrap();
        assert!(
            r.opponents
                .iter()
                .all(|o| o.laps.checkpoint >= 1 || o.laps.lap >= 1),
            "they race"
        );
        let place = 1 + r.standings().iter().position(|s| s.car == 0).unwrap();
        assert!((1..=4).contains(&place));
    }

    #[test]
    fn every_bundled_grid_holds_every_preset_without_touching() {
        for (track, _) in bundled::TRACKS {
            let t = bundled::load(track).unwrap();
            for (preset, _) in car::PRESETS {
                let spec = CarSpec::bundled(preset).unwrap();
                let sim = Sim::new(t.clone(), spec.clone(), spec.model, 120);
                let mut race = Race::new(sim, 1, None, None);
                let placed = race.add_opponents(7, 1.0);
                assert_eq!(placed, (t.starts.len() - 1).min(7), "{track} with {preset}");
            }
        }
    }

    #[test]
    fn asking_for_more_opponents_than_the_grid_holds_says_so() {
        let mut app = App::new(Options {
            track: Some(("pocket".into(), bundled::load("pocket").unwrap())),
            hz: 120,
            opponents: 7,
            skill: 1.0,
            ..Options::default()
        });
        app.start_race();
        let race = app.race.as_ref().unwrap();
        assert_eq!(race.opponents.len(), 3, "pocket has four slots");
        assert_eq!(race.short_of, Some((3, 7)));
        assert_eq!(
            app.notices,
            ["pocket: room on the grid for 3 of the 7 opponents asked for"]
        );
    }

    #[test]
    fn a_restart_keeps_the_racing_line() {
        let mut app = race_app(ModelKind::Arcade);
        // Plant a line of one point under this track's id: a restart that
        // computed the line again would not have it.
        let id = app.race.as_ref().unwrap().sim.track.content_id();
        let planted = Line {
            points: vec![DVec2::new(1.0, 2.0)],
            speeds: vec![3.0],
            gates: Vec::new(),
        };
        app.line = Some((id, planted));
        app.command(Command::Restart);
        assert_eq!(app.races, 2);
        assert_eq!(
            app.race.as_ref().unwrap().line.points,
            [DVec2::new(1.0, 2.0)]
        );
        // Another track computes its own.
        app.command(Command::Quit);
        app.quit = false;
        app.menu.track = (app.menu.track + 1) % app.choices.len();
        app.start_race();
        assert!(app.race.as_ref().unwrap().line.points.len() > 20);
    }

    #[test]
    fn a_too_small_terminal_pauses_the_race() {
        let mut app = race_app(ModelKind::Arcade);
        app.resize(40, 10);
        assert!(!app.running());
        app.resize(80, 24);
        assert!(app.running());
    }

    #[test]
    fn m_switches_the_model_keeping_the_motion() {
        let mut app = race_app(ModelKind::Arcade);
        let mut now = 0.0;
        go(&mut app, &mut now);
        for _ in 0..60 {
            now += 1.0 / 120.0;
            app.press(Key::Up, now);
            app.tick(now);
        }
        let body = app.race.as_ref().unwrap().sim.car.state.body;
        app.command(Command::SwitchModel);
        let r = app.race.as_ref().unwrap();
        assert_eq!(r.sim.car.kind, ModelKind::Dynamic);
        assert_eq!(r.sim.car.state.body, body);
    }

    #[test]
    fn a_replayed_recording_drives_the_same_race() {
        let mut app = race_app(ModelKind::Dynamic);
        let mut now = 0.0;
        go(&mut app, &mut now);
        for i in 0..600 {
            now += 1.0 / 120.0;
            let k = if (i / 100) % 2 == 0 { Key::Up } else { Key::D };
            if i % 5 == 0 {
                app.press(k, now);
            }
            if i == 300 {
                app.command(Command::ShiftDown);
            }
            app.tick(now);
        }
        let race = app.race.as_ref().unwrap();
        let script = race.recording.clone();
        let text = script.to_toml();
        let back = Script::parse("rec.toml", &text).unwrap();
        assert_eq!(back.total_ticks(), race.sim.tick);
        let mut replay = App::new(Options {
            model: Some(ModelKind::Dynamic),
            hz: 120,
            replay: Some(back),
            ..Options::default()
        });
        replay.start_race();
        let mut t = 0.0;
        go(&mut replay, &mut t);
        for _ in 0..600 {
            t += 0.5; // any clock: a replay ignores it
            replay.tick(t);
        }
        let again = replay.race.as_ref().unwrap();
        assert_eq!(again.sim.car.state, race.sim.car.state);
    }
}
