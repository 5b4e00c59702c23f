//! The records' thread's hold on its database: whether it answers, and
//! if not, since when and when to try it again. A database that fails a
//! call (an error, or no answer within [`db::DEADLINE`]) is *down*: it is
//! asked nothing more until its next try, a quarter second later, then
//! twice as long each time it fails again, up to [`MAX_WAIT`]. The log
//! says once that it went down and once that it is back, with how long
//! it was gone; never a line a retry (but once more if it starts refusing
//! in a way that needs the operator: a password, a newer schema).

use std::time::{Duration, Instant};

use super::super::db::{self, Database};

/// The longest wait between two tries of a database that is down.
pub const MAX_WAIT: Duration = Duration::from_secs(2);
/// The first wait after a database fails.
const FIRST_WAIT: Duration = Duration::from_millis(250);

pub struct Breaker {
    db: Box<dyn Database>,
    /// The database as the log names it.
    name: String,
    down: Option<Down>,
    /// How long the database was gone, when it has just come back: for
    /// the log's one line about it ([`Breaker::take_back`]).
    back: Option<Duration>,
}

/// What the log says of a database that stopped answering for `why`.
pub fn offline(why: &str) -> String {
    format!(
        "{why}; boards are offline and laps wait until it answers \
         (tried again every {} s at the most)",
        MAX_WAIT.as_secs()
    )
}

/// A database that does not answer.
struct Down {
    since: Instant,
    /// Whether the log said it refuses for good (the operator's to mend).
    lasting: bool,
    /// When it is tried again, and how long the wait was.
    retry: Instant,
    wait: Duration,
}

impl Breaker {
    /// A database that answered, or (`down`) did not: the log's line
    /// about that is the caller's to write, after the server's first.
    pub fn new(db: Box<dyn Database>, down: bool) -> Breaker {
        let now = Instant::now();
        Breaker {
            name: db.name(),
            db,
            down: down.then_some(Down {
                since: now,
                lasting: false,
                retry: now + FIRST_WAIT,
                wait: FIRST_WAIT,
            }),
            back: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the database answers, as far as is known.
    pub fn up(&self) -> bool {
        self.down.is_none()
    }

    /// Whether the database may be asked now: up, or down and due to be
    /// tried again.
    pub fn open(&self) -> bool {
        self.down.as_ref().is_none_or(|d| Instant::now() >= d.retry)
    }

    /// Runs `call` on the database if it may be asked now: its answer, or
    /// none when it is down or fails (it is then down).
    pub fn ask<T>(
        &mut self,
        call: impl FnOnce(&mut dyn Database) -> Result<T, String>,
    ) -> Option<T> {
        if !self.open() {
            return None;
        }
        let answered = match self.db.ready(db::DEADLINE) {
            Ok(()) => call(self.db.as_mut()).map_err(|why| (why, false)),
            Err(refusal) => Err((refusal.why, refusal.lasting)),
        };
        match answered {
            Ok(t) => {
                if let Some(down) = self.down.take() {
                    self.back = Some(down.since.elapsed());
                }
                Some(t)
            }
            Err((why, lasting)) => {
                self.failed(why, lasting);
                None
            }
        }
    }

    /// How long the database was gone, once, when it has come back.
    pub fn take_back(&mut self) -> Option<Duration> {
        self.back.take()
    }

    /// A call failed for `why`: down (the log says so once, and again
    /// once if it refuses for good), tried again after a longer wait.
    fn failed(&mut self, why: String, lasting: bool) {
        let now = Instant::now();
        match &mut self.down {
            None => {
                eprintln!("skid serve: {}", offline(&why));
                self.down = Some(Down {
                    since: now,
                    lasting,
                    retry: now + FIRST_WAIT,
                    wait: FIRST_WAIT,
                });
            }
            Some(down) => {
                if lasting && !down.lasting {
                    eprintln!("skid serve: {why}");
                    down.lasting = true;
                }
                down.wait = (down.wait * 2).min(MAX_WAIT);
                down.retry = now + down.wait;
            }
        }
    }
}
