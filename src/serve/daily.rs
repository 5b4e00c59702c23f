//! Today's track on a server (the Track of the Day, docs/SERVE.md): the
//! first of the offered tracks and the lobby's first row, yesterday's the
//! second, turned at 00:00 UTC. The next day's track and racing line are made on a thread
//! of its own some minutes before midnight, never on the hub, and handed
//! to the hub then ([`ToHub::Tomorrow`]), which asks its medals of the
//! book's worker; at midnight the hub only puts it in place
//! ([`ToHub::DayTurned`]). A race running across midnight keeps the
//! track it started on (`super::room::Running`).

use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::base::day::Day;
use crate::race::TrackChoice;

use super::messages::ToHub;
use super::offered::Offered;

/// The time of day as the server reads it: seconds since the Unix epoch,
/// UTC. The system's clock ([`system`]), or a test's.
pub type Wall = fn() -> u64;

/// The system's clock.
pub fn system() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// How long before midnight the next day's track is made: room for its
/// medals to be worked out before anyone can race it.
pub const AHEAD: u64 = 15 * 60;

/// The longest the day's thread sleeps before it reads the clock again
/// (the clock may be set, or the machine suspended, meanwhile).
const NAP: u64 = 30;

/// How many of the offered tracks are days': today's, then yesterday's
/// (whose board stays in reach, and can still be raced).
pub const SLOTS: usize = 2;

/// The days' tracks on the hub: which day is today, and the next day's
/// track once it is made.
pub struct Turns {
    pub today: Day,
    /// The next day's track, waiting for midnight.
    pub next: Option<(Day, Offered)>,
}

/// The Track of the Day of `day` as the lobby offers it while the date is
/// `today`, with its racing line (the costly part), or why not (logged:
/// the generator's fault, never the player's).
pub fn offered(day: Day, today: Day) -> Result<Offered, String> {
    TrackChoice::daily(day, today)
        .map(Offered::new)
        .map_err(|e| format!("the track of {day}: {e}"))
}

/// The days' tracks a server starts with on `today`: today's and
/// yesterday's ([`SLOTS`]).
pub fn first(today: Day) -> Result<Vec<Offered>, String> {
    Ok(vec![
        offered(today, today)?,
        offered(today.before(), today)?,
    ])
}

/// Starts the thread that makes each next day's track at [`AHEAD`] of
/// midnight by `wall` and tells `hub` of it, then of midnight; it ends
/// when the hub is gone.
pub fn spawn(wall: Wall, hub: Sender<ToHub>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("skid-daily".into())
        .spawn(move || {
            loop {
                let next = Day::from_secs(wall()).after();
                sleep_until(wall, next.start_secs().saturating_sub(AHEAD));
                match offered(next, next) {
                    Ok(offered) => {
                        let offered = Box::new(offered);
                        if hub.send(ToHub::Tomorrow { day: next, offered }).is_err() {
                            return;
                        }
                    }
                    Err(why) => eprintln!("skid serve: {why}"),
                }
                sleep_until(wall, next.start_secs());
                if hub.send(ToHub::DayTurned { day: next }).is_err() {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Sleeps until `wall` says `at` (or later), reading it again at least
/// every [`NAP`] seconds.
fn sleep_until(wall: Wall, at: u64) {
    loop {
        let now = wall();
        if now >= at {
            return;
        }
        std::thread::sleep(Duration::from_secs((at - now).min(NAP)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// 2026-12-06, 23:59:58 UTC, and on as the test moves it.
    static NOW: AtomicU64 = AtomicU64::new(1_796_601_598);

    fn now() -> u64 {
        NOW.load(Ordering::SeqCst)
    }

    /// Started two seconds before midnight, the thread hands the hub the
    /// next day's track at once (it is past `AHEAD`), and says the day
    /// turned only once the clock reaches midnight.
    #[test]
    fn the_next_day_comes_before_midnight_and_turns_at_it() {
        let (tx, rx) = std::sync::mpsc::channel();
        spawn(now, tx).unwrap();
        let wait = Duration::from_mins(1);
        let Ok(ToHub::Tomorrow { day, offered }) = rx.recv_timeout(wait) else {
            panic!("no next day's track");
        };
        assert_eq!(day.to_string(), "2026-12-07");
        assert_eq!(offered.choice.name, "Today · Dec 7 · Lost Works");
        assert_eq!(
            offered.id,
            TrackChoice::daily(day, day).unwrap().track.content_id()
        );
        // Not yet midnight: no turn.
        assert!(rx.recv_timeout(Duration::from_millis(1500)).is_err());
        NOW.store(
            Day::parse("2026-12-07").unwrap().start_secs(),
            Ordering::SeqCst,
        );
        let Ok(ToHub::DayTurned { day }) = rx.recv_timeout(Duration::from_secs(NAP + 5)) else {
            panic!("no turn at midnight");
        };
        assert_eq!(day.to_string(), "2026-12-07");
    }
}
