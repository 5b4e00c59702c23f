//! The records' thread: jobs as they come, in batches; the log of
//! changes every [`CHANGES_EVERY`]; laps that could not be written kept
//! ([`queue`](super::queue)) and tried again. The database is asked only
//! through its [`Breaker`], so one that is down is not waited on: records
//! read meanwhile are none, boards are not read (the hub shows them
//! offline), and laps go to the spool at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::link::Breaker;
use super::queue::Queue;
use super::queue::now_ms;
use super::shelf;
use super::{Answer, BOARD_TOP, Job, Wants, best, first_answer};
use crate::serve::db::Listed;

/// How often the thread reads the log of changes.
const CHANGES_EVERY: Duration = Duration::from_millis(250);
/// How often the thread publishes this server's rooms (its heartbeat,
/// [`ROOMS_FRESH_MS`](crate::serve::db::ROOMS_FRESH_MS) being three of
/// them) and reads the other servers'.
const ROOMS_EVERY: Duration = Duration::from_millis(500);

/// What the thread works with: the database, the laps waiting, and the
/// data directory whose first answer is still to be had (the players'
/// files imported, the best laps read) while the database has not
/// answered since the server started.
pub struct Records {
    pub link: Breaker,
    pub queue: Queue,
    pub unmet: Option<PathBuf>,
}

/// This server's rooms as last published (its name and the rooms), when
/// they are due again, and the other servers' as last told to the hub.
#[derive(Default)]
struct Rooms {
    mine: Option<(String, Vec<Listed>)>,
    changed: bool,
    next: Option<Instant>,
    told: Vec<Listed>,
}

/// Runs until the hub hangs up: then the laps waiting are kept in the
/// spool first and written to the database if it is up, so that a server
/// stops within one [`DEADLINE`](crate::serve::db::DEADLINE) of a call
/// under way, whatever the database does.
pub fn work(mut r: Records, jobs: &Receiver<Job>, answers: &Sender<Answer>) {
    let mut next_changes = Instant::now();
    let mut online = r.link.up();
    let mut rooms = Rooms::default();
    let mut catalogue = shelf::Catalogue::new(answers.clone());
    loop {
        let (first, ending) = match jobs.recv_timeout(CHANGES_EVERY) {
            Ok(job) => (Some(job), false),
            Err(RecvTimeoutError::Timeout) => (None, false),
            Err(RecvTimeoutError::Disconnected) => (None, true),
        };
        let mut asks = Vec::new();
        let mut told = Vec::new();
        for job in first.into_iter().chain(jobs.try_iter()) {
            match job {
                Job::Save(lap) => told.extend(r.queue.push(lap, r.link.name())),
                Job::Publish(server, listed) => {
                    rooms.mine = Some((server, listed));
                    rooms.changed = true;
                }
                other => asks.push(other),
            }
        }
        if ending {
            let _ = r.queue.settle();
            if r.link.up() {
                r.link.ask(|db| r.queue.write(db));
                // Its rooms gone from the others' lobbies at once.
                if let Some((server, _)) = &rooms.mine {
                    r.link.ask(|db| db.publish_rooms(server, &[], now_ms()));
                }
            }
            return;
        }
        if meet(&mut r, answers).is_err() {
            return;
        }
        let waiting = r.queue.len();
        if waiting > 0 {
            r.link.ask(|db| r.queue.write(db));
        }
        told.extend(r.queue.settle());
        if let Some(gone) = r.link.take_back() {
            let left = r.queue.len();
            eprintln!(
                "skid serve: {}: answers again after {:.1} s; {} that waited written{}",
                r.link.name(),
                gone.as_secs_f64(),
                crate::base::diag::count(waiting - left, "lap"),
                if left > 0 {
                    format!(", {left} wait still")
                } else {
                    String::new()
                }
            );
        }
        if !told.is_empty() && answers.send(Answer::Told(told)).is_err() {
            return;
        }
        if answer_all(&mut r.link, asks, answers).is_err() {
            return;
        }
        if Instant::now() >= next_changes {
            next_changes = Instant::now() + CHANGES_EVERY;
            if changes(&mut r.link, answers).is_err() {
                return;
            }
        }
        if publish(&mut r.link, &mut rooms, answers).is_err()
            || shelf::look(&mut r.link, &mut catalogue, Instant::now()).is_err()
        {
            return;
        }
        if r.link.up() != online {
            online = r.link.up();
            if answers.send(Answer::Online(online)).is_err() {
                return;
            }
        }
    }
}

/// The first answer of a database that had not answered when the server
/// started: its best laps, to the hub. Errs when the hub is gone.
fn meet(r: &mut Records, answers: &Sender<Answer>) -> Result<(), ()> {
    let Some(dir) = &r.unmet else {
        return Ok(());
    };
    let Some(bests) = r.link.ask(|db| first_answer(db, dir)) else {
        return Ok(());
    };
    r.unmet = None;
    for (track, best) in bests {
        answers.send(Answer::Best(track, best)).map_err(|_| ())?;
    }
    Ok(())
}

/// Answers the reads and boards asked, in order; errs when the hub is
/// gone. A board asked for again in one batch is read once, for the
/// players asked about last (a cursor run through the lobby's rooms asks
/// for each room's board as it passes).
fn answer_all(link: &mut Breaker, asks: Vec<Job>, answers: &Sender<Answer>) -> Result<(), ()> {
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
        answer(link, job, answers)?;
    }
    Ok(())
}

/// Answers a read (none while the database is down) or a board (not
/// while it is down); errs when the hub is gone.
fn answer(link: &mut Breaker, job: Job, answers: &Sender<Answer>) -> Result<(), ()> {
    let said = match job {
        Job::Read {
            identity,
            key,
            hz,
            ask,
        } => {
            let boards = match ask.wants {
                Wants::Records => vec![false, true],
                Wants::Ghost { aided } => vec![aided],
            };
            let laps = (boards.into_iter())
                .filter_map(|aided| link.ask(|db| db.best(&identity, &key, aided)).flatten())
                .map(|(r, ghost)| r.lap(ghost).at_rate(r.hz, hz))
                .collect();
            Answer::Record(ask, laps)
        }
        Job::Board { key, who } => match link.ask(|db| db.boards_of(&key, BOARD_TOP, &who)) {
            Some(board) => Answer::Board(key, board),
            None => return Ok(()),
        },
        Job::Tracks(job) => return shelf::answer(link, job, answers),
        Job::Save(_) | Job::Publish(..) => return Ok(()),
    };
    answers.send(said).map_err(|_| ())
}

/// Says which boards changed since the last look, and the best laps of
/// their tracks; errs when the hub is gone.
fn changes(link: &mut Breaker, answers: &Sender<Answer>) -> Result<(), ()> {
    let keys = match link.ask(|db| db.changes()) {
        Some(keys) if !keys.is_empty() => keys,
        _ => return Ok(()),
    };
    let mut tracks: Vec<&String> = keys.iter().map(|k| &k.0).collect();
    tracks.dedup();
    for track in tracks {
        if let Some(Some((e, model, car))) = link.ask(|db| db.best_of_track(track)) {
            answers
                .send(Answer::Best(track.clone(), best(e, model, car)))
                .map_err(|_| ())?;
        }
    }
    answers.send(Answer::Changed(keys)).map_err(|_| ())
}

/// Publishes this server's rooms when they changed or a heartbeat is due,
/// and then reads the other servers', telling the hub when those changed
/// (none while the database does not answer); errs when the hub is gone.
fn publish(link: &mut Breaker, rooms: &mut Rooms, answers: &Sender<Answer>) -> Result<(), ()> {
    let Some((server, mine)) = &rooms.mine else {
        return Ok(());
    };
    let now = Instant::now();
    if !rooms.changed && rooms.next.is_some_and(|at| now < at) {
        return Ok(());
    }
    rooms.next = Some(now + ROOMS_EVERY);
    let at = now_ms();
    let published = link.ask(|db| db.publish_rooms(server, mine, at));
    rooms.changed &= published.is_none();
    let elsewhere = link
        .ask(|db| db.rooms_elsewhere(server, at))
        .unwrap_or_default();
    if elsewhere == rooms.told {
        return Ok(());
    }
    rooms.told.clone_from(&elsewhere);
    answers.send(Answer::Elsewhere(elsewhere)).map_err(|_| ())
}
