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

use crate::ai::{Driver, Line};
use crate::car::CarSpec;
use crate::physics::{DEFAULT_HZ, ModelKind};
use crate::race::Event;
use crate::track::Track;
use crate::world::{Source, World};

/// The medals, the best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Medal {
    Bronze,
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

    /// The pace (`ai::Driver::paced`) at which the computer laps in
    /// about the time of `medal`: the author time over it.
    pub fn pace(&self, medal: Medal) -> f64 {
        (self.author / self.time(medal)).clamp(0.05, 1.0)
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
    let mut world = World::new(track.clone(), spec.clone(), kind, DEFAULT_HZ);
    world.laps = LAPS as u32;
    world.cars[0].source = Source::Driver(Box::new(driver));
    let limit = GIVE_UP_SECONDS * u64::from(DEFAULT_HZ);
    let mut ends = vec![0];
    while ends.len() <= LAPS && world.tick < limit {
        if world.step()[0] == Some(Event::Lap) {
            ends.push(world.tick);
        }
        if !world.cars[0].finite {
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
        let m = Medals { author: 18.53 };
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
        let line = crate::app::planner::race_line(&track);
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
}
