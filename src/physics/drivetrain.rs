//! Engine and gearbox (seed 001, the straight-line part).
//!
//! * `torque_engine(rpm)`: a lookup in the torque curve, linearly
//!   interpolated, held at the first point's value below it and at the last
//!   above it.
//! * Drive force at the wheels (formula 7):
//!   `traction = torque_engine(rpm) * gear_ratio * differential *
//!   efficiency / wheel_radius`.
//! * `rpm = v_long / wheel_radius * gear_ratio * differential * 60 / 2π`,
//!   floored at idle and never above the redline (the rev limiter cuts the
//!   drive there).
//! * Automatic box: up a gear when rpm reaches the redline; down a gear when
//!   the speed drops below the top speed of the next lower gear. Seed 001
//!   gives the rule with no margin, which hunts between two gears when the
//!   car holds that very speed; here the downshift waits until 95% of it.
//!   After a shift `rpm_new = rpm_old * new_ratio / old_ratio`.
//! * Reverse: the automatic box selects it when the brake is held at a
//!   standstill and leaves it when the throttle is; in reverse the two
//!   pedals swap roles, so holding the brake key drives backwards.
//!
//! `dynamic` and `kinematic` are driven by it; the other models call
//! [`Drivetrain::follow`] so their rpm and gear follow the wheel speed.

use std::f64::consts::PI;

use crate::physics::car::EngineSpec;
use serde::{Deserialize, Serialize};

/// A gear change asked for once (`"up"` or `"down"` in scripts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shift {
    Up,
    Down,
}

/// rad/s of the wheels to rpm.
const RPM_PER_RAD_S: f64 = 60.0 / (2.0 * PI);
/// Below this speed (m/s) the car counts as standing, for reverse.
const STANDING: f64 = 0.5;
/// The downshift margin (see the module doc).
const DOWNSHIFT_AT: f64 = 0.95;

#[derive(Debug, Clone, PartialEq)]
pub struct Drivetrain {
    pub rpm: f64,
    /// -1 reverse, 0 neutral, 1..=gears.
    pub gear: i32,
    pub manual: bool,
    /// The current gear's numbers, kept between shifts.
    gearing: Gearing,
}

/// What a gear turns into, worked out once per shift rather than per step.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Gearing {
    /// The gear these numbers are for.
    gear: i32,
    /// The gear's ratio (reverse positive); 0 in neutral.
    ratio: f64,
    /// Engine rpm per m/s: `ratio * differential * 60 / 2π / wheel_radius`.
    rpm_per_speed: f64,
    /// Drive force per N·m of torque, signed by direction:
    /// `ratio * differential * efficiency / wheel_radius`.
    force_per_torque: f64,
    /// The automatic box shifts down below this speed (m/s).
    down_below: f64,
}

impl Gearing {
    fn of(e: &EngineSpec, gear: i32) -> Gearing {
        let ratio = match gear {
            g if g < 0 => e.reverse,
            0 => 0.0,
            g => e.gears[(g as usize - 1).min(e.gears.len() - 1)],
        };
        Gearing {
            gear,
            ratio,
            rpm_per_speed: ratio * e.differential * RPM_PER_RAD_S / e.wheel_radius,
            force_per_torque: ratio * e.differential * e.efficiency / e.wheel_radius
                * f64::from(gear.signum()),
            down_below: if gear > 1 {
                DOWNSHIFT_AT * Drivetrain::top_speed(e, gear as usize - 1)
            } else {
                f64::NEG_INFINITY
            },
        }
    }
}

/// Torque at an rpm from the engine's curve.
pub fn torque_at(e: &EngineSpec, rpm: f64) -> f64 {
    let curve = &e.torque_curve;
    let (Some(first), Some(last)) = (curve.first(), curve.last()) else {
        return 0.0;
    };
    if rpm <= first[0] {
        return first[1];
    }
    if rpm >= last[0] {
        return last[1];
    }
    // Curves are a handful of points; the rpm moves little between steps.
    for w in curve.windows(2) {
        let ([r0, t0], [r1, t1]) = (w[0], w[1]);
        if rpm < r1 {
            return t0 + (t1 - t0) * (rpm - r0) / (r1 - r0);
        }
    }
    last[1]
}

impl Drivetrain {
    pub fn new(e: &EngineSpec) -> Self {
        Drivetrain {
            rpm: e.idle_rpm,
            gear: 1,
            manual: false,
            gearing: Gearing::of(e, 1),
        }
    }

    /// The current gear's numbers: kept ones, unless the gear was changed
    /// from outside.
    #[inline]
    fn gearing(&self, e: &EngineSpec) -> Gearing {
        if self.gearing.gear == self.gear {
            self.gearing
        } else {
            Gearing::of(e, self.gear)
        }
    }

    /// Brings the kept gear numbers up to the current gear.
    #[inline]
    fn refresh(&mut self, e: &EngineSpec) {
        if self.gearing.gear != self.gear {
            self.gearing = Gearing::of(e, self.gear);
        }
    }

    /// The gear's ratio (positive, reverse included); 0 in neutral.
    pub fn ratio(&self, e: &EngineSpec) -> f64 {
        self.gearing(e).ratio
    }

    /// Speed at the redline in forward gear `g` (1-based).
    pub fn top_speed(e: &EngineSpec, g: usize) -> f64 {
        e.redline_rpm / (e.gears[g - 1] * e.differential * RPM_PER_RAD_S) * e.wheel_radius
    }

    /// Drive force at the wheels (N, along the car, negative in reverse)
    /// for a pedal `throttle` 0..1; none at the redline.
    pub fn traction(&self, e: &EngineSpec, throttle: f64) -> f64 {
        if self.rpm >= e.redline_rpm {
            return 0.0;
        }
        let g = self.gearing(e);
        if g.ratio == 0.0 {
            return 0.0;
        }
        torque_at(e, self.rpm) * g.force_per_torque * throttle
    }

    /// The pedals as (drive, brake): swapped in reverse, so the brake key
    /// drives backwards.
    pub fn pedals(&self, throttle: f64, brake: f64) -> (f64, f64) {
        if self.gear < 0 {
            (brake, throttle)
        } else {
            (throttle, brake)
        }
    }

    /// A manual shift (and a switch to the manual box).
    pub fn shift(&mut self, e: &EngineSpec, s: Shift) {
        self.manual = true;
        let top = e.gears.len() as i32;
        let gear = match s {
            Shift::Up => (self.gear + 1).min(top),
            Shift::Down => (self.gear - 1).max(-1),
        };
        self.set_gear(e, gear);
    }

    fn set_gear(&mut self, e: &EngineSpec, gear: i32) {
        let old = self.ratio(e);
        self.gear = gear;
        let new = self.ratio(e);
        if old > 0.0 && new > 0.0 {
            self.rpm = (self.rpm * new / old).clamp(e.idle_rpm, e.redline_rpm);
        }
    }

    /// After a step: shift automatically if the box is automatic, then set
    /// rpm from the wheel speed `v_long` (free revving with the throttle in
    /// neutral).
    pub fn update(&mut self, e: &EngineSpec, v_long: f64, throttle: f64, brake: f64) {
        if !self.manual {
            self.auto_shift(e, v_long, throttle, brake);
        }
        self.refresh(e);
        self.rpm = if self.gearing.ratio == 0.0 {
            e.idle_rpm + throttle * 0.8 * (e.redline_rpm - e.idle_rpm)
        } else {
            (v_long.abs() * self.gearing.rpm_per_speed).clamp(e.idle_rpm, e.redline_rpm)
        };
    }

    fn auto_shift(&mut self, e: &EngineSpec, v_long: f64, throttle: f64, brake: f64) {
        let top = e.gears.len() as i32;
        let standing = v_long.abs() < STANDING;
        match self.gear {
            g if g <= 0 => {
                if g < 0 && standing && throttle > 0.0 && brake == 0.0 || g == 0 && v_long >= 0.0 {
                    self.gear = 1;
                }
            }
            1 if standing && brake > 0.0 && throttle == 0.0 => self.gear = -1,
            g => {
                self.refresh(e);
                let rpm = v_long.abs() * self.gearing.rpm_per_speed;
                if g < top && rpm >= e.redline_rpm {
                    self.rpm = rpm;
                    self.set_gear(e, g + 1);
                } else if v_long < self.gearing.down_below {
                    self.rpm = rpm;
                    self.set_gear(e, g - 1);
                }
            }
        }
    }

    /// For models not driven by the engine: rpm and gear follow the wheel
    /// speed, so the tachometer and gear gauge still mean something.
    pub fn follow(&mut self, e: &EngineSpec, v_long: f64, throttle: f64, brake: f64) {
        if !self.manual {
            if v_long < -STANDING {
                self.gear = -1;
            } else if self.gear <= 0 && v_long > STANDING {
                self.gear = 1;
            }
        }
        self.update(e, v_long, throttle, brake);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::car::CarSpec;

    fn c5() -> EngineSpec {
        CarSpec::bundled("corvette-c5").unwrap().engine
    }

    #[test]
    fn the_torque_curve_interpolates_and_holds_at_its_ends() {
        let e = c5();
        assert_eq!(torque_at(&e, 500.0), e.torque_curve[0][1]);
        assert_eq!(torque_at(&e, 4400.0), 475.0);
        let mid = torque_at(&e, 3450.0);
        assert!(mid > 448.0 && mid < 475.0, "{mid}");
        assert_eq!(torque_at(&e, 9000.0), e.torque_curve.last().unwrap()[1]);
    }

    #[test]
    fn upshift_at_the_redline_scales_rpm_by_the_ratio() {
        let e = c5();
        let mut d = Drivetrain::new(&e);
        let v = Drivetrain::top_speed(&e, 1);
        d.update(&e, v, 1.0, 0.0);
        assert_eq!(d.gear, 2);
        let expected = e.redline_rpm * e.gears[1] / e.gears[0];
        assert!((d.rpm - expected).abs() < 1e-6, "{} vs {expected}", d.rpm);
    }

    #[test]
    fn downshift_below_the_lower_gears_top_speed() {
        let e = c5();
        let mut d = Drivetrain::new(&e);
        d.gear = 3;
        let top2 = Drivetrain::top_speed(&e, 2);
        d.update(&e, top2 * 0.99, 0.0, 0.0);
        assert_eq!(d.gear, 3, "within the margin: no hunting");
        d.update(&e, top2 * 0.9, 0.0, 0.0);
        assert_eq!(d.gear, 2);
    }

    #[test]
    fn brake_at_a_standstill_selects_reverse_and_throttle_leaves_it() {
        let e = c5();
        let mut d = Drivetrain::new(&e);
        d.update(&e, 0.0, 0.0, 1.0);
        assert_eq!(d.gear, -1);
        assert_eq!(
            d.pedals(0.0, 1.0),
            (1.0, 0.0),
            "the brake key drives backwards"
        );
        assert!(d.traction(&e, 1.0) < 0.0);
        d.update(&e, 0.0, 1.0, 0.0);
        assert_eq!(d.gear, 1);
    }

    #[test]
    fn rpm_never_passes_the_redline_and_the_limiter_cuts_drive() {
        let e = c5();
        let mut d = Drivetrain::new(&e);
        d.manual = true;
        d.update(&e, 200.0, 1.0, 0.0);
        assert_eq!(d.rpm, e.redline_rpm);
        assert_eq!(d.traction(&e, 1.0), 0.0);
    }
}
