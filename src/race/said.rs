//! What a seat's own keys, and its steering aid, say back to its person
//! for a moment over the track: that a key did something, or why it did
//! nothing. The words are the screen's (`ui::overlay`); the race says
//! only what happened, and when.

/// Something a seat says once, from a tick on, for [`Said::seconds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// The steering aid steered for the first time in this race: what it
    /// does and how to turn it off.
    AidStarts,
    /// `t`: the aid is off now.
    AidOff,
    /// `t`: the aid is on again.
    AidOn,
    /// `t` where the keyboard sends key releases: the aid is not for it.
    AidNotNeeded,
    /// `g` with no lap to show as a ghost yet.
    NoGhost,
}

impl Said {
    /// How long it shows, seconds of race time.
    pub fn seconds(self) -> f64 {
        match self {
            Said::AidStarts => 6.0,
            _ => 2.5,
        }
    }
}
