//! A player's screen as the game draws it: two buffers, the frame on the
//! terminal and the one being drawn (over a copy of it: a painter that
//! knows what changed repaints only that; after a frame painted whole,
//! over anything), and the cells that differ sent as one synchronized
//! update. What ratatui's `Terminal` does for a
//! frame, less its per-frame costs that a server pays for every player:
//! its diff works out every cell's display width, equal or not, by
//! grapheme segmentation (a quarter of a frame at 80x24); here equal cells
//! cost a compare, and a width is looked up only where a cell is not
//! ASCII, box drawing, a block or braille.

use std::io::{self, Write};
use std::sync::Arc;

use ratatui::backend::{Backend, ClearType};
use ratatui::buffer::{Buffer, Cell};
use ratatui::crossterm::queue;
use ratatui::crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use ratatui::layout::{Rect, Size};
use unicode_width::UnicodeWidthStr;

use super::{FrameWriter, SizedBackend, Wire, commit};
use crate::console::damage::Damage;

/// A screen of frames written to `W` (see the module's doc).
pub struct Frames<W: Write> {
    backend: SizedBackend<FrameWriter<W>>,
    wire: Arc<Wire>,
    /// What the terminal shows.
    shown: Buffer,
    /// The next frame, painted over a copy of the one shown (over the
    /// frame before it when the one shown was [`Damage::All`]).
    next: Buffer,
    /// What the shown frame's painter said may have changed in it
    /// ([`Damage::All`] after a clear: the terminal shows nothing).
    damage: Damage,
}

impl<W: Write> Frames<W> {
    /// A screen of `size` writing to `out`, and what its writer counts.
    /// Nothing is written until the first frame or [`Frames::redraw_all`].
    pub fn new(out: W, size: Size) -> (Frames<W>, Arc<Wire>) {
        let (writer, wire) = FrameWriter::new(out);
        let area = Rect::new(0, 0, size.width, size.height);
        let frames = Frames {
            backend: SizedBackend::new(writer, size),
            wire: wire.clone(),
            shown: Buffer::empty(area),
            next: Buffer::empty(area),
            damage: Damage::All,
        };
        (frames, wire)
    }

    /// The screen's size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        (self.shown.area.width, self.shown.area.height)
    }

    /// The screen's new size: cleared, and the next frame drawn whole.
    pub fn set_size(&mut self, size: Size) -> io::Result<()> {
        self.backend.set_size(size);
        let area = Rect::new(0, 0, size.width, size.height);
        self.shown = Buffer::empty(area);
        self.next = Buffer::empty(area);
        self.redraw_all()
    }

    /// Clears the terminal now and makes the next frame a whole one,
    /// without asking the terminal anything (docs/TERMINAL.md: a bare pty,
    /// a slow link or an SSH channel may never answer).
    pub fn redraw_all(&mut self) -> io::Result<()> {
        self.backend.clear_region(ClearType::All)?;
        self.shown.reset();
        self.next.reset();
        self.damage = Damage::All;
        commit(&mut self.backend, &self.wire)
    }

    /// Draws one frame with `paint` inside synchronized output, so no
    /// terminal shows half of it, and sends it at once.
    ///
    /// `paint` is given a buffer the screen's size holding the frame
    /// shown (but after a frame damaged as [`Damage::All`], anything),
    /// and that frame's damage, and leaves in it the whole new frame: a
    /// painter that keeps nothing resets it first; one whose frame before
    /// was [`Damage::Within`] its own key may repaint only the cells that
    /// frame damaged and those it damages now. It returns
    /// which cells may differ from the frame before ([`Damage`]): only
    /// those are compared. Debug builds hold every painter to both: the
    /// frame equals one painted into a blank buffer, and nothing changed
    /// outside its damage.
    pub fn frame(
        &mut self,
        mut paint: impl FnMut(&mut Buffer, Rect, &Damage) -> Damage,
    ) -> io::Result<()> {
        let area = self.next.area;
        warm([&self.next, &self.shown], self.damage.rects());
        let damage = paint(&mut self.next, area, &self.damage);
        if cfg!(debug_assertions) {
            let mut fresh = Buffer::empty(area);
            paint(&mut fresh, area, &Damage::All);
            assert!(
                fresh == self.next,
                "a painter left cells of the frame before in the buffer"
            );
        }
        let mask = damage.mask(&self.damage, area);
        let cells = changes(&self.shown, &self.next, mask.as_deref());
        // Outside its damage, nothing changed (without a mask there is
        // nothing to check).
        if cfg!(debug_assertions) && mask.is_some() {
            let at =
                |c: &[(u16, u16, &Cell)]| c.iter().map(|&(x, y, _)| (x, y)).collect::<Vec<_>>();
            assert_eq!(
                at(&cells),
                at(&changes(&self.shown, &self.next, None)),
                "a cell changed outside the painter's damage"
            );
        }
        queue!(self.backend, BeginSynchronizedUpdate)?;
        self.backend.draw(cells.iter().copied())?;
        self.backend.hide_cursor()?;
        queue!(self.backend, EndSynchronizedUpdate)?;
        let sent: Vec<usize> = (cells.iter())
            .map(|&(x, y, _)| {
                usize::from(y - area.y) * usize::from(area.width) + usize::from(x - area.x)
            })
            .collect();
        self.keep(mask.as_deref(), &sent, &damage);
        self.damage = damage;
        commit(&mut self.backend, &self.wire)
    }

    /// Makes the frame shown the frame just painted, leaving it in both
    /// buffers (the next painter is given it), unless it was damaged as
    /// [`Damage::All`]: its next painter keeps nothing, and the buffer is
    /// the one shown before (a whole screen's copy was a seventh of a
    /// lobby's frame). With a `mask`, only the cells `sent` and what wide
    /// ones among them cover (or covered) differ: a cell that differs but
    /// was not sent is one a wide character covers, whose cells a buffer
    /// holds blank.
    fn keep(&mut self, mask: Option<&[bool]>, sent: &[usize], damage: &Damage) {
        if mask.is_none() {
            if *damage == Damage::All {
                std::mem::swap(&mut self.shown, &mut self.next);
            } else {
                self.shown.content.clone_from(&self.next.content);
            }
            return;
        }
        let (shown, next) = (&mut self.shown.content, &self.next.content);
        for &i in sent {
            let wide = width(next[i].symbol()).max(width(shown[i].symbol())).max(1);
            for j in i..(i + wide).min(next.len()) {
                shown[j].clone_from(&next[j]);
            }
        }
        debug_assert!(shown == next, "the frame kept is the frame shown");
    }
}

/// Asks the CPU to load the cells of `buffers` within `rects` (the
/// rectangles of the frame before: what its painter blanks first and the
/// diff compares) into its cache, all at once. A server draws hundreds
/// of players' screens in turn, and each one's buffers are out of the
/// cache again by its next frame: the blank and the compare waited for
/// their cells one after another (a tenth of a turn of a hub of 1,000 in
/// rooms of 8; docs/BENCHMARKS.md). Only a hint: nothing elsewhere.
fn warm(buffers: [&Buffer; 2], rects: &[Rect]) {
    #[cfg(target_arch = "x86_64")]
    for b in buffers {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        for r in rects.iter().map(|r| r.intersection(b.area)) {
            if r.is_empty() {
                continue;
            }
            for y in r.top()..r.bottom() {
                let from = b.index_of(r.x, y);
                let cells = &b.content[from..from + usize::from(r.width)];
                let bytes = std::mem::size_of_val(cells);
                let at = cells.as_ptr().cast::<i8>();
                // Each cache line of the row's cells, the last one's too.
                for off in (0..bytes).step_by(64).chain([bytes - 1]) {
                    // SAFETY: a prefetch reads nothing and cannot fault;
                    // the address is within `cells` in any case.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(off)) };
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (buffers, rects);
}

/// Columns `symbol` takes: 1 for plain ASCII, box drawing, blocks and braille
/// (most of every frame, looked up by their bytes), else its Unicode
/// width (0 for what draws nothing).
fn width(symbol: &str) -> usize {
    match symbol.as_bytes() {
        [b] if b.is_ascii_graphic() || *b == b' ' => 1,
        // U+2500 to U+25BF (box drawing, blocks, some shapes; none wide)
        // and U+2800 to U+28FF (braille).
        [0xE2, 0x94..=0x96 | 0xA0..=0xA3, _] => 1,
        _ => symbol.width(),
    }
}

/// Whether two cells whose symbols are `x` and `y` look the same: what
/// `Cell`'s own `==` compares (ratatui's default features give cells an
/// underline colour), with each symbol fetched once and without a call
/// to the C library's `memcmp` for every cell's few bytes.
fn same(a: &Cell, x: &str, b: &Cell, y: &str) -> bool {
    let (x, y) = (x.as_bytes(), y.as_bytes());
    x.len() == y.len()
        && x.iter().zip(y).all(|(p, q)| p == q)
        && a.fg == b.fg
        && a.bg == b.bg
        && a.modifier == b.modifier
        && a.underline_color == b.underline_color
        && a.diff_option == b.diff_option
}

/// The cells of `next` to send over a terminal showing `prev` (the same
/// area): those that differ, and after a wide character that was or is
/// no longer there, the cells it covered; never the cells a wide
/// character of `next` covers (the terminal fills them itself). With a
/// `mask` (row by row, [`Damage::mask`]), only the cells it marks may
/// differ: the rest are not compared.
pub fn changes<'a>(
    prev: &Buffer,
    next: &'a Buffer,
    mask: Option<&[bool]>,
) -> Vec<(u16, u16, &'a Cell)> {
    let w = usize::from(next.area.width.max(1));
    let mut out = Vec::new();
    // Cells still covered by a wide character of `next`, and cells that
    // a wide character of either frame covered, to be sent again.
    let (mut covered, mut stale) = (0usize, 0usize);
    let n = next.content.len().min(prev.content.len());
    let mut i = 0;
    while i < n {
        // Outside the damage: the same in both frames, one column wide
        // (the ground: braille or blank). Skipped a run at a time.
        if let Some(m) = mask.filter(|m| !m[i] && stale == 0) {
            let run = unmarked(&m[i..n]);
            covered = covered.saturating_sub(run);
            i += run;
            continue;
        }
        let (at, now, was) = (i, &next.content[i], &prev.content[i]);
        i += 1;
        let (symbol, was_symbol) = (now.symbol(), was.symbol());
        let same = same(now, symbol, was, was_symbol);
        if covered == 0 && (!same || stale > 0) {
            let (x, y) = (at % w, at / w);
            out.push((next.area.x + x as u16, next.area.y + y as u16, now));
        }
        let wide = width(symbol);
        let was_wide = if same { wide } else { width(was_symbol) };
        covered = covered.saturating_sub(1).max(wide.saturating_sub(1));
        stale = stale.max(wide.max(was_wide)).saturating_sub(1);
    }
    bridged(next, out)
}

/// How many cells from the start of `mask` are unmarked: sixteen at a
/// time while none is (a loop the compiler makes wide), then one by one.
fn unmarked(mask: &[bool]) -> usize {
    let wide = mask
        .chunks_exact(16)
        .take_while(|c| !c.iter().fold(false, |a, &m| a | m));
    let skipped = wide.count() * 16;
    skipped + (mask[skipped..].iter().position(|&m| m)).unwrap_or(mask.len() - skipped)
}

/// `cells` (changed cells of `next`, in order) with the unchanged ones
/// between two of them in a row added where writing them again costs
/// fewer bytes than moving the cursor over them (`ESC[nC`, 4 bytes): up
/// to three one-column cells in the style of the changed cell before
/// them, so the pen needs no change. A lap clock's digits, `1:23.4` to
/// `1:23.9`, are one run rather than pieces.
fn bridged<'a>(next: &'a Buffer, cells: Vec<(u16, u16, &'a Cell)>) -> Vec<(u16, u16, &'a Cell)> {
    const MOVE: usize = 4;
    let mut out: Vec<(u16, u16, &Cell)> = Vec::with_capacity(cells.len());
    for (x, y, cell) in cells {
        if let Some(&(px, py, prev)) = out.last() {
            let from = px + width(prev.symbol()).max(1) as u16;
            if py == y && (from + 1..=from + 3).contains(&x) {
                let pen = |c: &Cell| (c.fg, c.bg, c.modifier, c.underline_color);
                let run: Option<Vec<&Cell>> = (from..x)
                    .map(|gx| next.cell((gx, y)))
                    .map(|c| c.filter(|c| width(c.symbol()) == 1 && pen(c) == pen(prev)))
                    .collect();
                let run = run.filter(|r| r.iter().map(|c| c.symbol().len()).sum::<usize>() < MOVE);
                out.extend(
                    (from..x)
                        .zip(run.unwrap_or_default())
                        .map(|(gx, c)| (gx, y, c)),
                );
            }
        }
        out.push((x, y, cell));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(lines: &[&str]) -> Buffer {
        Buffer::with_lines(lines.iter().copied())
    }

    fn sent(prev: &Buffer, next: &Buffer) -> Vec<(u16, u16, String)> {
        (changes(prev, next, None).into_iter())
            .map(|(x, y, c)| (x, y, c.symbol().to_string()))
            .collect()
    }

    #[test]
    fn with_a_mask_only_its_cells_are_compared_and_wide_leftovers_sent() {
        let prev = buffer(&["abcdefghijkl"]);
        let next = buffer(&["aBcDefghijkL"]);
        let mask: Vec<bool> = "..##.......#".chars().map(|c| c == '#').collect();
        let got = changes(&prev, &next, Some(&mask));
        let at: Vec<u16> = got.iter().map(|&(x, ..)| x).collect();
        assert_eq!(at, [3, 11], "B at 1 is outside the mask: not compared");
        // A wide character inside the mask gone: the cell it covered is
        // sent again though outside it.
        let prev = buffer(&["界cd"]);
        let next = buffer(&["xycd"]);
        let mask = [true, false, false, false];
        let got = changes(&prev, &next, Some(&mask));
        let at: Vec<u16> = got.iter().map(|&(x, ..)| x).collect();
        assert_eq!(at, [0, 1]);
    }

    #[test]
    fn unmarked_counts_up_to_the_first_marked_cell() {
        for len in [0, 1, 15, 16, 17, 40] {
            for first in 0..=len {
                let mask: Vec<bool> = (0..len).map(|i| i >= first && i % 3 != 1).collect();
                let want = mask.iter().position(|&m| m).unwrap_or(len);
                assert_eq!(unmarked(&mask), want, "{len} {first}");
            }
        }
    }

    #[test]
    fn only_the_cells_that_changed_are_sent() {
        let prev = buffer(&["abcd", "efgh"]);
        let next = buffer(&["abXd", "efgY"]);
        assert_eq!(sent(&prev, &next), [(2, 0, "X".into()), (3, 1, "Y".into())]);
        assert!(sent(&next, &next).is_empty());
    }

    #[test]
    fn a_wide_character_sends_itself_and_not_what_it_covers() {
        let prev = buffer(&["abcd"]);
        let next = buffer(&["a界d"]);
        assert_eq!(sent(&prev, &next), [(1, 0, "界".into())]);
    }

    #[test]
    fn a_wide_character_gone_sends_the_cells_it_covered() {
        let prev = buffer(&["a界d"]);
        let next = buffer(&["axyd"]);
        assert_eq!(sent(&prev, &next), [(1, 0, "x".into()), (2, 0, "y".into())]);
        // Replaced by a narrow one and a blank that equals what the buffer
        // holds under the wide one: the blank is sent all the same.
        let next = buffer(&["ax d"]);
        assert_eq!(sent(&prev, &next), [(1, 0, "x".into()), (2, 0, " ".into())]);
    }

    #[test]
    fn a_short_unchanged_run_is_written_over_rather_than_jumped() {
        let prev = buffer(&["t 1:23.4  abcdefgh"]);
        let next = buffer(&["t 1:29.8  Xbcd-fgX"]);
        let got = sent(&prev, &next);
        let at = |x: u16| {
            got.iter()
                .find(|(gx, ..)| *gx == x)
                .map(|(.., s)| s.as_str())
        };
        // `.` between two changed digits: one run.
        assert_eq!((at(5), at(6), at(7)), (Some("9"), Some("."), Some("8")));
        // So are the two blanks after it, `bcd` (3 bytes) between X and
        // -, and `fg`; not `1:2`, before the first change of its row.
        assert_eq!(got.len(), 13, "{got:?}");
        assert_eq!(at(4), None);
        // In another style than the change before it, or more than three
        // cells: jumped.
        let (mut prev, mut next) = (prev, next);
        for b in [&mut prev, &mut next] {
            b[(6u16, 0u16)].set_fg(ratatui::style::Color::Red);
        }
        let got = sent(&prev, &next);
        assert!(got.iter().all(|(x, ..)| *x != 6), "{got:?}");
        let next = buffer(&["XbcdeYgh"]);
        let prev = buffer(&["abcdefgh"]);
        assert_eq!(sent(&prev, &next).len(), 2, "four cells apart: a move");
    }

    /// A terminal's rows after each frame of `frames` in turn, drawn by
    /// [`Frames`] on a terminal emulator.
    fn shown(frames: &[&Buffer]) -> Vec<String> {
        let area = frames[0].area;
        let tap = super::super::Sink::default();
        let (mut screen, _) = Frames::new(tap.clone(), area.as_size());
        let n = |v: u16| std::num::NonZero::new(v).expect("a frame of some size");
        let mut vt = vt100::Parser::new(n(area.height), n(area.width), 0);
        for f in frames {
            screen
                .frame(|buf, _, _| {
                    buf.reset();
                    buf.merge(f);
                    Damage::All
                })
                .unwrap();
            vt.process(&tap.take());
        }
        (vt.screen().rows(0, area.width))
            .map(|r| r.trim_end().to_string())
            .collect()
    }

    #[test]
    fn a_terminal_shows_each_frame_whatever_came_before() {
        let frames = [
            buffer(&["ab界cd", "⠁⠂⠄ x"]),
            buffer(&["a界bcd", "⠁⠂⠄ x"]),
            buffer(&["abcdef", "⠁界⠄x"]),
            buffer(&["界界界", "      "]),
            buffer(&["a界界b", "界 ⠄ x"]),
        ];
        for prev in &frames {
            for next in &frames {
                let alone = shown(&[next]);
                assert_eq!(shown(&[prev, next]), alone, "{prev:?} to {next:?}");
            }
        }
        // What a terminal shows of one frame is the frame.
        assert_eq!(shown(&[&frames[4]]), ["a界界b", "界 ⠄ x"]);
    }
}
