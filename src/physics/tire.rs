//! `tire`: seed 004 (a Chinese translation of iforce2d's `Box2D` "top-down
//! car"). One rigid chassis with four tire contact points; forces and
//! impulses applied at points, in the style of `Box2D`. Front tires turn up to
//! the lock angle at a limited rate; rear tires are fixed.
//!
//! Per tire, in the tutorial's order (`updateFriction`, then `updateDrive`):
//! * Lateral velocity at the tire, `right * dot(right, v_point)`, is
//!   cancelled by an impulse at the tire's point, `J = -lat / k` with
//!   `k = 1/m + (r × right)^2 / I` (the impulse that stops it exactly), its
//!   length capped at `max_lateral_impulse * traction`: above the cap the
//!   tire skids. The tutorial's tires are bodies of their own; here they
//!   share one chassis, so their impulses are solved together as `Box2D`
//!   solves contacts: a few passes of sequential impulses, each tire's
//!   accumulated impulse clamped to its cap. The two rear tires share one
//!   axis and one lever arm, so as constraints they are one, the rear
//!   axle, capped at the sum of their caps (sequential impulses over the
//!   two give the same total); the axle grips or slides as one. The passes
//!   run in the car's frame on the impulse each constraint wants: an
//!   impulse `j` at `i` changes `k`'s lateral speed, and so its want, in
//!   proportion (`coupling[i][k] j`, a table fixed until the wheels turn),
//!   and the body takes the summed impulses once at the end (the same sums
//!   as applying each to the body, with a shorter chain of dependent
//!   arithmetic). The tutorial's caps are impulses per 1/60 s step; here
//!   they are forces (`lateral_front`, `lateral_rear`) times `dt`, so the
//!   car drives the same at any step rate.
//! * The tire's spin is damped a little: an angular impulse of
//!   `-angular_damping * tire_inertia * w` per 1/60 s.
//! * Rolling drag: `-drag * forward_speed` along the tire's forward normal.
//! * Drive: towards `max_forward_speed` with the throttle, towards
//!   `-max_backward_speed` with the brake (so the brake slows, then
//!   reverses), a push of `drive_* * pedal` along the forward normal.
//! * Each push is applied explicitly, so on a car light for its forces
//!   (drag able to take half a tire's speed in one step, or the drive able
//!   to swing it by over 0.5 m/s; the tire inertia's damping likewise)
//!   each is held to what it aims at within the step: the spin damping at
//!   most stops the spin, drag, rolling resistance and the handbrake
//!   together at most stop a tire's quarter of the car, the drive at most
//!   brings it to the target speed. Otherwise (every bundled preset) the
//!   plain pushes run unchanged. The documented minimums (1 kg, 0.1 kg m²)
//!   once reached 9,698 m/s in four steps.
//! * The tutorial turns both front tires to the same angle; on one rigid
//!   chassis that over-constrains the car (the two tires' axes cannot meet
//!   the rear axle's line at one point, so they scrub at any speed). Here
//!   they take Ackermann angles, `atan(L sin(delta) / (L cos(delta) - y
//!   sin(delta)))` for a tire `y` to the right of the centre line, the
//!   geometry seed 001 names.
//! * Traction (the surface's grip under the tire) scales the lateral cap,
//!   the drag and the drive alike, so top speed is the same on every surface
//!   while grip is not; the surface's rolling resistance and drag slow the
//!   car besides.
//!
//! The `iforce2d` preset scales the tutorial's toy constants to metres
//! (10 units to 4.5 m, its 7-unit mass to 1000 kg, one toy second to
//! 3.46 s): drive 500 / 300, lateral caps 7.5 / 8.5 per step, drag 2 and top
//! speeds 250 / -40 become the forces and speeds in [`crate::physics::car::TireSpec`].

use glam::DVec2;

use super::model::{CarState, Controls, Footing, G, Model};
use crate::physics::car::{CarSpec, TireSpec};

/// Passes over the four tires' lateral impulses each step.
const ITERATIONS: usize = 2;

/// 2D cross product `a × b`.
fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// One tire's geometry in the car's frame (x forward, y right): all that
/// the solver needs, fixed for the rear tires and for the front ones until
/// the wheels turn. A point `r` from the centre of mass moves at
/// `v + w perp(r)`, so its speed along a unit `d` is `d·v + w (r × d)`; an
/// impulse `j d` there changes `v` by `j d / m` and `w` by `j (r × d) / I`.
#[derive(Debug, Clone, Copy, Default)]
struct Point {
    fwd: DVec2,
    right: DVec2,
    /// `r × right` and `r × fwd`: the yaw rate's share of the tire's
    /// lateral and forward speeds.
    lat_lever: f64,
    long_lever: f64,
    /// Effective mass along the tire's right, `1 / (1/m + (r × right)^2 / I)`.
    lat_mass: f64,
    /// The same along its forward normal, and its inverse.
    long_mass: f64,
    inv_long_mass: f64,
}

impl Point {
    fn new(r: DVec2, fwd: DVec2, inv_m: f64, inv_i: f64) -> Point {
        let right = fwd.perp();
        let (lat_lever, long_lever) = (cross(r, right), cross(r, fwd));
        let inv_long_mass = inv_m + long_lever * long_lever * inv_i;
        Point {
            fwd,
            right,
            lat_lever,
            long_lever,
            lat_mass: 1.0 / (inv_m + lat_lever * lat_lever * inv_i),
            long_mass: 1.0 / inv_long_mass,
            inv_long_mass,
        }
    }
}

#[derive(Debug)]
pub struct Tire {
    inv_m: f64,
    inv_i: f64,
    /// The front wheels' angle [`Tire::points`] were made for.
    steer: f64,
    points: [Point; 4],
    /// `coupling[i][k]`: how much less impulse constraint `k` (front left,
    /// front right, rear axle) wants per unit of lateral impulse at `i`
    /// ([`Tire::aim`]).
    coupling: [[f64; 3]; 3],
    /// The largest `1 / long_mass` any tire can have at any steering
    /// angle (`1/m + |r|^2 / I`): how light the car is for its pushes.
    max_inv_long_mass: f64,
}

impl Tire {
    pub fn new(spec: &CarSpec) -> Tire {
        let (inv_m, inv_i) = (1.0 / spec.body.mass, 1.0 / spec.body.inertia);
        let offsets = super::model::wheel_offsets(spec);
        let reach = offsets
            .iter()
            .map(|r| r.length_squared())
            .fold(0.0, f64::max);
        let mut tire = Tire {
            inv_m,
            inv_i,
            steer: 0.0,
            points: offsets.map(|r| Point::new(r, DVec2::X, inv_m, inv_i)),
            coupling: [[0.0; 3]; 3],
            max_inv_long_mass: inv_m + reach * inv_i,
        };
        tire.aim(spec, 0.0);
        tire
    }

    /// Turns the front tires to `steer` with Ackermann angles: each square
    /// to the line from the centre of rotation on the rear axle's line.
    fn aim(&mut self, spec: &CarSpec, steer: f64) {
        let offsets = super::model::wheel_offsets(spec);
        let l = spec.body.wheelbase;
        let (sin_d, cos_d) = crate::base::trig::sin_cos(steer);
        for (i, r) in offsets.into_iter().enumerate().take(2) {
            let wheel = DVec2::new(l * cos_d - r.y * sin_d, l * sin_d).normalize();
            self.points[i] = Point::new(r, wheel, self.inv_m, self.inv_i);
        }
        // What an impulse at tire i does to what tire k wants: its lateral
        // speed changes by `right_i·right_k / m + (r_i × right_i)(r_k ×
        // right_k) / I` per unit, so its want by that times its effective
        // mass. A tire's own impulse leaves its want as it was. The rear
        // axle's constraint has its left tire's geometry (both are alike).
        let p = &self.points;
        self.coupling = std::array::from_fn(|i| {
            std::array::from_fn(|k| {
                if i == k {
                    return 0.0;
                }
                (p[i].right.dot(p[k].right) * self.inv_m
                    + p[i].lat_lever * p[k].lat_lever * self.inv_i)
                    * p[k].lat_mass
            })
        });
        self.steer = steer;
    }
}

impl Tire {
    /// Each tire's lateral cap for a step of `dt` (its impulse at most),
    /// the two rear tires' summed: they are one constraint, the rear axle.
    fn caps(p: &TireSpec, c: &Controls, at: &Footing, dt: f64) -> [f64; 3] {
        let caps: [f64; 4] = std::array::from_fn(|i| {
            let front = i < 2;
            let cap = if front {
                p.lateral_front
            } else {
                p.lateral_rear
            } * at.wheels[i].grip
                * dt;
            if c.handbrake && !front {
                cap * p.handbrake_lateral
            } else {
                cap
            }
        });
        [caps[0], caps[1], caps[2] + caps[3]]
    }

    /// The lateral impulses on the car moving at `v` (its own frame) and
    /// turning at `w`: sequential impulses with each tire's total clamped
    /// to its cap, iterated so the order of the tires washes out. Solved
    /// on what each tire wants (the total impulse that would stop its
    /// lateral speed), which another tire's impulse changes through
    /// `coupling`; the body takes the totals once at the end. Returns the
    /// motion after them, and marks the tires still sliding in `sliding`.
    fn lateral(
        &self,
        caps: [f64; 3],
        (mut v, mut w): (DVec2, f64),
        sliding: &mut [bool; 4],
    ) -> (DVec2, f64) {
        let mut want: [f64; 3] = std::array::from_fn(|i| {
            let pt = &self.points[i];
            -(pt.right.dot(v) + pt.lat_lever * w) * pt.lat_mass
        });
        let mut total = [0.0f64; 3];
        for _ in 0..ITERATIONS {
            for i in 0..3 {
                let new = want[i].clamp(-caps[i], caps[i]);
                let j = new - total[i];
                total[i] = new;
                for (wk, a) in want.iter_mut().zip(self.coupling[i]) {
                    *wk -= a * j;
                }
            }
        }
        for (i, pt) in self.points.iter().take(3).enumerate() {
            v += pt.right * (total[i] * self.inv_m);
            w += pt.lat_lever * self.inv_i * total[i];
            // Still sliding sideways faster than 5 cm/s: the lateral speed
            // left is (total - want) / lat_mass.
            sliding[i] =
                total[i].abs() >= caps[i] && (total[i] - want[i]).abs() > 0.05 * pt.lat_mass;
        }
        sliding[3] = sliding[2];
        (v, w)
    }

    /// The forces along each tire, all from the motion `(v, w)`: drag,
    /// drive, rolling resistance (which stops the tire at most). Returns
    /// their sum on the chassis and their moment.
    fn pushes(
        &self,
        spec: &CarSpec,
        c: &Controls,
        at: &Footing,
        (v, w): (DVec2, f64),
        dt: f64,
    ) -> (DVec2, f64) {
        let (p, m) = (&spec.tire, spec.body.mass);
        let desired = if c.throttle > 0.0 {
            Some((p.max_forward_speed, c.throttle))
        } else if c.brake > 0.0 {
            Some((-p.max_backward_speed, c.brake))
        } else {
            None
        };
        // The most rolling resistance may do is stop a quarter of the
        // car's share at the tire within the step.
        let stop_per_speed = 0.25 / dt;
        let stop_per_dt = 4.0 * dt;
        // Whether any push could overshoot within this step (a light car
        // for its forces): drag able to take half of a tire's speed (on
        // the grippiest, draggiest ground under the car now; the rolling
        // resistance may take the other half), or the drive able to swing
        // a tire's speed by over 0.5 m/s. Only then are the pushes held to
        // their aims; the bundled presets never are, and keep the plain
        // arithmetic (and its speed).
        let (grip, drag) = at
            .wheels
            .iter()
            .fold((0.0f64, 0.0f64), |(g, d), s| (g.max(s.grip), d.max(s.drag)));
        let light = (p.drag * grip + drag * m * 0.25) * self.max_inv_long_mass
            > 0.5 * stop_per_speed
            || p.drive_front.max(p.drive_rear) * dt * self.max_inv_long_mass > 0.5;
        let mut dv = DVec2::ZERO;
        let mut dw = 0.0;
        for (i, pt) in self.points.iter().enumerate() {
            let front = i < 2;
            let surface = at.wheels[i];
            let traction = surface.grip;
            let speed = pt.fwd.dot(v) + pt.long_lever * w;
            // Rolling resistance, and the handbrake on the rear: at most
            // this much force, and never past a stop.
            let mut stop = surface.rolling * m * 0.25 * G;
            if c.handbrake && !front {
                stop += p.lateral_rear * traction * 0.5;
            }
            let force = if light {
                // Within the step, the resistances together (drag, rolling
                // resistance, the handbrake) may at most stop the tire's
                // quarter of the car, and the drive at most bring it from there
                // to the target speed: explicit pushes sized for a heavy car
                // would overshoot and diverge on a light one.
                // The force that stops the tire's quarter within the step.
                let halt = speed * pt.long_mass * stop_per_speed;
                let coulomb = halt.max(-stop).min(stop);
                let drag = (p.drag * traction + surface.drag * m * 0.25) * speed;
                let resist = (drag + coulomb).max(-halt.abs()).min(halt.abs());
                let mut force = -resist;
                if let Some((target, pedal)) = desired {
                    let drive = if front { p.drive_front } else { p.drive_rear } * traction * pedal;
                    let gap = target - (speed - resist * pt.inv_long_mass * stop_per_dt);
                    force += gap.signum() * drive.min(gap.abs() * pt.long_mass * stop_per_speed);
                }
                force
            } else {
                let mut force = -p.drag * speed * traction - surface.drag * m * 0.25 * speed;
                if let Some((target, pedal)) = desired {
                    let drive = if front { p.drive_front } else { p.drive_rear } * traction * pedal;
                    if target > speed {
                        force += drive;
                    } else if target < speed {
                        force -= drive;
                    }
                }
                force -= (speed * pt.long_mass * stop_per_speed).clamp(-stop, stop);
                force
            };
            dv += pt.fwd * force;
            dw += pt.long_lever * force;
        }
        (dv, dw)
    }
}

impl Model for Tire {
    /// One step, as seed 004's update reads: each tire's lateral
    /// impulses ([`Tire::lateral`]), the tires' spin damped, then the
    /// forces along each tire ([`Tire::pushes`]) on the chassis.
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, at: &Footing, dt: f64) {
        let (bs, p) = (&spec.body, &spec.tire);
        car.turn_wheels(bs, c.steer, dt);
        if car.steer != self.steer {
            self.aim(spec, car.steer);
        }
        let (inv_m, inv_i) = (self.inv_m, self.inv_i);
        let (fwd, right) = (at.fwd, at.right);
        // The car's motion in its own frame.
        let body = &car.body;
        let v = DVec2::new(body.vel.dot(fwd), body.vel.dot(right));
        let caps = Self::caps(p, c, at, dt);
        let (mut v, mut w) = self.lateral(caps, (v, body.yaw_rate), &mut car.contact.sliding);

        // The tires' spin, damped: at most to a stop (on a light chassis the
        // kick would otherwise overshoot and grow every step).
        w *= (1.0 - 4.0 * p.angular_damping * dt * 60.0 * p.tire_inertia * inv_i).max(0.0);

        let (dv, dw) = self.pushes(spec, c, at, (v, w), dt);
        v += dv * (inv_m * dt);
        w += dw * (inv_i * dt);
        car.body.vel = fwd * v.x + right * v.y;
        car.body.yaw_rate = w;
        car.drive.follow(&spec.engine, v.x, c.throttle, c.brake);
    }
}
