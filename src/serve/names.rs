//! Players' names: what an SSH user name shows as on the server, and
//! how two players are kept from showing the same one.

/// Names are at most this many characters (docs/SERVE.md).
pub const NAME_CHARS: usize = 16;

/// The SSH user name as a display name: printable characters only (no
/// escapes, no bidi or other format controls), at most 16; `guest` if
/// nothing is left.
pub fn display_name(user: &str) -> String {
    let name: String = user
        .chars()
        .filter(|&c| !c.is_control() && !hidden(c))
        .take(NAME_CHARS)
        .collect();
    let name = name.trim();
    if name.is_empty() {
        "guest".to_string()
    } else {
        name.to_string()
    }
}

/// Characters that reorder text ([`crate::diag::is_bidi_control`], as
/// names from files refuse) or hide (zero-width spaces and joiners).
fn hidden(c: char) -> bool {
    crate::diag::is_bidi_control(c)
        || matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
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
