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
        let (q, qt) = (quarters as f64 * PIO2_1, quarters as f64 * PIO2_1T);
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

#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

#[inline]
pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}

#[cfg(test)]
mod tests {
    use super::*;

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
