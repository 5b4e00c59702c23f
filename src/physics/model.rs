//! What every model shares: the controls a step reads, the body it
//! moves, the ground under its wheels, the telemetry it leaves, the
//! [`Model`] trait itself, and the geometry of wheels and slip angles.
//! The models and the car ([`super::Car`]) build on this; it builds on
//! none of them.

use glam::DVec2;

use crate::physics::car::CarSpec;
use crate::physics::models::ModelKind;
use crate::track::Surface;

use super::drivetrain::{Drivetrain, Shift};

/// Standard gravity, m/s².
pub const G: f64 = 9.81;

/// What the player (or a script, or a computer driver) asks of the car for
/// one step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
// Each bool is a key: held (handbrake, hop, autostrafe) or pressed once
// (respawn); a state machine would only rename them.
#[allow(clippy::struct_excessive_bools)]
pub struct Controls {
    /// 0..1.
    pub throttle: f64,
    /// 0..1.
    pub brake: f64,
    /// -1 full left .. 1 full right.
    pub steer: f64,
    pub handbrake: bool,
    /// `strafe` only: -1 left .. 1 right.
    pub strafe: f64,
    /// `strafe` only: hop (again on every landing while held).
    pub jump: bool,
    /// `strafe` only: the controller picks the wish direction.
    pub autostrafe: bool,
    pub shift: Option<Shift>,
    /// Switch the gearbox to manual (`Some(true)`) or automatic.
    pub manual: Option<bool>,
    /// Back to the last mark passed, standing (`World::step`; one tick).
    pub respawn: bool,
    /// Switch to this physics model with its own car, or with this car
    /// where its own would stand in a wall (`World::step`; one tick).
    pub model: Option<ModelKind>,
}

/// The rigid body every model moves: world frame, metres, radians.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Body {
    pub pos: DVec2,
    pub vel: DVec2,
    /// Radians from +x towards +y: forward is (cos, sin).
    pub heading: f64,
    /// rad/s; positive turns from +x towards +y (right, on screen).
    pub yaw_rate: f64,
}

impl Body {
    /// Whether position, velocity and heading are all finite numbers.
    pub fn is_finite(&self) -> bool {
        self.pos.is_finite() && self.vel.is_finite() && self.heading.is_finite()
    }

    pub fn forward(&self) -> DVec2 {
        crate::base::trig::dir(self.heading)
    }

    /// The car's right: forward turned a quarter towards +y.
    pub fn right(&self) -> DVec2 {
        self.forward().perp()
    }

    /// Forward and right at once (one sine and cosine).
    pub fn axes(&self) -> (DVec2, DVec2) {
        let f = self.forward();
        (f, f.perp())
    }

    /// Velocity along the car (forward positive).
    pub fn v_long(&self) -> f64 {
        self.vel.dot(self.forward())
    }

    /// Velocity across the car (right positive).
    pub fn v_lat(&self) -> f64 {
        self.vel.dot(self.right())
    }
}

/// What a step leaves behind besides the body: which tires slid, what
/// they stood on, whether a wall was touched.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Contact {
    /// Front left, front right, rear left, rear right.
    pub sliding: [bool; 4],
    /// Surface index (into the track's table) under each wheel, same order.
    pub surface: [usize; 4],
    pub hit_wall: bool,
}

/// What the gauges read, the same for every model ([`crate::physics::Car::telemetry`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Telemetry {
    /// m/s.
    pub speed: f64,
    pub rpm: f64,
    /// -1 reverse, 0 neutral, 1.. forward.
    pub gear: i32,
    /// Front wheels' angle, radians (positive right).
    pub steer: f64,
    /// Slip angles, degrees (seed 001, formulas 8 and 9).
    pub slip_front: f64,
    pub slip_rear: f64,
    /// Which tires slide: front left, front right, rear left, rear right.
    pub sliding: [bool; 4],
    /// Surface index (into the track's table) under each wheel, same order.
    pub wheel_surface: [usize; 4],
    /// Whether the car touched a wall this step.
    pub hit_wall: bool,
}

/// Everything about a car but its model's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct CarState {
    pub body: Body,
    /// Front wheels' angle, radians.
    pub steer: f64,
    pub drive: Drivetrain,
    pub contact: Contact,
}

/// Where the car stands as a step begins, all a model sees of the world:
/// its axes and the ground under each wheel.
pub struct Footing<'a> {
    pub fwd: DVec2,
    pub right: DVec2,
    pub wheels: [&'a Surface; 4],
    /// The wheels' surfaces averaged (exactly the one surface when all four
    /// stand on it), for the models that treat the car as one point.
    pub grip: f64,
    pub rolling: f64,
    pub drag: f64,
}

/// One physics model: advances a car's velocity and yaw rate by one step.
/// Moving the car and its walls are done after, by the caller.
pub trait Model: Send + Sync {
    fn step(
        &mut self,
        car: &mut CarState,
        spec: &CarSpec,
        c: &Controls,
        footing: &Footing,
        dt: f64,
    );

    /// Front and rear slip angles in degrees after a step.
    fn slips(&self, body: &Body, spec: &CarSpec, steer: f64) -> (f64, f64) {
        slip_degrees(body, spec.body.cg_to_front, spec.cg_to_rear(), steer)
    }

    /// Whether the car is off the ground (`strafe`'s hops).
    fn airborne(&self) -> bool {
        false
    }
}

/// Wheel positions in the car's frame (forward, right): front left, front
/// right, rear left, rear right.
pub fn wheel_offsets(spec: &CarSpec) -> [DVec2; 4] {
    let (b, c, w) = (
        spec.body.cg_to_front,
        spec.cg_to_rear(),
        spec.body.width * 0.5,
    );
    [
        DVec2::new(b, -w),
        DVec2::new(b, w),
        DVec2::new(-c, -w),
        DVec2::new(-c, w),
    ]
}

/// The sine and cosine of the front wheels' angle, recomputed only when it
/// changes (it mostly rests at the centre or at full lock).
#[derive(Debug, Clone, Copy)]
pub struct SteerTrig {
    angle: f64,
    sin: f64,
    cos: f64,
}

impl Default for SteerTrig {
    fn default() -> Self {
        SteerTrig {
            angle: 0.0,
            sin: 0.0,
            cos: 1.0,
        }
    }
}

impl SteerTrig {
    pub fn of(&mut self, angle: f64) -> (f64, f64) {
        if angle != self.angle {
            (self.sin, self.cos) = crate::base::trig::sin_cos(angle);
            self.angle = angle;
        }
        (self.sin, self.cos)
    }
}

/// Slip angles in radians (seed 001, formulas 8 and 9): the angle between
/// where an axle's wheels point and where the axle moves,
/// `alpha_front = atan((v_lat + w b) / |v_long|) - sgn(v_long) delta` and
/// `alpha_rear = atan((v_lat - w c) / |v_long|)`, with `|v_long|` floored
/// at `floor` against the standstill singularity.
pub fn slip_angles(
    v_long: f64,
    v_lat: f64,
    yaw: f64,
    b: f64,
    c: f64,
    delta: f64,
    floor: f64,
) -> (f64, f64) {
    let along = v_long.abs().max(floor);
    let dir = if v_long < 0.0 { -1.0 } else { 1.0 };
    (
        crate::base::trig::atan2(v_lat + yaw * b, along) - dir * delta,
        crate::base::trig::atan2(v_lat - yaw * c, along),
    )
}

/// The gauges' slip angles in degrees: [`slip_angles`] of the car's
/// motion, and zero below 0.5 m/s, where slip means nothing.
pub fn slip_degrees(body: &Body, b: f64, c: f64, delta: f64) -> (f64, f64) {
    if body.vel.length_squared() < 0.25 {
        return (0.0, 0.0);
    }
    let (f, r) = body.axes();
    let (front, rear) = slip_angles(
        body.vel.dot(f),
        body.vel.dot(r),
        body.yaw_rate,
        b,
        c,
        delta,
        0.5,
    );
    (front.to_degrees(), rear.to_degrees())
}

/// Where each wheel is in the world (same order as [`wheel_offsets`]), for
/// a car at `pos` with axes `(forward, right)`.
pub fn wheel_positions(pos: DVec2, (f, r): (DVec2, DVec2), spec: &CarSpec) -> [DVec2; 4] {
    wheel_offsets(spec).map(|o| pos + f * o.x + r * o.y)
}

impl CarState {
    /// Turns the front wheels towards the steer input's share of the lock,
    /// at no more than the car's steering rate.
    pub fn turn_wheels(&mut self, body: &crate::physics::car::BodySpec, input: f64, dt: f64) {
        let target = input * body.max_steer_deg.to_radians();
        let max = body.steer_rate_deg.to_radians() * dt;
        self.steer += (target - self.steer).clamp(-max, max);
    }
}
