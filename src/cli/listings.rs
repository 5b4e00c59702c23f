//! The listing commands: `skid tracks` (with medal times), `skid
//! records` and `skid cars`, each a table of columns.

use std::io::Write;

use super::{Outcome, RaceArgs, args, load_car, load_track, store};
use crate::base::diag::{self, Diagnostic, Diagnostics};
use crate::physics::ModelKind;
use crate::physics::car;
use crate::race::medals::Medal;
use crate::race::medals::book::{Book, key};
use crate::race::records::Record;
use crate::track::bundled;
use crate::ui;

/// Prints rows under a header in columns as wide as their widest cell (in
/// terminal columns), two spaces apart; the columns `right` names are
/// right-aligned. Every cell is printed with control characters escaped.
pub(super) fn table(header: &[&str], rows: &[Vec<String>], right: &[usize]) {
    use unicode_width::UnicodeWidthStr;
    let rows: Vec<Vec<String>> = std::iter::once(header.iter().map(ToString::to_string).collect())
        .chain(
            rows.iter()
                .map(|r| r.iter().map(|c| diag::printable(c)).collect()),
        )
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| r[i].width()).max().unwrap_or(0))
        .collect();
    let mut out = std::io::stdout().lock();
    for row in &rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.width());
            let last = i + 1 == row.len();
            if right.contains(&i) {
                line.push_str(&pad);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if !last {
                    line.push_str(&pad);
                }
            }
            if !last {
                line.push_str("  ");
            }
        }
        let _ = writeln!(out, "{line}");
    }
}

pub(super) fn cars(show: Option<&str>) -> Outcome {
    let mut out = std::io::stdout().lock();
    if let Some(name) = show {
        let _ = write!(out, "{}", load_car(name)?.to_toml());
        return Ok(());
    }
    let mut rows = Vec::new();
    for (name, _) in car::PRESETS {
        let spec = load_car(name)?;
        rows.push(vec![
            name.to_string(),
            spec.model.to_string(),
            spec.description,
        ]);
    }
    table(&["name", "model", "description"], &rows, &[]);
    Ok(())
}

/// `skid records` as asked: a server's boards, or the local records.
pub(super) fn asked(r: args::Records) -> Outcome {
    let track = super::track_or_daily(r.track, r.daily);
    #[cfg(feature = "serve")]
    if let Some(url) = r.database {
        return server_boards(&url, track.as_deref());
    }
    records(track.as_deref(), r.data_dir.as_deref())
}

/// The local records, of `track` only if given.
fn records(track: Option<&str>, dir: Option<&str>) -> Outcome {
    // Listing reads: a directory given that is not there is a mistake to
    // name, not one to make.
    if let Some(d) = dir.filter(|d| !std::path::Path::new(d).exists()) {
        return Err(Diagnostics::from(Diagnostic::file(
            d,
            "no such directory: no records here",
        )));
    }
    let store = store(dir)?;
    let id = track.map(load_track).transpose()?.map(|t| t.content_id());
    let loaded = store.load().map_err(|e| {
        Diagnostics::from(Diagnostic::file(
            &store.dir.display().to_string(),
            format!("cannot read the records: {e}"),
        ))
    })?;
    if let Some(notice) = loaded.notice() {
        eprintln!("skid: {notice}");
    }
    let mut records: Vec<&Record> = (loaded.records.iter())
        .filter(|r| id.as_ref().is_none_or(|i| *i == r.track_id))
        .collect();
    // Each key's unaided record before its aided one.
    records.sort_by(|a, b| {
        let key = |r: &Record| (r.track.clone(), r.model.name(), r.car.clone(), r.aided);
        key(a).cmp(&key(b))
    });
    let rows: Vec<Vec<String>> = (records.into_iter())
        .map(|r| {
            vec![
                r.track.clone(),
                r.model.to_string(),
                r.car.clone(),
                crate::ui::hud::clock(Some(r.time)),
                r.medal.map_or_else(|| "-".into(), |m| m.to_string()),
                board_column(r.aided),
            ]
        })
        .collect();
    table(
        &["track", "model", "car", "best lap", "medal", "board"],
        &rows,
        &[3],
    );
    if rows.is_empty() {
        none_kept(
            id.is_some(),
            &diag::printable(&store.dir.display().to_string()),
        );
        // A server's data directory keeps its laps in a database.
        let db = store.dir.join("skid.db");
        if db.is_file() {
            let db = diag::printable(&db.display().to_string());
            eprintln!("skid: {db} holds a server's laps: skid records --database {db}");
        }
    }
    Ok(())
}

/// The `board` column of a listing: `aided` for laps the steering aid
/// steered (`race::aid`), `unaided` for the others, each ranked apart.
fn board_column(aided: bool) -> String {
    if aided {
        crate::race::aid::AIDED
    } else {
        "unaided"
    }
    .to_string()
}

/// The bundled tracks, with the medal times for `model` and `car` (worked
/// out once, then kept in the data directory).
pub(super) fn tracks(model: Option<ModelKind>, car: Option<String>, dir: Option<&str>) -> Outcome {
    let setup = RaceArgs {
        track: bundled::DEFAULT.into(),
        model,
        car,
        daily: None,
    };
    let (_, spec, kind) = setup.resolve()?;
    let mut book = Book::open(store(dir).ok().map(|s| s.dir));
    let mut rows = Vec::new();
    for (name, _) in bundled::TRACKS {
        let t = load_track(name)?;
        let m = t.size_m();
        let medals = (book.ask(key(&t, &spec, kind), &t, &spec, false)).medals();
        let times = Medal::ALL.map(|medal| ui::hud::clock(medals.map(|m| m.time(medal))));
        let mut row = vec![
            name.to_string(),
            format!("{}x{}", t.width, t.height),
            format!("{:.0}x{:.0}", m.x, m.y),
            t.laps.to_string(),
            t.surfaces_used().join(", "),
        ];
        row.extend(times);
        rows.push(row);
    }
    table(
        &[
            "name", "cells", "metres", "laps", "surfaces", "author", "gold", "silver", "bronze",
        ],
        &rows,
        &[3, 5, 6, 7, 8],
    );
    println!("medal times for {kind}, {}", spec.name);
    Ok(())
}

/// A server's boards (`skid records --database URL`): for each track,
/// model and car with laps (only `track`'s, if given), its best ten, with
/// names as the server showed them.
#[cfg(feature = "serve")]
pub(super) fn server_boards(url: &str, track: Option<&str>) -> Outcome {
    use crate::serve::db;
    let fail = |e: String| Diagnostics::from(Diagnostic::file("skid records", e));
    let id = track.map(load_track).transpose()?.map(|t| t.content_id());
    let mut db = db::open_existing(url).map_err(fail)?;
    let mut rows = Vec::new();
    for (key, track, car) in db.boards().map_err(fail)? {
        if id.as_ref().is_some_and(|i| *i != key.0) {
            continue;
        }
        let boards = db.boards_of(&key, 10, &[]).map_err(fail)?;
        for (aided, board) in [(false, &boards.unaided), (true, &boards.aided)] {
            for (place, e) in board.top.iter().enumerate() {
                rows.push(vec![
                    track.clone(),
                    key.1.to_string(),
                    car.clone(),
                    board_column(aided),
                    format!("{}", place + 1),
                    e.name.clone(),
                    ui::hud::clock(Some(e.time)),
                    e.medal.map_or_else(|| "-".into(), |m| m.to_string()),
                ]);
            }
        }
    }
    table(
        &[
            "track", "model", "car", "board", "place", "name", "time", "medal",
        ],
        &rows,
        &[4, 6],
    );
    if rows.is_empty() {
        none_kept(id.is_some(), "this database");
    }
    Ok(())
}

/// Says on stderr that a listing of records has none (of the track asked
/// for, if `of_track`), so that an empty table is not taken for a fault.
fn none_kept(of_track: bool, place: &str) {
    let of = if of_track { " of that track" } else { "" };
    eprintln!("skid: no records{of} in {place}");
}
