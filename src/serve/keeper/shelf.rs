//! The players' tracks on the records' thread (docs/SERVE.md, "Players'
//! tracks"): kept, listed, opened, published and taken back when a
//! player asks, and every [`LOOK_EVERY`] the published ones read, each
//! new one parsed and its racing line worked out here, so that neither a
//! track's size nor the database's pace reaches the hub.

use std::collections::HashMap;
use std::sync::mpsc::Sender;
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

/// What the thread knows of the published tracks: the racing lines
/// worked out, by track (maker, name, content id), and the list last
/// told to the hub.
#[derive(Default)]
pub struct Catalogue {
    next: Option<Instant>,
    made: HashMap<(String, String, String), Offered>,
    told: Option<Vec<Shelved>>,
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

/// Reads the published tracks when a look is due (`now`) and tells the
/// hub the list when it changed, each with its racing line (worked out
/// once; a track that no longer parses or races is left out); errs when
/// the hub is gone.
pub fn look(
    link: &mut Breaker,
    cat: &mut Catalogue,
    now: Instant,
    answers: &Sender<Answer>,
) -> Result<(), ()> {
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
    let mut ready = Vec::new();
    for shelved in &listed {
        let key = (
            shelved.owner.clone(),
            shelved.name.clone(),
            shelved.track_id.clone(),
        );
        if !cat.made.contains_key(&key) {
            let Some(Some(body)) = link.ask(|db| db.track_body(&shelved.owner, &shelved.name))
            else {
                continue;
            };
            let path = format!("{} by {}", shelved.name, shelved.maker);
            let Ok(choice) = TrackChoice::from_text(&path, &body, |_| shelved.name.clone()) else {
                continue;
            };
            cat.made.insert(key.clone(), Offered::new(choice));
        }
        ready.push(PlayersTrack {
            shelved: shelved.clone(),
            offered: cat.made[&key].clone(),
        });
    }
    cat.made.retain(|(o, n, id), _| {
        (listed.iter()).any(|s| (&s.owner, &s.name, &s.track_id) == (o, n, id))
    });
    cat.told = Some(listed);
    answers.send(Answer::Published(ready)).map_err(|_| ())
}
