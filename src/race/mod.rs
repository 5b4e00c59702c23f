//! One race: the [`World`] (every car, each with its controls' source),
//! the countdown, each car's place on the racing line, and the seats of
//! the people in it ([`seat`]), each reading the world for its own car
//! ([`view`]). It knows no screen and no terminal: both front doors (the
//! local game in `app`, the server in `serve`) run their races with it.
//!
//! * [`setup`]: the settings a race is started with, and the menu that
//!   chooses them;
//! * [`seat`]: one car's place in the race, and a person's keys to it;
//! * `follow`: which car each screen follows;
//! * `rivals`: the computer cars put on the grid;
//! * [`said`]: what a seat's keys and aid say back for a moment;
//! * [`skids`]: where its tires slid;
//! * [`view`]: a seat reading its race, for the screen.

pub mod aid;
pub mod camera;
pub mod edit;
mod follow;
pub mod layout;
pub mod medals;
pub mod person;
pub mod records;
mod rivals;
pub mod said;
pub mod script;
pub mod seat;
pub mod session;
pub mod setup;
pub mod skids;
pub mod timing;
pub mod view;
pub mod world;

pub use seat::{Latched, Readout, Seat, Standing};
pub use setup::{MAX_CARS, Menu, Row, Setup, TrackChoice, level, presets};
pub use skids::{SKIDS, Skids};
pub use view::SeatView;

use std::borrow::Cow;
use std::collections::BTreeMap;

use glam::DVec2;

use crate::ai::{Driver, Line};
use crate::input::Held;
use crate::physics::car::CarSpec;
use crate::physics::{Car, Controls, ModelKind};
use crate::race::medals::{Medal, Medals, guessed_pace};
use crate::race::records::Record;
use crate::race::script::Script;
use crate::race::session::Door;
use crate::race::timing::{Lap, Laps};
use crate::race::world::{CarId, FIRST, Source, World};

use crate::ai::race_line;
use seat::Sitter;

/// Seconds of countdown before the start.
pub const COUNTDOWN: f64 = 3.0;

/// Metres kept clear around each car on the grid.
pub const GRID_GAP: f64 = 0.6;

/// Seconds the race goes on after the first car finishes: then it is
/// over, and a car still racing did not finish (DNF).
pub const FINISH_WINDOW: f64 = 30.0;

/// The least a race lasts that nobody finishes, seconds: then it is over
/// and everyone DNF, so that a race left running (a server's room whose
/// players keep their connections alive) keeps no growing ghosts for
/// ever.
pub const LONGEST_RACE: f64 = 15.0 * 60.0;

/// A race nobody finishes ends after this many times the author's time
/// for its laps, where that is longer than [`LONGEST_RACE`].
const AUTHOR_TIMES: f64 = 10.0;

/// A person taking a seat when a race starts: their name on the others'
/// screens (none in local play), the records they race against (one a
/// board: [`crate::race::timing::LapLog::against`]), and the
/// keys they hold (with their terminal's key repeat learned, which their
/// seat goes on with; every key let go as the race starts).
#[derive(Debug, Clone, Default)]
pub struct Entry {
    pub name: Option<String>,
    pub records: Vec<Lap>,
    pub held: Held,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// Ticks left before the start.
    Countdown(u32),
    Running,
}

/// One race.
pub struct Race {
    /// Every car: the seats' cars first (the first seat's on the first
    /// start slot), then the computer cars on the slots after.
    pub world: World,
    pub phase: Phase,
    /// The racing line: which way the course runs here.
    pub line: Line,
    /// The middle of the finish line (0) and of each checkpoint.
    pub marks: Vec<DVec2>,
    /// Opponents placed and asked for, when the grid had less room.
    pub short_of: Option<(usize, usize)>,
    /// The medal whose time the computer cars lap in: their pace, guessed
    /// until the medals are known, then as worked out for it.
    pub rivals: Medal,
    /// A seat for each car, by the car's id (so in the world's order:
    /// the people's first, each driving one car, then the computer cars',
    /// which only keep laps for anyone watching them).
    pub seats: BTreeMap<CarId, Seat>,
    /// The front door its people came through: what its screens offer.
    pub door: Door,
    /// The model and car the race started with (its first seat's): its
    /// rivals' and its medals'.
    pub started_with: (ModelKind, CarSpec),
    /// Each car that has run the race's laps, in finishing order, with
    /// the tick it finished on.
    pub finishers: Vec<(CarId, u64)>,
    /// The medals of the track for the model and car the race started
    /// with ([`Race::started_with`]): none until known
    /// ([`crate::race::medals::book`]).
    pub medals: Option<Medals>,
    /// The speeds the steering aid holds each car it steers to, for each
    /// car and pace met so far ([`aid::Pace`]).
    aid_paces: Vec<aid::Pace>,
    /// Whether the steering aid may steer in this race (the menu's Aid,
    /// a room's host's choice): off, `t` says so and every lap is
    /// unaided.
    pub aid_allowed: bool,
}

impl Race {
    /// A race with one seat, on the first car of `world` ([`FIRST`]): replaying `replay` if
    /// given, against the record `record` if any.
    pub fn new(world: World, laps: u32, replay: Option<&Script>, record: Option<Lap>) -> Race {
        let line = race_line(&world.track);
        Race::on_line(world, laps, replay, record.into_iter().collect(), line)
    }

    /// [`Race::new`] on a racing line already computed for its track (the
    /// costly part of starting a race on a large map).
    pub fn on_line(
        mut world: World,
        laps: u32,
        replay: Option<&Script>,
        records: Vec<Lap>,
        line: Line,
    ) -> Race {
        let countdown = (COUNTDOWN / world.dt).round() as u32;
        world.laps = laps;
        if let (Some(script), Some(first)) = (replay, world.car_mut(FIRST)) {
            first.source = Source::script(script);
        }
        let started_with = world.car(FIRST).map_or_else(
            || (ModelKind::default(), CarSpec::default()),
            |e| (e.car.kind, e.car.spec().clone()),
        );
        let mut seat = Seat::new(FIRST, records);
        if replay.is_some() {
            seat.driver = Sitter::Replay;
        }
        Race {
            phase: Phase::Countdown(countdown),
            line,
            marks: world
                .mark_lines()
                .iter()
                .map(|&(centre, _)| centre)
                .collect(),
            short_of: None,
            rivals: Medal::Silver,
            seats: BTreeMap::from([(FIRST, seat)]),
            door: Door::Local,
            started_with,
            finishers: Vec::new(),
            medals: None,
            aid_paces: Vec::new(),
            aid_allowed: true,
            world,
        }
    }

    /// The race `setup` asks for, on its track's racing line `line`, at
    /// `hz`, for people who came through `door`: a seat for each of
    /// `people` on the first start slots (the
    /// first replaying `replay` if given), then the computer cars the
    /// setup asks for, lapping in the time of the medal `rivals`, as many
    /// as the grid has room for and
    /// [`MAX_CARS`] allows (`short_of` says when the grid had less).
    pub fn start(
        setup: &Setup,
        line: Line,
        hz: u32,
        door: Door,
        people: &[Entry],
        replay: Option<&Script>,
        rivals: Medal,
    ) -> Race {
        let track = setup.track.track.track();
        let world = World::new(track.clone(), setup.spec.clone(), setup.model, hz);
        let records = people
            .first()
            .map(|p| p.records.clone())
            .unwrap_or_default();
        let mut race = Race::on_line(world, setup.laps, replay, records, line);
        race.door = door;
        race.aid_allowed = setup.aid;
        for (slot, p) in people.iter().enumerate().skip(1) {
            let (pos, heading) = track.start_pose(slot);
            let car = Car::new(setup.spec.clone(), setup.model, pos, heading);
            race.add_seat(car, p.records.clone());
        }
        let seats = race.seats.values_mut();
        for ((e, p), seat) in race.world.cars.iter_mut().zip(people).zip(seats) {
            e.name.clone_from(&p.name);
            seat.held = p.held.clone();
            seat.held.release_all();
        }
        let asked = setup.opponents.min(MAX_CARS.saturating_sub(people.len()));
        let placed = race.add_opponents(asked, rivals);
        if placed < asked {
            race.short_of = Some((placed, asked));
        }
        race
    }

    /// The medals `medals` of the race's model and car, as they become
    /// known (a car switched to another model or car has none).
    pub fn set_medals(&mut self, medals: Option<Medals>) {
        // The aid's speeds were for the pace of the medals before (a
        // guess without them). A room asks again while none are known.
        if self.medals != medals {
            self.aid_paces.clear();
        }
        self.medals = medals;
        if self.medals.is_some() {
            let pace = self.rival_pace();
            for e in &mut self.world.cars {
                if let Source::Driver(d) = &mut e.source {
                    d.set_pace(pace);
                }
            }
        }
    }

    /// The pace of the computer cars: the medals' for [`Race::rivals`],
    /// or a guess until they are known.
    fn rival_pace(&self) -> f64 {
        (self.medals.as_ref()).map_or_else(|| guessed_pace(self.rivals), |m| m.pace(self.rivals))
    }

    /// Works out the aid's speeds for each car a person's seat may have
    /// steered by the aid this tick, where not known yet: for a car met
    /// first (a seat's, or one `m` switched to), or since the medals came
    /// ([`Race::set_medals`] forgets those of the guessed pace).
    fn pace_aid(&mut self) {
        if !self.aid_allowed {
            return;
        }
        for seat in self.seats.values().filter(|s| s.wants_aid()) {
            let Some(e) = self.world.car(seat.car) else {
                continue;
            };
            if !self.aid_paces.iter().any(|p| p.is_for(&e.car)) {
                let pace = aid::pace(self.medals_for(&e.car));
                let new = aid::Pace::new(&self.line, &self.world.track, &e.car, pace);
                self.aid_paces.push(new);
            }
        }
    }

    /// The medals for `car` as it is now, if known: none for a car
    /// switched to another model or car than the race started with.
    pub fn medals_for(&self, car: &Car) -> Option<Medals> {
        let (kind, spec) = &self.started_with;
        (car.kind == *kind && car.spec().name == spec.name)
            .then_some(self.medals)
            .flatten()
    }

    /// The records car `car`'s seat holds anew (one a board), with their
    /// ghosts, by the one rule ([`Record::new_in`]) and against the medals
    /// for the car as it is now; none for a car without a seat, or no new
    /// record.
    pub fn new_records(&mut self, car: CarId) -> Vec<(Record, Vec<[f64; 3]>)> {
        let Some(entrant) = self.world.car(car) else {
            return Vec::new();
        };
        let medals = self.medals_for(&entrant.car);
        let Some(seat) = self.seats.get_mut(&car) else {
            return Vec::new();
        };
        let track = &self.world.track;
        Record::new_in(&mut seat.log, track, entrant, self.world.dt, || medals)
    }

    /// Applies one of a seat's own commands ([`Seat::command`]) to the
    /// seat driving `car`; returns whether `cmd` was one.
    pub fn seat_command(&mut self, car: CarId, cmd: crate::input::keys::Command) -> bool {
        let tick = self.world.tick;
        if cmd == crate::input::keys::Command::ToggleAid && !self.aid_allowed {
            if let Some(seat) = self.seats.get_mut(&car) {
                seat.said.say(said::Said::AidNotAllowed, tick);
            }
            return true;
        }
        match (self.seats.get_mut(&car), self.world.car(car)) {
            (Some(seat), Some(e)) => seat.command(cmd, &e.car, tick),
            _ => false,
        }
    }

    /// Puts a person in the race: `car` enters the world driven by a new
    /// seat's keys, against `records` (one a board); returns the car's id.
    pub fn add_seat(&mut self, car: Car, records: Vec<Lap>) -> CarId {
        let id = self.world.enter(car, Source::Seat(Controls::default()));
        self.seats.insert(id, Seat::new(id, records));
        id
    }

    /// Takes car `car` and the seat driving it out of the race (a player
    /// who left): the race goes on for the others, and every other car and
    /// seat keeps its id.
    pub fn leave(&mut self, car: CarId) {
        self.seats.remove(&car);
        self.world.leave(car);
        self.finishers.retain(|&(c, _)| c != car);
    }

    /// The tick the race ends on: [`FINISH_WINDOW`] after the first car
    /// finished, if one has; and in the last [`FINISH_WINDOW`] before its
    /// [`Race::limit`], that.
    pub fn ends_at(&self) -> Option<u64> {
        let window = (FINISH_WINDOW / self.world.dt).round() as u64;
        let limit = self.limit();
        match self.finishers.first() {
            Some(&(_, at)) => Some((at + window).min(limit)),
            None => (self.world.tick + window >= limit).then_some(limit),
        }
    }

    /// The tick a race that nobody finishes ends on: after [`AUTHOR_TIMES`]
    /// the author's time for its laps (with the medals known), or
    /// [`LONGEST_RACE`] a lap (without), at least [`LONGEST_RACE`]. A lap
    /// can last no longer, so neither can its ghost and trace.
    pub fn limit(&self) -> u64 {
        let laps = f64::from(self.world.laps.max(1));
        let author = self.medals.as_ref().map(|m| m.author);
        let secs = author.map_or(LONGEST_RACE * laps, |a| AUTHOR_TIMES * a * laps);
        (secs.max(LONGEST_RACE) / self.world.dt).round() as u64
    }

    /// Seconds left before the race ends, once a car has finished.
    pub fn time_left(&self) -> Option<f64> {
        let end = self.ends_at()?;
        Some(end.saturating_sub(self.world.tick) as f64 * self.world.dt)
    }

    /// Whether the race is over: every car has finished, or
    /// [`FINISH_WINDOW`] has passed since the first did, or the race's
    /// [`Race::limit`] has come.
    pub fn over(&self) -> bool {
        self.finishers.len() >= self.world.cars.len()
            || self.ends_at().is_some_and(|end| self.world.tick >= end)
    }

    /// Whether car `car` has run the race's laps.
    pub fn finished(&self, car: CarId) -> bool {
        self.finishers.iter().any(|&(c, _)| c == car)
    }

    /// Seconds from the start to car `car`'s finish, if it finished.
    pub fn finish_time(&self, car: CarId) -> Option<f64> {
        let &(_, at) = self.finishers.iter().find(|&&(c, _)| c == car)?;
        Some(at as f64 * self.world.dt)
    }

    /// The seat of car `car`, if it is in the race.
    pub fn seat(&self, car: CarId) -> Option<&Seat> {
        self.seats.get(&car)
    }

    /// How many people drive in the race.
    pub fn people(&self) -> usize {
        self.seats.values().filter(|s| s.is_person()).count()
    }

    /// Whether a person drives car `car`.
    pub fn person(&self, car: CarId) -> bool {
        self.seat(car).is_some_and(Seat::is_person)
    }

    pub fn seat_mut(&mut self, car: CarId) -> Option<&mut Seat> {
        self.seats.get_mut(&car)
    }

    /// What car `car` is called on the screen of the person driving
    /// `viewer` (none: a watcher with no car): `YOU`, its driver's name,
    /// or `CPU n` for the n-th car that no person drives.
    /// (Borrowed but for `CPU n`: every standings line of every frame
    /// asks.)
    pub fn name(&self, car: CarId, viewer: Option<CarId>) -> Cow<'_, str> {
        if Some(car) == viewer {
            return Cow::Borrowed("YOU");
        }
        let name = self.world.car(car).and_then(|e| e.name.as_ref());
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            return Cow::Borrowed(name);
        }
        let computers = (self.world.cars.iter()).filter(|e| !self.person(e.id));
        let n = computers.take_while(|e| e.id != car).count();
        Cow::Owned(format!("CPU {}", n + 1))
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

    /// Every car in race order: those that finished first, in the order
    /// they finished, each with its finishing time; then the rest by
    /// progress, each with its completed laps and how many metres of
    /// racing line it is behind the leader of those still racing.
    pub fn standings(&self) -> Vec<Standing> {
        let n = self.line.points.len() as f64;
        let mut order: Vec<Standing> = (self.finishers.iter())
            .map(|&(car, _)| Standing {
                car,
                laps: self.world.laps,
                gap: 0.0,
                finish: self.finish_time(car),
            })
            .collect();
        let mut cars: Vec<(CarId, (u32, u8, i64))> = (self.world.cars.iter())
            .filter(|e| !self.finished(e.id))
            .map(|e| (e.id, self.progress(&e.laps, e.along)))
            .collect();
        // Stable: on equal progress, the player before the computer cars.
        cars.sort_by_key(|c| std::cmp::Reverse(c.1));
        let metres = |(lap, _, at): (u32, u8, i64)| {
            (f64::from(lap) * n + at as f64) * crate::ai::line::SPACING
        };
        let lead = cars.first().map_or(0.0, |c| metres(c.1));
        order.extend(cars.into_iter().map(|(car, p)| Standing {
            car,
            laps: p.0,
            gap: (lead - metres(p)).max(0.0),
            finish: None,
        }));
        order
    }

    /// One physics tick of the race: each seat's held keys drive its
    /// car, unless it replays a script. Nothing moves once it is over.
    pub fn tick(&mut self, now: f64) {
        if self.over() {
            return;
        }
        match self.phase {
            Phase::Countdown(0) => self.phase = Phase::Running,
            Phase::Countdown(n) => {
                self.phase = Phase::Countdown(n - 1);
                for seat in self.seats.values_mut().filter(|s| s.is_person()) {
                    seat.on_grid(now);
                }
                return;
            }
            Phase::Running => {}
        }
        self.pace_aid();
        for seat in self.seats.values_mut().filter(|s| s.is_person()) {
            // A car that finished is parked by a driver (`finishing`).
            let done = self.finishers.iter().any(|&(c, _)| c == seat.car);
            if let Some(e) = self
                .world
                .car_mut(seat.car)
                .filter(|_| !seat.is_replay() && !done)
            {
                // Worked out only for a seat it may steer (a server runs
                // this for every person, every tick).
                let pace = (self.aid_allowed && seat.wants_aid())
                    .then(|| self.aid_paces.iter().find(|p| p.is_for(&e.car)))
                    .flatten();
                let aid = pace.map(|p| (&self.line, e.along, p));
                e.source = Source::Seat(seat.controls(&e.car, now, aid));
            }
        }
        self.world.step();
        for e in &mut self.world.cars {
            e.along = self.line.nearest(e.car.state.body.pos, e.along);
        }
        let keep = self.door.keeps_inputs();
        for seat in self.seats.values_mut() {
            seat.after_step(&self.world, &self.line, keep);
        }
        self.finishing();
    }

    /// Notes each car that has just run the race's laps. A person's car
    /// that finished (or the replay in their seat) is parked as a
    /// computer car is, pulled over and never reversing: their keys drive
    /// it no more.
    fn finishing(&mut self) {
        let (tick, laps) = (self.world.tick, self.world.laps);
        let done: Vec<CarId> = (self.world.cars.iter())
            .filter(|e| e.laps.lap >= laps && !self.finished(e.id))
            .map(|e| e.id)
            .collect();
        for car in done {
            self.finishers.push((car, tick));
            let seat = self.seats.get_mut(&car).filter(|s| s.is_person());
            let (Some(seat), Some(e)) = (seat, self.world.cars.iter_mut().find(|e| e.id == car))
            else {
                continue;
            };
            seat.held.release_all();
            let (spec, kind) = (e.car.spec(), e.car.kind);
            let driver = Driver::along(&self.line, &self.world.track, spec, kind, 1.0);
            e.source = Source::Driver(Box::new(driver));
        }
    }
}
