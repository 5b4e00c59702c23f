//! What a search's moves cost: a price per metre for each cell, times a
//! move's length, counted in whole [`UNIT`]s so that sums are exact and
//! ways as cheap tie exactly ([`super::search`], [`super::aim`]).

use crate::track::Track;

/// The unit costs are counted in: a cell's width at a price of 1 is
/// 2^16 units. A move's cost is at most `sqrt 5` widths times a price of
/// 28 (`(1 + 6) (1 + 3)`, the dearest penalty), under 2^22 units, so a
/// way through all 2^26 cells of the largest map stays under 2^48 and a
/// key (twice that, and an offset no larger) under 2^50.
pub(super) const UNIT: f64 = 65_536.0;

/// The price per metre of driving through a cell, by index and column and
/// row; `None` where it is closed.
pub(super) trait Cost: Fn(usize, (usize, usize)) -> Option<f64> {}
impl<F: Fn(usize, (usize, usize)) -> Option<f64>> Cost for F {}

/// Each move's length in [`UNIT`]s on `track`, from metres.
pub(super) fn units(track: &Track, metres: &[f64]) -> [f64; 8] {
    let mut out = [0.0; 8];
    for (u, m) in out.iter_mut().zip(metres) {
        *u = m * UNIT / track.cell;
    }
    out
}

/// What a move of `length` units into a cell with price per metre
/// `price` costs, in units, rounded (half up: `f64::round` is a call
/// into the maths library where the processor has no rounding
/// instruction by default, and this is the search's inner loop); `None`
/// into a closed cell (`price` NaN). Rounding never lowers a price's
/// order: a dearer cell costs no less.
#[inline]
pub(super) fn move_cost(length: f64, price: f64) -> Option<u64> {
    let q = length * price;
    (q >= 0.0).then_some((q + 0.5) as i64 as u64)
}
