//! Dijkstra over a track's grid ([`super::paths`]), one settled cell at a
//! time, so that a caller can stop it at a goal, at a distance, or run two
//! of them towards each other; aimed, where it is given an [`Aim`], at its
//! goals as A* is.
//!
//! Moves are 8-connected (or along rows and columns only), through cells a
//! car can reach and never diagonally past a wall's corner. A move into
//! cell `j` by `MOVES[m]` costs `length[m] * cost(j)`, `cost` being a
//! price per metre (`None`: the cell is closed), counted in whole units
//! ([`super::cost`]) so that sums are exact and ways as cheap tie
//! exactly. A search can also run *backward*, from the goals over the
//! same moves reversed: then the move from `j` into a settled cell `i` costs
//! `length[m] * cost(i)`, and a closed cell is settled (it may be where a
//! path starts) but never left.
//!
//! A search's *key* for a cell is `2 g + lean + offset`, `g` the cost of
//! the cheapest way found to it and `lean` the [`Aim`]'s potential there
//! (its negation backward); with no aim, `2 g`. The cells are settled in
//! the order of their keys, so an aimed search is A* on the reduced costs
//! `2 cost + lean(to) - lean(from)` (never negative, as the aim's bounds
//! are consistent), and of two ways with the same key the one found last
//! leaves first: on open ground, where many ways cost the same, a search
//! follows one of them to its goal rather than filling the space between.

use std::collections::HashMap;

use crate::track::Track;

use super::aim::Aim;
use super::cost::{Cost, move_cost, units};

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

/// How many cells' shortest queued ways a search remembers at most (2 MB,
/// kept in a core's cache; a map's search frontier is smaller).
const QUEUED_SLOTS: usize = 1 << 16;

/// [`Search::came`] of a source cell.
const SOURCE: u8 = u8::MAX;

/// The moves from cell `i` (column `c`, row `r`) into cells a car can
/// reach: bit `m` for `MOVES[m]`, the first four alone where `moves` is 4.
/// A diagonal move must not cut a wall's corner: it needs both moves along
/// its row and column. The same both ways: a move from `i` is open where
/// the opposite move into `i` is.
#[inline]
pub(super) fn open_moves(track: &Track, offset: &[isize; 8], i: usize, moves: usize) -> u32 {
    let (w, h) = (track.width, track.height);
    let reach = track.reachable();
    let (c, r) = (i % w, i / w);
    // Those off the map first, by the map's edges.
    let edges = (u32::from(c == 0) * 0b0101_0001)
        | (u32::from(c + 1 == w) * 0b1010_0010)
        | (u32::from(r == 0) * 0b0011_0100)
        | (u32::from(r + 1 == h) * 0b1100_1000);
    let mut open = 0u32;
    for (m, &step) in offset.iter().enumerate().take(moves) {
        if edges & (1 << m) == 0 && reach[i.wrapping_add_signed(step)] {
            open |= 1 << m;
        }
    }
    for (m, (row, col)) in [(4, (0, 2)), (5, (1, 2)), (6, (0, 3)), (7, (1, 3))] {
        let both = (1 << row) | (1 << col);
        if open & both != both {
            open &= !(1 << m);
        }
    }
    open
}

/// `n` copies of `T::default()` (zero bytes), written through once, for a
/// table whose cells are read before they are written: where a read is
/// the first touch of a page, the kernel maps a shared page of zeros, and
/// the first write must then take it back from every processor the
/// process's threads have run on (a copy-on-write fault and a flush of
/// the other cores' address caches, by interrupt). Across an open field,
/// whose searches touch a few cells in each of thousands of rows, those
/// faults cost more than the searches themselves; labelling the regions
/// of a road over an 8192 x 8192 map ([`super::regions`]) spent 0.2 s of
/// its 0.33 s in them.
pub(super) fn written<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut t = vec![T::default(); n];
    let per_page = (PAGE / std::mem::size_of::<T>().max(1)).max(1);
    for page in t.chunks_mut(per_page) {
        // A write the compiler cannot leave out (the memory is known to
        // be zero): it maps the page for writing.
        // SAFETY: `page` is a live, aligned `T` of the vector.
        unsafe { std::ptr::write_volatile(page.as_mut_ptr(), T::default()) };
    }
    t
}

/// The memory pages' size the tables are written through and cleared by.
const PAGE: usize = 4096;

/// What a search keeps of a cell it has queued a way to and not yet
/// settled, for as many such cells as fit: a way no shorter than one
/// queued is not queued again, and a cell's cost and lean are worked out
/// once, not once per neighbour. A cell missing here only costs the queue
/// an entry, or `cost` a call.
#[derive(Clone, Copy)]
struct Slot {
    /// The cell plus one; 0 for none.
    cell: u32,
    /// The lowest key queued to it.
    best: u64,
    /// Its cost per metre; `NaN` where it is closed.
    price: f64,
    /// Its lean ([`Aim::lean`]).
    lean: i64,
}

/// One search. What it knows of every cell is one byte, in a table of the
/// caller's that it leaves as it found it, zero, clearing only the pages
/// it wrote (a search round the end of a line on an 8192 x 8192 field
/// costs what it explores, not the map), and no cost per cell: a cell's
/// key is final when it first leaves the queue, and only the queue holds
/// the others'.
pub(super) struct Search<'a> {
    track: &'a Track,
    /// How a settled cell was reached: the move (index into [`MOVES`],
    /// plus one) or [`SOURCE`]; 0 while not settled. A table of the
    /// caller's, zero before the search and again after it, so that one
    /// serves search after search ([`written`]).
    came: &'a mut [u8],
    /// The pages of `came` written, a bit each: zeroed when done.
    dirty: Vec<u64>,
    /// Each move's length in [`UNIT`](super::cost::UNIT)s.
    length: [f64; 8],
    /// How many moves: 8, or 4 along rows and columns only.
    moves: usize,
    /// Each move as a step in index.
    offset: [isize; 8],
    backward: bool,
    aim: &'a Aim,
    queue: Queue,
    /// How many ways the sources took.
    sources: u64,
    /// Cell `j`'s slot is `slots[j & (slots.len() - 1)]`, in zeroed
    /// memory; another cell takes a slot over.
    slots: Vec<Slot>,
}

impl<'a> Search<'a> {
    /// A search from the cells `from` (by index `row * width + col`), by
    /// moves of `length` metres (8, or the first 4), aimed by `aim`.
    pub fn new(
        track: &'a Track,
        from: impl IntoIterator<Item = usize>,
        length: &[f64],
        backward: bool,
        aim: &'a Aim,
        came: &'a mut [u8],
    ) -> Search<'a> {
        let (w, h) = (track.width, track.height);
        let mut queue = Queue::default();
        for i in from {
            let lean = aim.lean(i % w, i / w, backward);
            queue.push(aim.offset.wrapping_add_signed(lean), i, 0);
        }
        let slots = (w * h / 8).next_power_of_two().clamp(1 << 12, QUEUED_SLOTS);
        let empty = Slot {
            cell: 0,
            best: 0,
            price: 0.0,
            lean: 0,
        };
        Search {
            track,
            dirty: vec![0; came.len().div_ceil(PAGE).div_ceil(64)],
            came,
            length: units(track, length),
            moves: length.len(),
            offset: MOVES.map(|(dc, dr)| dr * w as isize + dc),
            backward,
            aim,
            sources: queue.order,
            queue,
            slots: vec![empty; slots],
        }
    }

    /// Whether cell `i` is settled.
    pub fn settled(&self, i: usize) -> bool {
        self.came[i] != 0
    }

    /// Whether cell `i` is settled as a source.
    pub fn source(&self, i: usize) -> bool {
        self.came[i] == SOURCE
    }

    /// The lowest key still queued (`u64::MAX` when none is): every cell
    /// not yet settled has this key at least.
    pub fn next_key(&mut self) -> u64 {
        while let Some((key, i)) = self.queue.peek() {
            if !self.settled(i) {
                return key;
            }
            self.queue.pop();
        }
        u64::MAX
    }

    /// Settles cells, lowest key first, telling `visit` of each (its
    /// index, its column and row) and its key, until `visit` says to stop
    /// (`false`) or no cell is left (then `true`). Settling a cell queues
    /// the ways from it.
    ///
    /// A way to a cell not yet settled is queued unless one with as low a
    /// key is queued already (a map holds up to 2^26 cells, each queued at
    /// most once from each of its 8 neighbours, so [`Queue`]'s packing
    /// fits); the first to leave the queue settles the cell. One loop,
    /// with no call per cell: a function settling one cell, called, ran
    /// the racing line's search at half the speed.
    pub fn run(
        &mut self,
        cost: &impl Cost,
        mut visit: impl FnMut(usize, (usize, usize), u64) -> bool,
    ) -> bool {
        let track = self.track;
        let w = track.width;
        let mask = self.slots.len() - 1;
        let backward = self.backward;
        loop {
            let Some((key, i, order, m)) = self.queue.pop() else {
                return true;
            };
            if self.came[i] != 0 {
                continue;
            }
            self.dirty[i / PAGE / 64] |= 1 << (i / PAGE % 64);
            self.came[i] = if order < self.sources {
                SOURCE
            } else {
                m as u8 + 1
            };
            let (c, r) = (i % w, i / w);
            // Twice the cost of the way here plus the offset: the key
            // less this cell's lean (kept in its slot when it was queued,
            // unless another cell has taken the slot over or it is a
            // source).
            let slot = &self.slots[i & mask];
            let lean = if slot.cell == i as u32 + 1 {
                slot.lean
            } else {
                self.aim.lean(c, r, backward)
            };
            let base = key.wrapping_add_signed(-lean);
            // Backward, every move into this cell costs this cell's price
            // (NaN where it is closed: no way from it is queued).
            let own = if backward {
                cost(i, (c, r)).unwrap_or(f64::NAN)
            } else {
                f64::NAN
            };
            let open = open_moves(track, &self.offset, i, self.moves);
            for (m, &length) in self.length.iter().enumerate().take(self.moves) {
                if open & (1 << m) == 0 {
                    continue;
                }
                let j = i.wrapping_add_signed(self.offset[m]);
                if self.came[j] != 0 {
                    continue;
                }
                let slot = &mut self.slots[j & mask];
                if slot.cell != j as u32 + 1 {
                    let (jc, jr) = (j % w, j / w);
                    // Forward, a cell's price is asked once and kept here;
                    // backward, the price is the settled cell's (`own`).
                    let price = if backward {
                        f64::NAN
                    } else {
                        cost(j, (jc, jr)).unwrap_or(f64::NAN)
                    };
                    *slot = Slot {
                        cell: j as u32 + 1,
                        best: u64::MAX,
                        price,
                        lean: self.aim.lean(jc, jr, backward),
                    };
                }
                let price = if backward { own } else { slot.price };
                // Closed: never queued.
                let Some(q) = move_cost(length, price) else {
                    continue;
                };
                let next = (base + 2 * q).wrapping_add_signed(slot.lean);
                if next >= slot.best {
                    continue;
                }
                slot.best = next;
                self.queue.push(next, j, m as u64);
            }
            if !visit(i, (c, r), key) {
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

    /// The key of settled cell `j`, from the costs of the moves along its
    /// path (exact: costs are whole units), added up back to a source or
    /// to a cell whose cost `known` holds. Keeps the cost of every 64th
    /// cell on the way in `known` (and `j`'s), so that the keys of cells
    /// whose paths join that one cost a few steps each, not a whole
    /// path's.
    pub fn key(&self, j: usize, cost: &impl Cost, known: &mut HashMap<u32, u64>) -> u64 {
        let w = self.track.width;
        let price = |k: usize| cost(k, (k % w, k / w)).unwrap_or(f64::NAN);
        // The cells back from `j` and the cost of the move into each.
        let mut steps = Vec::new();
        let mut k = j;
        let mut g = 0;
        loop {
            if let Some(&known) = known.get(&(k as u32)) {
                g = known;
                break;
            }
            let Some((m, from)) = self.back(k) else {
                break;
            };
            let into = if self.backward { from } else { k };
            steps.push((
                k as u32,
                move_cost(self.length[m], price(into)).unwrap_or(0),
            ));
            k = from;
        }
        for (n, &(cell, q)) in steps.iter().rev().enumerate() {
            g += q;
            if n % 64 == 63 {
                known.insert(cell, g);
            }
        }
        known.insert(j as u32, g);
        self.aim
            .offset
            .wrapping_add_signed(self.aim.lean(j % w, j / w, self.backward))
            + 2 * g
    }

    /// The lowest key cell `i` can have, at either end ([`Aim::floor`]).
    pub fn floor(&self, i: usize) -> u64 {
        let w = self.track.width;
        self.aim.floor(i % w, i / w)
    }

    /// The lean of cell `i` for this search ([`Aim::lean`]).
    pub fn lean(&self, i: usize) -> i64 {
        let w = self.track.width;
        self.aim.lean(i % w, i / w, self.backward)
    }

    /// Each move's length in [`UNIT`](super::cost::UNIT)s.
    pub fn length(&self, m: usize) -> f64 {
        self.length[m]
    }

    /// Each move as a step in index.
    pub fn offsets(&self) -> &[isize; 8] {
        &self.offset
    }
}

impl Drop for Search<'_> {
    /// Zeroes the pages of the table written, for the next search.
    fn drop(&mut self) {
        for (k, &word) in self.dirty.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let page = k * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let start = page * PAGE;
                let end = (start + PAGE).min(self.came.len());
                self.came[start..end].fill(0);
            }
        }
    }
}

/// The ways queued to reach cells, lowest key first: a way is its key,
/// then the order the way was found in, reversed, the cell and its move,
/// packed `!order << 29 | cell << 3 | move`, so that of two ways with the
/// same key the last found leaves the queue first (on ground where many
/// ways cost the same, the search goes on along one). One `u128` a way,
/// so that a comparison is two instructions and no branch: on a road the
/// search's frontier is small (under 100 ways on one winding over a whole
/// 8192 x 8192 map; on open ground, where it leaves ties queued, a few
/// hundred thousand) and every way leaves it, so popping is most of the
/// queue's cost.
#[derive(Default)]
struct Queue {
    /// A binary min-heap of ways, each `key << 64 | packed`.
    heap: Vec<u128>,
    /// How many ways were queued (fewer than 2^32: each of 2^26 cells
    /// at most once from each of 8 neighbours, and the sources).
    order: u64,
}

impl Queue {
    #[inline]
    fn push(&mut self, key: u64, cell: usize, m: u64) {
        let packed = (u64::from(u32::MAX) - self.order) << 29 | (cell as u64) << 3 | m;
        let way = u128::from(key) << 64 | u128::from(packed);
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

    /// The lowest way's key and cell, left queued.
    fn peek(&self) -> Option<(u64, usize)> {
        let way = *self.heap.first()?;
        Some(((way >> 64) as u64, (way as u64 >> 3 & 0x3ff_ffff) as usize))
    }

    /// The lowest way: key, cell, order found, move.
    #[inline]
    fn pop(&mut self) -> Option<(u64, usize, u64, u64)> {
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
        let packed = top as u64;
        Some((
            (top >> 64) as u64,
            (packed >> 3 & 0x3ff_ffff) as usize,
            u64::from(u32::MAX) - (packed >> 29),
            packed & 7,
        ))
    }
}
