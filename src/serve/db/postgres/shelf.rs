//! The players' tracks on PostgreSQL ([`crate::serve::db::shelf`]).

use super::super::shelf::{Publishing, Shelved, Shelving, ToShelve, Whose, shelved};
use super::super::sql;
use super::Postgres;

impl Postgres {
    /// [`crate::serve::db::Database::shelve`]: the count and the write
    /// in one transaction, the maker's rows locked first so that two
    /// servers saving for one maker at once keep to the limit.
    pub(super) fn put_track(
        &mut self,
        t: &ToShelve,
        most: usize,
        now_ms: i64,
    ) -> Result<Shelving, String> {
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

    /// [`crate::serve::db::Database::shelf`].
    pub(super) fn read_shelf(&mut self, whose: Whose<'_>) -> Result<Vec<Shelved>, String> {
        let statement = whose.statement();
        let rows = self.run("cannot read the tracks", async |c| match whose {
            Whose::Owner(owner) => c.query(&statement, &[&owner]).await,
            Whose::Published | Whose::All => c.query(&statement, &[]).await,
        })?;
        Ok((rows.iter())
            .map(|r| shelved((r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))))
            .collect())
    }

    /// [`crate::serve::db::Database::track_body`].
    pub(super) fn read_body(&mut self, owner: &str, name: &str) -> Result<Option<String>, String> {
        let row = self.run("cannot read the track", async |c| {
            c.query_opt(sql::TRACK_BODY, &[&owner, &name]).await
        })?;
        Ok(row.map(|r| r.get(0)))
    }

    /// [`crate::serve::db::Database::publish_track`].
    pub(super) fn set_published(
        &mut self,
        owner: &str,
        name: &str,
        on: bool,
        now_ms: i64,
    ) -> Result<Publishing, String> {
        let at = now_ms.max(1);
        self.run("cannot publish the track", async |c| {
            let changed = if on {
                c.execute(sql::TRACK_PUBLISH, &[&at, &owner, &name]).await?
            } else {
                c.execute(sql::TRACK_UNPUBLISH, &[&owner, &name]).await?
            };
            if changed > 0 {
                return Ok(if on {
                    Publishing::Published
                } else {
                    Publishing::Unpublished
                });
            }
            let row = c.query_opt(sql::TRACK_PUBLISHED, &[&owner, &name]).await?;
            Ok(match row.map(|r| r.get::<_, i64>(0)) {
                None => Publishing::Missing,
                Some(p) if on && p > 0 => Publishing::Published,
                Some(_) if on => Publishing::NotDriven,
                Some(_) => Publishing::Unpublished,
            })
        })
    }

    /// [`crate::serve::db::Database::remove_track`].
    pub(super) fn drop_track(&mut self, owner: &str, name: &str) -> Result<bool, String> {
        let n = self.run("cannot remove the track", async |c| {
            c.execute(sql::TRACK_REMOVE, &[&owner, &name]).await
        })?;
        Ok(n > 0)
    }
}
