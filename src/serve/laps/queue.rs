//! Laps handed to the records' thread and not yet in the database. They
//! are written in one transaction at a time; while the database fails
//! they wait, and are kept in a spool file in the data directory
//! (`laps-waiting.toml`, written whole and atomically whenever more came),
//! so that a server stopped or killed meanwhile writes them at its next
//! start. Once written, the spool is removed.

use std::collections::VecDeque;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::super::db::{self, Database};
use crate::records::{Record, ghost_text, parse_ghost, write_atomic};

/// Laps waiting for a database that fails, at the most; one more is lost,
/// with a line in the log.
pub const MAX_WAITING: usize = 10_000;

/// The most a spool file may hold.
const MAX_SPOOL: u64 = 1 << 30;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spooled {
    identity: String,
    name: String,
    record: Record,
    ghost: String,
}

#[derive(Default, Serialize, Deserialize)]
struct Spool {
    #[serde(default)]
    lap: Vec<Spooled>,
}

pub struct Queue {
    laps: VecDeque<db::Lap>,
    /// Whether the last write failed (the log said so).
    failing: bool,
    spool: PathBuf,
    /// Whether the spool file holds every lap waiting.
    spooled: bool,
}

impl Queue {
    /// The laps a spool at `spool` kept from an earlier run, waiting.
    pub fn load(spool: PathBuf) -> Queue {
        let text = crate::diag::read_capped(&spool, MAX_SPOOL, false)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        let kept: Spool = text
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default();
        let laps: VecDeque<db::Lap> = (kept.lap.into_iter())
            .map(|s| db::Lap {
                identity: s.identity,
                name: s.name,
                record: s.record,
                ghost: parse_ghost(&s.ghost),
            })
            .collect();
        if !laps.is_empty() {
            eprintln!(
                "skid serve: {} laps of an earlier run wait in {}",
                laps.len(),
                spool.display()
            );
        }
        Queue {
            spooled: true,
            laps,
            failing: false,
            spool,
        }
    }

    /// A lap to write; none past [`MAX_WAITING`] (the log says whose).
    pub fn push(&mut self, lap: db::Lap, db: &dyn Database) {
        if self.laps.len() >= MAX_WAITING {
            eprintln!(
                "skid serve: {}: {MAX_WAITING} laps wait already: {}'s lap on {} is lost",
                db.name(),
                lap.name,
                lap.record.track
            );
            return;
        }
        self.laps.push_back(lap);
        self.spooled = false;
    }

    /// Writes the laps waiting, all in one transaction; on failure they go
    /// on waiting, in the spool too, and the log says so once, and again
    /// when they are written.
    pub fn write(&mut self, db: &mut dyn Database) {
        if self.laps.is_empty() {
            return;
        }
        let laps = self.laps.make_contiguous();
        match db.save(laps, now_ms()) {
            Ok(_) => {
                if self.failing {
                    let n = laps.len();
                    eprintln!("skid serve: {}: {n} laps waiting written", db.name());
                    self.failing = false;
                }
                self.laps.clear();
                let _ = std::fs::remove_file(&self.spool);
                self.spooled = true;
            }
            Err(e) => {
                if !self.failing {
                    let n = laps.len();
                    eprintln!("skid serve: {e}; {n} laps wait and are tried again");
                    self.failing = true;
                }
                self.keep();
            }
        }
    }

    /// Writes every lap waiting to the spool, if more came since.
    fn keep(&mut self) {
        if self.spooled {
            return;
        }
        let lap = (self.laps.iter())
            .map(|l| Spooled {
                identity: l.identity.clone(),
                name: l.name.clone(),
                record: l.record.clone(),
                ghost: ghost_text(&l.ghost),
            })
            .collect();
        let text = toml::to_string(&Spool { lap }).expect("laps always serialise");
        match write_atomic(&self.spool, text.as_bytes(), || Ok(())) {
            Ok(()) => self.spooled = true,
            Err(e) => eprintln!(
                "skid serve: {}: cannot keep the laps waiting: {e}",
                self.spool.display()
            ),
        }
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
