//! A shortest path searched from both ends at once, on two cores
//! ([`super::paths`] uses it): two [`Search`]es, one from the start and
//! one backward from the goals, aimed with the same potential
//! ([`super::aim::Aim`]), run in rounds of the same number of cells,
//! and meet where one has settled a cell that the other has settled, or
//! has settled a neighbour of.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError, mpsc};

use super::aim::Aim;
use super::cost::{Cost, move_cost};
use super::search::{MOVES, Search, open_moves, written};
use crate::track::Track;

/// One end of a search from both ends ([`meet`]), and what it settled
/// lately. Aligned to 128 bytes, two cache lines: the two ends write
/// their own fields (the queue's length, the round's) for every cell, on
/// two cores, and where the two lay in one cache line (as the stack
/// happened to place them, one run in two) the line went back and forth
/// between the cores and the search took twice as long.
#[repr(align(128))]
struct End<'a> {
    search: Search<'a>,
    /// The cells settled in this round: index, row and key.
    now: Vec<(u32, u32, u64)>,
    /// For each row, the lowest and highest column of a cell settled in
    /// it: a cell with no such column beside it in its row or the rows
    /// next to it has no neighbour settled, and is not looked at for
    /// meetings (on a road winding over a map, most cells of a round).
    rows: Vec<(u16, u16)>,
    /// The cells settled lately and their keys ([`Tables::recent`]).
    recent: &'a mut [Recent],
    /// Which search of those using the tables this is.
    search_number: u32,
    /// Whether a cell's place in `recent` is its index (on a map of no
    /// more cells than it has places), or that modulo [`RECENT`].
    direct: bool,
    /// Nothing is left to settle.
    done: bool,
    /// The costs of the ways to some cells settled long ago, worked out
    /// for meetings ([`Search::key`]).
    known: HashMap<u32, u64>,
}

/// How many cells [`End::recent`] holds at most (16 MB): a prime, so that
/// the cells settled lately, which lie in a block of rows, take few of
/// each other's places.
const RECENT: usize = 1_048_573;

/// A cell settled lately: the cell plus one, the search that settled it
/// ([`End::search_number`]) and its key.
#[derive(Clone, Copy, Default)]
struct Recent {
    cell: u32,
    search: u32,
    key: u64,
}

/// What the two ends of searches from both ends keep of every cell, kept
/// from one search to the next: the forward end's and the backward end's
/// [`Search::came`], and the cells each settled lately. Written through
/// once when made ([`written`]).
pub struct Tables {
    came: [Vec<u8>; 2],
    recent: [Vec<Recent>; 2],
    /// How many searches have used the tables: the lately settled cells
    /// of an earlier search are not this one's.
    searches: u32,
}

impl Tables {
    /// Tables for searches over a map of `cells` cells.
    pub fn new(cells: usize) -> Tables {
        let recent = cells.min(RECENT);
        Tables {
            came: [written(cells), written(cells)],
            recent: [written(recent), written(recent)],
            searches: 0,
        }
    }
}

impl<'a> End<'a> {
    fn new(search: Search<'a>, recent: &'a mut [Recent], search_number: u32) -> End<'a> {
        End {
            search,
            now: Vec::new(),
            rows: Vec::new(),
            // A table of fewer places than [`RECENT`] has one a cell.
            direct: recent.len() < RECENT,
            recent,
            search_number,
            done: false,
            known: HashMap::new(),
        }
    }

    /// Settles up to `n` cells.
    fn round(&mut self, cost: &impl Cost, n: usize) {
        let End {
            search,
            now,
            recent,
            done,
            direct,
            search_number,
            rows,
            ..
        } = self;
        now.clear();
        *done = search.run(cost, |i, (c, r), key| {
            let cell = i as u32;
            now.push((cell, r as u32, key));
            if rows.len() <= r {
                rows.resize(r + 1, (u16::MAX, 0));
            }
            let (lo, hi) = &mut rows[r];
            (*lo, *hi) = ((*lo).min(c as u16), (*hi).max(c as u16));
            recent[slot(*direct, i)] = Recent {
                cell: cell + 1,
                search: *search_number,
                key,
            };
            now.len() < n
        });
    }

    /// Whether a cell settled so far might have a neighbour of column `c`
    /// and row `r`, or be it ([`End::rows`]).
    fn near(&self, c: usize, r: usize) -> bool {
        let rows = r.saturating_sub(1)..(r + 2).min(self.rows.len());
        self.rows.get(rows).is_some_and(|rows| {
            rows.iter()
                .any(|&(lo, hi)| usize::from(lo) <= c + 1 && c <= usize::from(hi) + 1)
        })
    }

    /// The key of settled cell `i` if it was settled lately.
    fn recent_key(&self, i: u32) -> Option<u64> {
        let r = self.recent[slot(self.direct, i as usize)];
        (r.cell == i + 1 && r.search == self.search_number).then_some(r.key)
    }
}

/// Where cell `i` is kept in [`End::recent`]: at its index, or that
/// modulo [`RECENT`] (a constant: the division is a multiplication).
#[inline]
fn slot(direct: bool, i: usize) -> usize {
    if direct { i } else { i % RECENT }
}

/// The cheapest meeting found: its key (twice the cost of its way, plus
/// both ends' offsets), the cell the forward end settled and the cell the
/// backward end settled (the same cell, or neighbours).
type Meeting = (u64, u32, u32);

/// Cheapest path from any of the cells `ends.0` to any of `ends.1` (a way
/// of one move at least), by searching from both ends at once, in rounds:
/// each end settles the same number of cells (on a thread of its own if
/// `threads`), then the cells either end settled in the round that the
/// other has settled, or has settled a neighbour of, are where they meet,
/// and the cheapest meeting so far, `mu`, is the way when the lowest keys
/// the two ends have queued add up to `mu` (a cheaper way would have a
/// cell that neither end has settled, with keys adding up to less than
/// `mu`: Goldberg and Harrelson's rule for a search from both ends on
/// reduced costs). What either end settles, and so the way found, is the
/// same whatever the threads do. `tables`: the ends' tables, zero before
/// and after.
pub(super) fn meet(
    track: &Track,
    ends: (
        impl IntoIterator<Item = usize>,
        impl IntoIterator<Item = usize>,
    ),
    length: &[f64],
    aim: &Aim,
    cost: &(impl Cost + Sync),
    threads: bool,
    tables: &mut Tables,
) -> Option<Vec<u32>> {
    let cells = track.width * track.height;
    tables.searches += 1;
    let number = tables.searches;
    let [came_f, came_b] = &mut tables.came;
    let [recent_f, recent_b] = &mut tables.recent;
    let mut f = End::new(
        Search::new(track, ends.0, length, false, aim, came_f),
        recent_f,
        number,
    );
    let b = End::new(
        Search::new(track, ends.1, length, true, aim, came_b),
        recent_b,
        number,
    );
    // Rounds short at first, so that ends that soon meet do not go far
    // past where the other has been (the meetings to cost grow with how
    // far), then twice as long each time up to a length that costs far
    // more than a thread's turn.
    let most = (cells >> 8).clamp(SHORT, 1 << 16);
    let mut n = SHORT;
    let mut best: Option<Meeting> = None;
    let b = &Mutex::new(b);
    std::thread::scope(|s| {
        // The backward end's thread, if any: a round of the size asked
        // each time it is asked, until it is no longer asked.
        // Where no thread can be had, both ends take turns on this one.
        let (ask, asked) = mpsc::channel::<usize>();
        let (tell, told) = mpsc::channel::<()>();
        let threads = threads
            && crate::base::threads::spawn(s, move || {
                for n in asked {
                    lock(b).round(cost, n);
                    if tell.send(()).is_err() {
                        return;
                    }
                }
            })
            .is_some();
        loop {
            if threads {
                // A closed channel: the other thread panicked, which the
                // scope passes on.
                if ask.send(n).is_err() {
                    return None;
                }
                f.round(cost, n);
                if told.recv().is_err() {
                    return None;
                }
            } else {
                f.round(cost, n);
                lock(b).round(cost, n);
            }
            n = (2 * n).min(most);
            let mut b = lock(b);
            meeting(track, &mut f, &mut b, cost, &mut best);
            let next = f.search.next_key().saturating_add(b.search.next_key());
            match best {
                Some((mu, u, v)) if next >= mu => {
                    let mut path = f.search.path_to(u as usize);
                    let back = b.search.path_to(v as usize);
                    path.extend(back.iter().rev().skip(usize::from(u == v)));
                    return Some(path);
                }
                None if f.done && b.done => return None,
                _ => {}
            }
        }
    })
}

/// The "move" of a meeting at one cell, settled by both ends.
const SAME: usize = MOVES.len();

/// How many cells each end settles in its first round.
const SHORT: usize = 1 << 10;

/// An end of a search behind a lock. Only the backward end's thread could
/// poison it, and then its channel closes and the search ends before the
/// lock is taken again.
fn lock<'m, 'a>(end: &'m Mutex<End<'a>>) -> MutexGuard<'m, End<'a>> {
    end.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where the ends `f` and `b` of a search ([`meet`]) meet: each cell
/// either settled in its last round that the other settled before or in
/// it, and each move between such a cell and a neighbour the other
/// settled. Keeps the cheapest meeting (and of two as cheap, the lower
/// cells) in `best`. A meeting costs no less than its two cells' keys
/// (reduced costs are never negative), so one that cannot be the
/// cheapest is passed over before its move is costed. The other end's
/// key of a cell it settled lately is at hand; of one settled earlier it
/// is added up along its path, and so only where the lowest key that cell
/// could have might make the meeting the cheapest.
fn meeting<'a>(
    track: &Track,
    f: &mut End<'a>,
    b: &mut End<'a>,
    cost: &impl Cost,
    best: &mut Option<Meeting>,
) {
    // Meetings whose other end's key is not at hand: the lowest key the
    // meeting could have, whether this end is the forward one, this end's
    // cell and key, the move and the other end's cell.
    let mut later: Vec<(u64, bool, u32, u64, usize, u32)> = Vec::new();
    for (this, other, forward) in [(&*f, &*b, true), (&*b, &*f, false)] {
        for &(i, r, key) in &this.now {
            let r = r as usize;
            if !other.near(i as usize - r * track.width, r) {
                continue;
            }
            let open = open_moves(track, f.search.offsets(), i as usize, MOVES.len());
            // The cell itself, then its neighbours.
            for m in std::iter::once(SAME).chain(0..MOVES.len()) {
                let j = match m {
                    SAME => i,
                    m if open & (1 << m) != 0 => {
                        (i as usize).wrapping_add_signed(f.search.offsets()[m]) as u32
                    }
                    _ => continue,
                };
                // A way of no move (a cell both a source and a goal) is
                // none.
                let none = m == SAME && this.search.source(j as usize);
                if !other.search.settled(j as usize) || none && other.search.source(j as usize) {
                    continue;
                }
                match other.recent_key(j) {
                    Some(theirs) if best.is_some_and(|b| key + theirs >= b.0) => {}
                    Some(theirs) => costed(track, f, (forward, i, key, m, j), theirs, cost, best),
                    None => {
                        later.push((key + other.search.floor(j as usize), forward, i, key, m, j));
                    }
                }
            }
        }
    }
    later.sort_unstable();
    for (least, forward, i, key, m, j) in later {
        if best.is_some_and(|b| least >= b.0) {
            break;
        }
        let other = if forward { &mut *b } else { &mut *f };
        let theirs = other.search.key(j as usize, cost, &mut other.known);
        costed(track, f, (forward, i, key, m, j), theirs, cost, best);
    }
}

/// A meeting of this end's cell `i` (with key `key`; the forward end's
/// if `forward`) and the other end's cell `j` (with key `theirs`), by
/// move `m` from `i` or, if `m` is [`SAME`], at the same cell: kept in `best` if
/// it is the cheapest so far. The move from the forward end's cell into
/// the backward end's costs the latter's price; its reduced cost is that
/// twice plus the lean it climbs (never negative).
fn costed(
    track: &Track,
    f: &End,
    (forward, i, key, m, j): (bool, u32, u64, usize, u32),
    theirs: u64,
    cost: &impl Cost,
    best: &mut Option<Meeting>,
) {
    let (from, into) = if forward { (i, j) } else { (j, i) };
    let mu = if m == SAME {
        key + theirs
    } else {
        let into_cell = into as usize;
        let price = cost(
            into_cell,
            (into_cell % track.width, into_cell / track.width),
        );
        let Some(q) = move_cost(f.search.length(m), price.unwrap_or(f64::NAN)) else {
            return;
        };
        let climb = f.search.lean(into_cell) - f.search.lean(from as usize);
        (key + theirs + 2 * q).wrapping_add_signed(climb)
    };
    if best.is_none_or(|b| (mu, from, into) < b) {
        *best = Some((mu, from, into));
    }
}
