//! Which driving keys are held, from what a terminal sends (TERMINAL.md,
//! "Keys").
//!
//! Most terminals (and every SSH session through tmux, screen or mosh)
//! send presses and autorepeats but no releases: a press, a pause of
//! 250–600 ms, then repeats at 15–35 Hz, and only the most recently
//! pressed key repeats. So without releases a key counts as held until
//! [`FIRST_REPEAT`] after its press (bridging the initial pause), then
//! until [`AFTER_REPEAT`] after its latest repeat. When a second key is
//! pressed while one is held, the first stops repeating on the wire but is
//! most likely still down: it stays held as long as the newer key's stream
//! goes on (W held, then A: still throttle).
//!
//! Terminals with the kitty keyboard protocol send real releases. The first
//! release seen switches the tracker to trusting them: a key is then held
//! from its press to its release, and nothing is inferred. No start-up query
//! is needed, so nothing stalls when the terminal never answers one.
//!
//! Time is passed in (seconds since any fixed point), so this is tested
//! without a clock.

/// The keys that are held to drive.
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

const KEYS: usize = 9;

impl Key {
    fn index(self) -> usize {
        self as usize
    }
}

/// Seconds a key counts as held after its press, until a repeat is seen.
pub const FIRST_REPEAT: f64 = 0.6;
/// Seconds a key counts as held after one of its repeats.
pub const AFTER_REPEAT: f64 = 0.15;

#[derive(Debug, Clone, Copy, Default)]
struct State {
    down: bool,
    last: f64,
    repeated: bool,
    /// A newer key pressed while this one was held: this one stays held
    /// while that one is.
    anchor: Option<Key>,
}

/// The held keys.
#[derive(Debug, Clone, Default)]
pub struct Held {
    keys: [State; KEYS],
    /// Releases have been seen: trust them.
    explicit: bool,
}

impl Held {
    /// A press or an autorepeat of `key` at time `now`.
    pub fn press(&mut self, key: Key, now: f64) {
        if self.is_held(key, now) {
            let s = &mut self.keys[key.index()];
            s.last = now;
            s.repeated = true;
            return;
        }
        for other in ALL {
            if other != key && self.is_held(other, now) && self.keys[other.index()].anchor.is_none()
            {
                self.keys[other.index()].anchor = Some(key);
            }
        }
        self.keys[key.index()] = State {
            down: true,
            last: now,
            repeated: false,
            anchor: None,
        };
    }

    /// A release of `key` (kitty protocol only).
    pub fn release(&mut self, key: Key) {
        self.explicit = true;
        self.keys[key.index()] = State::default();
    }

    /// Every key up: focus lost, pause, a new race.
    pub fn release_all(&mut self) {
        self.keys = [State::default(); KEYS];
    }

    /// Whether releases are being reported.
    pub fn explicit(&self) -> bool {
        self.explicit
    }

    pub fn is_held(&self, key: Key, now: f64) -> bool {
        self.held_within(key, now, KEYS)
    }

    /// `depth` bounds the walk along anchors (a chain of newer keys).
    fn held_within(&self, key: Key, now: f64, depth: usize) -> bool {
        let s = &self.keys[key.index()];
        if !s.down {
            return false;
        }
        if self.explicit {
            return true;
        }
        let window = if s.repeated {
            AFTER_REPEAT
        } else {
            FIRST_REPEAT
        };
        if now - s.last <= window {
            return true;
        }
        match s.anchor {
            Some(newer) if depth > 0 && newer != key => self.held_within(newer, now, depth - 1),
            _ => false,
        }
    }

    /// Whether either of two keys is held.
    pub fn either(&self, a: Key, b: Key, now: f64) -> bool {
        self.is_held(a, now) || self.is_held(b, now)
    }
}

const ALL: [Key; KEYS] = [
    Key::Up,
    Key::Down,
    Key::Left,
    Key::Right,
    Key::W,
    Key::A,
    Key::S,
    Key::D,
    Key::Space,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal's autorepeat: a press at `from`, then repeats every
    /// `rate` seconds after a `delay`, until `until`.
    fn hold(h: &mut Held, key: Key, from: f64, delay: f64, rate: f64, until: f64) {
        h.press(key, from);
        let mut t = from + delay;
        while t <= until {
            h.press(key, t);
            t += rate;
        }
    }

    #[test]
    fn a_single_tap_is_held_across_the_first_repeat_delay_then_lets_go() {
        let mut h = Held::default();
        h.press(Key::W, 10.0);
        assert!(h.is_held(Key::W, 10.0));
        assert!(h.is_held(Key::W, 10.59), "bridges a 600 ms repeat delay");
        assert!(!h.is_held(Key::W, 10.61));
    }

    #[test]
    fn a_held_key_stays_held_through_its_repeats_and_drops_soon_after() {
        let mut h = Held::default();
        hold(&mut h, Key::Up, 0.0, 0.5, 1.0 / 30.0, 3.0);
        for t in [0.2, 0.45, 0.6, 1.5, 2.99] {
            assert!(h.is_held(Key::Up, t), "at {t}");
        }
        let last = 0.5 + ((3.0 - 0.5) * 30.0f64).floor() / 30.0;
        assert!(h.is_held(Key::Up, last + 0.14));
        assert!(
            !h.is_held(Key::Up, last + 0.16),
            "released within 150 ms of the last repeat"
        );
    }

    #[test]
    fn an_earlier_key_stays_held_while_a_newer_keys_stream_runs() {
        let mut h = Held::default();
        // W held from 0; at 1.0 A is pressed: W's repeats stop on the wire.
        hold(&mut h, Key::W, 0.0, 0.5, 1.0 / 30.0, 1.0);
        hold(&mut h, Key::A, 1.0, 0.5, 1.0 / 30.0, 4.0);
        for t in [1.2, 1.6, 2.5, 3.9] {
            assert!(h.is_held(Key::W, t), "throttle still on at {t}");
            assert!(h.is_held(Key::A, t));
        }
        // A let go at 4.0: both are up shortly after.
        assert!(!h.is_held(Key::A, 4.2));
        assert!(!h.is_held(Key::W, 4.2));
    }

    #[test]
    fn a_tap_of_another_key_keeps_the_held_one_until_the_tap_ends() {
        let mut h = Held::default();
        hold(&mut h, Key::Up, 0.0, 0.5, 1.0 / 30.0, 2.0);
        h.press(Key::Space, 2.0);
        assert!(
            h.is_held(Key::Up, 2.5),
            "anchored to the tap's 600 ms window"
        );
        assert!(!h.is_held(Key::Up, 2.7));
    }

    #[test]
    fn releases_switch_to_trusting_the_terminal() {
        let mut h = Held::default();
        h.press(Key::Left, 0.0);
        h.press(Key::Right, 0.1);
        h.release(Key::Right);
        assert!(h.explicit());
        assert!(!h.is_held(Key::Right, 0.1));
        assert!(
            h.is_held(Key::Left, 30.0),
            "held until released, however long"
        );
        h.release(Key::Left);
        assert!(!h.is_held(Key::Left, 30.0));
    }

    #[test]
    fn focus_lost_releases_everything() {
        let mut h = Held::default();
        hold(&mut h, Key::Up, 0.0, 0.5, 0.03, 2.0);
        h.press(Key::D, 2.0);
        h.release_all();
        assert!(!h.is_held(Key::Up, 2.0) && !h.is_held(Key::D, 2.0));
    }
}
