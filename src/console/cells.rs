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

/// Attributes that show on a blank cell (a space): the others, and the
/// foreground colour, draw nothing there.
const SHOW_ON_BLANK: Modifier = Modifier::UNDERLINED
    .union(Modifier::REVERSED)
    .union(Modifier::CROSSED_OUT);

impl Pen {
    /// The pen that draws `cell` for the fewest bytes from this one: its
    /// colours and attributes, except that a space keeps this pen's
    /// foreground and the attributes that do not show on it. The spaces
    /// that clear what the camera left behind then cost no colour change
    /// before them, nor after when the next cell has this pen's colour.
    fn to_draw(self, cell: &Cell) -> Pen {
        let exact = Pen {
            fg: cell.fg,
            bg: cell.bg,
            modifier: cell.modifier,
        };
        if cell.symbol() != " " || cell.modifier.intersects(SHOW_ON_BLANK) {
            return exact;
        }
        Pen {
            fg: self.fg,
            modifier: cell.modifier | (self.modifier - SHOW_ON_BLANK),
            ..exact
        }
    }

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

/// Decimal digits of `n`.
fn digits(n: u16) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// A relative move of `n` cells by `final_byte` (`A` up, `B` down, `C`
/// right, `D` left), its count left out when it is 1; nothing for 0.
fn step(out: &mut Vec<u8>, n: u16, final_byte: char) {
    match n {
        0 => {}
        1 => {
            let _ = write!(out, "\x1b[{final_byte}");
        }
        _ => {
            let _ = write!(out, "\x1b[{n}{final_byte}");
        }
    }
}

/// Bytes of [`step`] by `n`.
fn step_len(n: u16) -> usize {
    match n {
        0 => 0,
        1 => 3,
        _ => 3 + digits(n),
    }
}

/// Moves the cursor from `from` (none: unknown) to `(x, y)` in the fewest
/// bytes: by rows and columns from where it is, or to the place itself
/// (`ESC[y;xH`, the column left out for the first).
fn move_to(out: &mut Vec<u8>, from: Option<(u16, u16)>, (x, y): (u16, u16)) {
    let absolute = 3 + digits(y + 1) + if x == 0 { 0 } else { 1 + digits(x + 1) };
    if let Some((fx, fy)) = from {
        let (dx, dy) = (x.abs_diff(fx), y.abs_diff(fy));
        if step_len(dx) + step_len(dy) <= absolute {
            step(out, dy, if y > fy { 'B' } else { 'A' });
            step(out, dx, if x > fx { 'C' } else { 'D' });
            return;
        }
    }
    let _ = match x {
        0 => write!(out, "\x1b[{}H", y + 1),
        _ => write!(out, "\x1b[{};{}H", y + 1, x + 1),
    };
}

/// Writes `content`'s cells to `w` (a screen `cols` wide), moving the
/// cursor only where a cell does not follow the last one written,
/// starting from `pen` and leaving it as the terminal's pen after.
pub fn draw<'a, W: Write>(
    w: &mut W,
    content: impl Iterator<Item = (u16, u16, &'a Cell)>,
    cols: u16,
    pen: &mut Pen,
) -> io::Result<()> {
    let mut out = Vec::with_capacity(1024);
    let mut next: Option<(u16, u16)> = None;
    for (x, y, cell) in content {
        if next != Some((x, y)) {
            // After the last column a terminal's cursor waits there to
            // wrap: where it stands then is not known for certain.
            move_to(&mut out, next.filter(|&(nx, _)| nx < cols), (x, y));
        }
        let to = pen.to_draw(cell);
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
            80,
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
        draw(&mut out, [(0, 1, &d), (1, 1, &e)].into_iter(), 80, &mut pen).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "\x1b[2Hd\x1b[0me");
    }

    /// A terminal of `rows` x `cols` that was sent `out`.
    fn shown(out: &[u8], rows: u16, cols: u16) -> vt100::Parser {
        let n = |v| std::num::NonZeroU16::new(v).unwrap();
        let mut term = vt100::Parser::new(n(rows), n(cols), 0);
        term.process(out);
        term
    }

    #[test]
    fn the_cursor_takes_the_shortest_way() {
        let x = cell("x", Color::Reset, Modifier::empty());
        let cells = [
            (70, 13),
            (67, 13),
            (64, 14),
            (64, 15),
            (9, 15),
            (79, 16),
            (0, 17),
        ];
        let mut out = Vec::new();
        let mut pen = Pen::default();
        let content = cells.iter().map(|&(c, r)| (c, r, &x));
        draw(&mut out, content, 80, &mut pen).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            // Back on a row, down a row and back, straight down, far
            // back on a row, down and far on (as short as the place),
            // and after the last column, where the cursor waits to wrap,
            // the place.
            "\x1b[14;71Hx\x1b[4Dx\x1b[B\x1b[4Dx\x1b[B\x1b[Dx\x1b[56Dx\x1b[B\x1b[69Cx\x1b[18Hx"
        );
        let term = shown(&out, 24, 80);
        for (c, r) in cells {
            assert_eq!(term.screen().cell(r, c).unwrap().contents(), "x", "{c},{r}");
        }
    }

    #[test]
    fn a_space_keeps_the_pen_unless_it_would_show() {
        let a = cell("a", Color::LightBlue, Modifier::BOLD);
        let space = cell(" ", Color::Reset, Modifier::empty());
        let b = cell("b", Color::LightBlue, Modifier::BOLD);
        let mut shaded = cell(" ", Color::Reset, Modifier::empty());
        shaded.bg = Color::Red;
        let reversed = cell(" ", Color::Reset, Modifier::REVERSED);
        let mut out = Vec::new();
        let mut pen = Pen::default();
        let row = [(0, 0, &a), (1, 0, &space), (2, 0, &b), (3, 0, &shaded)];
        let row = row.into_iter().chain([(4, 0, &reversed)]);
        draw(&mut out, row, 80, &mut pen).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "\x1b[1H\x1b[1;94ma b\x1b[41m \x1b[0;7m "
        );
        // What a terminal shows: the letters in their colour, the spaces
        // blank but for the red background and the reversed one.
        let term = shown(&out, 1, 8);
        let screen = term.screen();
        let at = |x| screen.cell(0, x).unwrap();
        assert_eq!(screen.contents().trim_end(), "a b");
        assert_eq!(at(2).fgcolor(), vt100::Color::Idx(12));
        assert_eq!(at(3).bgcolor(), vt100::Color::Idx(1));
        assert!(at(4).inverse() && !at(4).bold());
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
        draw(&mut out, content, 20, &mut pen).unwrap();
        let term = shown(&out, 2, 20);
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
