//! Laps handed to the records' thread and not yet in the database. They
//! are written in one transaction at a time; while the database fails or
//! is down they wait, and are kept in a spool file in the data directory
//! (`laps-waiting.toml`, written whole and atomically whenever more came),
//! so that a server stopped or killed meanwhile writes them at its next
//! start. Once written, the spool is removed.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::super::db::{self, Database};
use crate::base::files::write_atomic;
use crate::race::records::{Record, ghost_text, parse_ghost};

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
    laps: VecDeque<db::NewLap>,
    spool: PathBuf,
    /// Whether the spool file holds every lap waiting.
    spooled: bool,
    /// The players told that a lap of theirs is held nowhere but here
    /// (neither the database nor the spool took it), and why.
    told: BTreeMap<String, String>,
}

/// A player's laps are kept now (none), or are not, and why: what the
/// hub shows them (`Seat::unsaved`).
pub type Told = (String, Option<String>);

impl Queue {
    /// The laps a spool at `spool` kept from an earlier run, waiting.
    pub fn load(spool: PathBuf) -> Queue {
        let text = crate::base::files::read_capped(&spool, MAX_SPOOL, false)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        let kept: Spool = text
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default();
        let laps: VecDeque<db::NewLap> = (kept.lap.into_iter())
            .map(|s| db::NewLap {
                identity: s.identity,
                name: s.name,
                record: s.record,
                ghost: parse_ghost(&s.ghost),
            })
            .collect();
        if !laps.is_empty() {
            eprintln!(
                "skid serve: {} of an earlier run waiting in {}",
                crate::base::diag::count(laps.len(), "lap"),
                spool.display()
            );
        }
        Queue {
            spooled: true,
            laps,
            spool,
            told: BTreeMap::new(),
        }
    }

    /// A lap to write; none past [`MAX_WAITING`] (the log says whose, and
    /// so does the answer, for the player).
    pub fn push(&mut self, lap: db::NewLap, database: &str) -> Option<Told> {
        if self.laps.len() >= MAX_WAITING {
            eprintln!(
                "skid serve: {database}: {MAX_WAITING} laps wait already: {}'s lap on {} is lost",
                lap.name, lap.record.track
            );
            let why = format!("{MAX_WAITING} laps wait for the database");
            return Some((lap.identity, Some(why)));
        }
        self.laps.push_back(lap);
        self.spooled = false;
        None
    }

    /// How many laps wait.
    pub fn len(&self) -> usize {
        self.laps.len()
    }

    /// Writes the laps waiting to `db`, all in one transaction: how many,
    /// or why not (they go on waiting).
    pub fn write(&mut self, db: &mut dyn Database) -> Result<usize, String> {
        if self.laps.is_empty() {
            return Ok(0);
        }
        let laps = self.laps.make_contiguous();
        db.save(laps, now_ms())?;
        let n = laps.len();
        self.laps.clear();
        let _ = std::fs::remove_file(&self.spool);
        self.spooled = true;
        Ok(n)
    }

    /// Keeps the laps still waiting in the spool (if more came since it
    /// was written). Returns the players whose laps became held nowhere
    /// (neither written nor spooled), or held again.
    pub fn settle(&mut self) -> Vec<Told> {
        let kept = if self.laps.is_empty() {
            Ok(())
        } else {
            self.keep()
        };
        let mut told = Vec::new();
        match kept {
            Ok(()) => told.extend(
                std::mem::take(&mut self.told)
                    .into_keys()
                    .map(|id| (id, None)),
            ),
            Err(why) => {
                for lap in &self.laps {
                    if self.told.get(&lap.identity) != Some(&why) {
                        self.told.insert(lap.identity.clone(), why.clone());
                        told.push((lap.identity.clone(), Some(why.clone())));
                    }
                }
            }
        }
        told
    }

    /// Writes every lap waiting to the spool, if more came since: whether
    /// the spool holds them all, or why not.
    fn keep(&mut self) -> Result<(), String> {
        if self.spooled {
            return Ok(());
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
            Ok(()) => {
                self.spooled = true;
                Ok(())
            }
            Err(e) => {
                // Said once for as long as it fails (every player whose
                // lap it holds is told, [`Queue::settle`]).
                if self.told.is_empty() {
                    eprintln!(
                        "skid serve: {}: cannot keep the laps waiting: {e}",
                        self.spool.display()
                    );
                }
                Err(e.to_string())
            }
        }
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
