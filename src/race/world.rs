//! The race world: a track, the cars on it with the source of each one's
//! controls, their laps and the fixed-step clock. It knows no screen, no
//! menu and no keyboard. [`World::step`] is the one step loop: the game,
//! `skid sim`, `skid render` and every test advance a race through it.
//! Whoever drives a car (a person at a keyboard or over SSH, a computer
//! driver, a replayed script) is a [`Source`]; a person's seat hands its
//! controls in before each step. Nothing else goes in, so the same
//! controls give the same states, bit for bit.

use std::fmt::Write;

use glam::DVec2;

use crate::ai::Driver;
use crate::physics::car::CarSpec;
use crate::physics::{Car, Controls, ModelKind};
use crate::race::timing::{Event, Laps};
use crate::track::Track;

/// The trace's header (docs/DESIGN.md, "Trace").
pub const TRACE_HEADER: &str = "tick,t,x,y,heading,speed,vx,vy,yaw_rate,steer,rpm,gear,slip_front,slip_rear,surface,lap,checkpoint";

/// Where a car's controls come from each step.
pub enum Source {
    /// A person: their seat sets these before each step. They hold until
    /// set again, but for a gear shift and a gearbox switch, which the
    /// step takes once.
    Seat(Controls),
    /// A computer driver, which pulls over and stops (never reversing)
    /// once the car has raced [`World::laps`] laps.
    Driver(Box<Driver>),
    /// An input script's ticks and how many are left; then no controls.
    Script(Box<dyn Iterator<Item = Controls> + Send + Sync>, u64),
}

impl Source {
    /// A script's controls, tick by tick.
    pub fn script(script: &crate::race::script::Script) -> Source {
        Source::Script(
            Box::new(script.clone().into_controls()),
            script.total_ticks(),
        )
    }
}

/// A car's handle in its world: given when the car enters, never
/// reused and never renumbered, whoever leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CarId(pub u32);

/// The car [`World::new`] puts on the first start slot: the local
/// player's, or the one car of a headless run.
pub const FIRST: CarId = CarId(0);

/// One car in the world.
pub struct Entrant {
    pub id: CarId,
    pub car: Car,
    /// Its driver's name where people race each other; none for a
    /// computer car or in local play.
    pub name: Option<String>,
    /// Where the car is along the race's racing line (a point's index),
    /// kept by the race for the standings and the wrong-way warning.
    pub along: usize,
    pub laps: Laps,
    pub source: Source,
    /// Its start slot's position and heading.
    pub grid: (DVec2, f64),
    /// The car's motion over the step in which it last passed a mark:
    /// which way a respawn there faces.
    pub passing: DVec2,
    /// Whether the car has stayed finite all race: a lap from a run that
    /// ever went non-finite is never saved.
    pub finite: bool,
    /// The controls of the latest step: what the car was given.
    pub last: Controls,
    /// What the latest step's motion did to its race ([`World::step`]).
    pub event: Option<Event>,
}

impl Entrant {
    /// Where a respawn puts this car: on the last mark it passed this lap
    /// (the finish line after a lap), facing across it the way it went
    /// through; before it first crossed the finish, on its grid slot.
    fn respawn_pose(&self, marks: &[(DVec2, DVec2)]) -> (DVec2, f64) {
        let mark = usize::from(self.laps.checkpoint);
        let before_start = self.laps.lap == 0 && mark == 0 && !self.laps.crossed();
        match marks.get(mark).filter(|_| !before_start) {
            Some(&(centre, normal)) => {
                let way = if mark > 0 && normal.dot(self.passing) < 0.0 {
                    -normal
                } else {
                    normal
                };
                (centre, crate::base::trig::atan2(way.y, way.x))
            }
            None => self.grid,
        }
    }

    /// Whether a replayed script has run out.
    pub fn script_done(&self) -> bool {
        matches!(self.source, Source::Script(_, 0))
    }
}

pub struct World {
    pub track: Track,
    /// The cars, in grid order ([`FIRST`] on the first start slot).
    pub cars: Vec<Entrant>,
    /// Laps in the race: a computer car stops after them.
    pub laps: u32,
    /// Steps taken.
    pub tick: u64,
    /// Seconds per step.
    pub dt: f64,
    /// The next car's id.
    next_id: u32,
    /// Each mark's middle and normal ([`World::mark_lines`]).
    marks: std::sync::OnceLock<Vec<(DVec2, DVec2)>>,
}

impl World {
    /// A world of one car ([`FIRST`]) at rest on the first start slot,
    /// driven by a seat ([`World::drive`]).
    pub fn new(track: Track, spec: CarSpec, kind: ModelKind, hz: u32) -> World {
        let (pos, heading) = track.start_pose(0);
        let mut world = World {
            cars: Vec::new(),
            laps: track.laps,
            track,
            tick: 0,
            dt: 1.0 / f64::from(hz),
            next_id: 0,
            marks: std::sync::OnceLock::new(),
        };
        world.enter(
            Car::new(spec, kind, pos, heading),
            Source::Seat(Controls::default()),
        );
        world
    }

    /// Puts a car in the race, behind the others on the grid, driven by
    /// `source`; returns its id.
    pub fn enter(&mut self, car: Car, source: Source) -> CarId {
        let id = CarId(self.next_id);
        self.next_id += 1;
        self.cars.push(Entrant {
            id,
            name: None,
            along: 0,
            laps: Laps::new(&self.track),
            grid: (car.state.body.pos, car.state.body.heading),
            car,
            source,
            finite: true,
            last: Controls::default(),
            passing: DVec2::ZERO,
            event: None,
        });
        id
    }

    /// Each race mark's middle and normal (`Track::mark_lines`), the
    /// finish line's first: found once, for the race's marks and every
    /// respawn.
    pub fn mark_lines(&self) -> &[(DVec2, DVec2)] {
        mark_lines(&self.marks, &self.track)
    }

    /// Car `id`, if it is in the race (a car leaves with its seat).
    pub fn car(&self, id: CarId) -> Option<&Entrant> {
        self.cars.iter().find(|e| e.id == id)
    }

    pub fn car_mut(&mut self, id: CarId) -> Option<&mut Entrant> {
        self.cars.iter_mut().find(|e| e.id == id)
    }

    /// Takes car `id` out of the race; the others keep their ids.
    pub fn leave(&mut self, id: CarId) {
        self.cars.retain(|e| e.id != id);
    }

    /// The one step loop: every car's controls from its source, every car
    /// stepped and its laps followed in grid order, then every pair of cars
    /// that touch pushed apart. What each car's motion did to its race is
    /// its [`Entrant::event`] until the next step.
    pub fn step(&mut self) {
        let (track, dt, laps, marks) = (&self.track, self.dt, self.laps, &self.marks);
        for e in &mut self.cars {
            let c = match &mut e.source {
                Source::Seat(c) => Controls {
                    shift: c.shift.take(),
                    manual: c.manual.take(),
                    respawn: std::mem::take(&mut c.respawn),
                    model: c.model.take(),
                    ..*c
                },
                Source::Driver(d) if e.laps.lap < laps => {
                    d.controls(&e.car, dt, e.laps.wanted(track))
                }
                Source::Driver(d) => d.park(&e.car),
                Source::Script(ticks, left) => {
                    *left = left.saturating_sub(1);
                    ticks.next().unwrap_or_default()
                }
            };
            if let Some(kind) = c.model {
                e.car.switch_to(kind, CarSpec::default_for(kind), track);
            }
            if c.respawn {
                let (pos, heading) = e.respawn_pose(mark_lines(marks, track));
                e.car = Car::new(e.car.spec().clone(), e.car.kind, pos, heading);
            }
            let from = e.car.state.body.pos;
            e.car.step(&c, track, dt);
            e.last = c;
            e.finite &= e.car.state.body.is_finite();
            let before = (e.laps.lap, e.laps.checkpoint);
            let event = e.laps.update(track, from, e.car.state.body.pos);
            if (e.laps.lap, e.laps.checkpoint) != before {
                e.passing = e.car.state.body.pos - from;
            }
            e.event = event;
        }
        self.tick += 1;
        for j in 1..self.cars.len() {
            let (left, right) = self.cars.split_at_mut(j);
            for a in left.iter_mut() {
                a.car.collide(&mut right[0].car, track);
            }
        }
    }

    /// One step with the first car given `c` (a world of one seat: a
    /// test, a headless run); returns what its motion did.
    pub fn drive(&mut self, c: &Controls) -> Option<Event> {
        if let Some(Entrant {
            source: Source::Seat(held),
            ..
        }) = self.car_mut(FIRST)
        {
            *held = *c;
        }
        self.step();
        self.car(FIRST).and_then(|e| e.event)
    }

    /// Seconds simulated.
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.dt
    }

    /// Appends the current state of `e`, a car of this world, as one
    /// trace row (no newline).
    pub fn trace_row(&self, e: &Entrant, out: &mut String) {
        let (car, laps) = (&e.car, &e.laps);
        let s = &car.state;
        let (b, t) = (&s.body, car.telemetry());
        let surface = &self.track.surfaces[self.track.ground_index_at(b.pos)].name;
        let _ = write!(out, "{},", self.tick);
        for (v, decimals) in [
            (self.time(), 5),
            (b.pos.x, 4),
            (b.pos.y, 4),
            (b.heading, 5),
            (t.speed, 4),
            (b.vel.x, 4),
            (b.vel.y, 4),
            (b.yaw_rate, 4),
            (t.steer, 5),
            (t.rpm, 1),
        ] {
            fixed(out, v, decimals);
            out.push(',');
        }
        let _ = write!(out, "{},", t.gear);
        fixed(out, t.slip_front, 3);
        out.push(',');
        fixed(out, t.slip_rear, 3);
        let _ = write!(out, ",{},{},{}", surface, laps.lap, laps.checkpoint);
    }
}

/// Writes `v` with `decimals` places, never as "-0.00".
fn fixed(out: &mut String, v: f64, decimals: usize) {
    let start = out.len();
    let _ = write!(out, "{v:.decimals$}");
    if out[start..].starts_with('-') && out[start + 1..].bytes().all(|c| c == b'0' || c == b'.') {
        out.remove(start);
    }
}

/// `track`'s mark lines, found once into `marks` ([`World::mark_lines`];
/// a function of the two fields, for the step that borrows the cars).
fn mark_lines<'a>(
    marks: &'a std::sync::OnceLock<Vec<(DVec2, DVec2)>>,
    track: &Track,
) -> &'a [(DVec2, DVec2)] {
    marks.get_or_init(|| track.mark_lines())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    fn oval(kind: ModelKind) -> World {
        World::new(
            bundled::load("oval").unwrap(),
            CarSpec::default_for(kind),
            kind,
            120,
        )
    }

    fn throttle() -> Controls {
        Controls {
            throttle: 1.0,
            ..Controls::default()
        }
    }

    #[test]
    fn every_car_obeys_its_own_source() {
        let mut world = oval(ModelKind::Dynamic);
        let (pos, heading) = world.track.start_pose(1);
        let spec = world.cars[0].car.spec().clone();
        let parked = world.enter(
            Car::new(spec, ModelKind::Dynamic, pos, heading),
            Source::Seat(Controls::default()),
        );
        world.cars[0].source = Source::Seat(throttle());
        for _ in 0..240 {
            world.step();
        }
        assert!(
            world.cars[0]
                .car
                .state
                .body
                .pos
                .distance(world.track.start_pose(0).0)
                > 5.0
        );
        assert_eq!(world.cars[0].last, throttle());
        // A shift is one press, not held.
        world.cars[0].source = Source::Seat(Controls {
            shift: Some(crate::physics::Shift::Up),
            ..throttle()
        });
        world.step();
        assert!(world.cars[0].last.shift.is_some());
        world.step();
        assert_eq!(world.cars[0].last, throttle());
        let parked = &world.car(parked).unwrap().car;
        assert!(parked.state.body.pos.distance(pos) < 1e-9);
        assert_eq!(world.tick, 242);
    }

    #[test]
    fn a_seat_driving_alone_is_the_one_loop() {
        let (mut a, mut b) = (oval(ModelKind::Tire), oval(ModelKind::Tire));
        for i in 0..300 {
            let c = Controls {
                steer: (f64::from(i) / 40.0).sin(),
                ..throttle()
            };
            a.drive(&c);
            a.cars[0].source = Source::Seat(c);
            b.cars[0].source = Source::Seat(c);
            b.step();
        }
        assert_eq!(a.cars[0].car.state, b.cars[0].car.state);
    }

    #[test]
    fn a_script_gives_its_ticks_then_nothing() {
        let mut script = crate::race::script::Script::default();
        for _ in 0..10 {
            script.push(&throttle());
        }
        let mut world = oval(ModelKind::Arcade);
        world.cars[0].source = Source::script(&script);
        for _ in 0..10 {
            assert!(!world.cars[0].script_done());
            world.step();
            assert_eq!(world.cars[0].last, throttle());
        }
        assert!(world.cars[0].script_done());
        world.step();
        assert_eq!(world.cars[0].last, Controls::default());
    }

    #[test]
    fn fixed_never_prints_negative_zero() {
        let mut s = String::new();
        for v in [-0.00001, -0.0, 0.0, -1.5, 2.25] {
            fixed(&mut s, v, 2);
            s.push(' ');
        }
        assert_eq!(s, "0.00 0.00 0.00 -1.50 2.25 ");
    }
}
