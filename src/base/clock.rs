//! The one fixed-step clock of local play and the server: real time in,
//! whole physics steps out. The physics never reads it; it sees ticks
//! only, so frame rate, terminal size and load cannot change a race.

use std::time::{Duration, Instant};

/// The most real time made up for at once after a stall (a suspended
/// process, a slow frame): beyond it the race does not fast-forward, it
/// just resumes.
pub const CATCH_UP: Duration = Duration::from_millis(250);

/// Steps of `1 / hz` seconds, each due at an instant, counted from a
/// start that also dates key events.
#[derive(Debug, Clone)]
pub struct Clock {
    start: Instant,
    dt: Duration,
    next: Instant,
}

impl Clock {
    /// A clock of `hz` steps a second whose first step is due at `start`.
    pub fn new(hz: u32, start: Instant) -> Clock {
        Clock {
            start,
            dt: Duration::from_secs_f64(1.0 / f64::from(hz.max(1))),
            next: start,
        }
    }

    /// Seconds from the start to `at`: the time stamp of key events and
    /// steps alike.
    pub fn secs(&self, at: Instant) -> f64 {
        at.saturating_duration_since(self.start).as_secs_f64()
    }

    /// The length of one step.
    pub fn dt(&self) -> Duration {
        self.dt
    }

    /// When the next step is due.
    pub fn next_due(&self) -> Instant {
        self.next
    }

    /// The next step due by `now`, with the instant it was due, and the
    /// clock moved past it; none when no step is due. Call until none:
    /// after a stall at most [`CATCH_UP`] of steps come out.
    pub fn step_due(&mut self, now: Instant) -> Option<Instant> {
        if now.saturating_duration_since(self.next) > CATCH_UP {
            self.next = now.checked_sub(CATCH_UP).unwrap_or(now);
        }
        if self.next > now {
            return None;
        }
        let at = self.next;
        self.next += self.dt;
        Some(at)
    }

    /// Holds the clock at `now`: while nothing is stepped (a pause, a
    /// menu), no steps fall due; the first after is a step from now.
    pub fn hold(&mut self, now: Instant) {
        self.next = now + self.dt;
    }
}

/// Frames at a steady cadence, for both front doors' loops: a frame is
/// due a frame's time after the last one was due, unless the loop fell
/// more than a frame behind (then from when it was drawn).
#[derive(Debug, Clone)]
pub struct Cadence {
    every: Duration,
    next: Instant,
}

impl Cadence {
    /// `fps` frames a second (at least one), the first due at `start`.
    pub fn new(fps: u32, start: Instant) -> Cadence {
        Cadence {
            every: Duration::from_secs_f64(1.0 / f64::from(fps.max(1))),
            next: start,
        }
    }

    /// A frame's time.
    pub fn every(&self) -> Duration {
        self.every
    }

    /// When the next frame is due.
    pub fn next_due(&self) -> Instant {
        self.next
    }

    /// Whether a frame is due at `now`.
    pub fn due(&self, now: Instant) -> bool {
        now >= self.next
    }

    /// A frame was drawn at `now`.
    pub fn drawn(&mut self, now: Instant) {
        self.next = (self.next + self.every).max(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(clock: &mut Clock, now: Instant) -> usize {
        std::iter::from_fn(|| clock.step_due(now)).count()
    }

    #[test]
    fn steps_fall_due_one_per_step_of_real_time() {
        let t0 = Instant::now();
        let mut c = Clock::new(100, t0);
        assert_eq!(count(&mut c, t0), 1, "the first step is due at the start");
        assert_eq!(count(&mut c, t0 + Duration::from_millis(5)), 0);
        assert_eq!(count(&mut c, t0 + Duration::from_millis(100)), 10);
        // Due times are the schedule's, not when they were asked for.
        let mut c = Clock::new(100, t0);
        let due: Vec<Instant> =
            std::iter::from_fn(|| c.step_due(t0 + Duration::from_millis(30))).collect();
        assert_eq!(due.len(), 4);
        assert_eq!(due[3] - due[0], Duration::from_millis(30));
    }

    #[test]
    fn a_stall_makes_up_a_quarter_second_at_most() {
        let t0 = Instant::now();
        let mut c = Clock::new(120, t0);
        let stalled = t0 + Duration::from_secs(5);
        let n = count(&mut c, stalled);
        assert!((30..=31).contains(&n), "{n} steps after a 5 s stall");
        assert_eq!(count(&mut c, stalled), 0);
    }

    #[test]
    fn frames_keep_their_cadence_and_never_bunch_after_a_stall() {
        let t0 = Instant::now();
        let mut f = Cadence::new(20, t0);
        assert!(f.due(t0));
        // Drawn a little late: the next is still due on the beat.
        f.drawn(t0 + Duration::from_millis(10));
        assert_eq!(f.next_due(), t0 + Duration::from_millis(50));
        assert!(!f.due(t0 + Duration::from_millis(49)));
        // Far behind: due again from now, not a burst to catch up.
        let late = t0 + Duration::from_secs(3);
        f.drawn(late);
        assert_eq!(f.next_due(), late);
        f.drawn(late);
        assert_eq!(f.next_due(), late + f.every());
    }

    #[test]
    fn a_held_clock_owes_no_steps() {
        let t0 = Instant::now();
        let mut c = Clock::new(60, t0);
        count(&mut c, t0);
        let later = t0 + Duration::from_secs(2);
        c.hold(later);
        assert_eq!(count(&mut c, later), 0);
        let dt = c.dt();
        assert_eq!(count(&mut c, later + dt), 1);
        assert!((c.secs(later) - 2.0).abs() < 1e-9);
    }
}
