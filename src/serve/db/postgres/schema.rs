//! The schema on PostgreSQL: its version read, and brought to this
//! build's ([`super::MIGRATIONS`]).

use tokio_postgres::Error;
use tokio_postgres::error::SqlState;

use super::super::{Refusal, sql};
use super::said::{shown, why};
use super::{MIGRATION_LOCK, MIGRATIONS, Postgres};

impl Postgres {
    /// The schema's version as the database has it (0: none made yet),
    /// read without changing anything.
    fn version(&mut self) -> Result<i64, String> {
        self.call("cannot migrate", async |c| {
            match c.query_opt("SELECT version FROM skid_schema", &[]).await {
                Ok(row) => Ok(row.map_or(0, |r| r.get(0))),
                Err(e) if e.code() == Some(&SqlState::UNDEFINED_TABLE) => Ok(0),
                Err(e) => Err(e),
            }
        })
    }

    /// Brings the schema to this build's version, in one transaction
    /// under an advisory lock. A schema already this build's is only read:
    /// a role that may read and write rows but not change tables (least
    /// privilege) runs a server on it. One that is behind needs a role
    /// that may (the tables' owner): without it the refusal is lasting,
    /// and says what to do.
    pub(super) fn migrate(&mut self) -> Result<(), Refusal> {
        let known = MIGRATIONS.len() as i64;
        let refused = |why| Refusal {
            why,
            lasting: false,
        };
        let url = shown(&self.url);
        let newer = |version| Refusal {
            why: format!(
                "{url}: cannot use: schema version {version} is newer than this skid's ({known})"
            ),
            lasting: true,
        };
        let had = self.version().map_err(refused)?;
        match had {
            _ if had == known => return Ok(()),
            _ if had > known => return Err(newer(had)),
            _ => {}
        }
        let found = self.call("cannot migrate", async |c| {
            let tx = c.transaction().await?;
            let steps = async {
                tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                    .await?;
                tx.batch_execute(
                    "CREATE TABLE IF NOT EXISTS skid_schema (version BIGINT NOT NULL)",
                )
                .await?;
                let version: i64 = (tx.query_opt("SELECT version FROM skid_schema", &[]).await?)
                    .map_or(0, |r| r.get(0));
                if version > known {
                    return Ok(version);
                }
                for (n, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
                    if n == 1 {
                        tx.batch_execute(sql::LAPS_AIDED_PG).await?;
                    }
                    for statement in *step {
                        tx.batch_execute(statement).await?;
                    }
                    if n == 1 {
                        tx.batch_execute(sql::ROOMS_PEER_PG).await?;
                        tx.batch_execute(sql::ROOMS_AID_PG).await?;
                    }
                }
                tx.execute("DELETE FROM skid_schema", &[]).await?;
                tx.execute("INSERT INTO skid_schema (version) VALUES ($1)", &[&known])
                    .await?;
                Ok::<i64, Error>(version)
            };
            // A role that may not change tables: said apart, for good.
            let version = match steps.await {
                Err(e) if e.code() == Some(&SqlState::INSUFFICIENT_PRIVILEGE) => {
                    return Ok(Err(why(&e)));
                }
                done => done?,
            };
            tx.commit().await?;
            Ok(Ok(version))
        });
        match found.map_err(refused)? {
            Ok(version) if version > known => Err(newer(version)),
            Ok(_) => Ok(()),
            Err(denied) => Err(Refusal {
                why: format!(
                    "{url}: cannot migrate the schema from version {had} to {known}: {denied}: \
                     start this build once with a role that owns the tables \
                     (docs/SERVE.md, \"Upgrading\")"
                ),
                lasting: true,
            }),
        }
    }
}
