//! The five physics models by name ([`ModelKind`]): what a car preset says
//! it is for, what the menu and the command line offer, and what
//! [`crate::physics`] builds. Apart from the physics so that the presets
//! ([`crate::physics::car`]), which the physics reads, need not read the physics.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The five physics models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    #[default]
    Arcade,
    Dynamic,
    Strafe,
    Kinematic,
    Tire,
}

impl ModelKind {
    pub const ALL: [ModelKind; 5] = [
        ModelKind::Arcade,
        ModelKind::Dynamic,
        ModelKind::Strafe,
        ModelKind::Kinematic,
        ModelKind::Tire,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Arcade => "arcade",
            ModelKind::Dynamic => "dynamic",
            ModelKind::Strafe => "strafe",
            ModelKind::Kinematic => "kinematic",
            ModelKind::Tire => "tire",
        }
    }

    /// What driving it feels like, in one line for the title menu.
    pub fn feel(self) -> &'static str {
        match self {
            ModelKind::Arcade => "no mass, turns on rails; handbrake drifts",
            ModelKind::Dynamic => "rear drive, six gears, wheelspin, slip",
            ModelKind::Strafe => "Quake hover: hop and air-strafe for speed",
            ModelKind::Kinematic => "bicycle geometry: no slip, exact turns",
            ModelKind::Tire => "Box2D car: four tires, grip that gives",
        }
    }

    /// The next model in [`ModelKind::ALL`], wrapping: the game's `m` key.
    pub fn next(self) -> ModelKind {
        let i = ModelKind::ALL.iter().position(|&k| k == self).unwrap_or(0);
        ModelKind::ALL[(i + 1) % ModelKind::ALL.len()]
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ModelKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ModelKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("unknown model {s:?} (models: arcade, dynamic, strafe, kinematic, tire)")
            })
    }
}
