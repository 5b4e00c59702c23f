//! Shortest paths over a track's grid, for the racing line ([`super::line`]):
//! Dijkstra over the cells a car can reach, 8-connected with no corner
//! cut past a wall, each cell costed by its length times a penalty for
//! lying near a wall (`1 + 6 / clearance`, clearance in cells) and for low
//! grip (`1 + 3 (1 - grip)`), so paths keep to the middle of the road and
//! off the grass.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec2;

use crate::track::laps::cells_of;
use crate::track::{Mark, Track};

/// The cells of a mark (the finish line or a checkpoint) a car can reach.
pub fn mark_cells(track: &Track, mark: Mark) -> Vec<(usize, usize)> {
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
pub fn shortest(
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
pub fn widen(track: &Track, from: &[(usize, usize)], reach: f64) -> Vec<bool> {
    let cs = track.cell_size();
    let step = |_, _, dc: isize, _| Some(if dc != 0 { cs.x } else { cs.y });
    let (dist, _, _) = dijkstra(track, from, false, reach, step, |_, _| false);
    dist.iter().map(|d| d.is_finite()).collect()
}
