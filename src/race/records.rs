//! Records: the best lap per track, model and car, with its ghost, in the
//! user's data directory (`--data-dir` overrides it); one for laps driven
//! by hand and one for laps the steering aid steered, each on a board of
//! its own (docs/DESIGN.md, "Records").
//!
//! * A track is identified by its content (the hash of its file), so an
//!   edited track starts with no records.
//! * `records.toml` holds the table; each ghost is a file of its own in
//!   `ghosts/`, named after its record's key.
//! * Every write is atomic: a temporary file in the same folder, written,
//!   fsynced, renamed over the old one, the folder fsynced. A crash leaves
//!   the old file or the new one, never half of one.
//! * Saving takes an advisory lock (`File::lock` on `records.lock`) around
//!   read-merge-write, so two games on one machine (two SSH users) saving
//!   at once both keep their records.
//! * A damaged `records.toml` is reported, moved aside to
//!   `records.toml.damaged-N` (never overwritten) and the game goes on with
//!   an empty table.

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::base::files::write_atomic;
use crate::physics::ModelKind;
use crate::race::medals::{Medal, Medals};
use crate::race::timing::{GHOST_EVERY, Lap, LapLog};

/// The most the records table may hold (thousands of records fit).
const MAX_TABLE: u64 = 16 << 20;
/// The most one ghost file may hold (a lap of hours fits).
const MAX_GHOST: u64 = 64 << 20;
/// The longest line of a ghost file (`x,y,heading`, see `ghost_text`),
/// with room to spare.
const GHOST_LINE: u64 = 64;

/// The most the ghost of a lap of `ticks` can hold: a line a pose, a
/// pose every [`GHOST_EVERY`] ticks, and the header. A file longer than
/// its lap can be is not read (a ghost that does not fit its record).
pub fn ghost_cap(ticks: u64) -> u64 {
    let poses = ticks.div_ceil(GHOST_EVERY).saturating_add(2);
    poses
        .saturating_mul(GHOST_LINE)
        .saturating_add(GHOST_LINE)
        .min(MAX_GHOST)
}

/// One best lap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The track's name, for people; `track_id` is what identifies it.
    pub track: String,
    /// The track file's content hash, hex.
    pub track_id: String,
    pub model: ModelKind,
    /// The car preset's name, for people; `car_id` is what identifies it.
    pub car: String,
    /// The preset's content hash ([`crate::physics::car::CarSpec::content_id`]);
    /// empty in records saved before cars were keyed by content, which
    /// then match no car and are only listed.
    #[serde(default)]
    pub car_id: String,
    /// Lap time, seconds.
    pub time: f64,
    /// The lap in physics ticks, at `hz`.
    pub ticks: u64,
    pub hz: u32,
    /// Checkpoint splits in ticks from the lap's start.
    pub splits: Vec<u64>,
    /// The medal the lap earned (`crate::race::medals`), if the targets were
    /// known when it was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medal: Option<Medal>,
    /// Whether the steering aid steered any of the lap (`race::aid`):
    /// such laps are ranked on a board of their own, and marked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aided: bool,
}

impl Record {
    /// The record `best`, a lap driven by `car` on `track` at `dt`
    /// seconds a step, makes.
    fn of(track: &crate::track::Track, car: &crate::physics::Car, dt: f64, best: &Lap) -> Record {
        Record {
            track: track.name.clone(),
            track_id: track.content_id(),
            model: car.kind,
            car: car.spec().name.clone(),
            car_id: car.spec().content_id(),
            time: best.ticks as f64 * dt,
            ticks: best.ticks,
            hz: (1.0 / dt).round() as u32,
            splits: best.splits.clone(),
            medal: None,
            aided: best.aided,
        }
    }

    /// The records `log` holds anew, with their ghosts: on each board,
    /// its best lap if that beat the record it raced against there and is
    /// not kept yet ([`LapLog::new_records`]), of `entrant`'s car on
    /// `track` at steps of `dt`, with the medal it earns against `medals`
    /// (the car's, none while unknown; asked for only when there is a new
    /// record). The one rule by which a lap becomes a record, for local
    /// play, the server and `skid sim --save`.
    pub fn new_in(
        log: &mut LapLog,
        track: &crate::track::Track,
        entrant: &crate::race::world::Entrant,
        dt: f64,
        medals: impl FnOnce() -> Option<Medals>,
    ) -> Vec<(Record, Vec<[f64; 3]>)> {
        let bests = log.new_records(entrant.finite, dt);
        if bests.is_empty() {
            return Vec::new();
        }
        let medals = medals();
        (bests.into_iter())
            .map(|best| {
                let record = Record::of(track, &entrant.car, dt, best).with_medals(medals);
                (record, best.ghost.clone())
            })
            .collect()
    }

    /// The record with the medal it earns against `medals`: none for a
    /// lap the steering aid steered (`race::aid`), whose medal times are
    /// for laps steered by hand.
    fn with_medals(self, medals: Option<Medals>) -> Record {
        Record {
            medal: medals
                .filter(|_| !self.aided)
                .and_then(|m| m.earned(self.time)),
            ..self
        }
    }

    /// The record's lap, to race against, with its ghost `ghost`.
    pub fn lap(&self, ghost: Vec<[f64; 3]>) -> Lap {
        let trace = trace_of(&ghost, GHOST_EVERY as f64 / f64::from(self.hz.max(1)));
        Lap {
            ticks: self.ticks,
            splits: self.splits.clone(),
            ghost,
            trace,
            aided: self.aided,
        }
    }

    /// What a record is the best of: the track's and the car's content,
    /// and the model; and its board (aided or not).
    pub fn key(&self) -> (&str, ModelKind, &str, bool) {
        (&self.track_id, self.model, &self.car_id, self.aided)
    }

    /// The ghost's file name: the car's name made safe for a file name,
    /// and a hash of the exact name, so that "my car" and "`my_car`" keep
    /// ghosts of their own; an aided record's ends `-aided`.
    fn ghost_file(&self) -> String {
        self.ghost_file_on(self.aided)
    }

    /// The file an aided record's ghost had while a key held one record
    /// whatever its board: the unaided record's name now.
    fn shared_ghost_file(&self) -> String {
        self.ghost_file_on(false)
    }

    /// The ghost's file name on the aided board (`aided`) or the other.
    fn ghost_file_on(&self, aided: bool) -> String {
        let legacy = self.legacy_ghost_file();
        let stem = legacy.strip_suffix(".csv").unwrap_or(&legacy);
        let hash = crate::track::fnv1a(self.car.as_bytes()) as u32;
        let board = if aided { "-aided" } else { "" };
        format!("{stem}-{hash:08x}{board}.csv")
    }

    /// The file name ghosts had before it carried the hash: still read.
    fn legacy_ghost_file(&self) -> String {
        let car: String = self
            .car
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{}-{}-{}.csv", self.track_id, self.model, car)
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[serde(default)]
    record: Vec<Record>,
}

/// The records in one data directory.
#[derive(Debug, Clone)]
pub struct Store {
    pub dir: PathBuf,
}

/// The default data directory: `$XDG_DATA_HOME/skid`, or
/// `~/.local/share/skid`.
pub fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(|h| PathBuf::from(h).join(".local/share"));
    xdg.or(home).map(|d| d.join("skid"))
}

/// An exclusive advisory lock on a file (std's `File::lock`, `flock` on
/// Linux), released when the file is closed on drop.
struct Lock {
    _file: File,
}

impl Lock {
    fn take(path: &Path) -> io::Result<Lock> {
        use std::os::unix::fs::OpenOptionsExt;
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)?;
        if !f.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a regular file", path.display()),
            ));
        }
        f.lock()?;
        Ok(Lock { _file: f })
    }
}

/// What loading found besides the records.
#[derive(Debug, Default, PartialEq)]
pub struct Loaded {
    pub records: Vec<Record>,
    /// A damaged table moved aside: where to.
    pub moved_aside: Option<PathBuf>,
}

impl Loaded {
    /// What to tell the player about the load, if anything.
    pub fn notice(&self) -> Option<String> {
        let aside = self.moved_aside.as_ref()?;
        Some(format!(
            "the records file was damaged; kept aside as {}",
            aside.display()
        ))
    }
}

impl Store {
    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    fn table_path(&self) -> PathBuf {
        self.dir.join("records.toml")
    }

    /// The table as it is on disk: its records, none when there is no
    /// table, or `None` when it is damaged. Never through a link, never
    /// waiting on a FIFO, never unbounded.
    fn read_table(&self) -> io::Result<Option<Vec<Record>>> {
        let text = match crate::base::files::read_capped(&self.table_path(), MAX_TABLE, false) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Some(Vec::new())),
            Err(e) => return Err(e),
        };
        Ok(std::str::from_utf8(&text)
            .ok()
            .and_then(|t| toml::from_str::<Table>(t).ok())
            .map(|t| t.record))
    }

    /// Moves a damaged table aside as `records.toml.damaged-N` (never
    /// overwriting one). The caller holds the lock.
    fn move_aside(&self) -> io::Result<Loaded> {
        let aside = (1..u64::MAX)
            .map(|n| self.dir.join(format!("records.toml.damaged-{n}")))
            .find(|p| fs::symlink_metadata(p).is_err())
            .expect("some name is free");
        fs::rename(self.table_path(), &aside)?;
        Ok(Loaded {
            records: Vec::new(),
            moved_aside: Some(aside),
        })
    }

    fn lock(&self) -> io::Result<Lock> {
        Lock::take(&self.dir.join("records.lock"))
    }

    /// Reads the table. A damaged one is moved aside (never overwritten)
    /// and reported; the records are then empty. The move happens under
    /// the lock, after reading the table again there: a save that replaced
    /// the damaged table meanwhile is read, never moved aside.
    pub fn load(&self) -> io::Result<Loaded> {
        if let Some(records) = self.read_table()? {
            return Ok(Loaded {
                records,
                moved_aside: None,
            });
        }
        let _lock = self.lock()?;
        self.load_locked()
    }

    /// [`Store::load`] with the lock already held.
    fn load_locked(&self) -> io::Result<Loaded> {
        match self.read_table()? {
            Some(records) => Ok(Loaded {
                records,
                moved_aside: None,
            }),
            None => self.move_aside(),
        }
    }

    /// The records and ghosts for a track, model and car: the unaided
    /// board's first, then the aided board's, each if there is one.
    pub fn best(
        &self,
        track_id: &str,
        model: ModelKind,
        car: &str,
    ) -> io::Result<(Vec<(Record, Lap)>, Loaded)> {
        let loaded = self.load()?;
        let mut found: Vec<Record> = (loaded.records.iter())
            .filter(|r| (&*r.track_id, r.model, &*r.car_id) == (track_id, model, car))
            .cloned()
            .collect();
        found.sort_by_key(|r| r.aided);
        let best = (found.iter())
            .map(|r| (r.clone(), r.lap(self.ghost(r, &found))))
            .collect();
        Ok((best, loaded))
    }

    /// A record's ghost, `records` being the table it is in (none if its
    /// file is missing or unreadable). An aided record kept while a key
    /// held one record whatever its board has its ghost under the
    /// unaided name, while no unaided record took it
    /// ([`Store::move_aided_ghost`]).
    pub fn ghost(&self, r: &Record, records: &[Record]) -> Vec<[f64; 3]> {
        let read = |name: String| {
            let path = self.dir.join("ghosts").join(name);
            crate::base::files::read_capped(&path, ghost_cap(r.ticks), false)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
        };
        let mut names = vec![r.ghost_file()];
        let unaided = |o: &Record| o.key() == (&*r.track_id, r.model, &*r.car_id, false);
        if !r.aided || !records.iter().any(unaided) {
            names.extend([r.shared_ghost_file(), r.legacy_ghost_file()]);
        }
        names.dedup();
        (names.into_iter())
            .find_map(read)
            .map(|t| parse_ghost(&t))
            .unwrap_or_default()
    }

    /// Saves a lap if it beats the record for its key; returns whether it
    /// did, and what loading found on the way.
    pub fn save(&self, record: Record, ghost: &[[f64; 3]]) -> io::Result<(bool, Loaded)> {
        self.save_with(record, ghost, || Ok(()))
    }

    /// [`Store::save`], with a hook run before the table's rename.
    pub fn save_with(
        &self,
        record: Record,
        ghost: &[[f64; 3]],
        before_rename: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<(bool, Loaded)> {
        fs::create_dir_all(self.dir.join("ghosts"))?;
        let _lock = self.lock()?;
        let mut loaded = self.load_locked()?;
        let records = &mut loaded.records;
        match records.iter_mut().find(|r| r.key() == record.key()) {
            Some(old) if old.time <= record.time => return Ok((false, loaded)),
            Some(old) => *old = record.clone(),
            None => {
                self.move_aided_ghost(records, &record)?;
                records.push(record.clone());
            }
        }
        records.sort_by(|a, b| {
            let key = |r: &Record| (r.track.clone(), r.model.name(), r.car.clone(), r.aided);
            key(a).cmp(&key(b))
        });
        write_atomic(
            &self.dir.join("ghosts").join(record.ghost_file()),
            ghost_text(ghost).as_bytes(),
            || Ok(()),
        )?;
        let table = Table {
            record: records.clone(),
        };
        let text = toml::to_string(&table).expect("records always serialise");
        write_atomic(&self.table_path(), text.as_bytes(), before_rename)?;
        Ok((true, loaded))
    }
}

impl Store {
    /// Before the first unaided record of a key is kept (`new`): the
    /// ghost of an aided record kept while a key held one record whatever
    /// its board, under the name the new record's ghost takes, moved to
    /// the aided name. The caller holds the lock.
    fn move_aided_ghost(&self, records: &[Record], new: &Record) -> io::Result<()> {
        if new.aided {
            return Ok(());
        }
        let (track, model, car, _) = new.key();
        let Some(old) = records
            .iter()
            .find(|r| r.key() == (track, model, car, true))
        else {
            return Ok(());
        };
        let ghosts = self.dir.join("ghosts");
        let aided = ghosts.join(old.ghost_file());
        if fs::symlink_metadata(&aided).is_ok() {
            return Ok(());
        }
        match fs::rename(ghosts.join(old.shared_ghost_file()), &aided) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Distance and speed along a ghost sampled every `dt` seconds (slip is
/// not kept with records: NaN).
fn trace_of(ghost: &[[f64; 3]], dt: f64) -> Vec<[f64; 3]> {
    let mut distance = 0.0;
    let mut out = Vec::with_capacity(ghost.len());
    for (i, g) in ghost.iter().enumerate() {
        let step = ghost.get(i + 1).map_or(0.0, |n| {
            ((n[0] - g[0]).powi(2) + (n[1] - g[1]).powi(2)).sqrt()
        });
        out.push([distance, step / dt * 3.6, f64::NAN]);
        distance += step;
    }
    out
}

/// A ghost as text: a line `x,y,heading` a pose, under a header.
pub fn ghost_text(ghost: &[[f64; 3]]) -> String {
    let mut s = format!("# x,y,heading every {GHOST_EVERY} ticks\n");
    for [x, y, h] in ghost {
        let _ = writeln!(s, "{x:.3},{y:.3},{h:.4}");
    }
    s
}

/// Reads a ghost file; lines that do not parse are skipped (a damaged
/// ghost only shortens the ghost).
pub fn parse_ghost(text: &str) -> Vec<[f64; 3]> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let v: Vec<f64> = l.split(',').filter_map(|x| x.trim().parse().ok()).collect();
            (v.len() == 3 && v.iter().all(|x| x.is_finite())).then(|| [v[0], v[1], v[2]])
        })
        .collect()
}

#[cfg(test)]
mod tests;
