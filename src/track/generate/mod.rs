//! Tracks made from a seed (`skid generate`, the Track of the Day): a
//! closed circuit of varied corners and straights, as a `.track` file's
//! text. The same seed and size give the same bytes on every machine and
//! every version of this generator ([`VERSION`]); a change that alters
//! any generated track must be a new version (docs/DESIGN.md, "Generated
//! tracks").
//!
//! The circuit's centre line is random points' convex hull with each
//! side's middle pushed in or out, smoothed ([`shape`]); it is painted
//! onto cells ([`paint`]) with a road 4 to 8 columns wide, a run-off and
//! a wall, the finish on its straightest stretch with a full grid of
//! start slots behind it, three to five checkpoints spread along it, and
//! now and then an ice patch. A try that breaks a rule (off the map, too
//! near itself, too tight a corner, no lap possible) is thrown away and
//! the stream goes on to the next; every track given is raceable.

mod names;
mod paint;
mod rng;
mod shape;

use glam::DVec2;

use crate::base::day::Day;

use self::paint::{CELL, Plan, RUNOFF, WALL};
use self::rng::Rng;
use self::shape::{Bounds, CentreLine};

/// The generator's version: part of every generated file's first line.
pub const VERSION: u32 = 1;

/// Tries before the generator gives its fallback circuit (none of 10,000
/// seeds needs it: docs/BENCHMARKS.md).
const TRIES: u32 = 200;

/// How large a generated track is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Size {
    Small,
    #[default]
    Medium,
    Large,
}

impl Size {
    pub const ALL: [Size; 3] = [Size::Small, Size::Medium, Size::Large];

    /// The map's columns and rows.
    fn cells(self) -> (usize, usize) {
        match self {
            Size::Small => (72, 28),
            Size::Medium => (100, 38),
            Size::Large => (140, 52),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
        }
    }
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Size, String> {
        (Size::ALL.into_iter())
            .find(|z| z.name() == s)
            .ok_or_else(|| format!("unknown size {s:?} (small, medium or large)"))
    }
}

/// A generated track.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The `.track` file's text.
    pub text: String,
    pub name: String,
    /// Tries thrown away before this one.
    pub discarded: u32,
    /// What came out, for the benchmark's table.
    pub shape: Shape,
}

/// A generated track's measures.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Shape {
    /// The centre line's length (m).
    pub length: f64,
    /// Corners: stretches turning tighter than a 50 m radius.
    pub corners: usize,
    /// The road's width (m).
    pub width: f64,
    pub checkpoints: usize,
    pub ice: bool,
}

/// The corners of `line`: stretches whose curvature is over 1/50 m.
fn corners(line: &CentreLine) -> usize {
    let n = line.points.len();
    let bent: Vec<bool> = (0..n)
        .map(|i| line.curvature(i, 4).abs() > 1.0 / 50.0)
        .collect();
    (0..n)
        .filter(|&i| bent[i] && !bent[(i + n - 1) % n])
        .count()
}

/// The track for `seed` and `size`.
pub fn generate(seed: u64, size: Size) -> Generated {
    let mut rng = Rng::new(seed);
    let name = names::name(&mut rng);
    let (cols, rows) = size.cells();
    let half = (4 + rng.below(5)) as f64 * CELL / 2.0;
    let room = Bounds {
        size: DVec2::new(cols as f64 * CELL, rows as f64 * CELL * 2.0),
        clear: half + RUNOFF + WALL,
        beside: 2.0 * (half + RUNOFF) + WALL,
    };
    let head = format!(
        "+++\n# skid generate --seed {seed} --size {} (generator {VERSION})\n\
         name = \"{name}\"\nlaps = 3\ncell = {CELL:.1}\n+++\n",
        size.name()
    );
    for discarded in 0..TRIES {
        let Some(mut line) = shape::centre_line(&mut rng, room) else {
            continue;
        };
        if rng.one_in(2) {
            line = line.reversed();
        }
        let plan = plan(&line, &mut rng, cols, rows, half);
        let text = head.clone() + &rows_text(&paint::paint(&line, &plan));
        if raceable(&text) {
            let shape = Shape {
                length: line.length,
                corners: corners(&line),
                width: half * 2.0,
                checkpoints: plan.marks.len(),
                ice: plan.ice.is_some(),
            };
            return Generated {
                text,
                name,
                discarded,
                shape,
            };
        }
    }
    Generated {
        text: head + FALLBACK,
        name,
        discarded: TRIES,
        shape: Shape::default(),
    }
}

/// The Track of the Day for `day`: a medium track whose seed is the
/// day's name hashed, the same for everyone everywhere.
pub fn daily(day: Day) -> Generated {
    generate(daily_seed(day), Size::Medium)
}

/// The seed of `day`'s track.
pub fn daily_seed(day: Day) -> u64 {
    super::fnv1a(format!("skid track of the day {day}").as_bytes())
}

/// Where the finish, checkpoints and ice go on `line`.
fn plan(line: &CentreLine, rng: &mut Rng, cols: usize, rows: usize, half: f64) -> Plan {
    let finish = finish_point(line);
    let start = line.s[finish];
    let k = 3 + rng.below(3) as usize;
    let marks: Vec<f64> = (1..=k)
        .map(|i| start + line.length * i as f64 / (k + 1) as f64)
        .collect();
    let ice = rng
        .one_in(3)
        .then(|| start + line.length * rng.range(0.15, 0.85));
    let clear_of_marks = |s: f64| {
        (marks.iter().chain([&start])).all(|&m| {
            let d = (s - m).rem_euclid(line.length);
            d.min(line.length - d) > 15.0
        })
    };
    let ice = ice.filter(|&s| clear_of_marks(s));
    Plan {
        cols,
        rows,
        half,
        finish,
        marks,
        ice,
    }
}

/// The point for the finish line: the one whose grid behind it (50 m)
/// and the 10 m after it are straightest, and whose direction is nearest
/// to along a row or a column (start slots face one of the four).
fn finish_point(line: &CentreLine) -> usize {
    let n = line.points.len();
    let curve: Vec<f64> = (0..n).map(|i| line.curvature(i, 4).abs()).collect();
    let score = |i: usize| {
        let (back, ahead) = (
            line.index_at(line.s[i] - 50.0),
            line.index_at(line.s[i] + 10.0),
        );
        let window = if back <= ahead {
            curve[back..=ahead].iter().copied().fold(0.0, f64::max)
        } else {
            (curve[back..].iter().chain(&curve[..=ahead]))
                .copied()
                .fold(0.0, f64::max)
        };
        let t = line.tangent(i);
        window * 40.0 + t.x.abs().min(t.y.abs())
    };
    (0..n)
        .step_by(2)
        .min_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(0)
}

/// The map's rows as text: rows and columns of grass alone round it
/// left off.
fn rows_text(map: &[Vec<u8>]) -> String {
    let used = |row: &&Vec<u8>| row.iter().any(|&c| c != b' ');
    let first = map.iter().position(|r| used(&r)).unwrap_or(0);
    let last = map.iter().rposition(|r| used(&r)).unwrap_or(0);
    let left = (map.iter())
        .filter_map(|r| r.iter().position(|&c| c != b' '))
        .min()
        .unwrap_or(0);
    let mut text = String::new();
    for row in &map[first..=last] {
        let row = String::from_utf8_lossy(&row[left..]);
        text.push_str(row.trim_end());
        text.push('\n');
    }
    text
}

/// Whether `text` is a track on which a lap can be completed and no
/// line can be driven around.
fn raceable(text: &str) -> bool {
    let Ok(track) = super::parse("generated", text.as_bytes()) else {
        return false;
    };
    super::course::raceable(track, "generated")
        .is_ok_and(|t| super::course::drive_arounds(&t, "generated").is_empty())
}

/// The circuit given if no try of a seed works (none has yet).
const FALLBACK: &str = "\
##################################
#.............|..................#
#.............|..................#
#..>.>.>.>....|..................#
#...######################.......#
#...#                    #.......#
#...######################.......#
#.........1......................#
#.........1......................#
##################################
";

#[cfg(test)]
mod tests;
