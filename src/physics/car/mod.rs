//! Car presets: TOML files describing a car's body, engine and the
//! parameters of each physics model (serde, unknown keys rejected, ranges
//! validated with `path:line:col:` errors).
//!
//! Every section has defaults, so a preset can name only what it changes and
//! any car can be driven with any model: a preset's `model` is the one it is
//! tuned for, `--model` may pick another, and `m` in the game switches live.

mod checks;

use serde::{Deserialize, Serialize};

use crate::base::diag::{self, Diagnostics};
use crate::physics::models::ModelKind;

/// (name, TOML) of every bundled preset.
pub const PRESETS: &[(&str, &str)] = &[
    ("hatch", include_str!("../../../cars/hatch.toml")),
    (
        "corvette-c5",
        include_str!("../../../cars/corvette-c5.toml"),
    ),
    ("quake", include_str!("../../../cars/quake.toml")),
    ("kart", include_str!("../../../cars/kart.toml")),
    ("iforce2d", include_str!("../../../cars/iforce2d.toml")),
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CarSpec {
    pub name: String,
    /// The model this car is tuned for.
    pub model: ModelKind,
    pub description: String,
    pub body: BodySpec,
    pub engine: EngineSpec,
    pub arcade: ArcadeSpec,
    pub dynamic: DynamicSpec,
    pub strafe: StrafeSpec,
    pub kinematic: KinematicSpec,
    pub tire: TireSpec,
}

/// Size, mass and steering geometry, shared by every model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BodySpec {
    /// Footprint in metres: the box that collides with walls.
    pub length: f64,
    pub width: f64,
    /// kg.
    pub mass: f64,
    /// Yaw moment of inertia, kg m².
    pub inertia: f64,
    /// Front to rear axle, m.
    pub wheelbase: f64,
    /// Centre of gravity to front axle (seed 001's `b`), m; the rear axle is
    /// `wheelbase - cg_to_front` behind it (`c`).
    pub cg_to_front: f64,
    /// Centre of gravity height, m: longitudinal weight transfer.
    pub cg_height: f64,
    /// Front wheels' lock angle, degrees.
    pub max_steer_deg: f64,
    /// How fast the front wheels turn, degrees per second.
    pub steer_rate_deg: f64,
}

/// Engine and gearbox (seed 001): drives `dynamic` and `kinematic`; the
/// other models' rpm and gear follow their wheel speed through it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineSpec {
    /// (rpm, N·m) points, rpm ascending; interpolated, held at the first
    /// point's torque below it.
    pub torque_curve: Vec<[f64; 2]>,
    pub idle_rpm: f64,
    pub redline_rpm: f64,
    /// Forward gear ratios, first gear first.
    pub gears: Vec<f64>,
    pub reverse: f64,
    pub differential: f64,
    pub efficiency: f64,
    /// m.
    pub wheel_radius: f64,
}

/// Seed 000's arcade car: no mass, no forces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ArcadeSpec {
    /// m/s² at full throttle.
    pub acceleration: f64,
    pub max_speed: f64,
    pub reverse_speed: f64,
    /// Radians the forward vector is turned towards at full steer and top
    /// speed.
    pub steer_factor: f64,
    /// 1/s: how fast forward eases towards the turned vector.
    pub steer_lerp: f64,
    /// 1/s: how fast the steer and throttle inputs ease towards the keys.
    pub input_lerp: f64,
    /// 1/s: lateral friction; small values drift.
    pub lateral_friction: f64,
    /// 1/s: friction along the motion.
    pub backwards_friction: f64,
    /// 1/s: lateral friction with the handbrake pulled.
    pub handbrake_lateral: f64,
}

/// Seed 001's car: drivetrain, slip angles, yaw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DynamicSpec {
    /// `C_drag = 0.5 rho A Cd`, N/(m/s)².
    pub c_drag: f64,
    /// Tire friction coefficient.
    pub mu: f64,
    /// Lateral force per unit load per radian of slip, before saturation.
    pub cornering_front: f64,
    pub cornering_rear: f64,
    /// N at full brake.
    pub brake_force: f64,
    /// Rear lateral grip factor with the handbrake pulled (wheels locked).
    pub handbrake_grip: f64,
}

/// Seed 002's hover racer, in Quake units (32 to the metre).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StrafeSpec {
    pub maxspeed: f64,
    pub accelerate: f64,
    pub airaccelerate: f64,
    /// The air wish speed cap (QuakeWorld: 30).
    pub air_wishspeed: f64,
    pub friction: f64,
    pub stopspeed: f64,
    pub maxvelocity: f64,
    pub gravity: f64,
    pub jump_speed: f64,
    /// Degrees per second the view turns at full steer.
    pub yaw_speed_deg: f64,
}

/// Seed 003's bicycle geometry: no slip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KinematicSpec {
    pub c_drag: f64,
    /// Friction coefficient: caps drive and braking at `mu * grip * g`.
    pub mu: f64,
    /// m/s² at full brake (times the surface's grip).
    pub brake_decel: f64,
}

/// Seed 004's four tires on a chassis (iforce2d's top-down car).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TireSpec {
    /// m/s: the drive pushes towards these speeds.
    pub max_forward_speed: f64,
    pub max_backward_speed: f64,
    /// N per tire.
    pub drive_front: f64,
    pub drive_rear: f64,
    /// The lateral impulse cap per tire, as a force (N): the per-step cap
    /// is this times `dt`, so the car behaves alike at any step rate.
    pub lateral_front: f64,
    pub lateral_rear: f64,
    /// Rolling drag per tire, N per m/s of forward speed.
    pub drag: f64,
    /// Fraction of a tire's spin damped per 1/60 s (the tutorial's 0.1).
    pub angular_damping: f64,
    /// kg m² of each tire: what the damping acts on.
    pub tire_inertia: f64,
    /// Rear lateral cap factor with the handbrake pulled.
    pub handbrake_lateral: f64,
}

impl Default for CarSpec {
    fn default() -> Self {
        CarSpec {
            name: "custom".into(),
            model: ModelKind::Arcade,
            description: String::new(),
            body: BodySpec::default(),
            engine: EngineSpec::default(),
            arcade: ArcadeSpec::default(),
            dynamic: DynamicSpec::default(),
            strafe: StrafeSpec::default(),
            kinematic: KinematicSpec::default(),
            tire: TireSpec::default(),
        }
    }
}

impl Default for BodySpec {
    fn default() -> Self {
        BodySpec {
            length: 4.4,
            width: 1.8,
            mass: 1200.0,
            inertia: 1600.0,
            wheelbase: 2.6,
            cg_to_front: 1.2,
            cg_height: 0.5,
            max_steer_deg: 32.0,
            steer_rate_deg: 160.0,
        }
    }
}

impl Default for EngineSpec {
    fn default() -> Self {
        EngineSpec {
            torque_curve: vec![
                [1000.0, 180.0],
                [3500.0, 240.0],
                [5500.0, 230.0],
                [7000.0, 190.0],
            ],
            idle_rpm: 900.0,
            redline_rpm: 7000.0,
            gears: vec![3.3, 2.1, 1.5, 1.15, 0.92],
            reverse: 3.2,
            differential: 3.9,
            efficiency: 0.8,
            wheel_radius: 0.31,
        }
    }
}

impl Default for ArcadeSpec {
    fn default() -> Self {
        ArcadeSpec {
            acceleration: 9.0,
            max_speed: 42.0,
            reverse_speed: 9.0,
            steer_factor: 0.5,
            steer_lerp: 5.0,
            input_lerp: 8.0,
            lateral_friction: 6.0,
            backwards_friction: 0.12,
            handbrake_lateral: 0.8,
        }
    }
}

impl Default for DynamicSpec {
    fn default() -> Self {
        DynamicSpec {
            c_drag: 0.42,
            mu: 1.0,
            cornering_front: 11.5,
            cornering_rear: 12.0,
            brake_force: 11000.0,
            handbrake_grip: 0.45,
        }
    }
}

impl Default for StrafeSpec {
    fn default() -> Self {
        StrafeSpec {
            maxspeed: 320.0,
            accelerate: 10.0,
            airaccelerate: 10.0,
            air_wishspeed: 30.0,
            friction: 4.0,
            stopspeed: 100.0,
            maxvelocity: 2000.0,
            gravity: 800.0,
            jump_speed: 270.0,
            yaw_speed_deg: 140.0,
        }
    }
}

impl Default for KinematicSpec {
    fn default() -> Self {
        KinematicSpec {
            c_drag: 0.4,
            mu: 1.0,
            brake_decel: 9.0,
        }
    }
}

impl Default for TireSpec {
    fn default() -> Self {
        TireSpec {
            max_forward_speed: 32.5,
            max_backward_speed: 5.2,
            drive_front: 2685.0,
            drive_rear: 1611.0,
            lateral_front: 2420.0,
            lateral_rear: 2740.0,
            drag: 83.0,
            angular_damping: 0.1,
            tire_inertia: 2.7,
            handbrake_lateral: 0.3,
        }
    }
}

impl CarSpec {
    /// The preset's content, as records key it: a hash of its complete
    /// TOML (16 hex digits), so an edited preset is another car whatever
    /// its name.
    pub fn content_id(&self) -> String {
        format!("{:016x}", crate::track::fnv1a(self.to_toml().as_bytes()))
    }

    /// Parses and validates a preset. `path` names the file in errors.
    pub fn parse(path: &str, text: &str) -> Result<CarSpec, Diagnostics> {
        let spec: CarSpec =
            toml::from_str(text).map_err(|e| vec![diag::from_toml(path, text, 1, &e)])?;
        let problems = spec.problems();
        if problems.is_empty() {
            return Ok(spec);
        }
        Err(diag::at_keys(path, text, problems).into())
    }

    /// The preset as TOML, every field written out: it loads back equal.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a car spec always serialises")
    }

    /// A bundled preset by name.
    pub fn bundled(name: &str) -> Option<CarSpec> {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
        CarSpec::parse(&format!("cars/{name}.toml"), text).ok()
    }

    /// The bundled preset tuned for a model.
    pub fn default_for(kind: ModelKind) -> CarSpec {
        let name = match kind {
            ModelKind::Arcade => "hatch",
            ModelKind::Dynamic => "corvette-c5",
            ModelKind::Strafe => "quake",
            ModelKind::Kinematic => "kart",
            ModelKind::Tire => "iforce2d",
        };
        CarSpec::bundled(name).unwrap_or_default()
    }

    /// Distance from the centre of gravity to the rear axle (seed 001's `c`).
    pub fn cg_to_rear(&self) -> f64 {
        self.body.wheelbase - self.body.cg_to_front
    }
}
