//! Which driving controls are held, from what a terminal sends
//! (docs/TERMINAL.md, "Keys").
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
//!   and a tapped one can be told apart. The same key again sooner after
//!   its press than a learned delay lets its first repeat come is no
//!   repeat but the key pressed again (below).
//! * **A tap steers lightly** ([`Held::share`]): until its first repeat
//!   shows that a steering key is held, a press steers fully for a moment
//!   and then eases off ([`Tap`]): in most models to half by the end of
//!   the repeat delay ([`Tap::FIRM`]), in `arcade`, whose corners want
//!   full lock, to 0.6 ([`Tap::ARCADE`]), in the rear-driven `dynamic`
//!   at low speed, where a long tap near full lock sets it sliding, to 0.3
//!   within 0.2 s ([`Tap::LIGHT`]; the game picks per tick). A tap is
//!   then worth less than its length at full steer, so waiting it out
//!   (rather than steering against it, which sets the car weaving) costs
//!   less.
//! * **A key pressed again is held**: a steering key pressed again within
//!   [`AGAIN`] of its last press or repeat, with no opposite key between
//!   and no other key since its steering ended, steers fully at once, as a
//!   repeating one does. A player whose key stopped steering while they
//!   hold it presses it again; the terminal's repeat then starts over, so
//!   waiting for it would cost another delay.
//! * **An opposite wins at once**: brake against throttle, left against
//!   right, strafe left against strafe right.
//! * **The throttle stays on until you brake** ([`Latch::Always`]): once
//!   another key interrupts W's repeats, the throttle is kept, whatever is
//!   pressed after it and in whatever order, until S is pressed, or W is
//!   pressed again and let go (its repeats end: the one case in which a
//!   let-go is seen). Holding W through a corner is the commonest thing a
//!   racer does, and the one thing such a terminal cannot show: every
//!   steering key silences W on the wire. Mobile racers' auto-accelerate
//!   is the same aid.
//! * **Steering survives a pedal pressed after it** ([`Latch::Briefly`]):
//!   a steering key whose repeats a pedal (or Space) interrupts steers on
//!   for one repeat delay, as a tap would; one shown to be held (it
//!   repeated, or was pressed again) steers on, too, as long as the key
//!   that interrupted it is held (its repeats go on). So D held, then W,
//!   steers through the corner with the throttle on. Once the pedal's
//!   repeats stop (it was let go), steering goes on for one repeat delay
//!   more, time for a player who still holds its key to press it again
//!   (S let go, D held, W pressed: the corner goes on), then ends unless
//!   its key is pressed again; nothing can tell a held steering key from
//!   a let-go one once its repeats stop, so steering always ends by
//!   itself.
//! * **The brake is kept briefly through turning in** ([`Latch::Briefly`]):
//!   at speed, a steering key pressed while braking leaves the brake on
//!   for one repeat delay after its last press or repeat (braking into a
//!   corner), then it ends unless S is pressed again. At a crawl, where
//!   the brake means reverse, it is kept while steering lasts
//!   ([`Latch::WhileSteering`]), to back out of a wall; so is the
//!   handbrake (Space then a steering key drifts), until steering turns
//!   the other way to catch the slide. They let go when no steering key
//!   repeats any more, and do not come back when steering starts again.
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

mod action;
pub mod keyboard;
pub mod keys;
mod repeat;

use action::ACTIONS;
pub use action::{Action, Key, Latch};
pub use repeat::{AGAIN, ASSUMED_AFTER, ASSUMED_FIRST, Learner, Repeat, Tap};

/// What a key's events have shown of its hold since its press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Shown {
    /// A press only: perhaps a tap.
    #[default]
    Press,
    /// Pressed again soon after its last press or repeat ([`AGAIN`]):
    /// held, its terminal's repeat started over.
    Again,
    /// Its repeats: held.
    Repeats,
}

#[derive(Debug, Clone, Copy, Default)]
struct State {
    /// Pressed and not yet let go (its window may still run out).
    down: bool,
    /// The latest press or repeat.
    last: f64,
    shown: Shown,
    /// Kept on after a newer key interrupted it, by the latch its control
    /// had then, and only while it has that latch: a brake kept into a
    /// corner at speed does not become a reverse kept while steering once
    /// the car is down to a crawl.
    kept: Option<Latch>,
}

impl State {
    /// Shown to be held, not perhaps a tap.
    fn proven(&self) -> bool {
        self.shown != Shown::Press
    }
}

/// The held controls.
#[derive(Debug, Clone, Default)]
pub struct Held {
    actions: [State; ACTIONS],
    /// The control pressed last: the only one whose key repeats.
    newest: Option<Action>,
    /// What each control does when interrupted (see the module's doc).
    latching: [Latch; ACTIONS],
    /// How a fresh steering press steers.
    tap: Tap,
    /// The way the car was steered when the handbrake went on (or first
    /// after): steering the other way lets a kept handbrake go.
    drift: Option<Action>,
    /// Releases have been seen: trust them.
    explicit: bool,
    repeat: Option<Repeat>,
    learner: Learner,
}

impl Held {
    /// A tracker in which the throttle is kept until the brake, steering
    /// briefly, and the brake and the handbrake while steering (the race
    /// sets the brake's and Space's latch per model and speed).
    pub fn new() -> Held {
        let mut held = Held::default();
        held.set_latching(Action::Throttle, Latch::Always);
        for a in [
            Action::Left,
            Action::Right,
            Action::StrafeLeft,
            Action::StrafeRight,
        ] {
            held.set_latching(a, Latch::Briefly);
        }
        held.set_latching(Action::Brake, Latch::WhileSteering);
        held.set_latching(Action::Space, Latch::WhileSteering);
        held
    }

    /// What `action` does when a newer key interrupts it.
    pub fn set_latching(&mut self, action: Action, latch: Latch) {
        self.latching[action.index()] = latch;
    }

    /// How a fresh steering press steers ([`Tap::FIRM`] unless set).
    pub fn set_tap(&mut self, tap: Tap) {
        self.tap = tap;
    }

    /// Whether the newest key is a pedal or Space whose repeats go on or
    /// ended at most one repeat delay ago: steering shown to be held is
    /// kept while they go on and for that delay after, in which a player
    /// who let go of the pedal but still holds the steering key (which
    /// does not repeat again by itself) presses it again.
    fn pedal_lately(&self, now: f64) -> bool {
        self.newest.is_some_and(|n| {
            let s = &self.actions[n.index()];
            !n.steers() && s.down && now - s.last <= self.window(s) + self.windows().0
        })
    }

    /// Whether a steering or strafe key is held by its repeats.
    fn steering(&self, now: f64) -> bool {
        Action::ALL
            .iter()
            .any(|&a| a.steers() && self.streaming(a, now))
    }

    /// Whether a latch keeps `action` on at `now`.
    fn latch_holds(&self, action: Action, now: f64) -> bool {
        let s = &self.actions[action.index()];
        // Kept by the latch it had when interrupted, while it still has it.
        match s.kept.filter(|&k| k == self.latching[action.index()]) {
            None | Some(Latch::No) => false,
            Some(Latch::Always) => true,
            Some(Latch::WhileSteering) => self.steering(now),
            Some(Latch::Briefly) => {
                now - s.last <= self.windows().0
                    || (action.steers() && s.proven() && self.pedal_lately(now))
            }
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

    /// How long after its latest press or repeat a key counts as held
    /// by its own stream: the first window until it repeats.
    fn window(&self, s: &State) -> f64 {
        let (first, after) = self.windows();
        if s.shown == Shown::Repeats {
            after
        } else {
            first
        }
    }

    /// Held by its own key's stream of repeats, latches aside.
    fn streaming(&self, a: Action, now: f64) -> bool {
        let s = &self.actions[a.index()];
        s.down && now - s.last <= self.window(s)
    }

    /// A press or an autorepeat of a key that drives `action`, at `now`.
    pub fn press(&mut self, action: Action, now: f64) {
        if self.explicit {
            self.actions[action.index()].down = true;
            return;
        }
        // The newest key again while it is held: its repeat, unless it
        // comes sooner after a press than the terminal's first repeat can
        // (a learned delay), which is the key let go and pressed again.
        let s = &self.actions[action.index()];
        let early = s.shown != Shown::Repeats
            && self
                .repeat
                .is_some_and(|r| now - s.last < r.first_earliest());
        if self.newest == Some(action) && self.streaming(action, now) && !early {
            let s = &mut self.actions[action.index()];
            s.last = now;
            s.shown = Shown::Repeats;
            return;
        }
        // Pressed again soon, with no other key pressed since its steering
        // ended (which lets it go): it is held.
        let before = self.actions[action.index()];
        let again = before.down && now - before.last <= AGAIN;
        // Latches that have run out stay out (steering that ended does
        // not bring a brake back when it starts again).
        for a in Action::ALL {
            if self.actions[a.index()].kept.is_some() && !self.latch_holds(a, now) {
                self.actions[a.index()] = State::default();
            }
        }
        // A new press: the key before it stops repeating on the wire.
        if let Some(p) = self.newest.filter(|&p| p != action) {
            let latch = self.latching[p.index()];
            let keep = latch != Latch::No && self.streaming(p, now);
            let s = &mut self.actions[p.index()];
            if keep {
                s.kept = Some(latch);
            } else if s.kept.is_none() {
                *s = State::default();
            }
        }
        self.catch_drift(action, now);
        if let Some(o) = action.opposite() {
            self.actions[o.index()] = State::default();
        }
        self.actions[action.index()] = State {
            down: true,
            last: now,
            shown: if again && action.steers() {
                Shown::Again
            } else {
                Shown::Press
            },
            kept: None,
        };
        self.newest = Some(action);
    }

    /// The handbrake's side of a press of `action` at `now`, before it
    /// is held: Space notes the way the car is being steered, if it is
    /// (else the first steering key after it does); a handbrake kept
    /// while steering lets go when steering turns the other way, which
    /// catches the slide it started.
    fn catch_drift(&mut self, action: Action, now: f64) {
        if action == Action::Space {
            self.drift = [Action::Left, Action::Right]
                .into_iter()
                .find(|&a| self.is_held(a, now));
        } else if matches!(action, Action::Left | Action::Right) {
            let space = &mut self.actions[Action::Space.index()];
            if space.kept != Some(Latch::WhileSteering) {
                return;
            }
            match self.drift {
                Some(d) if Some(d) == action.opposite() => *space = State::default(),
                Some(_) => {}
                None => self.drift = Some(action),
            }
        }
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
                s.kept = None;
            }
        }
    }

    /// One key event as a terminal sends it: a release (releases are
    /// trusted from then on) lets `action` go; a press or repeat of the key
    /// `id` at `now` teaches the key repeat ([`Learner`]) and holds
    /// `action`. `action` is none for a key that drives nothing, which
    /// still teaches.
    pub fn key(&mut self, action: Option<Action>, release: bool, id: u32, now: f64) {
        if release {
            self.trust_releases();
            if let Some(a) = action {
                self.release(a);
            }
        } else {
            self.observe(id, now);
            if let Some(a) = action {
                self.press(a, now);
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
    /// between its press and its first repeat, unless it was pressed again
    /// ([`AGAIN`]): that steers as the [`Tap`] set says (the module's "a
    /// tap steers lightly").
    pub fn share(&self, action: Action, now: f64) -> f64 {
        if !self.is_held(action, now) {
            return 0.0;
        }
        let s = &self.actions[action.index()];
        if self.explicit || s.proven() || !action.steers() {
            return 1.0;
        }
        let (first, _) = self.windows();
        self.tap.share(now - s.last, first)
    }

    /// Whether `action` is on by a latch, not by its key.
    pub fn latched(&self, action: Action, now: f64) -> bool {
        !self.explicit && self.latch_holds(action, now)
    }
}

#[cfg(test)]
mod tests;
