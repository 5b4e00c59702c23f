//! The players' tracks on the records' thread (docs/SERVE.md, "Players'
//! tracks"): kept, listed, opened, published and taken back when a
//! player asks, and every [`LOOK_EVERY`] the published ones read, each
//! new one parsed and its racing line worked out on a thread of their
//! own ([`Catalogue`]), so that neither a track's size nor the
//! database's pace reaches the hub, nor a large track's line the laps.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use super::Answer;
use super::link::Breaker;
use crate::race::TrackChoice;
use crate::serve::db::{Publishing, Shelved, Shelving, ToShelve, Whose};
use crate::serve::offered::Offered;

/// How often the published tracks are read.
const LOOK_EVERY: Duration = Duration::from_secs(2);

/// What a player asks of their tracks, `player` naming them to the hub.
#[derive(Debug)]
pub enum TrackJob {
    /// Keep `track` (its content id is worked out here), unless its
    /// maker has `most` others.
    Save {
        player: u64,
        track: ToShelve,
        most: usize,
    },
    /// The maker `owner`'s tracks.
    Mine { player: u64, owner: String },
    /// The file of `owner`'s track `name`, to edit.
    Open {
        player: u64,
        owner: String,
        name: String,
    },
    /// Publish `owner`'s track `name` (`on`), or take it back.
    Publish {
        player: u64,
        owner: String,
        name: String,
        on: bool,
    },
}

/// What the thread says of a [`TrackJob`]: for `player`, with the name
/// of the track, what came of it or why nothing did.
#[derive(Debug)]
pub enum TrackNews {
    Saved(u64, String, Result<Shelving, String>),
    Mine(u64, Result<Vec<Shelved>, String>),
    Opened(u64, String, Result<Option<String>, String>),
    Published(u64, String, Result<Publishing, String>),
}

/// A published track as every lobby lists it, ready to race.
#[derive(Clone)]
pub struct PlayersTrack {
    pub shelved: Shelved,
    pub offered: Offered,
}

impl std::fmt::Debug for PlayersTrack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.shelved.fmt(f)
    }
}

/// A published track as the records' thread knows it: maker, name,
/// content id.
type Key = (String, String, String);

fn key_of(s: &Shelved) -> Key {
    (s.owner.clone(), s.name.clone(), s.track_id.clone())
}

/// The published tracks as the records' thread reads them, handed to a
/// thread of their own that parses each new one and works out its
/// racing line (a large track's takes long enough to hold laps and
/// boards back), which tells the hub.
pub struct Catalogue {
    next: Option<Instant>,
    /// The tracks whose files went to the lines' thread.
    sent: HashSet<Key>,
    /// The list last handed on.
    told: Option<Vec<Shelved>>,
    lines: Sender<Vec<(Shelved, Option<String>)>>,
}

impl Catalogue {
    /// The catalogue, its lines' thread telling `answers`.
    pub fn new(answers: Sender<Answer>) -> Catalogue {
        let (lines, batches) = channel();
        let spawned = std::thread::Builder::new()
            .name("skid-tracks".into())
            .spawn(move || work_out_lines(&batches, &answers));
        if let Err(e) = spawned {
            eprintln!("skid serve: players' tracks will not be offered: {e}");
        }
        Catalogue {
            next: None,
            sent: HashSet::new(),
            told: None,
            lines,
        }
    }
}

/// The lines' thread: each list of published tracks, the files of the
/// new ones with it, to the hub ready to race (a track that no longer
/// parses or races is left out), until the records' thread hangs up.
fn work_out_lines(batches: &Receiver<Vec<(Shelved, Option<String>)>>, answers: &Sender<Answer>) {
    let mut made: HashMap<Key, Offered> = HashMap::new();
    for batch in batches {
        let mut ready = Vec::new();
        for (shelved, body) in batch {
            let key = key_of(&shelved);
            if let Some(body) = body {
                let path = format!("{} by {}", shelved.name, shelved.maker);
                let name = shelved.name.clone();
                if let Ok(choice) = TrackChoice::from_text(&path, &body, |_| name) {
                    made.insert(key.clone(), Offered::new(choice));
                }
            }
            if let Some(offered) = made.get(&key) {
                let offered = offered.clone();
                ready.push(PlayersTrack { shelved, offered });
            }
        }
        made.retain(|k, _| ready.iter().any(|t| key_of(&t.shelved) == *k));
        if answers.send(Answer::Published(ready)).is_err() {
            return;
        }
    }
}

/// A job's answer, or why it found no database (said to the player).
fn or_down<T>(answer: Option<T>, name: &str) -> Result<T, String> {
    answer.ok_or_else(|| format!("the server's database does not answer ({name}): try again soon"))
}

/// The content id of a track's file, if it parses.
fn content_id(body: &str) -> String {
    crate::track::parse("track", body.as_bytes()).map_or_else(|_| String::new(), |t| t.content_id())
}

/// Does `job`; errs when the hub is gone.
pub fn answer(link: &mut Breaker, job: TrackJob, answers: &Sender<Answer>) -> Result<(), ()> {
    let name = link.name().to_string();
    let news = match job {
        TrackJob::Save {
            player,
            mut track,
            most,
        } => {
            track.track_id = content_id(&track.body);
            let at = super::queue::now_ms();
            let saved = or_down(link.ask(|db| db.shelve(&track, most, at)), &name);
            TrackNews::Saved(player, track.name, saved)
        }
        TrackJob::Mine { player, owner } => {
            let mine = or_down(link.ask(|db| db.shelf(Whose::Owner(&owner))), &name);
            TrackNews::Mine(player, mine)
        }
        TrackJob::Open {
            player,
            owner,
            name: track,
        } => {
            let body = or_down(link.ask(|db| db.track_body(&owner, &track)), &name);
            TrackNews::Opened(player, track, body)
        }
        TrackJob::Publish {
            player,
            owner,
            name: track,
            on,
        } => {
            let at = super::queue::now_ms();
            let done = or_down(
                link.ask(|db| db.publish_track(&owner, &track, on, at)),
                &name,
            );
            TrackNews::Published(player, track, done)
        }
    };
    answers.send(Answer::Tracks(news)).map_err(|_| ())
}

/// Reads the published tracks when a look is due (`now`) and, when the
/// list changed, hands it to the lines' thread with the files of the
/// tracks new to it (a file not read now is read at the next look);
/// errs when that thread is gone.
pub fn look(link: &mut Breaker, cat: &mut Catalogue, now: Instant) -> Result<(), ()> {
    if cat.next.is_some_and(|at| now < at) {
        return Ok(());
    }
    cat.next = Some(now + LOOK_EVERY);
    let Some(listed) = link.ask(|db| db.shelf(Whose::Published)) else {
        return Ok(());
    };
    if cat.told.as_ref() == Some(&listed) {
        return Ok(());
    }
    let mut batch = Vec::new();
    let mut whole = true;
    for shelved in &listed {
        let key = key_of(shelved);
        let body = if cat.sent.contains(&key) {
            None
        } else {
            let Some(Some(body)) = link.ask(|db| db.track_body(&shelved.owner, &shelved.name))
            else {
                whole = false;
                continue;
            };
            Some(body)
        };
        batch.push((shelved.clone(), body));
    }
    cat.sent = batch.iter().map(|(s, _)| key_of(s)).collect();
    cat.told = whole.then_some(listed);
    cat.lines.send(batch).map_err(|_| ())
}
