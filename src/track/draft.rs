//! A track file as text being edited (`skid edit`): its front matter
//! kept as written, its map as rows of characters, how its lines end and
//! what follows the map. Written back ([`Draft::text`]) it is the file it
//! was read from, byte for byte, where nothing was changed: so a track
//! opened and saved keeps its content id, and with it its records.
//!
//! The map is what [`super::parse`] reads as one: the lines after the
//! front matter (the whole file without one), less blank lines at the end.
//! A row shorter than the widest is grass past its end, as the parser
//! pads it; painting past a row's end fills the gap with grass (` `).

/// A track file being edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// Everything before the map, as read: a byte-order mark, the front
    /// matter between its `+++` lines.
    head: String,
    /// The map's rows, each its characters and whether its line ended
    /// `\r\n` (a file may mix them).
    rows: Vec<(Vec<char>, bool)>,
    /// Whether a row added ends `\r\n`: as the file's first line did.
    crlf: bool,
    /// What follows the map's last row, as read: its line's end, blank
    /// lines.
    tail: String,
}

/// The front matter a new track starts with.
const NEW_HEAD: &str = "+++\nname = \"New track\"\nlaps = 3\n+++\n";

impl Draft {
    /// A new track of `width` x `height` cells of grass inside a wall.
    pub fn new(width: usize, height: usize) -> Draft {
        let (width, height) = (width.max(3), height.max(3));
        let rows = (0..height)
            .map(|y| {
                let row = (0..width)
                    .map(|x| {
                        let edge = x == 0 || y == 0 || x == width - 1 || y == height - 1;
                        if edge { '#' } else { ' ' }
                    })
                    .collect();
                (row, false)
            })
            .collect();
        Draft {
            head: NEW_HEAD.to_string(),
            rows,
            crlf: false,
            tail: "\n".to_string(),
        }
    }

    /// The draft of a track file's `text`.
    pub fn read(text: &str) -> Draft {
        let lines: Vec<&str> = text.split('\n').collect();
        let bare = |l: &str| l.trim_end().to_string();
        let first = lines[0].strip_prefix('\u{feff}').unwrap_or(lines[0]);
        let map_start = if bare(first) == "+++" {
            (lines.iter().skip(1).position(|l| bare(l) == "+++")).map_or(lines.len(), |c| c + 2)
        } else {
            0
        };
        // The map ends at its last line with anything on it.
        let blank = |l: &&&str| l.strip_suffix('\r').unwrap_or(l).is_empty();
        let map = &lines[map_start.min(lines.len())..];
        let rows = map.len() - map.iter().rev().take_while(blank).count();
        let head_len: usize = lines[..map_start].iter().map(|l| l.len() + 1).sum();
        let head_len = head_len.min(text.len());
        let body_len = map[..rows].iter().map(|l| l.len() + 1).sum::<usize>();
        Draft {
            head: text[..head_len].to_string(),
            rows: (map[..rows].iter())
                .map(|l| match l.strip_suffix('\r') {
                    Some(l) => (l.chars().collect(), true),
                    None => (l.chars().collect(), false),
                })
                .collect(),
            crlf: lines[0].ends_with('\r'),
            tail: text[(head_len + body_len.saturating_sub(1)).min(text.len())..].to_string(),
        }
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut out = self.head.clone();
        for (i, (row, cr)) in self.rows.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.extend(row.iter());
            if *cr {
                out.push('\r');
            }
        }
        out.push_str(&self.tail);
        out
    }

    /// The front matter's value of `key` (`name`, `laps`, `cell`) as
    /// written there, a string's without its quotes; none where it is not
    /// set or the front matter is not TOML.
    pub fn front(&self, key: &str) -> Option<String> {
        let (start, end) = self.front_lines()?;
        let lines: Vec<&str> = self.head.split('\n').collect();
        let text = lines[start + 1..end].join("\n");
        let table: toml::Table = toml::from_str(&text).ok()?;
        Some(match table.get(key)? {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    /// Sets the front matter's `key` to `value`, TOML as it is to be
    /// written (`"My Ring"`, `4`): the line setting it now is replaced,
    /// else one is added first in the front matter (made where there is
    /// none). Nothing else in the file changes.
    pub fn set_front(&mut self, key: &str, value: &str) {
        let eol = if self.crlf { "\r" } else { "" };
        let line = format!("{key} = {value}{eol}");
        let Some((start, end)) = self.front_lines() else {
            let (bom, rest) = match self.head.strip_prefix('\u{feff}') {
                Some(rest) => ("\u{feff}", rest.to_string()),
                None => ("", self.head.clone()),
            };
            self.head = format!("{bom}+++{eol}\n{line}\n+++{eol}\n{rest}");
            return;
        };
        let mut lines: Vec<String> = self.head.split('\n').map(str::to_string).collect();
        let sets = |l: &String| {
            let l = l.trim_start();
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        };
        match (start + 1..end).find(|&i| sets(&lines[i])) {
            Some(i) => lines[i] = line,
            None => lines.insert(start + 1, line),
        }
        self.head = lines.join("\n");
    }

    /// The lines of `head` that open and close the front matter, if it
    /// has one.
    fn front_lines(&self) -> Option<(usize, usize)> {
        let lines: Vec<&str> = self.head.split('\n').collect();
        let bare = |l: &str| l.trim_start_matches('\u{feff}').trim_end().to_string();
        if bare(lines.first()?) != "+++" {
            return None;
        }
        let end = (lines.iter().skip(1)).position(|l| bare(l) == "+++")? + 1;
        Some((0, end))
    }

    /// The file's line number of the map's first row (from 1), as the
    /// parser's messages count lines.
    pub fn map_line(&self) -> usize {
        self.head.matches('\n').count() + 1
    }

    /// The map's columns (its widest row) and rows.
    pub fn size(&self) -> (usize, usize) {
        let width = self.rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
        (width, self.rows.len())
    }

    /// The character at column `x`, row `y` of the map: grass (` `) past
    /// a short row's end, none outside the map.
    pub fn get(&self, x: usize, y: usize) -> Option<char> {
        let row = &self.rows.get(y)?.0;
        // The map's width is only worked out past a short row's end: this
        // is read for every cell drawn.
        match row.get(x) {
            Some(&c) => Some(c),
            None => (x < self.size().0).then_some(' '),
        }
    }

    /// Sets the character at `x`, `y` of the map (grass up to it where
    /// its row was shorter); returns what was there, or none outside the
    /// map.
    pub fn set(&mut self, x: usize, y: usize, c: char) -> Option<char> {
        let was = self.get(x, y)?;
        let row = &mut self.rows[y].0;
        if row.len() <= x {
            row.resize(x + 1, ' ');
        }
        row[x] = c;
        Some(was)
    }

    /// The map made `width` x `height`: rows and columns cut off at the
    /// right and bottom, or added there (grass, walled round the new
    /// edge as the old one was not: the map's edge is wall anyway).
    pub fn resize(&mut self, width: usize, height: usize) {
        let (width, height) = (width.max(1), height.max(1));
        self.rows.resize(height, (Vec::new(), self.crlf));
        for row in &mut self.rows {
            row.0.resize(width, ' ');
        }
        if self.tail.is_empty() {
            self.tail = "\n".to_string();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bundled track, read and written untouched, is its file
    /// byte for byte; so are files with CRLF lines, no front matter, no
    /// final newline, blank lines after the map, a byte-order mark.
    #[test]
    fn a_file_read_and_written_untouched_is_the_same_bytes() {
        for (name, text) in crate::track::bundled::TRACKS {
            assert_eq!(Draft::read(text).text(), *text, "{name}");
        }
        for text in [
            "+++\r\nname = \"x\"\r\n+++\r\n#####\r\n#>=1#\r\n#####\r\n",
            "#####\n#>=1#\n#####",
            "#####\n#>=1#\n#####\n\n\n",
            "\u{feff}+++\nlaps = 2\n+++\n###\n#>#\n",
            "+++\nname = \"short rows\"\n+++\n#####\n#>\n#####\n",
            "",
            "+++\n+++\n",
        ] {
            assert_eq!(Draft::read(text).text(), text, "{text:?}");
        }
    }

    #[test]
    fn cells_are_read_and_set_where_the_parser_sees_them() {
        let mut d = Draft::read("+++\nname = \"x\"\n+++\n#####\n#>\n#####\n");
        assert_eq!(d.size(), (5, 3));
        assert_eq!(
            (d.get(1, 1), d.get(3, 1), d.get(5, 1)),
            (Some('>'), Some(' '), None)
        );
        assert_eq!(d.set(3, 1, '='), Some(' '));
        assert_eq!(d.set(9, 9, '='), None);
        assert_eq!(d.text(), "+++\nname = \"x\"\n+++\n#####\n#> =\n#####\n");
        d.resize(6, 4);
        assert_eq!(d.size(), (6, 4));
        assert!(
            d.text().ends_with("#> =  \n##### \n      \n"),
            "{:?}",
            d.text()
        );
    }

    /// The name, laps and cell size are set in the front matter, a line
    /// each, whatever else it holds; a file without one gets one.
    #[test]
    fn settings_go_in_the_front_matter() {
        let mut d = Draft::read("+++\nname = \"Old\"\n# a comment\n+++\n###\n#>#\n");
        assert_eq!(d.front("name").as_deref(), Some("Old"));
        d.set_front("name", "\"New \\\"one\\\"\"");
        d.set_front("laps", "5");
        assert_eq!(
            d.text(),
            "+++\nlaps = 5\nname = \"New \\\"one\\\"\"\n# a comment\n+++\n###\n#>#\n"
        );
        assert_eq!(d.front("name").as_deref(), Some("New \"one\""));
        assert_eq!(d.front("laps").as_deref(), Some("5"));
        let mut bare = Draft::read("###\r\n#>#\r\n");
        bare.set_front("laps", "2");
        assert_eq!(bare.text(), "+++\r\nlaps = 2\r\n+++\r\n###\r\n#>#\r\n");
        assert_eq!(bare.map_line(), 4);
    }

    #[test]
    fn a_new_track_is_grass_walled_round() {
        let d = Draft::new(5, 3);
        assert_eq!(d.text(), format!("{NEW_HEAD}#####\n#   #\n#####\n"));
    }
}
