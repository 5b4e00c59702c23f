//! The marks a computer driver must cross, and going back for one it
//! missed. A mark drawn across only the road, with grass beside it, can
//! be driven around: a car cutting a corner through the grass passes the
//! place where its line crosses the mark without crossing it, and the lap
//! is never counted (`arcade`, which turns on one wide radius, did so lap
//! after lap). The race says which mark counts next ([`Wanted`]); once
//! the car has gone [`MISSED_BY`] metres along its line past where the
//! line crosses that mark, it drives back to a point of the line
//! [`BACK`] metres before the mark, then through the mark at a walking
//! pace, aiming at the mark itself, until the race counts it.

use glam::DVec2;

use super::gates::mark_near;
use super::line::{Line, SPACING};
use crate::track::{Mark, Track};

/// How far past a mark's crossing (along the line) counts as missing it,
/// metres: a car crosses a mark a little off its line.
const MISSED_BY: f64 = 12.0;
/// How far before the mark a car going back for it turns round, metres.
const BACK: f64 = 15.0;
/// How close to the turning point counts as there, metres.
const THERE: f64 = 4.0;
/// The speed of a car going back for a mark, m/s.
pub const RETURN_SPEED: f64 = 7.0;

/// The mark a car's race counts next, and a number that changes whenever
/// the race counted any (so the same mark wanted again, on the next lap,
/// is a new one).
pub type Wanted = (Mark, u32);

/// Where the line crosses each mark, and how the car stands to the one
/// wanted.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// The line's index where it crosses each checkpoint (from 1) and the
    /// finish, if it does, and the middle of the mark there (of its cells
    /// within a few metres: where a car crosses it surely).
    crossings: Vec<(Mark, usize, DVec2)>,
    /// The wanted mark last told, the line's index it is crossed at, and
    /// its middle there.
    wanted: Option<(Wanted, usize, DVec2)>,
    /// How far along the line the car was from the wanted mark when it
    /// was told, and how far it has come since, in points.
    ahead: isize,
    come: isize,
    /// The line's index where the car was last step.
    last: usize,
    going: Going,
}

/// What a car does about the mark it wants.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Going {
    /// It follows its line, which crosses the mark.
    #[default]
    On,
    /// It missed the mark: back to the line's point this index.
    Back(usize),
    /// Through the mark, aiming at it.
    Through,
}

impl Marks {
    /// Where `line` crosses each mark of `track`.
    pub fn new(line: &Line, track: &Track) -> Marks {
        let n = line.points.len();
        let mut crossings: Vec<(Mark, usize, DVec2)> = Vec::new();
        for i in 0..n {
            let (a, b) = (line.points[i], line.points[(i + 1) % n]);
            track.cells_crossed(a, b, |c, r| {
                let mark = track.mark_of(c, r);
                if matches!(mark, Mark::Finish | Mark::Checkpoint(_))
                    && !crossings.iter().any(|(m, ..)| *m == mark)
                {
                    let cells = mark_near(track, mark, (c, r));
                    let middle = cells.iter().sum::<DVec2>() / cells.len().max(1) as f64;
                    crossings.push((mark, i, middle));
                }
            });
        }
        Marks {
            crossings,
            ..Marks::default()
        }
    }

    /// Where the car at line index `at`, at `pos`, should aim instead of
    /// following its line, and how fast at most, for the mark `wanted`
    /// (none: nothing to miss yet).
    pub fn aim(
        &mut self,
        line: &Line,
        at: usize,
        pos: DVec2,
        wanted: Option<Wanted>,
    ) -> Option<(DVec2, f64)> {
        let n = line.points.len() as isize;
        let step = wrapped(at as isize - self.last as isize, n);
        self.last = at;
        self.come += step;
        let Some(wanted) = wanted else {
            self.wanted = None;
            return None;
        };
        if self.wanted.map(|(w, ..)| w) != Some(wanted) {
            let crossing = self.crossings.iter().find(|(m, ..)| *m == wanted.0);
            self.wanted = crossing.map(|&(_, i, middle)| (wanted, i, middle));
            self.going = Going::On;
            self.start(at, n);
        }
        let (_, mark_at, middle) = self.wanted?;
        let past = (self.come - self.ahead) as f64 * SPACING;
        match self.going {
            Going::On | Going::Through if past > MISSED_BY => {
                let back = (BACK / SPACING).round() as isize;
                let to = (mark_at as isize - back).rem_euclid(n) as usize;
                self.going = Going::Back(to);
            }
            Going::Back(to) if line.points[to].distance(pos) < THERE => {
                self.going = Going::Through;
                self.start(at, n);
            }
            _ => {}
        }
        match self.going {
            Going::On => None,
            Going::Back(to) => Some((line.points[to], RETURN_SPEED)),
            Going::Through => {
                // Through the mark's middle, the way the line crosses it.
                let beyond = (mark_at + (4.0 / SPACING).round() as usize) % n as usize;
                let dir = (line.points[beyond] - line.points[mark_at]).normalize_or_zero();
                let through = if (middle - pos).dot(dir) > 1.0 {
                    middle
                } else {
                    middle + dir * 4.0
                };
                Some((through, RETURN_SPEED))
            }
        }
    }

    /// Counts from here: the car at `at` has this far to go along the
    /// line to the mark (a mark just behind it is a lap away).
    fn start(&mut self, at: usize, n: isize) {
        let mark_at = self.wanted.map_or(at, |(_, i, _)| i);
        self.ahead = (mark_at as isize - at as isize).rem_euclid(n);
        self.come = 0;
    }
}

/// `d` in `-n/2..n/2`: a step along a loop of `n` points.
fn wrapped(d: isize, n: isize) -> isize {
    let d = d.rem_euclid(n.max(1));
    if d > n / 2 { d - n } else { d }
}
