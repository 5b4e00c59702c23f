//! The fewest bytes that put a frame's changed cells on a terminal: what
//! a player over SSH pays for every frame (docs/SERVE.md: at most 4 KB/s at
//! 80x24, 30 frames a second).
//!
//! ratatui's crossterm backend writes each colour as a 256-colour index
//! with the background beside it (`ESC[38;5;12;49m`, 13 bytes) and resets
//! every attribute at the end of each frame (about 20 bytes). Here the
//! sixteen named colours are their plain codes (`ESC[94m`, 5 bytes; the
//! same colours: indexes 0 to 15 are those sixteen on every terminal),
//! only what changed goes into one sequence, and the pen carries over to
//! the next frame: nothing else writes to the screen between frames, and
//! clearing starts from a reset pen.

use std::io::{self, Write};

use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier};

/// The terminal's current colours and attributes, as last written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Default for Pen {
    fn default() -> Pen {
        Pen {
            fg: Color::Reset,
            bg: Color::Reset,
            modifier: Modifier::empty(),
        }
    }
}

/// An SGR colour code: `base` 30 for the foreground, 40 for the
/// background.
fn colour(out: &mut Vec<u8>, c: Color, base: u8) {
    let named = |n: u8| n + base;
    let bright = |n: u8| n + base + 60;
    let code = match c {
        Color::Reset => named(9),
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => bright(0),
        Color::LightRed => bright(1),
        Color::LightGreen => bright(2),
        Color::LightYellow => bright(3),
        Color::LightBlue => bright(4),
        Color::LightMagenta => bright(5),
        Color::LightCyan => bright(6),
        Color::White => bright(7),
        Color::Indexed(i) => {
            let _ = write!(out, "{};5;{i}", base + 8);
            return;
        }
        Color::Rgb(r, g, b) => {
            let _ = write!(out, "{};2;{r};{g};{b}", base + 8);
            return;
        }
    };
    let _ = write!(out, "{code}");
}

/// The SGR parameters of each attribute, in `Modifier`'s bit order.
const ATTRIBUTES: [(Modifier, u8); 9] = [
    (Modifier::BOLD, 1),
    (Modifier::DIM, 2),
    (Modifier::ITALIC, 3),
    (Modifier::UNDERLINED, 4),
    (Modifier::SLOW_BLINK, 5),
    (Modifier::RAPID_BLINK, 6),
    (Modifier::REVERSED, 7),
    (Modifier::HIDDEN, 8),
    (Modifier::CROSSED_OUT, 9),
];

impl Pen {
    /// The one SGR sequence that turns this pen into `to` (none if they
    /// are the same). An attribute taken away resets all, then sets what
    /// `to` has.
    fn change(&mut self, to: Pen, out: &mut Vec<u8>) {
        if *self == to {
            return;
        }
        out.extend_from_slice(b"\x1b[");
        let start = out.len();
        let sep = |out: &mut Vec<u8>| {
            if out.len() > start {
                out.push(b';');
            }
        };
        let mut from = *self;
        if !(from.modifier - to.modifier).is_empty() {
            out.push(b'0');
            from = Pen::default();
        }
        for (m, code) in ATTRIBUTES {
            if to.modifier.contains(m) && !from.modifier.contains(m) {
                sep(out);
                let _ = write!(out, "{code}");
            }
        }
        if to.fg != from.fg {
            sep(out);
            colour(out, to.fg, 30);
        }
        if to.bg != from.bg {
            sep(out);
            colour(out, to.bg, 40);
        }
        out.push(b'm');
        *self = to;
    }
}

/// Writes `content`'s cells to `w`, moving the cursor only where a cell
/// does not follow the last one written, starting from `pen` and leaving
/// it as the terminal's pen after.
pub fn draw<'a, W: Write>(
    w: &mut W,
    content: impl Iterator<Item = (u16, u16, &'a Cell)>,
    pen: &mut Pen,
) -> io::Result<()> {
    let mut out = Vec::with_capacity(1024);
    let mut next: Option<(u16, u16)> = None;
    for (x, y, cell) in content {
        match next {
            Some((nx, ny)) if nx == x && ny == y => {}
            Some((nx, ny)) if ny == y && x > nx => {
                // Forward on the same row.
                let _ = write!(out, "\x1b[{}C", x - nx);
            }
            _ => {
                let _ = write!(out, "\x1b[{};{}H", y + 1, x + 1);
            }
        }
        let to = Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        };
        pen.change(to, &mut out);
        let symbol = cell.symbol();
        out.extend_from_slice(symbol.as_bytes());
        let width = unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        next = Some((x + width, y));
    }
    w.write_all(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(symbol: &'static str, fg: Color, modifier: Modifier) -> Cell {
        let mut c = Cell::new(symbol);
        c.fg = fg;
        c.modifier = modifier;
        c
    }

    #[test]
    fn runs_share_one_move_and_colours_are_short() {
        let a = cell("a", Color::LightBlue, Modifier::empty());
        let b = cell("b", Color::LightBlue, Modifier::empty());
        let c = cell("c", Color::Indexed(200), Modifier::BOLD);
        let mut out = Vec::new();
        let mut pen = Pen::default();
        draw(
            &mut out,
            [(3, 0, &a), (4, 0, &b), (9, 0, &c)].into_iter(),
            &mut pen,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\x1b[1;4H\x1b[94mab\x1b[4C\x1b[1;38;5;200mc"
        );
        // The pen carries over: the same colours again cost nothing; an
        // attribute dropped resets.
        let mut out = Vec::new();
        let d = cell("d", Color::Indexed(200), Modifier::BOLD);
        let e = cell("e", Color::Reset, Modifier::empty());
        draw(&mut out, [(0, 1, &d), (1, 1, &e)].into_iter(), &mut pen).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "\x1b[2;1Hd\x1b[0me");
    }

    #[test]
    fn a_terminal_emulator_reads_the_same_screen() {
        // Every named colour and attribute through vt100: what it shows
        // is what the cells say.
        let colours = [
            Color::Red,
            Color::Gray,
            Color::DarkGray,
            Color::White,
            Color::LightCyan,
            Color::Rgb(1, 2, 3),
        ];
        let cells: Vec<Cell> = colours
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let mut cell = cell("x", c, ATTRIBUTES[i % 3].0);
                cell.bg = colours[(i + 1) % colours.len()];
                cell
            })
            .collect();
        let mut out = Vec::new();
        let mut pen = Pen::default();
        let content = cells.iter().enumerate().map(|(i, c)| (2 * i as u16, 0, c));
        draw(&mut out, content, &mut pen).unwrap();
        let n = |v| std::num::NonZeroU16::new(v).unwrap();
        let mut term = vt100::Parser::new(n(2), n(20), 0);
        term.process(&out);
        let vt = |c: Color| match c {
            Color::Red => vt100::Color::Idx(1),
            Color::Gray => vt100::Color::Idx(7),
            Color::DarkGray => vt100::Color::Idx(8),
            Color::White => vt100::Color::Idx(15),
            Color::LightCyan => vt100::Color::Idx(14),
            Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
            _ => vt100::Color::Default,
        };
        for (i, c) in cells.iter().enumerate() {
            let shown = term.screen().cell(0, 2 * i as u16).unwrap();
            assert_eq!(shown.fgcolor(), vt(c.fg), "cell {i}");
            assert_eq!(shown.bgcolor(), vt(c.bg), "cell {i}");
            assert_eq!(
                shown.bold(),
                c.modifier.contains(Modifier::BOLD),
                "cell {i}"
            );
            assert_eq!(
                shown.italic(),
                c.modifier.contains(Modifier::ITALIC),
                "cell {i}"
            );
        }
    }
}
