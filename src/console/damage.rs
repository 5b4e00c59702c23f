//! What a painter knows of its frame: which cells may differ from the
//! previous frame it painted. Most of a race screen is the track's ground,
//! which is the same while the camera stays; comparing it cell by cell
//! with the frame before was most of what a server's frame cost
//! (docs/BENCHMARKS.md). A painter that can say where the moving things
//! are lets the frame diff (`console::frames`) compare those cells only.

use std::hash::{BuildHasher, Hash};
use std::sync::LazyLock;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// What may have changed in a frame since the one painted before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// Anything: every cell is compared.
    All,
    /// Only cells within `rects` and changed `parts`, if the frame before
    /// had the same `key`: every other cell is a function of `key` alone
    /// (for a race screen: where its track view is; the ground under the
    /// camera, with the skid marks, is a part).
    Within {
        key: u64,
        rects: Vec<Rect>,
        parts: Vec<Part>,
    },
}

/// A rectangle whose cells are a function of `key` (a hash of what it
/// shows, its place apart): the same part in two frames in a row, with
/// the same key, paints the same cells, which need no compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub rect: Rect,
    pub key: u64,
}

/// The hash of `key`, as damage keys are taken: foldhash, for some
/// twenty short lines a frame for each player (the standard hasher was
/// 5% of a server's frame), seeded at random once a process, so that no
/// name can be made to collide with another line on purpose.
fn hashed(key: impl Hash) -> u64 {
    static STATE: LazyLock<foldhash::quality::RandomState> = LazyLock::new(Default::default);
    STATE.hash_one(key)
}

impl Damage {
    /// Cells within `rects` may change; the rest is what `key` (any
    /// hashable description of it) paints.
    pub fn within(key: impl Hash, rects: Vec<Rect>) -> Damage {
        Damage::Within {
            key: hashed(key),
            rects,
            // A race screen has some thirty parts (the panel's twenty
            // lines and gauges among them): room for them at once rather
            // than grown a frame at a time.
            parts: Vec::with_capacity(32),
        }
    }

    /// Whether this is [`Damage::Within`] `key` (hashed as
    /// [`Damage::within`] does).
    pub fn keyed(&self, key: impl Hash) -> bool {
        matches!(self, Damage::Within { key: k, .. } if *k == hashed(key))
    }

    /// Its rectangles, not its parts (none for [`Damage::All`]).
    pub fn rects(&self) -> &[Rect] {
        match self {
            Damage::All => &[],
            Damage::Within { rects, .. } => rects,
        }
    }

    /// Blanks the cells of `buf` within this damage's rectangles (not its
    /// parts: see [`Damage::part`] and [`Damage::blank_gone`]).
    pub fn blank(&self, buf: &mut Buffer) {
        for &r in self.rects() {
            blank(buf, r);
        }
    }

    /// One more rectangle that may change, if this damage has any bound.
    pub fn add(&mut self, rect: Rect) {
        self.extend([rect]);
    }

    /// A part of the frame (see [`Part`]) that shows what `key` (any
    /// hashable description of it) paints into `rect`, if this damage has
    /// any bound; whether to paint it.
    ///
    /// Not if `buf` still holds it: `kept` (the damage of the frame the
    /// buffer holds, with its rectangles blanked) had the same part, and
    /// none of its rectangles crossed it. Else, over a kept buffer, its
    /// cells are blanked first.
    pub fn part(
        &mut self,
        buf: &mut Buffer,
        rect: Rect,
        key: impl Hash,
        kept: Option<&Damage>,
    ) -> bool {
        !self.holds(buf, rect, key, kept, false)
    }

    /// A part (see [`Part`]) under everything else in `rect`, such as the
    /// track's ground: what `key` paints there, but for the cells of this
    /// frame's and `kept`'s rectangles, which the painter paints again.
    /// Whether `buf` still holds it: `kept` (the damage of the frame the
    /// buffer holds, its rectangles blanked) had the same part. Else,
    /// over a kept buffer, its cells are blanked, to be painted whole.
    pub fn backdrop(
        &mut self,
        buf: &mut Buffer,
        rect: Rect,
        key: impl Hash,
        kept: Option<&Damage>,
    ) -> bool {
        self.holds(buf, rect, key, kept, true)
    }

    /// Adds the part of `key` in `rect`, if this damage has any bound,
    /// and says whether `buf` still holds it: `kept` had the same part
    /// and, unless `under` (a part under `kept`'s rectangles, which their
    /// painter paints again), none of its rectangles crossed it. Else,
    /// over a kept buffer, its cells are blanked.
    fn holds(
        &mut self,
        buf: &mut Buffer,
        rect: Rect,
        key: impl Hash,
        kept: Option<&Damage>,
        under: bool,
    ) -> bool {
        let Damage::Within { parts, .. } = self else {
            return false;
        };
        let part = Part {
            rect,
            key: hashed(key),
        };
        let at = parts.len();
        parts.push(part);
        match kept {
            Some(Damage::Within { rects, parts, .. })
                if has(parts, at, &part)
                    && (under || !rects.iter().any(|r| r.intersects(rect))) =>
            {
                true
            }
            Some(_) => {
                blank(buf, rect);
                false
            }
            None => false,
        }
    }

    /// After every part of this frame is painted over a buffer holding the
    /// frame damaged as `kept`: blanks the cells of `kept`'s parts that no
    /// part of this frame covers (a line that is gone, a gauge now lower).
    pub fn blank_gone(&self, kept: &Damage, buf: &mut Buffer) {
        let (Damage::Within { parts, .. }, Damage::Within { parts: had, .. }) = (self, kept) else {
            return;
        };
        let gone = (had.iter().enumerate())
            .filter(|&(i, p)| !has(parts, i, p))
            .map(|(_, p)| p);
        for gone in gone {
            let r = gone.rect.intersection(buf.area);
            let over: Vec<Rect> = (parts.iter().map(|p| p.rect))
                .filter(|p| p.intersects(r))
                .collect();
            // Painted over whole (the ground under a camera that moved):
            // nothing of it is left, and no cell need be looked at.
            if over.iter().any(|p| p.union(r) == *p) {
                continue;
            }
            for at in r.positions() {
                if !over.iter().any(|p| p.contains(at)) {
                    buf[at].reset();
                }
            }
        }
    }

    /// Which cells of `area` (row by row) a frame damaged as `self`, after
    /// one damaged as `before`, may differ in: those within either's
    /// rectangles, and within either's parts but one the other frame had
    /// the same (place and key). None if any may: different keys, or
    /// either is [`Damage::All`].
    pub fn mask(&self, before: &Damage, area: Rect) -> Option<Vec<bool>> {
        let (
            Damage::Within { key, rects, parts },
            Damage::Within {
                key: was,
                rects: were,
                parts: had,
            },
        ) = (self, before)
        else {
            return None;
        };
        if key != was {
            return None;
        }
        let changed = |of: &[Part], other: &[Part]| -> Vec<Rect> {
            (of.iter().enumerate())
                .filter(|&(i, p)| !has(other, i, p))
                .map(|(_, p)| p.rect)
                .collect()
        };
        let (new, gone) = (changed(parts, had), changed(had, parts));
        let w = usize::from(area.width);
        let mut mask = vec![false; w * usize::from(area.height)];
        let all = rects.iter().chain(were).chain(&new).chain(&gone);
        for r in all.map(|r| r.intersection(area)) {
            for y in r.top()..r.bottom() {
                let row = usize::from(y - area.y) * w;
                let from = row + usize::from(r.x - area.x);
                mask[from..from + usize::from(r.width)].fill(true);
            }
        }
        Some(mask)
    }
}

/// Whether `parts` has `part`, looked for first at `at`: a painter adds
/// its parts in the same order every frame, so a part the frame before
/// had is most often at the same place in its list (some thirty parts a
/// frame, each compared with every other's, otherwise).
fn has(parts: &[Part], at: usize, part: &Part) -> bool {
    parts.get(at) == Some(part) || parts.contains(part)
}

/// Blanks the cells of `buf` within `r`.
fn blank(buf: &mut Buffer, r: Rect) {
    let r = r.intersection(buf.area);
    for y in r.top()..r.bottom() {
        let from = buf.index_of(r.x, y);
        for cell in &mut buf.content[from..from + usize::from(r.width)] {
            cell.reset();
        }
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

    #[test]
    fn a_part_is_compared_unless_the_frame_before_had_it_the_same() {
        let area = Rect::new(0, 0, 4, 3);
        let mut buf = Buffer::empty(area);
        let mut frame = |parts: &[(u16, &str)]| {
            let mut d = Damage::within(7, vec![]);
            for &(y, text) in parts {
                d.part(&mut buf, Rect::new(0, y, 4, 1), text, None);
            }
            d
        };
        let rows = |now: &Damage, was: &Damage| -> String {
            let mask = now.mask(was, area).expect("same key");
            (mask.chunks(4))
                .map(|r| if r.iter().all(|&m| m) { '#' } else { '.' })
                .collect()
        };
        let was = frame(&[(0, "LAP 1"), (1, "TIME 0:01"), (2, "gone")]);
        let now = frame(&[(0, "LAP 1"), (1, "TIME 0:02")]);
        assert_eq!(rows(&now, &was), ".##", "changed, and one no longer there");
        assert_eq!(rows(&was, &now), ".##", "changed, and a new one");
        assert_eq!(rows(&now, &now), "...");
        let moved = frame(&[(1, "LAP 1"), (0, "TIME 0:02")]);
        assert_eq!(rows(&moved, &now), "##.", "the same text elsewhere");
    }
}
