//! The server's laps in a database (docs/SERVE.md, "Records"): each keyed
//! player's best lap per track, model and car with its ghost, on each of
//! two boards (laps steered by hand, and laps the steering aid steered,
//! ranked apart), the boards made of them, and a log of changes that
//! every server sharing the database reads, so that a lap set through one
//! shows on the others' boards.
//!
//! Two databases do this, each behind [`Database`]: SQLite ([`sqlite`]),
//! the default, a file in the data directory with nothing to install, and
//! PostgreSQL ([`postgres`], `--database postgres://...`), which several
//! servers on several machines share. Only the records' thread
//! ([`super::keeper`]) touches one: the hub never waits on it, and the
//! records' thread waits on one call for [`DEADLINE`] at the most.

mod postgres;
pub mod shelf;
mod sql;
mod sqlite;

use crate::physics::models::ModelKind;
use crate::race::medals::Medal;
use crate::race::records::Record;

pub use postgres::Postgres;
pub use shelf::{Publishing, Shelf, Shelved, Shelving, ToShelve, Whose};
pub use sqlite::Sqlite;

pub use crate::race::timing::LapKey;

/// A record with its ghost.
pub type Kept = (Record, Vec<[f64; 3]>);

/// The longest a call to a database may take before it counts as failed
/// (a connection made, a statement answered): a server stopping waits
/// for one call at the most, within the 5 s an operator gives it.
pub const DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// Why a database cannot be used now, and whether it ever can:
/// `lasting` for what trying again cannot mend (a password or a database
/// the server does not know, a newer schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub why: String,
    pub lasting: bool,
}

/// Changes kept in the log: a server further behind than this reads
/// every board afresh.
const CHANGES_KEPT: i64 = 100_000;

/// One place on a board.
#[derive(Debug, Clone, PartialEq)]
pub struct Placing {
    /// The driver's key fingerprint (never shown).
    pub identity: String,
    /// Their name as the server showed it when they set the lap.
    pub name: String,
    pub time: f64,
    pub medal: Option<Medal>,
    /// Driven with the steering aid ([`Record::aided`]): the board marks it.
    pub aided: bool,
}

/// A board (a key's laps, aided or not): its best laps, how many there
/// are, and where some players stand on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Board {
    /// The best laps, the best first (ties: who set it first).
    pub top: Vec<Placing>,
    /// Laps on the board.
    pub total: u64,
    /// Each player asked about who has a lap here: their place (from 1)
    /// and lap.
    pub places: Vec<(u64, Placing)>,
    /// For each of those placed below the top and the lap after it, the
    /// lap just above theirs, with its place: a ghost to chase a place at
    /// a time.
    pub above: Vec<(u64, Placing)>,
}

impl Board {
    /// The lap at `place` (from 1) among those the board holds: the top,
    /// the players asked about and the laps just above theirs.
    pub fn at(&self, place: u64) -> Option<&Placing> {
        let i = usize::try_from(place.checked_sub(1)?).ok()?;
        let mut listed = (self.above.iter()).chain(&self.places);
        (self.top.get(i)).or_else(|| listed.find(|(p, _)| *p == place).map(|(_, e)| e))
    }

    /// Where `identity` stands on the board and their lap, if they were
    /// asked about and have one.
    pub fn place_of(&self, identity: Option<&str>) -> Option<&(u64, Placing)> {
        (self.places.iter()).find(|(_, e)| Some(e.identity.as_str()) == identity)
    }

    /// The places whose ghosts `identity` may race, in the order g goes
    /// through them: the top, the lap just above theirs if it is below
    /// the top, then the laps of `mates` (the players racing with them)
    /// below the top, the best first.
    pub fn ghost_places(&self, identity: Option<&str>, mates: &[String]) -> Vec<u64> {
        let top = self.top.len() as u64;
        let mut places: Vec<u64> = (1..=top).collect();
        if let Some(&(place, _)) = self.place_of(identity)
            && place - 1 > top
            && self.at(place - 1).is_some()
        {
            places.push(place - 1);
        }
        let mut theirs: Vec<u64> = (self.places.iter())
            .filter(|(p, e)| *p > top && mates.contains(&e.identity))
            .filter(|(_, e)| Some(e.identity.as_str()) != identity)
            .map(|(p, _)| *p)
            .filter(|p| !places.contains(p))
            .collect();
        theirs.sort_unstable();
        theirs.dedup();
        places.extend(theirs);
        places
    }

    /// Whether the lap at `place` is the one just above `identity`'s.
    pub fn just_above(&self, place: u64, identity: Option<&str>) -> bool {
        self.place_of(identity)
            .is_some_and(|(p, _)| *p == place + 1)
    }
}

/// A key's two boards: laps steered by hand, and laps the steering aid
/// steered, ranked apart, so that an aided lap never stands above an
/// unaided one (wherever both are shown, the unaided board comes first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Boards {
    pub unaided: Board,
    pub aided: Board,
}

/// A place on one of a key's boards (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    pub aided: bool,
    pub place: u64,
}

impl Boards {
    /// The aided board (`aided`) or the unaided one.
    pub fn on(&self, aided: bool) -> &Board {
        if aided { &self.aided } else { &self.unaided }
    }

    /// The lap at `spot`, among those its board holds.
    pub fn at(&self, spot: Spot) -> Option<&Placing> {
        self.on(spot.aided).at(spot.place)
    }

    /// The laps whose ghosts `identity` may race, in the order g goes
    /// through them: the unaided board's ([`Board::ghost_places`]), then
    /// the aided board's.
    pub fn ghost_spots(&self, identity: Option<&str>, mates: &[String]) -> Vec<Spot> {
        [false, true]
            .into_iter()
            .flat_map(|aided| {
                (self.on(aided).ghost_places(identity, mates).into_iter())
                    .map(move |place| Spot { aided, place })
            })
            .collect()
    }
}

/// A lap to keep: whose, by what name, and its ghost.
#[derive(Debug, Clone)]
pub struct NewLap {
    pub identity: String,
    pub name: String,
    pub record: Record,
    pub ghost: Vec<[f64; 3]>,
}

/// The best lap on one track, whatever the model and car: the lap, its
/// model and the car's name.
pub type TrackBest = (Placing, ModelKind, String);

/// A room as its server publishes it for the others' lobbies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The server it is on, by the name it publishes under (its host and
    /// listen address: `serve::hub::Hub::server`).
    pub server: String,
    /// Its number on that server.
    pub room: u32,
    /// The track's name.
    pub track: String,
    pub model: ModelKind,
    /// Members, and the seats its track has.
    pub players: u32,
    pub seats: u32,
    /// Whether a race runs in it.
    pub racing: bool,
    /// The address its server takes other servers' relays at (`--peer`),
    /// if it takes them.
    pub peer: Option<String>,
    /// Whether its host allows the steering aid (the lobby says `no aid`
    /// where not).
    pub aid: bool,
}

impl Listed {
    /// The host of its server: its name less the address, which says
    /// nothing to a player and would not fit.
    pub fn host(&self) -> &str {
        self.server.split('/').next().unwrap_or(&self.server)
    }
}

/// How long a server's rooms are listed after its last heartbeat: a
/// server that died has its rooms gone from every lobby by then.
pub const ROOMS_FRESH_MS: i64 = 3_000;
/// How long rows of a silent server stay in the table at all.
const ROOMS_KEPT_MS: i64 = 60_000;

/// A row of [`sql::ROOMS_ELSEWHERE`]: server, room, track, model,
/// players, seats, racing, peer, aid.
type RoomRow = (String, i64, String, String, i64, i64, i64, String, i64);

/// The rows of [`sql::ROOMS_ELSEWHERE`] as listed rooms (a model this
/// build does not know is left out).
fn listed(rows: impl IntoIterator<Item = RoomRow>) -> Vec<Listed> {
    let to_u32 = |v: i64| u32::try_from(v).unwrap_or(0);
    rows.into_iter()
        .filter_map(
            |(server, room, track, model, players, seats, racing, peer, aid)| {
                Some(Listed {
                    server,
                    room: to_u32(room),
                    track,
                    model: model.parse().ok()?,
                    players: to_u32(players),
                    seats: to_u32(seats),
                    racing: racing != 0,
                    peer: (!peer.is_empty()).then_some(peer),
                    aid: aid != 0,
                })
            },
        )
        .collect()
}

/// What the records' thread asks of a database. Every error says which
/// database (its path, or its address without the password) and what
/// failed.
pub trait Database: Send + Shelf {
    /// The database, as the log names it.
    fn name(&self) -> String;
    /// Makes the database answer: connected (a new connection within
    /// `within`), its schema this build's. The other calls make it ready
    /// too, within [`DEADLINE`].
    fn ready(&mut self, within: std::time::Duration) -> Result<(), Refusal>;
    /// Keeps `laps` in one transaction (all or none), each only if it
    /// beats its driver's lap for its key on its board, logging a change
    /// for each kept; returns which were.
    fn save(&mut self, laps: &[NewLap], now_ms: i64) -> Result<Vec<bool>, String>;
    /// `identity`'s best lap for `key` on the aided board (`aided`) or
    /// the unaided one, with its ghost.
    fn best(&mut self, identity: &str, key: &LapKey, aided: bool) -> Result<Option<Kept>, String>;
    /// The best `n` laps on a board of `key`, and how many it holds.
    fn top(&mut self, key: &LapKey, aided: bool, n: usize) -> Result<(Vec<Placing>, u64), String>;
    /// Where `identity` stands on a board of `key` (from 1), with their
    /// lap, if they have one there.
    fn place(
        &mut self,
        key: &LapKey,
        aided: bool,
        identity: &str,
    ) -> Result<Option<(u64, Placing)>, String>;
    /// The lap at `place` (from 1) on a board of `key`.
    fn at(&mut self, key: &LapKey, aided: bool, place: u64) -> Result<Option<Placing>, String>;
    /// A board of `key`: its best `top` laps, how many, where each of
    /// `who` stands on it and, for each placed below the top and the lap
    /// after it, the lap just above theirs ([`Board::above`]).
    fn board(
        &mut self,
        key: &LapKey,
        aided: bool,
        top: usize,
        who: &[String],
    ) -> Result<Board, String> {
        let (top, total) = self.top(key, aided, top)?;
        let (mut places, mut above) = (Vec::new(), Vec::new());
        for identity in who {
            let Some((place, lap)) = self.place(key, aided, identity)? else {
                continue;
            };
            if place > top.len() as u64 + 1 {
                above.extend(self.at(key, aided, place - 1)?.map(|e| (place - 1, e)));
            }
            places.push((place, lap));
        }
        Ok(Board {
            top,
            total,
            places,
            above,
        })
    }
    /// Both boards of `key` ([`Database::board`]).
    fn boards_of(&mut self, key: &LapKey, top: usize, who: &[String]) -> Result<Boards, String> {
        Ok(Boards {
            unaided: self.board(key, false, top, who)?,
            aided: self.board(key, true, top, who)?,
        })
    }
    /// Every track with a lap, by its id.
    fn tracks(&mut self) -> Result<Vec<String>, String>;
    /// Every key with a lap on either board: the key, and the track's
    /// and car's names (as the newest lap on it gave them).
    fn boards(&mut self) -> Result<Vec<(LapKey, String, String)>, String>;
    /// The best lap on each track, for the lobby, by track id.
    fn best_per_track(&mut self) -> Result<Vec<(String, TrackBest)>, String> {
        let mut all = Vec::new();
        for track in self.tracks()? {
            if let Some(best) = self.best_of_track(&track)? {
                all.push((track, best));
            }
        }
        Ok(all)
    }
    /// The best lap on one track: an unaided one, or an aided one where
    /// there is none.
    fn best_of_track(&mut self, track_id: &str) -> Result<Option<TrackBest>, String>;
    /// The boards changed since the last call (by this server or any
    /// other sharing the database), each once.
    fn changes(&mut self) -> Result<Vec<LapKey>, String>;
    /// The value kept under `key` in the database's own notes.
    fn note(&mut self, key: &str) -> Result<Option<String>, String>;
    /// Keeps `value` under `key` in the database's own notes.
    fn set_note(&mut self, key: &str, value: &str) -> Result<(), String>;
    /// Publishes `rooms` as all of `server`'s, stamped `now_ms` (its
    /// heartbeat), in one transaction; rows of servers silent for
    /// [`ROOMS_KEPT_MS`] go.
    fn publish_rooms(&mut self, server: &str, rooms: &[Listed], now_ms: i64) -> Result<(), String>;
    /// The rooms of every server but `server` heard from within
    /// [`ROOMS_FRESH_MS`] of `now_ms`.
    fn rooms_elsewhere(&mut self, server: &str, now_ms: i64) -> Result<Vec<Listed>, String>;
}

/// The database `url` names (`postgres://...` or `postgresql://...`),
/// or with none the SQLite file `skid.db` in `dir`; not yet connected or
/// migrated: [`Database::ready`] does that.
pub fn open(url: Option<&str>, dir: &std::path::Path) -> Result<Box<dyn Database>, String> {
    match url {
        Some(url) => Ok(Box::new(Postgres::open(url)?)),
        None => Ok(Box::new(Sqlite::connect(&dir.join("skid.db"))?)),
    }
}

/// Opens a server's database to read: `postgres://...`, or the path of
/// an SQLite file (which must exist: reading makes none).
pub fn open_existing(url: &str) -> Result<Box<dyn Database>, String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let mut db = Postgres::open(url)?;
        db.ready(DEADLINE).map_err(|r| r.why)?;
        return Ok(Box::new(db));
    }
    let path = std::path::Path::new(url);
    if !path.is_file() {
        return Err(format!(
            "{url}: no such database (a postgres:// address or an SQLite file)"
        ));
    }
    Ok(Box::new(Sqlite::open(path)?))
}

/// A lap's splits as the databases keep them: `1200,2400`.
fn splits_text(splits: &[u64]) -> String {
    let s: Vec<String> = splits.iter().map(u64::to_string).collect();
    s.join(",")
}

fn splits_of(text: &str) -> Vec<u64> {
    text.split(',').filter_map(|s| s.parse().ok()).collect()
}

fn medal_named(name: &str) -> Option<Medal> {
    Medal::ALL.into_iter().find(|m| m.name() == name)
}
