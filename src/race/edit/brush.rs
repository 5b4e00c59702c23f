//! What the editor paints (a brush: every kind of cell a track file has)
//! and how (a tool), each with its key, in one table that the keys and
//! the palette both read ([`BRUSHES`], [`TOOLS`]).

use crate::input::keys::KeyName;

/// A kind of cell to paint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    Wall,
    Asphalt,
    Grass,
    Gravel,
    Ice,
    Finish,
    /// A checkpoint, 1 to 9.
    Checkpoint(u8),
    /// A start slot, facing its heading: `>` `v` `<` `^`.
    Start(char),
}

/// The headings of a start slot, in the order its key turns them.
const HEADINGS: [char; 4] = ['>', 'v', '<', '^'];

impl Brush {
    /// The character the brush writes in the file.
    pub fn glyph(self) -> char {
        match self {
            Brush::Wall => '#',
            Brush::Asphalt => '.',
            Brush::Grass => ' ',
            Brush::Gravel => ':',
            Brush::Ice => '~',
            Brush::Finish => '=',
            Brush::Checkpoint(n) => char::from(b'0' + n.clamp(1, 9)),
            Brush::Start(h) => h,
        }
    }

    /// What the palette calls it.
    pub fn name(self) -> String {
        match self {
            Brush::Wall => "wall".into(),
            Brush::Asphalt => "asphalt".into(),
            Brush::Grass => "grass".into(),
            Brush::Gravel => "gravel".into(),
            Brush::Ice => "ice".into(),
            Brush::Finish => "finish line".into(),
            Brush::Checkpoint(n) => format!("checkpoint {n}"),
            Brush::Start(h) => format!("start slot {h}"),
        }
    }

    /// The brush a key picks, from `now`: a digit picks its checkpoint,
    /// `s` a start slot, turning its heading when it is one already.
    pub fn picked(key: KeyName, now: Brush) -> Option<Brush> {
        if let KeyName::Char(c @ '1'..='9') = key {
            return Some(Brush::Checkpoint(c as u8 - b'0'));
        }
        let (_, brush, _) = BRUSHES.iter().find(|(k, _, _)| *k == key)?;
        Some(match (brush, now) {
            (Brush::Start(_), Brush::Start(h)) => {
                let i = HEADINGS.iter().position(|&x| x == h).unwrap_or(0);
                Brush::Start(HEADINGS[(i + 1) % HEADINGS.len()])
            }
            _ => *brush,
        })
    }
}

/// How a brush is put down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The cell under the cursor.
    Point,
    /// A straight line from a first point to a second.
    Line,
    /// A rectangle's outline between two corners.
    Rect,
    /// A filled rectangle between two corners.
    Filled,
    /// Every cell joined to the one under the cursor and like it.
    Fill,
}

impl Tool {
    /// The palette's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Point => "point",
            Tool::Line => "line",
            Tool::Rect => "rect",
            Tool::Filled => "filled",
            Tool::Fill => "fill",
        }
    }

    /// Whether the tool takes two points (the first marked, then the
    /// second paints).
    pub fn two_points(self) -> bool {
        matches!(self, Tool::Line | Tool::Rect | Tool::Filled)
    }
}

use KeyName::Char;

/// The brushes and their keys, as the palette lists them (digits pick
/// the checkpoints).
pub const BRUSHES: [(KeyName, Brush, &str); 7] = [
    (Char('w'), Brush::Wall, "wall"),
    (Char('a'), Brush::Asphalt, "asphalt"),
    (Char('g'), Brush::Grass, "grass"),
    (Char('r'), Brush::Gravel, "gravel"),
    (Char('i'), Brush::Ice, "ice"),
    (Char('f'), Brush::Finish, "finish"),
    // Again: the slot turns to its next heading.
    (Char('s'), Brush::Start('>'), "start"),
];

/// The tools and their keys.
pub const TOOLS: [(KeyName, Tool); 5] = [
    (Char('p'), Tool::Point),
    (Char('l'), Tool::Line),
    (Char('e'), Tool::Rect),
    (Char('b'), Tool::Filled),
    (Char('k'), Tool::Fill),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_brush_writes_what_the_parser_reads_as_it() {
        let mut all: Vec<Brush> = BRUSHES.iter().map(|b| b.1).collect();
        all.extend((1..=9).map(Brush::Checkpoint));
        all.extend(HEADINGS.map(Brush::Start));
        let glyphs: String = all.iter().map(|b| b.glyph()).collect();
        assert_eq!(glyphs, "#. :~=>123456789>v<^");
    }

    #[test]
    fn the_start_key_turns_a_start_slot_round() {
        let s = KeyName::Char('s');
        let mut b = Brush::Wall;
        let mut seen = String::new();
        for _ in 0..5 {
            b = Brush::picked(s, b).unwrap();
            seen.push(b.glyph());
        }
        assert_eq!(seen, ">v<^>");
        assert_eq!(
            Brush::picked(KeyName::Char('7'), b),
            Some(Brush::Checkpoint(7))
        );
        assert_eq!(Brush::picked(KeyName::Char('z'), b), None);
    }
}
