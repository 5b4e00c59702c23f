//! Where a seat's tires slid: the skid marks its track view shows.
//!
//! Marks are only ever added, and let go a quarter of them at a time when
//! the trail is full, so that a painter can keep what it painted of a
//! trail and paint only the marks added since (`ui::track`): a trail of
//! thousands of marks repainted and compared every frame was a fifth of a
//! server's frame (in docs/BENCHMARKS.md's git history, "Skid marks kept").

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};

use glam::DVec2;

/// Skid marks kept at most.
pub const SKIDS: usize = 3000;

/// Marks let go at once when the trail is full: the oldest quarter.
const LET_GO: usize = SKIDS / 4;

/// A seat's skid marks, oldest first.
#[derive(Debug)]
pub struct Skids {
    points: VecDeque<DVec2>,
    /// Marks let go so far.
    dropped: u64,
    /// This trail among all of the process's, for painters that keep
    /// what they painted of it.
    trail: u64,
}

impl Default for Skids {
    fn default() -> Skids {
        Skids::new()
    }
}

impl Skids {
    /// No marks yet, on a trail of its own.
    pub fn new() -> Skids {
        static TRAILS: AtomicU64 = AtomicU64::new(0);
        Skids {
            points: VecDeque::new(),
            dropped: 0,
            trail: TRAILS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// One more mark; when the trail is full, the oldest quarter goes
    /// first.
    pub fn push(&mut self, at: DVec2) {
        if self.points.len() >= SKIDS {
            self.points.drain(..LET_GO);
            self.dropped += LET_GO as u64;
        }
        self.points.push_back(at);
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Marks added so far, those let go included.
    pub fn added(&self) -> u64 {
        self.dropped + self.points.len() as u64
    }

    /// The marks kept that came after the first `added` ever added.
    pub fn since(&self, added: u64) -> impl Iterator<Item = &DVec2> {
        let skip = added.saturating_sub(self.dropped);
        self.points
            .iter()
            .skip(usize::try_from(skip).unwrap_or(usize::MAX))
    }

    /// What the marks are a continuation of: this trail, and the marks
    /// let go of it so far. While it stays the same, marks are only added.
    pub fn stem(&self) -> (u64, u64) {
        (self.trail, self.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_trail_lets_its_oldest_quarter_go_at_once() {
        let mut skids = Skids::new();
        let at = |i: usize| DVec2::new(i as f64, 0.0);
        for i in 0..SKIDS {
            skids.push(at(i));
        }
        let stem = skids.stem();
        assert_eq!(skids.len(), SKIDS);
        assert_eq!(skids.since(SKIDS as u64 - 2).count(), 2);
        skids.push(at(SKIDS));
        assert_ne!(skids.stem(), stem, "marks let go: a new stem");
        assert_eq!(skids.len(), SKIDS - LET_GO + 1);
        assert_eq!(skids.since(0).next(), Some(&at(LET_GO)));
        assert_eq!(skids.added(), SKIDS as u64 + 1);
        let newest: Vec<_> = skids.since(SKIDS as u64 - 1).collect();
        assert_eq!(newest, [&at(SKIDS - 1), &at(SKIDS)]);
        assert_eq!(skids.since(0).count(), skids.len(), "let go, not shown");
        assert_ne!(Skids::new().stem().0, skids.stem().0, "a trail each");
    }
}
