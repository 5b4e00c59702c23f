//! Gates: where the racing line ([`super::line`]) crosses a mark drawn
//! across only part of the road with too little of the mark either side
//! of it, a driver aims at a point of the mark instead of following the
//! line, and the line is pinned to that point.

use glam::DVec2;

use super::parts::{in_parts, part_len};
use super::smooth::{SPACING, wrap};
use crate::track::{Mark, Track};

/// A cell's column and row.
type Cell = (usize, usize);

/// How far along a mark its gate looks for the mark's middle, metres.
const GATE_REACH: f64 = 6.0;
/// How far either side of the line a mark must reach for a driver to
/// cross it without aiming, metres: a driver following the line by pure
/// pursuit cuts inside a curve by a car's width and more (2.5 m let
/// `dynamic` pass under the end of a finish line on a bend).
const GATE_SLACK: f64 = 5.0;

/// Where the line crosses a mark that does not reach [`GATE_SLACK`]
/// metres either side of it (or would miss it): the point the line is
/// pinned to, the index of that point, and the line's direction there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gate {
    pub index: usize,
    pub at: DVec2,
    pub dir: DVec2,
}

/// A mark the line must cross, and where: the mark's cells there, and the
/// index of the path's cell that reaches it.
pub(super) struct Crossing {
    pub(super) mark: Mark,
    /// The corners of the rectangle around all the mark's cells, m.
    pub(super) bounds: [DVec2; 2],
    /// The mark's cell where the path reaches it (on the grid the path
    /// was searched on).
    pub(super) at: Cell,
    /// The centres of the mark's cells where the path reaches it.
    pub(super) cells: Vec<DVec2>,
    pub(super) index: usize,
    /// The path's direction there.
    pub(super) dir: DVec2,
}

/// The cells of `mark` within [`GATE_REACH`] metres of cell `(c, r)`.
pub(super) fn mark_near(track: &Track, mark: Mark, (c, r): (usize, usize)) -> Vec<DVec2> {
    let here = track.cell_center(c, r);
    let cs = track.cell_size();
    let (dc, dr) = (
        (GATE_REACH / cs.x).ceil() as usize,
        (GATE_REACH / cs.y).ceil() as usize,
    );
    (r.saturating_sub(dr)..(r + dr + 1).min(track.height))
        .flat_map(|row| {
            (c.saturating_sub(dc)..(c + dc + 1).min(track.width)).map(move |col| (col, row))
        })
        .filter(|&(col, row)| track.mark_of(col, row) == mark)
        .map(|(col, row)| track.cell_center(col, row))
        .filter(|p| p.distance(here) <= GATE_REACH)
        .collect()
}

/// The gate of a crossing the smoothed line `points` does not cross with
/// room to spare, on the line resampled from the path (`raw`, its cells'
/// centres `centre(k)`) before it is smoothed again pinned to it.
pub(super) fn gate(
    track: &Track,
    c: &Crossing,
    centre: impl Fn(usize) -> DVec2,
    points: &[DVec2],
    raw: &[DVec2],
) -> Gate {
    // Pinned to the mark's cell nearest the line as it was (the
    // least change to the way the line runs there) of those
    // farthest from a wall, up to two cells.
    let index = arc_index(c.index, centre, raw.len());
    let away = |p: &DVec2| {
        (-8..=8)
            .map(|d| points[wrap(index, d, points.len())].distance_squared(*p))
            .fold(f64::INFINITY, f64::min)
    };
    // Of the cells two from a wall, if any.
    let room = |p: &DVec2| {
        track
            .cell_at(*p)
            .map_or(0, |(col, row)| track.clearance_cells(col, row).min(2))
    };
    let best = c.cells.iter().map(room).max().unwrap_or(0);
    let at = c
        .cells
        .iter()
        .filter(|p| room(p) == best)
        .min_by(|a, b| away(a).total_cmp(&away(b)))
        .copied()
        .unwrap_or(raw[index]);
    Gate {
        index,
        at,
        dir: c.dir,
    }
}

/// The corners of the rectangle around `cells` and a cell more each way,
/// m (empty: nowhere).
pub(super) fn bounds(track: &Track, cells: &[Cell]) -> [DVec2; 2] {
    let cs = track.cell_size();
    let corner = |(c, r): Cell| DVec2::new(c as f64, r as f64) * cs;
    cells
        .iter()
        .fold([DVec2::INFINITY, DVec2::NEG_INFINITY], |[lo, hi], &cell| {
            [lo.min(corner(cell) - cs), hi.max(corner(cell) + 2.0 * cs)]
        })
}

/// The crossings of `crossings` that the closed line `pts` does not cross
/// with room to spare ([`slack`] at none of its points), found in one pass
/// over the line: a line winding over a whole map is read once, not once a
/// mark.
pub(super) fn loose<'c>(
    track: &Track,
    crossings: &'c [Crossing],
    pts: &[DVec2],
) -> Vec<&'c Crossing> {
    let n = pts.len();
    let size = part_len(n);
    let spare = in_parts((0..n).step_by(size), |start| {
        let mut spare = vec![false; crossings.len()];
        for i in start..(start + size).min(n) {
            // Most of a long line is nowhere near any mark.
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let (lo, hi) = (a.min(b), a.max(b));
            for (crossing, spare) in crossings.iter().zip(&mut spare) {
                let [c_lo, c_hi] = crossing.bounds;
                if !*spare
                    && hi.cmpge(c_lo).all()
                    && lo.cmple(c_hi).all()
                    && slack(track, crossing, pts, i)
                {
                    *spare = true;
                }
            }
        }
        spare
    });
    crossings
        .iter()
        .enumerate()
        .filter_map(|(k, crossing)| spare.iter().all(|part| !part[k]).then_some(crossing))
        .collect()
}

/// Whether the closed line `pts` crosses the mark of `crossing` with room
/// to spare from its point `i` to the next (near the mark: the caller
/// skips the rest): the line shifted
/// [`GATE_SLACK`] metres or less to either side, near where it crosses,
/// still crosses the mark (or runs into what no car drives on), so a
/// driver following it roughly crosses the mark too.
fn slack(track: &Track, crossing: &Crossing, pts: &[DVec2], i: usize) -> bool {
    let n = pts.len();
    let mark = crossing.mark;
    // Whether the segment from `a` to `b` passes a cell `hit` accepts.
    let passes = |a: DVec2, b: DVec2, hit: &dyn Fn(usize, usize) -> bool| {
        let mut found = false;
        track.cells_crossed(a, b, |c, r| found |= hit(c, r));
        found
    };
    let on_mark = |c: usize, r: usize| track.mark_of(c, r) == mark;
    let blocked = |c: usize, r: usize| on_mark(c, r) || !track.drivable(c, r);
    if !passes(pts[i], pts[(i + 1) % n], &on_mark) {
        return false;
    }
    // The line's points around the crossing, shifted as one along the
    // normal of the crossing: a point's own normal turns at a kink,
    // and the copies shifted that way sweep across the mark.
    let normal = (pts[wrap(i, 1, n)] - pts[i]).normalize_or_zero().perp();
    let near: Vec<DVec2> = (-3..=4).map(|d| pts[wrap(i, d, n)]).collect();
    (1..=5).all(|s| {
        [-1.0, 1.0].iter().all(|side| {
            let off = normal * (side * GATE_SLACK * f64::from(s) / 5.0);
            near.windows(2)
                .any(|w| passes(w[0] + off, w[1] + off, &blocked))
        })
    })
}

/// The index among `n` points resampled ([`super::smooth::resample`]) from the polyline
/// `at(0)`, `at(1)`, ... of the one nearest `at(k)`.
fn arc_index(k: usize, at: impl Fn(usize) -> DVec2, n: usize) -> usize {
    let along: f64 = (0..k).map(|j| at(j).distance(at(j + 1))).sum();
    (along / SPACING).round() as usize % n.max(1)
}
