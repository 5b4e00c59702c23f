//! `dynamic`: seed 001 (a Chinese article on a 2D racing game's forces,
//! after Marco Monster's "Car Physics for Games"). A rear-wheel-drive car as
//! a bicycle model (each axle's two wheels act as one) with a drivetrain.
//!
//! Car frame: `long` forward, `lat` right; `w` yaw rate; `b`, `c` centre of
//! gravity to front and rear axle; `delta` front wheel angle.
//!
//! * Axle loads: `W_f = m g c / L`, `W_r = m g b / L`, plus the longitudinal
//!   weight transfer the seed names as a refinement:
//!   `dW = h / L * m * a_long` moved from front to rear (last step's `a_long`).
//! * Straight line (formula 9): `F_long = traction * throttle + drag +
//!   rolling + brake * brake_force`; `traction` from [`super::drivetrain`];
//!   `drag = -C_drag v |v|`; `rolling = -C_rr m g` (the surface's `C_rr`),
//!   and the surface's linear drag `-drag m v`. Brakes and rolling resistance
//!   can stop the car but never reverse it.
//! * Wheelspin: traction above `mu * grip * W_r` spins the rear wheels; they
//!   then push with 90% of that and keep less lateral grip (friction circle:
//!   `F_lat_max = sqrt((mu W_r)^2 - F_long^2)`).
//! * Slip angles (formulas 8, 9): `alpha_f = atan((v_lat + w b) / |v_long|)
//!   - sgn(v_long) delta`, `alpha_r = atan((v_lat - w c) / |v_long|)`.
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

use super::{CarState, Controls, Frame, G, Model};
use crate::car::CarSpec;

#[derive(Debug, Default)]
pub struct Dynamic {
    /// Last step's longitudinal acceleration, for weight transfer.
    a_long: f64,
    trig: super::SteerTrig,
}

/// Largest lateral force an axle at `d` metres from the centre of gravity
/// may apply this step: half what stops its sideways speed `v`.
fn stopping_cap(m: f64, inertia: f64, d: f64, v: f64, dt: f64) -> f64 {
    0.5 * v.abs() / (1.0 / m + d * d / inertia) / dt
}

impl Model for Dynamic {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, frame: &Frame, dt: f64) {
        let (body_spec, e, p) = (&spec.body, &spec.engine, &spec.dynamic);
        let (m, inertia) = (body_spec.mass, body_spec.inertia);
        let (b, cr, l) = (
            body_spec.cg_to_front,
            spec.cg_to_rear(),
            body_spec.wheelbase,
        );
        car.turn_wheels(body_spec, c.steer, dt);
        let delta = car.steer;
        let (drive, brake) = car.drive.pedals(c.throttle, c.brake);
        let w = &frame.wheels;
        let grip_f = 0.5 * (w[0].grip + w[1].grip);
        let grip_r = 0.5 * (w[2].grip + w[3].grip);

        let body = &mut car.body;
        let (fwd, right) = (frame.fwd, frame.right);
        let (v_long, v_lat, yaw) = (body.vel.dot(fwd), body.vel.dot(right), body.yaw_rate);
        let (sin_d, cos_d) = self.trig.of(delta);

        let transfer = body_spec.cg_height / l * m * self.a_long;
        let load_f = (m * G * cr / l - transfer).max(0.0);
        let load_r = (m * G * b / l + transfer).max(0.0);

        // Drive at the rear wheels, capped by their grip.
        let grip_max_r = p.mu * grip_r * load_r;
        let mut f_drive = car.drive.traction(e, drive);
        let spinning = f_drive.abs() > grip_max_r;
        if spinning {
            f_drive = f_drive.signum() * 0.9 * grip_max_r;
        }

        // Lateral forces from the slip angles.
        let (alpha_f, alpha_r) = super::slip_angles(v_long, v_lat, yaw, b, cr, delta, 1.0);
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
        let cap = stopping_cap(m, inertia, b, v_front_wheel_lat, dt);
        f_lat_f = f_lat_f.clamp(-cap, cap);
        let cap = stopping_cap(m, inertia, cr, v_lat - yaw * cr, dt);
        f_lat_r = f_lat_r.clamp(-cap, cap);

        // Resistances: brakes (plus the handbrake on the rear) and rolling
        // resistance stop the car at most; drag is smooth.
        let brake_cap = p.mu * (grip_f * load_f + grip_r * load_r);
        let handbrake = if c.handbrake { grip_max_r } else { 0.0 };
        let resist = (brake * p.brake_force).min(brake_cap) + handbrake + frame.rolling * m * G;
        let resist = resist.min(m * v_long.abs() / dt);
        let speed = body.vel.length();
        let surface_drag = frame.drag * m;
        let f_long = f_drive
            - v_long.signum() * resist
            - p.c_drag * v_long * speed
            - surface_drag * v_long
            - f_lat_f * sin_d;
        let f_lat = f_lat_r + f_lat_f * cos_d - p.c_drag * v_lat * speed - surface_drag * v_lat;
        let torque = f_lat_f * cos_d * b - f_lat_r * cr;

        body.vel += (fwd * f_long + right * f_lat) / m * dt;
        body.yaw_rate += torque / inertia * dt;
        self.a_long = f_long / m;

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
