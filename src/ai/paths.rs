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
pub struct Near(Vec<Cells>);

impl Near {
    pub fn contains(&self, i: usize) -> bool {
        self.0.iter().any(|part| part.contains(i))
    }
}

/// [`widen`] of the cells `path`, in parts at once ([`super::parts`]).
pub fn widen_path(track: &Track, path: &[u32], reach: f64) -> Near {
    Near(in_parts(path.chunks(part_len(path.len())), |part| {
        widen(track, part.iter().map(|&i| i as usize), reach)
    }))
}

#[cfg(test)]
mod tests {
    use super::super::aim::{Aim, Bounds};
    use super::super::cost::{Cost, units};
    use super::super::meet::{Tables, meet};
    use super::super::random_maps::{cost_of, numbers, random_track, walled_field};
    use super::super::search::Search;
    use super::Span;
    use crate::track::Track;

    /// The plain Dijkstra the searches are checked against: the cheapest
    /// path from any of the cells `from` to the first of `to` it settles.
    fn one_way(track: &Track, from: &[usize], to: &[usize], cost: &impl Cost) -> Option<Vec<u32>> {
        let length = super::lengths(track);
        let mut came = vec![0; track.width * track.height];
        let mut search = Search::new(
            track,
            from.iter().copied(),
            &length,
            false,
            &Aim::NONE,
            &mut came,
        );
        let mut goal = None;
        search.run(cost, |i, _, _| {
            let reached = to.contains(&i);
            goal = reached.then_some(i);
            !reached
        });
        Some(search.path_to(goal?))
    }

    #[test]
    fn a_span_holds_its_cells_and_no_other() {
        let span = Span::new([70_000, 5, 9, 70_000]);
        let held: Vec<usize> = (0..80_000).filter(|&i| span.contains(i)).collect();
        assert_eq!(held, [5, 9, 70_000]);
        assert!(!span.contains(usize::MAX));
        let empty = Span::new([]);
        assert!((0..10).all(|i| !empty.contains(i)));
    }

    #[test]
    fn a_search_from_both_ends_finds_as_cheap_a_way_as_one_from_the_start() {
        // Random maps, prices, closed cells, starts and goals: the same
        // cost to the unit, or no way for all, aimed or not, on one
        // thread or two.
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let (mut found, mut none) = (0, 0);
        for _ in 0..300 {
            let track = random_track(&mut next, 0);
            let cells = track.width * track.height;
            let open: Vec<usize> = (0..cells)
                .filter(|&i| track.drivable(i % track.width, i / track.width))
                .collect();
            if open.len() < 2 {
                continue;
            }
            let (nf, nt) = (1 + next(3), 1 + next(3));
            let from: Vec<usize> = (0..nf).map(|_| open[next(open.len())]).collect();
            let mut to: Vec<usize> = (0..nt).map(|_| open[next(open.len())]).collect();
            to.retain(|i| !from.contains(i));
            if to.is_empty() {
                continue;
            }
            let price: Vec<f64> = (0..cells)
                .map(|_| 1.0 + next(1000) as f64 / 250.0)
                .collect();
            let closed: Vec<bool> = (0..cells).map(|_| next(10) == 0).collect();
            let goals = Span::new(to.iter().copied());
            let cost = |j: usize, _| (!closed[j] || goals.contains(j)).then_some(price[j]);
            let length = super::lengths(&track);
            let bounds = |cells: &[usize]| Bounds::of(&track, cells.iter().copied()).unwrap();
            let aim = Aim::new(
                &track,
                bounds(&from),
                bounds(&to),
                &units(&track, &length),
                1.0,
            );
            let ends = || (from.iter().copied(), to.iter().copied());
            let one = one_way(&track, &from, &to, &cost);
            // The tables are zeroed after each search, for the next.
            let tables = &mut Tables::new(cells);
            let both = meet(&track, ends(), &length, &aim, &cost, false, tables);
            assert_eq!(
                both,
                meet(&track, ends(), &length, &aim, &cost, true, tables)
            );
            // Asked for two threads where none can be had: the ends take
            // turns on this one.
            let refused = crate::threads::without_threads(|| {
                meet(&track, ends(), &length, &aim, &cost, true, tables)
            });
            assert_eq!(both, refused);
            let plain = meet(&track, ends(), &length, &Aim::NONE, &cost, false, tables);
            match (one, both, plain) {
                (None, None, None) => none += 1,
                (Some(one), Some(both), Some(plain)) => {
                    found += 1;
                    assert!(from.contains(&(both[0] as usize)));
                    assert!(to.contains(&(*both.last().unwrap() as usize)));
                    let cost_of = |path: &[u32]| cost_of(&track, path, &length, &cost);
                    assert_eq!(cost_of(&one), cost_of(&both), "one way, from both ends");
                    assert_eq!(cost_of(&one), cost_of(&plain), "one way, not aimed");
                }
                (one, both, plain) => {
                    panic!("{one:?} one way, {both:?} from both ends, {plain:?} not aimed")
                }
            }
        }
        assert!(found > 200 && none > 0, "{found} ways, {none} none");
    }

    #[test]
    fn a_settled_cell_s_key_adds_up_along_its_path() {
        let mut next = numbers(77);
        for backward in [false, true] {
            for aimed in [false, true] {
                for _ in 0..20 {
                    let track = random_track(&mut next, 0);
                    let cells = track.width * track.height;
                    let price: Vec<f64> =
                        (0..cells).map(|_| 1.0 + next(1000) as f64 / 97.0).collect();
                    let cost = |j: usize, _| (next_free(j)).then_some(price[j]);
                    let length = [1.0, 1.0, 2.0, 2.0, 2.5, 2.5, 2.5, 2.5];
                    // The start and the cells round it, aimed at a corner.
                    let start = track.starts[0];
                    let from: Vec<usize> = (0..cells)
                        .filter(|&i| {
                            let (c, r) = (i % track.width, i / track.width);
                            next_free(i) && c.abs_diff(start.col) <= 1 && r.abs_diff(start.row) <= 1
                        })
                        .collect();
                    let aim = if aimed {
                        Aim::new(
                            &track,
                            Bounds::of(&track, from.iter().copied()).unwrap(),
                            Bounds::of(&track, [cells - 1]).unwrap(),
                            &units(&track, &length),
                            1.0,
                        )
                    } else {
                        Aim::NONE
                    };
                    let mut came = vec![0; cells];
                    let mut search = Search::new(
                        &track,
                        from.iter().copied(),
                        &length,
                        backward,
                        &aim,
                        &mut came,
                    );
                    let mut settled = Vec::new();
                    search.run(&cost, |i, _, key| {
                        settled.push((i, key));
                        true
                    });
                    assert!(settled.len() > 10);
                    // In the order of their keys: the aim is consistent.
                    assert!(settled.windows(2).all(|p| p[0].1 <= p[1].1));
                    // Worked out from the sources, or from cells worked
                    // out before (on another cell's way).
                    let mut known = std::collections::HashMap::new();
                    for (i, key) in settled {
                        assert_eq!(search.key(i, &cost, &mut known), key);
                    }
                }
            }
        }
    }

    #[test]
    fn across_an_open_field_an_aimed_search_settles_little_more_than_its_way() {
        // A 900 x 600 field, across its middle, where every cell is 255
        // cells or more from a wall and costs the same: every staircase of
        // diagonals and moves along a row costs the same, and the search
        // follows one of them rather than filling the space between (or,
        // not aimed, a disc round the start).
        let (w, h) = (900, 600);
        let track = walled_field(w, h, |c, r| match (c, r) {
            (5, 5) => Some('>'),
            (7, 5) => Some('|'),
            _ => None,
        });
        let prices = super::Prices::new(&track);
        let (from, to) = ([(270, 270)], [(630, 330), (630, 331)]);
        let tables = &mut Tables::new(w * h);
        let path = super::shortest(&track, &prices, tables, &from, &to, |_| false).unwrap();
        assert!(path.len() > 350);
        // How many cells' prices a search from both ends asks, aimed and
        // not: about those it reaches.
        let length = super::lengths(&track);
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let cost = |_, cell| {
            asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            prices.of(&track, cell)
        };
        let aim = Aim::new(
            &track,
            Bounds::of(&track, super::indices(&track, &from)).unwrap(),
            Bounds::of(&track, super::indices(&track, &to)).unwrap(),
            &units(&track, &length),
            prices.cheapest,
        );
        let mut asked_by = |aim: &Aim| {
            asked.store(0, std::sync::atomic::Ordering::Relaxed);
            let ends = (super::indices(&track, &from), super::indices(&track, &to));
            let way = meet(&track, ends, &length, aim, &cost, false, tables).unwrap();
            let price = |_, cell| prices.of(&track, cell);
            let cost_of = |way: &[u32]| cost_of(&track, way, &length, &price);
            assert_eq!(cost_of(&way), cost_of(&path), "as cheap a way");
            asked.load(std::sync::atomic::Ordering::Relaxed)
        };
        let (aimed, plain) = (asked_by(&aim), asked_by(&Aim::NONE));
        assert!(
            aimed < 10 * path.len(),
            "{aimed} cells for a way of {}",
            path.len()
        );
        assert!(plain > 100 * path.len(), "{plain} cells, not aimed");
    }

    #[test]
    fn widening_reaches_the_cells_a_search_finds_within_reach() {
        // On random maps from a few cells, along rows and columns: the
        // cells a search with a queue settles within the distance.
        let mut next = numbers(4242);
        for _ in 0..60 {
            let track = random_track(&mut next, 0);
            let cells = track.width * track.height;
            let from: Vec<usize> = (0..=next(4)).map(|_| next(cells)).collect();
            let reach = [0.0, 1.9, 2.0, 6.0, 14.0, 20.0][next(6)];
            let cs = track.cell_size();
            let length = [cs.x, cs.x, cs.y, cs.y];
            let mut came = vec![0; cells];
            let mut search = Search::new(
                &track,
                from.iter().copied(),
                &length,
                false,
                &Aim::NONE,
                &mut came,
            );
            // A key is twice the cost, a cell's width costing 2^16 at a
            // price of 1.
            let most = 2 * 65_536 * (reach / track.cell).floor() as u64;
            let mut within = vec![false; cells];
            search.run(&|_, _| Some(1.0), |i, _, key| {
                within[i] = key <= most;
                key <= most
            });
            let near = super::widen(&track, from.iter().copied(), reach);
            let near: Vec<bool> = (0..cells).map(|i| near.contains(i)).collect();
            assert_eq!(near, within, "within {reach} m of {from:?}");
        }
    }

    /// Every seventh cell closed.
    fn next_free(j: usize) -> bool {
        j % 7 != 3
    }
}
