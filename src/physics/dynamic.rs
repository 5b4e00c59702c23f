//! `dynamic`: seed 001 (a Chinese article on a 2D racing game's forces,
//! after Marco Monster's "Car Physics for Games"). A rear-wheel-drive car as
//! a bicycle model (each axle's two wheels act as one) with a drivetrain.
//!
//! Car frame: `long` forward, `lat` right; `w` yaw rate; `b`, `c` centre of
//! gravity to front and rear axle; `delta` front wheel angle.
//!
//! * Axle loads: `W_f = m g c / L`, `W_r = m g b / L`, plus the longitudinal
//!   weight transfer the seed names as a refinement:
//!   `dW = h / L * m * a_long` moved from front to rear (last step's `a_long`),
//!   never more than leaves one axle with all of the weight.
//! * Straight line (formula 9): `F_long = traction * throttle + drag +
//!   rolling + brake * brake_force`; `traction` from [`super::drivetrain`];
//!   `drag = -C_drag v |v|`; `rolling = -C_rr m g` (the surface's `C_rr`),
//!   and the surface's linear drag `-drag m v`. Brakes and rolling resistance
//!   can stop the car but never reverse it.
//! * Wheelspin: traction above `mu * grip * W_r` spins the rear wheels; they
//!   then push with 90% of that and keep less lateral grip (friction circle:
//!   `F_lat_max = sqrt((mu W_r)^2 - F_long^2)`).
//! * Slip angles (formulas 8, 9):
//!   `alpha_f = atan((v_lat + w b) / |v_long|) - sgn(v_long) delta`,
//!   `alpha_r = atan((v_lat - w c) / |v_long|)`.
//! * Lateral force per axle: `F = clamp(-C alpha, -mu, mu) * grip * W`,
//!   linear up to about 5 degrees, then saturated.
//! * Front force rotated by `delta` into the car frame; sum with drag and
//!   rolling; `a = F / m` integrated in the world frame.
//! * Yaw: `torque = F_lat_f cos(delta) b - F_lat_r c`, `w += torque / I dt`.
//! * Then rpm and the automatic box.
//!
//! Low-speed singularity: `|v_long|` is floored at 1 m/s inside the slip
//! angles, and each axle's lateral force is capped at half the impulse that
//! would stop that axle's sideways motion in one step
//! (`|F| dt <= 0.5 |v_axle| / (1/m + d^2/I)`), so a standing car is still
//! instead of shivering.

use super::model::{CarState, Controls, Footing, G, Model};
use crate::physics::car::CarSpec;

#[derive(Debug)]
pub struct Dynamic {
    /// Last step's longitudinal acceleration, for weight transfer.
    a_long: f64,
    trig: super::model::SteerTrig,
    /// From the preset, worked out once: `1/m`, `1/I`, the static axle
    /// loads `m g c / L` and `m g b / L`, the weight moved per m/s² of
    /// `a_long` (`h m / L`), and each axle's effective sideways mass
    /// `1 / (1/m + d^2/I)` (front, rear).
    inv_m: f64,
    inv_i: f64,
    static_load: (f64, f64),
    transfer_per_a: f64,
    axle_mass: (f64, f64),
}

impl Dynamic {
    pub fn new(spec: &CarSpec) -> Dynamic {
        let bs = &spec.body;
        let (m, i, l) = (bs.mass, bs.inertia, bs.wheelbase);
        let (b, c) = (bs.cg_to_front, spec.cg_to_rear());
        let axle_mass = |d: f64| 1.0 / (1.0 / m + d * d / i);
        Dynamic {
            a_long: 0.0,
            trig: super::model::SteerTrig::default(),
            inv_m: 1.0 / m,
            inv_i: 1.0 / i,
            static_load: (m * G * c / l, m * G * b / l),
            transfer_per_a: bs.cg_height / l * m,
            axle_mass: (axle_mass(b), axle_mass(c)),
        }
    }
}

impl Model for Dynamic {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, at: &Footing, dt: f64) {
        let (body_spec, e, p) = (&spec.body, &spec.engine, &spec.dynamic);
        let m = body_spec.mass;
        let (b, cr) = (body_spec.cg_to_front, spec.cg_to_rear());
        car.turn_wheels(body_spec, c.steer, dt);
        let delta = car.steer;
        let (drive, brake) = car.drive.pedals(c.throttle, c.brake);
        let w = &at.wheels;
        let grip_f = 0.5 * (w[0].grip + w[1].grip);
        let grip_r = 0.5 * (w[2].grip + w[3].grip);

        let body = &mut car.body;
        let (fwd, right) = (at.fwd, at.right);
        let (v_long, v_lat, yaw) = (body.vel.dot(fwd), body.vel.dot(right), body.yaw_rate);
        let (sin_d, cos_d) = self.trig.of(delta);

        // Never more than an axle carries: each axle's load stays between
        // none and the whole car's (a high centre of gravity over a short
        // wheelbase would otherwise feed last step's acceleration back
        // into the traction without bound).
        let transfer =
            (self.transfer_per_a * self.a_long).clamp(-self.static_load.1, self.static_load.0);
        let load_f = (self.static_load.0 - transfer).max(0.0);
        let load_r = (self.static_load.1 + transfer).max(0.0);

        // Drive at the rear wheels, capped by their grip.
        let grip_max_r = p.mu * grip_r * load_r;
        let mut f_drive = car.drive.traction(e, drive);
        let spinning = f_drive.abs() > grip_max_r;
        if spinning {
            f_drive = f_drive.signum() * 0.9 * grip_max_r;
        }

        // Lateral forces from the slip angles.
        let (alpha_f, alpha_r) = super::model::slip_angles(v_long, v_lat, yaw, b, cr, delta, 1.0);
        let front_sat = (p.cornering_front * alpha_f).abs() > p.mu;
        let mut f_lat_f = (-p.cornering_front * alpha_f).clamp(-p.mu, p.mu) * grip_f * load_f;
        let mut cap_r = (grip_max_r * grip_max_r - f_drive * f_drive)
            .max(0.0)
            .sqrt();
        if c.handbrake {
            cap_r *= p.handbrake_grip;
        }
        let want_r = -p.cornering_rear * alpha_r * grip_r * load_r;
        let rear_sat = want_r.abs() > cap_r;
        let mut f_lat_r = want_r.clamp(-cap_r, cap_r);

        // Low-speed guard: no axle may overshoot its own sideways motion.
        let v_front_wheel_lat = (v_lat + yaw * b) * cos_d - v_long * sin_d;
        // Each axle's lateral force may stop at most half its sideways
        // speed within the step.
        let inv_dt = 1.0 / dt;
        let cap = 0.5 * v_front_wheel_lat.abs() * self.axle_mass.0 * inv_dt;
        f_lat_f = f_lat_f.clamp(-cap, cap);
        let cap = 0.5 * (v_lat - yaw * cr).abs() * self.axle_mass.1 * inv_dt;
        f_lat_r = f_lat_r.clamp(-cap, cap);

        // Resistances: brakes (plus the handbrake on the rear) and rolling
        // resistance stop the car at most; drag is smooth.
        let brake_cap = p.mu * (grip_f * load_f + grip_r * load_r);
        let handbrake = if c.handbrake { grip_max_r } else { 0.0 };
        let resist = (brake * p.brake_force).min(brake_cap) + handbrake + at.rolling * m * G;
        let resist = resist.min(m * v_long.abs() * inv_dt);
        let speed = body.vel.length();
        let surface_drag = at.drag * m;
        let f_long = f_drive
            - v_long.signum() * resist
            - p.c_drag * v_long * speed
            - surface_drag * v_long
            - f_lat_f * sin_d;
        let f_lat = f_lat_r + f_lat_f * cos_d - p.c_drag * v_lat * speed - surface_drag * v_lat;
        let torque = f_lat_f * cos_d * b - f_lat_r * cr;

        body.vel += (fwd * f_long + right * f_lat) * (self.inv_m * dt);
        body.yaw_rate += torque * self.inv_i * dt;
        self.a_long = f_long * self.inv_m;

        car.contact.sliding = [
            front_sat,
            front_sat,
            rear_sat || spinning || c.handbrake,
            rear_sat || spinning || c.handbrake,
        ];
        let v_long = car.body.vel.dot(fwd);
        car.drive.update(e, v_long, c.throttle, c.brake);
    }
}
