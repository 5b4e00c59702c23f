//! The point of a closed line nearest a place, found without measuring
//! every point: a car far off the racing line (in a wall, across the
//! grass) looked for its place on the line through all of its points
//! every tick, a twentieth of a busy server's time (docs/BENCHMARKS.md,
//! "The nearest point of the line").
//!
//! Points in a row are never more than `step` apart, so a point `k`
//! places along from one at distance `d` is at least `d - k step` away:
//! while looking through the points in order, those that cannot beat the
//! nearest so far are stepped over. The answer is exactly the full
//! search's, the first nearest point.

use glam::DVec2;

/// The longest distance between points in a row, the last to the first
/// included (0 for fewer than two points).
pub fn longest_step(points: &[DVec2]) -> f64 {
    let n = points.len();
    if n < 2 {
        return 0.0;
    }
    (0..n)
        .map(|i| points[i].distance(points[(i + 1) % n]))
        .fold(0.0, f64::max)
}

/// Index of the first of `points` nearest `p` (0 if there are none or
/// `p` is not a place), `step` being their [`longest_step`].
pub fn nearest(points: &[DVec2], step: f64, p: DVec2) -> usize {
    // Compared as the full search compares, by squared distance.
    let (mut best_sq, mut best, mut at) = (f64::INFINITY, f64::INFINITY, 0);
    if !p.is_finite() {
        return 0;
    }
    // Without a usable step, every point is measured.
    let skips = step > 0.0 && step.is_finite();
    let mut i = 0;
    while i < points.len() {
        let d_sq = points[i].distance_squared(p);
        let d = d_sq.sqrt();
        if d_sq < best_sq {
            (best_sq, best, at) = (d_sq, d, i);
        }
        // Points within `k` of this one are at least `d - k step` away;
        // those that are surely farther than the best (a whole step
        // spared for rounding) are stepped over.
        let over = if skips {
            ((d - best) / step - 1.0).floor()
        } else {
            0.0
        };
        i += if over >= 1.0 {
            // Never past the end: `as` saturates a huge float.
            (over as usize).min(points.len())
        } else {
            1
        };
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first nearest, measuring every point.
    fn every(points: &[DVec2], p: DVec2) -> usize {
        (0..points.len())
            .min_by(|&a, &b| {
                let d = |i: usize| points[i].distance_squared(p);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0)
    }

    #[test]
    fn the_nearest_point_is_the_full_searchs_on_generated_lines() {
        let mut seed = 99u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..200 {
            // A wandering closed-ish line of uneven steps, and places
            // on it, near it and far away.
            let n = 1 + (next() * 300.0) as usize;
            let (mut at, mut heading) = (DVec2::ZERO, 0.0f64);
            let points: Vec<DVec2> = (0..n)
                .map(|_| {
                    heading += (next() - 0.5) * 1.5;
                    at += DVec2::new(heading.cos(), heading.sin()) * (next() * 3.0);
                    at
                })
                .collect();
            let step = longest_step(&points);
            for _ in 0..50 {
                let scale = [1.0, 10.0, 1000.0][(next() * 3.0) as usize];
                let p = DVec2::new(next() - 0.5, next() - 0.5) * scale * 2.0;
                assert_eq!(nearest(&points, step, p), every(&points, p), "{p:?}");
            }
            // Ties: a point's own place, and one the same distance from
            // two points.
            let k = (next() * n as f64) as usize % n;
            assert_eq!(nearest(&points, step, points[k]), every(&points, points[k]));
        }
        // Even steps, where the bound is tight: straight out and back,
        // and round a circle, seen from everywhere near.
        let out_and_back: Vec<DVec2> = (0..100)
            .chain((0..100).rev())
            .map(|k| DVec2::new(f64::from(k), 0.25))
            .collect();
        let circle: Vec<DVec2> = (0..120)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 120.0;
                DVec2::new(a.cos(), a.sin()) * 40.0
            })
            .collect();
        for points in [&out_and_back, &circle] {
            let step = longest_step(points);
            for x in -60..=110 {
                for y in -50..=50 {
                    let p = DVec2::new(f64::from(x), f64::from(y) * 1.3);
                    assert_eq!(nearest(points, step, p), every(points, p), "{p:?}");
                }
            }
        }
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let centre = DVec2::splat(0.5);
        assert_eq!(nearest(&square, longest_step(&square), centre), 0);
        assert_eq!(nearest(&[], 0.0, centre), 0);
        assert_eq!(nearest(&square, 1.0, DVec2::NAN), 0);
    }
}
