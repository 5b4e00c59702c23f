//! Lap counting (docs/DESIGN.md, "Track files"): a lap counts when the car
//! crosses the finish line in the race direction after crossing checkpoints
//! 1, 2, ... in order since the last lap.
//!
//! Crossings are found on the segment the car's centre moved along each
//! step ([`Track::cells_crossed`]), so no speed skips a line. Entering a
//! finish cell from outside the line counts as crossing it, in the race
//! direction when the motion has a positive component along the player's
//! start heading. On a track with no checkpoints the first crossing starts
//! the first lap instead of finishing one (the grid sits behind the line).

use glam::DVec2;

use crate::physics::{Controls, DEFAULT_HZ};
use crate::track::{Mark, Track};

/// What a step's motion did to the race.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Checkpoint(u8),
    Lap,
    /// The finish crossed in the race direction without this checkpoint
    /// (and the ones after it): no lap.
    Missed(u8),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Laps {
    /// Completed laps.
    pub lap: u32,
    /// The last checkpoint passed this lap (0: none yet).
    pub checkpoint: u8,
    /// Whether a finish crossing can complete a lap (see the module doc).
    armed: bool,
    /// Whether the finish was crossed in the race direction before: the
    /// first crossing, from the grid, misses nothing.
    crossed: bool,
}

impl Laps {
    pub fn new(track: &Track) -> Self {
        Laps {
            lap: 0,
            checkpoint: 0,
            armed: track.checkpoints > 0,
            crossed: false,
        }
    }

    /// Whether the finish line has been crossed in the race direction
    /// (from the grid, the first crossing).
    pub fn crossed(&self) -> bool {
        self.crossed
    }

    /// The mark that counts next, for a computer driver to make sure it
    /// crosses (`ai::Wanted`): the next checkpoint, else the finish; none
    /// before the first crossing of a track without checkpoints, which
    /// only starts the count. The number beside it changes whenever a
    /// mark counted.
    pub fn wanted(&self, track: &Track) -> Option<(Mark, u32)> {
        if !self.armed {
            return None;
        }
        let counted = self.lap * 256 + u32::from(self.checkpoint);
        Some(if self.checkpoint < track.checkpoints {
            (Mark::Checkpoint(self.checkpoint + 1), counted)
        } else {
            (Mark::Finish, counted)
        })
    }

    /// Follows the car's centre from `from` to `to`; returns what happened.
    pub fn update(&mut self, track: &Track, from: DVec2, to: DVec2) -> Option<Event> {
        let forward = (to - from).dot(track.race_direction()) > 0.0;
        let mut prev = track.mark_at(from);
        let mut event = None;
        track.cells_crossed(from, to, |c, r| {
            let mark = track.mark_of(c, r);
            match mark {
                Mark::Checkpoint(n) if n == self.checkpoint + 1 => {
                    self.checkpoint = n;
                    event = Some(Event::Checkpoint(n));
                }
                Mark::Finish if prev != Mark::Finish && forward => {
                    if !self.armed {
                        self.armed = true;
                    } else if self.checkpoint == track.checkpoints {
                        self.lap += 1;
                        self.checkpoint = 0;
                        event = Some(Event::Lap);
                    } else if self.crossed {
                        event = Some(Event::Missed(self.checkpoint + 1));
                    }
                    self.crossed = true;
                }
                _ => {}
            }
            prev = mark;
        });
        event
    }
}

/// Ticks between two ghost samples (30 a second at 120 Hz).
pub const GHOST_EVERY: u64 = 4;

impl Lap {
    /// The same lap counted at `to` ticks a second instead of `from`: its
    /// length and splits rescaled in time, and its ghost resampled so that
    /// a pose still comes every [`GHOST_EVERY`] ticks. Laps are compared
    /// in ticks, so a record from another rate must be converted first.
    pub fn at_rate(self, from: u32, to: u32) -> Lap {
        if from == to || from == 0 || to == 0 {
            return self;
        }
        let scale = f64::from(to) / f64::from(from);
        let ticks = |t: u64| (t as f64 * scale).round() as u64;
        let n = ticks(self.ticks).div_ceil(GHOST_EVERY) as usize + 1;
        let ghost = if self.ghost.is_empty() {
            Vec::new()
        } else {
            (0..n)
                .map(|k| {
                    // Pose k is at k GHOST_EVERY ticks at the new rate.
                    let i = (k as f64 / scale).round() as usize;
                    self.ghost[i.min(self.ghost.len() - 1)]
                })
                .collect()
        };
        Lap {
            ticks: ticks(self.ticks),
            splits: self.splits.iter().map(|&s| ticks(s)).collect(),
            ghost,
            trace: self.trace,
            aided: self.aided,
        }
    }
}

/// Which laps compare with each other, for a record, a board or a medal
/// table: the track's content id, the model, the car's content id.
pub type LapKey = (String, crate::physics::models::ModelKind, String);

/// A lap to race against: its length in ticks, its checkpoint splits, the
/// car's pose every [`GHOST_EVERY`] ticks (x, y, heading), and at the same
/// moments the distance driven into the lap (m), the speed (km/h) and the
/// larger slip angle (degrees; NaN where unknown), for the charts; and
/// whether the steering aid steered any of it (`race::aid`), which every
/// board marks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lap {
    pub ticks: u64,
    pub splits: Vec<u64>,
    pub ghost: Vec<[f64; 3]>,
    pub trace: Vec<[f64; 3]>,
    pub aided: bool,
}

/// How a lap in progress is being driven.
#[derive(Debug, Clone, Copy, Default)]
struct Driven {
    /// In more than one model (a switch during it, `m`): such a lap is
    /// listed, never the best lap or a record, and earns no medal.
    mixed: bool,
    /// The steering aid steered some of it ([`Lap::aided`]).
    aided: bool,
}

/// The best lap on one board of a race ([`LapLog::best_on`]): the
/// record raced against, or a lap of this race that beat it.
#[derive(Debug, Clone, Default)]
struct BoardBest {
    lap: Option<Lap>,
    /// Whether `lap` was set in this race and not kept yet (and so is
    /// worth saving).
    improved: bool,
}

/// Lap times, splits and ghosts as a race goes: the game and `skid sim`
/// both feed it every step.
///
/// Laps the steering aid steered and laps driven by hand are ranked on
/// boards of their own (docs/DESIGN.md, "Records"): the log keeps the
/// best of each, and a lap is compared, and may become a record, only on
/// its own board.
#[derive(Debug, Clone, Default)]
pub struct LapLog {
    /// Tick each completed lap ended at.
    pub ends: Vec<u64>,
    /// Whether each completed lap was aided ([`Lap::aided`]), as `ends`.
    pub aided: Vec<bool>,
    /// This lap's checkpoint ticks, from its start.
    pub splits: Vec<u64>,
    /// This lap's poses so far.
    pub ghost: Vec<[f64; 3]>,
    /// This lap's distance, speed and slip so far.
    pub trace: Vec<[f64; 3]>,
    /// Metres driven this lap.
    distance: f64,
    last_pos: Option<[f64; 2]>,
    /// The lap just completed.
    pub last: Option<Lap>,
    /// The best lap on each board, unaided first.
    bests: [BoardBest; 2],
    /// How the lap in progress is being driven.
    driven: Driven,
    /// Whether the lap in progress races on the aided board: once the
    /// aid steered it, or until then if the lap before was aided and the
    /// aid was not turned off since ([`LapLog::aid_off`]).
    on_aided: bool,
    /// Whether the lap just completed (`last`) was such a lap.
    pub last_mixed: bool,
    /// The latest split's difference to the best lap's, in ticks; none
    /// from the start of a lap until its first checkpoint.
    pub split_delta: Option<i64>,
    /// The lap just completed against the best lap before it on its
    /// board, in ticks (negative: a new best); none when there was no
    /// best to beat.
    pub lap_delta: Option<i64>,
}

/// Whether a step of `dt` seconds is the standard physics rate
/// ([`DEFAULT_HZ`]), the one records and medals are timed at.
pub fn standard_rate(dt: f64) -> bool {
    (1.0 / dt).round() == f64::from(DEFAULT_HZ)
}

impl LapLog {
    /// A log that races against known best laps (each on its own board,
    /// as [`Lap::aided`] says; a second on one board is ignored).
    pub fn against(records: impl IntoIterator<Item = Lap>) -> LapLog {
        let mut log = LapLog::default();
        for lap in records {
            log.record_found(lap);
        }
        log
    }

    /// The best lap on the aided board (`aided`) or the unaided one: the
    /// record raced against, or a lap of this race that beat it.
    pub fn best_on(&self, aided: bool) -> Option<&Lap> {
        self.bests[usize::from(aided)].lap.as_ref()
    }

    /// The best lap raced against now: the best on the board of the lap
    /// in progress (its ghost, its splits).
    pub fn best(&self) -> Option<&Lap> {
        self.best_on(self.on_aided)
    }

    /// The best lap of this race on each board, unaided first: the laps
    /// completed, each against the others on its board.
    pub fn race_bests(&self, dt: f64) -> [Option<f64>; 2] {
        let mut bests = [None::<f64>; 2];
        for (i, t) in self.lap_times(dt).into_iter().enumerate() {
            let aided = self.aided.get(i).copied().unwrap_or(false);
            let best = &mut bests[usize::from(aided)];
            *best = Some(best.map_or(t, |b| b.min(t)));
        }
        bests
    }

    /// Each completed lap's length in seconds, at `dt` a step.
    pub fn lap_times(&self, dt: f64) -> Vec<f64> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        (self.ends.iter().zip(starts))
            .map(|(&end, start)| (end - start) as f64 * dt)
            .collect()
    }

    /// The record found after the race began (read while it counted
    /// down): the best to beat on its board from now, unless this race
    /// has already set a better lap there. A lap of this race it beats is
    /// no longer new.
    pub fn record_found(&mut self, record: Lap) {
        let best = &mut self.bests[usize::from(record.aided)];
        if best.lap.as_ref().is_none_or(|b| record.ticks <= b.ticks) {
            best.lap = Some(record);
            best.improved = false;
        }
    }

    /// `lap`, as if this race had just set it: the best on its board,
    /// and to be kept. For tests and tools that make a race's laps up.
    pub fn set_best(&mut self, lap: Lap) {
        let aided = lap.aided;
        self.bests[usize::from(aided)] = BoardBest {
            lap: Some(lap),
            improved: true,
        };
    }

    /// The best lap on the board `aided` could not be kept: it is a new
    /// record to keep again ([`LapLog::new_records`]).
    pub fn unkept(&mut self, aided: bool) {
        let best = &mut self.bests[usize::from(aided)];
        best.improved = best.lap.is_some();
    }

    /// The one rule for which laps become records: on each board, this
    /// run's best lap, once, if it was set in this run (not the record it
    /// started with), took some time, at the standard physics rate (`dt`
    /// a step; another rate is another simulation, whose times the
    /// records' and medals' do not compare with: [`standard_rate`]), and
    /// the car's state stayed finite throughout (a run that ever went
    /// non-finite proves nothing). The unaided board's comes first. A
    /// replay is not a lap driven now: its callers do not ask.
    pub fn new_records(&mut self, finite: bool, dt: f64) -> Vec<&Lap> {
        if !(finite && standard_rate(dt)) {
            return Vec::new();
        }
        (self.bests.iter_mut())
            .filter(|b| b.improved && b.lap.as_ref().is_some_and(|l| l.ticks > 0))
            .map(|b| {
                b.improved = false;
                b.lap.as_ref().expect("filtered")
            })
            .collect()
    }

    /// The aid was turned off: the lap in progress races on the board
    /// it is on so far (the unaided one, if the aid has not steered it).
    pub fn aid_off(&mut self) {
        self.on_aided = self.driven.aided;
    }

    /// The steering aid steered the step about to be logged: the lap it
    /// is part of is marked aided.
    pub fn steered_by_aid(&mut self) {
        self.driven.aided = true;
        self.on_aided = true;
    }

    pub fn lap_start(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// After a step to `tick` with controls `c` that left the car at
    /// `pose`; `sample` gives its speed (m/s) and largest slip angle
    /// (degrees), asked for only on the ticks the charts keep.
    pub fn after_step(
        &mut self,
        tick: u64,
        c: &Controls,
        pose: [f64; 3],
        sample: impl FnOnce() -> (f64, f64),
        event: Option<Event>,
    ) {
        // A switch in the step that ends a lap was part of that lap.
        self.driven.mixed |= c.model.is_some();
        let into = tick - self.lap_start();
        if let Some([x, y]) = self.last_pos {
            self.distance += ((pose[0] - x).powi(2) + (pose[1] - y).powi(2)).sqrt();
        }
        self.last_pos = Some([pose[0], pose[1]]);
        if into.is_multiple_of(GHOST_EVERY) {
            let (speed, slip) = sample();
            self.ghost.push(pose);
            self.trace.push([self.distance, speed * 3.6, slip]);
        }
        match event {
            Some(Event::Checkpoint(_)) => {
                self.splits.push(into);
                let i = self.splits.len() - 1;
                self.split_delta = (self.best())
                    .and_then(|b| b.splits.get(i))
                    .map(|&b| into as i64 - b as i64);
            }
            Some(Event::Lap) => {
                let lap = Lap {
                    ticks: into,
                    splits: std::mem::take(&mut self.splits),
                    ghost: std::mem::take(&mut self.ghost),
                    trace: std::mem::take(&mut self.trace),
                    aided: self.driven.aided,
                };
                self.distance = 0.0;
                self.split_delta = None;
                self.last_mixed = std::mem::take(&mut self.driven).mixed;
                // The next lap starts on this one's board.
                self.on_aided = lap.aided;
                let best = &mut self.bests[usize::from(lap.aided)];
                self.lap_delta = (best.lap.as_ref())
                    .filter(|_| !self.last_mixed)
                    .map(|b| lap.ticks as i64 - b.ticks as i64);
                if !self.last_mixed && best.lap.as_ref().is_none_or(|b| lap.ticks < b.ticks) {
                    *best = BoardBest {
                        lap: Some(lap.clone()),
                        improved: true,
                    };
                }
                self.aided.push(lap.aided);
                self.last = Some(lap);
                self.ends.push(tick);
            }
            Some(Event::Missed(_)) | None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::parse;

    /// A straight: start, checkpoint 1 at column 12, 2 at 20, finish at 28
    /// (2 m cells: x = 24.0..26.0, 40.0..42.0, 56.0..58.0).
    fn strip() -> Track {
        let src = "\
##################################
#................................#
#...>.......1.......2.......|....#
#................................#
##################################
";
        parse("strip", src.as_bytes()).unwrap()
    }

    fn drive(laps: &mut Laps, t: &Track, xs: &[f64]) -> Vec<Event> {
        xs.windows(2)
            .filter_map(|w| laps.update(t, DVec2::new(w[0], 10.0), DVec2::new(w[1], 10.0)))
            .collect()
    }

    #[test]
    fn checkpoints_in_order_then_the_finish_make_a_lap() {
        let t = strip();
        let mut l = Laps::new(&t);
        let ev = drive(&mut l, &t, &[9.0, 30.0, 50.0, 60.0]);
        assert_eq!(ev, [Event::Checkpoint(1), Event::Checkpoint(2), Event::Lap]);
        assert_eq!((l.lap, l.checkpoint), (1, 0));
    }

    #[test]
    fn the_finish_crossed_without_a_checkpoint_says_which() {
        let t = strip();
        let mut l = Laps::new(&t);
        // From the grid over the finish: nothing missed yet.
        assert_eq!(
            l.update(&t, DVec2::new(54.0, 10.0), DVec2::new(60.0, 10.0)),
            None
        );
        // Round again (a jump stands for the way round), past checkpoint 1
        // only, over the finish: checkpoint 2 was missed.
        l.update(&t, DVec2::new(9.0, 10.0), DVec2::new(30.0, 10.0));
        assert_eq!(
            l.update(&t, DVec2::new(54.0, 10.0), DVec2::new(60.0, 10.0)),
            Some(Event::Missed(2))
        );
        assert_eq!((l.lap, l.checkpoint), (0, 1), "no lap, and 1 still counts");
    }

    #[test]
    fn a_lap_at_another_rate_keeps_its_time() {
        // 40.5 s at 120 Hz, against a race at 10000 Hz.
        let lap = Lap {
            ticks: 4860,
            splits: vec![1200, 3000],
            ghost: (0..=1215).map(|i| [f64::from(i), 0.0, 0.0]).collect(),
            trace: vec![],
            aided: false,
        };
        let fast = lap.clone().at_rate(120, 10_000);
        assert_eq!(fast.ticks, 405_000);
        assert_eq!(fast.splits, [100_000, 250_000]);
        // Half-way through the lap, the ghost is where it was half-way.
        let mid = fast.ghost[405_000 / 2 / GHOST_EVERY as usize];
        assert!((mid[0] - 607.5).abs() <= 1.0, "{mid:?}");
        assert_eq!(lap.clone().at_rate(120, 120), lap);
    }

    #[test]
    fn one_long_step_still_sees_every_line() {
        let t = strip();
        let mut l = Laps::new(&t);
        // Everything in a single step: the last event wins the return value.
        assert_eq!(
            l.update(&t, DVec2::new(9.0, 10.0), DVec2::new(62.0, 10.0)),
            Some(Event::Lap)
        );
        assert_eq!(l.lap, 1);
    }

    #[test]
    fn a_lap_driven_in_two_models_is_listed_but_never_the_best() {
        let mut log = LapLog::default();
        let plain = Controls::default();
        let switch = Controls {
            model: Some(crate::physics::models::ModelKind::Tire),
            ..Controls::default()
        };
        let lap = |log: &mut LapLog, start: u64, ticks: u64, at: Option<u64>| {
            for t in start + 1..=start + ticks {
                let c = if at == Some(t) { &switch } else { &plain };
                let event = (t == start + ticks).then_some(Event::Lap);
                log.after_step(t, c, [0.0; 3], || (0.0, 0.0), event);
            }
        };
        // A switch mid-lap, then one in the step that ends the lap: both
        // laps listed, neither the best, no delta to show.
        lap(&mut log, 0, 600, Some(300));
        assert!(log.last_mixed && log.best().is_none());
        lap(&mut log, 600, 500, Some(1100));
        assert!(log.last_mixed && log.best().is_none() && log.lap_delta.is_none());
        assert_eq!(log.ends, [600, 1100]);
        // A lap in one model, slower than both: the best, and a record.
        lap(&mut log, 1100, 700, None);
        assert!(!log.last_mixed);
        assert_eq!(log.best().map(|b| b.ticks), Some(700));
        // At another physics rate, the same lap is no record.
        assert!(log.clone().new_records(true, 1.0 / 30.0).is_empty());
        let records = log.new_records(true, 1.0 / 120.0);
        assert_eq!(records.iter().map(|b| b.ticks).collect::<Vec<_>>(), [700]);
        assert!(log.new_records(true, 1.0 / 120.0).is_empty(), "once");
    }

    /// Drives laps of `ticks` each into `log`, the aid steering those
    /// marked `true`.
    fn laps(log: &mut LapLog, laps: &[(u64, bool)]) {
        for &(ticks, aided) in laps {
            let start = log.lap_start();
            for t in start + 1..=start + ticks {
                if aided {
                    log.steered_by_aid();
                }
                let event = (t == start + ticks).then_some(Event::Lap);
                log.after_step(t, &Controls::default(), [0.0; 3], || (0.0, 0.0), event);
            }
        }
    }

    #[test]
    fn aided_and_unaided_laps_are_ranked_apart() {
        let ticks = |laps: Vec<&Lap>| laps.iter().map(|l| (l.ticks, l.aided)).collect::<Vec<_>>();
        // An unaided record of 900 ticks to beat; an aided lap of 500
        // beats nothing on it, and sets the aided board's best.
        let record = Lap {
            ticks: 900,
            ..Lap::default()
        };
        let mut log = LapLog::against([record]);
        laps(&mut log, &[(500, true)]);
        assert_eq!(log.lap_delta, None, "no aided lap to compare with");
        assert_eq!(log.best_on(false).map(|l| l.ticks), Some(900));
        assert_eq!(ticks(log.new_records(true, 1.0 / 120.0)), [(500, true)]);
        // The next lap races the aided board (its ghost, its splits)
        // until the aid is turned off before it steers.
        assert_eq!(log.best().map(|l| l.ticks), Some(500));
        log.aid_off();
        assert_eq!(log.best().map(|l| l.ticks), Some(900));
        // An unaided lap slower than the aided best, faster than the
        // record: a record on its own board.
        laps(&mut log, &[(800, false), (600, true)]);
        assert_eq!(ticks(log.new_records(true, 1.0 / 120.0)), [(800, false)]);
        assert_eq!(log.lap_delta, Some(100), "600 against the aided 500");
        assert_eq!(log.race_bests(1.0), [Some(800.0), Some(500.0)]);
        assert_eq!(log.aided, [true, false, true]);
    }

    #[test]
    fn a_skipped_checkpoint_or_a_backward_crossing_does_not_count() {
        let t = strip();
        let mut l = Laps::new(&t);
        // Around checkpoint 1 through the wall row is impossible here, so
        // fake a skip: jump from before 1 to after it without crossing.
        l.update(&t, DVec2::new(30.0, 10.0), DVec2::new(60.0, 10.0));
        assert_eq!(
            (l.lap, l.checkpoint),
            (0, 0),
            "2 before 1 does not count, nor the finish"
        );
        let mut l = Laps::new(&t);
        drive(&mut l, &t, &[9.0, 50.0]);
        assert_eq!(l.checkpoint, 2);
        drive(&mut l, &t, &[62.0, 50.0]);
        assert_eq!(l.lap, 0, "crossing the finish backwards");
    }

    #[test]
    fn crossing_again_right_after_a_lap_does_not_count_twice() {
        let t = strip();
        let mut l = Laps::new(&t);
        drive(&mut l, &t, &[9.0, 60.0, 54.0, 60.0]);
        assert_eq!(l.lap, 1);
    }

    #[test]
    fn cutting_across_grass_between_checkpoints_is_allowed() {
        // A loop with a grass infield; checkpoint 1 on the top straight,
        // 2 on the bottom, the finish on the left side going north.
        let src = "\
############
#..1.......#
#.,,,,,,,,.#
#|,,,,,,,,.#
#^,,,,,,,,.#
#.,,,,,,,,.#
#..2.......#
############
";
        let t = parse("loop", src.as_bytes()).unwrap();
        let mut l = Laps::new(&t);
        let at = |c: f64, r: f64| DVec2::new(c * 2.0 + 1.0, r * 4.0 + 2.0);
        // Up through the finish (not a lap: no checkpoint yet), across 1,
        // then straight down through the grass to 2, and up to the finish.
        for (a, b) in [
            (at(1.0, 4.0), at(1.0, 1.0)),
            (at(1.0, 1.0), at(5.0, 1.0)),
            (at(5.0, 1.0), at(5.0, 4.0)),
            (at(5.0, 4.0), at(2.0, 6.0)),
            (at(2.0, 6.0), at(1.0, 5.0)),
        ] {
            assert_eq!(t.surface_at(at(5.0, 3.0)).unwrap().name, "grass");
            l.update(&t, a, b);
        }
        assert_eq!(l.checkpoint, 2);
        assert_eq!(l.update(&t, at(1.0, 5.0), at(1.0, 2.0)), Some(Event::Lap));
    }

    #[test]
    fn without_checkpoints_the_first_crossing_starts_the_race() {
        let t = parse("o", b"############\n#..>...|...#\n############\n").unwrap();
        let mut l = Laps::new(&t);
        let y = 6.0;
        l.update(&t, DVec2::new(8.0, y), DVec2::new(18.0, y));
        assert_eq!(l.lap, 0);
        l.update(&t, DVec2::new(12.0, y), DVec2::new(13.0, y));
        l.update(&t, DVec2::new(13.0, y), DVec2::new(18.0, y));
        assert_eq!(l.lap, 1);
    }
}
