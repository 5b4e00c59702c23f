//! A centre line to a map of cells: the road along it, a run-off on
//! each side (gravel outside the corners, grass elsewhere), a wall
//! beyond; the finish line, the checkpoints and an ice patch across the
//! road and run-off by arc length, and the start slots behind the finish.

use glam::DVec2;

use super::shape::CentreLine;

/// A cell's size (m): a column is this wide, a row twice as tall.
pub const CELL: f64 = 2.0;
/// The run-off on each side of the road (m).
pub const RUNOFF: f64 = 6.0;
/// The wall's thickness (m): over a row's height, so a wall has no gap
/// whatever way it runs.
pub const WALL: f64 = 5.0;
/// Walls smaller than this many cells are cleared ([`clear_islands`]).
const ISLAND: usize = 12;
/// Start slots: a full grid.
pub const SLOTS: usize = 8;
/// Half the thickness of a line across the road (m): thick enough that
/// no path across slips between its cells, whatever way it runs.
const MARK_HALF: f64 = 2.5;
/// Corners whose curvature is over this (1/m) have gravel outside.
const GRAVEL_CURVE: f64 = 1.0 / 35.0;

/// The nearest part of the centre line to each cell.
struct Closest {
    /// Distance to the line (m); infinite: out of reach.
    d: Vec<f64>,
    /// The nearest point's index.
    at: Vec<usize>,
    /// Which side of the line (the sign of the cross product).
    left: Vec<bool>,
}

/// The map, row by row, of a line on `cols` x `rows` cells with a road
/// `half` metres each side of it, its finish at point `finish`, the
/// checkpoints at arc lengths `marks`, and ice round arc length `ice`.
pub struct Plan {
    pub cols: usize,
    pub rows: usize,
    pub half: f64,
    pub finish: usize,
    pub marks: Vec<f64>,
    pub ice: Option<f64>,
}

fn cell_centre(col: usize, row: usize) -> DVec2 {
    DVec2::new((col as f64 + 0.5) * CELL, (row as f64 + 0.5) * CELL * 2.0)
}

/// Each cell's nearest point of `line` within `reach` metres.
fn nearest(line: &CentreLine, cols: usize, rows: usize, reach: f64) -> Closest {
    let mut near = Closest {
        d: vec![f64::INFINITY; cols * rows],
        at: vec![0; cols * rows],
        left: vec![false; cols * rows],
    };
    let n = line.points.len();
    for i in 0..n {
        let (a, b) = (line.points[i], line.points[(i + 1) % n]);
        let (lo, hi) = (a.min(b) - reach, a.max(b) + reach);
        let c0 = (lo.x / CELL).floor().max(0.0) as usize;
        let c1 = ((hi.x / CELL).ceil().max(0.0) as usize).min(cols);
        let r0 = (lo.y / (CELL * 2.0)).floor().max(0.0) as usize;
        let r1 = ((hi.y / (CELL * 2.0)).ceil().max(0.0) as usize).min(rows);
        let ab = b - a;
        let len2 = ab.length_squared();
        for row in r0..r1 {
            for col in c0..c1 {
                let p = cell_centre(col, row);
                let t = if len2 > 0.0 {
                    ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let d = p.distance(a + ab * t);
                let k = row * cols + col;
                if d < near.d[k] {
                    near.d[k] = d;
                    near.at[k] = if t > 0.5 { (i + 1) % n } else { i };
                    near.left[k] = ab.perp_dot(p - a) > 0.0;
                }
            }
        }
    }
    near
}

/// The distance along the loop between arc lengths `a` and `b`.
fn apart(line: &CentreLine, a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(line.length);
    d.min(line.length - d)
}

/// The map `plan` draws of `line`, as rows of track characters.
pub fn paint(line: &CentreLine, plan: &Plan) -> Vec<Vec<u8>> {
    let (cols, rows, half) = (plan.cols, plan.rows, plan.half);
    let near = nearest(line, cols, rows, half + RUNOFF + WALL);
    let mut map = vec![vec![b' '; cols]; rows];
    for (k, cell) in map.iter_mut().flatten().enumerate() {
        let (d, at) = (near.d[k], near.at[k]);
        *cell = if d <= half {
            let icy = plan
                .ice
                .is_some_and(|ice| apart(line, line.s[at], ice) < 7.0);
            if icy { b'~' } else { b'.' }
        } else if d <= half + RUNOFF {
            let curve = line.curvature(at, 4);
            let outside = (curve > 0.0) != near.left[k];
            if outside && curve.abs() > GRAVEL_CURVE {
                b':'
            } else {
                b' '
            }
        } else if d <= half + RUNOFF + WALL {
            b'#'
        } else {
            b' '
        };
    }
    clear_islands(&mut map);
    let t = line.tangent(plan.finish);
    let finish = if t.x.abs() >= t.y.abs() { b'|' } else { b'=' };
    bar(line, plan.finish, finish, &near, &mut map, half);
    for (n, &s) in plan.marks.iter().enumerate() {
        bar(
            line,
            line.index_at(s),
            b'1' + n as u8,
            &near,
            &mut map,
            half,
        );
    }
    place_slots(line, plan, &mut map);
    map
}

/// Walls of fewer than [`ISLAND`] cells become grass: where two parts
/// of the loop meet, one's wall can be cut short by the other's run-off,
/// leaving a stub in the way that parts nothing.
fn clear_islands(map: &mut [Vec<u8>]) {
    let (rows, cols) = (map.len(), map.first().map_or(0, Vec::len));
    let mut seen = vec![false; rows * cols];
    for start in 0..rows * cols {
        if seen[start] || map[start / cols][start % cols] != b'#' {
            continue;
        }
        seen[start] = true;
        let (mut part, mut todo) = (vec![start], vec![start]);
        while let Some(k) = todo.pop() {
            let (r, c) = (k / cols, k % cols);
            let next = [
                (r > 0).then(|| k - cols),
                (r + 1 < rows).then(|| k + cols),
                (c > 0).then(|| k - 1),
                (c + 1 < cols).then(|| k + 1),
            ];
            for n in next.into_iter().flatten() {
                if !seen[n] && map[n / cols][n % cols] == b'#' {
                    seen[n] = true;
                    part.push(n);
                    todo.push(n);
                }
            }
        }
        if part.len() < ISLAND {
            for k in part {
                map[k / cols][k % cols] = b' ';
            }
        }
    }
}

/// Draws `mark` across the road and run-off at point `at`: a straight
/// bar square to the line, [`MARK_HALF`] each way along it, over every
/// cell short of the wall whose nearest point of the line is near `at`
/// (so no other part of the loop is marked).
fn bar(line: &CentreLine, at: usize, mark: u8, near: &Closest, map: &mut [Vec<u8>], half: f64) {
    let (p, t) = (line.points[at], line.tangent(at));
    let cols = map.first().map_or(0, Vec::len);
    for (k, cell) in map.iter_mut().flatten().enumerate() {
        let c = cell_centre(k % cols, k / cols) - p;
        if near.d[k] <= half + RUNOFF
            && c.dot(t).abs() < MARK_HALF
            && apart(line, line.s[near.at[k]], line.s[at]) < 20.0
        {
            *cell = mark;
        }
    }
}

/// The start slots, two by two behind the finish line, each facing the
/// race direction at the line (rounded to the nearest of the four).
fn place_slots(line: &CentreLine, plan: &Plan, map: &mut [Vec<u8>]) {
    let t = line.tangent(plan.finish);
    let slot = match (t.x.abs() >= t.y.abs(), t.x > 0.0, t.y > 0.0) {
        (true, true, _) => b'>',
        (true, false, _) => b'<',
        (false, _, true) => b'v',
        (false, _, false) => b'^',
    };
    let mut back = 7.0;
    for i in 0..SLOTS {
        let side = if i % 2 == 0 { -0.45 } else { 0.45 };
        // Further back, a metre and a half at a time, where a slot would
        // fall on a mark or off the road.
        for _ in 0..6 {
            let at = line.index_at(line.s[plan.finish] - back);
            let p = line.points[at] + line.tangent(at).perp() * (plan.half * side);
            let (col, row) = (
                (p.x.max(0.0) / CELL) as usize,
                (p.y.max(0.0) / (CELL * 2.0)) as usize,
            );
            if let Some(cell) = map.get_mut(row).and_then(|r| r.get_mut(col))
                && *cell == b'.'
            {
                *cell = slot;
                break;
            }
            back += 1.5;
        }
        back += 5.5;
    }
}
