//! What a painter knows of its frame: which cells may differ from the
//! previous frame it painted. Most of a race screen is the track's ground,
//! which is the same while the camera stays; comparing it cell by cell
//! with the frame before was most of what a server's frame cost
//! (docs/BENCHMARKS.md). A painter that can say where the moving things
//! are lets the frame diff (`console::frames`) compare those cells only.

use std::hash::{DefaultHasher, Hash, Hasher};

use ratatui::layout::Rect;

/// What may have changed in a frame since the one painted before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// Anything: every cell is compared.
    All,
    /// Only cells within `rects`, if the frame before had the same `key`:
    /// every cell outside them is a function of `key` alone (for a race
    /// screen: the screen's size and the ground under the camera).
    Within { key: u64, rects: Vec<Rect> },
}

impl Damage {
    /// Cells within `rects` may change; the rest is what `key` (any
    /// hashable description of it) paints.
    pub fn within(key: impl Hash, rects: Vec<Rect>) -> Damage {
        let mut h = DefaultHasher::new();
        key.hash(&mut h);
        Damage::Within {
            key: h.finish(),
            rects,
        }
    }

    /// One more rectangle that may change, if this damage has any bound.
    pub fn add(&mut self, rect: Rect) {
        self.extend([rect]);
    }

    /// Which cells of `area` (row by row) a frame damaged as `self`, after
    /// one damaged as `before`, may differ in: those within either's
    /// rectangles. None if any may: different keys, or either is
    /// [`Damage::All`].
    pub fn mask(&self, before: &Damage, area: Rect) -> Option<Vec<bool>> {
        let (
            Damage::Within { key, rects },
            Damage::Within {
                key: was,
                rects: were,
            },
        ) = (self, before)
        else {
            return None;
        };
        if key != was {
            return None;
        }
        let w = usize::from(area.width);
        let mut mask = vec![false; w * usize::from(area.height)];
        for r in rects.iter().chain(were).map(|r| r.intersection(area)) {
            for y in r.top()..r.bottom() {
                let row = usize::from(y - area.y) * w;
                let from = row + usize::from(r.x - area.x);
                mask[from..from + usize::from(r.width)].fill(true);
            }
        }
        Some(mask)
    }
}

/// More rectangles that may change, if the damage has any bound.
impl Extend<Rect> for Damage {
    fn extend<I: IntoIterator<Item = Rect>>(&mut self, more: I) {
        if let Damage::Within { rects, .. } = self {
            rects.extend(more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_is_the_union_of_both_frames_rectangles_under_one_key() {
        let area = Rect::new(0, 0, 4, 3);
        let now = Damage::within(7, vec![Rect::new(1, 0, 2, 1)]);
        let was = Damage::within(7, vec![Rect::new(3, 2, 5, 5)]);
        let mask = now.mask(&was, area).expect("same key");
        let cells: String = mask.iter().map(|&m| if m { '#' } else { '.' }).collect();
        assert_eq!(
            cells,
            ".##.\
                           ....\
                           ...#"
        );
        assert_eq!(now.mask(&Damage::within(8, vec![]), area), None);
        assert_eq!(now.mask(&Damage::All, area), None);
        assert_eq!(Damage::All.mask(&now, area), None);
    }
}
