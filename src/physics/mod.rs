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
pub mod car;
pub mod drivetrain;
pub mod dynamic;
pub mod kinematic;
mod model;
pub mod models;
pub mod strafe;
pub mod tire;
pub mod walls;

use glam::DVec2;

use crate::physics::car::CarSpec;
pub use crate::physics::models::ModelKind;
use crate::track::{Surface, Track};
pub use drivetrain::{Drivetrain, Shift};
pub use model::{
    Body, CarState, Contact, Controls, Footing, G, Model, SteerTrig, Telemetry, slip_angles,
    slip_degrees, wheel_offsets, wheel_positions,
};

/// The default physics rate (docs/DESIGN.md: dt = 1/120 s).
pub const DEFAULT_HZ: u32 = 120;

/// Below this speed (m/s) a slip angle says little of a car barely
/// moving ([`Car::rear_slide`]).
pub const SLIDE_SPEED: f64 = 3.0;

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
    /// step to step, each step's turn applied to it ([`crate::base::trig::turn`]),
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
            fwd: (heading, crate::base::trig::dir(heading)),
            ground: (pos, 0, crate::track::Around::default()),
            spec,
        }
    }

    /// The car's preset: fixed for the car's life (its model keeps
    /// quantities derived from it).
    pub fn spec(&self) -> &CarSpec {
        &self.spec
    }

    /// Switches to the physics model `kind` with `spec` (its own car),
    /// keeping position, heading, velocity and yaw rate: the game's `m`
    /// key. Where the new car would stand in a wall here, only the model
    /// changes (`switch_model`). Returns whether the car changed too.
    pub fn switch_to(
        &mut self,
        kind: ModelKind,
        spec: CarSpec,
        track: &crate::track::Track,
    ) -> bool {
        let body = self.state.body;
        let mut next = Car::new(spec, kind, body.pos, body.heading);
        next.state.body = body;
        if track.box_hits_wall(&next.footprint()) {
            self.switch_model(kind);
            return false;
        }
        *self = next;
        true
    }

    /// Switches the physics model alone, keeping the car, position,
    /// heading, velocity and gear.
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

    /// How far the rear slides: the angle (radians, positive to the
    /// right) from where the car points to where its rear axle is going,
    /// when it moves faster than [`SLIDE_SPEED`], else 0. Counter-steer,
    /// the computer's and the keyboard's, turns the wheels by it.
    pub fn rear_slide(&self) -> f64 {
        if self.state.body.vel.length() > SLIDE_SPEED {
            self.telemetry().slip_rear.to_radians()
        } else {
            0.0
        }
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
