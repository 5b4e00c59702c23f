//! Medals: target lap times for a track, model and car, so that a lap
//! means something before there is anyone to race.
//!
//! The author time is the computer driver's best lap at full skill, alone
//! on the track, over a standing lap and a flying one, at the default
//! physics rate: the same driver, on the same racing line, as a rival in
//! a race. Gold, silver and bronze are fixed margins over it, rounded up
//! to a tenth of a second so that they read as targets. Every input is
//! the track's and the car's content, so a medal table is worked out once
//! per content and kept ([`book`]).

pub mod book;

use serde::{Deserialize, Serialize};

use crate::ai::aid::{self, Pace};
use crate::ai::{Driver, Line};
use crate::physics::car::CarSpec;
use crate::physics::{Controls, DEFAULT_HZ, ModelKind};
use crate::race::timing::Event;
use crate::race::world::{FIRST, Source, World};
use crate::track::Track;

/// The medals, the best first. (The default is the one Medium rivals
/// lap in.)
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Medal {
    Bronze,
    #[default]
    Silver,
    Gold,
    Author,
}

impl Medal {
    /// Best first.
    pub const ALL: [Medal; 4] = [Medal::Author, Medal::Gold, Medal::Silver, Medal::Bronze];

    pub fn name(self) -> &'static str {
        match self {
            Medal::Author => "author",
            Medal::Gold => "gold",
            Medal::Silver => "silver",
            Medal::Bronze => "bronze",
        }
    }

    /// The target as a multiple of the author time: gold asks for a clean
    /// lap near the computer's, bronze for a lap at half its pace.
    fn factor(self) -> f64 {
        match self {
            Medal::Author => 1.0,
            Medal::Gold => 1.15,
            Medal::Silver => 1.4,
            Medal::Bronze => 2.0,
        }
    }
}

impl std::fmt::Display for Medal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The target times of one track, model and car.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Medals {
    /// The computer driver's best lap, seconds.
    pub author: f64,
    /// The pace (`ai::Driver::paced`) at which the computer laps in the
    /// gold, silver and bronze times, found by driving ([`work_out`]);
    /// none: not worked out, [`Medals::pace`] guesses.
    pub paces: Option<[f64; 3]>,
    /// The pace (`ai::aid::Pace`) at which the steering aid, with W held
    /// alone, laps a little over the silver time (the Medium rivals'),
    /// found by driving it ([`work_out`]); none: not worked out.
    pub aid: Option<f64>,
}

impl Medals {
    /// The time a lap must be at or under to earn `medal`, seconds: the
    /// author time to the hundredth shown, the others to a tenth (both
    /// rounded up, so a lap that shows the target's time earns it).
    pub fn time(&self, medal: Medal) -> f64 {
        let up = |t: f64, per_second: f64| (t * per_second - 1e-6).ceil() / per_second;
        match medal {
            Medal::Author => up(self.author, 100.0),
            m => up(self.author * m.factor(), 10.0),
        }
    }

    /// Medals of an author time, their paces not worked out.
    pub fn of(author: f64) -> Medals {
        Medals {
            author,
            paces: None,
            aid: None,
        }
    }

    /// The pace (`ai::Driver::paced`) at which the computer laps in the
    /// time of `medal`: as worked out, else guessed (the author time over
    /// the medal's, which laps some 5 to 15% faster: a slower car spends
    /// less of its lap gathering speed).
    pub fn pace(&self, medal: Medal) -> f64 {
        let worked = match (self.paces, medal) {
            (_, Medal::Author) => Some(1.0),
            (Some(p), Medal::Gold) => Some(p[0]),
            (Some(p), Medal::Silver) => Some(p[1]),
            (Some(p), Medal::Bronze) => Some(p[2]),
            (None, _) => None,
        };
        worked.unwrap_or_else(|| (self.author / self.time(medal)).clamp(0.05, 1.0))
    }

    /// The best medal a lap of `lap` seconds earns.
    pub fn earned(&self, lap: f64) -> Option<Medal> {
        Medal::ALL.into_iter().find(|&m| lap <= self.time(m))
    }

    /// The next medal above what a lap of `lap` seconds earned (the one
    /// to chase), none once it earned the author medal.
    pub fn next(&self, lap: Option<f64>) -> Option<Medal> {
        let earned = lap.and_then(|t| self.earned(t));
        Medal::ALL
            .into_iter()
            .rev()
            .find(|&m| earned.is_none_or(|e| m > e))
    }
}

/// The pace at which the computer laps in about the time of `medal`
/// before its medals are worked out: the inverse of the medal's factor
/// (a little fast, [`Medals::pace`]).
pub fn guessed_pace(medal: Medal) -> f64 {
    1.0 / medal.factor()
}

/// How many times a pace is corrected by driving it ([`work_out`]).
const PACE_TRIES: usize = 2;

/// The medals of `track` (whose racing line is `line`) for `spec`
/// driven as `kind`: the author time, then for gold, silver and bronze
/// the pace at which the computer laps in their time. From the guess,
/// each try drives a flying lap at the pace and scales the pace by how
/// far its lap was off; a lap's time is close to inverse to the pace, so
/// two tries bring it within a few per cent (docs/BENCHMARKS.md,
/// "Rivals against the medals"). None where the computer laps nothing.
pub fn work_out(track: &Track, line: &Line, spec: &CarSpec, kind: ModelKind) -> Option<Medals> {
    let author = author_time(track, line, spec, kind)?;
    let mut medals = Medals::of(author);
    let mut paces = [0.0; 3];
    for (i, medal) in [Medal::Gold, Medal::Silver, Medal::Bronze]
        .into_iter()
        .enumerate()
    {
        let want = medals.time(medal);
        let mut pace = medals.pace(medal);
        for _ in 0..PACE_TRIES {
            let Some(lap) = flying_lap(track, line, spec, kind, pace) else {
                break;
            };
            pace = (pace * lap / want).clamp(0.05, 1.0);
        }
        paces[i] = pace;
    }
    medals.paces = Some(paces);
    medals.aid = Some(aid_pace(track, line, spec, kind, &medals));
    Some(medals)
}

/// How far over the silver time the steering aid's pace is aimed: the
/// pace is found to within a per cent or so, and an aided lap is to be no
/// faster than the Medium rivals'.
const AID_OVER: f64 = 1.025;

/// The pace at which the steering aid, W held alone, laps in about
/// [`AID_OVER`] times the silver time: from the Medium rivals' pace,
/// corrected by driving it as the rivals' paces are. The aid drives
/// more simply than the computer (no going back for marks, no backing
/// off walls), so at the same pace it can lap faster (up to a quarter on
/// some generated tracks in `arcade`): its pace is its own. A pace it
/// cannot lap at is kept (the race's limit ends such a race).
pub fn aid_pace(
    track: &Track,
    line: &Line,
    spec: &CarSpec,
    kind: ModelKind,
    medals: &Medals,
) -> f64 {
    let want = medals.time(Medal::Silver) * AID_OVER;
    let mut pace = medals.pace(Medal::Silver);
    for _ in 0..AID_TRIES {
        let Some(lap) = aided_lap(track, line, spec, kind, pace) else {
            break;
        };
        pace = (pace * lap / want).clamp(0.05, 1.0);
    }
    pace
}

/// How many times the aid's pace is corrected by driving it.
const AID_TRIES: usize = 3;

/// The flying lap of `spec` driven as `kind` on `track` (whose racing
/// line is `line`) with W held alone and the steering aid at `pace`, or
/// none if it completes no flying lap in half an hour.
pub fn aided_lap(
    track: &Track,
    line: &Line,
    spec: &CarSpec,
    kind: ModelKind,
    pace: f64,
) -> Option<f64> {
    let mut world = alone(track, spec, kind);
    let guide = Pace::new(line, track, &world.car(FIRST)?.car, pace);
    laps_of(&mut world, |e| {
        e.along = line.nearest(e.car.state.body.pos, e.along);
        let w = Controls {
            throttle: 1.0,
            ..Controls::default()
        };
        let aid = aid::of(line, e.along, &e.car, &guide, 0.0);
        e.source = Source::Seat(aid.map_or(w, |a| a.with(w)));
    })
}

/// Laps the computer drives for the author time: a standing one and a
/// flying one.
const LAPS: usize = 2;

/// Simulated seconds after which a driver that has not done its laps is
/// given up on (the track then has no medals for this car).
const GIVE_UP_SECONDS: u64 = 30 * 60;

/// The author time on `track` (whose racing line is `line`) for `spec`
/// driven as `kind`: the computer driver's best lap at full skill, or
/// none if it completes no lap in half an hour of racing.
pub fn author_time(track: &Track, line: &Line, spec: &CarSpec, kind: ModelKind) -> Option<f64> {
    flying_lap(track, line, spec, kind, 1.0)
}

/// [`author_time`] for a computer driver at `pace` of its line's speeds
/// (`ai::Driver::paced`).
pub fn flying_lap(
    track: &Track,
    line: &Line,
    spec: &CarSpec,
    kind: ModelKind,
    pace: f64,
) -> Option<f64> {
    let driver = Driver::along(line, track, spec, kind, 1.0).paced(pace);
    let mut world = alone(track, spec, kind);
    world.car_mut(FIRST)?.source = Source::Driver(Box::new(driver));
    laps_of(&mut world, |_| {})
}

/// `spec` driven as `kind` alone on `track`, at the default rate, for
/// [`LAPS`] laps.
fn alone(track: &Track, spec: &CarSpec, kind: ModelKind) -> World {
    let mut world = World::new(track.clone(), spec.clone(), kind, DEFAULT_HZ);
    world.laps = LAPS as u32;
    world
}

/// The best of the [`LAPS`] laps the first car of `world` drives, its
/// controls set by `drive` before each step; none if it completes none
/// in [`GIVE_UP_SECONDS`] or its state goes non-finite.
fn laps_of(
    world: &mut World,
    mut drive: impl FnMut(&mut crate::race::world::Entrant),
) -> Option<f64> {
    let limit = GIVE_UP_SECONDS * u64::from(DEFAULT_HZ);
    let mut ends = vec![0];
    while ends.len() <= LAPS && world.tick < limit {
        drive(world.car_mut(FIRST)?);
        world.step();
        let me = world.car(FIRST)?;
        if me.event == Some(Event::Lap) {
            ends.push(world.tick);
        }
        if !me.finite {
            return None;
        }
    }
    let best = ends.windows(2).map(|w| w[1] - w[0]).min()?;
    Some(best as f64 / f64::from(DEFAULT_HZ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_medal_asks_for_a_faster_lap_than_the_one_below() {
        let m = Medals::of(18.53);
        assert_eq!(m.time(Medal::Author), 18.53);
        assert_eq!(m.time(Medal::Gold), 21.4); // 21.3095 rounded up
        assert_eq!(m.time(Medal::Silver), 26.0); // 25.942
        assert_eq!(m.time(Medal::Bronze), 37.1); // 37.06
        assert_eq!(m.earned(18.0), Some(Medal::Author));
        assert_eq!(m.earned(18.53), Some(Medal::Author), "equal earns it");
        assert_eq!(m.earned(18.54), Some(Medal::Gold));
        assert_eq!(m.earned(26.0), Some(Medal::Silver));
        assert_eq!(m.earned(37.1), Some(Medal::Bronze));
        assert_eq!(m.earned(37.11), None);
        assert_eq!(m.next(None), Some(Medal::Bronze));
        assert_eq!(m.next(Some(40.0)), Some(Medal::Bronze));
        assert_eq!(m.next(Some(30.0)), Some(Medal::Silver));
        assert_eq!(m.next(Some(20.0)), Some(Medal::Author));
        assert_eq!(m.next(Some(17.0)), None);
    }

    #[test]
    fn the_author_time_is_the_computers_flying_lap() {
        let track = crate::track::bundled::load_raceable("pocket").unwrap();
        let line = crate::ai::race_line(&track);
        let spec = CarSpec::default_for(ModelKind::Kinematic);
        let author = author_time(&track, &line, &spec, ModelKind::Kinematic).unwrap();
        // The computer laps pocket in kinematic in 17.4 s flying
        // (docs/BENCHMARKS.md); the standing lap is slower and not kept.
        assert!((17.0..18.0).contains(&author), "{author}");
        // Deterministic: the same inputs, the same time.
        assert_eq!(
            author_time(&track, &line, &spec, ModelKind::Kinematic),
            Some(author)
        );
    }

    /// Issue 50: rivals matched to people. At the paces worked out, the
    /// computer's flying lap is within 5% of each medal's time (a guess
    /// alone was up to 19% fast), in a model that slides and one that
    /// does not.
    #[test]
    fn at_each_medals_pace_the_computer_laps_in_its_time() {
        let track = crate::track::bundled::load_raceable("pocket").unwrap();
        let line = crate::ai::race_line(&track);
        for kind in [ModelKind::Arcade, ModelKind::Tire] {
            let spec = CarSpec::default_for(kind);
            let medals = work_out(&track, &line, &spec, kind).unwrap();
            assert!(medals.paces.is_some());
            for medal in [Medal::Gold, Medal::Silver, Medal::Bronze] {
                let want = medals.time(medal);
                let lap = flying_lap(&track, &line, &spec, kind, medals.pace(medal)).unwrap();
                assert!(
                    (lap / want - 1.0).abs() < 0.05,
                    "{kind} {medal}: {lap:.2} s for {want:.2} s"
                );
            }
        }
    }
}
