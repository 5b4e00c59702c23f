//! The track file format (docs/DESIGN.md, "Track files").
//!
//! Optional TOML front matter between two `+++` lines, then the map, one
//! character per cell. Every problem is reported as `path:line:col:` with
//! lines counted from the file's first line; all problems of a file are
//! gathered where the parse can go on (a TOML syntax error stops it, since
//! the legend is then unknown). The front matter is read in `front.rs`,
//! the map here.

mod front;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use super::{
    Dir, MARK_FINISH, MARK_NONE, START_FOOTPRINT, Start, Track, WALL, default_surfaces, fnv1a,
};
use crate::base::diag::{self, Diagnostic, Diagnostics, Pos};
use crate::track::Obb;

/// The largest map, in columns and in rows.
pub const MAX_SIDE: usize = 8192;
/// Limits on front matter values.
pub const LAPS: std::ops::RangeInclusive<i64> = 1..=99;
pub const CELL: std::ops::RangeInclusive<f64> = 0.25..=100.0;
/// A file with more problems than this is reported up to here.
const MAX_ERRORS: usize = 50;

/// What a map character stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Glyph {
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
pub(super) struct Report<'a> {
    path: &'a str,
    errors: Vec<Diagnostic>,
}

impl Report<'_> {
    pub(super) fn error(&mut self, pos: Pos, message: impl Into<String>) {
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

    pub(super) fn full(&self) -> bool {
        self.errors.len() > MAX_ERRORS
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

    let (front, map_start) = front::split(path, &lines)?;
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
        Some(t) => front::apply(path, t, &mut track, &mut report)?,
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
pub fn default_name(path: &str) -> String {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    diag::printable(file.strip_suffix(".track").unwrap_or(file))
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
