//! The race menu's state (the title menu's, and a server room's): which
//! row the cursor is on and what each row has selected, how the menu's
//! keys change them, and what a selection means ([`Setup`]), worked out
//! once for local play and the server alike.

use crate::input::keys::Command;
use crate::physics::car::{self, CarSpec};
use crate::physics::models::ModelKind;
use crate::race::medals::Medal;

use crate::base::day::Day;
use crate::base::diag::Diagnostics;
use crate::track::{self, Raceable, generate};

/// A track the menu offers: only one a lap can be completed on.
#[derive(Debug, Clone)]
pub struct TrackChoice {
    pub name: String,
    pub track: Raceable,
}

impl TrackChoice {
    /// The Track of the Day of `day`, as a menu offers it while the date
    /// (UTC) is `today`: `Today · Dec 7 · Lost Works` on its own day,
    /// `Dec 6 · Lost Crossing` on any other. Every generated track is
    /// raceable (`track::generate`): an error here is the generator's.
    pub fn daily(day: Day, today: Day) -> Result<TrackChoice, Diagnostics> {
        let path = format!("daily:{day}");
        let parsed = track::parse(&path, generate::daily(day).text.as_bytes())?;
        let track = track::course::raceable(parsed, &path)?;
        Ok(TrackChoice {
            name: daily_label(day, today, &track.track().name),
            track,
        })
    }

    /// The track written as `text` (`path` naming it in errors), parsed
    /// and raceable, offered by the name it gives itself, or `label`
    /// made of it.
    pub fn from_text(
        path: &str,
        text: &str,
        label: impl FnOnce(&str) -> String,
    ) -> Result<TrackChoice, String> {
        let parsed = track::parse(path, text.as_bytes()).map_err(|e| e.to_string())?;
        let track = track::course::raceable(parsed, path).map_err(|e| e.to_string())?;
        Ok(TrackChoice {
            name: label(&track.track().name),
            track,
        })
    }
}

/// What a menu calls the Track of the Day of `day`, named `name`, while
/// the date is `today`.
pub fn daily_label(day: Day, today: Day, name: &str) -> String {
    if day == today {
        format!("Today · {} · {name}", day.short())
    } else {
        format!("{} · {name}", day.short())
    }
}

/// The car presets a menu offers after "the model's own", in order.
pub fn presets() -> Vec<(String, CarSpec)> {
    car::PRESETS
        .iter()
        .filter_map(|(n, _)| CarSpec::bundled(n).map(|s| (n.to_string(), s)))
        .collect()
}

/// What a menu's selection means: the race it asks for.
pub struct Setup<'a> {
    pub track: &'a TrackChoice,
    pub model: ModelKind,
    /// The car as the menu names it, and its preset.
    pub car: String,
    pub spec: CarSpec,
    pub laps: u32,
    pub opponents: usize,
    /// The medal whose time the computer cars lap in (docs/DESIGN.md,
    /// "Medals"): bronze easy, silver medium, gold hard.
    pub rivals: Medal,
    /// Whether the steering aid may steer in the race (`race::aid`):
    /// the menu's choice, a room's host's on a server.
    pub aid: bool,
    /// Whether the laps are the track's own.
    own_laps: bool,
}

impl Setup<'_> {
    /// What a race of this setup at `hz` against computer cars of `skill`
    /// is, for a recording's first line: the track, the model, the car,
    /// the laps, the physics rate and the computer cars asked for: all a
    /// replay of its inputs must be again to drive the same race.
    pub fn about(&self, hz: u32, skill: f64) -> String {
        let rivals = self.opponents.min(MAX_CARS - 1);
        let skill = if rivals > 0 {
            format!(" at skill {skill}")
        } else {
            String::new()
        };
        format!(
            "{}, {}, {}, {} laps, --hz {hz}, {rivals} computer cars{skill}",
            self.track.track.name, self.model, self.spec.name, self.laps
        )
    }

    /// The menu's rows as a selector shows them: each row, its label
    /// and its value.
    pub fn rows(&self) -> [(Row, &'static str, String); 7] {
        let t = &self.track;
        let laps = if self.own_laps {
            format!("{} (track's own)", self.laps)
        } else {
            self.laps.to_string()
        };
        [
            (
                Row::Track,
                "Track",
                format!("{}  {}x{}", t.name, t.track.width, t.track.height),
            ),
            (Row::Model, "Model", self.model.to_string()),
            (Row::Car, "Car", self.car.clone()),
            (Row::Laps, "Laps", laps),
            (Row::Rivals, "Rivals", self.opponents.to_string()),
            (Row::Level, "Level", level(self.rivals).into()),
            (Row::Aid, "Aid", aid_choice(self.aid).into()),
        ]
    }
}

/// The Level row's value: how hard the computer cars drive, and the
/// medal whose time they lap in.
pub fn level(rivals: Medal) -> &'static str {
    match rivals {
        Medal::Bronze => "easy (bronze pace)",
        Medal::Silver => "medium (silver pace)",
        Medal::Gold | Medal::Author => "hard (gold pace)",
    }
}

/// The levels the Level row goes through, easy first.
const LEVELS: [Medal; 3] = [Medal::Bronze, Medal::Silver, Medal::Gold];

/// The Aid row's value: whether the steering aid may steer.
pub fn aid_choice(allowed: bool) -> &'static str {
    if allowed { "allowed" } else { "off" }
}

/// What the title menu has selected.
#[derive(Debug, Clone, PartialEq)]
pub struct Menu {
    /// The row the cursor is on.
    pub row: Row,
    pub track: usize,
    pub model: ModelKind,
    /// 0: the model's own preset; then the presets in order.
    pub car: usize,
    /// 0: the track's own number of laps.
    pub laps: u32,
    /// Computer cars, 0 to 7.
    pub opponents: usize,
    /// How hard they drive ([`Setup::rivals`]).
    pub rivals: Medal,
    /// Whether the steering aid may steer (`race::aid`): off, nobody's
    /// keys are helped and every lap is unaided.
    pub aid: bool,
    /// Whether the menu offers the track editor beside Start (local
    /// play's title menu does; a server's room does not).
    pub build: bool,
}

/// The title menu's rows, top to bottom: the menu's keys move through
/// them in this order and the screen draws them in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Track,
    Model,
    Car,
    Laps,
    Rivals,
    Level,
    Aid,
    Start,
    /// The track editor, beside Start (the title menu's alone:
    /// [`Menu::build`]).
    Build,
}

impl Row {
    pub const ALL: [Row; 9] = [
        Row::Track,
        Row::Model,
        Row::Car,
        Row::Laps,
        Row::Rivals,
        Row::Level,
        Row::Aid,
        Row::Start,
        Row::Build,
    ];

    /// The row `d` rows down (up if negative), wrapping.
    fn moved(self, d: i64) -> Row {
        let i = Row::ALL.iter().position(|&r| r == self).unwrap_or(0);
        Row::ALL[wrap(i, d, Row::ALL.len())]
    }
}

impl Menu {
    /// Applies a menu key: Up and Down move the cursor, Left and Right
    /// change the row's selection among `tracks` tracks and `cars` car
    /// choices; laps step from what is shown, `own` being the selected
    /// track's own. Returns whether the selection changed (Left or Right).
    pub fn apply(&mut self, cmd: Command, tracks: usize, cars: usize, own: u32) -> bool {
        let d = match cmd {
            Command::Up | Command::Down => {
                let d = if cmd == Command::Up { -1 } else { 1 };
                self.row = self.row.moved(d);
                if self.row == Row::Build && !self.build {
                    self.row = self.row.moved(d);
                }
                return false;
            }
            Command::Left => -1,
            Command::Right => 1,
            _ => return false,
        };
        match self.row {
            Row::Track => self.track = wrap(self.track, d, tracks),
            Row::Model => {
                let i = ModelKind::ALL
                    .iter()
                    .position(|&k| k == self.model)
                    .unwrap_or(0);
                self.model = ModelKind::ALL[wrap(i, d, ModelKind::ALL.len())];
            }
            Row::Car => self.car = wrap(self.car, d, cars),
            // Laps step from the number shown and stop at 1 and
            // MAX_LAPS; back at the track's own, they are its own again.
            Row::Laps => {
                let shown = if self.laps == 0 { own } else { self.laps };
                let laps = step(shown as usize, d, MAX_LAPS).max(1) as u32;
                self.laps = if laps == own { 0 } else { laps };
            }
            Row::Rivals => self.opponents = step(self.opponents, d, MAX_CARS - 1),
            Row::Level => {
                let i = LEVELS.iter().position(|&m| m == self.rivals).unwrap_or(1);
                self.rivals = LEVELS[step(i, d, LEVELS.len() - 1)];
            }
            Row::Aid => self.aid = !self.aid,
            Row::Start | Row::Build => {}
        }
        true
    }
}

impl Menu {
    /// A menu on `track` (an index), with the model's own car, the
    /// track's own laps and medium rivals, the cursor on Start.
    pub fn new(track: usize, model: ModelKind) -> Menu {
        Menu {
            row: Row::Start,
            track,
            model,
            car: 0,
            laps: 0,
            opponents: 0,
            rivals: Medal::Silver,
            aid: true,
            build: false,
        }
    }

    /// What the selection means on `track` (the selected one) with the
    /// car presets `cars` ([`presets`], and any the player added).
    pub fn setup<'a>(&self, track: &'a TrackChoice, cars: &[(String, CarSpec)]) -> Setup<'a> {
        let (car, spec) = match self.car {
            0 => {
                let spec = CarSpec::default_for(self.model);
                (format!("{} (own)", spec.name), spec)
            }
            i => cars[(i - 1).min(cars.len() - 1)].clone(),
        };
        let laps = match self.laps {
            0 => track.track.laps,
            n => n,
        };
        Setup {
            track,
            model: self.model,
            car,
            spec,
            laps,
            opponents: self.opponents,
            rivals: self.rivals,
            aid: self.aid,
            own_laps: self.laps == 0,
        }
    }
}

/// Cars in one race at the most, people and computer cars together.
pub const MAX_CARS: usize = 8;

/// Laps a menu can ask for (0: the track's own).
pub const MAX_LAPS: usize = 99;

/// `i + d` kept within `0..=max`.
fn step(i: usize, d: i64, max: usize) -> usize {
    (i as i64 + d).clamp(0, max as i64) as usize
}

/// `i + d` wrapped into `0..n`.
fn wrap(i: usize, d: i64, n: usize) -> usize {
    (i as i64 + d).rem_euclid(n as i64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Build a track is the title menu's: a menu without it (a server's
    /// room) goes round every other row and never stops there.
    #[test]
    fn only_a_menu_that_offers_the_editor_stops_at_build() {
        for (build, down) in [(false, 8), (true, 9)] {
            let mut menu = Menu {
                build,
                ..Menu::new(0, ModelKind::Arcade)
            };
            let mut seen = Vec::new();
            for _ in 0..down {
                menu.apply(Command::Down, 1, 1, 1);
                seen.push(menu.row);
            }
            assert_eq!(seen.contains(&Row::Build), build);
            assert_eq!(menu.row, Row::Start, "round to Start in {down}");
            menu.row = Row::Track;
            menu.apply(Command::Up, 1, 1, 1);
            let above = if build { Row::Build } else { Row::Start };
            assert_eq!(menu.row, above, "up from the first row");
        }
    }

    #[test]
    fn laps_and_rivals_stop_at_their_ends_and_lists_wrap() {
        let mut m = Menu::new(0, ModelKind::Arcade);
        m.row = Row::Laps;
        m.apply(Command::Left, 6, 6, 5);
        assert_eq!(m.laps, 4, "one fewer than the track's own 5, not 99");
        m.apply(Command::Right, 6, 6, 5);
        assert_eq!(m.laps, 0, "back at the track's own");
        for _ in 0..10 {
            m.apply(Command::Left, 6, 6, 5);
        }
        assert_eq!(m.laps, 1, "stops at one lap");
        for _ in 0..120 {
            m.apply(Command::Right, 6, 6, 5);
        }
        assert_eq!(m.laps as usize, MAX_LAPS);
        m.row = Row::Rivals;
        m.apply(Command::Left, 6, 6, 5);
        assert_eq!(m.opponents, 0);
        for _ in 0..10 {
            m.apply(Command::Right, 6, 6, 5);
        }
        assert_eq!(m.opponents, MAX_CARS - 1);
        m.row = Row::Track;
        m.apply(Command::Left, 6, 6, 5);
        assert_eq!(m.track, 5, "tracks go round");
        // The level steps from medium, and stops at easy and hard.
        m.row = Row::Level;
        for (cmd, want) in [
            (Command::Left, Medal::Bronze),
            (Command::Left, Medal::Bronze),
            (Command::Right, Medal::Silver),
            (Command::Right, Medal::Gold),
            (Command::Right, Medal::Gold),
        ] {
            m.apply(cmd, 6, 6, 5);
            assert_eq!(m.rivals, want);
        }
    }
}
