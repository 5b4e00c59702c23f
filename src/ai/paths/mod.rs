//! Shortest paths over a track's grid, for the racing line ([`super::line`]):
//! Dijkstra over the cells a car can reach, 8-connected with no corner
//! cut past a wall, each cell costed by its length times a penalty for
//! lying near a wall (`1 + 6 / clearance`, clearance in cells) and for low
//! grip (`1 + 3 (1 - grip)`), so paths keep to the middle of the road and
//! off the grass. The search runs from both ends at once, aimed at each
//! other ([`super::meet`]), on two cores on the largest maps: on a road
//! winding over a whole 8192 x 8192 map, whose search settles every cell,
//! one search took 1.9 s of the line's 2.9 s, the two ends 1.2 s; across
//! an open field, aimed, it settles little more than the cells of its way.

use glam::DVec2;

use super::aim::{Aim, Bounds};
use super::cost::units;
use super::meet::{Tables, meet};
use super::parts::{in_parts, part_len, two_cores};
use super::search::MOVES;
use crate::track::Track;

/// What driving through a cell costs per metre: its length times a
/// penalty for lying near a wall and for low grip, from a table by
/// clearance and surface; and the least any cell of the track costs.
pub struct Prices {
    /// For every clearance (in cells, 0 to 255) and surface: index
    /// `clearance * surfaces + surface`. A table, so the search's inner
    /// loop costs a cell with one lookup.
    penalty: Vec<f64>,
    surfaces: usize,
    /// No cell a car can reach costs less: what a search's aim
    /// ([`super::aim::Aim`]) counts every move at.
    cheapest: f64,
}

impl Prices {
    pub fn new(track: &Track) -> Prices {
        let mut penalty = Vec::with_capacity(256 * track.surfaces.len());
        for clear in 0..=255u8 {
            let clear = f64::from(clear.max(1));
            for s in &track.surfaces {
                penalty.push((1.0 + 6.0 / clear) * (1.0 + 3.0 * (1.0 - s.grip).max(0.0)));
            }
        }
        // The penalty falls with clearance: the cheapest cell is no
        // cheaper than the cheapest surface used at the most clearance.
        let (room, used) = track.ground_used();
        let surfaces = track.surfaces.len();
        let cheapest = (0..surfaces)
            .filter(|&s| used[s])
            .map(|s| penalty[usize::from(room) * surfaces + s])
            .fold(f64::INFINITY, f64::min);
        Prices {
            penalty,
            surfaces,
            cheapest,
        }
    }

    /// The price per metre of a cell: `None` for a wall.
    #[inline]
    pub fn of(&self, track: &Track, (c, r): (usize, usize)) -> Option<f64> {
        let surface = track.surface_index(c, r)?;
        let clear = usize::from(track.clearance_cells(c, r));
        Some(self.penalty[clear * self.surfaces + surface])
    }
}

/// A few cells (a mark's, say), by index `row * width + col`: a set over
/// the span of indices they cover, so that asking about any cell of a map
/// costs no table the size of the map and, for the many cells outside the
/// span, no memory read.
pub struct Span {
    first: usize,
    cells: Cells,
}

impl Span {
    pub fn new(indices: impl IntoIterator<Item = usize>) -> Span {
        let indices: Vec<usize> = indices.into_iter().collect();
        let first = indices.iter().copied().min().unwrap_or(0);
        let last = indices.iter().copied().max().map_or(0, |l| l + 1);
        let mut cells = Cells::new(last.saturating_sub(first));
        for i in indices {
            cells.insert(i - first);
        }
        Span { first, cells }
    }

    pub fn contains(&self, i: usize) -> bool {
        i.checked_sub(self.first)
            .is_some_and(|k| self.cells.contains(k))
    }
}

/// A set of cells by index `row * width + col`, a bit a cell: a map's
/// worth is 8 MB, where a byte a cell (67 MB at 8192 x 8192) made every
/// look-up of a search a likely cache miss.
#[derive(Default)]
pub struct Cells {
    bits: Vec<u64>,
}

impl Cells {
    /// No cell, of `n`.
    fn new(n: usize) -> Cells {
        Cells {
            bits: vec![0; n.div_ceil(64)],
        }
    }

    pub fn contains(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|b| b >> (i % 64) & 1 != 0)
    }

    /// Adds cell `i` (which must be one of the `n`); whether it was new.
    fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (&mut self.bits[i / 64], 1 << (i % 64));
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
}

/// Cells by index `row * width + col`.
pub fn indices(track: &Track, cells: &[(usize, usize)]) -> impl Iterator<Item = usize> {
    let w = track.width;
    cells.iter().map(move |&(c, r)| r * w + c)
}

/// Maps of this many cells or more (2048 x 2048) are searched on two
/// threads, one for each end ([`super::meet`]).
const LARGE: usize = 1 << 22;

/// Whether paths over `track` are searched on two threads.
pub fn large(track: &Track) -> bool {
    track.width * track.height >= LARGE
}

/// Cheapest path from any of `from` to any of `to` (a way of one move at
/// least), as cells in order by index (`row * width + col`, 4 bytes a
/// cell: a path can wind over a whole map), through no cell `banned`
/// accepts but the goals. Searched from both ends at once, aimed at each
/// other ([`super::meet`]), on two threads on a [`large`] map where
/// there are two cores; `prices` are the track's, `tables` made for its
/// size and kept from one search to the next.
pub fn shortest(
    track: &Track,
    prices: &Prices,
    tables: &mut Tables,
    from: &[(usize, usize)],
    to: &[(usize, usize)],
    banned: impl Fn(usize) -> bool + Sync,
) -> Option<Vec<u32>> {
    let goals = Span::new(indices(track, to));
    let cost = |j: usize, cell: (usize, usize)| {
        if banned(j) && !goals.contains(j) {
            return None;
        }
        prices.of(track, cell)
    };
    let length = lengths(track);
    let aim = Aim::new(
        track,
        Bounds::of(track, indices(track, from))?,
        Bounds::of(track, indices(track, to))?,
        &units(track, &length),
        prices.cheapest,
    );
    let ends = (indices(track, from), indices(track, to));
    meet(
        track,
        ends,
        &length,
        &aim,
        &cost,
        large(track) && two_cores(),
        tables,
    )
}

/// Each move's length, m.
pub(super) fn lengths(track: &Track) -> [f64; 8] {
    let cs = track.cell_size();
    MOVES.map(|(dc, dr)| (DVec2::new(dc as f64, dr as f64) * cs).length())
}

/// Cells within `reach` metres of the cells `from` along rows and columns
/// (through cells a car can reach), all by index `row * width + col`.
/// A cell is twice as tall as it is wide, so a way's length is a whole
/// number of cell widths (a move along a row one, along a column two):
/// a walk with a bucket for each distance visits each cell once. (A
/// search with a queue took 2 s to widen a path over a tenth of a road
/// winding over an 8192 x 8192 map, its 750,000 cells all sources at
/// once.) Only the pages of the cells within reach are touched.
pub fn widen(track: &Track, from: impl IntoIterator<Item = usize>, reach: f64) -> Cells {
    let (w, h) = (track.width, track.height);
    let reachable = track.reachable();
    // In cell widths.
    let most = (reach / track.cell).floor().clamp(0.0, f64::from(u32::MAX)) as usize;
    let mut near = Cells::new(w * h);
    // The cells found at distance `d` are in bucket `d % 3`: a move adds
    // one or two.
    let mut buckets: [Vec<u32>; 3] = Default::default();
    buckets[0].extend(from.into_iter().map(|i| i as u32));
    for d in 0..=most {
        if buckets.iter().all(Vec::is_empty) {
            break;
        }
        let mut bucket = std::mem::take(&mut buckets[d % 3]);
        for &i in &bucket {
            let i = i as usize;
            if !near.insert(i) {
                continue;
            }
            let (c, r) = (i % w, i / w);
            let moves = [
                (c > 0, i.wrapping_sub(1), 1),
                (c + 1 < w, i + 1, 1),
                (r > 0, i.wrapping_sub(w), 2),
                (r + 1 < h, i + w, 2),
            ];
            for (inside, j, step) in moves {
                if inside && d + step <= most && reachable[j] && !near.contains(j) {
                    buckets[(d + step) % 3].push(j as u32);
                }
            }
        }
        bucket.clear();
        buckets[d % 3] = bucket;
    }
    near
}

/// The cells within `reach` metres of a path's cells ([`widen`]), for a
/// long path widened in parts at once: a cell is near the path if it is
/// near a part.
pub struct Nearby(Vec<Cells>);

impl Nearby {
    pub fn contains(&self, i: usize) -> bool {
        self.0.iter().any(|part| part.contains(i))
    }
}

/// [`widen`] of the cells `path`, in parts at once ([`super::parts`]).
pub fn widen_path(track: &Track, path: &[u32], reach: f64) -> Nearby {
    Nearby(in_parts(path.chunks(part_len(path.len())), |part| {
        widen(track, part.iter().map(|&i| i as usize), reach)
    }))
}

#[cfg(test)]
mod tests;
