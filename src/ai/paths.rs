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

/// The eight moves, in the order the search tries them (the first four
/// alone when it moves along rows and columns only).
const MOVES: [(isize, isize); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// What a search knows of every cell, in zeroed memory so that only the
/// pages of the cells it reaches are ever touched: a search round the end
/// of a line on an 8192 x 8192 field costs what it explores, not the map.
struct Search {
    /// A reached cell's distance as its `f64` bits plus one; 0 unreached
    /// (non-negative `f64`s order as their bits).
    dist: Vec<u64>,
    /// The move (index into [`MOVES`], plus one) that reached a cell; 0 for
    /// a source or an unreached cell.
    came: Vec<u8>,
    width: usize,
    /// Every cell reached, in the order first reached, when asked for
    /// (only [`widen`] needs it: on a map that is all road it would hold
    /// every cell).
    reached: Option<Vec<usize>>,
}

impl Search {
    /// The cells from a source to cell `j`, in order.
    fn path_to(&self, mut j: usize) -> Vec<(usize, usize)> {
        let w = self.width;
        let mut path = vec![(j % w, j / w)];
        while let Some(m) = self.came[j].checked_sub(1) {
            let (dc, dr) = MOVES[m as usize];
            j = (j as isize - dr * w as isize - dc) as usize;
            path.push((j % w, j / w));
        }
        path.reverse();
        path
    }
}

/// Multi-source Dijkstra over the grid from `from`. `step(i, j, m)`
/// is the cost of moving from cell index `i` to its neighbour `j` by move
/// `MOVES[m]`, or `None` where that move is closed; nothing
/// beyond `limit` is reached. Stops at the first cell `done` accepts,
/// returning what it found and that cell. `list` keeps the cells reached
/// in [`Search::reached`].
fn dijkstra(
    track: &Track,
    from: &[(usize, usize)],
    diagonal: bool,
    limit: f64,
    list: bool,
    step: impl Fn(usize, usize, usize) -> Option<f64>,
    done: impl Fn(usize, f64) -> bool,
) -> (Search, Option<usize>) {
    let (w, h) = (track.width, track.height);
    let mut search = Search {
        dist: vec![0; w * h],
        came: vec![0; w * h],
        width: w,
        reached: list.then(Vec::new),
    };
    let mut heap = BinaryHeap::new();
    for &(c, r) in from {
        if search.dist[r * w + c] == 0
            && let Some(reached) = &mut search.reached
        {
            reached.push(r * w + c);
        }
        search.dist[r * w + c] = 1;
        heap.push(Reverse((0u64, r * w + c)));
    }
    let moves = if diagonal { &MOVES[..] } else { &MOVES[..4] };
    while let Some(Reverse((bits, i))) = heap.pop() {
        if bits + 1 > search.dist[i] {
            continue;
        }
        let d = f64::from_bits(bits);
        if done(i, d) {
            return (search, Some(i));
        }
        let (c, r) = ((i % w) as isize, (i / w) as isize);
        for (m, &(dc, dr)) in moves.iter().enumerate() {
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
            let Some(cost) = step(i, j, m) else {
                continue;
            };
            let nd = d + cost;
            let stored = search.dist[j];
            if nd <= limit && (stored == 0 || nd.to_bits() + 1 < stored) {
                if stored == 0
                    && let Some(reached) = &mut search.reached
                {
                    reached.push(j);
                }
                search.dist[j] = nd.to_bits() + 1;
                search.came[j] = m as u8 + 1;
                heap.push(Reverse((nd.to_bits(), j)));
            }
        }
    }
    (search, None)
}

/// Cheapest path from any of `from` to any of `to`, as cells in order,
/// through no cell `banned` accepts (by index `row * width + col`) but
/// the goals.
pub fn shortest(
    track: &Track,
    from: &[(usize, usize)],
    to: &[(usize, usize)],
    banned: impl Fn(usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let w = track.width;
    let cs = track.cell_size();
    let mut is_goal = vec![false; w * track.height];
    for &(c, r) in to {
        is_goal[r * w + c] = true;
    }
    // Each move's length, m.
    let length = MOVES.map(|(dc, dr)| (DVec2::new(dc as f64, dr as f64) * cs).length());
    let step = |i: usize, j: usize, m: usize| {
        if !is_goal[j] && banned(j) {
            return None;
        }
        // A diagonal step must not cut a wall's corner.
        let (dc, dr) = MOVES[m];
        let (c, r, nc, nr) = (i % w, i / w, j % w, j / w);
        if dc != 0 && dr != 0 && (!track.drivable(nc, r) || !track.drivable(c, nr)) {
            return None;
        }
        Some(length[m] * penalty(track, nc, nr))
    };
    let (search, found) = dijkstra(track, from, true, f64::INFINITY, false, step, |i, d| {
        is_goal[i] && d > 0.0
    });
    Some(search.path_to(found?))
}

/// Cells within `reach` metres of `from` (through cells a car can reach),
/// by index `row * width + col`; like the search, only the pages of the
/// cells within reach are touched.
pub fn widen(track: &Track, from: &[(usize, usize)], reach: f64) -> Vec<bool> {
    let cs = track.cell_size();
    let step = |_, _, m: usize| Some(if MOVES[m].0 != 0 { cs.x } else { cs.y });
    let (search, _) = dijkstra(track, from, false, reach, true, step, |_, _| false);
    let mut near = vec![false; search.dist.len()];
    for &i in search.reached.iter().flatten() {
        near[i] = true;
    }
    near
}
