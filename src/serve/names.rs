//! Players' names: what an SSH user name shows as on the server, and
//! how two players are kept from showing the same one, or two that look
//! alike (Unicode TS #39's confusable skeletons, `unicode-security`).

/// Names are at most this many characters (docs/SERVE.md).
pub const NAME_CHARS: usize = 16;

/// The SSH user name as a display name: what it looks like. Only visible
/// characters of non-zero width are kept ([`visible`]), at most 16,
/// trimmed of spaces; `guest` if no letter, number, punctuation or
/// symbol is left. Names are compared after this, by how they look
/// ([`looks_like`]).
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
        && !ignorable(c)
        && !emoji_modifier(c)
}

/// Whether `c` is a default-ignorable code point (variation selectors,
/// the combining grapheme joiner, Mongolian and Khmer fillers...): it
/// draws nothing, though some are marks that pass for part of a letter.
fn ignorable(c: char) -> bool {
    use unicode_security::GeneralSecurityProfile;
    use unicode_security::general_security_profile::IdentifierType;
    c.identifier_type() == Some(IdentifierType::Default_Ignorable)
}

/// Whether `c` is an emoji skin-tone modifier: terminals disagree on
/// the width of an emoji with one (one cell, two or four), which shifts
/// every border drawn after a name that has it.
fn emoji_modifier(c: char) -> bool {
    ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

/// Whether two names look alike: the same confusable skeleton (Unicode
/// TS #39), so Cyrillic `а` passes for Latin `a`, and `I` for `l`.
pub fn looks_like(a: &str, b: &str) -> bool {
    unicode_security::skeleton(a).eq(unicode_security::skeleton(b))
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
/// it (or one that looks like it, as the caller judges) already: two
/// players never show the same name.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 51: marks and selectors that draw nothing passed the filter,
    /// and seven players showed as `alice` in one room.
    #[test]
    fn what_draws_nothing_is_dropped() {
        for c in [
            '\u{FE00}',
            '\u{FE0F}',
            '\u{034F}',
            '\u{180B}',
            '\u{17B4}',
            '\u{E0100}',
        ] {
            assert_eq!(display_name(&format!("ali{c}ce")), "alice", "{c:?}");
        }
        // An emoji's width is what terminals agree on: no selector, no
        // skin tone.
        assert_eq!(display_name("\u{263A}\u{FE0F}"), "\u{263A}");
        assert_eq!(display_name("\u{1F44D}\u{1F3FD}"), "\u{1F44D}");
    }

    /// A name that looks like one taken is numbered, as the same name is:
    /// Cyrillic `а` for Latin `a`, capital `I` for `l`.
    #[test]
    fn a_name_that_looks_like_one_taken_is_numbered() {
        let taken = ["alice".to_string()];
        let unique = |n: &str| unique_name(n, |m| taken.iter().any(|t| looks_like(t, m)));
        assert_eq!(unique("\u{0430}lice"), "\u{0430}lice~2");
        assert_eq!(unique("aIice"), "aIice~2");
        assert_eq!(unique("alice"), "alice~2");
        assert_eq!(unique("bob"), "bob");
        assert!(!looks_like("alice", "alicia"));
    }
}
