//! Smoothing a path over a track's grid into a racing line ([`super::line`]):
//! points every [`SPACING`] metres, each pulled towards the mean of its
//! neighbours two either side (`p <- (p + mean) / 2`, 60 passes), a move
//! kept only where a car has room, which turns the grid's staircase into
//! curves.

use glam::DVec2;

use crate::track::Track;

/// How close (m) smoothing may bring the line to a wall: half a car's
/// width and a little.
const WALL_GAP: f64 = 1.3;
/// Metres between points of the line.
pub const SPACING: f64 = 2.0;
/// How far before and after a pin the line may pass a cell from a wall,
/// metres.
const BEND: f64 = 16.0;

/// Points every [`SPACING`] metres along a closed polyline.
pub(super) fn resample(poly: &[DVec2]) -> Vec<DVec2> {
    if poly.len() < 2 {
        return poly.to_vec();
    }
    let mut out = vec![poly[0]];
    let mut carry = 0.0;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        let len = a.distance(b);
        let mut s = SPACING - carry;
        while s <= len {
            out.push(a.lerp(b, s / len));
            s += SPACING;
        }
        carry = len - (s - SPACING);
    }
    out.pop();
    out
}

/// Pulls each point towards its neighbours' mean, a move kept only where
/// a car has room (two cells from a wall), or, for a point without room,
/// anywhere on the course; the points `pins` name stay where they say.
pub(super) fn smooth(
    track: &Track,
    mut pts: Vec<DVec2>,
    pins: &[(usize, DVec2)],
    keep_out: &[bool],
) -> Vec<DVec2> {
    let n = pts.len();
    let mut pinned = vec![false; n];
    // The room a point needs: two cells, but one within [`BEND`] metres of
    // a pin (a gate may be drawn next to a wall, and the line must reach
    // it in a curve).
    let mut need = vec![2; n];
    let m = (BEND / SPACING) as isize;
    for &(i, at) in pins {
        if let Some(p) = pts.get_mut(i) {
            *p = at;
            pinned[i] = true;
            for j in -m..=m {
                need[wrap(i, j, n)] = 1;
            }
        }
    }
    if n < 5 {
        return pts;
    }
    // Clearance in cells, -1 off the course and near the end of a mark
    // in the open (so a loop round it does not shrink).
    let room = |p: DVec2| {
        track.cell_at(p).map_or(-1, |(c, r)| {
            let k = track.clearance_cells(c, r);
            let open =
                track.drivable(c, r) && !keep_out.get(r * track.width + c).is_some_and(|&k| k);
            // Next to a wall, the cell alone says too little: a point at
            // its edge would run a car's side along the wall.
            if open && (k > 1 || !near_wall(track, p, WALL_GAP)) {
                i32::from(k)
            } else {
                -1
            }
        })
    };
    // A point the path left beside a wall (a road one cell wide, a wall's
    // staircase edge) steps away from it. No move below brings a point
    // that near a wall again.
    for i in 0..n {
        if !pinned[i]
            && let Some(p) = off_wall(track, pts[i])
            && room(p) >= 0
        {
            pts[i] = p;
        }
    }
    relax(&mut pts, 60, |i, pts| {
        let mean =
            (pts[wrap(i, -2, n)] + pts[wrap(i, -1, n)] + pts[wrap(i, 1, n)] + pts[wrap(i, 2, n)])
                * 0.25;
        let moved = pts[i].lerp(mean, 0.5);
        let roomy = |p: DVec2| room(p) >= need[i];
        (!pinned[i] && (roomy(moved) || (!roomy(pts[i]) && room(moved) >= 0))).then_some(moved)
    });
    pts
}

/// `passes` passes over the closed line `pts`, each moving every point `i`
/// to where `step(i, pts)` says (`None`: it stays), all from the points as
/// the pass before left them. `step` reads only the points two either
/// side of `i`, so a point whose neighbourhood did not change in the pass
/// before would do again what it did then, which left it where it is:
/// only points near a change are visited, the same result as visiting all
/// (on a long straight, most points sit at their neighbours' mean).
fn relax(pts: &mut [DVec2], passes: u8, step: impl Fn(usize, &[DVec2]) -> Option<DVec2>) {
    let n = pts.len();
    let mut active: Vec<usize> = (0..n).collect();
    // The pass that last put a point in `active`.
    let mut seen = vec![0u8; n];
    let mut moves: Vec<(usize, DVec2)> = Vec::new();
    for pass in 1..=passes {
        moves.clear();
        for &i in &active {
            if let Some(p) = step(i, pts)
                && p != pts[i]
            {
                moves.push((i, p));
            }
        }
        active.clear();
        for &(i, p) in &moves {
            pts[i] = p;
        }
        if moves.len() * 4 >= n {
            // Most points moved (a short, winding line): visiting them all
            // costs less than finding which.
            active.extend(0..n);
            continue;
        }
        for &(i, _) in &moves {
            for d in -2..=2 {
                let j = wrap(i, d, n);
                if seen[j] != pass {
                    seen[j] = pass;
                    active.push(j);
                }
            }
        }
    }
}

/// Where a point within [`WALL_GAP`] of a wall moves to get clear of it:
/// up to a cell's width straight away from the wall cells beside it, the
/// first step that is clear; none if no step is.
fn off_wall(track: &Track, p: DVec2) -> Option<DVec2> {
    // Two cells or more from a wall (most points), none is beside it.
    let beside = track
        .cell_at(p)
        .is_some_and(|(c, r)| track.clearance_cells(c, r) <= 1);
    if !beside || !near_wall(track, p, WALL_GAP) {
        return None;
    }
    let away: DVec2 = wall_points(track, p)
        .map(|q| (p - q).normalize_or_zero() / p.distance(q).max(0.1))
        .sum();
    let away = away.normalize_or_zero();
    let most = track.cell_size().min_element();
    (1..=8)
        .map(|k| p + away * (most * k as f64 / 8.0))
        .find(|&q| !near_wall(track, q, WALL_GAP))
}

/// Whether a wall cell lies within `gap` metres (less than a cell's
/// width) of `p`.
fn near_wall(track: &Track, p: DVec2, gap: f64) -> bool {
    wall_points(track, p).any(|q| q.distance(p) < gap)
}

/// The nearest point to `p` of each wall cell among the 3 x 3 cells
/// around it.
fn wall_points(track: &Track, p: DVec2) -> impl Iterator<Item = DVec2> + '_ {
    let cs = track.cell_size();
    let (c, r) = ((p.x / cs.x).floor() as isize, (p.y / cs.y).floor() as isize);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (c + dc, r + dr)))
        .filter(|&(wc, wr)| track.is_wall(wc, wr))
        .map(move |(wc, wr)| {
            let lo = DVec2::new(wc as f64 * cs.x, wr as f64 * cs.y);
            p.clamp(lo, lo + cs)
        })
}

/// Index `i + d` of a closed line of `n` points, wrapped (any `n` from 1).
pub(super) fn wrap(i: usize, d: isize, n: usize) -> usize {
    let j = i as isize + d;
    // Most indices need no wrapping, and a remainder costs a division.
    if (0..n as isize).contains(&j) {
        j as usize
    } else {
        j.rem_euclid(n as isize) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxing_only_near_changes_moves_every_point_as_visiting_all_would() {
        // A closed line of long straights (where points sit still) with a
        // kink and noise at a few places, and a step that refuses some
        // moves, as walls do: the same points, bit for bit, as the plain
        // pass over every point, for a fraction of the visits.
        let mut pts: Vec<DVec2> = (0..2000)
            .map(|i| DVec2::new(i as f64 * SPACING, 0.0))
            .chain(
                (0..2000)
                    .rev()
                    .map(|i| DVec2::new(i as f64 * SPACING, 40.0)),
            )
            .collect();
        for (k, i) in [7usize, 500, 1999, 2600, 3990].into_iter().enumerate() {
            pts[i].y += 3.0 + k as f64 * 0.37;
        }
        let n = pts.len();
        let visits = std::cell::Cell::new(0);
        let step = |i: usize, pts: &[DVec2]| {
            visits.set(visits.get() + 1);
            let mean = (pts[wrap(i, -2, n)]
                + pts[wrap(i, -1, n)]
                + pts[wrap(i, 1, n)]
                + pts[wrap(i, 2, n)])
                * 0.25;
            let moved = pts[i].lerp(mean, 0.5);
            ((moved.x * 0.731 + moved.y * 3.1).sin() > -0.8).then_some(moved)
        };
        let mut every = pts.clone();
        for _ in 0..60 {
            let prev = every.clone();
            for (i, p) in every.iter_mut().enumerate() {
                if let Some(q) = step(i, &prev) {
                    *p = q;
                }
            }
        }
        let all = visits.replace(0);
        relax(&mut pts, 60, step);
        assert!(
            pts.iter()
                .zip(&every)
                .all(|(a, b)| a.to_array() == b.to_array())
        );
        assert_ne!(pts[500].y, 0.0, "the kinks moved");
        assert!(visits.get() * 5 < all, "{} of {all} visits", visits.get());
    }
}
