//! The point of a closed line nearest a place, found without measuring
//! every point: a car far off the racing line (in a wall, across the
//! grass) looked for its place on the line through all of its points
//! every tick, a twentieth of a busy server's time (docs/BENCHMARKS.md,
//! "The nearest point of the line").
//!
//! The points are kept in square cells ([`Near`]); a search looks
//! through the cells round the place, ring by ring, and stops where no
//! point of a farther ring can be as near as the nearest found. The
//! answer is exactly the full search's, the first nearest point.

use glam::DVec2;

/// The fewest metres a cell is across: about as far as a car strays
/// from the line before it is looked for everywhere.
const CELL: f64 = 8.0;

/// What of a cell's width a search spares for rounding: a point is
/// taken to lie this much outside its cell (micrometres).
const SPARE: f64 = 1e-6;

/// A line's points by square cells (see the module's doc): for each
/// cell, row by row, the indexes of the points in it, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Near {
    /// The corner of the first cell.
    origin: DVec2,
    /// Metres across a cell.
    cell: f64,
    cols: usize,
    rows: usize,
    /// Where each cell's indexes start in `items`, and one past the last.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Near {
    /// The cells of `points` (those not finite are never the nearest and
    /// are left out): at least [`CELL`] metres across, and no more cells
    /// than one for every two points (a line of millions of points adds
    /// six bytes a point).
    pub fn new(points: &[DVec2]) -> Near {
        let finite = || points.iter().filter(|p| p.is_finite());
        let lo = finite().fold(DVec2::INFINITY, |a, &p| a.min(p));
        let hi = finite().fold(DVec2::NEG_INFINITY, |a, &p| a.max(p));
        let size = if lo.is_finite() { hi - lo } else { DVec2::ZERO };
        let most = (points.len() / 2).max(64) as f64;
        // No more than `most` cells in all, nor along either side (a
        // line along one axis has no area).
        let cell = CELL
            .max((size.x * size.y / most).sqrt())
            .max(size.max_element() / most);
        let cols = (size.x / cell) as usize + 1;
        let rows = (size.y / cell) as usize + 1;
        let mut near = Near {
            origin: if lo.is_finite() { lo } else { DVec2::ZERO },
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: Vec::new(),
        };
        // Counted, then filled: each cell's indexes in order.
        let at = |near: &Near, p: &DVec2| near.index(near.cell_of(*p));
        for p in finite() {
            let c = at(&near, p);
            near.starts[c + 1] += 1;
        }
        for c in 0..cols * rows {
            near.starts[c + 1] += near.starts[c];
        }
        let mut fill = near.starts.clone();
        let mut items = vec![0; near.starts[cols * rows] as usize];
        for (i, p) in points.iter().enumerate().filter(|(_, p)| p.is_finite()) {
            let c = at(&near, p);
            items[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        near.items = items;
        near
    }

    /// The cell (column, row) holding `p`, or the one nearest it.
    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let at = (p - self.origin) / self.cell;
        // Whole cells by truncation, which is the floor once clamped to
        // the cells (a call to the C library's `floor` a point otherwise).
        let clamp = |v: f64, n: usize| v.clamp(0.0, (n - 1) as f64) as usize;
        (clamp(at.x, self.cols), clamp(at.y, self.rows))
    }

    fn index(&self, (x, y): (usize, usize)) -> usize {
        y * self.cols + x
    }

    /// Index of the first of `points` (those this was made of) nearest
    /// `p`; 0 if there are none or `p` is not a place.
    pub fn nearest(&self, points: &[DVec2], p: DVec2) -> usize {
        if !p.is_finite() {
            return 0;
        }
        // Compared as the full search compares: by squared distance, the
        // first point of equal distance.
        let mut best = (f64::INFINITY, 0);
        let (cx, cy) = self.cell_of(p);
        let (cx, cy) = (cx as i64, cy as i64);
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        for k in 0.. {
            // A point in ring `k` is at least `k - 1` cells from the place
            // brought into the cells, which is nearer it than the place.
            let bound = ((k - 1) as f64 - SPARE).max(0.0) * self.cell;
            if bound * bound > best.0 {
                break;
            }
            let (x0, x1) = ((cx - k).max(0), (cx + k).min(cols - 1));
            let (y0, y1) = ((cy - k + 1).max(0), (cy + k - 1).min(rows - 1));
            let ends = [cy - k, cy + k]
                .into_iter()
                .take(if k == 0 { 1 } else { 2 });
            for y in ends.filter(|y| (0..rows).contains(y)) {
                for x in x0..=x1 {
                    self.look(points, p, (x as usize, y as usize), &mut best);
                }
            }
            for x in [cx - k, cx + k]
                .into_iter()
                .filter(|x| k > 0 && (0..cols).contains(x))
            {
                for y in y0..=y1 {
                    self.look(points, p, (x as usize, y as usize), &mut best);
                }
            }
            // Every cell looked at: the rings beyond hold none.
            if cx - k <= 0 && cy - k <= 0 && cx + k >= cols - 1 && cy + k >= rows - 1 {
                break;
            }
        }
        best.1
    }

    /// Measures the points of `cell` from `p` against `best` (squared
    /// distance, index), unless the cell is farther than it.
    fn look(&self, points: &[DVec2], p: DVec2, cell: (usize, usize), best: &mut (f64, usize)) {
        let lo = self.origin + DVec2::new(cell.0 as f64, cell.1 as f64) * self.cell;
        let hi = lo + DVec2::splat(self.cell);
        let spare = DVec2::splat(SPARE * self.cell);
        let gap = ((lo - p).max(p - hi) - spare).max(DVec2::ZERO);
        if gap.length_squared() > best.0 {
            return;
        }
        let c = self.index(cell);
        let (from, to) = (self.starts[c] as usize, self.starts[c + 1] as usize);
        for &i in &self.items[from..to] {
            let i = i as usize;
            let d_sq = points[i].distance_squared(p);
            if d_sq < best.0 || (d_sq == best.0 && i < best.1) {
                *best = (d_sq, i);
            }
        }
    }
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
            let near = Near::new(&points);
            for _ in 0..50 {
                let scale = [1.0, 10.0, 1000.0][(next() * 3.0) as usize];
                let p = DVec2::new(next() - 0.5, next() - 0.5) * scale * 2.0;
                assert_eq!(near.nearest(&points, p), every(&points, p), "{p:?}");
            }
            // Ties: a point's own place, and one the same distance from
            // two points.
            let k = (next() * n as f64) as usize % n;
            assert_eq!(near.nearest(&points, points[k]), every(&points, points[k]));
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
            let near = Near::new(points);
            for x in -60..=110 {
                for y in -50..=50 {
                    let p = DVec2::new(f64::from(x), f64::from(y) * 1.3);
                    assert_eq!(near.nearest(points, p), every(points, p), "{p:?}");
                }
            }
        }
        // Points as far apart as floats go: a few cells, the same answer.
        let far = [DVec2::new(-1e300, 0.0), DVec2::new(1e300, 5.0), DVec2::ZERO];
        let near = Near::new(&far);
        assert!(near.starts.len() < 1000);
        for p in [
            DVec2::new(-1e299, 0.0),
            DVec2::new(7.0, 1.0),
            DVec2::new(1e300, 0.0),
        ] {
            assert_eq!(near.nearest(&far, p), every(&far, p), "{p:?}");
        }
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let centre = DVec2::splat(0.5);
        assert_eq!(Near::new(&square).nearest(&square, centre), 0);
        assert_eq!(Near::new(&[]).nearest(&[], centre), 0);
        assert_eq!(Near::new(&square).nearest(&square, DVec2::NAN), 0);
    }
}
