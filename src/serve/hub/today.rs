//! Today's track on the hub (`super::super::daily`): the next day's,
//! made off the hub ahead of midnight, kept with its medals asked of the
//! book's worker; put first among the tracks when the day turns, the
//! day's before second. Rooms on either follow them; a race running
//! keeps its own.

use crate::base::day::Day;
use crate::physics::ModelKind;
use crate::physics::car::CarSpec;
use crate::race::Menu;
use crate::race::medals::book::Book;

use crate::race::setup::daily_label;

use super::super::daily::Turns;
use super::{Hub, Offered};

impl Hub {
    /// The hub offers `today`'s track and yesterday's, the first of its
    /// tracks (`daily::SLOTS`), from now: today's is the lobby's first row,
    /// and both turn at [`ToHub::DayTurned`]; today's medals are asked
    /// for at once (worked out on the book's thread).
    ///
    /// [`ToHub::DayTurned`]: super::ToHub::DayTurned
    pub fn offer_today(&mut self, today: Day) {
        self.daily = Some(Turns { today, next: None });
        warm_medals(&mut self.medals, &self.cars, &self.tracks[0]);
    }

    /// The next day's track, `offered`, for `day`: kept until midnight,
    /// its medals for each model's own car asked for now (worked out on
    /// the book's thread before anyone races it).
    pub(super) fn tomorrow(&mut self, day: Day, offered: Offered) {
        let Some(turns) = &mut self.daily else {
            return;
        };
        warm_medals(&mut self.medals, &self.cars, &offered);
        eprintln!("skid serve: {day}'s track is made: {}", offered.choice.name);
        turns.next = Some((day, offered));
    }

    /// Midnight: `day`'s track, made before, is today's, and today's
    /// yesterday's; the lobby and the rooms on either show them now (a
    /// race running keeps its own).
    pub(super) fn day_turned(&mut self, day: Day) {
        let Some(turns) = &mut self.daily else {
            return;
        };
        match turns.next.take() {
            Some((made, offered)) if made == day => {
                eprintln!("skid serve: the day turned: {}", offered.choice.name);
                // Today's is yesterday's now, named by its date.
                let mut was = std::mem::replace(&mut self.tracks[0], offered);
                let name = &was.choice.track.track().name;
                was.choice.name = daily_label(turns.today, day, name);
                self.tracks[1] = was;
                turns.today = day;
                self.lobby_changed();
            }
            other => {
                eprintln!("skid serve: the day turned, but {day}'s track was not made");
                turns.next = other;
            }
        }
    }
}

/// Asks `book` for `offered`'s medals with each model's own car (of
/// `cars`), the settings a room on it begins with.
pub(super) fn warm_medals(book: &mut Book, cars: &[(String, CarSpec)], offered: &Offered) {
    for model in ModelKind::ALL {
        let setup = Menu::new(0, model).setup(&offered.choice, cars);
        let key = (offered.id.clone(), setup.model, setup.spec.content_id());
        book.ask(key, &offered.choice.track, &setup.spec, true);
    }
}
