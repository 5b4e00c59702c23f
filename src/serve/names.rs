//! Players' names: what an SSH user name shows as on the server, and
//! how two players are kept from showing the same one.

/// Names are at most this many characters (docs/SERVE.md).
pub const NAME_CHARS: usize = 16;

/// The SSH user name as a display name: what it looks like. Only visible
/// characters of non-zero width are kept ([`visible`]), at most 16,
/// trimmed of spaces; `guest` if no letter, number, punctuation or
/// symbol is left. Names are compared after this, so two that look the
/// same are the same.
pub fn display_name(user: &str) -> String {
    let name: String = (user.chars())
        .filter(|&c| visible(c))
        .take(NAME_CHARS)
        .collect();
    let name = name.trim();
    let shows = |c: char| c != ' ' && !is_mark(c);
    if name.chars().any(shows) {
        name.to_string()
    } else {
        "guest".to_string()
    }
}

/// Whether `c` shows as itself: a letter, mark, number, punctuation or
/// symbol (by its Unicode general category), or the plain space; not a
/// control, format, separator, private-use, unassigned or surrogate code
/// point, nor one of the letters and symbols that draw nothing (the
/// Hangul fillers, the blank braille pattern).
pub fn visible(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    let shown = match get_general_category(c) {
        G::SpaceSeparator => c == ' ',
        G::Control
        | G::Format
        | G::LineSeparator
        | G::ParagraphSeparator
        | G::PrivateUse
        | G::Surrogate
        | G::Unassigned => false,
        _ => true,
    };
    shown
        && !matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
        )
}

/// Whether `c` is a combining mark: it shows only on what it follows.
fn is_mark(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(
        get_general_category(c),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark
    )
}

/// `name`, or `name` with a number after it if `taken` says a player has
/// it already: two players never show the same name.
pub fn unique_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_string();
    }
    // Fewer players than numbers: one of these is free.
    (2..=100_000)
        .map(|i| {
            let tail = format!("~{i}");
            let head: String = name.chars().take(NAME_CHARS - tail.len()).collect();
            head + &tail
        })
        .find(|n| !taken(n))
        .unwrap_or_else(|| name.to_string())
}
