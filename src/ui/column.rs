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
use super::text::put_str;
use crate::console::damage::Damage;

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
