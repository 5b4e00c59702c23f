//! What a person's key events do, whichever front door they came through
//! (the local game in `app`, `skid serve`'s hub): one place for both, so
//! that a fix lands for both.
//!
//! * A driving key holds its control in their seat while they drive; a
//!   release lets it go at any time (a key let go while the help is open
//!   or the game paused is not left held). Every other key event only
//!   teaches their terminal's key repeat: to their seat's keys while they
//!   have one, else to their session's, which their next seat takes
//!   ([`crate::race::Entry::held`]).
//! * Focus lost lets every key go.
//!
//! (A seat's own commands, gears, the ghost and the like, go straight to
//! [`Race::seat_command`] from either door.)
//!
//! When a person drives is each door's to say (`drives`): locally while
//! the race runs unpaused with no help over it, on a server while their
//! car races and their help is closed.

use crate::input::Key;
use crate::race::Race;
use crate::race::session::Session;
use crate::race::world::CarId;

/// A person at their screen, with the race they have a seat in and
/// their car there, if any.
pub struct Person<'a> {
    pub session: &'a mut Session,
    pub seat: Option<(&'a mut Race, CarId)>,
}

impl Person<'_> {
    /// A key event: `key` if it drives, a release or a press (or a
    /// repeat), `id` telling keys apart, `now` seconds into the run;
    /// `drives` whether a press drives their car now.
    pub fn key(self, key: Option<Key>, release: bool, id: u32, now: f64, drives: bool) {
        if let Some((race, car)) = self.seat {
            let action = race
                .view(car)
                .and_then(|v| key.filter(|_| release || drives).map(|k| v.action(k)));
            if let Some(seat) = race.seat_mut(car) {
                seat.held.key(action, release, id, now);
                return;
            }
        }
        self.session.held.key(None, release, id, now);
    }

    /// Their screen lost focus: every key they held is let go (a key let
    /// go elsewhere sends nothing here).
    pub fn focus_lost(self) {
        self.session.held.release_all();
        if let Some(seat) = (self.seat).and_then(|(race, car)| race.seat_mut(car)) {
            seat.held.release_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Action;
    use crate::physics::ModelKind;
    use crate::race::world::{FIRST, World};

    fn race() -> Race {
        let track = crate::track::bundled::load_raceable("pocket")
            .unwrap()
            .into_track();
        let spec = crate::physics::car::CarSpec::default_for(ModelKind::Arcade);
        Race::new(
            World::new(track, spec, ModelKind::Arcade, 120),
            1,
            None,
            None,
        )
    }

    /// The same rules whoever calls: a press drives only while the door
    /// says so, a release (kitty protocol) always lets go, focus lost
    /// lets everything go, and a person with no seat only teaches.
    #[test]
    fn keys_drive_the_seat_only_while_driving_and_always_let_go() {
        let (mut race, mut session) = (race(), Session::new((80, 24)));
        let throttle = |race: &Race| {
            race.seat(FIRST)
                .unwrap()
                .held
                .is_held(Action::Throttle, 0.1)
        };
        let mut person = |race: &mut Race, key, release, drives| {
            let seat = Some((race, FIRST));
            Person {
                session: &mut session,
                seat,
            }
            .key(Some(key), release, 1, 0.0, drives);
        };
        person(&mut race, Key::W, false, false);
        assert!(!throttle(&race), "not driving: a press holds nothing");
        person(&mut race, Key::W, false, true);
        assert!(throttle(&race));
        person(&mut race, Key::W, true, false);
        assert!(!throttle(&race), "a release lets go even when not driving");
        person(&mut race, Key::W, false, true);
        let seat = Some((&mut race, FIRST));
        Person {
            session: &mut session,
            seat,
        }
        .focus_lost();
        assert!(!throttle(&race), "focus lost lets go");
        // No seat: the session's keys only learn.
        Person {
            session: &mut session,
            seat: None,
        }
        .key(Some(Key::W), false, 1, 0.0, true);
        assert!(!session.held.is_held(Action::Throttle, 0.0));
    }
}
