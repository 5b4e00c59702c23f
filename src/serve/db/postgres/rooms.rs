//! The rooms each server publishes for the others' lobbies, on
//! PostgreSQL (docs/SERVE.md, "Beyond one machine").

use super::super::{Listed, ROOMS_FRESH_MS, ROOMS_KEPT_MS, listed, sql};
use super::{MIGRATION_LOCK, Postgres};

impl Postgres {
    /// Makes the rooms' table if it is not there, once: under the
    /// migrations' lock, so that servers starting at once do not both
    /// try (PostgreSQL's `IF NOT EXISTS` is no guard against that).
    fn make_rooms_table(&mut self) -> Result<(), String> {
        if self.rooms_table {
            return Ok(());
        }
        self.run("cannot make the rooms' table", async |c| {
            let tx = c.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            tx.batch_execute(sql::ROOMS).await?;
            tx.batch_execute(sql::ROOMS_PEER_PG).await?;
            tx.commit().await
        })?;
        self.rooms_table = true;
        Ok(())
    }

    /// [`crate::serve::db::Database::publish_rooms`].
    pub(super) fn put_rooms(
        &mut self,
        server: &str,
        rooms: &[Listed],
        now_ms: i64,
    ) -> Result<(), String> {
        self.make_rooms_table()?;
        self.run("cannot publish the rooms", async |c| {
            let tx = c.transaction().await?;
            tx.execute(sql::ROOMS_CLEAR, &[&server, &(now_ms - ROOMS_KEPT_MS)])
                .await?;
            let put = tx.prepare(sql::ROOM_PUT).await?;
            for r in rooms {
                let n = |v: u32| i64::from(v);
                let racing = i64::from(r.racing);
                let (model, beat) = (r.model.name(), now_ms);
                let peer = r.peer.as_deref().unwrap_or("");
                let at: [&(dyn tokio_postgres::types::ToSql + Sync); 9] = [
                    &server,
                    &n(r.room),
                    &r.track,
                    &model,
                    &n(r.players),
                    &n(r.seats),
                    &racing,
                    &beat,
                    &peer,
                ];
                tx.execute(&put, &at).await?;
            }
            tx.commit().await
        })
    }

    /// [`crate::serve::db::Database::rooms_elsewhere`].
    pub(super) fn read_rooms(&mut self, server: &str, now_ms: i64) -> Result<Vec<Listed>, String> {
        let since = now_ms - ROOMS_FRESH_MS;
        self.make_rooms_table()?;
        let rows = self.run("cannot read the rooms", async |c| {
            c.query(sql::ROOMS_ELSEWHERE, &[&server, &since]).await
        })?;
        Ok(listed(rows.iter().map(|r| {
            (
                r.get(0),
                r.get(1),
                r.get(2),
                r.get(3),
                r.get(4),
                r.get(5),
                r.get(6),
                r.get(7),
            )
        })))
    }
}
