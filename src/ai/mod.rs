//! Computer drivers: a racing line computed from the track ([`line`]),
//! followed through the same [`Controls`] a player gives, so they drive
//! every model by the same physics.
//!
//! Steering is pure pursuit: aim at the point of the line `L` metres ahead
//! (`L` grows with speed), `alpha` the angle from the car's heading to it.
//! A wheeled car turns its wheels to `atan(2 wheelbase sin(alpha) / L)`
//! (the arc through that point), both angles taken from the way its rear
//! axle is going rather than the way it points: a car whose rear slides
//! turns its wheels that much further towards the slide, as a driver
//! counter-steers (without it `dynamic` spun about twenty times a lap of
//! `grandprix`, docs/BENCHMARKS.md); `arcade` and `strafe`, which turn their
//! heading directly, steer in proportion to `alpha`. A gate within twice
//! `L` (a mark drawn across part of the road, [`line::Gate`]) is aimed at
//! instead until the car is past it, so the car crosses the mark rather
//! than cutting past its end. Throttle and brake
//! hold the line's speed for the point just ahead. A car that has not moved
//! for 1.5 s with the throttle down backs off for 1.2 s on full lock away
//! from its aim (swinging its nose towards it), then for 2 s aims at the
//! line just ahead of it (the far point may lie past the corner it hit). When the rear slides more than 5
//! degrees the driver lifts, so power does not spin a rear-driven car.
//!
//! A mark the car drove round without crossing it (through the grass
//! beside a line drawn across the road only) is gone back for
//! ([`marks`]): the race tells the driver which mark it counts next.
//!
//! `skill` (0.5 to 1) scales the cornering and braking the line assumes.

pub mod aid;
mod aim;
mod cost;
mod gates;
mod legs;
pub mod line;
mod marks;
mod meet;
mod nearest;
mod parts;
mod paths;
#[cfg(test)]
mod random_maps;
mod regions;
mod search;
mod smooth;
mod speeds;

use glam::DVec2;

use crate::physics::car::CarSpec;
use crate::physics::{Car, Controls, ModelKind};
use crate::track::Track;
pub use line::{Line, race_line};
use marks::Marks;
pub use marks::Wanted;

/// Metres right of the racing line that a car whose race is run pulls
/// over to, out of the way of those still racing.
pub const PARK_SIDE: f64 = 4.0;

/// Below this speed along the car (m/s), a car whose race is run stops
/// braking and coasts to a stop on the handbrake.
const PARK_COAST: f64 = 2.0;

/// How a model corners and brakes, for planning its line: (lateral and
/// braking acceleration on grip 1, m/s², scaled by skill; top speed, m/s).
fn limits(spec: &CarSpec, kind: ModelKind, skill: f64) -> (f64, f64, f64) {
    let skill = skill.clamp(0.5, 1.0);
    let (a_lat, a_brake, top) = match kind {
        // `arcade` turns on one radius at any speed (`arcade_radius`), so
        // cornering grip hardly limits it: skill holds its speed back too.
        ModelKind::Arcade => (9.0, 8.0, spec.arcade.max_speed * 0.95 * skill),
        ModelKind::Dynamic => (6.0 * spec.dynamic.mu, 6.0 * spec.dynamic.mu, 75.0),
        ModelKind::Strafe => (
            12.0,
            10.0,
            spec.strafe.maxspeed / crate::physics::strafe::UNITS,
        ),
        ModelKind::Kinematic => (7.0, 6.0, 30.0),
        ModelKind::Tire => (6.0, 5.0, spec.tire.max_forward_speed * 0.95),
    };
    (a_lat * skill, a_brake * skill, top)
}

/// The throttle and brake that hold `car` to `target` m/s, as the
/// computer drives: full throttle below it, braking harder the further
/// past it, a little throttle about it; and lifting when the rear steps
/// out, as a driver would (where grip is tires': `arcade` slides the same
/// at any throttle). The steering aid holds a car to its pace by the same
/// rule (`race::aid`).
pub fn pedals(car: &Car, target: f64) -> (f64, f64) {
    let speed = car.state.body.vel.length();
    let (mut throttle, brake) = if speed < target - 0.5 {
        (1.0, 0.0)
    } else if speed > target + 0.5 {
        (0.0, ((speed - target) / 5.0).clamp(0.2, 1.0))
    } else {
        (0.4, 0.0)
    };
    if matches!(car.kind, ModelKind::Dynamic | ModelKind::Tire)
        && car.telemetry().slip_rear.abs() > 5.0
        && speed > 3.0
    {
        throttle = 0.0;
    }
    (throttle, brake)
}

/// `line` (the track's racing line) with the speeds `spec` driven as
/// `kind` at `skill` can hold along it: the line a computer driver of that
/// car follows.
pub fn for_car(line: &Line, track: &Track, spec: &CarSpec, kind: ModelKind, skill: f64) -> Line {
    let (a_lat, a_brake, top) = limits(spec, kind, skill);
    line.respeed(track, a_lat, a_brake, top)
}

/// Whether `aim` lies inside the circle `car` turns on at full lock
/// towards it (`alpha`: the angle to it, positive to the right).
fn inside_turn(car: &Car, aim: DVec2, alpha: f64) -> bool {
    let body = &car.state.body;
    let (_, right) = body.axes();
    let spec = car.spec();
    let radius = match car.kind {
        ModelKind::Arcade => arcade_radius(spec),
        ModelKind::Strafe => return false,
        _ => {
            let b = &spec.body;
            b.wheelbase
                / crate::base::trig::sin_cos(b.max_steer_deg.to_radians())
                    .0
                    .max(1e-3)
        }
    };
    let centre = body.pos + right * alpha.signum() * radius;
    centre.distance(aim) < radius * 0.9
}

/// The radius `arcade` turns at full steer, at any speed below its top
/// speed (its turn rate grows with speed).
fn arcade_radius(spec: &CarSpec) -> f64 {
    let a = &spec.arcade;
    a.max_speed / (a.steer_factor * a.steer_lerp).max(1e-3)
}

/// How far ahead of `car` pure pursuit aims on a line, metres: further
/// the faster it goes, and for `arcade` never nearer than the tightest
/// circle it can turn, so that a turn starts where its arc meets the
/// line.
pub fn look_ahead(car: &Car) -> f64 {
    let speed = car.state.body.vel.length();
    let look = (0.35 * speed + 2.0 + car.spec().body.length).clamp(5.0, 18.0);
    if car.kind == ModelKind::Arcade {
        look.max(arcade_radius(car.spec()))
    } else {
        look
    }
}

/// The steer (-1 to 1) that turns `car` towards the point `to` metres
/// from it, by pure pursuit (the module's doc): for a wheeled car the
/// arc through that point drawn from where its rear axle is going, so
/// that with the rear sliding the wheels turn that much further towards
/// the slide (counter-steer).
pub fn steer_towards(car: &Car, to: DVec2) -> f64 {
    let (fwd, _) = car.state.body.axes();
    let alpha = crate::base::trig::atan2(fwd.perp_dot(to), fwd.dot(to));
    match car.kind {
        ModelKind::Arcade => alpha * 2.5,
        ModelKind::Strafe => alpha * 3.0,
        _ => {
            let slide = car.rear_slide();
            let b = &car.spec().body;
            let sin_alpha = crate::base::trig::sin_cos(alpha - slide).0;
            let delta =
                crate::base::trig::atan2(2.0 * b.wheelbase * sin_alpha, to.length().max(1.0));
            (delta + slide) / b.max_steer_deg.to_radians().max(1e-3)
        }
    }
    .clamp(-1.0, 1.0)
}

#[derive(Debug, Clone)]
pub struct Driver {
    pub line: Line,
    at: usize,
    stuck: f64,
    backing: f64,
    /// Where on its line it last backed off something, and how many
    /// times in a row it has had to there (see `controls`).
    backed_at: Option<(usize, u32)>,
    /// Seconds left of aiming close after backing off (see `controls`).
    careful: f64,
    /// The marks to cross, and going back for one missed.
    marks: Marks,
    /// The share of its line's speeds it drives at.
    pace: f64,
}

impl Driver {
    pub fn new(track: &Track, spec: &CarSpec, kind: ModelKind, skill: f64) -> Driver {
        let (a_lat, a_brake, top) = limits(spec, kind, skill);
        Driver::on(Line::new(track, a_lat, a_brake, top), track)
    }

    /// A driver on a line already computed for the track, with the speeds
    /// its car and skill allow.
    pub fn along(
        line: &Line,
        track: &Track,
        spec: &CarSpec,
        kind: ModelKind,
        skill: f64,
    ) -> Driver {
        Driver::on(for_car(line, track, spec, kind, skill), track)
    }

    fn on(line: Line, track: &Track) -> Driver {
        Driver {
            marks: Marks::new(&line, track),
            pace: 1.0,
            line,
            at: 0,
            stuck: 0.0,
            backing: 0.0,
            backed_at: None,
            careful: 0.0,
        }
    }

    /// The same driver at `pace` (0 to 1) of the speeds its line allows
    /// everywhere: a rival that laps in about `1 / pace` times the time.
    pub fn paced(mut self, pace: f64) -> Driver {
        self.set_pace(pace);
        self
    }

    /// Drives at `pace` of its line's speeds from now on ([`Driver::paced`]).
    pub fn set_pace(&mut self, pace: f64) {
        self.pace = pace.clamp(0.05, 1.0);
    }

    /// The gate of a mark drawn across part of the road within `look`
    /// metres ahead (or just behind) that the car at `pos` has not passed:
    /// aimed at instead of the line's point, so the car crosses the mark
    /// rather than cutting past its end.
    fn gate_ahead(&self, pos: DVec2, look: f64) -> Option<DVec2> {
        let n = self.line.points.len();
        let ahead = (2.0 * look / line::SPACING).ceil() as usize + 1;
        self.line.gates.iter().find_map(|g| {
            let d = (g.index + n - self.at) % n;
            let near = d <= ahead || d + 3 >= n;
            (near && (g.at - pos).dot(g.dir) > 0.0).then_some(g.at)
        })
    }

    /// The controls of `car` once its race is run: it pulls over towards
    /// [`PARK_SIDE`] metres right of the racing line (rolling on gently
    /// until it is most of the way there) and slows to a stop without
    /// ever reversing (a brake held at a standstill would be reverse): it
    /// brakes only while rolling on, then coasts on the handbrake.
    pub fn park(&mut self, car: &Car) -> Controls {
        let body = &car.state.body;
        let (fwd, right) = body.axes();
        let rolling = body.vel.dot(fwd);
        self.at = self.line.nearest(body.pos, self.at);
        let look = (0.35 * rolling.max(0.0) + 2.0 + car.spec().body.length).clamp(5.0, 18.0);
        let ahead = self.line.ahead(self.at, look);
        let along = (self.line.ahead(self.at, look + line::SPACING) - ahead).normalize_or_zero();
        let to = ahead + along.perp() * PARK_SIDE - body.pos;
        if car.kind == ModelKind::Strafe {
            // A hover car's brake is a wish to go backwards: it strafes
            // aside instead, and ground friction stops it.
            let aside = to.dot(right);
            let strafe = if aside.abs() > 0.5 {
                (aside / 2.0).clamp(-1.0, 1.0)
            } else {
                0.0
            };
            return Controls {
                strafe,
                ..Controls::default()
            };
        }
        let alpha = crate::base::trig::atan2(fwd.perp_dot(to), fwd.dot(to));
        // Off the line first: a car that finished slowly (a rival at a
        // bronze pace) would stop on it, braking as it turns aside.
        let aside = self.line.points[self.at].distance(body.pos) >= PARK_SIDE * 0.6;
        let slow_to = if aside { PARK_COAST } else { 2.0 * PARK_COAST };
        Controls {
            throttle: if aside || rolling > 0.75 * PARK_COAST {
                0.0
            } else {
                0.2
            },
            brake: ((rolling - slow_to) / 4.0).clamp(0.0, 1.0),
            steer: (alpha * 2.0).clamp(-1.0, 1.0),
            handbrake: aside && rolling < PARK_COAST,
            ..Controls::default()
        }
    }

    /// How long to back off what the car is stuck against: 1.2 s, and
    /// longer each time it is stuck again at the same place on its line
    /// (within 10 m), up to 4.8 s: a car that drove back into the same
    /// tooth of wall turns further round before it tries again.
    fn back_off(&mut self) -> f64 {
        let n = self.line.points.len();
        let again = self.backed_at.and_then(|(at, times)| {
            let gap = (self.at + n - at) % n;
            (gap.min(n - gap) as f64 * line::SPACING < 10.0).then_some(times)
        });
        let times = again.map_or(0, |t| (t + 1).min(3));
        self.backed_at = Some((self.at, times));
        1.2 * f64::from(times + 1)
    }

    /// The controls for the next step of `car`, whose race counts the
    /// mark `wanted` next (none: none can be missed yet).
    pub fn controls(&mut self, car: &Car, dt: f64, wanted: Option<Wanted>) -> Controls {
        let body = &car.state.body;
        let (fwd, _) = body.axes();
        let speed = body.vel.length();
        self.at = self.line.nearest(body.pos, self.at);
        let back = self.marks.aim(&self.line, self.at, body.pos, wanted);
        let mut look = look_ahead(car);
        if self.careful > 0.0 {
            // Just backed off a wall: the far point may lie past the
            // corner the car hit, so aim at the line close ahead.
            self.careful -= dt;
            look = car.spec().body.length;
        }
        let to = match back {
            Some((aim, _)) => aim,
            None => {
                (self.gate_ahead(body.pos, look)).unwrap_or_else(|| self.line.ahead(self.at, look))
            }
        } - body.pos;
        let alpha = crate::base::trig::atan2(fwd.perp_dot(to), fwd.dot(to));
        let mut steer = steer_towards(car, to);

        let target = back
            .map_or(f64::INFINITY, |(_, v)| v)
            .min(self.line.target(self.at) * self.pace);
        let (mut throttle, mut brake) = pedals(car, target);
        if alpha.abs() > 1.0 {
            throttle *= 0.5;
        }

        if let Some((aim, _)) = back
            && self.backing <= 0.0
            && inside_turn(car, aim, alpha)
        {
            // Going back for a mark whose point lies inside the circle
            // the car turns on towards it: it cannot get there forwards.
            // Backing up with the wheels turned away swings the nose
            // round, as in a three-point turn.
            (throttle, brake, steer) = (0.0, 1.0, -alpha.signum());
        } else if self.backing > 0.0 {
            // Reversing with the wheels on full lock away from the aim
            // swings the nose towards it.
            self.backing -= dt;
            if self.backing <= 0.0 {
                self.careful = 2.0;
            }
            (throttle, brake, steer) = (0.0, 1.0, -alpha.signum());
        } else if throttle > 0.0 && speed < 0.8 {
            self.stuck += dt;
            if self.stuck > 1.5 {
                self.stuck = 0.0;
                self.backing = self.back_off();
            }
        } else {
            self.stuck = 0.0;
        }
        Controls {
            throttle,
            brake,
            steer,
            ..Controls::default()
        }
    }
}
