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
//! Taken literally, with the front axle moving on a straight segment `d`,
//! these steps turn the car by `atan(d sin(delta) / (L + d cos(delta)))`
//! instead of `d sin(delta) / L`: the radius grows with speed (1.5% at
//! 2 m/s, 12% at 16 m/s for a kart at 120 Hz). They are the first-order
//! form of rolling both axles on arcs about the instantaneous centre of
//! rotation, which lies on the rear axle's line at `R = L / tan(delta)`;
//! this model takes the steps exactly: the heading turns by
//! `d sin(delta) / L` while the rear axle swings about that centre, so the
//! rear axle's turning radius is `L / tan(delta)` at every speed and rate.
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

use super::model::{CarState, Controls, Footing, G, Model};
use crate::physics::car::CarSpec;

#[derive(Debug, Default)]
pub struct Kinematic {
    /// Front axle speed along its wheels, m/s (negative backwards).
    speed: f64,
    /// The velocity this model last gave the car.
    gave: DVec2,
    trig: super::model::SteerTrig,
}

impl Model for Kinematic {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, at: &Footing, dt: f64) {
        let (bs, p) = (&spec.body, &spec.kinematic);
        car.turn_wheels(bs, c.steer, dt);
        let (drive, brake) = car.drive.pedals(c.throttle, c.brake);
        let grip = at.grip;
        let forward = at.fwd;
        if car.body.vel != self.gave {
            self.speed = car.body.vel.dot(forward);
        }
        let v = self.speed;

        let limit = p.mu * grip * G;
        let a_drive = (car.drive.traction(&spec.engine, drive) / bs.mass).clamp(-limit, limit);
        let smooth = -p.c_drag * v * v.abs() / bs.mass - at.drag * v;
        let v = v + (a_drive + smooth) * dt;
        let resist = (brake * p.brake_decel * grip + at.rolling * G) * dt;
        let speed = v - v.signum() * resist.min(v.abs());

        let body = &mut car.body;
        let cr = spec.cg_to_rear();
        let l = bs.wheelbase;
        let rear = body.pos - forward * cr;
        let d = speed * dt;
        let (sin_d, cos_d) = self.trig.of(car.steer);
        let turn = d * sin_d / l;
        let rotation = crate::base::trig::dir(turn);
        let rear = if turn.abs() < 1e-12 {
            rear + forward * (d * cos_d)
        } else {
            // The centre of rotation sits on the rear axle's line.
            let centre = rear + forward.perp() * (l * cos_d / sin_d);
            centre + rotation.rotate(rear - centre)
        };
        let new_forward = rotation.rotate(forward);
        let pos = rear + new_forward * cr;
        body.vel = (pos - body.pos) / dt;
        body.yaw_rate = turn / dt;
        self.speed = speed;
        self.gave = body.vel;

        car.drive.update(&spec.engine, speed, c.throttle, c.brake);
    }

    /// Zero by construction: the wheels roll where they point. (The chord a
    /// step moves along lags the end-of-step heading by half the step's
    /// turn, which the generic formula would misread as slip.)
    fn slips(&self, _: &super::model::Body, _: &CarSpec, _: f64) -> (f64, f64) {
        (0.0, 0.0)
    }
}
