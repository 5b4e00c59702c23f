//! The rooms each server publishes for the others' lobbies, on
//! PostgreSQL (docs/SERVE.md, "Beyond one machine").

use super::super::{Listed, ROOMS_FRESH_MS, ROOMS_KEPT_MS, listed, sql};
use super::Postgres;

impl Postgres {
    /// [`crate::serve::db::Database::publish_rooms`].
    pub(super) fn put_rooms(
        &mut self,
        server: &str,
        rooms: &[Listed],
        now_ms: i64,
    ) -> Result<(), String> {
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
                let aid = i64::from(r.aid);
                let at: [&(dyn tokio_postgres::types::ToSql + Sync); 10] = [
                    &server,
                    &n(r.room),
                    &r.track,
                    &model,
                    &n(r.players),
                    &n(r.seats),
                    &racing,
                    &beat,
                    &peer,
                    &aid,
                ];
                tx.execute(&put, &at).await?;
            }
            tx.commit().await
        })
    }

    /// [`crate::serve::db::Database::rooms_elsewhere`].
    pub(super) fn read_rooms(&mut self, server: &str, now_ms: i64) -> Result<Vec<Listed>, String> {
        let since = now_ms - ROOMS_FRESH_MS;
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
                r.get(8),
            )
        })))
    }
}
