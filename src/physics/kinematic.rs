//! `kinematic`: seed 003 (a Taiwanese article, "the four-wheel car
//! algorithm"). No forces sideways and no slip: the rear wheels leave a
//! track in the direction they point.
//!
//! Each step, with the front axle `b` ahead of the centre and the rear axle
//! `c` behind it (wheelbase `L = b + c`):
//! 1. the front axle centre moves `speed * dt` in the direction the front
//!    wheels point (`heading + delta`);
//! 2. the new heading is the direction from the old rear axle centre to the
//!    new front axle centre;
//! 3. the car is pulled along that heading until the front axle sits at its
//!    new position; the rear axle follows.
//!
//! The rear axle's turning radius is `L / tan(delta)` at every speed.
//! Speed comes from the drivetrain (`a = traction / m`, capped at
//! `mu * grip * g` since even this car cannot push harder than its tires),
//! brakes (`brake_decel * grip`), rolling resistance (`C_rr g`), drag
//! (`C_drag v |v| / m`) and the surface's drag. Brakes and rolling
//! resistance stop the car but never reverse it.
//!
//! The model writes the resulting motion as velocity and yaw rate, so the
//! shared wall mover reproduces the step exactly. It keeps the front axle's
//! speed as its own state: the centre's velocity is slower in a turn (by
//! about `cos(delta)`), and reading speed back from it would brake the car
//! every step it steers. When something else changed the velocity (a wall,
//! or a switch from another model) the speed is taken from the car again.

use glam::DVec2;

use super::{CarState, Controls, G, Ground, Model};
use crate::car::CarSpec;

#[derive(Debug, Default)]
pub struct Kinematic {
    /// Front axle speed along its wheels, m/s (negative backwards).
    speed: f64,
    /// The velocity this model last gave the car.
    gave: DVec2,
}

impl Model for Kinematic {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, ground: &Ground, dt: f64) {
        let (bs, p) = (&spec.body, &spec.kinematic);
        car.steer = super::steer_towards(
            car.steer,
            c.steer * bs.max_steer_deg.to_radians(),
            bs.steer_rate_deg.to_radians(),
            dt,
        );
        let (drive, brake) = car.drive.pedals(c.throttle, c.brake);
        let grip = ground.mean(|s| s.grip);
        if car.body.vel != self.gave {
            self.speed = car.body.v_long();
        }
        let v = self.speed;

        let limit = p.mu * grip * G;
        let a_drive = (car.drive.traction(&spec.engine, drive) / bs.mass).clamp(-limit, limit);
        let smooth = -p.c_drag * v * v.abs() / bs.mass - ground.mean(|s| s.drag) * v;
        let v = v + (a_drive + smooth) * dt;
        let resist = (brake * p.brake_decel * grip + ground.mean(|s| s.rolling) * G) * dt;
        let speed = v - v.signum() * resist.min(v.abs());

        let body = &mut car.body;
        let (b, cr) = (bs.cg_to_front, spec.cg_to_rear());
        let forward = body.forward();
        let front = body.pos + forward * b;
        let rear = body.pos - forward * cr;
        let front = front + DVec2::from_angle(body.heading + car.steer) * speed * dt;
        let new_forward = (front - rear).try_normalize().unwrap_or(forward);
        let pos = front - new_forward * b;
        body.vel = (pos - body.pos) / dt;
        body.yaw_rate = forward.angle_to(new_forward) / dt;
        self.speed = speed;
        self.gave = body.vel;

        car.drive.update(&spec.engine, speed, c.throttle, c.brake);
    }
}
