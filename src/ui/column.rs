//! A panel as a column of pieces: lines of text, blank rows and gauges,
//! laid top-down in an area by [`stack`], each drawn only where it fits
//! whole. The side panel and the results build their content as pieces
//! and leave placing them to this, instead of moving a cursor by hand.

use std::hash::{Hash, Hasher};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::gauges::{Bar, SlipBar};
use crate::damage::Damage;

/// One piece of a column.
pub enum Piece<'a> {
    /// A line of text in a style, cut to the column's width.
    Line(String, Style),
    /// A blank row.
    Gap,
    /// A two-row bar gauge.
    Bar(Bar<'a>),
    /// A two-row slip gauge.
    Slip(SlipBar<'a>),
}

impl Piece<'_> {
    /// Rows the piece takes.
    pub fn height(&self) -> u16 {
        match self {
            Piece::Line(..) | Piece::Gap => 1,
            Piece::Bar(_) | Piece::Slip(_) => 2,
        }
    }
}

/// What a piece draws, for [`Damage::part`]: equal keys, equal cells.
impl Hash for Piece<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            Piece::Line(text, style) => (text, style).hash(h),
            Piece::Gap => {}
            Piece::Bar(b) => (b.label, &b.text, b.fill.to_bits(), b.warn.to_bits()).hash(h),
            Piece::Slip(b) => (b.label, b.degrees.to_bits(), b.sliding).hash(h),
        }
    }
}

impl Widget for Piece<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        match self {
            Piece::Line(text, style) => {
                put_str(buf, area.x, area.y, &text, area.width, style);
            }
            Piece::Gap => {}
            Piece::Bar(bar) => bar.render(area, buf),
            Piece::Slip(bar) => bar.render(area, buf),
        }
    }
}

/// Whether `c` is one column wide and a grapheme of its own before
/// anything that follows it: printable ASCII and Latin-1, arrows, box
/// drawing, blocks, shapes and braille (everything the panels and the
/// track's labels write but players' names).
fn one_column(c: char) -> bool {
    // Not U+AD (a soft hyphen) nor U+25FD and U+25FE (two columns).
    matches!(c, ' '..='~' | '\u{A1}'..='\u{AC}' | '\u{AE}'..='\u{FF}' | '\u{2190}'..='\u{21FF}' | '\u{2500}'..='\u{25FC}' | '\u{25FF}' | '\u{2800}'..='\u{28FF}')
}

/// Writes `text` from `(x, y)` in `style`, at most `max` columns and not
/// past the buffer's right edge: what `Buffer::set_stringn` does, a
/// character a cell where every character is [`one_column`] (without
/// splitting the text into graphemes and measuring each, which every
/// panel line of every player's frame paid), and by `set_stringn` where
/// not.
pub fn put_str(buf: &mut Buffer, x: u16, y: u16, text: &str, max: u16, style: Style) {
    if !text.chars().all(one_column) {
        buf.set_stringn(x, y, text, usize::from(max), style);
        return;
    }
    let room = buf.area.right().saturating_sub(x).min(max);
    for (i, c) in (0..room).zip(text.chars()) {
        if let Some(cell) = buf.cell_mut((x + i, y)) {
            cell.set_char(c).set_style(style);
        }
    }
}

/// A line of text in the foreground colour `c`.
pub fn line<'a>(text: impl Into<String>, c: ratatui::style::Color) -> Piece<'a> {
    Piece::Line(text.into(), Style::new().fg(c))
}

/// Lays `pieces` top-down from the top of `area`, drawing each one that
/// fits whole below the last; returns the row below them all, at most the
/// area's bottom.
pub fn stack<'a>(buf: &mut Buffer, area: Rect, pieces: impl IntoIterator<Item = Piece<'a>>) -> u16 {
    stack_parts(buf, area, pieces, &mut Damage::All, None)
}

/// [`stack`], each piece a part of `damage` (blank rows none: a row
/// blank in both frames is the same), painted unless the buffer holds it
/// from the frame before (`kept`, [`Damage::part`]).
pub fn stack_parts<'a>(
    buf: &mut Buffer,
    area: Rect,
    pieces: impl IntoIterator<Item = Piece<'a>>,
    damage: &mut Damage,
    kept: Option<&Damage>,
) -> u16 {
    let mut y = area.y;
    for piece in pieces {
        let h = piece.height();
        if y + h <= area.bottom() && !matches!(piece, Piece::Gap) {
            let rect = Rect::new(area.x, y, area.width, h);
            if damage.part(buf, rect, &piece, kept) {
                piece.render(rect, buf);
            }
        }
        y = (y + h).min(area.bottom());
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Color;

    #[test]
    fn put_str_writes_what_set_stringn_writes() {
        let style = ratatui::style::Style::new().fg(Color::Red);
        let simple = (' '..='~').chain('\u{A1}'..='\u{FF}');
        let simple = simple
            .chain('\u{2190}'..='\u{21FF}')
            .chain('\u{2500}'..='\u{25FF}');
        let other = ['\u{AD}', 'é', '\u{301}', '漢', '\u{7}', '\u{200B}'];
        for c in simple.chain('\u{2800}'..='\u{28FF}').chain(other) {
            for (text, max) in [(format!("a{c}b"), 9), (format!("{c}{c}xy{c}"), 3)] {
                let area = Rect::new(0, 0, 6, 2);
                let mut want = Buffer::empty(area);
                want.set_stringn(2, 1, &text, max, style);
                let mut got = Buffer::empty(area);
                put_str(&mut got, 2, 1, &text, max as u16, style);
                assert_eq!(got, want, "{text:?}");
            }
        }
    }

    #[test]
    fn pieces_stack_top_down_and_only_whole_ones_are_drawn() {
        let area = Rect::new(2, 1, 10, 4);
        let mut buf = Buffer::empty(Rect::new(0, 0, 14, 6));
        let bar = Bar {
            label: "RPM",
            text: String::new(),
            fill: 0.5,
            warn: 0.9,
        };
        let below = stack(
            &mut buf,
            area,
            [
                line("first", Color::White),
                Piece::Gap,
                line("third row is long", Color::White),
                Piece::Bar(bar),
                line("never", Color::White),
            ],
        );
        let row = |y: u16| -> String {
            (0..14)
                .map(|x| buf.cell((x, y)).unwrap().symbol().to_string())
                .collect()
        };
        assert_eq!(row(1), "  first       ");
        assert_eq!(row(2).trim(), "");
        assert_eq!(row(3), "  third row   ", "cut to the width");
        assert_eq!(row(4).trim(), "", "a bar of two rows does not fit in one");
        assert_eq!(below, 5, "the area's bottom");
    }
}
