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
//! speeds 250 / -40 become the forces and speeds in [`crate::car::TireSpec`].

use glam::DVec2;

use super::{CarState, Controls, Frame, G, Model};
use crate::car::CarSpec;

#[derive(Debug, Default)]
pub struct Tire {
    trig: super::SteerTrig,
}

/// Passes over the four tires' lateral impulses each step.
const ITERATIONS: usize = 2;

/// 2D cross product `a × b`.
fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

impl Model for Tire {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, frame: &Frame, dt: f64) {
        let (bs, p) = (&spec.body, &spec.tire);
        car.turn_wheels(bs, c.steer, dt);
        let (m, inertia) = (bs.mass, bs.inertia);
        let body = &mut car.body;
        let (fwd, right) = (frame.fwd, frame.right);
        let offsets = super::wheel_offsets(spec);
        let desired = if c.throttle > 0.0 {
            Some((p.max_forward_speed, c.throttle))
        } else if c.brake > 0.0 {
            Some((-p.max_backward_speed, c.brake))
        } else {
            None
        };

        // Per tire: its lever arm, axes, impulse cap, and (to keep divisions
        // out of the solver's dependency chain) the reciprocal effective
        // mass along its right and its right's yaw lever over inertia.
        struct Point {
            r: DVec2,
            fwd: DVec2,
            right: DVec2,
            cap: f64,
            inv_k: f64,
            yaw_per_j: f64,
        }
        let (inv_m, inv_i) = (1.0 / m, 1.0 / inertia);
        let l = bs.wheelbase;
        let (sin_d, cos_d) = self.trig.of(car.steer);
        let points: [Point; 4] = std::array::from_fn(|i| {
            let front = i < 2;
            let r = fwd * offsets[i].x + right * offsets[i].y;
            // Ackermann: each front tire square to the line from the
            // centre of rotation on the rear axle's line.
            let wheel = if front {
                DVec2::new(l * cos_d - offsets[i].y * sin_d, l * sin_d).normalize()
            } else {
                DVec2::X
            };
            let t_fwd = wheel.rotate(fwd);
            let t_right = t_fwd.perp();
            let mut cap = if front {
                p.lateral_front
            } else {
                p.lateral_rear
            } * frame.wheels[i].grip
                * dt;
            if c.handbrake && !front {
                cap *= p.handbrake_lateral;
            }
            let lever = cross(r, t_right);
            Point {
                r,
                fwd: t_fwd,
                right: t_right,
                cap,
                inv_k: 1.0 / (inv_m + lever * lever * inv_i),
                yaw_per_j: lever * inv_i,
            }
        });

        // Lateral impulses: sequential impulses with each tire's total
        // clamped to its cap, iterated so the order of the tires washes out.
        let mut total = [0.0f64; 4];
        for _ in 0..ITERATIONS {
            for (i, pt) in points.iter().enumerate() {
                let lat = pt.right.dot(body.vel + pt.r.perp() * body.yaw_rate);
                let new = (total[i] - lat * pt.inv_k).clamp(-pt.cap, pt.cap);
                let j = new - total[i];
                total[i] = new;
                body.vel += pt.right * (j * inv_m);
                body.yaw_rate += pt.yaw_per_j * j;
            }
        }
        for (i, pt) in points.iter().enumerate() {
            let lat = pt.right.dot(body.vel + pt.r.perp() * body.yaw_rate);
            car.contact.sliding[i] = total[i].abs() >= pt.cap && lat.abs() > 0.05;
        }

        // The tires' spin, damped.
        body.yaw_rate *= 1.0 - 4.0 * p.angular_damping * dt * 60.0 * p.tire_inertia / inertia;

        // Forces along each tire, all from the same state: drag, drive,
        // rolling resistance (which stops the tire at most).
        let mut dv = DVec2::ZERO;
        let mut dw = 0.0;
        for (i, pt) in points.iter().enumerate() {
            let front = i < 2;
            let surface = frame.wheels[i];
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
            let lever = cross(pt.r, pt.fwd);
            let k = inv_m + lever * lever * inv_i;
            force -= speed.signum() * stop.min(0.25 * speed.abs() / (k * dt));
            dv += pt.fwd * (force * inv_m * dt);
            dw += lever * force * inv_i * dt;
        }
        body.vel += dv;
        body.yaw_rate += dw;
        let v_long = body.vel.dot(fwd);
        car.drive.follow(&spec.engine, v_long, c.throttle, c.brake);
    }
}
