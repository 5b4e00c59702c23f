//! Tracks and cars named on the command line: a file if one is at that
//! path, else a bundled one by that name; errors name the file.

use crate::base::day::Day;
use crate::base::diag::{self, Diagnostic, Diagnostics};
use crate::physics::car::{self, CarSpec};
use crate::track::{self, Raceable, Track, bundled, generate};

/// A track named on the command line: an existing file, else a bundled
/// track of that name, else `daily` (today's Track of the Day) or
/// `daily:YYYY-MM-DD` (that day's).
pub fn load_track(arg: &str) -> Result<Track, Diagnostics> {
    if !std::path::Path::new(arg).exists()
        && let Some(day) = daily_day(arg)
    {
        let day = day.map_err(|why| Diagnostic::file(arg, why))?;
        return track::parse(arg, generate::daily(day).text.as_bytes());
    }
    let mut names: Vec<&str> = bundled::TRACKS.iter().map(|(n, _)| *n).collect();
    names.push("daily[:YYYY-MM-DD]");
    file_or_bundled(arg, track::parse, bundled::load, &names, "track")
}

/// What a menu calls the track `arg` names: the day and its name for a
/// Track of the Day (`Today · Dec 6 · Lost Crossing`), else `arg`.
pub fn choice_name(arg: &str, track: &Raceable) -> String {
    match daily_day(arg) {
        Some(Ok(day)) => crate::race::setup::daily_label(day, Day::today(), &track.track().name),
        _ => arg.to_string(),
    }
}

/// The day a track name `daily` or `daily:YYYY-MM-DD` names (today in
/// UTC for `daily`), or why it names none; none for any other name.
pub fn daily_day(name: &str) -> Option<Result<Day, String>> {
    match name.strip_prefix("daily") {
        Some("") => Some(Ok(Day::today())),
        Some(rest) => rest.strip_prefix(':').map(Day::parse),
        None => None,
    }
}

/// A track to race on: one on which a lap can be completed
/// (`track::course`), or the reason there is none, positioned.
pub fn load_raceable(arg: &str) -> Result<Raceable, Diagnostics> {
    Ok(track::course::raceable(load_track(arg)?, arg)?)
}

/// A file on disk if one exists at `arg`, else a bundled item by name.
fn file_or_bundled<T>(
    arg: &str,
    parse: impl FnOnce(&str, &[u8]) -> Result<T, Diagnostics>,
    bundled: impl FnOnce(&str) -> Option<T>,
    names: &[&str],
    what: &str,
) -> Result<T, Diagnostics> {
    // Anything at that path is the user's file: a FIFO or a device is then
    // refused as one, not looked up as a bundled name.
    if std::path::Path::new(arg).exists() {
        let bytes = diag::read_file(arg)?;
        return parse(arg, &bytes);
    }
    bundled(arg).ok_or_else(|| {
        Diagnostics::from(Diagnostic::file(
            arg,
            format!(
                "no such file, nor a bundled {what} (bundled: {})",
                names.join(", ")
            ),
        ))
    })
}

/// A car named on the command line: a file, else a bundled preset.
pub fn load_car(arg: &str) -> Result<CarSpec, Diagnostics> {
    let names: Vec<&str> = car::PRESETS.iter().map(|(n, _)| *n).collect();
    let parse = |path: &str, bytes: &[u8]| {
        let text = diag::utf8(path, bytes)?;
        CarSpec::parse(path, text)
    };
    file_or_bundled(arg, parse, CarSpec::bundled, &names, "car")
}
