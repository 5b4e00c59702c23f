//! The tracks players build on the servers as a database keeps them
//! (docs/SERVE.md, "Players' tracks"): each by its maker's key and its
//! name, private until its maker publishes it, which they may once they
//! have driven a lap of it as it is.

/// A kept track, less its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shelved {
    /// The maker's key fingerprint (never shown).
    pub owner: String,
    pub name: String,
    /// The maker's name as the server showed it when they saved it.
    pub maker: String,
    /// Its content id (its boards'); empty for a draft that does not
    /// parse.
    pub track_id: String,
    /// Whether every lobby lists it.
    pub published: bool,
    /// When it was saved last, milliseconds since the epoch.
    pub saved_at: i64,
}

/// A track to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToShelve {
    pub owner: String,
    pub name: String,
    pub maker: String,
    pub body: String,
    pub track_id: String,
}

/// What keeping a track came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelving {
    /// Kept; still published if it was and is unchanged.
    Saved { published: bool },
    /// Not kept: its maker has this many others, the most allowed.
    Full(usize),
}

/// What publishing a track, or taking it back, came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Publishing {
    Published,
    Unpublished,
    /// Not published: its maker has no lap of it as it is.
    NotDriven,
    /// No such track of theirs.
    Missing,
}

/// What a database does with the players' tracks (every database is
/// one: [`super::Database`]).
pub trait Shelf {
    /// Keeps `track` (made or replaced, in one transaction) unless its
    /// maker has `most` others already, stamped `now_ms`.
    fn shelve(&mut self, track: &ToShelve, most: usize, now_ms: i64) -> Result<Shelving, String>;
    /// The tracks kept ([`Whose`]), less their files.
    fn shelf(&mut self, whose: Whose<'_>) -> Result<Vec<Shelved>, String>;
    /// The file of `owner`'s track `name`.
    fn track_body(&mut self, owner: &str, name: &str) -> Result<Option<String>, String>;
    /// Publishes `owner`'s track `name` (`on`, stamped `now_ms`) once
    /// they have a lap of it as it is, or takes it back.
    fn publish_track(
        &mut self,
        owner: &str,
        name: &str,
        on: bool,
        now_ms: i64,
    ) -> Result<Publishing, String>;
    /// Removes `owner`'s track `name`; returns whether there was one.
    fn remove_track(&mut self, owner: &str, name: &str) -> Result<bool, String>;
}

/// What publishing (`on`) or taking back a track came to, from whether
/// (and when) it is published once the statement ran, if there is one.
pub(super) fn publishing(on: bool, published: Option<i64>) -> Publishing {
    match published {
        None => Publishing::Missing,
        Some(p) if on && p > 0 => Publishing::Published,
        Some(_) if on => Publishing::NotDriven,
        Some(_) => Publishing::Unpublished,
    }
}

/// A row of [`super::sql::TRACK_ROW`]'s columns.
pub(super) type Row = (String, String, String, String, i64, i64);

pub(super) fn shelved((owner, name, maker, track_id, published, saved_at): Row) -> Shelved {
    Shelved {
        owner,
        name,
        maker,
        track_id,
        published: published > 0,
        saved_at,
    }
}

/// Which tracks a listing reads: one maker's, the published ones, all.
#[derive(Debug, Clone, Copy)]
pub enum Whose<'a> {
    Owner(&'a str),
    Published,
    All,
}

impl Whose<'_> {
    /// The statement that reads them.
    pub(super) fn statement(&self) -> String {
        use super::sql::{TRACK_ROW, TRACKS_ALL, TRACKS_OF, TRACKS_PUBLISHED};
        let tail = match self {
            Whose::Owner(_) => TRACKS_OF,
            Whose::Published => TRACKS_PUBLISHED,
            Whose::All => TRACKS_ALL,
        };
        format!("{TRACK_ROW} {tail}")
    }
}
