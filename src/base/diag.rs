//! Diagnostics: problems in a user's file, positioned as `path:line:col:`.
//!
//! Every file skid reads from a user (tracks, car presets, input scripts)
//! reports its problems through [`Diagnostic`], so the command line prints
//! them all the same way and exits with status 2.

use std::fmt::{self, Write as _};

/// A 1-based line and column; columns count characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    pub fn new(line: usize, col: usize) -> Self {
        Pos { line, col }
    }
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub path: String,
    pub pos: Option<Pos>,
    pub message: String,
}

impl Diagnostic {
    pub fn at(path: &str, pos: Pos, message: impl Into<String>) -> Self {
        Diagnostic {
            path: path.to_string(),
            pos: Some(pos),
            message: message.into(),
        }
    }

    /// A problem with no position in the file (unreadable file, bad option).
    pub fn file(path: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            path: path.to_string(),
            pos: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `path:line:col: message`, the path with its control characters
    /// escaped ([`printable`]): a file's name is the user's, and may hold
    /// an escape sequence.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = printable(&self.path);
        match self.pos {
            Some(p) => write!(f, "{path}:{}:{}: {}", p.line, p.col, self.message),
            None => write!(f, "{path}: {}", self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// Every problem found in one or more files, in the order found: the
/// error of anything that reads a user's file, so `?` joins a single
/// [`Diagnostic`] and a list alike. Reads as a slice.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    /// One problem per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(ds: Vec<Diagnostic>) -> Self {
        Diagnostics(ds)
    }
}

impl std::ops::Deref for Diagnostics {
    type Target = [Diagnostic];
    fn deref(&self) -> &[Diagnostic] {
        &self.0
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Where byte `offset` of `text` stands, as a position in a file whose first
/// line of `text` is line `first_line`.
pub fn pos_of_offset(text: &str, offset: usize, first_line: usize) -> Pos {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Pos::new(
        first_line + before.matches('\n').count(),
        before[line_start..].chars().count() + 1,
    )
}

/// Turns a TOML error into a positioned diagnostic. `text` is the TOML that
/// was parsed and `first_line` the file line it starts on (front matter of a
/// track starts below its `+++` line).
pub fn from_toml(path: &str, text: &str, first_line: usize, err: &toml::de::Error) -> Diagnostic {
    let message = err.message().trim().to_string();
    match err.span() {
        Some(span) => Diagnostic::at(path, pos_of_offset(text, span.start, first_line), message),
        None => Diagnostic::file(path, message),
    }
}

/// The most errors reported for one file; past it, one more says so.
pub const MAX_ERRORS: usize = 50;

/// Positions `(key, message)` problems of one TOML file by their key
/// paths: dot-separated keys, with numbers indexing arrays
/// (`engine.gears.2`, `hold.3.steer`). Where a value is not written in the
/// file (a default that conflicts with a written value), the nearest
/// written parent is named; failing that, the file. The file is parsed
/// once, and at most [`MAX_ERRORS`] are reported (then "too many errors;
/// stopping here"), so any number of problems costs linear time.
pub fn at_keys(
    path: &str,
    text: &str,
    problems: impl IntoIterator<Item = (String, String)>,
) -> Vec<Diagnostic> {
    let root = toml::de::DeTable::parse(text).ok();
    let place =
        |key: &str, message: String| match root.as_ref().and_then(|r| key_offset(r.get_ref(), key))
        {
            Some(offset) => Diagnostic::at(path, pos_of_offset(text, offset, 1), message),
            None => Diagnostic::file(path, message),
        };
    let mut out = Vec::new();
    for (key, message) in problems {
        if out.len() == MAX_ERRORS {
            out.push(place(&key, "too many errors; stopping here".into()));
            break;
        }
        out.push(place(&key, message));
    }
    out
}

fn key_offset(root: &toml::de::DeTable, key: &str) -> Option<usize> {
    use toml::de::DeValue;
    let mut table = root;
    let mut found = None;
    let mut segs = key.split('.').peekable();
    while let Some(seg) = segs.next() {
        let Some((_, mut value)) = table.iter().find(|(k, _)| k.get_ref() == seg) else {
            return found;
        };
        found = Some(value.span().start);
        // Array indices that follow.
        while let (DeValue::Array(items), Some(Ok(i))) =
            (value.get_ref(), segs.peek().map(|s| s.parse::<usize>()))
        {
            segs.next();
            match items.get(i) {
                Some(item) => {
                    value = item;
                    found = Some(item.span().start);
                }
                None => return found,
            }
        }
        match value.get_ref() {
            DeValue::Table(t) => table = t,
            _ => return found,
        }
    }
    found
}

/// `n` things as a person writes them: `1 lap`, `3 laps` (`thing` is
/// the singular; the plural adds an s).
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// A number from a user's file as a person reads it in a message: in
/// exponent form where the plain one would run to dozens of digits
/// (`1e308`, not 309 of them).
pub fn number(v: f64) -> String {
    let tiny = v != 0.0 && v.abs() < 1e-6;
    if v.is_finite() && (v.abs() >= 1e15 || tiny) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Whether `c` changes the direction text is shown in (bidirectional
/// embeddings, overrides, isolates and marks): such characters can make a
/// name read as something else, so names refuse them.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` safe to print on a terminal: control characters (an escape
/// sequence could retitle or reprogram the terminal) and bidirectional
/// controls shown as `\u{1b}` and the like.
pub fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || is_bidi_control(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// The most any file named on the command line may hold: a track of the
/// largest legal map (8192 x 8192 cells, up to 4 bytes a character) fits.
pub const MAX_FILE: u64 = 256 << 20;

/// Reads a file named on the command line ([`crate::base::files::read_capped`] at
/// [`MAX_FILE`], following links), mapping failures to a diagnostic that
/// names it.
pub fn read_file(path: &str) -> Result<Vec<u8>, Diagnostic> {
    crate::base::files::read_capped(std::path::Path::new(path), MAX_FILE, true)
        .map_err(|e| Diagnostic::file(path, format!("cannot read: {e}")))
}

/// Decodes UTF-8, reporting the first invalid byte's position.
pub fn utf8<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str, Diagnostic> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        Diagnostic::at(
            path,
            pos_of_offset(valid, valid.len(), 1),
            "invalid UTF-8 (files must be UTF-8 text)",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thing_is_singular_and_any_other_count_plural() {
        assert_eq!(count(1, "player"), "1 player");
        assert_eq!(count(0, "lap"), "0 laps");
        assert_eq!(count(2, "lap"), "2 laps");
    }

    #[test]
    fn huge_and_tiny_numbers_read_in_exponent_form() {
        assert_eq!(number(1e308), "1e308");
        assert_eq!(number(-2.5e-9), "-2.5e-9");
        assert_eq!(number(42.5), "42.5");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "inf");
    }

    #[test]
    fn names_print_with_controls_escaped() {
        assert_eq!(
            printable("a\u{1b}]0;pwned\u{7}b"),
            "a\\u{1b}]0;pwned\\u{7}b"
        );
        assert_eq!(printable("left\u{202e}right"), "left\\u{202e}right");
        assert_eq!(printable("Grand Prix · 東京"), "Grand Prix · 東京");
        assert!(is_bidi_control('\u{2067}') && !is_bidi_control('a'));
    }

    #[test]
    fn only_regular_files_are_read_and_never_past_the_cap() {
        use crate::base::files::read_capped;
        let err = |p: &str| read_file(p).unwrap_err().to_string();
        assert_eq!(
            err("/dev/zero"),
            "/dev/zero: cannot read: not a regular file"
        );
        assert_eq!(err("/"), "/: cannot read: not a regular file");
        let dir = std::env::temp_dir().join(format!("skid-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A FIFO with no writer: refused at once, not waited on.
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string for the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_capped(&fifo, 100, true).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let big = dir.join("big");
        std::fs::write(&big, vec![b'.'; 101]).unwrap();
        assert_eq!(
            read_capped(&big, 100, true).unwrap_err().to_string(),
            "larger than 0 MiB"
        );
        assert_eq!(read_capped(&big, 101, true).unwrap().len(), 101);
        // A link is followed only when asked.
        let link = dir.join("link");
        std::os::unix::fs::symlink(&big, &link).unwrap();
        assert!(read_capped(&link, 1000, true).is_ok());
        assert!(read_capped(&link, 1000, false).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn offsets_map_to_lines_and_character_columns() {
        let text = "ab\nçd\nef";
        assert_eq!(pos_of_offset(text, 0, 1), Pos::new(1, 1));
        assert_eq!(pos_of_offset(text, 3, 1), Pos::new(2, 1));
        // 'ç' is two bytes but one column.
        assert_eq!(pos_of_offset(text, 5, 1), Pos::new(2, 2));
        assert_eq!(pos_of_offset(text, 7, 10), Pos::new(12, 1));
    }

    #[test]
    fn key_paths_find_values_in_tables_and_arrays() {
        let text = "name = \"x\"\n[engine]\ngears = [3.0, 2.0, -1.0]\n[[hold]]\nticks = 1\n[[hold]]\nsteer = 9\n";
        let at =
            |k: &str| at_keys("c.toml", text, [(k.to_string(), "m".to_string())])[0].to_string();
        assert_eq!(at("engine.gears.2"), "c.toml:3:20: m");
        assert_eq!(at("hold.1.steer"), "c.toml:7:9: m");
        assert_eq!(
            at("engine.redline"),
            "c.toml:2:1: m",
            "an unwritten key: its table"
        );
        assert_eq!(at("nosuch"), "c.toml: m", "nothing written to point at");
        assert_eq!(at("name"), "c.toml:1:8: m");
    }

    #[test]
    fn invalid_utf8_is_positioned_at_the_bad_byte() {
        let d = utf8("t.track", b"##\n#\xff#").unwrap_err();
        assert_eq!(
            d.to_string(),
            "t.track:2:2: invalid UTF-8 (files must be UTF-8 text)"
        );
    }
}
