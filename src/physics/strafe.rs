//! `strafe`: seed 002 (a Russian note on QuakeWorld air physics). Not a
//! car: a hover racer that moves like a QuakeWorld player, so strafe-jumping
//! ("распрыг") works. It computes in Quake units, 32 to the metre (a power
//! of two, so converting to and from metres is exact).
//!
//! * Wish direction: forward input `(throttle - brake) * maxspeed` and side
//!   input `strafe * maxspeed` relative to where the pilot looks (turned by
//!   steer at `yaw_speed`); its length is clamped to `maxspeed`.
//! * Order of a step, as in QuakeWorld's pmove: jump, then ground friction
//!   (skipped on a step that jumps: hopping on every landing never touches
//!   friction), then acceleration.
//! * Frame friction: `drop = max(speed, stopspeed) * friction * grip * dt`
//!   (plus the surface's rolling resistance and drag), `speed -= drop`,
//!   never below zero.
//! * `PM_Accelerate`: `addspeed = wishspeed - dot(v, wishdir)`; if positive,
//!   `v += min(accelerate * grip * wishspeed * dt, addspeed) * wishdir`.
//! * `PM_AirAccelerate`: the same with `wishspd = min(wishspeed, 30)` in
//!   `addspeed` and `accelerate * wishspeed * dt` (uncapped wishspeed) as the
//!   step's most; no friction in the air.
//! * Gravity 800 u/s², jump speed 270 u/s; speed capped at `maxvelocity`.
//!
//! The automatic strafe controller picks the wish direction that gives the
//! most speed after the step. With `A = accelerate * wishspeed * dt` and
//! `u = |v| cos(gamma)`, one air step gives `|v'|^2 = |v|^2 + 2 a u + a^2`,
//! `a = min(A, 30 - u)`; the best is `u = max(0, 30 - A)`: a perpendicular
//! wish direction (`+900 u²` a step) when `A >= 30`, else `+A (60 - A)`.
//! The seed's own choice, `cos(gamma) = 15 / |v|`, gives `+675` at 77 Hz:
//! its first-order law counts only the part of the gain along `v`.

use glam::DVec2;

use super::model::{CarState, Controls, Footing, G, Model};
use crate::physics::car::{CarSpec, StrafeSpec};

/// Quake units per metre.
pub const UNITS: f64 = 32.0;

#[derive(Debug, Default)]
pub struct Strafe {
    /// Height above the frame, units.
    z: f64,
    /// Vertical speed, units/s.
    vz: f64,
    airborne: bool,
}

/// QuakeWorld's `PM_Accelerate`: velocity after accelerating towards
/// `wishdir` at `accel` for `dt`.
pub fn accelerate(v: DVec2, wishdir: DVec2, wishspeed: f64, accel: f64, dt: f64) -> DVec2 {
    let add = wishspeed - v.dot(wishdir);
    if add <= 0.0 {
        return v;
    }
    v + wishdir * (accel * wishspeed * dt).min(add)
}

/// QuakeWorld's `PM_AirAccelerate`: as [`accelerate`], but the speed it
/// accelerates towards is capped at `cap` (30).
pub fn air_accelerate(
    v: DVec2,
    wishdir: DVec2,
    wishspeed: f64,
    accel: f64,
    cap: f64,
    dt: f64,
) -> DVec2 {
    let add = wishspeed.min(cap) - v.dot(wishdir);
    if add <= 0.0 {
        return v;
    }
    v + wishdir * (accel * wishspeed * dt).min(add)
}

/// The wish direction giving the most speed after one air step, turned
/// towards `side` (+1 right of `v`, -1 left).
pub fn best_air_wishdir(v: DVec2, wishspeed: f64, p: &StrafeSpec, dt: f64, side: f64) -> DVec2 {
    let speed = v.length();
    if speed < 1e-9 {
        return DVec2::ZERO;
    }
    let a = p.airaccelerate * wishspeed * dt;
    let u = (p.air_wishspeed - a).max(0.0);
    let cos = (u / speed).min(1.0);
    let gamma = crate::base::trig::acos(cos) * side;
    crate::base::trig::dir(gamma).rotate(v / speed)
}

/// QuakeWorld ground friction (seed 002): the speed after one step.
pub fn friction(speed: f64, p: &StrafeSpec, grip: f64, dt: f64) -> f64 {
    let drop = speed.max(p.stopspeed) * p.friction * grip * dt;
    (speed - drop).max(0.0)
}

impl Model for Strafe {
    fn airborne(&self) -> bool {
        self.airborne
    }

    fn step(&mut self, car: &mut CarState, spec: &CarSpec, c: &Controls, at: &Footing, dt: f64) {
        let p = &spec.strafe;
        let body = &mut car.body;
        body.yaw_rate = c.steer * p.yaw_speed_deg.to_radians();
        let look = crate::base::trig::turn(at.fwd, body.yaw_rate * dt);
        let mut v = body.vel * UNITS;

        let wish = look * (c.throttle - c.brake) * p.maxspeed + look.perp() * c.strafe * p.maxspeed;
        let length = wish.length();
        let (mut wishdir, mut wishspeed) = match 1.0 / length {
            per if per.is_finite() && per > 0.0 => (wish * per, length.min(p.maxspeed)),
            _ => (DVec2::ZERO, 0.0),
        };

        let jumped = !self.airborne && c.jump;
        if jumped {
            self.vz = p.jump_speed;
            self.airborne = true;
        }
        let grip = at.grip;
        if self.airborne {
            if c.autostrafe {
                wishspeed = p.maxspeed;
                let side = if v.perp().dot(look) >= 0.0 { 1.0 } else { -1.0 };
                wishdir = best_air_wishdir(v, wishspeed, p, dt, side);
                if wishdir == DVec2::ZERO {
                    wishdir = look;
                }
            }
            v = air_accelerate(v, wishdir, wishspeed, p.airaccelerate, p.air_wishspeed, dt);
            self.vz -= p.gravity * dt;
            self.z += self.vz * dt;
            if self.z <= 0.0 {
                self.z = 0.0;
                self.vz = 0.0;
                self.airborne = false;
            }
        } else {
            let speed = v.length();
            if speed > 0.0 {
                let rolling = at.rolling * G * UNITS * dt + at.drag * speed * dt;
                let new = (friction(speed, p, grip, dt) - rolling).max(0.0);
                v *= new / speed;
            }
            if c.autostrafe {
                (wishdir, wishspeed) = (look, p.maxspeed);
            }
            v = accelerate(v, wishdir, wishspeed, p.accelerate * grip, dt);
        }
        let speed = v.length();
        if speed > p.maxvelocity {
            v *= p.maxvelocity / speed;
        }
        body.vel = v / UNITS;
        let v_long = body.vel.dot(look);
        car.drive.follow(&spec.engine, v_long, c.throttle, c.brake);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_direction_is_perpendicular_when_the_step_can_add_30() {
        let p = StrafeSpec::default();
        let v = DVec2::new(600.0, 0.0);
        // At 77 Hz, A = 10 * 320 / 77 = 41.6 >= 30.
        let d = best_air_wishdir(v, 320.0, &p, 1.0 / 77.0, 1.0);
        assert!(d.dot(v).abs() < 1e-9);
        assert!(d.y > 0.0, "turned right (+y)");
        // At 120 Hz, A = 26.7: cos(gamma) = (30 - A) / |v|.
        let d = best_air_wishdir(v, 320.0, &p, 1.0 / 120.0, -1.0);
        assert!((d.dot(v) / 600.0 - (30.0 - 320.0 / 12.0) / 600.0).abs() < 1e-12);
        assert!(d.y < 0.0);
    }
}
