//! The medal tables known: worked out on a thread of their own (a lap of
//! a large track takes the computer a while to drive, and a menu or the
//! server's hub must not wait for it) and kept in `medals.toml` in the
//! data directory, so each is worked out once per track and car content.
//!
//! The file is a cache: one that is damaged, too large or from another
//! version of the driver is ignored and written anew. Entries carry the
//! rule they were worked out by ([`RULE`]); a change to the computer
//! driver or the margins changes the rule, and the tables are worked out
//! again.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};

use serde::{Deserialize, Serialize};

use super::{Medals, work_out};
use crate::physics::ModelKind;
use crate::physics::car::CarSpec;
use crate::track::Track;

/// What a cached table was worked out by: the game's version and the
/// medal rule's own number (raise it when the driver or margins change).
pub const RULE: &str = concat!(env!("CARGO_PKG_VERSION"), "/4");

/// The most the cache file may hold (a hundred thousand tables fit).
const MAX_FILE: u64 = 16 << 20;

pub use crate::race::timing::LapKey;

/// The key of `track` with `spec` driven as `kind`.
pub fn key(track: &Track, spec: &CarSpec, kind: ModelKind) -> LapKey {
    (track.content_id(), kind, spec.content_id())
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    track_id: String,
    model: ModelKind,
    car_id: String,
    /// None: the computer completed no lap (no medals for this car).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    author: Option<f64>,
    /// The paces of gold, silver and bronze (`Medals::paces`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    paces: Option<[f64; 3]>,
    /// The steering aid's pace (`Medals::aid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    aid: Option<f64>,
    rule: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    medals: Vec<Stored>,
}

/// A table asked for: known (with medals, or none where the computer
/// completed no lap), or being worked out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lookup {
    Known(Option<Medals>),
    Working,
}

impl Lookup {
    pub fn medals(self) -> Option<Medals> {
        match self {
            Lookup::Known(m) => m,
            Lookup::Working => None,
        }
    }
}

type Job = (LapKey, Track, CarSpec);
/// The worker's queue, and its answers: the medals of each key.
type Worker = (Sender<Job>, Receiver<(LapKey, Option<Medals>)>);

/// The medal tables known, and the thread that works out the rest.
pub struct Book {
    known: HashMap<LapKey, Option<Medals>>,
    asked: HashSet<LapKey>,
    /// `medals.toml`'s path; none: nothing is kept.
    file: Option<PathBuf>,
    /// The worker's queue and answers, started at the first question
    /// asked in the background.
    worker: Option<Worker>,
    /// Writes the file for a book with a worker ([`Book::keep`]).
    writer: Option<Writer>,
    /// Counts the tables learnt: whoever shows one asks again when it
    /// changed.
    pub generation: u64,
}

impl Book {
    /// The tables kept in `dir` (none kept without one).
    pub fn open(dir: Option<PathBuf>) -> Book {
        let file = dir.map(|d| d.join("medals.toml"));
        let mut known = HashMap::new();
        let text = (file.as_ref())
            .and_then(|f| crate::base::files::read_capped(f, MAX_FILE, false).ok())
            .and_then(|b| String::from_utf8(b).ok());
        let read: File = text
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default();
        for e in read.medals.into_iter().filter(|e| e.rule == RULE) {
            let medals = e.author.filter(|a| a.is_finite() && *a > 0.0);
            let paces = e
                .paces
                .filter(|p| p.iter().all(|v| v.is_finite() && *v > 0.0));
            let aid = e.aid.filter(|v| v.is_finite() && *v > 0.0);
            known.insert(
                (e.track_id, e.model, e.car_id),
                medals.map(|author| Medals { author, paces, aid }),
            );
        }
        Book {
            known,
            asked: HashSet::new(),
            file,
            worker: None,
            writer: None,
            generation: 0,
        }
    }

    /// The table for `key`, if known.
    pub fn get(&self, key: &LapKey) -> Lookup {
        self.known
            .get(key)
            .map_or(Lookup::Working, |m| Lookup::Known(*m))
    }

    /// The table `key` names, of `track` with `spec` (driven as the key's
    /// model): known, or asked of the worker (`background`) or worked out
    /// now. The caller has the key (content ids cost a hash of the car).
    pub fn ask(&mut self, key: LapKey, track: &Track, spec: &CarSpec, background: bool) -> Lookup {
        let kind = key.1;
        if let Lookup::Known(m) = self.get(&key) {
            return Lookup::Known(m);
        }
        if !background {
            let line = crate::ai::race_line(track);
            let medals = work_out(track, &line, spec, kind);
            self.learn(vec![(key.clone(), medals)]);
            return self.get(&key);
        }
        if self.asked.insert(key.clone()) {
            let worker = self.worker.get_or_insert_with(start);
            // A worker gone (its thread refused): asked once, never known.
            let _ = worker.0.send((key, track.clone(), spec.clone()));
        }
        Lookup::Working
    }

    /// Takes what the worker has worked out; returns whether anything new
    /// is known (then kept in the file).
    pub fn poll(&mut self) -> bool {
        let Some((_, answers)) = &self.worker else {
            return false;
        };
        let new: Vec<_> = answers.try_iter().collect();
        if new.is_empty() {
            return false;
        }
        for (key, _) in &new {
            self.asked.remove(key);
        }
        self.learn(new);
        true
    }

    fn learn(&mut self, new: Vec<(LapKey, Option<Medals>)>) {
        for (key, medals) in new {
            self.known.insert(key, medals);
        }
        self.generation += 1;
        self.keep();
    }

    /// Writes what is known to the file (a cache: a failure only means
    /// working tables out again next time): for a book that works tables
    /// out in the background, on a [`Writer`] thread of its own (not the
    /// worker's, so a table being worked out does not hold the file back),
    /// so that whoever polls (the server's hub) never waits for a disk; at
    /// once otherwise (the command line, which asked and waited already).
    fn keep(&mut self) {
        let Some(path) = &self.file else { return };
        let mut medals: Vec<Stored> = (self.known.iter())
            .map(|((track_id, model, car_id), m)| Stored {
                track_id: track_id.clone(),
                model: *model,
                car_id: car_id.clone(),
                author: m.map(|m| m.author),
                paces: m.and_then(|m| m.paces),
                aid: m.and_then(|m| m.aid),
                rule: RULE.into(),
            })
            .collect();
        medals.sort_by(|a, b| {
            (&a.track_id, a.model.name(), &a.car_id).cmp(&(&b.track_id, b.model.name(), &b.car_id))
        });
        let text = toml::to_string(&File { medals }).expect("medals always serialise");
        if self.worker.is_none() {
            return write(path, &text);
        }
        let writer = self.writer.get_or_insert_with(Writer::start);
        let unsent = match &writer.texts {
            Some(texts) => texts.send((path.clone(), text)).err().map(|e| e.0),
            None => Some((path.clone(), text)),
        };
        // No thread to write on: written here rather than lost.
        if let Some((path, text)) = unsent {
            write(&path, &text);
        }
    }
}

/// The thread that writes the cache file for a book that works tables
/// out in the background, each text in turn (the last one asked wins).
struct Writer {
    texts: Option<Sender<(PathBuf, String)>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    fn start() -> Writer {
        let (tx, rx) = channel::<(PathBuf, String)>();
        let thread = std::thread::Builder::new()
            .name("skid-medals-file".into())
            .spawn(move || {
                for (path, text) in rx {
                    write(&path, &text);
                }
            })
            .ok();
        Writer {
            texts: thread.is_some().then_some(tx),
            thread,
        }
    }
}

impl Drop for Writer {
    /// What was asked to be written is written before the book goes
    /// (a write takes milliseconds, unlike a table).
    fn drop(&mut self) {
        self.texts = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Writes the cache file `path` with `text`, atomically.
fn write(path: &std::path::Path, text: &str) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::base::files::write_atomic(path, text.as_bytes(), || Ok(()));
}

/// The worker: takes tables in the order asked, one at a time, racing
/// lines kept per track for the tables after.
fn start() -> Worker {
    let (jobs, rx) = channel::<Job>();
    let (tx, answers) = channel();
    let _ = std::thread::Builder::new()
        .name("skid-medals".into())
        .spawn(move || {
            let mut lines: HashMap<String, crate::ai::Line> = HashMap::new();
            for (key, track, spec) in rx {
                let line =
                    (lines.entry(key.0.clone())).or_insert_with(|| crate::ai::race_line(&track));
                let medals = work_out(&track, line, &spec, key.1);
                if tx.send((key, medals)).is_err() {
                    return;
                }
            }
        });
    (jobs, answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pocket() -> Track {
        crate::track::bundled::load_raceable("pocket")
            .unwrap()
            .into_track()
    }

    #[test]
    fn a_table_worked_out_is_kept_and_read_back() {
        let dir = std::env::temp_dir().join(format!("skid-medals-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (track, kind) = (pocket(), ModelKind::Kinematic);
        let spec = CarSpec::default_for(kind);
        let mut book = Book::open(Some(dir.clone()));
        let Lookup::Working = book.ask(key(&track, &spec, kind), &track, &spec, true) else {
            panic!("a new table is worked out on the thread");
        };
        let mut waited = 0;
        while !book.poll() {
            std::thread::sleep(std::time::Duration::from_millis(10));
            waited += 1;
            assert!(waited < 3000, "the worker answers");
        }
        let known = book.get(&key(&track, &spec, kind));
        let medals = known.medals().expect("the computer laps pocket");
        // Written on the book's writer thread, not by the one who polled.
        let file = dir.join("medals.toml");
        while !file.exists() {
            std::thread::sleep(std::time::Duration::from_millis(10));
            waited += 1;
            assert!(waited < 3000, "the worker keeps the table");
        }
        // Read back by another book: no work asked.
        let again = Book::open(Some(dir.clone()));
        assert_eq!(again.get(&key(&track, &spec, kind)), known);
        // A table of another rule, or a damaged file, is worked out anew.
        let text = std::fs::read_to_string(dir.join("medals.toml")).unwrap();
        assert!(
            text.contains(&format!("author = {}", medals.author)),
            "{text}"
        );
        std::fs::write(dir.join("medals.toml"), text.replace(RULE, "0.0.0/0")).unwrap();
        let old = Book::open(Some(dir.clone()));
        assert_eq!(old.get(&key(&track, &spec, kind)), Lookup::Working);
        std::fs::write(dir.join("medals.toml"), "[[medals]]\ntrack_id = 7\n").unwrap();
        let mut damaged = Book::open(Some(dir.clone()));
        assert_eq!(
            damaged.ask(key(&track, &spec, kind), &track, &spec, false),
            known,
            "at once"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
