//! Where a search is aimed: lower bounds of the cost of a way from its
//! sources to a cell and from a cell to its goals, over the bounds of
//! those cells ([`Aim`]), which make [`super::search`]'s Dijkstra an A*
//! that two searches from both ends can share.

use crate::track::Track;

use super::cost::move_cost;

/// The cells between columns `cols.0` and `cols.1` and rows `rows.0` and
/// `rows.1` (all included): round the ends of a search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    cols: (usize, usize),
    rows: (usize, usize),
}

impl Bounds {
    /// The bounds of the cells `cells` (by index `row * width + col`);
    /// `None` for none.
    pub fn of(track: &Track, cells: impl IntoIterator<Item = usize>) -> Option<Bounds> {
        let w = track.width;
        cells.into_iter().fold(None, |b, i| {
            let (c, r) = (i % w, i / w);
            Some(match b {
                None => Bounds {
                    cols: (c, c),
                    rows: (r, r),
                },
                Some(Bounds { cols, rows }) => Bounds {
                    cols: (cols.0.min(c), cols.1.max(c)),
                    rows: (rows.0.min(r), rows.1.max(r)),
                },
            })
        })
    }

    /// How many columns and rows cell `(c, r)` lies outside the bounds.
    #[inline]
    fn outside(&self, c: usize, r: usize) -> (u64, u64) {
        let a = self
            .cols
            .0
            .saturating_sub(c)
            .max(c.saturating_sub(self.cols.1));
        let b = self
            .rows
            .0
            .saturating_sub(r)
            .max(r.saturating_sub(self.rows.1));
        (a as u64, b as u64)
    }
}

/// Where a search is going and where it came from, as lower bounds of
/// the cost of any way from its sources to a cell and from a cell to its
/// goals: the cheapest way over an empty grid to the bounds of those
/// cells, every move at the lowest price on the map. Such a bound is
/// *consistent*: it falls by no more than a move costs. The potential, or
/// *lean*, of a cell is `to - from` (the mean of the two, doubled): a
/// search from both ends can use it at both, so that they still meet
/// (Ikeda et al.'s average potential). With it, a search across an open
/// field settles the cells along its way and little else, where one with
/// no aim settled a disc round each end.
pub(super) struct Aim {
    /// The sources' bounds and the goals'; `None` for no aim.
    ends: Option<(Bounds, Bounds)>,
    /// The cheapest move along a row, along a column and diagonally.
    least: [u64; 3],
    /// No bound is larger: keys stay positive.
    pub(super) offset: u64,
}

impl Aim {
    /// No aim: a plain Dijkstra (what the tests check the aimed searches
    /// against).
    #[cfg(test)]
    pub const NONE: Aim = Aim {
        ends: None,
        least: [0; 3],
        offset: 0,
    };

    /// An aim from `from` to `to` for moves of `length` units (8 of them)
    /// into cells of price `cheapest` per metre at least.
    pub fn new(track: &Track, from: Bounds, to: Bounds, length: &[f64; 8], cheapest: f64) -> Aim {
        let least = |m: usize| move_cost(length[m], cheapest).unwrap_or(0);
        let mut aim = Aim {
            ends: Some((from, to)),
            least: [least(0), least(2), least(4)],
            offset: 0,
        };
        aim.offset = aim.bound((track.width as u64, track.height as u64));
        aim
    }

    /// The cheapest way over an empty grid `a` columns and `b` rows
    /// across: diagonals for the shorter, straight on for the rest (a
    /// diagonal costs less than a move along a row and one along a column,
    /// and more than either).
    #[inline]
    fn bound(&self, (a, b): (u64, u64)) -> u64 {
        let [row, col, diagonal] = self.least;
        let d = a.min(b);
        d * diagonal + (a - d) * row + (b - d) * col
    }

    /// The bounds at cell `(c, r)` of the cost from it to the goals and
    /// of the cost to it from the sources; none with no aim.
    #[inline]
    fn bounds(&self, c: usize, r: usize) -> (u64, u64) {
        self.ends.as_ref().map_or((0, 0), |(from, to)| {
            (self.bound(to.outside(c, r)), self.bound(from.outside(c, r)))
        })
    }

    /// The lowest key cell `(c, r)` can have, at either end: the cost of
    /// a way from the sources is no less than `from` there (and of one to
    /// the goals no less than `to`), so twice it plus the lean is no less
    /// than `to + from`.
    #[inline]
    pub(super) fn floor(&self, c: usize, r: usize) -> u64 {
        let (to, from) = self.bounds(c, r);
        to + from + self.offset
    }

    /// The lean of cell `(c, r)`, negated backward.
    #[inline]
    pub(super) fn lean(&self, c: usize, r: usize, backward: bool) -> i64 {
        let (to, from) = self.bounds(c, r);
        let lean = to as i64 - from as i64;
        if backward { -lean } else { lean }
    }
}
