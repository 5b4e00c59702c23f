//! Car physics on a fixed step: five models behind one [`Model`] trait.
//!
//! Every model reads the same [`Controls`] and the surfaces under its
//! wheels, and leaves the same [`Telemetry`]. A model only changes the
//! car's velocity and yaw rate (and its own state); moving the car and
//! colliding with walls is shared ([`walls::advance`]), as are the engine
//! and gearbox ([`drivetrain`]) and the slip angles ([`slip_angles`]).
//! Nothing here reads a clock or knows of a terminal: the same inputs give
//! the same states, bit for bit.

pub mod arcade;
pub mod drivetrain;
pub mod dynamic;
pub mod kinematic;
pub mod strafe;
pub mod tire;
pub mod walls;

use glam::DVec2;
use serde::{Deserialize, Serialize};

use crate::car::CarSpec;
pub use crate::models::ModelKind;
use crate::track::{Surface, Track};
pub use drivetrain::Drivetrain;

/// Standard gravity, m/s².
pub const G: f64 = 9.81;

/// The default physics rate (DESIGN.md: dt = 1/120 s).
pub const DEFAULT_HZ: u32 = 120;

/// A gear change asked for once (`"up"` or `"down"` in scripts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shift {
    Up,
    Down,
}

/// What the player (or a script, or a computer driver) asks of the car for
/// one step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
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
        crate::trig::dir(self.heading)
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

/// What the gauges read, the same for every model ([`Car::telemetry`]).
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
pub trait Model {
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

/// A car on a track: its preset, its model and its state.
pub struct Car {
    spec: CarSpec,
    pub kind: ModelKind,
    pub state: CarState,
    model: Box<dyn Model>,
    /// The wheels' farthest reach from the centre of mass (m): when every
    /// cell within it is one surface, all four wheels stand on it.
    wheel_reach: f64,
    /// Half the footprint's diagonal: how far a corner is from the centre.
    half_diagonal: f64,
    /// The body's forward vector and the heading it is for: carried from
    /// step to step, each step's turn applied to it ([`crate::trig::turn`]),
    /// instead of the heading's sine and cosine taken anew.
    fwd: (f64, DVec2),
    /// The last ground lookup: where, on which track (by content), and
    /// what it found.
    ground: (DVec2, u64, crate::track::Around),
}

fn new_model(kind: ModelKind, spec: &CarSpec) -> Box<dyn Model> {
    match kind {
        ModelKind::Arcade => Box::new(arcade::Arcade::new(spec)),
        ModelKind::Dynamic => Box::new(dynamic::Dynamic::new(spec)),
        ModelKind::Strafe => Box::new(strafe::Strafe::default()),
        ModelKind::Kinematic => Box::new(kinematic::Kinematic::default()),
        ModelKind::Tire => Box::new(tire::Tire::new(spec)),
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
            (self.sin, self.cos) = crate::trig::sin_cos(angle);
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
        crate::trig::atan2(v_lat + yaw * b, along) - dir * delta,
        crate::trig::atan2(v_lat - yaw * c, along),
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
    pub fn turn_wheels(&mut self, body: &crate::car::BodySpec, input: f64, dt: f64) {
        let target = input * body.max_steer_deg.to_radians();
        let max = body.steer_rate_deg.to_radians() * dt;
        self.steer += (target - self.steer).clamp(-max, max);
    }
}

impl Car {
    /// A car at rest at `pos`, facing `heading`.
    pub fn new(spec: CarSpec, kind: ModelKind, pos: DVec2, heading: f64) -> Car {
        let drive = Drivetrain::new(&spec.engine);
        Car {
            state: CarState {
                body: Body {
                    pos,
                    heading,
                    ..Body::default()
                },
                steer: 0.0,
                drive,
                contact: Contact::default(),
            },
            model: new_model(kind, &spec),
            kind,
            wheel_reach: wheel_offsets(&spec)
                .iter()
                .map(|o| o.length())
                .fold(0.0, f64::max),
            half_diagonal: 0.5 * spec.body.length.hypot(spec.body.width),
            fwd: (heading, crate::trig::dir(heading)),
            ground: (pos, 0, crate::track::Around::default()),
            spec,
        }
    }

    /// The car's preset: fixed for the car's life (its model keeps
    /// quantities derived from it).
    pub fn spec(&self) -> &CarSpec {
        &self.spec
    }

    /// Switches the physics model, keeping position, heading, velocity and
    /// gear: the game's `m` key.
    pub fn switch_model(&mut self, kind: ModelKind) {
        self.kind = kind;
        self.model = new_model(kind, &self.spec);
    }

    /// The body's forward unit vector: the one carried from step to step,
    /// unless the heading was set from outside since. It and the heading's
    /// own sine and cosine part by rounding (about 1e-14 rad after ten
    /// minutes), so everything that asks where the body is goes by this
    /// one, as the wall response does: a car resting against a wall touches
    /// it along this vector and may overlap it by 1e-13 m along the other.
    pub fn forward(&self) -> DVec2 {
        match self.fwd {
            (heading, f) if heading == self.state.body.heading => f,
            _ => self.state.body.forward(),
        }
    }

    /// The car's footprint as an oriented box, along [`Car::forward`]: the
    /// box the wall response keeps clear of walls.
    pub fn footprint(&self) -> crate::track::Obb {
        crate::track::Obb::along(
            self.state.body.pos,
            self.forward(),
            self.spec.body.length,
            self.spec.body.width,
        )
    }

    /// Two cars in contact pushed apart and given the impulse of their
    /// collision ([`walls::collide_cars`]); returns whether they touched.
    pub fn collide(&mut self, other: &mut Car, track: &Track) -> bool {
        let (box_a, box_b) = (self.footprint(), other.footprint());
        walls::collide_cars(
            (&mut self.state.body, box_a, self.spec.body.mass),
            (&mut other.state.body, box_b, other.spec.body.mass),
            track,
        )
    }

    /// Advances the car by one fixed step of `dt` seconds.
    pub fn step(&mut self, c: &Controls, track: &Track, dt: f64) {
        let (around, moved) = self.ground_around(track, dt);
        let mut f = self.forward();
        let s = &mut self.state;
        if let Some(manual) = c.manual {
            s.drive.manual = manual;
        }
        if let Some(shift) = c.shift {
            s.drive.shift(&self.spec.engine, shift);
        }
        let r = f.perp();
        let ts = &track.surfaces;
        let (mut surface, mut uniform) = ([around.surface; 4], true);
        if moved + self.wheel_reach >= around.same_within {
            surface =
                wheel_positions(s.body.pos, (f, r), &self.spec).map(|p| track.ground_index_at(p));
            uniform = surface.iter().all(|&i| i == surface[0]);
        }
        let wheels = surface.map(|i| &ts[i]);
        let mean = |f: fn(&Surface) -> f64| {
            if uniform {
                f(wheels[0])
            } else {
                wheels.iter().map(|&w| f(w)).sum::<f64>() * 0.25
            }
        };
        let footing = Footing {
            fwd: f,
            right: r,
            grip: mean(|w| w.grip),
            rolling: mean(|w| w.rolling),
            drag: mean(|w| w.drag),
            wheels,
        };
        s.contact.sliding = [false; 4];
        s.contact.surface = surface;
        self.model.step(s, &self.spec, c, &footing, dt);
        let size = DVec2::new(self.spec.body.length, self.spec.body.width);
        let room = around.clear - moved - self.half_diagonal;
        s.contact.hit_wall = walls::advance(&mut s.body, &mut f, size, room, track, dt);
        self.fwd = (s.body.heading, f);
    }

    /// The ground around the car and how far the car is from where it was
    /// looked up. The last lookup holds while the car is well inside it:
    /// while all four wheels surely stay on its surface and no wall can come
    /// within this step's reach (taken as twice what the car covers at its
    /// speed now, as the model may speed it up).
    fn ground_around(&mut self, track: &Track, dt: f64) -> (crate::track::Around, f64) {
        let body = &self.state.body;
        let (at, id, around) = self.ground;
        let moved = (body.pos - at).length();
        let reach = self.half_diagonal + 2.0 * body.vel.length() * dt;
        if id == track.id
            && moved + self.wheel_reach < around.same_within
            && moved + reach < around.clear
        {
            return (around, moved);
        }
        let around = track.around(body.pos);
        self.ground = (body.pos, track.id, around);
        (around, 0.0)
    }

    /// The gauges' readings now. Speed and slip angles are computed here,
    /// when something reads them, rather than every step.
    /// Whether the car is off the ground (only `strafe` leaves it).
    pub fn airborne(&self) -> bool {
        self.model.airborne()
    }

    pub fn telemetry(&self) -> Telemetry {
        let s = &self.state;
        let (slip_front, slip_rear) = self.model.slips(&s.body, &self.spec, s.steer);
        Telemetry {
            speed: s.body.vel.length(),
            rpm: s.drive.rpm,
            gear: s.drive.gear,
            steer: s.steer,
            slip_front,
            slip_rear,
            sliding: s.contact.sliding,
            wheel_surface: s.contact.surface,
            hit_wall: s.contact.hit_wall,
        }
    }
}
