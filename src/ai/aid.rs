//! The steering aid's driving (the race's `race::aid` says when it
//! drives and what a lap driven with it counts for): pure pursuit along
//! the racing line, as the computer drivers steer, for a point beside the
//! line where the player's keys steer, within the road; and the throttle
//! and brake that hold the car to a pace, by the computer's rule
//! ([`super::pedals`]). It lives here, beside the computer drivers, so
//! that the medal book can drive it too (`medals::aided_lap`): the pace it
//! holds is found by driving it, as the rivals' paces are.
//!
//! It lets go where the line's way is no use: reversing or at a crawl
//! (backing out of a wall is the player's); where the line's point ahead
//! lies behind the car (spun round, or far off the road) it steers no
//! more but still holds the pace. `strafe`'s keys steer the view, not the
//! car, and it has none.

use super::line::{LEAD, SPACING};
use super::{Line, look_ahead, pedals, steer_towards};
use crate::physics::{Car, Controls, ModelKind};
use crate::track::Track;

/// How far beside the racing line a steering key held fully moves the
/// point the aid steers for, metres.
pub const SIDE: f64 = 2.0;

/// Below this speed forwards (m/s) the aid lets go.
const CRAWL: f64 = 2.0;

/// What the aid follows for one car along a race's racing line: the
/// speeds it holds the car to, those a computer driver of the car plans
/// ([`super::for_car`]) times `pace` (the aid's own, worked out with the
/// medals so that W held alone laps a little over the Medium rival's
/// time: `medals::Medals::aid`); and at each point, the room beside the
/// line on ground as good as the line's, to the left and right (up to
/// [`SIDE`]), that the keys may move the car across. Worked out once for
/// a car (and again if its pace changes), not every tick.
#[derive(Debug, Clone, PartialEq)]
pub struct Pace {
    kind: ModelKind,
    /// The car's preset's name (a race's cars differ by model and preset
    /// only: `m` switches both).
    car: String,
    /// The computer's speeds times the pace.
    speeds: Vec<f64>,
    /// Metres of room left and right of each point, for the car's centre.
    room: Vec<[f64; 2]>,
}

/// The step in which [`Pace`]'s room beside the line is measured, m.
const ROOM_STEP: f64 = 0.5;

impl Pace {
    /// What the aid follows for `car` on `track`, whose racing line is
    /// `line`, at `pace` of the speeds the computer plans.
    pub fn new(line: &Line, track: &Track, car: &Car, pace: f64) -> Pace {
        let planned = super::for_car(line, track, car.spec(), car.kind, 1.0);
        let half = car.spec().body.width / 2.0;
        Pace {
            kind: car.kind,
            car: car.spec().name.clone(),
            speeds: planned.speeds.iter().map(|v| v * pace).collect(),
            room: (0..line.points.len())
                .map(|i| room(line, track, i, half))
                .collect(),
        }
    }

    /// Whether these are the speeds for `car`.
    pub fn is_for(&self, car: &Car) -> bool {
        self.kind == car.kind && self.car == car.spec().name
    }

    /// The speed to hold at point `at` of the line, m/s: as
    /// [`Line::target`] is for the computer.
    fn target(&self, at: usize) -> f64 {
        let n = self.speeds.len();
        if n > 0 {
            self.speeds[(at + LEAD) % n]
        } else {
            f64::INFINITY
        }
    }

    /// `offset` metres right of point `at` (left if negative), kept within
    /// the room there.
    fn within_room(&self, at: usize, offset: f64) -> f64 {
        let [left, right] = self.room.get(at).copied().unwrap_or_default();
        offset.clamp(-left, right)
    }
}

/// The room left and right of point `i` of `line` on `track` for the
/// centre of a car `half` metres half as wide: how far, up to [`SIDE`],
/// the ground stays as grippy as at the point (no wall, no grass beside
/// asphalt), less `half`.
fn room(line: &Line, track: &Track, i: usize, half: f64) -> [f64; 2] {
    let n = line.points.len();
    let p = line.points[i];
    let side = (line.points[(i + 1) % n] - p).normalize_or_zero().perp();
    let grip = |q| track.surface_at(q).map_or(0.0, |s| s.grip);
    let here = grip(p);
    let steps = ((SIDE + half) / ROOM_STEP).ceil() as usize;
    [-1.0, 1.0].map(|sign| {
        let clear = (1..=steps)
            .take_while(|&k| grip(p + side * (sign * k as f64 * ROOM_STEP)) >= here)
            .count();
        (clear as f64 * ROOM_STEP - half).clamp(0.0, SIDE)
    })
}

/// What the aid does in one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aiding {
    /// Its steer, -1 to 1; none where the line's point ahead lies behind
    /// the car (the keys steer alone; the pace still holds).
    pub steer: Option<f64>,
    /// The most throttle it lets the keys give, 0 to 1.
    pub throttle: f64,
    /// The least brake it gives, 0 to 1: past its [`Pace`], it slows the
    /// car (the keys may brake harder).
    pub brake: f64,
}

impl Aiding {
    /// The keys' controls `keys` as the aid changes them: its steer
    /// where it steers, the throttle no more than it lets, the brake at
    /// least its own.
    pub fn with(self, keys: Controls) -> Controls {
        Controls {
            steer: self.steer.unwrap_or(keys.steer),
            throttle: keys.throttle.min(self.throttle),
            brake: keys.brake.max(self.brake),
            ..keys
        }
    }
}

/// What the aid does for `car`, nearest point `at` of the race's racing
/// line `line`, held to `pace`, with the steering keys at `keys` (-1 full
/// left to 1 full right); none where it lets go (the module's doc).
pub fn of(line: &Line, at: usize, car: &Car, pace: &Pace, keys: f64) -> Option<Aiding> {
    let body = &car.state.body;
    let (fwd, _) = body.axes();
    let forwards = body.vel.dot(fwd);
    if car.kind == ModelKind::Strafe || car.state.drive.gear < 0 || forwards < CRAWL {
        return None;
    }
    let look = look_ahead(car);
    let n = line.points.len().max(1);
    let aim = (at + (look / SPACING).round() as usize) % n;
    let ahead = line.ahead(at, look);
    let along = (line.ahead(at, look + SPACING) - ahead).normalize_or_zero();
    let offset = pace.within_room(aim, keys.clamp(-1.0, 1.0) * SIDE);
    let to = ahead + along.perp() * offset - body.pos;
    let (mut throttle, brake) = pedals(car, pace.target(at));
    if crate::base::trig::atan2(fwd.perp_dot(to), fwd.dot(to)).abs() > 1.0 {
        throttle *= 0.5;
    }
    Some(Aiding {
        steer: (fwd.dot(to) > 0.0).then(|| steer_towards(car, to)),
        throttle,
        brake,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::car::CarSpec;
    use glam::DVec2;

    /// A straight line along y = 0, eastwards, a point a metre.
    fn straight() -> Line {
        let points: Vec<DVec2> = (0..400).map(|i| DVec2::new(f64::from(i), 0.0)).collect();
        let speeds = vec![20.0; points.len()];
        Line::of(points, speeds, Vec::new())
    }

    /// The aid's speeds along [`straight`]: `speed` m/s everywhere.
    fn flat(speed: f64) -> Pace {
        Pace {
            kind: ModelKind::Kinematic,
            car: String::new(),
            speeds: vec![speed; 400],
            room: vec![[SIDE; 2]; 400],
        }
    }

    /// A car of `kind` at `pos` heading `heading`, moving forwards at
    /// `speed` m/s.
    fn car(kind: ModelKind, pos: DVec2, heading: f64, speed: f64) -> Car {
        let mut car = Car::new(CarSpec::default_for(kind), kind, pos, heading);
        car.state.body.vel = crate::base::trig::dir(heading) * speed;
        car
    }

    #[test]
    fn steers_back_to_the_line_from_either_side() {
        let line = straight();
        for kind in [ModelKind::Arcade, ModelKind::Kinematic, ModelKind::Tire] {
            // Screen coordinates: y grows downwards, and steering right
            // (positive) turns a car heading east towards +y.
            let above = car(kind, DVec2::new(50.0, -4.0), 0.0, 12.0);
            let below = car(kind, DVec2::new(50.0, 4.0), 0.0, 12.0);
            let on = car(kind, DVec2::new(50.0, 0.0), 0.0, 12.0);
            let at = line.nearest(above.state.body.pos, 0);
            let steer = |car: &Car| of(&line, at, car, &flat(20.0), 0.0).unwrap().steer.unwrap();
            assert!(steer(&above) > 0.0, "{kind}");
            assert!(steer(&below) < 0.0, "{kind}");
            assert!(steer(&on).abs() < 1e-9, "{kind}");
        }
    }

    #[test]
    fn lets_go_at_a_crawl_and_in_reverse_and_steers_not_facing_away() {
        let line = straight();
        let pos = DVec2::new(50.0, 2.0);
        let at = line.nearest(pos, 0);
        let slow = car(ModelKind::Tire, pos, 0.0, 1.0);
        assert_eq!(of(&line, at, &slow, &flat(20.0), 0.0), None);
        let backwards = car(ModelKind::Tire, pos, 0.0, -5.0);
        assert_eq!(of(&line, at, &backwards, &flat(20.0), 0.0), None);
        let mut reverse = car(ModelKind::Tire, pos, 0.0, 5.0);
        reverse.state.drive.gear = -1;
        assert_eq!(of(&line, at, &reverse, &flat(20.0), 0.0), None);
        // Facing away it steers no more, and still holds the pace.
        let away = car(ModelKind::Tire, pos, std::f64::consts::PI, 30.0);
        let aiding = of(&line, at, &away, &flat(20.0), 0.0).unwrap();
        assert_eq!(aiding.steer, None);
        assert!(aiding.throttle == 0.0 && aiding.brake > 0.0);
        let hover = car(ModelKind::Strafe, pos, 0.0, 8.0);
        assert_eq!(of(&line, at, &hover, &flat(20.0), 0.0), None);
    }

    #[test]
    fn past_the_pace_it_cuts_the_throttle_and_brakes() {
        // The aid's speed is 20 m/s everywhere.
        let line = straight();
        let pos = DVec2::new(50.0, 0.0);
        let at = line.nearest(pos, 0);
        let pedals = |speed| {
            let a = of(
                &line,
                at,
                &car(ModelKind::Kinematic, pos, 0.0, speed),
                &flat(20.0),
                0.0,
            )
            .unwrap();
            (a.throttle, a.brake)
        };
        assert_eq!(pedals(15.0), (1.0, 0.0), "well under: the keys' throttle");
        let (throttle, brake) = pedals(20.0);
        assert!(throttle < 1.0 && brake == 0.0, "about the pace: held");
        let (throttle, brake) = pedals(22.0);
        assert!(throttle == 0.0 && brake > 0.0, "past it: slowed");
        let (_, harder) = pedals(26.0);
        assert!(harder > brake, "the further past, the harder");
    }

    #[test]
    fn a_key_moves_the_car_beside_the_line_and_no_further() {
        let line = straight();
        let pos = DVec2::new(50.0, 0.0);
        let at = line.nearest(pos, 0);
        let kind = ModelKind::Kinematic;
        let steer = |pos: DVec2, keys| {
            let car = car(kind, pos, 0.0, 12.0);
            of(&line, at, &car, &flat(20.0), keys)
                .unwrap()
                .steer
                .unwrap()
        };
        // On the line, a key held right steers right, left left.
        assert!(steer(pos, 1.0) > 0.0 && steer(pos, -1.0) < 0.0);
        // Held right with the car already SIDE metres right of the line,
        // it steers straight on; further off, back towards it.
        let beside = DVec2::new(50.0, SIDE);
        assert!(steer(beside, 1.0).abs() < 1e-9);
        assert!(steer(beside + DVec2::new(0.0, 2.0), 1.0) < 0.0);
    }
}
