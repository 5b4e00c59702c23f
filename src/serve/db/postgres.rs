//! The laps in PostgreSQL (the `postgres` crate: tokio-postgres behind a
//! blocking client, on the records' thread): one database that several
//! servers on several machines share, `--database postgres://...`. The
//! tables are [`super::sqlite`]'s, in PostgreSQL's types; the schema's
//! version is kept in `skid_schema`, migrated in one transaction under an
//! advisory lock so that servers starting at once migrate it once. A
//! connection lost is made again at the next question.
//!
//! Sequence numbers in PostgreSQL are handed out when a row is written,
//! not when it is committed, so a change can appear below one already
//! read: the log of changes is read a window back, and changes already
//! told are not told again.

use std::collections::BTreeSet;

use postgres::config::SslMode;
use postgres::{Client, NoTls, Row};

use super::{
    CHANGES_KEPT, Database, Entry, Kept, Key, Lap, TrackBest, medal_named, splits_of, splits_text,
    sql,
};
use crate::medals::Medal;
use crate::records::{Record, ghost_text, parse_ghost};

/// The schema, one step a version: step `n`'s statements take a
/// database at version `n` to `n + 1`.
const MIGRATIONS: &[&[&str]] = &[&[
    sql::LAPS,
    sql::LAPS_INDEX,
    "CREATE TABLE changes (
        seq BIGSERIAL PRIMARY KEY,
        track_id TEXT NOT NULL,
        model TEXT NOT NULL,
        car_id TEXT NOT NULL
    )",
    sql::META,
]];

/// The advisory lock migrations take (any number of skid's own).
const MIGRATION_LOCK: i64 = 0x736b_6964;

/// How far back the log of changes is read again (see the module's doc).
const CHANGES_WINDOW: i64 = 1000;

/// A PostgreSQL database and the connection to it.
pub struct Postgres {
    url: String,
    client: Option<Client>,
    /// The newest change read.
    seen: i64,
    /// Changes told within the window below `seen`.
    told: BTreeSet<i64>,
}

/// `url` without its password, as the log names the database: neither
/// the one after the user name (up to the last `@`, so that one with an
/// `@` of its own is dropped whole) nor a `password=` parameter.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (user, place) = match rest.rsplit_once('@') {
        Some((who, place)) => (format!("{}@", who.split(':').next().unwrap_or("")), place),
        None => (String::new(), rest),
    };
    let place = match place.split_once('?') {
        Some((path, query)) => {
            let secret = |p: &&str| {
                p.split('=')
                    .next()
                    .is_some_and(|k| k.eq_ignore_ascii_case("password"))
            };
            let kept: Vec<&str> = query.split('&').filter(|p| !secret(p)).collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => place.to_string(),
    };
    format!("{scheme}://{user}{place}")
}

/// `e` and what caused it, for the log and the operator: the driver's
/// own words ("db error", "error connecting to server") say nothing of
/// why; the cause does (a password refused, a database missing, the
/// connection refused).
fn why(e: &postgres::Error) -> String {
    let mut out = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

impl Postgres {
    /// Connects to the database at `url` and brings its schema to this
    /// build's version.
    pub fn open(url: &str) -> Result<Postgres, String> {
        let config: postgres::Config = (url.parse())
            .map_err(|e| format!("{}: not a PostgreSQL address: {}", shown(url), why(&e)))?;
        if !matches!(config.get_ssl_mode(), SslMode::Disable | SslMode::Prefer) {
            return Err(format!(
                "{}: skid speaks to PostgreSQL without TLS: keep the database on a \
                 private network or tunnel it, and leave sslmode out",
                shown(url)
            ));
        }
        let mut db = Postgres {
            url: url.to_string(),
            client: None,
            seen: 0,
            told: BTreeSet::new(),
        };
        db.migrate()?;
        // Changes before this start are not news: told already.
        let rows = (db.client()?)
            .query(
                "SELECT seq FROM changes WHERE seq > (SELECT MAX(seq) FROM changes) - $1",
                &[&CHANGES_WINDOW],
            )
            .map_err(|e| db.fail("cannot read", &e))?;
        db.told = rows.iter().map(|r| r.get(0)).collect();
        db.seen = db.told.last().copied().unwrap_or(0);
        Ok(db)
    }

    fn fail(&self, what: &str, e: &postgres::Error) -> String {
        format!("{}: {what}: {}", shown(&self.url), why(e))
    }

    /// The connection, made again if it was lost.
    fn client(&mut self) -> Result<&mut Client, String> {
        if self.client.as_ref().is_none_or(Client::is_closed) {
            let client =
                Client::connect(&self.url, NoTls).map_err(|e| self.fail("cannot connect", &e))?;
            self.client = Some(client);
        }
        Ok(self.client.as_mut().expect("just connected"))
    }

    fn migrate(&mut self) -> Result<(), String> {
        let name = shown(&self.url);
        let fail = |e: postgres::Error| format!("{name}: cannot migrate: {}", why(&e));
        let mut tx = self.client()?.transaction().map_err(fail)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(fail)?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS skid_schema (version BIGINT NOT NULL)")
            .map_err(fail)?;
        let version: i64 = tx
            .query_opt("SELECT version FROM skid_schema", &[])
            .map_err(fail)?
            .map_or(0, |r| r.get(0));
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(format!(
                "{name}: cannot use: schema version {version} is newer than this skid's ({known})"
            ));
        }
        for step in &MIGRATIONS[version.max(0) as usize..] {
            for statement in *step {
                tx.batch_execute(statement).map_err(fail)?;
            }
        }
        tx.execute("DELETE FROM skid_schema", &[]).map_err(fail)?;
        tx.execute("INSERT INTO skid_schema (version) VALUES ($1)", &[&known])
            .map_err(fail)?;
        tx.commit().map_err(fail)
    }
}

/// A board's row: identity, name, time, medal.
fn entry(r: &Row) -> Entry {
    let medal: Option<String> = r.get(3);
    Entry {
        identity: r.get(0),
        name: r.get(1),
        time: r.get(2),
        medal: medal.as_deref().and_then(medal_named),
    }
}

impl Database for Postgres {
    fn name(&self) -> String {
        shown(&self.url)
    }

    fn save(&mut self, laps: &[Lap], now_ms: i64) -> Result<Vec<bool>, String> {
        let name = shown(&self.url);
        let fail = |e: postgres::Error| format!("{name}: cannot save laps: {}", why(&e));
        let mut tx = self.client()?.transaction().map_err(fail)?;
        let upsert = tx.prepare(sql::UPSERT).map_err(fail)?;
        let change = tx.prepare(sql::CHANGE).map_err(fail)?;
        let mut kept = Vec::with_capacity(laps.len());
        for lap in laps {
            let r = &lap.record;
            let n = tx
                .execute(
                    &upsert,
                    &[
                        &lap.identity,
                        &r.track_id,
                        &r.model.name(),
                        &r.car_id,
                        &lap.name,
                        &r.track,
                        &r.car,
                        &r.time,
                        &(r.ticks as i64),
                        &i64::from(r.hz),
                        &splits_text(&r.splits),
                        &r.medal.map(Medal::name),
                        &now_ms,
                        &ghost_text(&lap.ghost),
                    ],
                )
                .map_err(fail)?;
            if n > 0 {
                tx.execute(&change, &[&r.track_id, &r.model.name(), &r.car_id])
                    .map_err(fail)?;
            }
            kept.push(n > 0);
        }
        tx.execute(sql::PRUNE, &[&CHANGES_KEPT]).map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(kept)
    }

    fn best(&mut self, identity: &str, key: &Key) -> Result<Option<Kept>, String> {
        let name = shown(&self.url);
        let row = self
            .client()?
            .query_opt(sql::BEST, &[&identity, &key.0, &key.1.name(), &key.2])
            .map_err(|e: postgres::Error| format!("{name}: cannot read: {}", why(&e)))?;
        Ok(row.map(|r| {
            let splits: String = r.get(5);
            let medal: Option<String> = r.get(6);
            let ghost: String = r.get(7);
            let record = Record {
                track: r.get(0),
                track_id: key.0.clone(),
                model: key.1,
                car: r.get(1),
                car_id: key.2.clone(),
                time: r.get(2),
                ticks: r.get::<_, i64>(3).max(0) as u64,
                hz: u32::try_from(r.get::<_, i64>(4)).unwrap_or(0),
                splits: splits_of(&splits),
                medal: medal.as_deref().and_then(medal_named),
            };
            (record, parse_ghost(&ghost))
        }))
    }

    fn top(&mut self, key: &Key, n: usize) -> Result<(Vec<Entry>, u64), String> {
        let name = shown(&self.url);
        let fail = |e: postgres::Error| format!("{name}: cannot read a board: {}", why(&e));
        let client = self.client()?;
        let k: [&(dyn postgres::types::ToSql + Sync); 3] = [&key.0, &key.1.name(), &key.2];
        let rows = client
            .query(sql::TOP, &[k[0], k[1], k[2], &(n as i64)])
            .map_err(fail)?;
        let total: i64 = client.query_one(sql::COUNT, &k).map_err(fail)?.get(0);
        Ok((rows.iter().map(entry).collect(), total.max(0) as u64))
    }

    fn place(&mut self, key: &Key, identity: &str) -> Result<Option<(u64, Entry)>, String> {
        let name = shown(&self.url);
        let row = (self.client()?)
            .query_opt(sql::PLACE, &[&identity, &key.0, &key.1.name(), &key.2])
            .map_err(|e: postgres::Error| format!("{name}: cannot read a board: {}", why(&e)))?;
        Ok(row.map(|r| (r.get::<_, i64>(4).max(0) as u64 + 1, entry(&r))))
    }

    fn at(&mut self, key: &Key, place: u64) -> Result<Option<Entry>, String> {
        let name = shown(&self.url);
        let offset = i64::try_from(place.saturating_sub(1)).unwrap_or(i64::MAX);
        let row = (self.client()?)
            .query_opt(sql::AT, &[&key.0, &key.1.name(), &key.2, &offset])
            .map_err(|e: postgres::Error| format!("{name}: cannot read a board: {}", why(&e)))?;
        Ok(row.map(|r| entry(&r)))
    }

    fn tracks(&mut self) -> Result<Vec<String>, String> {
        let name = shown(&self.url);
        let rows = (self.client()?)
            .query(sql::TRACKS, &[])
            .map_err(|e: postgres::Error| format!("{name}: cannot read the tracks: {}", why(&e)))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn boards(&mut self) -> Result<Vec<(Key, String, String)>, String> {
        let name = shown(&self.url);
        let rows = (self.client()?)
            .query(sql::BOARDS, &[])
            .map_err(|e: postgres::Error| format!("{name}: cannot read the boards: {}", why(&e)))?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let model: String = r.get(1);
                let key = (r.get(0), model.parse().ok()?, r.get(2));
                Some((key, r.get(3), r.get(4)))
            })
            .collect())
    }

    fn best_of_track(&mut self, track_id: &str) -> Result<Option<TrackBest>, String> {
        let name = shown(&self.url);
        let row = (self.client()?)
            .query_opt(sql::BEST_OF_TRACK, &[&track_id])
            .map_err(|e: postgres::Error| {
                format!("{name}: cannot read the best laps: {}", why(&e))
            })?;
        Ok(row.map(|r| {
            let model: String = r.get(4);
            (entry(&r), model.parse().unwrap_or_default(), r.get(5))
        }))
    }

    fn changes(&mut self) -> Result<Vec<Key>, String> {
        let name = shown(&self.url);
        let since = self.seen - CHANGES_WINDOW;
        let rows = (self.client()?)
            .query(sql::CHANGES_SINCE, &[&since])
            .map_err(|e: postgres::Error| format!("{name}: cannot read changes: {}", why(&e)))?;
        let mut keys: Vec<Key> = Vec::new();
        for r in rows {
            let seq: i64 = r.get(0);
            if !self.told.insert(seq) {
                continue;
            }
            self.seen = self.seen.max(seq);
            let model: String = r.get(2);
            let Ok(model) = model.parse() else { continue };
            let key = (r.get(1), model, r.get(3));
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        let floor = self.seen - CHANGES_WINDOW;
        self.told = self.told.split_off(&floor);
        Ok(keys)
    }

    fn note(&mut self, key: &str) -> Result<Option<String>, String> {
        let name = shown(&self.url);
        let row = (self.client()?)
            .query_opt(sql::NOTE, &[&key])
            .map_err(|e: postgres::Error| format!("{name}: cannot read: {}", why(&e)))?;
        Ok(row.map(|r| r.get(0)))
    }

    fn set_note(&mut self, key: &str, value: &str) -> Result<(), String> {
        let name = shown(&self.url);
        (self.client()?)
            .execute(sql::SET_NOTE, &[&key, &value])
            .map(|_| ())
            .map_err(|e: postgres::Error| format!("{name}: cannot write: {}", why(&e)))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_names_the_database_without_its_password() {
        assert_eq!(
            super::shown("postgres://skid:secret@db.example:5432/skid"),
            "postgres://skid@db.example:5432/skid"
        );
        assert_eq!(super::shown("postgres://db/skid"), "postgres://db/skid");
        assert_eq!(
            super::shown("postgres://skid:p@ss:w@rd@db/skid?sslmode=disable"),
            "postgres://skid@db/skid?sslmode=disable"
        );
        assert_eq!(
            super::shown("postgresql://db/skid?user=skid&Password=secret&connect_timeout=5"),
            "postgresql://db/skid?user=skid&connect_timeout=5"
        );
        assert_eq!(
            super::shown("postgres://skid@db/skid?password=secret"),
            "postgres://skid@db/skid"
        );
    }
}
