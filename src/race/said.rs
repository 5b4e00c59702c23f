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
    /// `t` in a race whose aid is off (a room's host's choice).
    AidNotAllowed,
    /// `g` with no lap to show as a ghost yet.
    NoGhost,
    /// `v` while still racing: it follows other cars once done.
    StillRacing,
    /// `v` with no other car in the race to follow.
    NoOtherCar,
}

/// What a seat has said lately, each with the tick it was said at: at
/// most one of each kind (a newer `t` answer replaces the last).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sayings(Vec<(Said, u64)>);

impl Sayings {
    /// Says `said` from tick `at` on. An answer of `t` also ends the
    /// aid's first word, which it may have just made untrue.
    pub fn say(&mut self, said: Said, at: u64) {
        let ends = |s: Said| {
            s.kind() == said.kind() || (said.kind() == Kind::AidKey && s == Said::AidStarts)
        };
        self.0.retain(|&(s, _)| !ends(s));
        self.0.push((said, at));
    }

    /// Each saying with its tick, the oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (Said, u64)> + '_ {
        self.0.iter().copied()
    }
}

/// What a saying answers: one of each shows at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    AidFirst,
    AidKey,
    GhostKey,
    FollowKey,
}

impl Said {
    fn kind(self) -> Kind {
        match self {
            Said::AidStarts => Kind::AidFirst,
            Said::AidOff | Said::AidOn | Said::AidNotNeeded | Said::AidNotAllowed => Kind::AidKey,
            Said::NoGhost => Kind::GhostKey,
            Said::StillRacing | Said::NoOtherCar => Kind::FollowKey,
        }
    }

    /// How long it shows, seconds of race time.
    pub fn seconds(self) -> f64 {
        match self {
            Said::AidStarts => 6.0,
            _ => 2.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_answer_replaces_the_last_and_t_ends_the_aids_first_word() {
        let mut said = Sayings::default();
        said.say(Said::AidStarts, 1);
        said.say(Said::NoGhost, 2);
        said.say(Said::NoGhost, 3);
        assert_eq!(
            said.iter().collect::<Vec<_>>(),
            [(Said::AidStarts, 1), (Said::NoGhost, 3)]
        );
        said.say(Said::AidOff, 4);
        said.say(Said::AidOn, 5);
        assert_eq!(
            said.iter().collect::<Vec<_>>(),
            [(Said::NoGhost, 3), (Said::AidOn, 5)]
        );
    }
}
