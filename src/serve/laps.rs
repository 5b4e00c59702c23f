//! The server's records (docs/SERVE.md, "Records"): best laps per track,
//! model, car and player, each player's in a [`Store`] of their own (the
//! same safe store as local play: atomic writes, a lock, damage moved
//! aside), found by their key's fingerprint, so their records follow the
//! key. Guests, who have no key, keep none.
//!
//! Laps are written, and players' records read, by a thread of their own,
//! so the races never wait on the disk (a record read arrives while the
//! race counts down); the lobby's board of the best lap on each track is
//! kept in memory, read from every player's store at start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::models::ModelKind;
use crate::race::Lap;
use crate::records::{Record, Store, write_atomic};

/// Players' folders read at start, at the most.
const MAX_PLAYERS_READ: usize = 100_000;

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
    /// A lap to write.
    Save {
        store: Store,
        name: String,
        record: Record,
        ghost: Vec<[f64; 3]>,
    },
    /// A player's record to read, answered through [`Keeper::answers`].
    Read {
        store: Store,
        key: (String, ModelKind, String),
        hz: u32,
        ask: Ask,
    },
}

/// Whose record a read is for: a player in a room's race (the room's
/// count of races tells a restarted race from the one asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub room: u32,
    pub race: u64,
    pub player: u64,
}

/// Where the players' records are, the writer and the lobby's board.
pub struct Keeper {
    root: PathBuf,
    writer: Option<Sender<Job>>,
    /// The records read, as the thread answers.
    answers: Receiver<(Ask, Option<Lap>)>,
    /// The writer's thread: joined when the keeper goes, so laps sent are
    /// on disk before the server exits.
    thread: Option<std::thread::JoinHandle<()>>,
    /// The best lap by track content id.
    pub board: BTreeMap<String, Best>,
}

/// A fingerprint (`SHA256:` and base64) as a folder name: base64's `+`
/// made `-`, and `/`, `:` (and anything else) `_`.
fn folder(identity: &str) -> String {
    identity
        .chars()
        .map(|c| match c {
            '+' => '-',
            c if c.is_ascii_alphanumeric() || c == '=' => c,
            _ => '_',
        })
        .collect()
}

/// A line in the server's log for a damaged records table that loading
/// moved aside (`records::Loaded`), naming where it went.
fn log_damage(loaded: &crate::records::Loaded) {
    if let Some(notice) = loaded.notice() {
        eprintln!("skid serve: {notice}");
    }
}

impl Keeper {
    /// The data directory the players' records are under.
    pub fn data_dir(&self) -> &Path {
        self.root.parent().unwrap_or(&self.root)
    }

    /// Records under `root/players`, the board read from them.
    pub fn new(root: &Path) -> Keeper {
        let root = root.join("players");
        let (writer, jobs) = channel::<Job>();
        let (answer, answers) = channel();
        let thread = std::thread::Builder::new()
            .name("skid-records".into())
            .spawn(move || {
                for job in jobs {
                    match job {
                        Job::Save {
                            store,
                            name,
                            record,
                            ghost,
                        } => save(&store, &name, record, &ghost),
                        Job::Read {
                            store,
                            key,
                            hz,
                            ask,
                        } => {
                            let lap = read(&store, &key, hz);
                            if answer.send((ask, lap)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .ok();
        let mut keeper = Keeper {
            root,
            writer: Some(writer),
            answers,
            thread,
            board: BTreeMap::new(),
        };
        keeper.read_board();
        keeper
    }

    fn read_board(&mut self) {
        let Ok(dirs) = std::fs::read_dir(&self.root) else {
            return;
        };
        for dir in dirs.flatten().take(MAX_PLAYERS_READ) {
            let store = Store::new(dir.path());
            let name = crate::diag::read_capped(&dir.path().join("name"), 256, false)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map_or_else(|| "?".into(), |n| super::names::display_name(&n));
            if let Ok(loaded) = store.load() {
                log_damage(&loaded);
                for r in loaded.records {
                    self.note(&r, &name);
                }
            }
        }
    }

    /// Puts `r`, driven by `name`, on the board if it is the best there.
    fn note(&mut self, r: &Record, name: &str) {
        let best = Best {
            time: r.time,
            name: name.to_string(),
            model: r.model,
            car: r.car.clone(),
        };
        match self.board.get(&r.track_id) {
            Some(b) if b.time <= r.time => {}
            _ => {
                self.board.insert(r.track_id.clone(), best);
            }
        }
    }

    /// The store of the player with key `identity`.
    pub fn store(&self, identity: &str) -> Store {
        Store::new(self.root.join(folder(identity)))
    }

    /// Asks for the record lap (and ghost) of `identity` for a track,
    /// model and car, at `hz`, for `ask`: read on the records' thread,
    /// never the caller's, and answered through [`Keeper::answers`].
    pub fn ask(&self, identity: &str, key: (String, ModelKind, String), hz: u32, ask: Ask) {
        let store = self.store(identity);
        if let Some(w) = &self.writer {
            let _ = w.send(Job::Read {
                store,
                key,
                hz,
                ask,
            });
        }
    }

    /// The records read since the last call, with whom they are for.
    pub fn answers(&self) -> Vec<(Ask, Option<Lap>)> {
        self.answers.try_iter().collect()
    }

    /// A lap better than `identity`'s record: written (on the writer's
    /// thread), and on the board if it is the best on its track.
    pub fn save(&mut self, identity: &str, name: &str, record: Record, ghost: Vec<[f64; 3]>) {
        self.note(&record, name);
        let job = Job::Save {
            store: self.store(identity),
            name: name.to_string(),
            record,
            ghost,
        };
        if let Some(w) = &self.writer {
            let _ = w.send(job);
        }
    }
}

/// Writes a lap and its driver's name (on the records' thread).
fn save(store: &Store, name: &str, record: Record, ghost: &[[f64; 3]]) {
    let saved = store.save(record, ghost);
    if let Ok((_, loaded)) = &saved {
        log_damage(loaded);
    }
    let named = write_atomic(&store.dir.join("name"), name.as_bytes(), || Ok(()));
    if let Err(e) = saved.map(|_| ()).and(named) {
        eprintln!(
            "skid serve: {}: cannot save a lap: {e}",
            store.dir.display()
        );
    }
}

/// The record lap for `key` (track id, model, car id) in `store`, at
/// `hz` (on the records' thread).
fn read(store: &Store, key: &(String, ModelKind, String), hz: u32) -> Option<Lap> {
    let (best, loaded) = store.best(&key.0, key.1, &key.2).ok()?;
    log_damage(&loaded);
    best.map(|(r, lap)| lap.at_rate(r.hz, hz))
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.writer = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(track_id: &str, time: f64) -> Record {
        Record {
            track: "t".into(),
            track_id: track_id.into(),
            model: ModelKind::Arcade,
            car: "hatch".into(),
            car_id: "c".into(),
            time,
            ticks: (time * 120.0) as u64,
            hz: 120,
            splits: vec![],
            medal: None,
        }
    }

    #[test]
    fn laps_follow_the_key_and_the_board_survives_a_restart() {
        let dir = std::env::temp_dir().join(format!("skid-keeper-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let alice = "SHA256:ab/cd+ef";
        let bob = "SHA256:zz/yy+xx";
        {
            let mut k = Keeper::new(&dir);
            k.save(alice, "alice", record("T", 41.0), vec![[1.0, 2.0, 0.5]]);
            k.save(bob, "bob", record("T", 40.0), vec![]);
            k.save(bob, "bob", record("U", 50.0), vec![]);
            assert_eq!(k.board["T"].name, "bob");
            // The writer's thread ends with the keeper; wait for its files.
            let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while !(dir.join("players").join(folder(bob)).join("name").exists()
                && dir
                    .join("players")
                    .join(folder(alice))
                    .join("name")
                    .exists())
            {
                assert!(std::time::Instant::now() < end, "laps not written");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        let k = Keeper::new(&dir);
        assert_eq!(k.board["T"].time, 40.0);
        assert_eq!(k.board["T"].name, "bob");
        assert_eq!(k.board["U"].name, "bob");
        // Alice's own record and ghost, for her key only.
        let key = ("T".to_string(), ModelKind::Arcade, "c".to_string());
        let ask = |player| Ask {
            room: 1,
            race: 1,
            player,
        };
        k.ask(alice, key.clone(), 120, ask(1));
        k.ask("SHA256:other", key, 120, ask(2));
        let mut answers = Vec::new();
        let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while answers.len() < 2 {
            assert!(std::time::Instant::now() < end, "no answer");
            answers.extend(k.answers());
        }
        assert_eq!(answers[0].0, ask(1));
        let lap = answers[0].1.as_ref().expect("alice's lap");
        assert_eq!(lap.ticks, 41 * 120);
        assert_eq!(lap.ghost.len(), 1);
        assert!(answers[1].1.is_none());
        assert!(!folder(alice).contains('/'));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
