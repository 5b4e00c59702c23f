//! The laps in SQLite (rusqlite, the library built in): one file,
//! `DIR/skid.db`, in WAL mode with full syncs, so a lap committed survives
//! kill -9 and a power cut, and other processes on the machine with the
//! same data directory share it. The schema is versioned ([`MIGRATIONS`],
//! SQLite's `user_version`): a database of a newer version than this
//! build knows is refused, never written. A server meets it when it is
//! [ready](Database::ready): one another process holds locked (a tool
//! with a transaction open) is a database that does not answer yet, not
//! a reason to stop.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{
    CHANGES_KEPT, Database, Kept, LapKey, Listed, NewLap, Placing, ROOMS_FRESH_MS, ROOMS_KEPT_MS,
    Refusal, TrackBest, listed, medal_named, splits_of, splits_text, sql,
};
use crate::physics::models::ModelKind;
use crate::race::medals::Medal;
use crate::race::records::{Record, ghost_text, parse_ghost};

mod shelf;

/// The schema, one step a version: step `n`'s statements take a
/// database at version `n` to `n + 1` (step 1 adds `aided` first where a
/// build before it did not: [`sql::LAPS_AIDED`]).
const MIGRATIONS: &[&[&str]] = &[
    &[
        sql::LAPS,
        sql::LAPS_INDEX,
        "CREATE TABLE changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            track_id TEXT NOT NULL,
            model TEXT NOT NULL,
            car_id TEXT NOT NULL
        )",
        sql::META,
    ],
    sql::LAPS_ON_BOARDS,
    sql::TRACKS_TABLE,
];

/// The laps' database.
pub struct Sqlite {
    conn: Connection,
    path: PathBuf,
    /// The newest change read.
    seen: i64,
    /// Whether it is set up and of this build's schema.
    ready: bool,
}

/// An error with the database's path, as the log and the command line
/// say it; a lock another process holds said so.
fn error(path: &Path, what: &str, e: impl std::fmt::Display) -> String {
    let e = e.to_string();
    let held = if e.contains("database is locked") {
        " (another process holds it: a tool with it open, or a server migrating it)"
    } else {
        ""
    };
    format!("{}: {what}: {e}{held}", path.display())
}

impl Sqlite {
    /// Opens (or makes) the database at `path`, brought to this build's
    /// schema, or says why it cannot be.
    pub fn open(path: &Path) -> Result<Sqlite, String> {
        let mut db = Sqlite::connect(path)?;
        db.ready(super::DEADLINE).map_err(|r| r.why)?;
        Ok(db)
    }

    /// The database at `path` (the file made if new), not yet set up or
    /// brought to this build's schema: [`Database::ready`] does that.
    pub fn connect(path: &Path) -> Result<Sqlite, String> {
        let conn = Connection::open(path).map_err(|e| error(path, "cannot open", e))?;
        Ok(Sqlite {
            conn,
            path: path.to_path_buf(),
            seen: 0,
            ready: false,
        })
    }

    /// WAL and full syncs. Another server switching a new database to
    /// WAL at the same moment holds it for that moment: the switch is
    /// tried again.
    fn set_up(&self) -> Result<(), String> {
        let setup = "PRAGMA busy_timeout = 2000; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = FULL;";
        let mut tries = 0;
        while let Err(e) = self.conn.execute_batch(setup) {
            tries += 1;
            if tries == 100 || e.sqlite_error_code() != Some(rusqlite::ErrorCode::DatabaseBusy) {
                return Err(self.fail("cannot open", e));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fail(&self, what: &str, e: impl std::fmt::Display) -> String {
        error(&self.path, what, e)
    }

    /// Brings the schema to this build's version, in one transaction that
    /// holds the database's write lock from its start, so that two servers
    /// starting at once on a new database migrate it once. Only a newer
    /// schema is refused for good.
    fn migrate(&mut self) -> Result<(), Refusal> {
        let path = self.path.clone();
        let fail = |e| Refusal {
            why: error(&path, "cannot migrate", e),
            lasting: false,
        };
        let tx = (self.conn)
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let version: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(fail)?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(Refusal {
                why: error(
                    &path,
                    "cannot use",
                    format!("schema version {version} is newer than this skid's ({known})"),
                ),
                lasting: true,
            });
        }
        // A column where it is missing (builds of version 1 added some).
        let add = |table: &str, column: &str, statement: &str| {
            let has: i64 = tx.query_row(sql::HAS_COLUMN, [table, column], |r| r.get(0))?;
            if has == 0 {
                tx.execute_batch(statement)?;
            }
            Ok::<(), rusqlite::Error>(())
        };
        for (n, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            if n == 1 {
                add("laps", "aided", sql::LAPS_AIDED).map_err(fail)?;
            }
            for statement in *step {
                tx.execute_batch(statement).map_err(fail)?;
            }
            if n == 1 {
                add("rooms", "peer", sql::ROOMS_PEER).map_err(fail)?;
                add("rooms", "aid", sql::ROOMS_AID).map_err(fail)?;
            }
        }
        tx.pragma_update(None, "user_version", known)
            .map_err(fail)?;
        tx.commit().map_err(fail)
    }

    fn newest_change(&self) -> Result<i64, String> {
        (self.conn)
            .query_row(sql::NEWEST_CHANGE, [], |r| r.get(0))
            .map_err(|e| self.fail("cannot read", e))
    }
}

impl Database for Sqlite {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// Set up and migrated, once: a file answers or errs within the
    /// busy wait (2 s), and is tried again while another process holds
    /// it.
    fn ready(&mut self, _within: std::time::Duration) -> Result<(), Refusal> {
        if self.ready {
            return Ok(());
        }
        let not_yet = |why| Refusal {
            why,
            lasting: false,
        };
        self.set_up().map_err(not_yet)?;
        self.migrate()?;
        self.seen = self.newest_change().map_err(not_yet)?;
        self.ready = true;
        Ok(())
    }

    /// Keeps `laps` in one transaction (all or none), each only if it
    /// beats its driver's lap for its key; returns which did.
    fn save(&mut self, laps: &[NewLap], now_ms: i64) -> Result<Vec<bool>, String> {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| error(&path, "cannot save laps", e);
        let tx = self.conn.transaction().map_err(fail)?;
        let mut kept = Vec::with_capacity(laps.len());
        {
            let mut upsert = tx.prepare_cached(sql::UPSERT).map_err(fail)?;
            let mut change = tx.prepare_cached(sql::CHANGE).map_err(fail)?;
            for lap in laps {
                let r = &lap.record;
                let n = upsert
                    .execute(params![
                        lap.identity,
                        r.track_id,
                        r.model.name(),
                        r.car_id,
                        lap.name,
                        r.track,
                        r.car,
                        r.time,
                        r.ticks as i64,
                        r.hz,
                        splits_text(&r.splits),
                        r.medal.map(Medal::name),
                        now_ms,
                        ghost_text(&lap.ghost),
                        i64::from(r.aided),
                    ])
                    .map_err(fail)?;
                if n > 0 {
                    change
                        .execute(params![r.track_id, r.model.name(), r.car_id])
                        .map_err(fail)?;
                }
                kept.push(n > 0);
            }
            tx.execute(sql::PRUNE, [CHANGES_KEPT]).map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        Ok(kept)
    }

    /// `identity`'s best lap for `key` on the board `aided`, with its
    /// ghost.
    fn best(&mut self, identity: &str, key: &LapKey, aided: bool) -> Result<Option<Kept>, String> {
        let mut q = (self.conn)
            .prepare_cached(sql::BEST)
            .map_err(|e| self.fail("cannot read", e))?;
        let on = i64::from(aided);
        let row = q
            .query_row(params![identity, key.0, key.1.name(), key.2, on], |r| {
                let splits: String = r.get(5)?;
                let medal: Option<String> = r.get(6)?;
                let ghost: String = r.get(7)?;
                let record = Record {
                    track: r.get(0)?,
                    track_id: key.0.clone(),
                    model: key.1,
                    car: r.get(1)?,
                    car_id: key.2.clone(),
                    time: r.get(2)?,
                    ticks: r.get::<_, i64>(3)?.max(0) as u64,
                    hz: r.get(4)?,
                    splits: splits_of(&splits),
                    medal: medal.as_deref().and_then(medal_named),
                    aided: r.get::<_, i64>(8)? != 0,
                };
                Ok((record, parse_ghost(&ghost)))
            })
            .optional()
            .map_err(|e| self.fail("cannot read", e))?;
        Ok(row)
    }

    fn top(&mut self, key: &LapKey, aided: bool, n: usize) -> Result<(Vec<Placing>, u64), String> {
        let fail = |e| self.fail("cannot read a board", e);
        let on = i64::from(aided);
        let mut q = (self.conn).prepare_cached(sql::TOP).map_err(fail)?;
        let rows = q
            .query_map(params![key.0, key.1.name(), key.2, on, n as i64], placing)
            .map_err(fail)?;
        let top = rows.collect::<Result<Vec<_>, _>>().map_err(fail)?;
        let total: i64 = (self.conn)
            .prepare_cached(sql::COUNT)
            .and_then(|mut q| q.query_row(params![key.0, key.1.name(), key.2, on], |r| r.get(0)))
            .map_err(fail)?;
        Ok((top, total.max(0) as u64))
    }

    fn place(
        &mut self,
        key: &LapKey,
        aided: bool,
        identity: &str,
    ) -> Result<Option<(u64, Placing)>, String> {
        let fail = |e| self.fail("cannot read a board", e);
        let on = i64::from(aided);
        let mut q = (self.conn).prepare_cached(sql::PLACE).map_err(fail)?;
        q.query_row(params![identity, key.0, key.1.name(), key.2, on], |r| {
            Ok((r.get::<_, i64>(5)?.max(0) as u64 + 1, placing(r)?))
        })
        .optional()
        .map_err(fail)
    }

    fn at(&mut self, key: &LapKey, aided: bool, place: u64) -> Result<Option<Placing>, String> {
        let fail = |e| self.fail("cannot read a board", e);
        let offset = i64::try_from(place.saturating_sub(1)).unwrap_or(i64::MAX);
        let on = i64::from(aided);
        let mut q = (self.conn).prepare_cached(sql::AT).map_err(fail)?;
        q.query_row(params![key.0, key.1.name(), key.2, on, offset], placing)
            .optional()
            .map_err(fail)
    }

    /// The best lap on each track, whatever the model and car, for the
    /// lobby: track id, the lap (its model and car name) and who set it.
    fn tracks(&mut self) -> Result<Vec<String>, String> {
        let fail = |e| error(&self.path, "cannot read the tracks", e);
        let mut q = (self.conn).prepare_cached(sql::TRACKS).map_err(fail)?;
        let rows = q.query_map([], |r| r.get(0)).map_err(fail)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(fail)
    }

    fn boards(&mut self) -> Result<Vec<(LapKey, String, String)>, String> {
        let fail = |e| error(&self.path, "cannot read the boards", e);
        let mut q = (self.conn).prepare(sql::BOARDS).map_err(fail)?;
        let rows = q
            .query_map([], |r| {
                let model: String = r.get(1)?;
                Ok((r.get(0)?, model, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(fail)?;
        let mut all = Vec::new();
        for row in rows {
            let (track_id, model, car_id, track, car): (String, String, String, String, String) =
                row.map_err(fail)?;
            if let Ok(model) = model.parse() {
                all.push(((track_id, model, car_id), track, car));
            }
        }
        Ok(all)
    }

    /// The best lap on one track, whatever the model and car.
    fn best_of_track(&mut self, track_id: &str) -> Result<Option<TrackBest>, String> {
        let mut q = (self.conn)
            .prepare_cached(sql::BEST_OF_TRACK)
            .map_err(|e| self.fail("cannot read the best laps", e))?;
        q.query_row([track_id], |r| {
            let model: String = r.get(5)?;
            Ok((placing(r)?, model.parse().unwrap_or_default(), r.get(6)?))
        })
        .optional()
        .map_err(|e| self.fail("cannot read the best laps", e))
    }

    /// The boards changed since the last call (by this server or any
    /// other sharing the database), each once.
    fn changes(&mut self) -> Result<Vec<LapKey>, String> {
        let fail = |e| error(&self.path, "cannot read changes", e);
        let mut q = (self.conn)
            .prepare_cached(sql::CHANGES_SINCE)
            .map_err(fail)?;
        let mut keys: Vec<LapKey> = Vec::new();
        let mut seen = self.seen;
        let rows = q
            .query_map([self.seen], |r| {
                let model: String = r.get(2)?;
                Ok((r.get::<_, i64>(0)?, r.get(1)?, model, r.get(3)?))
            })
            .map_err(fail)?;
        for row in rows {
            let (seq, track, model, car) = row.map_err(fail)?;
            seen = seen.max(seq);
            let Ok(model) = model.parse::<ModelKind>() else {
                continue;
            };
            let key = (track, model, car);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        drop(q);
        self.seen = seen;
        Ok(keys)
    }

    /// The value kept under `key` in the database's own notes.
    fn note(&mut self, key: &str) -> Result<Option<String>, String> {
        (self.conn)
            .query_row(sql::NOTE, [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.fail("cannot read", e))
    }

    /// Keeps `value` under `key` in the database's own notes.
    fn set_note(&mut self, key: &str, value: &str) -> Result<(), String> {
        (self.conn)
            .execute(sql::SET_NOTE, [key, value])
            .map(|_| ())
            .map_err(|e| self.fail("cannot write", e))
    }

    fn publish_rooms(&mut self, server: &str, rooms: &[Listed], now_ms: i64) -> Result<(), String> {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| error(&path, "cannot publish the rooms", e);
        let tx = self.conn.transaction().map_err(fail)?;
        tx.execute(
            sql::ROOMS_CLEAR,
            rusqlite::params![server, now_ms - ROOMS_KEPT_MS],
        )
        .map_err(fail)?;
        for r in rooms {
            tx.execute(
                sql::ROOM_PUT,
                rusqlite::params![
                    server,
                    r.room,
                    r.track,
                    r.model.name(),
                    r.players,
                    r.seats,
                    i64::from(r.racing),
                    now_ms,
                    r.peer.as_deref().unwrap_or(""),
                    i64::from(r.aid)
                ],
            )
            .map_err(fail)?;
        }
        tx.commit().map_err(fail)
    }

    fn rooms_elsewhere(&mut self, server: &str, now_ms: i64) -> Result<Vec<Listed>, String> {
        let fail = |e| error(&self.path, "cannot read the rooms", e);
        let mut q = (self.conn)
            .prepare_cached(sql::ROOMS_ELSEWHERE)
            .map_err(fail)?;
        let rows = q
            .query_map(rusqlite::params![server, now_ms - ROOMS_FRESH_MS], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                ))
            })
            .map_err(fail)?;
        Ok(listed(rows.collect::<Result<Vec<_>, _>>().map_err(fail)?))
    }
}

/// A board's row: identity, name, time, medal, aided.
fn placing(r: &rusqlite::Row) -> rusqlite::Result<Placing> {
    Ok(Placing {
        identity: r.get(0)?,
        name: r.get(1)?,
        time: r.get(2)?,
        medal: r
            .get::<_, Option<String>>(3)?
            .as_deref()
            .and_then(medal_named),
        aided: r.get::<_, i64>(4)? != 0,
    })
}
