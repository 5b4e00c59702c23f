//! The laps in PostgreSQL (tokio-postgres, on a runtime of the records'
//! thread's own): one database that several servers on several machines
//! share, `--database postgres://...`. The tables are [`super::sqlite`]'s,
//! in PostgreSQL's types; the schema's version is kept in `skid_schema`,
//! migrated in one transaction under an advisory lock so that servers
//! starting at once migrate it once.
//!
//! Every call has a deadline ([`DEADLINE`]): a database whose processes
//! are stopped, or a network that drops packets, answers nothing while
//! the kernels on both sides keep the connection up, so no socket option
//! would notice. Past the deadline the call fails and the connection is
//! dropped; the next call makes a new one.
//!
//! Sequence numbers in PostgreSQL are handed out when a row is written,
//! not when it is committed, so a change can appear below one already
//! read: the log of changes is read a window back, and changes already
//! told are not told again.

use std::collections::BTreeSet;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_postgres::config::SslMode;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config, Error, NoTls, Row};

use super::{
    CHANGES_KEPT, DEADLINE, Database, Kept, LapKey, Listed, NewLap, Placing, Refusal, TrackBest,
    medal_named, splits_of, splits_text, sql,
};
use crate::race::medals::Medal;
use crate::race::records::{Record, ghost_text, parse_ghost};

mod rooms;
mod said;
mod schema;
mod shelf;

use said::{shown, why};

/// The schema, one step a version: step `n`'s statements take a
/// database at version `n` to `n + 1` (step 1 adds `aided` first where a
/// build before it did not: [`sql::LAPS_AIDED_PG`]).
const MIGRATIONS: &[&[&str]] = &[
    &[
        sql::LAPS,
        sql::LAPS_INDEX,
        "CREATE TABLE changes (
            seq BIGSERIAL PRIMARY KEY,
            track_id TEXT NOT NULL,
            model TEXT NOT NULL,
            car_id TEXT NOT NULL
        )",
        sql::META,
    ],
    sql::LAPS_ON_BOARDS,
    sql::TRACKS_TABLE,
];

/// The advisory lock migrations take (any number of skid's own).
const MIGRATION_LOCK: i64 = 0x736b_6964;

/// How far back the log of changes is read again (see the module's doc).
const CHANGES_WINDOW: i64 = 1000;

/// A PostgreSQL database and the connection to it.
pub struct Postgres {
    url: String,
    config: Config,
    /// The client's own runtime, run only while a call waits on it.
    runtime: tokio::runtime::Runtime,
    /// The connection: the client, and the task that carries its bytes.
    link: Option<(Client, JoinHandle<()>)>,
    /// Whether the schema is this build's (found or made once).
    migrated: bool,
    /// The newest change read; none before the first connection.
    seen: Option<i64>,
    /// Changes told within the window below `seen`.
    told: BTreeSet<i64>,
}

impl Postgres {
    /// The database at `url`, not yet connected: [`Database::ready`]
    /// connects, within its deadline. Errs for an address that can never
    /// work (not PostgreSQL's, or asking for TLS).
    pub fn open(url: &str) -> Result<Postgres, String> {
        let config: Config = (url.parse())
            .map_err(|e| format!("{}: not a PostgreSQL address: {}", shown(url), why(&e)))?;
        if !matches!(config.get_ssl_mode(), SslMode::Disable | SslMode::Prefer) {
            return Err(format!(
                "{}: skid speaks to PostgreSQL without TLS: keep the database on a \
                 private network or tunnel it, and leave sslmode out",
                shown(url)
            ));
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("{}: cannot start its client: {e}", shown(url)))?;
        Ok(Postgres {
            url: url.to_string(),
            config,
            runtime,
            link: None,
            migrated: false,
            seen: None,
            told: BTreeSet::new(),
        })
    }

    fn fail(&self, what: &str, e: &Error) -> String {
        format!("{}: {what}: {}", shown(&self.url), why(e))
    }

    /// Drops the connection (a call past its deadline may leave it
    /// midway): the next call makes a new one.
    fn hang_up(&mut self) {
        if let Some((_, task)) = self.link.take() {
            task.abort();
        }
    }

    /// Runs `work` once the database is [ready](Database::ready).
    fn run<T>(
        &mut self,
        what: &str,
        work: impl AsyncFnOnce(&mut Client) -> Result<T, Error>,
    ) -> Result<T, String> {
        self.ready(DEADLINE).map_err(|r| r.why)?;
        self.call(what, work)
    }

    /// Runs `work` on the connection (made if there is none) within
    /// [`DEADLINE`]: past it the connection is dropped and the call fails.
    fn call<T>(
        &mut self,
        what: &str,
        work: impl AsyncFnOnce(&mut Client) -> Result<T, Error>,
    ) -> Result<T, String> {
        self.connect(DEADLINE).map_err(|r| r.why)?;
        let (client, _) = self.link.as_mut().expect("just connected");
        let done =
            (self.runtime).block_on(async { tokio::time::timeout(DEADLINE, work(client)).await });
        match done {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => {
                let said = self.fail(what, &e);
                if e.is_closed() {
                    self.hang_up();
                }
                Err(said)
            }
            Err(_) => {
                self.hang_up();
                Err(format!(
                    "{}: {what}: no answer within {} s",
                    shown(&self.url),
                    DEADLINE.as_secs()
                ))
            }
        }
    }

    /// Connects within `within`: a refusal that trying again cannot mend
    /// (a password or a database the server does not know) is lasting.
    fn connect(&mut self, within: Duration) -> Result<(), Refusal> {
        if self.link.as_ref().is_some_and(|(c, _)| !c.is_closed()) {
            return Ok(());
        }
        self.hang_up();
        // The timer is made on the runtime, in the future it runs.
        let connecting = async { tokio::time::timeout(within, self.config.connect(NoTls)).await };
        match self.runtime.block_on(connecting) {
            Ok(Ok((client, connection))) => {
                let task = self.runtime.spawn(async move {
                    let _ = connection.await;
                });
                self.link = Some((client, task));
                Ok(())
            }
            Ok(Err(e)) => {
                let lasting = e.code().is_some_and(|c| {
                    c.code().starts_with("28") || *c == SqlState::INVALID_CATALOG_NAME
                });
                let why = self.fail("cannot connect", &e);
                Err(Refusal { why, lasting })
            }
            Err(_) => Err(Refusal {
                why: format!(
                    "{}: cannot connect: no answer within {:.1} s",
                    shown(&self.url),
                    within.as_secs_f64()
                ),
                lasting: false,
            }),
        }
    }
}

/// A board's row: identity, name, time, medal, aided.
fn placing(r: &Row) -> Placing {
    let medal: Option<String> = r.get(3);
    Placing {
        identity: r.get(0),
        name: r.get(1),
        time: r.get(2),
        medal: medal.as_deref().and_then(medal_named),
        aided: r.get::<_, i64>(4) != 0,
    }
}

impl Database for Postgres {
    fn name(&self) -> String {
        shown(&self.url)
    }

    /// Connected within `within` (a new connection), the schema this
    /// build's, and the log of changes read up to now at the first
    /// connection: changes before this server started are not news.
    fn ready(&mut self, within: Duration) -> Result<(), Refusal> {
        self.connect(within)?;
        if !self.migrated {
            self.migrate()?;
            self.migrated = true;
        }
        if self.seen.is_none() {
            let rows = self
                .call("cannot read", async |c| {
                    c.query(
                        "SELECT seq FROM changes WHERE seq > (SELECT MAX(seq) FROM changes) - $1",
                        &[&CHANGES_WINDOW],
                    )
                    .await
                })
                .map_err(|why| Refusal {
                    why,
                    lasting: false,
                })?;
            self.told = rows.iter().map(|r| r.get(0)).collect();
            self.seen = Some(self.told.last().copied().unwrap_or(0));
        }
        Ok(())
    }

    fn save(&mut self, laps: &[NewLap], now_ms: i64) -> Result<Vec<bool>, String> {
        let kept = self.run("cannot save laps", async |c| {
            let tx = c.transaction().await?;
            let upsert = tx.prepare(sql::UPSERT).await?;
            let change = tx.prepare(sql::CHANGE).await?;
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
                            &i64::from(r.aided),
                        ],
                    )
                    .await?;
                if n > 0 {
                    tx.execute(&change, &[&r.track_id, &r.model.name(), &r.car_id])
                        .await?;
                }
                kept.push(n > 0);
            }
            tx.execute(sql::PRUNE, &[&CHANGES_KEPT]).await?;
            tx.commit().await?;
            Ok(kept)
        })?;
        Ok(kept)
    }

    fn best(&mut self, identity: &str, key: &LapKey, aided: bool) -> Result<Option<Kept>, String> {
        let on = i64::from(aided);
        let row = self.run("cannot read", async |c| {
            c.query_opt(sql::BEST, &[&identity, &key.0, &key.1.name(), &key.2, &on])
                .await
        })?;
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
                aided: r.get::<_, i64>(8) != 0,
            };
            (record, parse_ghost(&ghost))
        }))
    }

    fn top(&mut self, key: &LapKey, aided: bool, n: usize) -> Result<(Vec<Placing>, u64), String> {
        let on = i64::from(aided);
        let (rows, total) = self.run("cannot read a board", async |c| {
            let model = key.1.name();
            let rows = c
                .query(sql::TOP, &[&key.0, &model, &key.2, &on, &(n as i64)])
                .await?;
            let total: i64 = c
                .query_one(sql::COUNT, &[&key.0, &model, &key.2, &on])
                .await?
                .get(0);
            Ok((rows, total))
        })?;
        Ok((rows.iter().map(placing).collect(), total.max(0) as u64))
    }

    fn place(
        &mut self,
        key: &LapKey,
        aided: bool,
        identity: &str,
    ) -> Result<Option<(u64, Placing)>, String> {
        let on = i64::from(aided);
        let row = self.run("cannot read a board", async |c| {
            c.query_opt(sql::PLACE, &[&identity, &key.0, &key.1.name(), &key.2, &on])
                .await
        })?;
        Ok(row.map(|r| (r.get::<_, i64>(5).max(0) as u64 + 1, placing(&r))))
    }

    fn at(&mut self, key: &LapKey, aided: bool, place: u64) -> Result<Option<Placing>, String> {
        let offset = i64::try_from(place.saturating_sub(1)).unwrap_or(i64::MAX);
        let on = i64::from(aided);
        let row = self.run("cannot read a board", async |c| {
            c.query_opt(sql::AT, &[&key.0, &key.1.name(), &key.2, &on, &offset])
                .await
        })?;
        Ok(row.map(|r| placing(&r)))
    }

    fn tracks(&mut self) -> Result<Vec<String>, String> {
        let rows = self.run("cannot read the tracks", async |c| {
            c.query(sql::TRACKS, &[]).await
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn boards(&mut self) -> Result<Vec<(LapKey, String, String)>, String> {
        let rows = self.run("cannot read the boards", async |c| {
            c.query(sql::BOARDS, &[]).await
        })?;
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
        let row = self.run("cannot read the best laps", async |c| {
            c.query_opt(sql::BEST_OF_TRACK, &[&track_id]).await
        })?;
        Ok(row.map(|r| {
            let model: String = r.get(5);
            (placing(&r), model.parse().unwrap_or_default(), r.get(6))
        }))
    }

    fn changes(&mut self) -> Result<Vec<LapKey>, String> {
        // Ready first: the first connection sets where reading starts.
        self.ready(DEADLINE).map_err(|r| r.why)?;
        let seen = self.seen.unwrap_or(0);
        let since = seen - CHANGES_WINDOW;
        let rows = self.run("cannot read changes", async |c| {
            c.query(sql::CHANGES_SINCE, &[&since]).await
        })?;
        let mut keys: Vec<LapKey> = Vec::new();
        let mut seen = seen;
        for r in rows {
            let seq: i64 = r.get(0);
            if !self.told.insert(seq) {
                continue;
            }
            seen = seen.max(seq);
            let model: String = r.get(2);
            let Ok(model) = model.parse() else { continue };
            let key = (r.get(1), model, r.get(3));
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        self.seen = Some(seen);
        self.told = self.told.split_off(&(seen - CHANGES_WINDOW));
        Ok(keys)
    }

    fn note(&mut self, key: &str) -> Result<Option<String>, String> {
        let row = self.run("cannot read", async |c| {
            c.query_opt(sql::NOTE, &[&key]).await
        })?;
        Ok(row.map(|r| r.get(0)))
    }

    fn set_note(&mut self, key: &str, value: &str) -> Result<(), String> {
        self.run("cannot write", async |c| {
            c.execute(sql::SET_NOTE, &[&key, &value]).await
        })
        .map(|_| ())
    }

    fn publish_rooms(&mut self, server: &str, rooms: &[Listed], now_ms: i64) -> Result<(), String> {
        self.put_rooms(server, rooms, now_ms)
    }

    fn rooms_elsewhere(&mut self, server: &str, now_ms: i64) -> Result<Vec<Listed>, String> {
        self.read_rooms(server, now_ms)
    }
}
