//! Whether a lap can be completed on a track: the check `skid check`,
//! `play`, `render` and the computer drivers rely on (a track that parses
//! may still have no lap: a finish or checkpoint walled off, an enclosed
//! start, a wall right after the finish, no loop at all).
//!
//! A lap runs in the race direction from the finish line through
//! checkpoints 1, 2, ... back to it. On the grid of cells a car can drive
//! (4-connected), with the finish line closed (crossing it backwards to get
//! round is no lap):
//! 1. there are drivable cells just past the finish in the race direction,
//!    and just behind it;
//! 2. from those past it, checkpoint 1 is reachable, from checkpoint 1
//!    checkpoint 2, and so on, and from the last the cells behind the
//!    finish;
//! 3. and before all that, the finish and every checkpoint can be reached
//!    from the player's start at all.
//!
//! The answer is the first problem found, with the cell it is about.

use super::{Mark, Track, each_neighbour, flood};
use crate::base::diag::{Diagnostic, Pos};

/// Why no lap can be completed, and the cell (column, row) it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoLap {
    pub col: usize,
    pub row: usize,
    pub message: String,
}

/// The cells of the finish (at 0) and of each checkpoint `n` (at `n`), in
/// reading order: one pass over the map for all of them.
pub fn cells_of_marks(track: &Track) -> Vec<Vec<(usize, usize)>> {
    let mut out = vec![Vec::new(); usize::from(track.checkpoints) + 1];
    for row in 0..track.height {
        for col in 0..track.width {
            let k = match track.mark_of(col, row) {
                Mark::None => continue,
                Mark::Finish => 0,
                Mark::Checkpoint(n) => usize::from(n),
            };
            if let Some(cells) = out.get_mut(k) {
                cells.push((col, row));
            }
        }
    }
    out
}

/// Drivable cells next to `cells`, `(dc, dr)` away, not on the finish.
pub fn beside(
    track: &Track,
    cells: &[(usize, usize)],
    dc: isize,
    dr: isize,
) -> Vec<(usize, usize)> {
    cells
        .iter()
        .filter_map(|&(c, r)| {
            let (nc, nr) = (c as isize + dc, r as isize + dr);
            (nc >= 0 && nr >= 0 && (nc as usize) < track.width && (nr as usize) < track.height)
                .then_some((nc as usize, nr as usize))
        })
        .filter(|&(c, r)| track.drivable(c, r) && track.mark_of(c, r) != Mark::Finish)
        .collect()
}

/// The pieces the drivable cells fall into with the finish line taken out
/// (4-connected), each found when a leg of the lap first starts in it: a
/// leg can reach the cells of the pieces its start lies in and no other.
/// One fill of each piece serves every leg (ten legs on the largest open
/// map were ten fills of its 67 million cells: 17 s of `skid check`).
struct Pieces<'a> {
    track: &'a Track,
    /// Each cell's piece, by index: 0 where none has been found yet (or
    /// the cell is not drivable).
    label: Vec<u16>,
    /// How many pieces have been found.
    found: u16,
    stack: Vec<usize>,
}

impl<'a> Pieces<'a> {
    fn new(track: &'a Track) -> Pieces<'a> {
        Pieces {
            track,
            label: vec![0; track.width * track.height],
            found: 0,
            stack: Vec::new(),
        }
    }

    /// Whether a leg from the cells `from` reaches any of `to`; `None`
    /// when the pieces are more than can be told apart (a finish line
    /// strewn over the map in single cells).
    fn reach(&mut self, from: &[(usize, usize)], to: &[(usize, usize)]) -> Option<bool> {
        let w = self.track.width;
        let mut starts = Vec::new();
        for &(c, r) in from {
            let i = r * w + c;
            if self.label[i] == 0 && off(self.track, Mark::Finish, i) {
                self.found = self.found.checked_add(1)?;
                self.fill(i);
            }
            starts.push(self.label[i]);
        }
        // A mark's cells mostly lie in one piece: looked up once each.
        starts.sort_unstable();
        starts.dedup();
        Some(to.iter().any(|&(c, r)| {
            let piece = self.label[r * w + c];
            piece != 0 && starts.binary_search(&piece).is_ok()
        }))
    }

    /// Labels the piece of cell `i` as the last found ([`flood::fill`]).
    fn fill(&mut self, i: usize) {
        let (track, piece) = (self.track, self.found);
        flood::fill(
            &mut self.label[..],
            track.width,
            0..track.height,
            i,
            &mut self.stack,
            |label, j| label[j] == 0 && off(track, Mark::Finish, j),
            |label, run| label[run].fill(piece),
        );
    }
}

/// Whether cell `i` is drivable and not on `mark` (a leg may pass it
/// where `mark` is the finish line).
fn off(track: &Track, mark: Mark, i: usize) -> bool {
    track.reachable()[i] && track.mark_of_cell(i) != mark
}

/// Which cells can be reached from `from` over drivable cells, 4-connected,
/// not through the finish line: all that `from` reaches filled as one
/// piece. What [`Pieces`] tells, for maps whose pieces are too many to
/// label.
fn flood(track: &Track, from: &[(usize, usize)]) -> Vec<bool> {
    let mut all = Pieces::new(track);
    all.found = 1;
    for &(c, r) in from {
        let i = r * track.width + c;
        if all.label[i] == 0 && off(track, Mark::Finish, i) {
            all.fill(i);
        }
    }
    all.label.iter().map(|&piece| piece == 1).collect()
}

/// Whether a leg from the cells `from` reaches any of `to`.
fn reaches(pieces: &mut Pieces, from: &[(usize, usize)], to: &[(usize, usize)]) -> bool {
    pieces.reach(from, to).unwrap_or_else(|| {
        let seen = flood(pieces.track, from);
        to.iter().any(|&(c, r)| seen[r * pieces.track.width + c])
    })
}

/// Whether a car can get round `mark`, whose cells are `cells`, close by:
/// with the line walled, every drivable cell next to it is reached from
/// one of them within a short walk (twice the line's length and six
/// cells). A line that spans the road joins its two sides only the long
/// way round.
///
/// A breadth-first walk one ring at a time, with a bit per cell: on the
/// largest legal map (8192 x 8192, 67 million cells) that is 8 MB, where a
/// map of depths was gigabytes.
fn driven_around(track: &Track, mark: Mark, cells: &[(usize, usize)]) -> bool {
    let (w, h) = (track.width, track.height);
    let open = |i: usize| off(track, mark, i);
    let mut targets: Vec<usize> = Vec::new();
    for &(c, r) in cells {
        each_neighbour(r * w + c, w, h, |i| {
            if open(i) {
                targets.push(i);
            }
        });
    }
    targets.sort_unstable();
    targets.dedup();
    let Some(&first) = targets.first() else {
        return false;
    };
    let mut seen = Bits::new(w * h);
    seen.set(first);
    let mut ring = vec![first];
    let most = 2 * cells.len() + 6;
    for depth in 1..=most {
        targets.retain(|&t| !seen.get(t));
        if targets.is_empty() {
            return true;
        }
        // A cell from which no target left is within the steps left (by
        // rows and columns to the targets' bounds, a bound no walk beats)
        // is reached but not walked on from: the same targets are
        // reached, and a long line's walk covers half the cells.
        let near = near_bounds(w, &targets);
        let mut next = Vec::new();
        for &at in &ring {
            each_neighbour(at, w, h, |n| {
                if open(n) && !seen.get(n) {
                    seen.set(n);
                    if depth + near(n) <= most {
                        next.push(n);
                    }
                }
            });
        }
        if next.is_empty() {
            break;
        }
        ring = next;
    }
    targets.retain(|&t| !seen.get(t));
    targets.is_empty()
}

/// How many steps along rows and columns cell `i` (by index, rows of `w`
/// cells) lies from the bounds of the cells `cells` (at least one).
fn near_bounds(w: usize, cells: &[usize]) -> impl Fn(usize) -> usize {
    let (mut c0, mut c1, mut r0, mut r1) = (usize::MAX, 0, usize::MAX, 0);
    for &i in cells {
        let (c, r) = (i % w, i / w);
        (c0, c1, r0, r1) = (c0.min(c), c1.max(c), r0.min(r), r1.max(r));
    }
    move |i| {
        let (c, r) = (i % w, i / w);
        c0.saturating_sub(c) + c.saturating_sub(c1) + r0.saturating_sub(r) + r.saturating_sub(r1)
    }
}

/// One bit per cell.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
}

/// The race marks a car can drive around without crossing them (legal,
/// but easy to miss: grass or gravel beside a line that does not span
/// it), as warnings at each mark's first cell.
pub fn drive_arounds(track: &Track, path: &str) -> Vec<Diagnostic> {
    cells_of_marks(track)
        .into_iter()
        .enumerate()
        .filter_map(|(n, cells)| {
            let mark = match n {
                0 => Mark::Finish,
                n => Mark::Checkpoint(n as u8),
            };
            let &(c, r) = cells.first()?;
            driven_around(track, mark, &cells).then(|| {
                let what = match mark {
                    Mark::Checkpoint(n) => format!("checkpoint {n}"),
                    _ => "the finish line".to_string(),
                };
                Diagnostic::at(
                    path,
                    Pos::new(r + track.map_line, c + 1),
                    format!("warning: {what} can be driven around (drivable ground beside it): easy to miss"),
                )
            })
        })
        .collect()
}

/// A track on which a lap can be completed: the only kind that is raced,
/// locally or on the server. Made only by [`raceable`], so holding one is
/// the proof that the lap checks passed; it reads as the [`Track`] it is.
#[derive(Debug, Clone)]
pub struct Raceable(Track);

impl Raceable {
    pub fn track(&self) -> &Track {
        &self.0
    }

    pub fn into_track(self) -> Track {
        self.0
    }
}

impl std::ops::Deref for Raceable {
    type Target = Track;

    fn deref(&self) -> &Track {
        &self.0
    }
}

/// The track, if a lap can be completed on it; otherwise the reason as a
/// diagnostic at its line and column in the file at `path`.
pub fn raceable(track: Track, path: &str) -> Result<Raceable, Diagnostic> {
    match no_lap(&track) {
        None => Ok(Raceable(track)),
        Some(p) => Err(Diagnostic::at(
            path,
            Pos::new(p.row + track.map_line, p.col + 1),
            p.message,
        )),
    }
}

/// The first reason no lap can be completed on `track`, if any.
pub fn no_lap(track: &Track) -> Option<NoLap> {
    let marks = cells_of_marks(track);
    let finish = &marks[0];
    let &(fc, fr) = finish.first()?;
    let at = |(col, row): (usize, usize), message: String| NoLap { col, row, message };
    // Drivable cells are those a car from the start can reach at all.
    let from_start = |cells: &[(usize, usize)]| cells.iter().any(|&(c, r)| track.drivable(c, r));
    if !from_start(finish) {
        return Some(at(
            (fc, fr),
            "the finish line cannot be reached from the start".into(),
        ));
    }
    for (n, cells) in marks.iter().enumerate().skip(1) {
        if !from_start(cells) {
            return Some(at(
                cells[0],
                format!("checkpoint {n} cannot be reached from the start"),
            ));
        }
    }
    let dir = track.race_direction();
    let (dc, dr) = (dir.x.round() as isize, dir.y.round() as isize);
    let past = beside(track, finish, dc, dr);
    if past.is_empty() {
        return Some(at(
            (fc, fr),
            "no way on past the finish line in the race direction (a wall right after it)".into(),
        ));
    }
    let behind = beside(track, finish, -dc, -dr);
    if behind.is_empty() {
        return Some(at(
            (fc, fr),
            "no way up to the finish line in the race direction (a wall right before it)".into(),
        ));
    }
    let mut from = past;
    let mut came = "the finish line".to_string();
    let mut pieces = Pieces::new(track);
    for (n, cells) in marks.iter().enumerate().skip(1) {
        if !reaches(&mut pieces, &from, cells) {
            return Some(at(
                cells[0],
                format!("checkpoint {n} cannot be reached from {came} in the race direction"),
            ));
        }
        from.clone_from(cells);
        came = format!("checkpoint {n}");
    }
    if !reaches(&mut pieces, &from, &behind) {
        return Some(at(
            (fc, fr),
            format!("no way back to the finish line from {came} in the race direction"),
        ));
    }
    None
}

#[cfg(test)]
mod tests;
