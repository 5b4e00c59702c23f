//! Work on the racing line split in parts run at once, one a core: the
//! parts of a long line ([`parts`], [`in_parts`]) and the two ends of a
//! search ([`crate::base::threads::two_cores`]). What is computed is the same however many
//! parts there are; only how long it takes changes.

/// Lines of this many points or more are worked on in two parts at once
/// ([`parts`]).
const TWO_PARTS: usize = 1 << 16;

pub(super) use crate::base::threads::two_cores;

/// In how many parts at once to work on a line of `n` points: two where
/// there are two cores and the line is long ([`TWO_PARTS`]), else one.
/// Every part is worked on as the whole line would be (a smoothing pass is
/// a function of the pass before), so the line is the same either way.
pub(super) fn parts(n: usize) -> usize {
    if n >= TWO_PARTS && two_cores() { 2 } else { 1 }
}

/// How many of `n` points (or cells) each part holds when they are worked
/// on in [`parts`] at once: one at least.
pub(super) fn part_len(n: usize) -> usize {
    n.div_ceil(parts(n)).max(1)
}

/// What `work` makes of each of `parts`, in order, each part on a thread
/// of its own but the first (where one can be had: [`crate::base::threads`]).
pub(super) fn in_parts<P: Send, R: Send>(
    parts: impl Iterator<Item = P>,
    work: impl Fn(P) -> R + Sync,
) -> Vec<R> {
    crate::base::threads::each(parts.collect(), work)
}
