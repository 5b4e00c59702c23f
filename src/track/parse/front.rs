//! A track file's front matter: the TOML between two `+++` lines at the
//! top, which names the track, sets its laps and cell size, changes or
//! adds surfaces and gives the map's legend extra characters. Its
//! problems are reported where they are, lines counted from the file's
//! first line.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use toml::Spanned;

use super::{CELL, Glyph, LAPS, Report};
use crate::base::diag::{self, Diagnostic, Diagnostics, Pos};
use crate::track::Track;

const GRIP: std::ops::RangeInclusive<f64> = 0.01..=3.0;
const ROLLING: std::ops::RangeInclusive<f64> = 0.0..=1.0;
const DRAG: std::ops::RangeInclusive<f64> = 0.0..=10.0;

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

/// The front matter's TOML text and where it sits in the file.
pub(super) struct Toml {
    text: String,
    first_line: usize,
}

impl Toml {
    fn pos<T>(&self, s: &Spanned<T>) -> Pos {
        diag::pos_of_offset(&self.text, s.span().start, self.first_line)
    }
}

/// The front matter of a file of `lines`, if it opens with `+++`, and the
/// index of the map's first line.
pub(super) fn split(path: &str, lines: &[&str]) -> Result<(Option<Toml>, usize), Diagnostics> {
    if lines[0].trim_end() != "+++" {
        return Ok((None, 0));
    }
    // The front matter: lines[1..close], the map after it.
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
    Ok((Some(toml), close + 2))
}

/// Applies front matter `t` to `track`, reporting bad values, and returns
/// the legend's extra characters; a TOML syntax error stops the parse,
/// since the legend is then unknown.
pub(super) fn apply(
    path: &str,
    t: &Toml,
    track: &mut Track,
    report: &mut Report,
) -> Result<HashMap<char, Glyph>, Diagnostics> {
    let fm = toml::from_str::<FrontMatter>(&t.text)
        .map_err(|e| diag::from_toml(path, &t.text, t.first_line, &e))?;
    Ok(settings(t, fm, track, report))
}

/// Surface names are printed in CSV traces and on screen, so they are plain
/// words.
fn plain_word(s: &str) -> bool {
    (1..=24).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A setting's value as its error message shows it.
trait Shown {
    fn shown(&self) -> String;
}

impl Shown for i64 {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl Shown for f64 {
    fn shown(&self) -> String {
        crate::base::diag::number(*self)
    }
}

/// The value of an optional setting if it is given and within `range`;
/// reports it otherwise.
fn valid<T: PartialOrd + Copy + std::fmt::Display + Shown>(
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
            "{key} = {} is out of range: {what} from {} to {}",
            x.shown(),
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
