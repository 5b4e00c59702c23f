//! Trigonometry for everything that decides where a car goes.
//!
//! The platform's maths library may pick different code for the same
//! function by CPU (glibc chooses FMA variants at run time), so the same
//! inputs could give different bits on two machines. The `libm` crate, a
//! Rust port of musl's, is the same code everywhere: traces are identical
//! across machines, not just across runs.
//!
//! Every step takes the sine and cosine of the heading (within pi) and of
//! small angles (a steering angle, a step's turn). For `|x| <= 5 pi/4`,
//! where musl's `sincos` needs at most its simplest argument reduction, that
//! reduction and its two kernel polynomials are repeated here, inlined: the
//! same arithmetic in the same order, so the same bits, without the calls.

use glam::DVec2;

/// The unit vector at `angle` radians from +x towards +y.
#[inline]
pub fn dir(angle: f64) -> DVec2 {
    let (s, c) = sin_cos(angle);
    DVec2::new(c, s)
}

/// `(sin x, cos x)`, bit for bit as `libm::sincos`.
#[inline]
pub fn sin_cos(x: f64) -> (f64, f64) {
    let bits = x.to_bits();
    let high = (bits >> 32) as u32 & 0x7fff_ffff;
    // |x| within pi/4 (musl's test on the high word), and not below
    // 2^-27 sqrt(2), where musl returns (x, 1) as the polynomials would.
    if (0x3e46_a09e..=0x3fe9_21fb).contains(&high) {
        return (kernel_sin(x, 0.0, false), kernel_cos(x, 0.0));
    }
    // |x| within 5 pi/4 (every heading), away from pi/2, where musl's
    // `rem_pio2` subtracts one or two quarter turns in two parts.
    if (0x3fe9_21fc..=0x400f_6a7a).contains(&high) && high & 0xf_ffff != 0x9_21fb {
        const PIO2_1: f64 = f64::from_bits(0x3ff9_21fb_5440_0000);
        const PIO2_1T: f64 = f64::from_bits(0x3dd0_b461_1a62_6331);
        let quarters: i32 = if high <= 0x4002_d97c { 1 } else { 2 };
        let (q, qt) = (f64::from(quarters) * PIO2_1, f64::from(quarters) * PIO2_1T);
        let (n, y0, y1) = if bits >> 63 == 0 {
            let z = x - q;
            let y0 = z - qt;
            (quarters, y0, (z - y0) - qt)
        } else {
            let z = x + q;
            let y0 = z + qt;
            (-quarters, y0, (z - y0) + qt)
        };
        let (s, c) = (kernel_sin(y0, y1, true), kernel_cos(y0, y1));
        return match n & 3 {
            0 => (s, c),
            1 => (c, -s),
            2 => (-s, -c),
            _ => (-c, s),
        };
    }
    libm::sincos(x)
}

/// musl's `__sin(x, y, iy)`: sine of `x + y` on |x| <= pi/4, `y` the tail
/// of a reduced argument when `tail` (FreeBSD `k_sin.c`).
#[inline]
fn kernel_sin(x: f64, y: f64, tail: bool) -> f64 {
    const S1: f64 = f64::from_bits(0xbfc5_5555_5555_5549);
    const S2: f64 = f64::from_bits(0x3f81_1111_1110_f8a6);
    const S3: f64 = f64::from_bits(0xbf2a_01a0_19c1_61d5);
    const S4: f64 = f64::from_bits(0x3ec7_1de3_57b1_fe7d);
    const S5: f64 = f64::from_bits(0xbe5a_e5e6_8a2b_9ceb);
    const S6: f64 = f64::from_bits(0x3de5_d93a_5acf_d57c);
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    if tail {
        x - ((z * (0.5 * y - v * r) - y) - v * S1)
    } else {
        x + v * (S1 + z * r)
    }
}

/// musl's `__cos(x, y)`: cosine of `x + y` on |x| <= pi/4 (FreeBSD
/// `k_cos.c`).
#[inline]
fn kernel_cos(x: f64, y: f64) -> f64 {
    const C1: f64 = f64::from_bits(0x3fa5_5555_5555_554c);
    const C2: f64 = f64::from_bits(0xbf56_c16c_16c1_5177);
    const C3: f64 = f64::from_bits(0x3efa_01a0_19cb_1590);
    const C4: f64 = f64::from_bits(0xbe92_7e4f_809c_52ad);
    const C5: f64 = f64::from_bits(0x3e21_ee9e_bdb4_b1c4);
    const C6: f64 = f64::from_bits(0xbda8_fae9_be88_38d4);
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// The unit vector `v` turned by `angle` radians (from +x towards +y), for
/// the small turn of one step: a car's forward vector is carried from step
/// to step this way rather than taken from its heading every step.
///
/// Below 1/16 rad (7.5 rad/s at 120 Hz) the sine and cosine come from
/// their Taylor series to the x^9 and x^10 terms (the first terms left out
/// are below 1e-19 of the result); larger turns use [`sin_cos`]. One Newton
/// step, `t (3 - |t|^2) / 2`, brings the result back to unit length, so
/// rounding does not make a carried vector drift in length.
#[inline]
pub fn turn(v: DVec2, angle: f64) -> DVec2 {
    let (s, c) = if angle.abs() < 1.0 / 16.0 {
        // Evaluated in pairs of terms (Estrin's scheme) for a shorter chain
        // of dependent operations.
        let z = angle * angle;
        let z2 = z * z;
        let s = (1.0 - z * (1.0 / 6.0))
            + z2 * ((1.0 / 120.0 - z * (1.0 / 5040.0)) + z2 * (1.0 / 362_880.0));
        let c = (1.0 - 0.5 * z)
            + z2 * ((1.0 / 24.0 - z * (1.0 / 720.0))
                + z2 * (1.0 / 40320.0 - z * (1.0 / 3_628_800.0)));
        (angle * s, c)
    } else {
        sin_cos(angle)
    };
    let t = DVec2::new(c, s).rotate(v);
    t * (1.5 - 0.5 * t.length_squared())
}

/// `atan2(y, x)`, bit for bit as `libm::atan2`. Slip angles and a step's
/// turn mostly ask for small angles with `x > 0`: there musl computes the
/// arctangent of `|y / x|` with one polynomial when the ratio is within
/// [2^-27, 0.4375) and gives it `y`'s sign; that case is inlined here.
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    if x > 0.0 && x < f64::INFINITY {
        let r = (y / x).abs();
        let high = (r.to_bits() >> 32) as u32;
        if (0x3e40_0000..0x3fdc_0000).contains(&high) {
            let z = kernel_atan(r);
            return if y.is_sign_negative() { -z } else { z };
        }
    }
    libm::atan2(y, x)
}

/// musl's `atan(x)` for 2^-27 <= x < 0.4375 (FreeBSD `s_atan.c`).
#[inline]
fn kernel_atan(x: f64) -> f64 {
    const AT: [f64; 11] = [
        f64::from_bits(0x3fd5_5555_5555_550d),
        f64::from_bits(0xbfc9_9999_9998_ebc4),
        f64::from_bits(0x3fc2_4924_9200_83ff),
        f64::from_bits(0xbfbc_71c6_fe23_1671),
        f64::from_bits(0x3fb7_45cd_c54c_206e),
        f64::from_bits(0xbfb3_b0f2_af74_9a6d),
        f64::from_bits(0x3fb1_0d66_a0d0_3d51),
        f64::from_bits(0xbfad_de2d_52de_fd9a),
        f64::from_bits(0x3fa9_7b4b_2476_0deb),
        f64::from_bits(0xbfa2_b444_2c6a_6c2f),
        f64::from_bits(0x3f90_ad3a_e322_da11),
    ];
    let z = x * x;
    let w = z * z;
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    x - x * (s1 + s2)
}

#[inline]
pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inlined arctangent is musl's to the bit, on both sides of each
    /// edge of its case and for every sign.
    #[test]
    fn atan2_is_libm_to_the_bit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200_000 {
            let x = f64::from_bits(0x3fe0_0000_0000_0000 + (next() >> 12)) * 40.0;
            let ratio = match next() % 4 {
                0 => 0.4375 * (1.0 + ((next() % 200) as f64 - 100.0) * 1e-9),
                1 => 2f64.powi(-27) * (1.0 + ((next() % 200) as f64 - 100.0) * 1e-9),
                2 => 1.0,
                _ => (next() % 1_000_000) as f64 / 1e6,
            };
            for (y, x) in [
                (x * ratio, x),
                (-x * ratio, x),
                (x * ratio, -x),
                (0.0, x),
                (x, 1.0),
            ] {
                let (ours, theirs) = (atan2(y, x), libm::atan2(y, x));
                assert_eq!(ours.to_bits(), theirs.to_bits(), "atan2({y}, {x})");
            }
        }
    }

    /// A vector carried through an hour of small turns stays a unit vector
    /// and stays within rounding of the summed angle's direction.
    #[test]
    fn turning_step_by_step_follows_the_summed_angle() {
        let (mut v, mut angle) = (DVec2::X, 0.0f64);
        for i in 0..432_000 {
            // Turns of up to 0.1 rad, both sides of the series' cut-off.
            let a = 0.1 * (f64::from(i) * 0.37).sin();
            v = turn(v, a);
            angle += a;
        }
        assert!((v.length() - 1.0).abs() < 1e-15, "{}", v.length());
        let exact = dir(angle);
        assert!((v - exact).length() < 1e-11, "{v} vs {exact}");
        for a in [1e-3, 0.02, 0.04, 0.062, 0.07, 0.3] {
            let (s, c) = sin_cos(a);
            let t = turn(DVec2::X, a);
            assert!((t.x - c).abs() < 2e-16 && (t.y - s).abs() < 2e-16, "{a}");
        }
    }

    /// The inlined kernels are musl's to the bit, wherever they are used,
    /// and the fallback covers the rest.
    #[test]
    fn sin_cos_is_libm_to_the_bit() {
        let mut x = -4.0f64;
        while x <= 4.0 {
            for x in [x, x * 1e-3, x * 1e-8, x * 1e-20] {
                let (s, c) = sin_cos(x);
                let (ls, lc) = libm::sincos(x);
                assert_eq!(
                    (s.to_bits(), c.to_bits()),
                    (ls.to_bits(), lc.to_bits()),
                    "{x}"
                );
            }
            x += 0.000_731;
        }
        for x in [
            0.0,
            -0.0,
            std::f64::consts::FRAC_PI_4,
            f64::MIN_POSITIVE,
            1e-300,
        ] {
            assert_eq!(sin_cos(x), libm::sincos(x), "{x}");
        }
        // Each edge between musl's cases (pi/4, 3 pi/4, 5 pi/4, near pi/2,
        // the tiny cut-off), from both sides, with scattered low words.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for high in [
            0x3e46_a09e,
            0x3fe9_21fb,
            0x3ff9_21fb,
            0x4002_d97c,
            0x400f_6a7a,
        ] {
            for h in [high - 1, high, high + 1] {
                for sign in [0u64, 1 << 63] {
                    for _ in 0..500 {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let x = f64::from_bits(sign | (h as u64) << 32 | (seed & 0xffff_ffff));
                        let (s, c) = sin_cos(x);
                        let (ls, lc) = libm::sincos(x);
                        assert_eq!((s.to_bits(), c.to_bits()), (ls.to_bits(), lc.to_bits()));
                    }
                }
            }
        }
    }
}
