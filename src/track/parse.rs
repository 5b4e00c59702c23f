//! The track file format (docs/DESIGN.md, "Track files").
//!
//! Optional TOML front matter between two `+++` lines, then the map, one
//! character per cell. Every problem is reported as `path:line:col:` with
//! lines counted from the file's first line; all problems of a file are
//! gathered where the parse can go on (a TOML syntax error stops it, since
//! the legend is then unknown).

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use toml::Spanned;

use super::{
    Dir, MARK_FINISH, MARK_NONE, START_FOOTPRINT, Start, Track, WALL, default_surfaces, fnv1a,
};
use crate::diag::{self, Diagnostic, Diagnostics, Pos};
use crate::track::Obb;

/// The largest map, in columns and in rows.
pub const MAX_SIDE: usize = 8192;
/// Limits on front matter values.
pub const LAPS: std::ops::RangeInclusive<i64> = 1..=99;
pub const CELL: std::ops::RangeInclusive<f64> = 0.25..=100.0;
const GRIP: std::ops::RangeInclusive<f64> = 0.01..=3.0;
const ROLLING: std::ops::RangeInclusive<f64> = 0.0..=1.0;
const DRAG: std::ops::RangeInclusive<f64> = 0.0..=10.0;
/// A file with more problems than this is reported up to here.
const MAX_ERRORS: usize = 50;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    name: Option<Spanned<String>>,
    laps: Option<Spanned<i64>>,
    cell: Option<Spanned<f64>>,
    #[serde(default)]
    legend: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    surfaces: BTreeMap<Spanned<String>, SurfaceOverride>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SurfaceOverride {
    grip: Option<Spanned<f64>>,
    rolling: Option<Spanned<f64>>,
    drag: Option<Spanned<f64>>,
}

/// What a map character stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Glyph {
    Wall,
    Surface(u8),
    Finish,
    Checkpoint(u8),
    Start(Dir),
}

fn default_glyph(c: char) -> Option<Glyph> {
    Some(match c {
        '#' => Glyph::Wall,
        '.' => Glyph::Surface(0),
        ' ' | ',' => Glyph::Surface(1),
        ':' => Glyph::Surface(2),
        '~' => Glyph::Surface(3),
        '=' | '|' => Glyph::Finish,
        '1'..='9' => Glyph::Checkpoint(c as u8 - b'0'),
        '>' => Glyph::Start(Dir::East),
        'v' => Glyph::Start(Dir::South),
        '<' => Glyph::Start(Dir::West),
        '^' => Glyph::Start(Dir::North),
        _ => return None,
    })
}

/// Collects diagnostics for one file, stopping at [`MAX_ERRORS`].
struct Report<'a> {
    path: &'a str,
    errors: Vec<Diagnostic>,
}

impl Report<'_> {
    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(Diagnostic::at(self.path, pos, message));
        } else if self.errors.len() == MAX_ERRORS {
            self.errors.push(Diagnostic::at(
                self.path,
                pos,
                "too many errors; stopping here",
            ));
        }
    }

    fn full(&self) -> bool {
        self.errors.len() > MAX_ERRORS
    }
}

/// The front matter's TOML text and where it sits in the file.
struct Toml {
    text: String,
    first_line: usize,
}

impl Toml {
    fn pos<T>(&self, s: &Spanned<T>) -> Pos {
        diag::pos_of_offset(&self.text, s.span().start, self.first_line)
    }
}

/// Parses a track file. `path` names the file in diagnostics.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Track, Diagnostics> {
    let text = diag::utf8(path, bytes)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut report = Report {
        path,
        errors: Vec::new(),
    };

    // Front matter: lines[1..close], the map after it.
    let (front, map_start) = if lines[0].trim_end() == "+++" {
        let Some(close) = lines.iter().skip(1).position(|l| l.trim_end() == "+++") else {
            return Err(Diagnostics::from(Diagnostic::at(
                path,
                Pos::new(1, 1),
                "front matter opened here is never closed (no second `+++` line)",
            )));
        };
        let toml = Toml {
            text: lines[1..=close].join("\n"),
            first_line: 2,
        };
        (Some(toml), close + 2)
    } else {
        (None, 0)
    };

    let fm = match &front {
        Some(t) => match toml::from_str::<FrontMatter>(&t.text) {
            Ok(fm) => fm,
            Err(e) => return Err(diag::from_toml(path, &t.text, t.first_line, &e).into()),
        },
        None => FrontMatter::default(),
    };
    let mut track = Track {
        name: String::new(),
        laps: 3,
        cell: 2.0,
        width: 0,
        height: 0,
        surfaces: default_surfaces(),
        cells: Vec::new(),
        marks: Vec::new(),
        clearance: Vec::new(),
        reach: Vec::new(),
        uniform: Vec::new(),
        starts: Vec::new(),
        checkpoints: 0,
        id: fnv1a(bytes),
        map_line: 1,
    };
    let legend = match &front {
        Some(t) => settings(t, fm, &mut track, &mut report),
        None => HashMap::new(),
    };
    if track.name.is_empty() {
        track.name = default_name(path);
    }

    let mut map: &[&str] = &lines[map_start.min(lines.len())..];
    while let Some((last, rest)) = map.split_last() {
        if !last.is_empty() {
            break;
        }
        map = rest;
    }
    let first_line = map_start + 1;
    track.map_line = first_line;
    read_map(map, first_line, &legend, &mut track, &mut report);

    if report.errors.is_empty() {
        Ok(track)
    } else {
        report.errors.sort_by_key(|d| d.pos);
        Err(report.errors.into())
    }
}

/// A track with no `name` is called after its file, with anything in the
/// file name a terminal would act on escaped.
fn default_name(path: &str) -> String {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    diag::printable(file.strip_suffix(".track").unwrap_or(file))
}

/// Surface names are printed in CSV traces and on screen, so they are plain
/// words.
fn plain_word(s: &str) -> bool {
    (1..=24).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The value of an optional setting if it is given and within `range`;
/// reports it otherwise.
fn valid<T: PartialOrd + Copy + std::fmt::Display>(
    t: &Toml,
    report: &mut Report,
    key: &str,
    v: Option<&Spanned<T>>,
    range: &std::ops::RangeInclusive<T>,
    what: &str,
) -> Option<T> {
    let v = v?;
    let x = *v.get_ref();
    if range.contains(&x) {
        return Some(x);
    }
    report.error(
        t.pos(v),
        format!(
            "{key} = {x} is out of range: {what} from {} to {}",
            range.start(),
            range.end()
        ),
    );
    None
}

/// Applies the front matter to `track`, reporting bad values, and returns
/// the legend's extra characters.
fn settings(
    t: &Toml,
    fm: FrontMatter,
    track: &mut Track,
    report: &mut Report,
) -> HashMap<char, Glyph> {
    if let Some(name) = &fm.name {
        let bad = |c: char| c.is_control() || diag::is_bidi_control(c);
        if name.get_ref().chars().any(bad) || name.get_ref().trim().is_empty() {
            report.error(
                t.pos(name),
                "name must be printable text, not empty, without bidirectional controls",
            );
        } else {
            track.name = name.get_ref().trim().to_string();
        }
    }
    if let Some(laps) = valid(
        t,
        report,
        "laps",
        fm.laps.as_ref(),
        &LAPS,
        "a whole number of laps",
    ) {
        track.laps = laps as u32;
    }
    let metres = "a positive finite number of metres";
    if let Some(cell) = valid(t, report, "cell", fm.cell.as_ref(), &CELL, metres) {
        track.cell = cell;
    }

    surfaces(t, &fm, track, report);
    legend(t, &fm, track, report)
}

/// The front matter's `[surfaces.NAME]`: built-in surfaces changed, new
/// ones added (from asphalt's numbers), at most 64 in all. Names are
/// looked up in a table, so many sections cost linear time.
fn surfaces(t: &Toml, fm: &FrontMatter, track: &mut Track, report: &mut Report) {
    let mut index: HashMap<String, usize> = (track.surfaces.iter().enumerate())
        .map(|(i, s)| (s.name.clone(), i))
        .collect();
    for (name, o) in &fm.surfaces {
        // Past the errors' cap nothing more is said (and the file fails):
        // finding where each further problem is would cost the file's
        // length again for each.
        if report.full() {
            break;
        }
        let n = name.get_ref();
        if !plain_word(n) || n == "wall" {
            report.error(
                t.pos(name),
                format!("surface name {n:?} must be a word of letters, digits, '-' or '_' (and not \"wall\")"),
            );
            continue;
        }
        let idx = *index.entry(n.clone()).or_insert_with(|| {
            let mut s = track.surfaces[0].clone();
            s.name.clone_from(n);
            track.surfaces.push(s);
            track.surfaces.len() - 1
        });
        let s = &mut track.surfaces[idx];
        for (key, v, range, field) in [
            ("grip", &o.grip, &GRIP, &mut s.grip),
            ("rolling", &o.rolling, &ROLLING, &mut s.rolling),
            ("drag", &o.drag, &DRAG, &mut s.drag),
        ] {
            if let Some(v) = valid(t, report, key, v.as_ref(), range, "a finite number") {
                *field = v;
            }
        }
    }
    if track.surfaces.len() > 64 {
        report.error(Pos::new(t.first_line, 1), "too many surfaces (at most 64)");
        track.surfaces.truncate(64);
    }
}

/// The front matter's `[legend]`: each key one printable character, each
/// value `wall` or a surface the track has.
fn legend(t: &Toml, fm: &FrontMatter, track: &Track, report: &mut Report) -> HashMap<char, Glyph> {
    let mut legend = HashMap::new();
    for (key, value) in &fm.legend {
        if report.full() {
            break;
        }
        let mut chars = key.get_ref().chars();
        let c = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => c,
            _ => {
                report.error(
                    t.pos(key),
                    format!(
                        "legend key {:?} must be exactly one printable character",
                        key.get_ref()
                    ),
                );
                continue;
            }
        };
        let v = value.get_ref();
        let glyph = if v == "wall" {
            Glyph::Wall
        } else if let Some(i) = track.surfaces.iter().position(|s| &s.name == v) {
            Glyph::Surface(i as u8)
        } else {
            let known: Vec<&str> = track.surfaces.iter().map(|s| s.name.as_str()).collect();
            report.error(
                t.pos(value),
                format!(
                    "unknown surface {v:?} (known: wall, {}; define others under [surfaces.NAME])",
                    known.join(", ")
                ),
            );
            continue;
        };
        legend.insert(c, glyph);
    }
    legend
}

/// Reads the map's rows into `track`'s grid and checks the race marks.
fn read_map(
    map: &[&str],
    first_line: usize,
    legend: &HashMap<char, Glyph>,
    track: &mut Track,
    report: &mut Report,
) {
    let Some((width, height)) = map_size(map, first_line, report) else {
        return;
    };
    track.width = width;
    track.height = height;
    track.cells = vec![1; width * height]; // ragged rows are padded with grass
    track.marks = vec![MARK_NONE; width * height];
    let Some(marks) = fill(map, first_line, legend, track, report) else {
        return;
    };
    check_marks(&marks, Pos::new(first_line, 1), track, report);
    track.compute_clearance();
    track.compute_reach();
    check_starts(first_line, track, report);
}

/// The map's width and height in cells, or none (and why, reported) if
/// it is empty or over [`MAX_SIDE`] either way.
fn map_size(map: &[&str], first_line: usize, report: &mut Report) -> Option<(usize, usize)> {
    if map.is_empty() {
        report.error(
            Pos::new(first_line, 1),
            "empty map: draw the track below the front matter",
        );
        return None;
    }
    if map.len() > MAX_SIDE {
        report.error(
            Pos::new(first_line + MAX_SIDE, 1),
            format!("map too tall: more than {MAX_SIDE} rows"),
        );
        return None;
    }
    let mut width = 0;
    for (i, line) in map.iter().enumerate() {
        let n = line.chars().count();
        if n > MAX_SIDE {
            report.error(
                Pos::new(first_line + i, MAX_SIDE + 1),
                format!("map too wide: more than {MAX_SIDE} columns"),
            );
            return None;
        }
        width = width.max(n);
    }
    if width == 0 {
        report.error(Pos::new(first_line, 1), "empty map: every row is blank");
        return None;
    }
    Some((width, map.len()))
}

/// Where the race's marks were drawn: whether there is a finish line,
/// and where each checkpoint number first appears.
struct Marks {
    finish: bool,
    first_checkpoint: [Option<Pos>; 10],
}

/// Fills the track's cells, marks and start slots from the map's
/// characters; none once the report is full.
fn fill(
    map: &[&str],
    first_line: usize,
    legend: &HashMap<char, Glyph>,
    track: &mut Track,
    report: &mut Report,
) -> Option<Marks> {
    let width = track.width;
    let mut marks = Marks {
        finish: false,
        first_checkpoint: [None; 10],
    };
    for (row, line) in map.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            let pos = Pos::new(first_line + row, col + 1);
            let glyph = legend.get(&c).copied().or_else(|| default_glyph(c));
            let i = row * width + col;
            match glyph {
                Some(Glyph::Wall) => track.cells[i] = WALL,
                Some(Glyph::Surface(s)) => track.cells[i] = s,
                Some(Glyph::Finish) => {
                    track.cells[i] = 0;
                    track.marks[i] = MARK_FINISH;
                    marks.finish = true;
                }
                Some(Glyph::Checkpoint(n)) => {
                    track.cells[i] = 0;
                    track.marks[i] = n;
                    marks.first_checkpoint[n as usize].get_or_insert(pos);
                }
                Some(Glyph::Start(dir)) => {
                    track.cells[i] = 0;
                    track.starts.push(Start { col, row, dir });
                }
                None if c == '\t' => report.error(
                    pos,
                    "tab character: draw the map with spaces (a tab's width is ambiguous)",
                ),
                None => report.error(pos, format!("unknown character {c:?} (not in the legend)")),
            }
            if report.full() {
                return None;
            }
        }
    }
    Some(marks)
}

/// A start slot, a finish line, and checkpoints numbered without gaps
/// (reported at `top`, the map's first line, or at the checkpoint after
/// a gap); sets the track's number of checkpoints.
fn check_marks(marks: &Marks, top: Pos, track: &mut Track, report: &mut Report) {
    if track.starts.is_empty() {
        report.error(
            top,
            "no start slot: put one of > < ^ v where the player starts",
        );
    }
    if !marks.finish {
        report.error(
            top,
            "no finish line: draw one across the track with '=' or '|'",
        );
    }
    let first = &marks.first_checkpoint;
    let highest = (1..=9).rev().find(|&n| first[n].is_some()).unwrap_or(0);
    for n in 1..highest {
        if first[n].is_none() {
            let next = (n + 1..=highest).find_map(|m| first[m].map(|p| (m, p)));
            if let Some((m, p)) = next {
                report.error(
                    p,
                    format!("checkpoint {m} but no checkpoint {n}: number checkpoints 1, 2, 3, ... without gaps"),
                );
            }
        }
    }
    track.checkpoints = highest as u8;
}

/// Every start slot has room for a car clear of walls.
fn check_starts(first_line: usize, track: &Track, report: &mut Report) {
    for s in &track.starts {
        let (center, heading) = (track.cell_center(s.col, s.row), s.dir.heading());
        let car = Obb::new(center, heading, START_FOOTPRINT.x, START_FOOTPRINT.y);
        if track.box_hits_wall(&car) {
            report.error(
                Pos::new(first_line + s.row, s.col + 1),
                format!(
                    "start slot touches a wall: a car ({} x {} m) placed here must be clear of walls",
                    START_FOOTPRINT.x, START_FOOTPRINT.y
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(src: &str) -> Vec<String> {
        match parse("t.track", src.as_bytes()) {
            Ok(_) => vec![],
            Err(e) => e.iter().map(ToString::to_string).collect(),
        }
    }

    const OK_MAP: &str = "##########\n#........#\n#.>..=...#\n#........#\n##########\n";

    #[test]
    fn a_plain_map_parses_with_defaults() {
        let t = parse("tracks/tiny.track", OK_MAP.as_bytes()).unwrap();
        assert_eq!((t.name.as_str(), t.laps, t.cell), ("tiny", 3, 2.0));
        assert_eq!((t.width, t.height), (10, 5));
        assert_eq!(
            t.starts,
            vec![Start {
                col: 2,
                row: 2,
                dir: Dir::East
            }]
        );
        assert_eq!(t.checkpoints, 0);
        assert_eq!(t.mark_of(5, 2), super::super::Mark::Finish);
    }

    #[test]
    fn front_matter_lines_count_from_the_file_start() {
        let src = format!("+++\nname = \"X\"\nlaps = 0\n+++\n{OK_MAP}");
        assert_eq!(
            errors(&src),
            ["t.track:3:8: laps = 0 is out of range: a whole number of laps from 1 to 99"]
        );
    }

    #[test]
    fn legend_keys_are_positioned() {
        let src = format!("+++\n[legend]\n\"ab\" = \"ice\"\n+++\n{OK_MAP}");
        assert_eq!(
            errors(&src),
            ["t.track:3:1: legend key \"ab\" must be exactly one printable character"]
        );
    }
}
