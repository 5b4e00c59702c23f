//! Target speeds along a racing line ([`super::line`]): `v = sqrt(a_lat
//! grip / kappa)` with the curvature `kappa` of the line around each
//! point (Menger, over the points three either side), never above the top
//! speed, then a backward pass so the car can brake from one point's
//! speed to the next's at `a_brake` (`v_i^2 <= v_{i+1}^2 + 2 a_brake grip
//! ds`), twice round the loop.

use glam::DVec2;

use super::parts::{in_parts, part_len};
use super::smooth::{SPACING, wrap};
use crate::track::Track;

/// Target speeds along the line.
pub(super) fn speeds(track: &Track, pts: &[DVec2], a_lat: f64, a_brake: f64, top: f64) -> Vec<f64> {
    let n = pts.len();
    let k = 3;
    // The surface under each point, looked up once (`u8::MAX`: none, grip
    // 1), a byte a point.
    let mut surface = vec![u8::MAX; n];
    let grip = |s: u8| track.surfaces.get(usize::from(s)).map_or(1.0, |s| s.grip);
    // Cornering: in parts at once on a long line.
    let mut v = vec![0.0; n];
    let size = part_len(n);
    let runs = v.chunks_mut(size).zip(surface.chunks_mut(size)).enumerate();
    in_parts(runs, |(run, (v, surface))| {
        for (j, (v, s)) in v.iter_mut().zip(surface).enumerate() {
            let i = run * size + j;
            if let Some((col, row)) = track.cell_at(pts[i]) {
                *s = track.surface_index(col, row).map_or(u8::MAX, |s| s as u8);
            }
            let around = [pts[wrap(i, -k, n)], pts[i], pts[wrap(i, k, n)]];
            *v = cornering(around, a_lat * grip(*s), top);
        }
    });
    // Braking, backwards round the loop.
    for _ in 0..2 {
        for i in (0..n).rev() {
            let next = v[(i + 1) % n];
            let reach = next * next + 2.0 * a_brake * grip(surface[i]) * SPACING;
            // Most points are slower than braking asks: no root to take.
            if v[i] * v[i] > reach * (1.0 - 1e-9) {
                v[i] = v[i].min(reach.sqrt());
            }
        }
    }
    v
}

/// The speed through the circle through three points at lateral
/// acceleration `a` (m/s²), at most `top`: `sqrt(a / kappa)`, with the
/// Menger curvature `kappa = 4 area / (product of the sides)`.
fn cornering([a, b, c]: [DVec2; 3], lateral: f64, top: f64) -> f64 {
    let area2 = ((b - a).perp_dot(c - a)).abs();
    let sides = a.distance(b) * b.distance(c) * c.distance(a);
    let kappa = if sides > 1e-9 {
        2.0 * area2 / sides
    } else {
        0.0
    };
    if kappa > 1e-6 {
        (lateral / kappa).sqrt().min(top)
    } else {
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    /// The speeds as the formulas say, on one thread, the surface looked
    /// up wherever it is needed and a root taken at every point.
    fn plainly(track: &Track, pts: &[DVec2], a_lat: f64, a_brake: f64, top: f64) -> Vec<f64> {
        let n = pts.len();
        let grip = |p: DVec2| track.surface_at(p).map_or(1.0, |s| s.grip);
        let mut v: Vec<f64> = (0..n)
            .map(|i| {
                let around = [pts[wrap(i, -3, n)], pts[i], pts[wrap(i, 3, n)]];
                cornering(around, a_lat * grip(pts[i]), top)
            })
            .collect();
        for _ in 0..2 {
            for i in (0..n).rev() {
                let next = v[(i + 1) % n];
                v[i] = v[i].min((next * next + 2.0 * a_brake * grip(pts[i]) * SPACING).sqrt());
            }
        }
        v
    }

    #[test]
    fn speeds_are_the_formulas_to_the_bit_on_short_and_long_lines() {
        // A wavy loop over the grandprix track (asphalt, grass, gravel,
        // walls and off the map), short and long enough to be worked on in
        // parts.
        let t = bundled::load("grandprix").unwrap();
        let size = t.size_m();
        for n in [50, 3000, 70_001] {
            let pts: Vec<DVec2> = (0..n)
                .map(|i| {
                    let a = f64::from(i) / f64::from(n) * std::f64::consts::TAU;
                    let r = 0.45 + 0.05 * (a * 37.0).sin() + 0.02 * (a * 611.0).cos();
                    size * 0.5 + DVec2::from_angle(a) * size * r
                })
                .collect();
            let fast = speeds(&t, &pts, 8.0, 6.0, 60.0);
            let plain = plainly(&t, &pts, 8.0, 6.0, 60.0);
            assert!(
                fast.iter()
                    .zip(&plain)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{n} points"
            );
            let (lo, hi) = plain.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
            assert!(lo < 0.8 * hi, "{lo} to {hi} m/s: the speeds vary");
        }
    }
}
