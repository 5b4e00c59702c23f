//! Smoothing a path over a track's grid into a racing line ([`super::line`]):
//! points every [`SPACING`] metres, each pulled towards the mean of its
//! neighbours two either side (`p <- (p + mean) / 2`, 60 passes), a move
//! kept only where a car has room, which turns the grid's staircase into
//! curves.

use glam::DVec2;

use super::parts::{in_parts, part_len, parts};
use super::paths::Cells;
use crate::track::Track;

/// How close (m) smoothing may bring the line to a wall: half a car's
/// width and a little.
const WALL_GAP: f64 = 1.3;
/// Metres between points of the line.
pub const SPACING: f64 = 2.0;
/// How far before and after a pin the line may pass a cell from a wall,
/// metres.
const BEND: f64 = 16.0;

/// Points every [`SPACING`] metres along the closed polyline of `n`
/// points `at(0)`, `at(1)`, ...
pub(super) fn resample(n: usize, at: impl Fn(usize) -> DVec2) -> Vec<DVec2> {
    if n < 2 {
        return (0..n).map(at).collect();
    }
    let mut out = vec![at(0)];
    let mut carry = 0.0;
    for k in 0..n {
        let (a, b) = (at(k), at((k + 1) % n));
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
    keep_out: &Cells,
) -> Vec<DVec2> {
    let n = pts.len();
    let mut pinned = vec![false; n];
    // The room a point needs: two cells, but one within [`BEND`] metres of
    // a pin (a gate may be drawn next to a wall, and the line must reach
    // it in a curve).
    let mut need = vec![2u8; n];
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
            let open = track.drivable(c, r) && !keep_out.contains(r * track.width + c);
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
    let size = part_len(n);
    in_parts(
        pts.chunks_mut(size).zip(pinned.chunks(size)),
        |(pts, pinned)| {
            for (q, _) in pts.iter_mut().zip(pinned).filter(|(_, pinned)| !**pinned) {
                if let Some(p) = off_wall(track, *q)
                    && room(p) >= 0
                {
                    *q = p;
                }
            }
        },
    );
    relax(&mut pts, 60, parts(n), |i, [a, b, p, c, d]| {
        let moved = p.lerp((a + b + c + d) * 0.25, 0.5);
        // Already at its neighbours' mean (most of a straight): no room to
        // ask about.
        if moved == p {
            return None;
        }
        let roomy = |q: DVec2| room(q) >= i32::from(need[i]);
        (!pinned[i] && (roomy(moved) || (!roomy(p) && room(moved) >= 0))).then_some(moved)
    });
    pts
}

/// `passes` passes over the closed line `pts` (none under 5 points), each
/// moving every point `i` to where `step(i, around)` says (`None`: it
/// stays), `around` being points `i - 2 ..= i + 2` as the pass before left
/// them. A point whose neighbourhood did not change in the pass before
/// would do again what it did then, which left it where it is: only points
/// near a change are visited, the same result as visiting all (on a long
/// straight, most points sit at their neighbours' mean). When a quarter of
/// the points or more moved, the next pass visits them all in order, in
/// place, keeping the last few old points aside; a pass that moved fewer
/// keeps its moves aside until its end. Either way smoothing holds little
/// beside the line itself. Each pass runs in `parts` parts at once.
fn relax(
    pts: &mut [DVec2],
    passes: u8,
    parts: usize,
    step: impl Fn(usize, [DVec2; 5]) -> Option<DVec2> + Sync,
) {
    let n = pts.len();
    if n < 5 {
        return;
    }
    let parts = parts.clamp(1, n / 5);
    // The pass in which a point last moved, and the pass that last put it
    // in `active`.
    let mut moved_in = vec![0u8; n];
    let mut seen = vec![0u8; n];
    let mut active: Vec<u32> = Vec::new();
    let mut moves: Vec<(u32, DVec2)> = Vec::new();
    let mut dense = true;
    for pass in 1..=passes {
        let count = if dense {
            dense_pass(pts, &mut moved_in, pass, parts, &step)
        } else {
            let pts: &[DVec2] = pts;
            let around = |i: usize| [-2, -1, 0, 1, 2].map(|d| pts[wrap(i, d, n)]);
            let found = in_parts(active.chunks(active.len().div_ceil(parts).max(1)), |part| {
                let mut moves = Vec::new();
                for &i in part {
                    if let Some(p) = step(i as usize, around(i as usize))
                        && p != pts[i as usize]
                    {
                        moves.push((i, p));
                    }
                }
                moves
            });
            moves.clear();
            moves.extend(found.into_iter().flatten());
            moves.len()
        };
        if !dense {
            for &(i, p) in &moves {
                pts[i as usize] = p;
                moved_in[i as usize] = pass;
            }
        }
        let was_dense = dense;
        // Most points moved (a short, winding line): visiting them all
        // costs less than finding which.
        dense = count * 4 >= n;
        if dense {
            continue;
        }
        active.clear();
        let mut near = |i: usize| {
            for d in -2..=2 {
                let j = wrap(i, d, n);
                if seen[j] != pass {
                    seen[j] = pass;
                    active.push(j as u32);
                }
            }
        };
        if was_dense {
            (0..n).filter(|&i| moved_in[i] == pass).for_each(&mut near);
        } else {
            for &(i, _) in &moves {
                near(i as usize);
            }
        }
    }
}

/// One pass over every point of the closed line `pts`, in place, in
/// `parts` runs of points at once; returns how many points moved, marking
/// them in `moved_in`. Each run keeps aside the old points around it.
fn dense_pass(
    pts: &mut [DVec2],
    moved_in: &mut [u8],
    pass: u8,
    parts: usize,
    step: &(impl Fn(usize, [DVec2; 5]) -> Option<DVec2> + Sync),
) -> usize {
    let n = pts.len();
    let size = n.div_ceil(parts);
    // Each run: its first index, and the two old points before it and
    // three after it.
    let edges: Vec<(usize, [DVec2; 2], [DVec2; 3])> = (0..n)
        .step_by(size)
        .map(|a| {
            let b = (a + size).min(n);
            let old = |i: usize, d: isize| pts[wrap(i, d, n)];
            (
                a,
                [old(a, -2), old(a, -1)],
                [old(b, 0), old(b, 1), old(b, 2)],
            )
        })
        .collect();
    let runs = pts
        .chunks_mut(size)
        .zip(moved_in.chunks_mut(size))
        .zip(edges);
    in_parts(runs, |((pts, moved_in), (first, before, after))| {
        let m = pts.len();
        let mut count = 0;
        // Point `k` of the run as it was, for any `k` not yet visited.
        let old = |pts: &[DVec2], k: usize| if k < m { pts[k] } else { after[k - m] };
        let mut window = [before[0], before[1], old(pts, 0), old(pts, 1), old(pts, 2)];
        for i in 0..m {
            let next = old(pts, i + 3);
            if let Some(p) = step(first + i, window)
                && p != window[2]
            {
                pts[i] = p;
                moved_in[i] = pass;
                count += 1;
            }
            window = [window[1], window[2], window[3], window[4], next];
        }
        count
    })
    .into_iter()
    .sum()
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
        .map(|k| p + away * (most * f64::from(k) / 8.0))
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
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The same points to the bit.
    fn same(a: &[DVec2], b: &[DVec2]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.to_array() == q.to_array())
    }

    #[test]
    fn relaxing_only_near_changes_moves_every_point_as_visiting_all_would() {
        // A closed line of long straights (where points sit still) with a
        // kink and noise at a few places, and a step that refuses some
        // moves, as walls do: the same points, bit for bit, as the plain
        // pass over every point, for a fraction of the visits.
        let mut pts: Vec<DVec2> = (0..2000)
            .map(|i| DVec2::new(f64::from(i) * SPACING, 0.0))
            .chain(
                (0..2000)
                    .rev()
                    .map(|i| DVec2::new(f64::from(i) * SPACING, 40.0)),
            )
            .collect();
        for (k, i) in [7usize, 500, 1999, 2600, 3990].into_iter().enumerate() {
            pts[i].y += 3.0 + k as f64 * 0.37;
        }
        let n = pts.len();
        let visits = AtomicUsize::new(0);
        let step = |_, [a, b, p, c, d]: [DVec2; 5]| {
            visits.fetch_add(1, Ordering::Relaxed);
            let moved = p.lerp((a + b + c + d) * 0.25, 0.5);
            ((moved.x * 0.731 + moved.y * 3.1).sin() > -0.8).then_some(moved)
        };
        let mut every = pts.clone();
        for _ in 0..60 {
            let prev = every.clone();
            for (i, p) in every.iter_mut().enumerate() {
                if let Some(q) = step(i, [-2, -1, 0, 1, 2].map(|d| prev[wrap(i, d, n)])) {
                    *p = q;
                }
            }
        }
        let all = visits.swap(0, Ordering::Relaxed);
        let start = pts.clone();
        relax(&mut pts, 60, 1, step);
        assert!(same(&pts, &every));
        assert_ne!(pts[500].y, 0.0, "the kinks moved");
        let visits = visits.load(Ordering::Relaxed);
        assert!(visits * 5 < all, "{visits} of {all} visits");
        // In parts at once (the first pass visits all, the rest only
        // near changes): the same points.
        for parts in [2, 3, 7] {
            let mut parted = start.clone();
            relax(&mut parted, 60, parts, step);
            assert!(same(&parted, &every), "{parts} parts");
        }
    }

    #[test]
    fn relaxing_a_winding_line_in_place_moves_every_point_as_a_copy_would() {
        // A short, jagged loop: most points move in every pass, so every
        // pass runs in place, reading old points from its window (and the
        // first points' old places at the end of the loop).
        let mut pts: Vec<DVec2> = (0..37)
            .map(|i| {
                let a = f64::from(i) * std::f64::consts::TAU / 37.0;
                DVec2::from_angle(a) * (30.0 + 7.0 * f64::from(i % 3))
            })
            .collect();
        let n = pts.len();
        let step = |_, [a, b, p, c, d]: [DVec2; 5]| {
            let moved = p.lerp((a + b + c + d) * 0.25, 0.5);
            (moved.x > -25.0).then_some(moved)
        };
        let mut copy = pts.clone();
        for _ in 0..60 {
            let prev = copy.clone();
            for (i, p) in copy.iter_mut().enumerate() {
                if let Some(q) = step(i, [-2, -1, 0, 1, 2].map(|d| prev[wrap(i, d, n)])) {
                    *p = q;
                }
            }
        }
        let before = pts.clone();
        relax(&mut pts, 60, 1, step);
        assert!(same(&pts, &copy));
        let moved = pts.iter().zip(&before).filter(|(a, b)| a != b).count();
        assert!(moved > n / 2, "{moved} of {n} moved");
        // In parts at once, every pass over all points in place: the same.
        for parts in [2, 3, 7] {
            let mut parted = before.clone();
            relax(&mut parted, 60, parts, step);
            assert!(same(&parted, &copy), "{parts} parts");
        }
    }
}
