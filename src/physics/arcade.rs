//! `arcade`: seed 000 (a Ukrainian forum answer). Position, velocity and a
//! unit forward vector; no mass, no forces.
//!
//! Each step, with input `a = throttle - brake` in -1..1 (negative brakes,
//! then reverses):
//! 1. The inputs ease towards the keys, `x += (key - x) * min(1, dt *
//!    input_lerp)`, as the seed suggests for throttle, so a keyboard's
//!    -1/0/+1 neither snaps the wheel nor the pedal.
//! 2. Steering turns the forward vector:
//!    `steer_angle = steer * steer_factor * min(speed / max_speed, 1)` (no
//!    turning at a standstill; reversed when rolling backwards), then
//!    `forward = normalize(lerp(forward, rotate(forward, steer_angle),
//!    dt * steer_lerp))`.
//! 3. Friction before acceleration: `lateral = right * dot(v, right)`,
//!    `lateral_friction = -lateral * lateral_friction * grip`,
//!    `backwards_friction = -v * (backwards_friction + drag) - v̂ * rolling * g`,
//!    each clamped to stop at most the motion it acts on in one step
//!    (`|f| <= |motion| / dt`). The seed sums the two; clamped apart, their
//!    sum can still reverse the lateral motion, so here they act one after
//!    the other, each scaling what it acts on by a factor in 0..1: friction
//!    never reverses the car, not even by a rounding error.
//! 4. `v += friction * dt`; if below the top speed (or the reverse speed
//!    when backing up) `v += forward * a * acceleration * grip * dt`.
//!
//! The handbrake swaps in a much smaller lateral friction: the car drifts.
//!
//! The front wheels' angle (for drawing and slip angles) is the one a car
//! of this wheelbase needs for the arc: `atan(wheelbase * steer *
//! steer_factor * steer_lerp / max_speed)`, about 8.5° at full steer for
//! the preset.

use glam::DVec2;

use super::model::{CarState, Controls, Footing, G, Model};
use crate::physics::car::CarSpec;

#[derive(Debug)]
pub struct Arcade {
    /// Eased steer input, -1..1.
    steer: f64,
    /// Eased pedal input `throttle - brake`, -1..1.
    pedal: f64,
    /// `1 / max_speed`, from the preset.
    per_max_speed: f64,
}

impl Arcade {
    pub fn new(spec: &CarSpec) -> Arcade {
        Arcade {
            steer: 0.0,
            pedal: 0.0,
            per_max_speed: 1.0 / spec.arcade.max_speed,
        }
    }
}

impl Model for Arcade {
    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, at: &Footing, dt: f64) {
        let p = &spec.arcade;
        let ease = (dt * p.input_lerp).min(1.0);
        self.steer += (c.steer - self.steer) * ease;
        self.pedal += ((c.throttle - c.brake) - self.pedal) * ease;

        let body = &mut car.body;
        let v = body.vel;
        let speed = v.length();
        let forward = at.fwd;
        // The motion along and across the car as the step begins.
        let (v_fwd, v_right) = (v.dot(forward), v.dot(at.right));
        let turn = self.steer * p.steer_factor * (speed * self.per_max_speed).min(1.0);
        let turn = if v_fwd < 0.0 { -turn } else { turn };
        // lerp(forward, rotate(forward, turn), a) is forward turned to
        // q = (1 - a + a cos(turn), a sin(turn)) in the car's frame: the new
        // forward is q normalised, turned by atan2(q.y, q.x).
        let a = (dt * p.steer_lerp).min(1.0);
        let (sin_t, cos_t) = crate::base::trig::sin_cos(turn);
        let q = DVec2::new(1.0 - a + a * cos_t, a * sin_t);
        let u = q * (1.0 / q.length());
        let new_forward = u.rotate(forward);
        body.yaw_rate = crate::base::trig::atan2(q.y, q.x) / dt;

        // The rest in the new forward's frame: along (`lon`) and across
        // (`lat`) the car.
        let mut lon = v_fwd * u.x + v_right * u.y;
        let mut lat = v_right * u.x - v_fwd * u.y;
        let grip = at.grip;
        let lat_factor = if c.handbrake {
            p.handbrake_lateral
        } else {
            p.lateral_friction
        };
        lat -= lat * (lat_factor * grip * dt).min(1.0);
        let speed = (lon * lon + lat * lat).sqrt();
        if speed > 0.0 {
            let drag = p.backwards_friction + at.drag;
            let drop = (speed * drag + at.rolling * G) * dt;
            let keep = (speed - drop).max(0.0) / speed;
            (lon, lat) = (lon * keep, lat * keep);
        }

        let along = lon;
        let speed_sq = lon * lon + lat * lat;
        let below_cap = if self.pedal >= 0.0 {
            speed_sq < p.max_speed * p.max_speed
        } else {
            along > 0.0 || speed_sq < p.reverse_speed * p.reverse_speed
        };
        if below_cap {
            lon += self.pedal * p.acceleration * grip * dt;
        }
        body.vel = new_forward * lon + new_forward.perp() * lat;

        let sliding = lat.abs() > 1.5;
        car.contact.sliding = [sliding; 4];
        // The wheels as a car of this wheelbase would turn them to follow
        // the arc this steer drives (its radius is the same at any speed
        // below the top), not the lock's share: so the wheels drawn and
        // the slip angles measured are the arc's, and a car on its arc
        // does not show as sliding.
        let radius_inv = self.steer * p.steer_factor * p.steer_lerp * self.per_max_speed;
        car.steer = crate::base::trig::atan2(spec.body.wheelbase * radius_inv, 1.0);
        car.drive.follow(&spec.engine, along, c.throttle, c.brake);
    }
}
