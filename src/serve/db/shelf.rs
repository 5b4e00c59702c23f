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
