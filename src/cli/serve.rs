//! `skid serve` on the command line: its options read, the tracks loaded,
//! then the server run until a signal stops it (`crate::serve`).

use std::time::Duration;

use crate::base::diag::{Diagnostic, Diagnostics};
use crate::physics::DEFAULT_HZ;
use crate::race::TrackChoice;
use crate::race::records;
use crate::track::bundled;

use super::args::Serve;
use super::load::load_raceable;

pub fn serve(s: Serve) -> Result<(), Diagnostics> {
    let data_dir = match s.data_dir.map(std::path::PathBuf::from) {
        Some(d) => d,
        None => match records::default_dir() {
            Some(d) => d.join("serve"),
            None => {
                return Err(Diagnostics::from(Diagnostic::file(
                    "skid",
                    "no data directory: set HOME or XDG_DATA_HOME, or give --data-dir",
                )));
            }
        },
    };
    // Today's track (turning at midnight) is offered first by default,
    // and where `--track daily` asks for it; `daily:DATE` is one day's.
    let names: Vec<String> = if s.tracks.is_empty() {
        std::iter::once("daily")
            .chain(bundled::TRACKS.iter().map(|(n, _)| *n))
            .map(str::to_string)
            .collect()
    } else {
        s.tracks
    };
    let daily = names.iter().any(|n| n == "daily");
    let mut tracks: Vec<TrackChoice> = Vec::new();
    for arg in names.into_iter().filter(|n| n != "daily") {
        let track = load_raceable(&arg)?;
        // A track given twice (by name and by file, say) is offered once.
        if tracks.iter().any(|t| t.track.id == track.id) {
            continue;
        }
        // Players see a file's name, not where the server keeps it; two
        // different tracks of one name are told apart by a number.
        let base = crate::track::parse::default_name(&arg);
        let mut name = base.clone();
        for n in 2.. {
            if !tracks.iter().any(|t| t.name == name) {
                break;
            }
            name = format!("{base}~{n}");
        }
        tracks.push(TrackChoice { name, track });
    }
    if let Some(url) = &s.database
        && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
    {
        return Err(Diagnostics::from(Diagnostic::file(
            "skid serve",
            format!("--database {url}: a postgres:// or postgresql:// address is needed"),
        )));
    }
    if let (Some(peer), None) = (s.peer, &s.database) {
        return Err(Diagnostics::from(Diagnostic::file(
            "skid serve",
            format!("--peer {peer}: relays are between servers sharing a --database"),
        )));
    }
    let opts = crate::serve::Options {
        listen: s.listen,
        database: s.database,
        data_dir,
        max_players: s.max_players as usize,
        per_address: s.per_address as usize,
        idle: Duration::from_secs(s.idle_timeout),
        login: Duration::from_secs(crate::serve::AUTH_SECONDS),
        tracks,
        daily: daily.then_some(crate::serve::daily::system as crate::serve::daily::Wall),
        proxy_protocol: s.proxy_protocol,
        hz: DEFAULT_HZ,
        fps: 30,
        keys_at_once: true,
        peer: s.peer,
    };
    let status = crate::serve::run(opts)
        .map_err(|e| Diagnostics::from(Diagnostic::file("skid serve", e.to_string())))?;
    // Stopped by a signal other than SIGINT or SIGTERM: every player had
    // their terminal back; the status says what stopped it.
    if status != 0 {
        std::process::exit(status);
    }
    Ok(())
}
