//! The players' tracks on SQLite ([`crate::serve::db::shelf`]).

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::super::shelf::{
    Publishing, Row, Shelf, Shelved, Shelving, ToShelve, Whose, publishing, shelved,
};
use super::super::sql;
use super::{Sqlite, error};

impl Shelf for Sqlite {
    /// The count and the write in one transaction that holds the write
    /// lock from its start, so that two servers saving for one maker at
    /// once keep to the limit.
    fn shelve(&mut self, t: &ToShelve, most: usize, now_ms: i64) -> Result<Shelving, String> {
        let path = self.path.clone();
        let fail = |e: rusqlite::Error| error(&path, "cannot save the track", e);
        let tx = (self.conn)
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let others: i64 = (tx.query_row(sql::TRACKS_OTHER, params![t.owner, t.name], |r| r.get(0)))
            .map_err(fail)?;
        let others = usize::try_from(others).unwrap_or(usize::MAX);
        if others >= most {
            return Ok(Shelving::Full(others));
        }
        let row = params![t.owner, t.name, t.maker, t.body, t.track_id, now_ms];
        tx.execute(sql::TRACK_PUT, row).map_err(fail)?;
        let published: i64 = (tx
            .query_row(sql::TRACK_PUBLISHED, params![t.owner, t.name], |r| r.get(0)))
        .map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(Shelving::Saved {
            published: published > 0,
        })
    }

    fn shelf(&mut self, whose: Whose<'_>) -> Result<Vec<Shelved>, String> {
        let fail = |e| self.fail("cannot read the tracks", e);
        let mut q = self.conn.prepare(&whose.statement()).map_err(fail)?;
        let row = |r: &rusqlite::Row| -> rusqlite::Result<Row> {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        };
        let rows = match whose {
            Whose::Owner(owner) => q.query_map([owner], row),
            Whose::Published | Whose::All => q.query_map([], row),
        };
        let rows: rusqlite::Result<Vec<Row>> = rows.and_then(Iterator::collect);
        Ok(rows.map_err(fail)?.into_iter().map(shelved).collect())
    }

    fn track_body(&mut self, owner: &str, name: &str) -> Result<Option<String>, String> {
        (self.conn)
            .query_row(sql::TRACK_BODY, [owner, name], |r| r.get(0))
            .optional()
            .map_err(|e| self.fail("cannot read the track", e))
    }

    fn publish_track(
        &mut self,
        owner: &str,
        name: &str,
        on: bool,
        now_ms: i64,
    ) -> Result<Publishing, String> {
        let fail = |e| self.fail("cannot publish the track", e);
        let ran = if on {
            (self.conn).execute(sql::TRACK_PUBLISH, params![now_ms.max(1), owner, name])
        } else {
            (self.conn).execute(sql::TRACK_UNPUBLISH, params![owner, name])
        };
        ran.map_err(fail)?;
        let published = (self.conn)
            .query_row(sql::TRACK_PUBLISHED, [owner, name], |r| r.get(0))
            .optional()
            .map_err(fail)?;
        Ok(publishing(on, published))
    }

    fn remove_track(&mut self, owner: &str, name: &str) -> Result<bool, String> {
        (self.conn)
            .execute(sql::TRACK_REMOVE, [owner, name])
            .map(|n| n > 0)
            .map_err(|e| self.fail("cannot remove the track", e))
    }
}
