//! The racing line: a closed path around any valid track, from its walls,
//! surfaces and checkpoint order alone (no hand-placed waypoints).
//!
//! 1. Shortest paths ([`super::paths`]: 8-connected, over cells a car can
//!    reach) from the finish line to checkpoint 1, from 1 to 2, ..., and
//!    from the last back to the finish, joined into one loop. A cell costs its
//!    length in metres times a penalty for lying near a wall (`1 + 6 /
//!    clearance`, clearance in cells) and for low grip (`1 + 3 (1 - grip)`),
//!    so the line keeps to the middle of the road and off the grass.
//!    Direction: the first leg starts on the cells just past the finish
//!    (in the race direction) and the last ends on the cells just behind
//!    it, the line itself closed to every leg (as to a lap: a leg between
//!    checkpoints that went back over it could take the wrong way round;
//!    drawn on to the walls where it
//!    stops short of them, unless it stops `legs::OPEN_END` metres or more from
//!    them or short of another mark: then the legs keep [`TURN`] metres from
//!    that end, as from a checkpoint's end in the open, so the lap turns
//!    round it in a curve a car can drive); and no leg may run back along the
//!    one before it (which on a symmetric course is as short as going on):
//!    the previous leg's corridor, its path widened by [`CORRIDOR`] metres
//!    but for its last [`OPEN`] metres, is closed to the next, except
//!    within [`OPEN`] metres of the next leg's goal.
//! 2. Resampled every [`SPACING`] metres and smoothed ([`super::smooth`]:
//!    points pulled to the mean of their neighbours, a move kept only if it
//!    stays on a cell with room to spare and clear of any wall; a point the
//!    path left beside a wall steps straight away from it), which turns the
//!    grid's staircase into curves.
//! 3. A speed for every point: `v = sqrt(a_lat grip / kappa)` with the
//!    curvature `kappa` of the line around it, then a backward pass so the
//!    car can brake from one point's speed to the next's at `a_brake`
//!    (`v_i^2 <= v_{i+1}^2 + 2 a_brake ds`), twice round the loop.

use glam::DVec2;

pub use super::gates::Gate;
use super::gates::{Crossing, gate, loose, mark_near};
use super::legs::{Cell, Legs, TURN};
use super::meet::Tables;
use super::nearest::Near;
use super::paths::{Cells, Prices, Span, indices, large, shortest, widen, widen_path};
use super::regions::Regions;
pub use super::smooth::SPACING;
use super::smooth::{resample, smooth, wrap};
use super::speeds::speeds;
use crate::track::{Mark, Track};

/// How far either side of a leg's path its corridor reaches, metres.
const CORRIDOR: f64 = 14.0;
/// How much of a leg's end stays open to the next leg, metres.
const OPEN: f64 = 20.0;
/// The most cells a car can reach on a track whose loop is searched cell
/// by cell (a road winding over a whole 2048 x 2048 map: 0.28 s). Larger
/// tracks are searched in blocks ([`Track::in_blocks`]) of `f` x `f`
/// cells, `f` the least that brings their number under this, then
/// smaller blocks where those hold no lap (a road narrower than `2 f - 1`
/// cells closes), down to cells.
pub const CELLS_SEARCHED: usize = 1 << 22;

/// Cornering and braking (m/s² on grip 1) and top speed (m/s) the race's
/// line is planned for: the race uses it to place cars and tell the
/// course's direction, so one line serves every model.
const LINE_PLAN: (f64, f64, f64) = (8.0, 6.0, 60.0);

/// The racing line the race uses on `track`.
pub fn race_line(track: &Track) -> Line {
    let (a_lat, a_brake, top) = LINE_PLAN;
    Line::new(track, a_lat, a_brake, top)
}

/// How many points ahead of a car the speed it holds is planned
/// ([`Line::target`]).
pub const LEAD: usize = 2;

/// A closed racing line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub points: Vec<DVec2>,
    /// Target speed at each point, m/s.
    pub speeds: Vec<f64>,
    /// Marks drawn across only part of the road where the line crosses
    /// them: a driver aims at these points until past them.
    pub gates: Vec<Gate>,
    /// The points by place, to find the nearest ([`super::nearest`]).
    near: Near,
}

impl Line {
    /// The racing line of a track, for cornering at `a_lat` and braking at
    /// `a_brake` (m/s², on grip 1), never faster than `top` m/s.
    pub fn new(track: &Track, a_lat: f64, a_brake: f64, top: f64) -> Line {
        let (points, gates) = block_sizes(track)
            .find_map(|f| drawn_in_blocks(track, f))
            .unwrap_or_else(|| {
                let legs = Legs::new(track);
                let (path, crossings, _) = centres(track, &legs);
                let centre = |k: usize| centre(track, path[k]);
                drawn(
                    track,
                    path.len(),
                    centre,
                    &crossings,
                    false,
                    &legs.keep_out(track),
                )
            });
        Line::through(track, points, gates, a_lat, a_brake, top)
    }

    /// The line searched in blocks of `f` x `f` cells (`f` at least 2), as
    /// [`Line::new`] searches it on the largest tracks: `None` where the
    /// blocks hold no lap.
    pub fn in_blocks(track: &Track, f: usize, a_lat: f64, a_brake: f64, top: f64) -> Option<Line> {
        let (points, gates) = drawn_in_blocks(track, f)?;
        Some(Line::through(track, points, gates, a_lat, a_brake, top))
    }

    /// The line through `points`, with their speeds.
    fn through(
        track: &Track,
        mut points: Vec<DVec2>,
        gates: Vec<Gate>,
        a_lat: f64,
        a_brake: f64,
        top: f64,
    ) -> Line {
        // Never empty: on a track with no lap (which `track::course` rejects
        // before a race) the line is the start alone, so every index into
        // it stays valid.
        if points.is_empty() {
            points.push(track.start_pose(0).0);
        }
        let speeds = speeds(track, &points, a_lat, a_brake, top);
        Line::of(points, speeds, gates)
    }

    /// The line through `points` at `speeds`, with `gates`.
    pub fn of(points: Vec<DVec2>, speeds: Vec<f64>, gates: Vec<Gate>) -> Line {
        Line {
            near: Near::new(&points),
            points,
            speeds,
            gates,
        }
    }

    /// The same line with speeds for other limits: the path, the costly
    /// part, is computed once per track.
    pub fn respeed(&self, track: &Track, a_lat: f64, a_brake: f64, top: f64) -> Line {
        Line {
            points: self.points.clone(),
            speeds: speeds(track, &self.points, a_lat, a_brake, top),
            gates: self.gates.clone(),
            near: self.near.clone(),
        }
    }

    /// Index of the point nearest `p`, searching near `hint` first (a car
    /// moves little between steps) and the whole line when that fails.
    pub fn nearest(&self, p: DVec2, hint: usize) -> usize {
        let n = self.points.len();
        let near = (0..40).map(|k| wrap(hint, k - 10, n));
        let best = near.min_by(|&a, &b| {
            self.points[a]
                .distance_squared(p)
                .total_cmp(&self.points[b].distance_squared(p))
        });
        match best {
            Some(i) if self.points[i].distance(p) < 8.0 => i,
            _ => self.near.nearest(&self.points, p),
        }
    }

    /// The speed a driver at point `i` holds now: the one planned
    /// [`LEAD`] points on, m/s.
    pub fn target(&self, i: usize) -> f64 {
        self.speeds[(i + LEAD) % self.speeds.len()]
    }

    /// The point `ahead` metres further along the line from point `i`.
    pub fn ahead(&self, i: usize, ahead: f64) -> DVec2 {
        let n = self.points.len();
        self.points[(i + (ahead / SPACING).round() as usize) % n]
    }

    /// Length of the loop in metres.
    pub fn length(&self) -> f64 {
        self.points.len() as f64 * SPACING
    }
}

/// The block sizes [`Line::new`] searches `track` in, largest first
/// ([`CELLS_SEARCHED`]): none on all but the largest tracks.
fn block_sizes(track: &Track) -> impl Iterator<Item = usize> {
    // No need to count the cells of a map that has too few in all.
    let reach = if track.width * track.height <= CELLS_SEARCHED {
        0
    } else {
        track.reachable().iter().filter(|&&r| r).count()
    };
    sizes_for(reach)
}

/// [`block_sizes`] for a track with `reach` cells a car can reach.
fn sizes_for(reach: usize) -> impl Iterator<Item = usize> {
    let mut f = (reach as f64 / CELLS_SEARCHED as f64).sqrt().ceil() as usize;
    std::iter::from_fn(move || {
        let this = f;
        f /= 2;
        (this >= 2).then_some(this)
    })
}

/// The loop of `n` points `centre(0)`, `centre(1)`, ... over `track`,
/// resampled every [`SPACING`] metres and smoothed, pinned to gates where
/// it crosses the marks of `crossings` with too little to spare
/// ([`super::gates`]), or to every mark's if `pin_all`, kept out of
/// `keep_out`.
fn drawn(
    track: &Track,
    n: usize,
    centre: impl Fn(usize) -> DVec2,
    crossings: &[Crossing],
    pin_all: bool,
    keep_out: &Cells,
) -> (Vec<DVec2>, Vec<Gate>) {
    // The path resampled, twice if need be: smoothing works in place, and
    // on a map-wide path a copy would cost as much again.
    let resampled = || resample(n, &centre);
    // Where the smoothed line crosses a mark with too little of it either
    // side, or misses it, the mark is a gate ([`super::gates`]): the line
    // is smoothed again pinned to it. Pinned to every mark, it is smoothed
    // once, and the gates are placed by the line before smoothing.
    let (loose, smoothed, raw) = if pin_all {
        (crossings.iter().collect(), None, resampled())
    } else {
        let points = smooth(track, resampled(), &[], keep_out);
        let loose = loose(track, crossings, &points);
        if loose.is_empty() {
            return (points, Vec::new());
        }
        (loose, Some(points), resampled())
    };
    let by = smoothed.as_deref().unwrap_or(&raw);
    let gates: Vec<Gate> = loose
        .into_iter()
        .map(|c| gate(track, c, &centre, by, &raw))
        .collect();
    drop(smoothed);
    let pins: Vec<(usize, DVec2)> = gates.iter().map(|g| (g.index, g.at)).collect();
    (smooth(track, raw, &pins, keep_out), gates)
}

/// The loop searched over `track` in blocks of `f` x `f` cells
/// ([`Track::in_blocks`]), drawn ([`drawn`]) over the track's own cells:
/// `None` where the blocks hold no lap (every leg, crossing every mark).
fn drawn_in_blocks(track: &Track, f: usize) -> Option<(Vec<DVec2>, Vec<Gate>)> {
    let blocks = track.in_blocks(f)?;
    let (path, crossings, whole) = centres(&blocks, &Legs::new(&blocks));
    if !whole || crossings.len() != usize::from(track.checkpoints) + 1 {
        return None;
    }
    // Where the loop crosses each mark, on the track's own cells: the
    // mark's cell nearest the middle of the block the loop reached it in.
    let legs = Legs::new(track);
    let crossings: Vec<Crossing> = crossings
        .into_iter()
        .map(|c| {
            let middle = blocks.cell_center(c.at.0, c.at.1);
            let at = block_cells(track, f, c.at)
                .filter(|&(col, r)| track.mark_of(col, r) == c.mark)
                .min_by(|&a, &b| {
                    let d = |(col, r)| track.cell_center(col, r).distance_squared(middle);
                    d(a).total_cmp(&d(b))
                })?;
            let k = match c.mark {
                Mark::Checkpoint(n) => usize::from(n),
                _ => 0,
            };
            Some(Crossing {
                bounds: legs.bounds[k],
                at,
                cells: mark_near(track, c.mark, at),
                ..c
            })
        })
        .collect::<Option<_>>()?;
    let points: Vec<DVec2> = path
        .iter()
        .map(|&i| block_point(track, &blocks, f, i as usize))
        .collect();
    drop(path);
    let centre = |k: usize| points[k];
    Some(drawn(
        track,
        points.len(),
        centre,
        &crossings,
        true,
        &legs.keep_out(track),
    ))
}

/// The cells of `track` in block `(bc, br)` of `f` x `f` cells
/// ([`Track::in_blocks`]), those on the map.
fn block_cells(track: &Track, f: usize, (bc, br): Cell) -> impl Iterator<Item = Cell> + Clone + '_ {
    let cols = bc * f..(bc * f + f).min(track.width);
    (br * f..(br * f + f).min(track.height)).flat_map(move |r| cols.clone().map(move |c| (c, r)))
}

/// Where the line passes through block `i` of `blocks` (`f` x `f` cells
/// of `track`): its middle, or where its surface is mixed, the middle of
/// its cells of the most grip (a block of asphalt and ice is costed as
/// ice, but the line may keep to its asphalt).
fn block_point(track: &Track, blocks: &Track, f: usize, i: usize) -> DVec2 {
    let (bc, br) = (i % blocks.width, i / blocks.width);
    let cells = block_cells(track, f, (bc, br));
    let grip = |&(c, r): &Cell| track.surface_of(c, r).map_or(0.0, |s| s.grip);
    let best = cells
        .clone()
        .map(|c| grip(&c))
        .fold(f64::NEG_INFINITY, f64::max);
    if cells.clone().all(|c| grip(&c) == best) {
        return blocks.cell_center(bc, br);
    }
    let (sum, n) = cells
        .filter(|c| grip(c) == best)
        .fold((DVec2::ZERO, 0.0), |(sum, n), (c, r)| {
            (sum + track.cell_center(c, r), n + 1.0)
        });
    sum / n
}

/// The cells along the loop over `track` between the marks of `legs`
/// (finish, checkpoints in order, finish), by index `row * width + col`,
/// where it crosses each mark, and whether every leg was found (else the
/// loop leaves out those that were not).
fn centres(track: &Track, legs: &Legs) -> (Vec<u32>, Vec<Crossing>, bool) {
    let w = track.width;
    let mut search = LegSearch::new(track, legs);
    let mut cells: Vec<u32> = Vec::new();
    let mut crossings = Vec::new();
    let mut previous: Vec<u32> = Vec::new();
    let mut whole = true;
    let stops = &legs.stops;
    for k in 0..stops.len() - 1 {
        let Some(path) = search.leg(k, &previous) else {
            whole = false;
            previous.clear();
            continue;
        };
        let last = k + 2 == stops.len();
        // Only a leg to come needs this one's path (a copy of a
        // map-wide path costs what making it did).
        if cells.is_empty() && last {
            cells = path;
        } else {
            let skip = usize::from(!cells.is_empty());
            cells.extend(path.iter().skip(skip));
            previous = path;
        }
        if !last {
            let end = *cells.last().expect("a path has cells") as usize;
            let mark = Mark::Checkpoint(k as u8 + 1);
            crossings.push(Crossing {
                mark,
                bounds: legs.bounds[k + 1],
                at: (end % w, end / w),
                cells: mark_near(track, mark, (end % w, end / w)),
                index: cells.len() - 1,
                dir: DVec2::ZERO,
            });
        }
    }
    crossings.extend(finish_crossing(track, legs, &cells));
    let centre = |k: usize| centre(track, cells[k]);
    let k = cells.len();
    for g in &mut crossings {
        g.dir = (centre((g.index + 2) % k) - centre((g.index + k - 2) % k)).normalize_or_zero();
    }
    (cells, crossings, whole)
}

/// The search of each leg of the loop, and what it may not cross besides
/// walls.
struct LegSearch<'a> {
    track: &'a Track,
    legs: &'a Legs,
    /// The finish line closed to every leg, drawn on across the road to
    /// the walls where it stops short of them: a leg may not go round its
    /// end the wrong way, nor cross it between checkpoints. Where it stops
    /// in the open, it is not drawn on (that would close the field); the
    /// legs keep [`TURN`] metres from that end instead, and from a
    /// checkpoint's open end.
    finish_closed: Span,
    /// Where a leg's search runs from both ends, the regions the leg can
    /// use (none past its goal).
    regions: Option<Regions<'a>>,
    prices: Prices,
    tables: Tables,
}

impl<'a> LegSearch<'a> {
    fn new(track: &'a Track, legs: &'a Legs) -> LegSearch<'a> {
        let w = track.width;
        let (finish, stops, short) = (&legs.finish, &legs.stops, &legs.short);
        let closed = finish.iter().chain(short).map(|&(c, r)| r * w + c);
        let regions = (large(track) && track.checkpoints > 0)
            .then(|| Regions::new(track, finish, &stops[1..stops.len() - 1], short));
        LegSearch {
            track,
            legs,
            finish_closed: Span::new(closed),
            regions,
            prices: Prices::new(track),
            tables: Tables::new(track.width * track.height),
        }
    }

    /// The cheapest way for leg `k`, from stop `k` to stop `k + 1`, kept
    /// out of the corridor of the leg before (`previous`, its path) but
    /// near its goal; none if there is none.
    fn leg(&mut self, k: usize, previous: &[u32]) -> Option<Vec<u32>> {
        let track = self.track;
        let (pair, ends) = (&self.legs.stops[k..k + 2], &self.legs.ends);
        // Open near this leg's goal all the same: with one checkpoint the
        // leg before the last starts just past the finish, and its
        // corridor would wall the finish off from behind.
        let keep = (OPEN / track.cell).ceil() as usize;
        let corridor = (previous.len() > keep).then(|| {
            (
                widen_path(track, &previous[..previous.len() - keep], CORRIDOR),
                widen(track, indices(track, &pair[1]), OPEN),
            )
        });
        let goal = (k < usize::from(track.checkpoints)).then_some(k as u8 + 1);
        let leg = self.regions.as_ref().map(|r| r.leg(&pair[0], goal));
        let finish_closed = &self.finish_closed;
        let closed = |i: usize| {
            finish_closed.contains(i)
                || leg.as_ref().is_some_and(|l| !l.open(i))
                || corridor
                    .as_ref()
                    .is_some_and(|(c, g)| c.contains(i) && !g.contains(i))
        };
        let open: Vec<Cell> = [&ends[k], &ends[k + 1]]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        let (prices, tables) = (&self.prices, &mut self.tables);
        if open.is_empty() {
            return shortest(track, prices, tables, &pair[0], &pair[1], closed);
        }
        let near = widen(track, indices(track, &open), TURN);
        shortest(track, prices, tables, &pair[0], &pair[1], |i| {
            near.contains(i) || closed(i)
        })
        .or_else(|| shortest(track, prices, tables, &pair[0], &pair[1], closed))
    }
}

/// Where the loop of `cells` crosses the finish: from its last cell to
/// its first, which is just past the line.
fn finish_crossing(track: &Track, legs: &Legs, cells: &[u32]) -> Option<Crossing> {
    let w = track.width;
    let (dc, dr) = legs.dir;
    let &first = cells.first()?;
    let (c, r) = (first as usize % w, first as usize / w);
    let (fc, fr) = (c as isize - dc, r as isize - dr);
    if fc < 0 || fr < 0 || track.mark_of(fc as usize, fr as usize) != Mark::Finish {
        return None;
    }
    let at = (fc as usize, fr as usize);
    Some(Crossing {
        mark: Mark::Finish,
        bounds: legs.bounds[0],
        at,
        cells: mark_near(track, Mark::Finish, at),
        index: 0,
        dir: DVec2::ZERO,
    })
}

/// The centre of the cell with index `i` (`row * width + col`).
fn centre(track: &Track, i: u32) -> DVec2 {
    let i = i as usize;
    track.cell_center(i % track.width, i / track.width)
}

#[cfg(test)]
mod tests;
