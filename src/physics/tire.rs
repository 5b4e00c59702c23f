//! `tire`: seed 004 (a Chinese translation of iforce2d's Box2D "top-down
//! car"). One rigid chassis with four tire contact points; forces and
//! impulses applied at points, in the style of Box2D. Front tires turn up to
//! the lock angle at a limited rate; rear tires are fixed.
//!
//! Per tire, in the tutorial's order (`updateFriction`, then `updateDrive`):
//! * Lateral velocity at the tire, `right * dot(right, v_point)`, is
//!   cancelled by an impulse at the tire's point, `J = -lat / k` with
//!   `k = 1/m + (r × right)^2 / I` (the impulse that stops it exactly), its
//!   length capped at `max_lateral_impulse * traction`: above the cap the
//!   tire skids. The tutorial's tires are bodies of their own; here they
//!   share one chassis, so their impulses are solved together as Box2D
//!   solves contacts: a few passes of sequential impulses, each tire's
//!   accumulated impulse clamped to its cap. The tutorial's caps are impulses per 1/60 s step; here they
//!   are forces (`lateral_front`, `lateral_rear`) times `dt`, so the car
//!   drives the same at any step rate.
//! * The tire's spin is damped a little: an angular impulse of
//!   `-angular_damping * tire_inertia * w` per 1/60 s.
//! * Rolling drag: `-drag * forward_speed` along the tire's forward normal.
//! * Drive: towards `max_forward_speed` with the throttle, towards
//!   `-max_backward_speed` with the brake (so the brake slows, then
//!   reverses), a push of `drive_* * pedal` along the forward normal.
//! * Traction (the surface's grip under the tire) scales the lateral cap,
//!   the drag and the drive alike, so top speed is the same on every surface
//!   while grip is not; the surface's rolling resistance and drag slow the
//!   car besides.
//!
//! The `iforce2d` preset scales the tutorial's toy constants to metres
//! (10 units to 4.5 m, its 7-unit mass to 1000 kg, one toy second to
//! 3.46 s): drive 500 / 300, lateral caps 7.5 / 8.5 per step, drag 2 and top
//! speeds 250 / -40 become the forces and speeds in [`crate::car::TireSpec`].

use glam::DVec2;

use super::{CarState, Controls, G, Ground, Model};
use crate::car::CarSpec;

#[derive(Debug, Default)]
pub struct Tire;

/// Passes over the four tires' lateral impulses each step.
const ITERATIONS: usize = 4;

/// 2D cross product `a × b`.
fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

impl Model for Tire {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, ground: &Ground, dt: f64) {
        let (bs, p) = (&spec.body, &spec.tire);
        car.steer = super::steer_towards(
            car.steer,
            c.steer * bs.max_steer_deg.to_radians(),
            bs.steer_rate_deg.to_radians(),
            dt,
        );
        let (m, inertia) = (bs.mass, bs.inertia);
        let body = &mut car.body;
        let (fwd, right) = (body.forward(), body.right());
        let offsets = super::wheel_offsets(spec);
        let desired = if c.throttle > 0.0 {
            Some((p.max_forward_speed, c.throttle))
        } else if c.brake > 0.0 {
            Some((-p.max_backward_speed, c.brake))
        } else {
            None
        };

        struct Point {
            r: DVec2,
            fwd: DVec2,
            right: DVec2,
            cap: f64,
            k: f64,
        }
        let points: [Point; 4] = std::array::from_fn(|i| {
            let front = i < 2;
            let r = fwd * offsets[i].x + right * offsets[i].y;
            let t_fwd = DVec2::from_angle(body.heading + if front { car.steer } else { 0.0 });
            let t_right = t_fwd.perp();
            let mut cap = if front {
                p.lateral_front
            } else {
                p.lateral_rear
            } * ground.wheels[i].grip
                * dt;
            if c.handbrake && !front {
                cap *= p.handbrake_lateral;
            }
            Point {
                r,
                fwd: t_fwd,
                right: t_right,
                cap,
                k: 1.0 / m + cross(r, t_right).powi(2) / inertia,
            }
        });

        // Lateral impulses: sequential impulses with each tire's total
        // clamped to its cap, iterated so the order of the tires washes out.
        let mut total = [0.0f64; 4];
        for _ in 0..ITERATIONS {
            for (i, pt) in points.iter().enumerate() {
                let lat = pt.right.dot(body.vel + pt.r.perp() * body.yaw_rate);
                let new = (total[i] - lat / pt.k).clamp(-pt.cap, pt.cap);
                let j = new - total[i];
                total[i] = new;
                body.vel += pt.right * (j / m);
                body.yaw_rate += cross(pt.r, pt.right * j) / inertia;
            }
        }
        for (i, pt) in points.iter().enumerate() {
            let lat = pt.right.dot(body.vel + pt.r.perp() * body.yaw_rate);
            car.tel.sliding[i] = total[i].abs() >= pt.cap && lat.abs() > 0.05;
        }

        // The tires' spin, damped.
        body.yaw_rate *= 1.0 - 4.0 * p.angular_damping * dt * 60.0 * p.tire_inertia / inertia;

        // Forces along each tire, all from the same state: drag, drive,
        // rolling resistance (which stops the tire at most).
        let mut dv = DVec2::ZERO;
        let mut dw = 0.0;
        for (i, pt) in points.iter().enumerate() {
            let front = i < 2;
            let surface = ground.wheels[i];
            let traction = surface.grip;
            let speed = pt.fwd.dot(body.vel + pt.r.perp() * body.yaw_rate);
            let mut force = -p.drag * speed * traction - surface.drag * m * 0.25 * speed;
            if let Some((target, pedal)) = desired {
                let drive = if front { p.drive_front } else { p.drive_rear } * traction * pedal;
                if target > speed {
                    force += drive;
                } else if target < speed {
                    force -= drive;
                }
            }
            let mut stop = surface.rolling * m * 0.25 * G;
            if c.handbrake && !front {
                stop += p.lateral_rear * traction * 0.5;
            }
            let k = 1.0 / m + cross(pt.r, pt.fwd).powi(2) / inertia;
            force -= speed.signum() * stop.min(0.25 * speed.abs() / k / dt);
            dv += pt.fwd * (force / m * dt);
            dw += cross(pt.r, pt.fwd * force) / inertia * dt;
        }
        body.vel += dv;
        body.yaw_rate += dw;
        let v_long = body.v_long();
        car.drive.follow(&spec.engine, v_long, c.throttle, c.brake);
    }
}
