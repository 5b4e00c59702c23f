//! A terminal's key repeat, learned from the keys a player holds
//! (docs/TERMINAL.md: delays of 200 to 660 ms, rates of 15 to 50 Hz).

/// A terminal's key repeat: the pause before the first repeat, the time
/// between repeats, and how much those wander (over SSH, the network's
/// jitter), all in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Repeat {
    pub delay: f64,
    pub period: f64,
    pub jitter: f64,
}

impl Repeat {
    /// Allowance for lateness: three times the jitter, 25 to 100 ms.
    fn margin(&self) -> f64 {
        (3.0 * self.jitter).clamp(0.025, 0.1)
    }

    /// Seconds a fresh press counts as held while its first repeat may
    /// still come.
    pub fn first_window(&self) -> f64 {
        self.delay + self.margin()
    }

    /// Seconds after a press before which its first repeat cannot come:
    /// the same key sooner than that was pressed again.
    pub fn first_earliest(&self) -> f64 {
        self.delay - self.margin()
    }

    /// Seconds a key counts as held after one of its repeats.
    pub fn after_window(&self) -> f64 {
        2.0 * self.period + self.margin()
    }
}

/// How much a fresh steering press (not yet repeated, so perhaps a tap)
/// steers in a terminal without releases: fully for `full` seconds, then
/// easing linearly to `eased` of full at `ease_end` seconds after the
/// press (with none, at the end of its repeat delay), and no less until
/// the delay ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tap {
    pub full: f64,
    pub eased: f64,
    pub ease_end: Option<f64>,
}

impl Default for Tap {
    fn default() -> Tap {
        Tap::FIRM
    }
}

impl Tap {
    /// Full for 0.15 s, half by the end of the repeat delay: a tap is worth
    /// 0.43 s of full steering at a 500 ms delay.
    pub const FIRM: Tap = Tap {
        full: 0.15,
        eased: 0.5,
        ease_end: None,
    };
    /// Full for 0.15 s, to 0.6 by the end of the repeat delay: `arcade`
    /// turns on one radius at any speed, so its corners want full lock
    /// throughout, and a tap that eases less loses less of them
    /// (in docs/BENCHMARKS.md's git history, "Presses alone, again").
    pub const ARCADE: Tap = Tap {
        full: 0.15,
        eased: 0.6,
        ease_end: None,
    };
    /// Full for 0.05 s, down to 0.3 by 0.2 s: a tap is worth about 0.2 s
    /// of full steering, for a car that a long tap sets sliding.
    pub const LIGHT: Tap = Tap {
        full: 0.05,
        eased: 0.3,
        ease_end: Some(0.2),
    };

    /// The share of full steering `since` seconds after the press, for a
    /// repeat delay window of `first` seconds.
    pub fn share(&self, since: f64, first: f64) -> f64 {
        let end = self.ease_end.unwrap_or(first);
        let eased = ((since - self.full) / (end - self.full).max(1e-3)).clamp(0.0, 1.0);
        1.0 - (1.0 - self.eased) * eased
    }
}

/// Seconds within which a steering key pressed again counts as held: a
/// player holding a key whose steering stopped presses it again.
pub const AGAIN: f64 = 1.0;

/// Seconds held after a press before any repeat has been learned: longer
/// than most terminals' repeat delay.
pub const ASSUMED_FIRST: f64 = 0.6;
/// Seconds held after a repeat before any repeat has been learned.
pub const ASSUMED_AFTER: f64 = 0.15;

/// Learns a terminal's [`Repeat`] from the stream of key events: one key's
/// press, a pause of 0.1 to 1 s, then at least [`Learner::RUN`] repeats
/// at a steady rate between 10 and 70 Hz. Any key counts, in the menu too.
#[derive(Debug, Clone, Default)]
pub struct Learner {
    key: Option<u32>,
    last: f64,
    first: Option<f64>,
    gaps: Vec<f64>,
}

impl Learner {
    /// Repeats seen before a rate is trusted.
    pub const RUN: usize = 8;

    /// One press or repeat of the key `id` at `now`; returns a measurement
    /// when a run of repeats completes one.
    pub fn event(&mut self, id: u32, now: f64) -> Option<Repeat> {
        let gap = now - self.last;
        self.last = now;
        if self.key != Some(id) || !(0.0..=1.0).contains(&gap) {
            self.key = Some(id);
            self.first = None;
            self.gaps.clear();
            return None;
        }
        let Some(first) = self.first else {
            self.first = Some(gap);
            return None;
        };
        if self.gaps.len() >= Self::RUN {
            return None;
        }
        self.gaps.push(gap);
        if self.gaps.len() < Self::RUN {
            return None;
        }
        let mut sorted = self.gaps.clone();
        sorted.sort_by(f64::total_cmp);
        let period = sorted[sorted.len() / 2];
        let jitter = self.gaps.iter().map(|g| (g - period).abs()).sum::<f64>() / Self::RUN as f64;
        let steady = (1.0 / 70.0..=0.1).contains(&period) && jitter < 0.5 * period;
        (steady && (0.1..=1.0).contains(&first) && first > 2.0 * period).then_some(Repeat {
            delay: first,
            period,
            jitter,
        })
    }
}
