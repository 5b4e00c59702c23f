//! Trigonometry for everything that decides where a car goes.
//!
//! The platform's maths library may pick different code for the same
//! function by CPU (glibc chooses FMA variants at run time), so the same
//! inputs could give different bits on two machines. The `libm` crate, a
//! Rust port of musl's, is the same code everywhere: traces are identical
//! across machines, not just across runs.

use glam::DVec2;

/// The unit vector at `angle` radians from +x towards +y.
pub fn dir(angle: f64) -> DVec2 {
    let (s, c) = libm::sincos(angle);
    DVec2::new(c, s)
}

pub fn sin_cos(angle: f64) -> (f64, f64) {
    libm::sincos(angle)
}

pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}
