//! Dijkstra over a track's grid ([`super::paths`]), one settled cell at a
//! time, so that a caller can stop it at a goal, at a distance, or run two
//! of them towards each other.
//!
//! Moves are 8-connected (or along rows and columns only), through cells a
//! car can reach and never diagonally past a wall's corner. A move into
//! cell `j` by `MOVES[m]` costs `length[m] * cost(j)`, `cost` being a
//! price per metre (`None`: the cell is closed). A search can also run
//! *backward*, from the goals over the same moves reversed: then the move
//! from `j` into a settled cell `i` costs `length[m] * cost(i)`, and a
//! closed cell is settled (it may be where a path starts) but never left.

use crate::track::Track;

/// The eight moves, in the order the search tries them (the first four
/// alone when it moves along rows and columns only).
pub(super) const MOVES: [(isize, isize); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// How many cells' shortest queued ways a search remembers at most (1.5
/// MB, kept in a core's cache; a map's search frontier is smaller).
const QUEUED_SLOTS: usize = 1 << 16;

/// [`Search::came`] of a source cell.
const SOURCE: u8 = u8::MAX;

/// The price per metre of driving through a cell, by index and column and
/// row; `None` where it is closed.
pub(super) trait Cost: Fn(usize, (usize, usize)) -> Option<f64> {}
impl<F: Fn(usize, (usize, usize)) -> Option<f64>> Cost for F {}

/// What a search keeps of a cell it has queued a way to and not yet
/// settled, for as many such cells as fit: a way no shorter than one
/// queued is not queued again, and a cell's cost is asked once, not once
/// per neighbour. A cell missing here only costs the queue an entry, or
/// `cost` a call.
#[derive(Clone, Copy)]
struct Slot {
    /// The cell plus one; 0 for none.
    cell: u32,
    /// The shortest way queued to it, as `f64` bits.
    best: u64,
    /// Its cost per metre; `NaN` where it is closed.
    per_metre: f64,
}

/// One search. What it knows of every cell is one byte, in zeroed memory
/// so that only the pages of the cells it reaches are ever touched (a
/// search round the end of a line on an 8192 x 8192 field costs what it
/// explores, not the map), and no distance per cell: a cell's distance is
/// final when it first leaves the queue, and only the queue holds the
/// others'.
pub(super) struct Search<'a> {
    track: &'a Track,
    /// How a settled cell was reached: the move (index into [`MOVES`],
    /// plus one) or [`SOURCE`]; 0 while not settled.
    came: Vec<u8>,
    /// Each move's length, m: 8 moves, or 4 along rows and columns only.
    length: &'a [f64],
    /// Each move as a step in index.
    offset: [isize; 8],
    backward: bool,
    queue: Queue,
    /// How many ways the sources took.
    sources: u64,
    /// Cell `j`'s slot is `slots[j & (slots.len() - 1)]`, in zeroed
    /// memory; another cell takes a slot over.
    slots: Vec<Slot>,
}

impl<'a> Search<'a> {
    /// A search from the cells `from` (by index `row * width + col`).
    pub fn new(
        track: &'a Track,
        from: impl IntoIterator<Item = usize>,
        length: &'a [f64],
        backward: bool,
    ) -> Search<'a> {
        let (w, h) = (track.width, track.height);
        let mut queue = Queue::default();
        for i in from {
            queue.push(0.0, i, 0);
        }
        let slots = (w * h / 8).next_power_of_two().clamp(1 << 12, QUEUED_SLOTS);
        let empty = Slot {
            cell: 0,
            best: 0,
            per_metre: 0.0,
        };
        Search {
            track,
            came: vec![0; w * h],
            length,
            offset: MOVES.map(|(dc, dr)| dr * w as isize + dc),
            backward,
            sources: queue.order,
            queue,
            slots: vec![empty; slots],
        }
    }

    /// Whether cell `i` is settled.
    pub fn settled(&self, i: usize) -> bool {
        self.came[i] != 0
    }

    /// The shortest way still queued (infinite when none is): every cell
    /// not yet settled is at least this far.
    pub fn next_distance(&mut self) -> f64 {
        while let Some((d, i)) = self.queue.peek() {
            if !self.settled(i) {
                return d;
            }
            self.queue.pop();
        }
        f64::INFINITY
    }

    /// Settles the nearest cell not yet settled and queues the ways from
    /// it: that cell and its distance, `None` when no cell is left.
    ///
    /// A way to a cell not yet settled is queued unless one as short is
    /// queued already (a map holds up to 2^26 cells, each queued at most
    /// once from each of its 8 neighbours, so [`Queue`]'s packing fits);
    /// the first to leave the queue settles the cell.
    /// Settles cells, nearest first, telling `visit` of each and its
    /// distance, until `visit` says to stop (`false`) or no cell is left
    /// (then `true`). Settling a cell queues the ways from it.
    ///
    /// A way to a cell not yet settled is queued unless one as short is
    /// queued already (a map holds up to 2^26 cells, each queued at most
    /// once from each of its 8 neighbours, so [`Queue`]'s packing fits);
    /// the first to leave the queue settles the cell. One loop, with no
    /// call per cell: a function settling one cell, called, ran the racing
    /// line's search at half the speed.
    pub fn run(&mut self, cost: &impl Cost, mut visit: impl FnMut(usize, f64) -> bool) -> bool {
        let track = self.track;
        let (w, h) = (track.width, track.height);
        let reach = track.reachable();
        let mask = self.slots.len() - 1;
        loop {
            let Some((d, i, order, m)) = self.queue.pop() else {
                return true;
            };
            if self.came[i] != 0 {
                continue;
            }
            self.came[i] = if order < self.sources {
                SOURCE
            } else {
                m as u8 + 1
            };
            let (c, r) = (i % w, i / w);
            // Backward, every move into this cell costs this cell's price
            // (NaN where it is closed: no way from it is queued).
            let own = if self.backward {
                cost(i, (c, r)).unwrap_or(f64::NAN)
            } else {
                f64::NAN
            };
            // The moves into cells a car can reach: bit `m` for `MOVES[m]`
            // (those off the map first, by the map's edges).
            let edges = (u32::from(c == 0) * 0b0101_0001)
                | (u32::from(c + 1 == w) * 0b1010_0010)
                | (u32::from(r == 0) * 0b0011_0100)
                | (u32::from(r + 1 == h) * 0b1100_1000);
            let mut open = 0u32;
            for (m, &step) in self.offset.iter().enumerate() {
                if edges & (1 << m) == 0 && reach[i.wrapping_add_signed(step)] {
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
            for (m, &len) in self.length.iter().enumerate() {
                if open & (1 << m) == 0 {
                    continue;
                }
                let j = i.wrapping_add_signed(self.offset[m]);
                if self.came[j] != 0 {
                    continue;
                }
                let slot = &mut self.slots[j & mask];
                if slot.cell != j as u32 + 1 {
                    // Forward, a cell's price is asked once and kept here;
                    // backward, the price is the settled cell's (`own`).
                    let per_metre = if self.backward {
                        f64::NAN
                    } else {
                        cost(j, (j % w, j / w)).unwrap_or(f64::NAN)
                    };
                    *slot = Slot {
                        cell: j as u32 + 1,
                        best: f64::INFINITY.to_bits(),
                        per_metre,
                    };
                }
                let per_metre = if self.backward { own } else { slot.per_metre };
                let nd = d + len * per_metre;
                // NaN (closed) is never queued.
                if nd.is_nan() || nd.to_bits() >= slot.best {
                    continue;
                }
                slot.best = nd.to_bits();
                self.queue.push(nd, j, m as u64);
            }
            if !visit(i, d) {
                return false;
            }
        }
    }

    /// The move that reached settled cell `j` and the cell it came from;
    /// `None` for a source.
    fn back(&self, j: usize) -> Option<(usize, usize)> {
        let m = self.came[j].checked_sub(1).filter(|&m| m != SOURCE - 1)?;
        let m = usize::from(m);
        Some((m, j.wrapping_add_signed(-self.offset[m])))
    }

    /// The cells from a source to settled cell `j`, in order, by index (a
    /// map has at most 2^26 cells).
    pub fn path_to(&self, mut j: usize) -> Vec<u32> {
        let mut path = vec![j as u32];
        while let Some((_, from)) = self.back(j) {
            j = from;
            path.push(j as u32);
        }
        path.reverse();
        path
    }

    /// The distance of settled cell `j`, added up along its path in the
    /// order the search added it (so the same to the bit).
    pub fn distance(&self, j: usize, cost: &impl Cost) -> f64 {
        let w = self.track.width;
        let price = |k: usize| cost(k, (k % w, k / w)).unwrap_or(f64::NAN);
        let mut steps = Vec::new();
        let mut k = j;
        while let Some((m, from)) = self.back(k) {
            steps.push(self.length[m] * price(if self.backward { from } else { k }));
            k = from;
        }
        steps.iter().rev().fold(0.0, |d, s| d + s)
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
    #[inline]
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

    /// The shortest way's distance and cell, left queued.
    fn peek(&self) -> Option<(f64, usize)> {
        let way = *self.heap.first()?;
        Some((
            f64::from_bits((way >> 64) as u64),
            (way as u64 >> 35) as usize,
        ))
    }

    /// The shortest way: distance, cell, order found, move.
    #[inline]
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
