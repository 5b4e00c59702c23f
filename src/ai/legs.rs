//! The marks a lap's legs run between, as the racing line ([`super::line`])
//! plans them: where each leg starts and ends, the finish line drawn on to
//! the walls where it stops short of them, and the ends of marks that stop
//! in the open, which the line keeps [`TURN`] metres from so that the lap
//! turns round them in a curve a car can drive.

use glam::DVec2;

use super::gates::bounds;
use super::paths::{Cells, indices, widen};
use crate::track::course::{beside, cells_of_marks};
use crate::track::{Mark, Track};

/// How far (m) a mark must stop short of a wall to count as ending in the
/// open (a field, not a road): more than any road's width.
const OPEN_END: f64 = 2.0 * TURN;
/// How far (m) the legs keep from the end of a mark that ends in the open,
/// so that the lap turns round it in a curve a car can drive.
pub(super) const TURN: f64 = 12.0;

/// The marks of a lap, leg by leg.
pub(super) struct Legs {
    /// The finish line's cells a car can reach.
    pub(super) finish: Vec<Cell>,
    /// Where the legs start and end, in order: the cells just past the
    /// finish in the race direction, each checkpoint's cells a car can
    /// reach, and the cells just behind the finish.
    pub(super) stops: Vec<Vec<Cell>>,
    /// The corners of the rectangle round each mark's cells and a cell
    /// more each way, m: the finish at 0, checkpoint `n` at `n`.
    pub(super) bounds: Vec<[DVec2; 2]>,
    /// The drivable cells the finish line is drawn on over, to the walls
    /// it stops short of (less than [`OPEN_END`] metres away).
    pub(super) short: Vec<Cell>,
    /// Each stop's open ends ([`past_ends`]): the finish's at both ends.
    pub(super) ends: Vec<Vec<Cell>>,
    /// The race direction as a step in cells.
    pub(super) dir: (isize, isize),
}

impl Legs {
    pub(super) fn new(track: &Track) -> Legs {
        // Each mark's cells a car can reach, and its bounds: the finish,
        // then the checkpoints in order.
        let (mut marks, bounds): (Vec<Vec<Cell>>, Vec<[DVec2; 2]>) = cells_of_marks(track)
            .into_iter()
            .map(|mut cells| {
                let bounds = bounds(track, &cells);
                cells.retain(|&(c, r)| track.drivable(c, r));
                (cells, bounds)
            })
            .unzip();
        let finish = marks.remove(0);
        let dir = track.race_direction();
        let (dc, dr) = (dir.x.round() as isize, dir.y.round() as isize);
        let mut stops: Vec<Vec<Cell>> = vec![beside(track, &finish, dc, dr)];
        stops.append(&mut marks);
        stops.push(beside(track, &finish, -dc, -dr));
        let (short, finish_ends) = past_ends(track, &finish, (dr.abs(), dc.abs()));
        let mut ends = vec![finish_ends.clone()];
        for cells in &stops[1..stops.len() - 1] {
            ends.push(past_ends(track, cells, axis(track, cells)).1);
        }
        ends.push(finish_ends);
        Legs {
            finish,
            stops,
            bounds,
            short,
            ends,
            dir: (dc, dr),
        }
    }

    /// The cells within [`TURN`] metres of a mark's open end, which the
    /// line keeps out of (empty if none).
    pub(super) fn keep_out(&self, track: &Track) -> Cells {
        let all: Vec<Cell> = self.ends.iter().flatten().copied().collect();
        if all.is_empty() {
            Cells::default()
        } else {
            widen(track, indices(track, &all), TURN)
        }
    }
}

/// A cell's column and row.
pub(super) type Cell = (usize, usize);

/// Where a mark's line, drawn on from its `cells` both ways along `axis`
/// (a unit step in cells), meets a wall: the drivable cells it is drawn
/// over where that takes less than [`OPEN_END`] metres, and the first cell
/// past each end that stops farther than that from a wall, or stops short
/// of another mark (in the open).
pub(super) fn past_ends(
    track: &Track,
    cells: &[(usize, usize)],
    (ac, ar): (isize, isize),
) -> (Vec<Cell>, Vec<Cell>) {
    let step = (ac.abs() as f64 * track.cell_size().x).max(ar.abs() as f64 * track.cell_size().y);
    let most = (OPEN_END / step).ceil() as usize;
    let (mut short, mut open) = (Vec::new(), Vec::new());
    for &(c, r) in cells {
        for (sc, sr) in [(ac, ar), (-ac, -ar)] {
            let mut run = Vec::new();
            let (mut nc, mut nr) = (c as isize + sc, r as isize + sr);
            while run.len() < most
                && nc >= 0
                && nr >= 0
                && (nc as usize) < track.width
                && (nr as usize) < track.height
                && track.drivable(nc as usize, nr as usize)
                && track.mark_of(nc as usize, nr as usize) == Mark::None
            {
                run.push((nc as usize, nr as usize));
                (nc, nr) = (nc + sc, nr + sr);
            }
            // Stopped by another mark, not a wall: the way between the
            // two stays open (drawn on, the two lines would close it).
            let own = track.mark_of(c, r);
            let walled = track.is_wall(nc, nr)
                || !track.drivable(nc as usize, nr as usize)
                || [Mark::None, own].contains(&track.mark_of(nc as usize, nr as usize));
            if run.is_empty() || (run.len() < most && walled) {
                short.extend(run);
            } else {
                open.push(run[0]);
            }
        }
    }
    (short, open)
}

/// The axis a mark's line is drawn along, as a unit step in cells: across
/// its longer extent in metres.
fn axis(track: &Track, cells: &[(usize, usize)]) -> (isize, isize) {
    let span = |f: fn(&(usize, usize)) -> usize| {
        let lo = cells.iter().map(f).min().unwrap_or(0);
        let hi = cells.iter().map(f).max().unwrap_or(0);
        (hi - lo + 1) as f64
    };
    let cs = track.cell_size();
    if span(|p| p.0) * cs.x >= span(|p| p.1) * cs.y {
        (1, 0)
    } else {
        (0, 1)
    }
}
