//! A server's players' tracks for its operator (`skid tracks --database
//! URL`): every track kept, by name, maker, key and whether it is
//! published; one taken out of every lobby (`--unpublish`) or removed
//! (`--remove`), found by its name and its maker's key.

use super::Outcome;
use super::args::PlayersTracks;
use super::listings::table;
use crate::base::diag::{Diagnostic, Diagnostics};
use crate::serve::db::{self, Publishing, Whose};

/// What `skid tracks --database URL ...` asks.
pub(super) fn operate(asked: &PlayersTracks) -> Outcome {
    let fail = |e: String| Diagnostics::from(Diagnostic::file("skid tracks", e));
    let url = asked.database.as_deref().unwrap_or_default();
    let mut db = db::open_existing(url).map_err(fail)?;
    let key = asked.key.as_deref().unwrap_or_default();
    if let Some(name) = &asked.unpublish {
        if db.publish_track(key, name, false, 0).map_err(fail)? == Publishing::Missing {
            return Err(fail(format!("{key} keeps no track named {name:?}")));
        }
        println!("{name}: in no lobby now (its maker keeps it)");
        return Ok(());
    }
    if let Some(name) = &asked.remove {
        if !db.remove_track(key, name).map_err(fail)? {
            return Err(fail(format!("{key} keeps no track named {name:?}")));
        }
        println!("{name}: removed");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = (db.shelf(Whose::All).map_err(fail)?.into_iter())
        .map(|t| {
            let state = if t.published { "published" } else { "private" };
            vec![t.name, t.maker, state.into(), t.owner]
        })
        .collect();
    table(&["track", "maker", "state", "key"], &rows, &[]);
    if rows.is_empty() {
        eprintln!("skid: no players' tracks in this database");
    }
    Ok(())
}
