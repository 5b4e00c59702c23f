//! Which driving controls are held, from what a terminal sends
//! (TERMINAL.md, "Keys").
//!
//! Most terminals (and every SSH session through tmux, screen or mosh)
//! send presses and autorepeats but no releases: a press, a pause (the
//! repeat delay), then repeats at a steady rate, and only the most
//! recently pressed key repeats. Once a newer key is pressed, "the older
//! key is still down" and "the older key was let go" are the same bytes,
//! so no timing rule can tell them apart. The controls are designed for
//! that terminal by what each one means, so that what the car does always
//! follows from the last keys pressed:
//!
//! * **A key is held while it repeats.** After a press it counts as held
//!   for the terminal's repeat delay plus a margin, then for two repeat
//!   periods plus the margin after each repeat. Delay and rate are learned
//!   from the first key the player holds ([`Learner`]), in the menu or in
//!   the race; until then 600 ms and 150 ms are assumed. A tap therefore
//!   steers for one repeat delay: the shortest time in which a held key
//!   and a tapped one can be told apart.
//! * **A tap steers lightly** ([`Held::share`]): until its first repeat
//!   shows that a steering key is held, a press steers fully for
//!   [`TAP_FULL`] and then eases off, reaching [`TAP_EASED`] of full when
//!   the repeat delay ends; its repeats steer fully. A tap is then worth
//!   less than its length at full steer (0.43 s at a 500 ms delay) and
//!   ends at half, so waiting a tap out (rather than steering against it,
//!   which sets a sliding car weaving) costs less; a held key loses some
//!   steering until its first repeat, which the wheels' own turning rate
//!   partly hides. Measured by `tests/driving.rs` over repeat delays of
//!   0.3 to 0.6 s: with taps at full steer, the rear-driven `dynamic`
//!   lapped 5 to 31% slower without releases than with them; with this,
//!   within 8%.
//! * **An opposite wins at once**: brake against throttle, left against
//!   right, strafe left against strafe right.
//! * **Any other key ends a steering key at once.** Steering is always the
//!   key pressed last, the one that repeats; pressing a pedal after it
//!   straightens the wheel, and pressing the steering key again after the
//!   pedal steers on. (A tap of the pedal is also how a player ends a
//!   steering tap early.)
//! * **A pedal pressed before a steering key is kept while steering
//!   lasts** ([`Latch::WhileSteering`]): W then A is throttle through the
//!   turn; when no steering key repeats any more, the kept pedal lets go,
//!   and it does not come back when steering starts again. So nothing
//!   stays on once the player stops pressing keys. This holds for the
//!   throttle, the handbrake (Space then a steering key drifts), and the
//!   brake while it means reverse (at a crawl), to back out of a wall.
//!   The brake at speed is not kept: turning in ends it, as a brake
//!   released at the turn-in point.
//! * `strafe`'s hop is kept until Space is pressed again and let go
//!   ([`Latch::Always`]): bunny-hopping survives any turning.
//!
//! Terminals with the kitty keyboard protocol send real releases. The
//! first release seen switches the tracker to trusting them: a control is
//! then held from its press to its release, exactly, and nothing is
//! inferred or kept. No start-up query is needed, so nothing stalls when
//! the terminal never answers one.
//!
//! Time is passed in (seconds since any fixed point), so all of this is
//! tested without a clock.

/// A physical key that drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    W,
    A,
    S,
    D,
    Space,
}

impl Key {
    /// The driving key `name` is, if any: the arrows, W A S D, Space.
    pub fn of(name: crate::keys::KeyName) -> Option<Key> {
        use crate::keys::KeyName;
        Some(match name {
            KeyName::Up => Key::Up,
            KeyName::Down => Key::Down,
            KeyName::Left => Key::Left,
            KeyName::Right => Key::Right,
            KeyName::Space => Key::Space,
            KeyName::Char('w') => Key::W,
            KeyName::Char('a') => Key::A,
            KeyName::Char('s') => Key::S,
            KeyName::Char('d') => Key::D,
            _ => return None,
        })
    }

    /// The control this key drives: in `strafe` the letters strafe and
    /// the arrows turn; elsewhere both steer.
    pub fn action(self, strafe: bool) -> Action {
        match self {
            Key::Up | Key::W => Action::Throttle,
            Key::Down | Key::S => Action::Brake,
            Key::A if strafe => Action::StrafeLeft,
            Key::D if strafe => Action::StrafeRight,
            Key::Left | Key::A => Action::Left,
            Key::Right | Key::D => Action::Right,
            Key::Space => Action::Space,
        }
    }
}

/// What a control does when a newer key interrupts it in a terminal
/// without releases (see the module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Latch {
    /// Let go at once.
    #[default]
    No,
    /// Kept on while a steering key repeats, let go when steering ends.
    WhileSteering,
    /// Kept on until its opposite is pressed, or it is pressed again and
    /// let go.
    Always,
}

/// A control that is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Throttle,
    Brake,
    Left,
    Right,
    StrafeLeft,
    StrafeRight,
    /// Handbrake, or `strafe`'s hop.
    Space,
}

const ACTIONS: usize = 7;

impl Action {
    pub const ALL: [Action; ACTIONS] = [
        Action::Throttle,
        Action::Brake,
        Action::Left,
        Action::Right,
        Action::StrafeLeft,
        Action::StrafeRight,
        Action::Space,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// Steering or strafing: held only while its key repeats.
    pub fn steers(self) -> bool {
        matches!(
            self,
            Action::Left | Action::Right | Action::StrafeLeft | Action::StrafeRight
        )
    }

    /// The control that pressing this one lets go of.
    pub fn opposite(self) -> Option<Action> {
        Some(match self {
            Action::Throttle => Action::Brake,
            Action::Brake => Action::Throttle,
            Action::Left => Action::Right,
            Action::Right => Action::Left,
            Action::StrafeLeft => Action::StrafeRight,
            Action::StrafeRight => Action::StrafeLeft,
            Action::Space => return None,
        })
    }
}

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

    /// Seconds a key counts as held after one of its repeats.
    pub fn after_window(&self) -> f64 {
        2.0 * self.period + self.margin()
    }
}

/// Seconds a fresh press (not yet repeated, so perhaps a tap) steers
/// fully in a terminal without releases.
pub const TAP_FULL: f64 = 0.15;
/// The share of full steering a fresh press has eased to when its repeat
/// delay ends (linearly from [`TAP_FULL`]).
pub const TAP_EASED: f64 = 0.5;

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

#[derive(Debug, Clone, Copy, Default)]
struct State {
    /// Pressed and not yet let go (its window may still run out).
    down: bool,
    /// The latest press or repeat.
    last: f64,
    /// A repeat has been seen since the press.
    repeated: bool,
    /// Kept on after a newer key interrupted it.
    latched: bool,
}

/// The held controls.
#[derive(Debug, Clone, Default)]
pub struct Held {
    actions: [State; ACTIONS],
    /// The control pressed last: the only one whose key repeats.
    newest: Option<Action>,
    /// What each control does when interrupted (see the module's doc).
    latching: [Latch; ACTIONS],
    /// Releases have been seen: trust them.
    explicit: bool,
    repeat: Option<Repeat>,
    learner: Learner,
}

impl Held {
    /// A tracker in which the pedals and the handbrake are kept while
    /// steering (the race sets the brake's and Space's latch per model
    /// and speed).
    pub fn new() -> Held {
        let mut held = Held::default();
        held.set_latching(Action::Throttle, Latch::WhileSteering);
        held.set_latching(Action::Brake, Latch::WhileSteering);
        held.set_latching(Action::Space, Latch::WhileSteering);
        held
    }

    /// What `action` does when a newer key interrupts it.
    pub fn set_latching(&mut self, action: Action, latch: Latch) {
        self.latching[action.index()] = latch;
    }

    /// Whether a steering or strafe key is held by its repeats.
    fn steering(&self, now: f64) -> bool {
        Action::ALL
            .iter()
            .any(|&a| a.steers() && self.streaming(a, now))
    }

    /// Whether a latch keeps `action` on at `now`.
    fn latch_holds(&self, action: Action, now: f64) -> bool {
        self.actions[action.index()].latched
            && match self.latching[action.index()] {
                Latch::Always => true,
                Latch::WhileSteering => self.steering(now),
                Latch::No => false,
            }
    }

    /// Any key's press or repeat, for learning the terminal's repeat;
    /// `id` tells keys apart.
    pub fn observe(&mut self, id: u32, now: f64) {
        if let Some(m) = self.learner.event(id, now) {
            self.repeat = Some(match self.repeat {
                None => m,
                // Later runs refine the first, a quarter each.
                Some(r) => Repeat {
                    delay: r.delay + 0.25 * (m.delay - r.delay),
                    period: r.period + 0.25 * (m.period - r.period),
                    jitter: r.jitter + 0.25 * (m.jitter - r.jitter),
                },
            });
        }
    }

    /// The learned key repeat, if any.
    pub fn repeat(&self) -> Option<Repeat> {
        self.repeat
    }

    fn windows(&self) -> (f64, f64) {
        match self.repeat {
            Some(r) => (r.first_window(), r.after_window()),
            None => (ASSUMED_FIRST, ASSUMED_AFTER),
        }
    }

    /// Held by its own key's stream of repeats, latches aside.
    fn streaming(&self, a: Action, now: f64) -> bool {
        let s = &self.actions[a.index()];
        let (first, after) = self.windows();
        s.down && now - s.last <= if s.repeated { after } else { first }
    }

    /// A press or an autorepeat of a key that drives `action`, at `now`.
    pub fn press(&mut self, action: Action, now: f64) {
        if self.explicit {
            self.actions[action.index()].down = true;
            return;
        }
        if self.newest == Some(action) && self.streaming(action, now) {
            let s = &mut self.actions[action.index()];
            s.last = now;
            s.repeated = true;
            return;
        }
        // Latches that have run out stay out (steering that ended does
        // not bring a brake back when it starts again).
        for a in Action::ALL {
            if self.actions[a.index()].latched && !self.latch_holds(a, now) {
                self.actions[a.index()] = State::default();
            }
        }
        // A new press: the key before it stops repeating on the wire.
        if let Some(p) = self.newest.filter(|&p| p != action) {
            let latch = self.latching[p.index()] != Latch::No && self.streaming(p, now);
            let s = &mut self.actions[p.index()];
            if latch {
                s.latched = true;
            } else if !s.latched {
                *s = State::default();
            }
        }
        if let Some(o) = action.opposite() {
            self.actions[o.index()] = State::default();
        }
        self.actions[action.index()] = State {
            down: true,
            last: now,
            repeated: false,
            latched: false,
        };
        self.newest = Some(action);
    }

    /// A release of a key that drives `action` (kitty protocol only).
    pub fn release(&mut self, action: Action) {
        self.trust_releases();
        self.actions[action.index()] = State::default();
    }

    /// A release was seen, of any key: from now on holds are exact.
    pub fn trust_releases(&mut self) {
        if !self.explicit {
            self.explicit = true;
            for s in &mut self.actions {
                s.latched = false;
            }
        }
    }

    /// Every control up: focus lost, pause, a new race. What was learned
    /// of the terminal stays.
    pub fn release_all(&mut self) {
        self.actions = [State::default(); ACTIONS];
        self.newest = None;
    }

    /// Whether releases are being reported.
    pub fn explicit(&self) -> bool {
        self.explicit
    }

    pub fn is_held(&self, action: Action, now: f64) -> bool {
        let s = &self.actions[action.index()];
        if self.explicit {
            return s.down;
        }
        self.latch_holds(action, now) || self.streaming(action, now)
    }

    /// How much of `action` is asked for, 0 to 1: 1 while it is held,
    /// except a steering or strafe key in a terminal without releases
    /// between its press and its first repeat, which steers fully for
    /// [`TAP_FULL`] seconds and then eases linearly to [`TAP_EASED`] at
    /// the end of its first window (the module's "a tap steers lightly").
    pub fn share(&self, action: Action, now: f64) -> f64 {
        if !self.is_held(action, now) {
            return 0.0;
        }
        let s = &self.actions[action.index()];
        if self.explicit || s.repeated || !action.steers() {
            return 1.0;
        }
        let (first, _) = self.windows();
        let eased = ((now - s.last - TAP_FULL) / (first - TAP_FULL).max(1e-3)).clamp(0.0, 1.0);
        1.0 - (1.0 - TAP_EASED) * eased
    }

    /// Whether `action` is on by a latch, not by its key.
    pub fn latched(&self, action: Action, now: f64) -> bool {
        !self.explicit && self.latch_holds(action, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Action = Action::Throttle;
    const B: Action = Action::Brake;
    const L: Action = Action::Left;
    const R: Action = Action::Right;

    /// A terminal's autorepeat of one action: a press at `from`, then
    /// repeats every `rate` seconds after a `delay`, until `until`.
    fn hold(h: &mut Held, a: Action, from: f64, delay: f64, rate: f64, until: f64) {
        h.press(a, from);
        let mut t = from + delay;
        while t <= until {
            h.press(a, t);
            t += rate;
        }
    }

    #[test]
    fn a_single_tap_is_held_across_the_assumed_repeat_delay_then_lets_go() {
        let mut h = Held::new();
        h.press(L, 10.0);
        assert!(h.is_held(L, 10.0));
        assert!(h.is_held(L, 10.59), "bridges a 600 ms repeat delay");
        assert!(!h.is_held(L, 10.61));
    }

    #[test]
    fn a_held_key_stays_held_through_its_repeats_and_drops_soon_after() {
        let mut h = Held::new();
        hold(&mut h, R, 0.0, 0.5, 1.0 / 30.0, 3.0);
        for t in [0.2, 0.45, 0.6, 1.5, 2.99] {
            assert!(h.is_held(R, t), "at {t}");
        }
        let last = 0.5 + ((3.0 - 0.5) * 30.0f64).floor() / 30.0;
        assert!(h.is_held(R, last + 0.14));
        assert!(!h.is_held(R, last + 0.16), "let go 150 ms after the last");
    }

    #[test]
    fn the_repeat_is_learned_from_the_first_held_key() {
        let mut l = Learner::default();
        let mut got = None;
        for (i, t) in [
            0.0, 0.25, 0.27, 0.29, 0.31, 0.33, 0.35, 0.37, 0.39, 0.41, 0.43,
        ]
        .into_iter()
        .enumerate()
        {
            let m = l.event(7, t);
            match i.cmp(&9) {
                std::cmp::Ordering::Less => {
                    assert_eq!(m, None, "not before {} repeats", Learner::RUN);
                }
                std::cmp::Ordering::Equal => got = m,
                std::cmp::Ordering::Greater => assert_eq!(m, None, "once per run"),
            }
        }
        let r = got.expect("learned");
        assert!((r.delay - 0.25).abs() < 1e-9 && (r.period - 0.02).abs() < 1e-9);
        assert!(r.jitter < 1e-9);
        // Windows: the delay and two periods, each plus 25 ms.
        assert!((r.first_window() - 0.275).abs() < 1e-9);
        assert!((r.after_window() - 0.065).abs() < 1e-9);
    }

    #[test]
    fn typing_and_double_taps_teach_nothing() {
        let mut l = Learner::default();
        // A key tapped at 8 Hz: no pause before a fast run.
        for i in 0..20 {
            assert_eq!(l.event(1, f64::from(i) * 0.125), None);
        }
        // Keys in turn: each a new stream.
        for i in 0..20 {
            assert_eq!(l.event(i % 2, f64::from(i) * 0.03), None);
        }
    }

    #[test]
    fn with_a_learned_repeat_a_tap_steers_for_one_delay() {
        let mut h = Held::new();
        for i in 0..12 {
            h.observe(
                3,
                if i == 0 {
                    0.0
                } else {
                    0.2 + f64::from(i - 1) * 0.025
                },
            );
        }
        let r = h.repeat().expect("learned");
        assert!((r.delay - 0.2).abs() < 1e-9);
        h.press(L, 5.0);
        assert!(h.is_held(L, 5.2));
        assert!(!h.is_held(L, 5.23), "a 200 ms delay: held 225 ms");
    }

    #[test]
    fn an_opposite_wins_at_once() {
        let mut h = Held::new();
        hold(&mut h, T, 0.0, 0.5, 0.03, 2.0);
        h.press(B, 2.01);
        assert!(h.is_held(B, 2.01) && !h.is_held(T, 2.01));
        hold(&mut h, R, 3.0, 0.5, 0.03, 4.0);
        h.press(L, 4.0);
        assert!(h.is_held(L, 4.0) && !h.is_held(R, 4.0));
    }

    #[test]
    fn the_throttle_is_kept_while_steering_and_ends_with_it() {
        let mut h = Held::new();
        hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
        hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
        assert!(h.is_held(T, 1.5) && h.latched(T, 1.5));
        assert!(h.is_held(T, 2.0), "while A repeats");
        assert!(!h.is_held(T, 2.2) && !h.latched(T, 2.2), "steering ended");
        // Steering again later does not bring the throttle back.
        hold(&mut h, R, 5.0, 0.5, 0.03, 6.0);
        assert!(!h.is_held(T, 5.5) && !h.is_held(T, 5.0));
    }

    #[test]
    fn the_brake_ends_a_kept_throttle_at_once() {
        let mut h = Held::new();
        hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
        hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
        h.press(B, 1.8);
        assert!(!h.is_held(T, 1.8) && h.is_held(B, 1.8));
        assert!(!h.is_held(L, 1.8), "and the steering, pressed before it");
    }

    #[test]
    fn switching_steering_keys_keeps_the_throttle() {
        let mut h = Held::new();
        hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
        hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
        hold(&mut h, R, 2.02, 0.5, 0.03, 3.0);
        assert!(h.is_held(T, 2.5) && h.is_held(T, 3.0));
        assert!(!h.is_held(T, 3.3));
    }

    #[test]
    fn an_interrupted_steering_key_lets_go_at_once() {
        let mut h = Held::new();
        hold(&mut h, R, 0.0, 0.5, 0.03, 1.0);
        h.press(T, 1.0);
        assert!(!h.is_held(R, 1.0));
        assert!(h.is_held(T, 1.0));
    }

    #[test]
    fn a_tap_of_w_then_steering_keeps_the_throttle_while_steering() {
        let mut h = Held::new();
        h.press(T, 0.0);
        hold(&mut h, L, 0.1, 0.5, 0.03, 1.0);
        assert!(h.is_held(T, 0.9) && h.latched(T, 0.9));
    }

    #[test]
    fn a_brake_at_speed_is_not_kept_but_the_handbrake_is() {
        let mut h = Held::new();
        h.set_latching(B, Latch::No);
        hold(&mut h, B, 0.0, 0.5, 0.03, 1.0);
        h.press(L, 1.0);
        assert!(!h.is_held(B, 1.0), "turning in ends the brake");
        hold(&mut h, Action::Space, 2.0, 0.5, 0.03, 3.0);
        hold(&mut h, R, 3.0, 0.5, 0.03, 4.0);
        assert!(h.is_held(Action::Space, 3.9), "a handbrake drift");
        assert!(!h.is_held(Action::Space, 4.3));
    }

    #[test]
    fn latching_can_be_given_to_other_controls() {
        let mut h = Held::new();
        h.set_latching(Action::Space, Latch::Always);
        hold(&mut h, Action::Space, 0.0, 0.5, 0.03, 1.0);
        hold(&mut h, R, 1.0, 0.5, 0.03, 2.0);
        assert!(h.is_held(Action::Space, 3.0), "hopping survives turning");
        h.set_latching(Action::Space, Latch::No);
        h.press(Action::Space, 4.0);
        h.press(L, 4.1);
        assert!(!h.is_held(Action::Space, 4.1));
    }

    #[test]
    fn releases_switch_to_trusting_the_terminal() {
        let mut h = Held::new();
        h.press(T, 0.0);
        h.press(L, 0.05);
        h.press(R, 0.1);
        h.release(R);
        assert!(h.explicit());
        assert!(!h.is_held(R, 0.1));
        assert!(h.is_held(T, 30.0), "held until released, however long");
        assert!(!h.latched(T, 99.0), "exact: nothing latches");
        h.release(T);
        assert!(!h.is_held(T, 30.0));
        h.press(T, 31.0);
        h.press(B, 31.0);
        assert!(h.is_held(T, 31.0) && h.is_held(B, 31.0), "both pedals");
    }

    #[test]
    fn focus_lost_releases_everything() {
        let mut h = Held::new();
        hold(&mut h, T, 0.0, 0.5, 0.03, 2.0);
        h.press(R, 2.0);
        h.release_all();
        assert!(!h.is_held(T, 2.0) && !h.is_held(R, 2.0));
    }
}
