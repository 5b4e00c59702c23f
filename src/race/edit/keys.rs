//! The editor's keys besides its brushes and tools ([`super::brush`]):
//! one table that [`super::Editor::key`] reads, the panel lists in short
//! and the help (`?`) in words, so that a key and what it says of itself
//! never part.

use crate::input::keys::KeyName::{self, Char, Ctrl, Down, Enter, Esc, Left, Right, Space, Up};

/// What a key of the table does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// The cursor a cell that way (the arrow keys).
    Move,
    Put,
    Undo,
    Redo,
    Smaller,
    Bigger,
    Name,
    Size,
    FewerLaps,
    MoreLaps,
    RacingLine,
    Drive,
    /// Race from the cursor, facing the way the next arrow says.
    DriveHere,
    Save,
    Publish,
    Help,
    Leave,
}

/// Keys and what they do.
#[derive(Debug)]
pub struct EditKey {
    pub keys: &'static [KeyName],
    pub act: Act,
    /// What the panel says (none: the help only).
    pub short: &'static str,
    /// What the help says.
    pub help: &'static str,
}

const fn key(
    keys: &'static [KeyName],
    act: Act,
    short: &'static str,
    help: &'static str,
) -> EditKey {
    EditKey {
        keys,
        act,
        short,
        help,
    }
}

/// Every key of the editor's besides its brushes and tools, in the order
/// the panel and the help list them.
pub const KEYS: &[EditKey] = &[
    key(&[Up, Down, Left, Right], Act::Move, "", "move the cursor"),
    key(
        &[Space, Enter],
        Act::Put,
        "Space put",
        "put the brush down (line, box: a corner, then the other)",
    ),
    key(
        &[Char('u')],
        Act::Undo,
        "u undo",
        "undo a stroke (no limit)",
    ),
    key(&[Char('y'), Ctrl('r')], Act::Redo, "y redo", "redo it"),
    key(&[Char('-')], Act::Smaller, "", "a smaller brush"),
    key(
        &[Char('+'), Char('=')],
        Act::Bigger,
        "- + size",
        "a larger one (1 to 9)",
    ),
    key(&[Char('n')], Act::Name, "n name", "the track's name"),
    key(
        &[Char('o')],
        Act::RacingLine,
        "o line",
        "the computer's racing line, or not",
    ),
    key(&[Char('[')], Act::FewerLaps, "", "one lap fewer"),
    key(&[Char(']')], Act::MoreLaps, "[ ] laps", "one lap more"),
    key(&[Char('x')], Act::Size, "x size", "the map's size, WxH"),
    key(
        &[Char('d')],
        Act::Drive,
        "d drive",
        "race it from its start (q: back)",
    ),
    key(
        &[Char('h')],
        Act::DriveHere,
        "h here",
        "race it from the cursor: an arrow then faces the car",
    ),
    key(
        &[Ctrl('s')],
        Act::Save,
        "Ctrl-S save",
        "save (unraceable: a draft, asked twice)",
    ),
    key(
        &[Ctrl('p')],
        Act::Publish,
        "Ctrl-P publish",
        "on a server: publish it once driven; twice: take it back",
    ),
    key(&[Char('?')], Act::Help, "? help", "these keys"),
    key(
        &[Char('q'), Esc, Ctrl('c')],
        Act::Leave,
        "q leave",
        "leave (changes not saved: asked twice)",
    ),
];

/// What `key` does, if the table has it.
pub fn act(key: KeyName) -> Option<Act> {
    (KEYS.iter()).find(|k| k.keys.contains(&key)).map(|k| k.act)
}

/// The help's line for `k`: its keys, then its words.
pub fn entry(k: &EditKey) -> String {
    let names: Vec<String> = (k.keys.iter())
        .map(|key| match key {
            Char(c) => c.to_string(),
            key => key.label(),
        })
        .collect();
    format!("{:<12} {}", names.join(" "), k.help)
}

#[cfg(test)]
mod tests {
    use super::super::{Asked, Awaiting, Editor};
    use super::*;
    use crate::track::draft::Draft;

    /// `?` opens the help; the next key only closes it. `h` then an arrow
    /// races from the cursor that way: the drawing with one start slot,
    /// there; `h` then another key races nothing.
    #[test]
    fn help_closes_at_any_key_and_h_races_from_the_cursor() {
        let pocket = crate::track::bundled::TRACKS[0].1;
        let path = std::env::temp_dir().join("never-saved.track");
        let mut e = Editor::new(Draft::read(pocket), path, false);
        e.key(Char('?'));
        assert_eq!(e.awaiting, Awaiting::Help);
        assert_eq!(e.key(Char('x')), Asked::Nothing);
        assert!(
            e.awaiting == Awaiting::Nothing && e.prompt.is_none(),
            "x only closed it"
        );
        e.cursor = (10, 3);
        e.key(Char('h'));
        assert_eq!(e.key(Char('x')), Asked::Nothing);
        assert!(e.prompt.is_none());
        e.key(Char('h'));
        assert_eq!(e.key(Left), Asked::DriveHere('<'));
        let text = e.text_from_cursor('<');
        let map = Draft::read(&text);
        let (w, h) = map.size();
        let slots: Vec<_> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| map.get(x, y).is_some_and(|c| "><^v".contains(c)))
            .collect();
        assert_eq!(slots, [(10, 3)]);
        assert_eq!(map.get(10, 3), Some('<'));
    }

    /// No key does two things, nor is it a brush's or a tool's.
    #[test]
    fn every_key_does_one_thing() {
        let mut seen: Vec<KeyName> = Vec::new();
        let brushes = super::super::brush::BRUSHES.iter().map(|b| b.0);
        let tools = super::super::brush::TOOLS.iter().map(|t| t.0);
        for key in KEYS.iter().flat_map(|k| k.keys.iter().copied()) {
            assert!(!seen.contains(&key), "{key:?} twice");
            seen.push(key);
        }
        for key in brushes.chain(tools) {
            assert!(!seen.contains(&key), "{key:?} is a brush's or tool's");
        }
    }
}
