//! The server's records (docs/SERVE.md, "Records"): each keyed player's
//! best laps per track, model and car, with their ghosts, and the boards
//! made of them, in the laps' database ([`super::db`]), found by the
//! player's key fingerprint, so their records follow the key. Guests, who
//! have no key, keep none.
//!
//! The database is the records' thread's alone ([`work`]): the hub hands
//! it laps to keep and asks it for records and boards, and takes its
//! answers each tick ([`Keeper::poll`]), so a race never waits on the
//! disk or the network. Laps are written in batches, a transaction each;
//! while the database fails or does not answer, they wait in a bounded
//! queue kept on disk too ([`queue`]), the boards are offline, and the
//! database is tried again ever less often ([`link`]; the log says so
//! once, and again once it is back). Every quarter second the thread reads
//! the database's log of changes, by this server or another sharing it,
//! and says which boards changed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use super::db::{self, Boards, Database, Listed};
use crate::physics::models::ModelKind;
use crate::race::records::{Record, Store};
use crate::race::timing::Lap;
use link::Breaker;
use queue::{Queue, Told, now_ms};
pub use shelf::{PlayersTrack, TrackJob, TrackNews};

pub use super::db::LapKey;

/// How long a server starting waits for its database to answer before
/// it serves races without it (the boards offline until it does).
const START_WAIT: Duration = Duration::from_millis(500);
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
    /// Driven with the steering aid (the lobby marks it).
    pub aided: bool,
}

/// What the records' thread does, in the order asked (so a read after a
/// save finds the lap saved).
enum Job {
    Save(db::NewLap),
    /// A player's records to read, answered as [`Answer::Record`].
    Read {
        identity: String,
        key: LapKey,
        hz: u32,
        ask: Ask,
    },
    /// A key's boards, with where the players `who` stand on them.
    Board {
        key: LapKey,
        who: Vec<String>,
    },
    /// This server's rooms now, published under its name (and again at
    /// every heartbeat until the next).
    Publish(String, Vec<Listed>),
    /// A player's tracks.
    Tracks(TrackJob),
}

/// What the records' thread says.
enum Answer {
    Record(Ask, Vec<Lap>),
    Board(LapKey, Boards),
    /// The best lap on a track changed.
    Best(String, Best),
    /// These boards changed.
    Changed(Vec<LapKey>),
    /// Players whose laps are held nowhere but in memory now, or kept
    /// again ([`queue::Told`]).
    Told(Vec<Told>),
    /// The database answers again, or stopped answering.
    Online(bool),
    /// The other servers' rooms changed.
    Elsewhere(Vec<Listed>),
    /// What came of a player's [`TrackJob`].
    Tracks(TrackNews),
    /// The published tracks now, ready to race.
    Published(Vec<PlayersTrack>),
}

/// Whose records a read is for: a player in a room's race (the room's
/// count of races tells a restarted race from the one asked for), and
/// what for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub room: u32,
    pub race: u64,
    pub player: u64,
    pub wants: Wants,
}

/// What a read of a player's records is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wants {
    /// Their records to beat, one on each board they have a lap on.
    Records,
    /// The ghost they picked to race, from the aided board or the
    /// unaided one.
    Ghost { aided: bool },
}

/// What the records' thread said since the last [`Keeper::poll`].
#[derive(Debug, Default)]
pub struct Polled {
    /// Records read (none, one or one a board), with whom they are for.
    pub records: Vec<(Ask, Vec<Lap>)>,
    /// Boards changed: whoever shows one asks for it again.
    pub changed: Vec<LapKey>,
    /// The rooms open on the other servers sharing the database, if
    /// read again (none while it does not answer), for the hub's
    /// [`super::listing::Listing`].
    pub elsewhere: Option<Vec<Listed>>,
    /// Whether a board, the lobby's best laps or the rooms on other
    /// servers changed.
    pub news: bool,
    /// Players (by key fingerprint) whose laps neither the database nor
    /// the spool holds now, with why; or (none) held again.
    pub unsaved: Vec<Told>,
    /// What came of players' track jobs.
    pub tracks: Vec<TrackNews>,
    /// The published tracks, if they changed.
    pub published: Option<Vec<PlayersTrack>>,
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
    pub boards: HashMap<LapKey, Boards>,
    /// Every board asked for: read again when the database is back.
    asked: HashSet<LapKey>,
    /// Whether the database answers (else the boards are offline).
    pub online: bool,
    /// Why the database did not answer when the server started, for the
    /// log to say once the server has said where it listens.
    pub down_at_start: Option<String>,
}

impl Best {
    /// Whether `record` goes above this best lap in the lobby: ranked
    /// on the unaided board first, as [`db::Database::best_of_track`].
    fn beaten_by(&self, record: &Record) -> bool {
        (record.aided, record.time) < (self.aided, self.time)
    }
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
        // A database that answers now is met at once; one that does not is
        // waited for on the records' thread, unless it refuses for good.
        let met = match db.ready(START_WAIT) {
            Ok(()) => first_answer(db.as_mut(), dir),
            Err(refusal) if refusal.lasting => return Err(refusal.why),
            Err(refusal) => Err(refusal.why),
        };
        let (board, failed) = match met {
            Ok(best) => (best.into_iter().collect(), None),
            Err(why) => (BTreeMap::new(), Some(why)),
        };
        let online = failed.is_none();
        let records = work::Records {
            link: Breaker::new(db, !online),
            queue: Queue::load(dir.join("laps-waiting.toml")),
            unmet: (!online).then(|| dir.to_path_buf()),
        };
        let (jobs, rx) = channel::<Job>();
        let (tx, answers) = channel();
        let thread = std::thread::Builder::new()
            .name("skid-records".into())
            .spawn(move || work::work(records, &rx, &tx))
            .map_err(|e| format!("{}: cannot start the records' thread: {e}", dir.display()))?;
        Ok(Keeper {
            dir: dir.to_path_buf(),
            jobs: Some(jobs),
            answers,
            thread: Some(thread),
            board,
            boards: HashMap::new(),
            asked: HashSet::new(),
            online,
            down_at_start: failed.map(|why| link::offline(&why)),
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

    /// Asks for the record laps (and ghosts) of `identity` for a track,
    /// model and car, at `hz`, for `ask` (which boards it says): read on
    /// the records' thread, never the caller's, and answered through
    /// [`Keeper::poll`].
    pub fn ask(&self, identity: &str, key: LapKey, hz: u32, ask: Ask) {
        let identity = identity.to_string();
        self.send(Job::Read {
            identity,
            key,
            hz,
            ask,
        });
    }

    /// Publishes this server's rooms, `server` naming it, for the other
    /// servers' lobbies: written on the records' thread, and again at
    /// each heartbeat ([`work`]).
    pub fn publish(&mut self, server: &str, rooms: Vec<Listed>) {
        self.send(Job::Publish(server.to_string(), rooms));
    }

    /// A player's track job, done on the records' thread and answered
    /// through [`Keeper::poll`].
    pub fn tracks(&self, job: TrackJob) {
        self.send(Job::Tracks(job));
    }

    /// Asks for the boards of `key`, with where `who` (players' key
    /// fingerprints) stand on them: in [`Keeper::boards`] once read.
    pub fn ask_board(&mut self, key: LapKey, who: Vec<String>) {
        self.asked.insert(key.clone());
        self.send(Job::Board { key, who });
    }

    /// A lap better than `identity`'s record on its board, to keep (on
    /// the records' thread): on the lobby's board at once if it is the
    /// best on its track (an aided lap only where no lap was steered by
    /// hand: [`Best::beaten_by`]).
    pub fn save(&mut self, identity: &str, name: &str, record: Record, ghost: Vec<[f64; 3]>) {
        if (self.board.get(&record.track_id)).is_none_or(|b| b.beaten_by(&record)) {
            let best = Best {
                time: record.time,
                name: name.to_string(),
                model: record.model,
                car: record.car.clone(),
                aided: record.aided,
            };
            self.board.insert(record.track_id.clone(), best);
        }
        self.send(Job::Save(db::NewLap {
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
                Answer::Elsewhere(rooms) => {
                    polled.elsewhere = Some(rooms);
                    polled.news = true;
                }
                Answer::Told(told) => polled.unsaved.extend(told),
                Answer::Tracks(news) => polled.tracks.push(news),
                Answer::Published(list) => polled.published = Some(list),
                Answer::Online(online) => {
                    self.online = online;
                    polled.news = true;
                    // Back: every board shown is read afresh.
                    if online {
                        polled.changed.extend(self.asked.iter().cloned());
                    }
                }
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

/// What a server does when its database first answers: the players'
/// record files under `DIR/players/` imported (once per database and
/// directory, the files left in place); then the best lap on each track,
/// by track id.
fn first_answer(db: &mut dyn Database, dir: &Path) -> Result<Vec<(String, Best)>, String> {
    let imported = format!("{IMPORTED} {}", dir.display());
    if db.note(&imported)?.is_none() {
        let n = import(&dir.join("players"), db)?;
        db.set_note(&imported, &n.to_string())?;
        if n > 0 {
            eprintln!(
                "skid serve: {n} laps imported from {}",
                dir.join("players").display()
            );
        }
    }
    let all = db.best_per_track()?;
    Ok((all.into_iter())
        .map(|(track, (e, model, car))| (track, best(e, model, car)))
        .collect())
}

fn best(e: db::Placing, model: ModelKind, car: String) -> Best {
    Best {
        time: e.time,
        name: e.name,
        model,
        car,
        aided: e.aided,
    }
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
        let name = crate::base::files::read_capped(&dir.path().join("name"), 256, false)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .map_or_else(|| "?".into(), |n| super::names::display_name(&n));
        let Ok(loaded) = store.load() else { continue };
        if let Some(notice) = loaded.notice() {
            eprintln!("skid serve: {notice}");
        }
        for r in &loaded.records {
            let ghost = store.ghost(r, &loaded.records);
            laps.push(db::NewLap {
                identity: identity.clone(),
                name: name.clone(),
                record: r.clone(),
                ghost,
            });
        }
    }
    for chunk in laps.chunks(1000) {
        db.save(chunk, now_ms())?;
    }
    Ok(laps.len())
}

mod link;
mod queue;
mod shelf;
#[cfg(test)]
mod tests;
mod work;
