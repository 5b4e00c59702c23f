//! A seat reading its race ([`SeatView`]): everything the screen of that
//! seat draws, derived from the race's world and the seat, changing
//! neither. Its own module so that the race holds seats and a seat knows
//! nothing of the race it sits in.

use crate::input::{Action, Key};
use crate::physics::{Car, ModelKind};
use crate::race::camera::Camera;
use crate::race::medals::Medals;
use crate::race::timing::{GHOST_EVERY, Lap, Laps};
use crate::race::world::{CarId, Entrant};

use super::said::Said;
use super::seat::{Readout, Seat};
use super::{Phase, Race};

impl Race {
    /// The seat driving car `car` reading this race, through that seat's
    /// own camera; none for a car not in the race.
    pub fn view(&self, car: CarId) -> Option<SeatView<'_>> {
        let (seat, entrant) = (self.seat(car)?, self.world.car(car)?);
        Some(SeatView {
            race: self,
            seat,
            entrant,
            camera: seat.camera,
            viewer: Some(car),
        })
    }
}

/// One seat reading its race: what the screen of that seat draws.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    pub race: &'a Race,
    pub seat: &'a Seat,
    /// The seat's car in the race's world.
    pub entrant: &'a Entrant,
    /// The camera the screen draws the track through: the seat's own, or
    /// a watcher's ([`SeatView::watched_by`]); none before the first tick.
    pub camera: Option<Camera>,
    /// Whose screen it is: the car named YOU (the seat's own, or a
    /// watcher's; none for a watcher with no car in the race).
    pub viewer: Option<CarId>,
}

impl<'a> SeatView<'a> {
    /// The same view on the screen of `viewer`, through their own
    /// `camera`: a person following a car that is not theirs keeps a
    /// camera fitted to their screen, and is still YOU in the standings.
    pub fn watched_by(self, viewer: Option<CarId>, camera: Option<Camera>) -> SeatView<'a> {
        SeatView {
            camera,
            viewer,
            ..self
        }
    }

    /// The control `key` drives in this seat's car: A and D strafe in
    /// `strafe`, and steer in every other model.
    pub fn action(&self, key: Key) -> Action {
        key.action(self.car().kind == ModelKind::Strafe)
    }

    /// This seat's car.
    pub fn car(&self) -> &'a Car {
        &self.entrant.car
    }

    /// This seat's lap counter: laps and checkpoints passed.
    pub fn counter(&self) -> &'a Laps {
        &self.entrant.laps
    }

    /// Laps in the race.
    pub fn laps(&self) -> u32 {
        self.race.world.laps
    }

    /// Every other car in the race.
    pub fn rivals(&self) -> impl Iterator<Item = &'a Car> + use<'a> {
        let mine = self.seat.car;
        (self.race.world.cars.iter())
            .filter(move |e| e.id != mine)
            .map(|e| &e.car)
    }

    /// Whether this seat's car has stayed finite all race: a lap from a
    /// run that ever went non-finite is never saved.
    pub fn finite(&self) -> bool {
        self.entrant.finite
    }

    /// Seconds since tick `at`.
    fn since(&self, at: u64) -> f64 {
        self.race.world.tick.saturating_sub(at) as f64 * self.race.world.dt
    }

    /// Seconds into the current lap.
    pub fn lap_time(&self) -> f64 {
        self.since(self.seat.log.lap_start())
    }

    /// The panel's figures as of the latest tenth of a second (before the
    /// first tick, as they are now).
    pub fn readout(&self) -> Readout {
        self.seat.readout.unwrap_or_else(|| {
            let (tick, car) = (self.race.world.tick, self.car());
            Readout::of(tick, car, self.seat.last.throttle, self.lap_time())
        })
    }

    /// Each completed lap's length in seconds.
    pub fn lap_times(&self) -> Vec<f64> {
        self.seat.log.lap_times(self.race.world.dt)
    }

    pub fn best_time(&self) -> Option<f64> {
        let best = self.seat.log.best()?;
        Some(best.ticks as f64 * self.race.world.dt)
    }

    /// The medals of the track for this car, if known and if the race is
    /// timed as they are ([`SeatView::timed_as_records`]).
    pub fn medals(&self) -> Option<Medals> {
        self.timed_as_records()
            .then(|| self.race.medals_for(self.car()))
            .flatten()
    }

    /// Whether this seat's laps are timed as records and medals are: at
    /// the standard physics rate (`race::standard_rate`).
    pub fn timed_as_records(&self) -> bool {
        crate::race::timing::standard_rate(self.race.world.dt)
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

    /// What the seat said back (a key's answer, the aid's first word),
    /// each while it shows ([`Said::seconds`]), the oldest first.
    pub fn said(&self) -> impl Iterator<Item = Said> + '_ {
        (self.seat.said.iter())
            .filter(|&(said, at)| self.since(at) < said.seconds())
            .map(|(said, _)| said)
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
        self.seat.is_replay()
    }

    /// Whether the car has been driving against the course for a second.
    pub fn wrong_way(&self) -> bool {
        self.seat.wrong_way >= (1.0 / self.race.world.dt).round() as u64
    }

    /// Whose lap the ghost is when it is not the best lap's: their name.
    pub fn ghost_name(&self) -> Option<&'a str> {
        Some(self.seat.their_ghost.as_ref()?.0.as_str())
    }

    /// Where the ghost is now: (x, y, heading). The ghost is someone
    /// else's lap where one was picked, else the best lap's.
    pub fn ghost_pose(&self) -> Option<[f64; 3]> {
        let lap = match &self.seat.their_ghost {
            Some((_, lap)) => lap,
            None => self.seat.log.best()?,
        };
        let ghost = &lap.ghost;
        if !self.seat.show_ghost || self.race.phase != Phase::Running || ghost.is_empty() {
            return None;
        }
        let i = ((self.race.world.tick - self.seat.log.lap_start()) / GHOST_EVERY) as usize;
        Some(ghost[i.min(ghost.len() - 1)])
    }

    /// Whether the replayed script has run out.
    pub fn replay_done(&self) -> bool {
        self.entrant.script_done()
    }

    /// Whether this seat's car has run the race's laps.
    pub fn finished(&self) -> bool {
        self.race.finished(self.seat.car)
    }
}
