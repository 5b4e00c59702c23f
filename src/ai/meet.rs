//! A shortest path searched from both ends at once, on two cores
//! ([`super::paths`] uses it on the largest maps): two [`Search`]es, one
//! from the start and one backward from the goals, run in rounds of the
//! same number of cells, and meet where both have settled a cell.

use std::sync::{Mutex, MutexGuard, PoisonError, mpsc};

use super::search::{Cost, Search};
use crate::track::Track;

/// One end of a search from both ends ([`meet`]), and what it settled
/// lately.
struct End<'a> {
    search: Search<'a>,
    /// The cells settled in this round, and their distances.
    now: Vec<(u32, f64)>,
    /// Cell `j` plus one and its distance at `recent[j & mask]`, for the
    /// cells settled lately (a later cell takes an earlier one's place).
    recent: Vec<(u32, f64)>,
    /// Nothing is left to settle.
    done: bool,
    /// The lowest and highest index of a cell settled so far: where the
    /// two ends' ranges do not overlap (the ends still apart on a road
    /// winding down a map), they cannot have met, and a round's cells are
    /// not looked up.
    range: (u32, u32),
}

/// How many cells [`End::recent`] holds at most (4 MB).
const RECENT: usize = 1 << 18;

impl<'a> End<'a> {
    fn new(search: Search<'a>, cells: usize) -> End<'a> {
        End {
            search,
            now: Vec::new(),
            recent: vec![(0, 0.0); cells.next_power_of_two().min(RECENT)],
            done: false,
            range: (u32::MAX, 0),
        }
    }

    /// Settles up to `n` cells.
    fn round(&mut self, cost: &impl Cost, n: usize) {
        let End {
            search,
            now,
            recent,
            done,
            range,
        } = self;
        now.clear();
        let mask = recent.len() - 1;
        *done = search.run(cost, |i, d| {
            let cell = i as u32;
            *range = (range.0.min(cell), range.1.max(cell));
            now.push((cell, d));
            recent[i & mask] = (cell + 1, d);
            now.len() < n
        });
    }

    /// The distance of settled cell `i` if it was settled lately, or
    /// `anyway`.
    fn distance(&self, i: u32, cost: &impl Cost, anyway: bool) -> Option<f64> {
        match self.recent[i as usize & (self.recent.len() - 1)] {
            (cell, d) if cell == i + 1 => Some(d),
            _ => anyway.then(|| self.search.distance(i as usize, cost)),
        }
    }
}

/// Cheapest path from any of the cells `ends.0` to any of `ends.1`, by
/// searching from both ends at once, in rounds: each end settles the same
/// number of cells (on a thread of its own if `threads`), then the cells
/// both ends have settled are where they may meet, and the cheapest
/// meeting so far, `mu`, is the way if no cheaper can be found: when the
/// nearest cells the two ends have still to settle, `next_f` and `next_b`
/// away, add up to `mu` and a move more (a way of length `L < mu` has
/// every cell settled by one end or the other, and has two neighbours
/// settled by one end and then the other, of which the second is then
/// within `L - next_f + most < next_b` of the goals: settled by both).
/// What either end settles and so the way found are the same whatever
/// the threads do; the cost of a meeting is read from what the ends
/// settled lately (see [`End::recent`]), or added up along its paths for
/// the first meeting, so one is always found if there is a way. `most`:
/// the dearest move.
pub(super) fn meet<'a>(
    track: &'a Track,
    ends: (
        impl IntoIterator<Item = usize>,
        impl IntoIterator<Item = usize>,
    ),
    length: &'a [f64],
    most: f64,
    cost: &(impl Cost + Sync),
    threads: bool,
) -> Option<Vec<u32>> {
    let cells = track.width * track.height;
    let mut f = End::new(Search::new(track, ends.0, length, false), cells);
    let b = End::new(Search::new(track, ends.1, length, true), cells);
    // Rounds short enough that the two ends meet soon after they touch,
    // long enough that a round costs more than starting a thread.
    let n = (cells >> 8).clamp(1 << 10, 1 << 16);
    let mut best: Option<(f64, u32)> = None;
    let b = &Mutex::new(b);
    std::thread::scope(|s| {
        // The backward end's thread, if any: a round each time it is
        // asked, until it is no longer asked.
        let (ask, asked) = mpsc::channel::<()>();
        let (tell, told) = mpsc::channel::<()>();
        if threads {
            s.spawn(move || {
                for () in asked {
                    lock(b).round(cost, n);
                    if tell.send(()).is_err() {
                        return;
                    }
                }
            });
        }
        loop {
            if threads {
                // A closed channel: the other thread panicked, which the
                // scope passes on.
                if ask.send(()).is_err() {
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
            let mut b = lock(b);
            meeting(&f, &b, cost, &mut best);
            let next = f.search.next_distance() + b.search.next_distance();
            match best {
                Some((mu, v)) if next >= mu + most => {
                    let v = v as usize;
                    let mut path = f.search.path_to(v);
                    path.extend(b.search.path_to(v).iter().rev().skip(1));
                    return Some(path);
                }
                None if f.done && b.done => return None,
                _ => {}
            }
        }
    })
}

/// An end of a search behind a lock. Only the backward end's thread could
/// poison it, and then its channel closes and the search ends before the
/// lock is taken again.
fn lock<'m, 'a>(end: &'m Mutex<End<'a>>) -> MutexGuard<'m, End<'a>> {
    end.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where the ends `f` and `b` of a search ([`meet`]) meet: the cells each
/// settled in its last round that the other settled before or in it.
/// Keeps the cheapest meeting (and of two as cheap, the lower cell) in
/// `best`, as its cost and cell.
fn meeting(f: &End, b: &End, cost: &impl Cost, best: &mut Option<(f64, u32)>) {
    if f.range.1 < b.range.0 || b.range.1 < f.range.0 {
        return;
    }
    for (this, other) in [(f, b), (b, f)] {
        for &(v, d) in &this.now {
            if !other.search.settled(v as usize) {
                continue;
            }
            let Some(e) = other.distance(v, cost, best.is_none()) else {
                continue;
            };
            let mu = d + e;
            if mu > 0.0 && best.is_none_or(|(m, w)| (mu, v) < (m, w)) {
                *best = Some((mu, v));
            }
        }
    }
}
