//! The players' tracks on PostgreSQL ([`crate::serve::db::shelf`]).

use super::super::shelf::{
    Publishing, Shelf, Shelved, Shelving, ToShelve, Whose, publishing, shelved,
};
use super::super::sql;
use super::Postgres;

impl Shelf for Postgres {
    /// The count and the write in one transaction, the maker's key
    /// locked first (an advisory lock) so that two servers saving for one
    /// maker at once keep to the limit.
    fn shelve(&mut self, t: &ToShelve, most: usize, now_ms: i64) -> Result<Shelving, String> {
        self.run("cannot save the track", async |c| {
            let tx = c.transaction().await?;
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1)::bigint)",
                &[&t.owner],
            )
            .await?;
            let others: i64 = (tx
                .query_one(sql::TRACKS_OTHER, &[&t.owner, &t.name])
                .await?)
                .get(0);
            let others = usize::try_from(others).unwrap_or(usize::MAX);
            if others >= most {
                return Ok(Shelving::Full(others));
            }
            let row: [&(dyn tokio_postgres::types::ToSql + Sync); 6] =
                [&t.owner, &t.name, &t.maker, &t.body, &t.track_id, &now_ms];
            tx.execute(sql::TRACK_PUT, &row).await?;
            let published: i64 = (tx
                .query_one(sql::TRACK_PUBLISHED, &[&t.owner, &t.name])
                .await?)
                .get(0);
            tx.commit().await?;
            Ok(Shelving::Saved {
                published: published > 0,
            })
        })
    }

    fn shelf(&mut self, whose: Whose<'_>) -> Result<Vec<Shelved>, String> {
        let statement = whose.statement();
        let rows = self.run("cannot read the tracks", async |c| match whose {
            Whose::Owner(owner) => c.query(&statement, &[&owner]).await,
            Whose::Published | Whose::All => c.query(&statement, &[]).await,
        })?;
        Ok((rows.iter())
            .map(|r| shelved((r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))))
            .collect())
    }

    fn track_body(&mut self, owner: &str, name: &str) -> Result<Option<String>, String> {
        let row = self.run("cannot read the track", async |c| {
            c.query_opt(sql::TRACK_BODY, &[&owner, &name]).await
        })?;
        Ok(row.map(|r| r.get(0)))
    }

    fn publish_track(
        &mut self,
        owner: &str,
        name: &str,
        on: bool,
        now_ms: i64,
    ) -> Result<Publishing, String> {
        let at = now_ms.max(1);
        let published = self.run("cannot publish the track", async |c| {
            if on {
                c.execute(sql::TRACK_PUBLISH, &[&at, &owner, &name]).await?;
            } else {
                c.execute(sql::TRACK_UNPUBLISH, &[&owner, &name]).await?;
            }
            let row = c.query_opt(sql::TRACK_PUBLISHED, &[&owner, &name]).await?;
            Ok(row.map(|r| r.get::<_, i64>(0)))
        })?;
        Ok(publishing(on, published))
    }

    fn remove_track(&mut self, owner: &str, name: &str) -> Result<bool, String> {
        let n = self.run("cannot remove the track", async |c| {
            c.execute(sql::TRACK_REMOVE, &[&owner, &name]).await
        })?;
        Ok(n > 0)
    }
}
