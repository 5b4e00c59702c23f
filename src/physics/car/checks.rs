//! What a car file's numbers may be: each number's range, in one table
//! that the checks, `skid cars` and the tests read, and the rules that
//! tie numbers to each other (the wheelbase within the body, the
//! redline above idle, ...).

use super::CarSpec;

/// One range rule: a dotted key path, the values it accepts, and how to
/// read the value from a spec.
struct Rule {
    path: &'static str,
    min: f64,
    max: f64,
    get: fn(&CarSpec) -> f64,
    set: fn(&mut CarSpec, f64),
}

macro_rules! rules {
    ($($sec:ident . $field:ident : $min:expr, $max:expr;)*) => {
        const RULES: &[Rule] = &[$(Rule {
            path: concat!(stringify!($sec), ".", stringify!($field)),
            min: $min,
            max: $max,
            get: |s: &CarSpec| s.$sec.$field,
            set: |s: &mut CarSpec, v: f64| s.$sec.$field = v,
        },)*];
    };
}

rules! {
    body.length: 0.3, 8.0;
    body.width: 0.3, 4.0;
    body.mass: 1.0, 50_000.0;
    body.inertia: 0.1, 1e6;
    body.wheelbase: 0.1, 8.0;
    body.cg_to_front: 0.0, 8.0;
    body.cg_height: 0.0, 3.0;
    body.max_steer_deg: 0.0, 60.0;
    body.steer_rate_deg: 1.0, 2000.0;
    engine.idle_rpm: 100.0, 20_000.0;
    engine.redline_rpm: 200.0, 25_000.0;
    engine.reverse: 0.05, 20.0;
    engine.differential: 0.1, 20.0;
    engine.efficiency: 0.05, 1.0;
    engine.wheel_radius: 0.05, 2.0;
    arcade.acceleration: 0.0, 100.0;
    arcade.max_speed: 0.5, 150.0;
    arcade.reverse_speed: 0.0, 150.0;
    arcade.steer_factor: 0.0, 3.0;
    arcade.steer_lerp: 0.0, 100.0;
    arcade.input_lerp: 0.1, 1000.0;
    arcade.lateral_friction: 0.0, 100.0;
    arcade.backwards_friction: 0.0, 100.0;
    arcade.handbrake_lateral: 0.0, 100.0;
    dynamic.c_drag: 0.0, 20.0;
    dynamic.mu: 0.05, 3.0;
    dynamic.cornering_front: 0.1, 100.0;
    dynamic.cornering_rear: 0.1, 100.0;
    dynamic.brake_force: 0.0, 1e6;
    dynamic.handbrake_grip: 0.0, 1.0;
    strafe.maxspeed: 1.0, 10_000.0;
    strafe.accelerate: 0.0, 100.0;
    strafe.airaccelerate: 0.0, 100.0;
    strafe.air_wishspeed: 0.0, 10_000.0;
    strafe.friction: 0.0, 100.0;
    strafe.stopspeed: 0.0, 10_000.0;
    strafe.maxvelocity: 1.0, 10_000.0;
    strafe.gravity: 1.0, 10_000.0;
    strafe.jump_speed: 0.0, 10_000.0;
    strafe.yaw_speed_deg: 0.0, 3600.0;
    kinematic.c_drag: 0.0, 20.0;
    kinematic.mu: 0.05, 3.0;
    kinematic.brake_decel: 0.0, 100.0;
    tire.max_forward_speed: 0.5, 150.0;
    tire.max_backward_speed: 0.0, 150.0;
    tire.drive_front: 0.0, 1e6;
    tire.drive_rear: 0.0, 1e6;
    tire.lateral_front: 0.0, 1e7;
    tire.lateral_rear: 0.0, 1e7;
    tire.drag: 0.0, 1e5;
    tire.angular_damping: 0.0, 1.0;
    tire.tire_inertia: 0.0, 1e4;
    tire.handbrake_lateral: 0.0, 1.0;
}

impl CarSpec {
    /// Every number a preset has a documented range for: its key path and
    /// the range.
    pub fn ranges() -> impl Iterator<Item = (&'static str, f64, f64)> {
        RULES.iter().map(|r| (r.path, r.min, r.max))
    }

    /// Sets the number at a key path that [`CarSpec::ranges`] names;
    /// returns whether there is one.
    pub fn set(&mut self, path: &str, v: f64) -> bool {
        RULES
            .iter()
            .find(|r| r.path == path)
            .map(|r| (r.set)(self, v))
            .is_some()
    }

    /// Whether every value is in its range (what [`CarSpec::parse`] checks).
    pub fn valid(&self) -> bool {
        self.problems().is_empty()
    }

    /// Every value out of range, as (key path, message); NaN is out of
    /// every range.
    pub(super) fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for r in RULES {
            let v = (r.get)(self);
            if !(v >= r.min && v <= r.max) {
                out.push((
                    r.path.to_string(),
                    format!(
                        "{} = {} is out of range: {} to {}",
                        r.path,
                        crate::base::diag::number(v),
                        r.min,
                        r.max
                    ),
                ));
            }
        }
        let b = &self.body;
        if b.cg_to_front > b.wheelbase {
            out.push((
                "body.cg_to_front".into(),
                "body.cg_to_front must not exceed body.wheelbase".into(),
            ));
        }
        if b.wheelbase > b.length {
            out.push((
                "body.wheelbase".into(),
                "body.wheelbase must not exceed body.length".into(),
            ));
        }
        let e = &self.engine;
        if e.redline_rpm <= e.idle_rpm {
            out.push((
                "engine.redline_rpm".into(),
                "engine.redline_rpm must be above engine.idle_rpm".into(),
            ));
        }
        if e.gears.is_empty() || e.gears.len() > 12 {
            out.push((
                "engine.gears".into(),
                "engine.gears needs 1 to 12 ratios".into(),
            ));
        }
        for (i, g) in e.gears.iter().enumerate() {
            if !(0.05..=20.0).contains(g) {
                out.push((
                    format!("engine.gears.{i}"),
                    format!(
                        "gear ratio {} is out of range: 0.05 to 20",
                        crate::base::diag::number(*g)
                    ),
                ));
            }
        }
        if e.torque_curve.is_empty() || e.torque_curve.len() > 64 {
            out.push((
                "engine.torque_curve".into(),
                "engine.torque_curve needs 1 to 64 [rpm, torque] points".into(),
            ));
        }
        let mut last = f64::NEG_INFINITY;
        for (i, [rpm, nm]) in e.torque_curve.iter().enumerate() {
            if !(rpm > &last && (0.0..=30_000.0).contains(rpm) && (0.0..=20_000.0).contains(nm)) {
                out.push((
                    format!("engine.torque_curve.{i}"),
                    "torque curve points are [rpm, N·m] with rpm ascending (0..30000) and torque 0..20000".into(),
                ));
            }
            last = *rpm;
        }
        let bad = |c: char| c.is_control() || crate::base::diag::is_bidi_control(c);
        if self.name.chars().any(bad) || self.name.len() > 40 {
            out.push((
                "name".into(),
                "name must be printable, without bidirectional controls, and at most 40 bytes"
                    .into(),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_obey_every_rule() {
        let spec = CarSpec::default();
        for r in RULES {
            let v = (r.get)(&spec);
            assert!(
                v >= r.min && v <= r.max,
                "default {} = {v} is outside its own range",
                r.path
            );
        }
    }
}
