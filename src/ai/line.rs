//! The racing line: a closed path around any valid track, from its walls,
//! surfaces and checkpoint order alone (no hand-placed waypoints).
//!
//! 1. Shortest paths (Dijkstra, 8-connected, over cells a car can reach)
//!    from the finish line to checkpoint 1, from 1 to 2, ..., and from the
//!    last back to the finish, joined into one loop. A cell costs its
//!    length in metres times a penalty for lying near a wall (`1 + 6 /
//!    clearance`, clearance in cells) and for low grip (`1 + 3 (1 - grip)`),
//!    so the line keeps to the middle of the road and off the grass.
//!    Direction: the first leg starts on the cells just past the finish
//!    (in the race direction) and the last ends on the cells just behind
//!    it, the line itself closed to both; and no leg may run back along the
//!    one before it (which on a symmetric course is as short as going on):
//!    the previous leg's corridor, its path widened by [`CORRIDOR`] metres
//!    but for its last [`OPEN`] metres, is closed to the next.
//! 2. Resampled every [`SPACING`] metres and smoothed (points pulled to the
//!    mean of their neighbours, a move kept only if it stays on a cell with
//!    room to spare), which turns the grid's staircase into curves.
//! 3. A speed for every point: `v = sqrt(a_lat grip / kappa)` with the
//!    curvature `kappa` of the line around it, then a backward pass so the
//!    car can brake from one point's speed to the next's at `a_brake`
//!    (`v_i^2 <= v_{i+1}^2 + 2 a_brake ds`), twice round the loop.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec2;

use crate::track::laps::{beside, cells_of};
use crate::track::{Mark, Track};

/// Metres between points of the line.
pub const SPACING: f64 = 2.0;
/// How far either side of a leg's path its corridor reaches, metres.
const CORRIDOR: f64 = 14.0;
/// How much of a leg's end stays open to the next leg, metres.
const OPEN: f64 = 20.0;

/// A closed racing line.
#[derive(Debug, Clone)]
pub struct Line {
    pub points: Vec<DVec2>,
    /// Target speed at each point, m/s.
    pub speeds: Vec<f64>,
}

/// The cells of a mark (the finish line or a checkpoint) a car can reach.
fn mark_cells(track: &Track, mark: Mark) -> Vec<(usize, usize)> {
    let mut cells = cells_of(track, mark);
    cells.retain(|&(c, r)| track.drivable(c, r));
    cells
}

/// Cost of driving through a cell, per metre.
fn penalty(track: &Track, c: usize, r: usize) -> f64 {
    let clear = track.clearance_cells(c, r).max(1) as f64;
    let grip = track.surface_of(c, r).map_or(1.0, |s| s.grip);
    (1.0 + 6.0 / clear) * (1.0 + 3.0 * (1.0 - grip).max(0.0))
}

/// Multi-source Dijkstra over the grid from `from`. `step(i, j, dc, dr)`
/// is the cost of moving from cell index `i` to its neighbour `j`
/// (`dc`, `dr` apart), or `None` where that move is closed; nothing
/// beyond `limit` is reached. Stops at the first cell `done` accepts,
/// returning it with the distances and predecessors.
fn dijkstra(
    track: &Track,
    from: &[(usize, usize)],
    diagonal: bool,
    limit: f64,
    step: impl Fn(usize, usize, isize, isize) -> Option<f64>,
    done: impl Fn(usize, f64) -> bool,
) -> (Vec<f64>, Vec<usize>, Option<usize>) {
    let (w, h) = (track.width, track.height);
    let mut dist = vec![f64::INFINITY; w * h];
    let mut prev = vec![usize::MAX; w * h];
    let mut heap = BinaryHeap::new();
    for &(c, r) in from {
        dist[r * w + c] = 0.0;
        heap.push(Reverse((0u64, r * w + c)));
    }
    let moves: &[(isize, isize)] = if diagonal {
        &[
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
            (1, 1),
        ]
    } else {
        &[(-1, 0), (1, 0), (0, -1), (0, 1)]
    };
    while let Some(Reverse((d, i))) = heap.pop() {
        let d = f64::from_bits(d);
        if d > dist[i] {
            continue;
        }
        if done(i, d) {
            return (dist, prev, Some(i));
        }
        let (c, r) = ((i % w) as isize, (i / w) as isize);
        for &(dc, dr) in moves {
            let (nc, nr) = (c + dc, r + dr);
            if nc < 0
                || nr < 0
                || nc as usize >= w
                || nr as usize >= h
                || !track.drivable(nc as usize, nr as usize)
            {
                continue;
            }
            let j = nr as usize * w + nc as usize;
            let Some(cost) = step(i, j, dc, dr) else {
                continue;
            };
            let nd = d + cost;
            if nd <= limit && nd < dist[j] {
                dist[j] = nd;
                prev[j] = i;
                heap.push(Reverse((nd.to_bits(), j)));
            }
        }
    }
    (dist, prev, None)
}

/// Cheapest path from any of `from` to any of `to`, as cells in order.
fn shortest(
    track: &Track,
    from: &[(usize, usize)],
    to: &[(usize, usize)],
    banned: &[bool],
) -> Option<Vec<(usize, usize)>> {
    let w = track.width;
    let cs = track.cell_size();
    let mut is_goal = vec![false; w * track.height];
    for &(c, r) in to {
        is_goal[r * w + c] = true;
    }
    let step = |i: usize, j: usize, dc: isize, dr: isize| {
        if banned[j] && !is_goal[j] {
            return None;
        }
        // A diagonal step must not cut a wall's corner.
        let (c, r, nc, nr) = (i % w, i / w, j % w, j / w);
        if dc != 0 && dr != 0 && (!track.drivable(nc, r) || !track.drivable(c, nr)) {
            return None;
        }
        Some((DVec2::new(dc as f64, dr as f64) * cs).length() * penalty(track, nc, nr))
    };
    let (_, prev, found) = dijkstra(track, from, true, f64::INFINITY, step, |i, d| {
        is_goal[i] && d > 0.0
    });
    let mut j = found?;
    let mut path = vec![(j % w, j / w)];
    while prev[j] != usize::MAX {
        j = prev[j];
        path.push((j % w, j / w));
    }
    path.reverse();
    Some(path)
}

/// Cells within `reach` metres of `from` (through cells a car can reach).
fn widen(track: &Track, from: &[(usize, usize)], reach: f64) -> Vec<bool> {
    let cs = track.cell_size();
    let step = |_, _, dc: isize, _| Some(if dc != 0 { cs.x } else { cs.y });
    let (dist, _, _) = dijkstra(track, from, false, reach, step, |_, _| false);
    dist.iter().map(|d| d.is_finite()).collect()
}

impl Line {
    /// The racing line of a track, for cornering at `a_lat` and braking at
    /// `a_brake` (m/s², on grip 1), never faster than `top` m/s.
    pub fn new(track: &Track, a_lat: f64, a_brake: f64, top: f64) -> Line {
        let mut points = smooth(track, resample(&centres(track)));
        // Never empty: on a track with no lap (which `track::laps` rejects
        // before a race) the line is the start alone, so every index into
        // it stays valid.
        if points.is_empty() {
            points.push(track.start_pose(0).0);
        }
        let speeds = speeds(track, &points, a_lat, a_brake, top);
        Line { points, speeds }
    }

    /// The same line with speeds for other limits: the path, the costly
    /// part, is computed once per track.
    pub fn respeed(&self, track: &Track, a_lat: f64, a_brake: f64, top: f64) -> Line {
        Line {
            points: self.points.clone(),
            speeds: speeds(track, &self.points, a_lat, a_brake, top),
        }
    }

    /// Index of the point nearest `p`, searching near `hint` first (a car
    /// moves little between steps) and the whole line when that fails.
    pub fn nearest(&self, p: DVec2, hint: usize) -> usize {
        let n = self.points.len();
        let near = (0..40).map(|k| wrap(hint, k - 10, n));
        let best = near.min_by(|&a, &b| {
            self.points[a]
                .distance_squared(p)
                .total_cmp(&self.points[b].distance_squared(p))
        });
        match best {
            Some(i) if self.points[i].distance(p) < 8.0 => i,
            _ => (0..n)
                .min_by(|&a, &b| {
                    self.points[a]
                        .distance_squared(p)
                        .total_cmp(&self.points[b].distance_squared(p))
                })
                .unwrap_or(0),
        }
    }

    /// The point `ahead` metres further along the line from point `i`.
    pub fn ahead(&self, i: usize, ahead: f64) -> DVec2 {
        let n = self.points.len();
        self.points[(i + (ahead / SPACING).round() as usize) % n]
    }

    /// Length of the loop in metres.
    pub fn length(&self) -> f64 {
        self.points.len() as f64 * SPACING
    }
}

/// Cell centres along the loop: finish, checkpoints in order, finish.
fn centres(track: &Track) -> Vec<DVec2> {
    let (w, h) = (track.width, track.height);
    let finish = mark_cells(track, Mark::Finish);
    let dir = track.race_direction();
    let (dc, dr) = (dir.x.round() as isize, dir.y.round() as isize);
    let mut stops: Vec<Vec<(usize, usize)>> = vec![beside(track, &finish, dc, dr)];
    for n in 1..=track.checkpoints {
        stops.push(mark_cells(track, Mark::Checkpoint(n)));
    }
    stops.push(beside(track, &finish, -dc, -dr));
    let mut finish_closed = vec![false; w * h];
    for &(c, r) in &finish {
        finish_closed[r * w + c] = true;
    }
    let mut cells: Vec<(usize, usize)> = Vec::new();
    let mut previous: Vec<(usize, usize)> = Vec::new();
    let keep = (OPEN / track.cell).ceil() as usize;
    for (k, pair) in stops.windows(2).enumerate() {
        let mut closed = if k == 0 || k + 2 == stops.len() {
            finish_closed.clone()
        } else {
            vec![false; w * h]
        };
        if previous.len() > keep {
            let corridor = widen(track, &previous[..previous.len() - keep], CORRIDOR);
            for (i, c) in corridor.into_iter().enumerate() {
                closed[i] |= c;
            }
        }
        match shortest(track, &pair[0], &pair[1], &closed) {
            Some(path) => {
                let skip = usize::from(!cells.is_empty());
                cells.extend(path.iter().skip(skip));
                previous = path;
            }
            None => previous.clear(),
        }
    }
    cells.dedup();
    cells
        .iter()
        .map(|&(c, r)| track.cell_center(c, r))
        .collect()
}

/// Points every [`SPACING`] metres along a closed polyline.
fn resample(poly: &[DVec2]) -> Vec<DVec2> {
    if poly.len() < 2 {
        return poly.to_vec();
    }
    let mut out = vec![poly[0]];
    let mut carry = 0.0;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        let len = a.distance(b);
        let mut s = SPACING - carry;
        while s <= len {
            out.push(a.lerp(b, s / len));
            s += SPACING;
        }
        carry = len - (s - SPACING);
    }
    out.pop();
    out
}

/// Pulls each point towards its neighbours' mean, keeping it where a car
/// has room.
fn smooth(track: &Track, mut pts: Vec<DVec2>) -> Vec<DVec2> {
    let n = pts.len();
    if n < 5 {
        return pts;
    }
    let roomy = |p: DVec2| {
        track
            .cell_at(p)
            .is_some_and(|(c, r)| track.drivable(c, r) && track.clearance_cells(c, r) >= 2)
    };
    for _ in 0..60 {
        let prev = pts.clone();
        for i in 0..n {
            let mean = (prev[wrap(i, -2, n)]
                + prev[wrap(i, -1, n)]
                + prev[wrap(i, 1, n)]
                + prev[wrap(i, 2, n)])
                * 0.25;
            let moved = prev[i].lerp(mean, 0.5);
            if roomy(moved) || !roomy(prev[i]) {
                pts[i] = moved;
            }
        }
    }
    pts
}

/// Index `i + d` of a closed line of `n` points, wrapped (any `n` from 1).
fn wrap(i: usize, d: isize, n: usize) -> usize {
    (i as isize + d).rem_euclid(n as isize) as usize
}

/// Target speeds along the line.
fn speeds(track: &Track, pts: &[DVec2], a_lat: f64, a_brake: f64, top: f64) -> Vec<f64> {
    let n = pts.len();
    let k = 3;
    let mut v: Vec<f64> = (0..n)
        .map(|i| {
            let (a, b, c) = (pts[wrap(i, -k, n)], pts[i], pts[wrap(i, k, n)]);
            // Menger curvature: 4 area / (product of the sides).
            let area2 = ((b - a).perp_dot(c - a)).abs();
            let sides = a.distance(b) * b.distance(c) * c.distance(a);
            let kappa = if sides > 1e-9 {
                2.0 * area2 / sides
            } else {
                0.0
            };
            let grip = track.surface_at(b).map_or(1.0, |s| s.grip);
            if kappa > 1e-6 {
                (a_lat * grip / kappa).sqrt().min(top)
            } else {
                top
            }
        })
        .collect();
    for _ in 0..2 {
        for i in (0..n).rev() {
            let next = v[(i + 1) % n];
            let grip = track.surface_at(pts[i]).map_or(1.0, |s| s.grip);
            v[i] = v[i].min((next * next + 2.0 * a_brake * grip * SPACING).sqrt());
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    #[test]
    fn a_track_with_no_lap_still_gets_a_line_that_can_be_followed() {
        let map = "#########\n#.......#\n#...>..=#\n#.......#\n#########\n";
        let t = crate::track::parse("t", map.as_bytes()).unwrap();
        let line = Line::new(&t, 8.0, 6.0, 60.0);
        assert!(!line.points.is_empty());
        assert!(line.speeds.iter().all(|v| v.is_finite()));
        let i = line.nearest(DVec2::new(3.0, 3.0), 7);
        assert!(line.ahead(i, 20.0).is_finite());
    }

    #[test]
    fn every_bundled_track_gets_a_closed_line_on_the_road() {
        for (name, _) in bundled::TRACKS {
            let t = bundled::load(name).unwrap();
            let line = Line::new(&t, 8.0, 6.0, 60.0);
            assert!(line.points.len() > 20, "{name}");
            for (i, p) in line.points.iter().enumerate() {
                let (c, r) = t.cell_at(*p).unwrap();
                assert!(
                    t.drivable(c, r),
                    "{name}: point {i} off the course at {p:?}"
                );
                let next = line.points[(i + 1) % line.points.len()];
                assert!(
                    p.distance(next) < 3.0 * SPACING,
                    "{name}: a gap after point {i}"
                );
            }
            assert!(line.speeds.iter().all(|v| v.is_finite() && *v > 0.0));
        }
    }

    #[test]
    fn the_line_runs_the_race_direction_from_the_finish() {
        let t = bundled::load("pocket").unwrap();
        let line = Line::new(&t, 8.0, 6.0, 60.0);
        let d = line.points[3] - line.points[0];
        assert!(
            d.dot(t.race_direction()) > 0.0,
            "leaves the finish going east: {d:?}"
        );
    }
}
