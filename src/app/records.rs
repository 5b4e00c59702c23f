//! The app's records and medals: the record and medals the menu shows
//! for its selection, the record a race starts against, a race's best
//! lap saved with the medal it earned, and medal tables taken in as the
//! book works them out.

use super::{App, LOCAL, Setup};
use crate::race::medals::{self, book::Lookup};
use crate::race::records::Store;
use crate::race::timing::Lap;

/// The records a race of `setup` at `hz` races against (one a board),
/// read from `store`; a damaged table set aside, or a read that failed,
/// is said in `notices`.
pub(super) fn records_for(
    store: Option<&Store>,
    setup: &Setup,
    hz: u32,
    notices: &mut Vec<String>,
) -> Vec<Lap> {
    let Some(store) = store else {
        return Vec::new();
    };
    let id = setup.track.track.content_id();
    match store.best(&id, setup.model, &setup.spec.content_id()) {
        Ok((best, loaded)) => {
            notices.extend(loaded.notice());
            // A record set at another physics rate, in this race's ticks.
            (best.into_iter())
                .map(|(r, lap)| lap.at_rate(r.hz, hz))
                .collect()
        }
        Err(e) => {
            notices.push(format!(
                "{}: cannot read the records: {e}",
                store.dir.display()
            ));
            Vec::new()
        }
    }
}

impl App {
    /// Reads the record for the menu's selection from the records file,
    /// and asks for its medals.
    pub(super) fn refresh_best(&mut self) {
        let setup = self.menu.setup(&self.choices[self.menu.track], &self.cars);
        let key = medals::book::key(&setup.track.track, &setup.spec, setup.model);
        let (track, spec) = (&setup.track.track, &setup.spec);
        let lookup = (self.medal_book).ask(key.clone(), track, spec, self.background);
        let Some(store) = &self.records else {
            self.menu_medals = (lookup, None);
            return;
        };
        let loaded = store.load().unwrap_or_default();
        self.notices.extend(loaded.notice());
        let on =
            |aided| (loaded.records.iter()).find(|r| r.key() == (&key.0, key.1, &key.2, aided));
        let (unaided, aided) = (on(false), on(true));
        self.menu_best = unaided.map(|r| r.time);
        self.menu_aided = aided.map(|r| r.time);
        self.menu_medals = (lookup, unaided.and_then(|r| r.medal));
    }

    /// Saves the race's best lap on each board if it beat the record
    /// there and is not kept yet: at each lap's end, and when the race is
    /// left (a save that failed is tried again). A replay never sets
    /// records or ghosts: it is not a lap driven now.
    pub(super) fn save_record(&mut self) {
        if self.replay.is_some() {
            return;
        }
        let (Some(store), Some(race)) = (&self.records, &mut self.race) else {
            return;
        };
        for (record, ghost) in race.new_records(LOCAL) {
            let Some(seat) = race.seats.get_mut(&LOCAL) else {
                return;
            };
            let aided = record.aided;
            match store.save(record, &ghost) {
                Ok((_, loaded)) => {
                    seat.unsaved = None;
                    self.notices.extend(loaded.notice());
                }
                Err(e) => {
                    // Not kept: said on the screen, and tried again (the
                    // race's best lap is still the one to keep).
                    let why = e.to_string();
                    if seat.unsaved.as_ref() != Some(&why) {
                        let dir = store.dir.display();
                        self.notices
                            .push(format!("{dir}: cannot save the record: {why}"));
                    }
                    seat.unsaved = Some(why);
                    seat.log.unkept(aided);
                }
            }
        }
    }

    /// The book learnt medal tables: the menu's and the race's, if they
    /// were among them.
    pub(super) fn medals_learnt(&mut self) {
        self.session.dirty = true;
        if let Lookup::Working = self.menu_medals.0 {
            self.refresh_best();
        }
        let (Some(race), Some(key)) = (&mut self.race, &self.race_medals) else {
            return;
        };
        if race.medals.is_none() {
            race.set_medals(self.medal_book.get(key).medals());
        }
    }
}
