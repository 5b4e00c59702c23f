//! Text written into a buffer's cells, fast where it can be: most of
//! what the panels and the track's labels write is one column a
//! character, and is written as such.

use ratatui::buffer::Buffer;
use ratatui::style::Style;

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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
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
}
