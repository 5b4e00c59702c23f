//! The server's records (docs/SERVE.md, "Records"): each keyed player's
//! best laps per track, model and car, with their ghosts, and the boards
//! made of them, in the laps' database ([`super::db`]), found by the
//! player's key fingerprint, so their records follow the key. Guests, who
//! have no key, keep none.
//!
//! The database is the records' thread's alone: the hub hands it laps to
//! keep and asks it for records and boards, and takes its answers each
//! tick ([`Keeper::poll`]), so a race never waits on the disk. Laps are
//! written in batches, a transaction each; while the database fails, they
//! wait in a bounded queue kept on disk too ([`queue`]; the log says so,
//! and again once they are written). Every quarter second the thread
//! reads the database's log of changes, by this server or another sharing
//! it, and says which boards changed.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use super::db::{self, Board, Database};
use crate::models::ModelKind;
use crate::race::Lap;
use crate::records::{Record, Store};
use queue::{Queue, Told, now_ms};

pub use super::db::Key;

/// How often the thread reads the log of changes.
const CHANGES_EVERY: Duration = Duration::from_millis(250);
/// Places on a board.
pub const BOARD_TOP: usize = 10;
/// Players' folders imported at the first start, at the most.
const MAX_PLAYERS_READ: usize = 100_000;
/// The database's note that the players' record files of a data
/// directory were imported (followed by the directory).
const IMPORTED: &str = "imported-player-files";

/// The best lap on one track, for the lobby.
#[derive(Debug, Clone, PartialEq)]
pub struct Best {
    pub time: f64,
    pub name: String,
    pub model: ModelKind,
    pub car: String,
}

/// What the records' thread does, in the order asked (so a read after a
/// save finds the lap saved).
enum Job {
    Save(db::Lap),
    /// A player's record to read, answered as [`Answer::Record`].
    Read {
        identity: String,
        key: Key,
        hz: u32,
        ask: Ask,
    },
    /// A board, with where the players `who` stand on it.
    Board {
        key: Key,
        who: Vec<String>,
    },
}

/// What the records' thread says.
enum Answer {
    Record(Ask, Option<Lap>),
    Board(Key, Board),
    /// The best lap on a track changed.
    Best(String, Best),
    /// These boards changed.
    Changed(Vec<Key>),
    /// Players whose laps are held nowhere but in memory now, or kept
    /// again ([`queue::Told`]).
    Told(Vec<Told>),
}

/// Whose record a read is for: a player in a room's race (the room's
/// count of races tells a restarted race from the one asked for), as the
/// record to beat or, `ghost`, as the ghost they picked to race.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub room: u32,
    pub race: u64,
    pub player: u64,
    pub ghost: bool,
}

/// What the records' thread said since the last [`Keeper::poll`].
#[derive(Debug, Default)]
pub struct Polled {
    /// Records read, with whom they are for.
    pub records: Vec<(Ask, Option<Lap>)>,
    /// Boards changed: whoever shows one asks for it again.
    pub changed: Vec<Key>,
    /// Whether a board or the lobby's best laps changed.
    pub news: bool,
    /// Players (by key fingerprint) whose laps neither the database nor
    /// the spool holds now, with why; or (none) held again.
    pub unsaved: Vec<Told>,
}

/// The hub's side of the records: what to ask of the thread, and what it
/// has answered so far.
pub struct Keeper {
    dir: PathBuf,
    jobs: Option<Sender<Job>>,
    answers: Receiver<Answer>,
    /// The thread: joined when the keeper goes, so laps handed over are
    /// in the database before the server exits.
    thread: Option<std::thread::JoinHandle<()>>,
    /// The best lap by track content id.
    pub board: BTreeMap<String, Best>,
    /// The boards asked for, as last read.
    pub boards: HashMap<Key, Board>,
}

impl Keeper {
    /// The records in the database `DIR/skid.db` (made if new; the
    /// players' record files under `DIR/players/` imported into it at the
    /// first start and left in place).
    pub fn open(dir: &Path) -> Result<Keeper, String> {
        Keeper::on(None, dir)
    }

    /// The records in the database `url` names (`postgres://...`), or in
    /// none, as [`Keeper::open`]; record files under `DIR/players/` are
    /// imported into it once either way.
    pub fn on(url: Option<&str>, dir: &Path) -> Result<Keeper, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut db = db::open(url, dir)?;
        let imported = format!("{IMPORTED} {}", dir.display());
        if db.note(&imported)?.is_none() {
            let n = import(&dir.join("players"), db.as_mut())?;
            db.set_note(&imported, &n.to_string())?;
            if n > 0 {
                eprintln!(
                    "skid serve: {n} laps imported from {}",
                    dir.join("players").display()
                );
            }
        }
        let mut board = BTreeMap::new();
        for (track, (e, model, car)) in db.best_per_track()? {
            board.insert(track, best(e, model, car));
        }
        let queue = Queue::load(dir.join("laps-waiting.toml"));
        let (jobs, rx) = channel::<Job>();
        let (tx, answers) = channel();
        let thread = std::thread::Builder::new()
            .name("skid-records".into())
            .spawn(move || work(db, queue, &rx, &tx))
            .map_err(|e| format!("{}: cannot start the records' thread: {e}", dir.display()))?;
        Ok(Keeper {
            dir: dir.to_path_buf(),
            jobs: Some(jobs),
            answers,
            thread: Some(thread),
            board,
            boards: HashMap::new(),
        })
    }

    /// The data directory the database is in.
    pub fn data_dir(&self) -> &Path {
        &self.dir
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }

    /// Asks for the record lap (and ghost) of `identity` for a track,
    /// model and car, at `hz`, for `ask`: read on the records' thread,
    /// never the caller's, and answered through [`Keeper::poll`].
    pub fn ask(&self, identity: &str, key: Key, hz: u32, ask: Ask) {
        let identity = identity.to_string();
        self.send(Job::Read {
            identity,
            key,
            hz,
            ask,
        });
    }

    /// Asks for the board of `key`, with where `who` (players' key
    /// fingerprints) stand on it: in [`Keeper::boards`] once read.
    pub fn ask_board(&self, key: Key, who: Vec<String>) {
        self.send(Job::Board { key, who });
    }

    /// A lap better than `identity`'s record, to keep (on the records'
    /// thread): on the lobby's board at once if it is the best on its
    /// track.
    pub fn save(&mut self, identity: &str, name: &str, record: Record, ghost: Vec<[f64; 3]>) {
        if self
            .board
            .get(&record.track_id)
            .is_none_or(|b| record.time < b.time)
        {
            let best = Best {
                time: record.time,
                name: name.to_string(),
                model: record.model,
                car: record.car.clone(),
            };
            self.board.insert(record.track_id.clone(), best);
        }
        self.send(Job::Save(db::Lap {
            identity: identity.to_string(),
            name: name.to_string(),
            record,
            ghost,
        }));
    }

    /// Takes what the records' thread said: boards and best laps are
    /// kept here, records read and boards changed handed on.
    pub fn poll(&mut self) -> Polled {
        let mut polled = Polled::default();
        for answer in self.answers.try_iter() {
            match answer {
                Answer::Record(ask, lap) => polled.records.push((ask, lap)),
                Answer::Board(key, board) => {
                    self.boards.insert(key, board);
                    polled.news = true;
                }
                Answer::Best(track, best) => {
                    self.board.insert(track, best);
                    polled.news = true;
                }
                Answer::Changed(keys) => polled.changed.extend(keys),
                Answer::Told(told) => polled.unsaved.extend(told),
            }
        }
        polled
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn best(e: db::Entry, model: ModelKind, car: String) -> Best {
    Best {
        time: e.time,
        name: e.name,
        model,
        car,
    }
}

/// The records' thread: jobs as they come, in batches; the log of
/// changes every [`CHANGES_EVERY`]; laps that could not be written kept
/// ([`queue`]) and tried again.
fn work(
    mut db: Box<dyn Database>,
    mut queue: Queue,
    jobs: &Receiver<Job>,
    answers: &Sender<Answer>,
) {
    let mut next_changes = Instant::now();
    loop {
        let first = match jobs.recv_timeout(CHANGES_EVERY) {
            Ok(job) => Some(job),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                queue.write(db.as_mut());
                return;
            }
        };
        let mut asks = Vec::new();
        let mut told = Vec::new();
        for job in first.into_iter().chain(jobs.try_iter()) {
            match job {
                Job::Save(lap) => told.extend(queue.push(lap, db.as_ref())),
                other => asks.push(other),
            }
        }
        told.extend(queue.write(db.as_mut()));
        if !told.is_empty() && answers.send(Answer::Told(told)).is_err() {
            return;
        }
        // A board asked for again in one batch is read once, for the
        // players asked about last (a cursor run through the lobby's rooms
        // asks for each room's board as it passes).
        let mut last = HashMap::new();
        for (i, job) in asks.iter().enumerate() {
            if let Job::Board { key, .. } = job {
                last.insert(key.clone(), i);
            }
        }
        for (i, job) in asks.into_iter().enumerate() {
            if matches!(&job, Job::Board { key, .. } if last[key] != i) {
                continue;
            }
            if answer(db.as_mut(), job, answers).is_err() {
                return;
            }
        }
        if Instant::now() >= next_changes {
            next_changes = Instant::now() + CHANGES_EVERY;
            if changes(db.as_mut(), answers).is_err() {
                return;
            }
        }
    }
}

/// Answers a read or a board; errs when the hub is gone.
fn answer(db: &mut dyn Database, job: Job, answers: &Sender<Answer>) -> Result<(), ()> {
    let said = match job {
        Job::Read {
            identity,
            key,
            hz,
            ask,
        } => {
            let found = db.best(&identity, &key).unwrap_or_else(|e| {
                eprintln!("skid serve: {e}");
                None
            });
            let lap = found.map(|(r, ghost)| r.lap(ghost).at_rate(r.hz, hz));
            Answer::Record(ask, lap)
        }
        Job::Board { key, who } => match db.board(&key, BOARD_TOP, &who) {
            Ok(board) => Answer::Board(key, board),
            Err(e) => {
                eprintln!("skid serve: {e}");
                return Ok(());
            }
        },
        Job::Save(_) => return Ok(()),
    };
    answers.send(said).map_err(|_| ())
}

/// Says which boards changed since the last look, and the best laps of
/// their tracks; errs when the hub is gone.
fn changes(db: &mut dyn Database, answers: &Sender<Answer>) -> Result<(), ()> {
    let keys = match db.changes() {
        Ok(keys) if keys.is_empty() => return Ok(()),
        Ok(keys) => keys,
        Err(e) => {
            eprintln!("skid serve: {e}");
            return Ok(());
        }
    };
    let mut tracks: Vec<&String> = keys.iter().map(|k| &k.0).collect();
    tracks.dedup();
    for track in tracks {
        if let Ok(Some((e, model, car))) = db.best_of_track(track) {
            answers
                .send(Answer::Best(track.clone(), best(e, model, car)))
                .map_err(|_| ())?;
        }
    }
    answers.send(Answer::Changed(keys)).map_err(|_| ())
}

/// A player's key fingerprint from the folder their record files are in
/// (`SHA256:` and base64, its `+` made `-` and `/` and `:` made `_`).
fn identity_of(folder: &str) -> String {
    let rest = folder.strip_prefix("SHA256_").unwrap_or(folder);
    let rest: String = rest
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    format!("SHA256:{rest}")
}

/// Imports every player's record files under `players` (as servers before
/// the database kept them); returns how many laps. The files stay.
fn import(players: &Path, db: &mut dyn Database) -> Result<usize, String> {
    let Ok(dirs) = std::fs::read_dir(players) else {
        return Ok(0);
    };
    let mut laps = Vec::new();
    for dir in dirs.flatten().take(MAX_PLAYERS_READ) {
        let identity = identity_of(&dir.file_name().to_string_lossy());
        let store = Store::new(dir.path());
        let name = crate::diag::read_capped(&dir.path().join("name"), 256, false)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .map_or_else(|| "?".into(), |n| super::names::display_name(&n));
        let Ok(loaded) = store.load() else { continue };
        if let Some(notice) = loaded.notice() {
            eprintln!("skid serve: {notice}");
        }
        for r in loaded.records {
            let ghost = (store.best(&r.track_id, r.model, &r.car_id).ok())
                .and_then(|(best, _)| best)
                .map(|(_, lap)| lap.ghost)
                .unwrap_or_default();
            laps.push(db::Lap {
                identity: identity.clone(),
                name: name.clone(),
                record: r,
                ghost,
            });
        }
    }
    for chunk in laps.chunks(1000) {
        db.save(chunk, now_ms())?;
    }
    Ok(laps.len())
}

mod queue;
#[cfg(test)]
mod tests;
