//! Shortest paths over a track's grid, for the racing line ([`super::line`]):
//! Dijkstra over the cells a car can reach, 8-connected with no corner
//! cut past a wall, each cell costed by its length times a penalty for
//! lying near a wall (`1 + 6 / clearance`, clearance in cells) and for low
//! grip (`1 + 3 (1 - grip)`), so paths keep to the middle of the road and
//! off the grass.

use glam::DVec2;

use crate::track::Track;

/// Cost of driving through a cell, per metre, for every clearance (in
/// cells, 0 to 255) and surface: index `clearance * surfaces + surface`.
/// A table, so the search's inner loop costs a cell with one lookup.
fn penalties(track: &Track) -> Vec<f64> {
    let mut table = Vec::with_capacity(256 * track.surfaces.len());
    for clear in 0..=255u8 {
        let clear = f64::from(clear.max(1));
        for s in &track.surfaces {
            table.push((1.0 + 6.0 / clear) * (1.0 + 3.0 * (1.0 - s.grip).max(0.0)));
        }
    }
    table
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

/// How many cells' shortest queued ways a search remembers (16 MB).
const QUEUED_SLOTS: usize = 1 << 20;

/// [`Search::came`] of a source cell.
const SOURCE: u8 = u8::MAX;

/// What a search knows of every cell: one byte each, in zeroed memory so
/// that only the pages of the cells it reaches are ever touched (a search
/// round the end of a line on an 8192 x 8192 field costs what it explores,
/// not the map), and no distance per cell: a cell's distance is final when
/// it first leaves the queue, and only the queue holds the others'.
struct Search {
    /// How a settled cell was reached: the move (index into [`MOVES`],
    /// plus one) or [`SOURCE`]; 0 while not settled.
    came: Vec<u8>,
    width: usize,
    /// Every cell settled, in order, when asked for (only [`widen`] needs
    /// it: on a map that is all road it would hold every cell).
    reached: Option<Vec<usize>>,
}

impl Search {
    /// The cells from a source to cell `j`, in order, by index (a map has
    /// at most 2^26 cells).
    fn path_to(&self, mut j: usize) -> Vec<u32> {
        let w = self.width as isize;
        let mut path = vec![j as u32];
        // Back along the moves to a source ([`SOURCE`] names no move).
        while let Some(&(dc, dr)) =
            (self.came[j].checked_sub(1)).and_then(|m| MOVES.get(m as usize))
        {
            j = (j as isize - dr * w - dc) as usize;
            path.push(j as u32);
        }
        path.reverse();
        path
    }
}

/// The ways queued to reach cells, shortest first: a way is its distance
/// as `f64` bits (non-negative `f64`s order as their bits), then the cell,
/// the order the way was found in and its move, packed `cell << 35 |
/// order << 3 | move`, so that of two ways as short to one cell the first
/// found leaves the queue first (as a search that kept only strictly
/// shorter ways would have it). One `u128` a way, so that a comparison
/// is two instructions and no branch: the search's frontier is small (44
/// ways at most on a road winding over a whole 8192 x 8192 map) and every
/// way leaves it, so popping is most of the queue's cost.
#[derive(Default)]
struct Queue {
    /// A binary min-heap of ways, each `distance bits << 64 | packed`.
    heap: Vec<u128>,
    /// How many ways were queued.
    order: u64,
}

impl Queue {
    fn push(&mut self, d: f64, cell: usize, m: u64) {
        let key = (cell as u64) << 35 | self.order << 3 | m;
        let way = u128::from(d.to_bits()) << 64 | u128::from(key);
        self.order += 1;
        let mut hole = self.heap.len();
        self.heap.push(way);
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if self.heap[parent] <= way {
                break;
            }
            self.heap[hole] = self.heap[parent];
            hole = parent;
        }
        self.heap[hole] = way;
    }

    /// The shortest way: distance, cell, order found, move.
    fn pop(&mut self) -> Option<(f64, usize, u64, u64)> {
        let last = self.heap.pop()?;
        let top = match self.heap.first_mut() {
            Some(top) => std::mem::replace(top, last),
            None => last,
        };
        let heap = &mut self.heap[..];
        let n = heap.len();
        if n > 1 {
            // Down to the bottom along the smaller children (no branch to
            // mispredict), then up to where the last way belongs.
            let mut hole = 0;
            loop {
                let mut child = 2 * hole + 1;
                if child + 1 < n {
                    child += usize::from(heap[child + 1] < heap[child]);
                } else if child >= n {
                    break;
                }
                heap[hole] = heap[child];
                hole = child;
            }
            while hole > 0 {
                let parent = (hole - 1) / 2;
                if heap[parent] <= last {
                    break;
                }
                heap[hole] = heap[parent];
                hole = parent;
            }
            heap[hole] = last;
        }
        let key = top as u64;
        Some((
            f64::from_bits((top >> 64) as u64),
            (key >> 35) as usize,
            key >> 3 & 0xffff_ffff,
            key & 7,
        ))
    }
}

/// What a search keeps of a cell it has queued a way to and not yet
/// settled, for as many such cells as fit (see [`dijkstra`]).
#[derive(Clone, Copy)]
struct Slot {
    /// The cell plus one; 0 for none.
    cell: u32,
    /// The shortest way queued to it, as `f64` bits.
    best: u64,
    /// The cost per metre of driving through it (see [`dijkstra`]'s
    /// `cost`); `NaN` where it is closed.
    per_metre: f64,
}

/// Multi-source Dijkstra over the grid from the cells `from` (by index
/// `row * width + col`), through cells a car can reach and never
/// diagonally past a wall's corner. A move into cell `j` (at `col`,
/// `row`) by `MOVES[m]` costs `length[m] * cost(j, (col, row))`
/// (positive), and is closed where `cost` says `None`; nothing beyond
/// `limit` is reached. Stops at the first cell `done` accepts, returning
/// what it found and that cell. `list` keeps the cells settled in
/// [`Search::reached`].
///
/// A way to a cell not yet settled is queued unless one as short is
/// queued already (a map holds up to 2^26 cells, each queued at most once
/// from each of its 8 neighbours, so [`Queue`]'s packing fits); the first
/// to leave the queue settles the cell.
fn dijkstra(
    track: &Track,
    from: impl IntoIterator<Item = usize>,
    length: &[f64],
    limit: f64,
    list: bool,
    cost: impl Fn(usize, (usize, usize)) -> Option<f64>,
    done: impl Fn(usize, f64) -> bool,
) -> (Search, Option<usize>) {
    let (w, h) = (track.width, track.height);
    let mut search = Search {
        came: vec![0; w * h],
        width: w,
        reached: list.then(Vec::new),
    };
    let mut queue = Queue::default();
    for i in from {
        queue.push(0.0, i, 0);
    }
    // The sources were queued first.
    let sources = queue.order;
    // The cells queued to and not yet settled, as many as fit (slot
    // `cell & mask`, in zeroed memory; another cell takes the slot over):
    // a way no shorter than one queued is not queued again, and a cell's
    // cost is asked once, not once per neighbour. A cell missing here
    // only costs the queue an entry, or `cost` a call.
    let slots = (w * h / 8).next_power_of_two().clamp(1 << 12, QUEUED_SLOTS);
    let mask = slots - 1;
    let empty = Slot {
        cell: 0,
        best: 0,
        per_metre: 0.0,
    };
    let mut best = vec![empty; slots];
    // Each move as a step in index.
    let offset = MOVES.map(|(dc, dr)| dr * w as isize + dc);
    while let Some((d, i, order, m)) = queue.pop() {
        if search.came[i] != 0 {
            continue;
        }
        search.came[i] = if order < sources { SOURCE } else { m as u8 + 1 };
        if let Some(reached) = &mut search.reached {
            reached.push(i);
        }
        if done(i, d) {
            return (search, Some(i));
        }
        // The moves into cells a car can reach: bit `m` for `MOVES[m]`.
        let (c, r) = (i % w, i / w);
        let mut open = 0u32;
        for (m, &(dc, dr)) in MOVES.iter().enumerate() {
            let (nc, nr) = (c.wrapping_add_signed(dc), r.wrapping_add_signed(dr));
            if nc < w && nr < h && track.drivable(nc, nr) {
                open |= 1 << m;
            }
        }
        // A diagonal move must not cut a wall's corner: it needs both
        // moves along its row and column.
        for (m, (row, col)) in [(4, (0, 2)), (5, (1, 2)), (6, (0, 3)), (7, (1, 3))] {
            let both = (1 << row) | (1 << col);
            if open & both != both {
                open &= !(1 << m);
            }
        }
        for (m, &len) in length.iter().enumerate() {
            if open & (1 << m) == 0 {
                continue;
            }
            let j = i.wrapping_add_signed(offset[m]);
            if search.came[j] != 0 {
                continue;
            }
            let slot = &mut best[j & mask];
            if slot.cell != j as u32 + 1 {
                let per_metre = cost(j, (j % w, j / w)).unwrap_or(f64::NAN);
                *slot = Slot {
                    cell: j as u32 + 1,
                    best: f64::INFINITY.to_bits(),
                    per_metre,
                };
            }
            // NaN (closed) compares false and is never queued.
            let nd = d + len * slot.per_metre;
            if !(nd <= limit && nd.to_bits() < slot.best) {
                continue;
            }
            slot.best = nd.to_bits();
            queue.push(nd, j, m as u64);
        }
    }
    (search, None)
}

/// A few cells (a mark's, say), by index `row * width + col`: a table
/// over the span of indices they cover, so that asking about any cell of
/// a map costs no table the size of the map and, for the many cells
/// outside the span, no memory read.
pub struct Span {
    first: usize,
    cells: Vec<bool>,
}

impl Span {
    pub fn new(indices: impl IntoIterator<Item = usize>) -> Span {
        let indices: Vec<usize> = indices.into_iter().collect();
        let first = indices.iter().copied().min().unwrap_or(0);
        let last = indices.iter().copied().max().map_or(0, |l| l + 1);
        let mut cells = vec![false; last.saturating_sub(first)];
        for i in indices {
            cells[i - first] = true;
        }
        Span { first, cells }
    }

    pub fn contains(&self, i: usize) -> bool {
        i.checked_sub(self.first).and_then(|k| self.cells.get(k)) == Some(&true)
    }
}

/// Cells by index `row * width + col`.
pub fn indices(track: &Track, cells: &[(usize, usize)]) -> impl Iterator<Item = usize> {
    let w = track.width;
    cells.iter().map(move |&(c, r)| r * w + c)
}

/// Cheapest path from any of `from` to any of `to`, as cells in order by
/// index (`row * width + col`, 4 bytes a cell: a path can wind over a
/// whole map), through no cell `banned` accepts but the goals.
pub fn shortest(
    track: &Track,
    from: &[(usize, usize)],
    to: &[(usize, usize)],
    banned: impl Fn(usize) -> bool,
) -> Option<Vec<u32>> {
    let cs = track.cell_size();
    let goals = Span::new(indices(track, to));
    let (penalty, surfaces) = (penalties(track), track.surfaces.len());
    // Each move's length, m.
    let length = MOVES.map(|(dc, dr)| (DVec2::new(dc as f64, dr as f64) * cs).length());
    let cost = |j: usize, (nc, nr): (usize, usize)| {
        if banned(j) && !goals.contains(j) {
            return None;
        }
        let surface = track.surface_index(nc, nr)?;
        let clear = track.clearance_cells(nc, nr) as usize;
        Some(penalty[clear * surfaces + surface])
    };
    let (search, found) = dijkstra(
        track,
        indices(track, from),
        &length,
        f64::INFINITY,
        false,
        cost,
        |i, d| d > 0.0 && goals.contains(i),
    );
    Some(search.path_to(found?))
}

/// Cells within `reach` metres of the cells `from` (through cells a car
/// can reach), all by index `row * width + col`; like the search, only the
/// pages of the cells within reach are touched.
pub fn widen(track: &Track, from: impl IntoIterator<Item = usize>, reach: f64) -> Vec<bool> {
    let cs = track.cell_size();
    // Along rows and columns only: the first four moves.
    let length = [cs.x, cs.x, cs.y, cs.y];
    let (search, _) = dijkstra(
        track,
        from,
        &length,
        reach,
        true,
        |_, _| Some(1.0),
        |_, _| false,
    );
    let mut near = vec![false; search.came.len()];
    for &i in search.reached.iter().flatten() {
        near[i] = true;
    }
    near
}

#[cfg(test)]
mod tests {
    use super::Span;

    #[test]
    fn a_span_holds_its_cells_and_no_other() {
        let span = Span::new([70_000, 5, 9, 70_000]);
        let held: Vec<usize> = (0..80_000).filter(|&i| span.contains(i)).collect();
        assert_eq!(held, [5, 9, 70_000]);
        assert!(!span.contains(usize::MAX));
        let empty = Span::new([]);
        assert!((0..10).all(|i| !empty.contains(i)));
    }
}
