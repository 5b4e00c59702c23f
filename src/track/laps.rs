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
use crate::diag::{Diagnostic, Pos};

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
mod tests {
    use super::*;
    use crate::track::{bundled, parse};

    fn problem(map: &str) -> Option<String> {
        let t = parse("t", map.as_bytes()).expect("parses");
        no_lap(&t).map(|p| format!("{}:{}: {}", p.row + t.map_line, p.col + 1, p.message))
    }

    #[test]
    fn a_mark_is_driven_around_when_a_plain_walk_reaches_every_cell_beside_it() {
        // Random maps (a finish line of one cell, checkpoint lines along
        // rows, columns and diagonals): the walk, which stops walking on
        // from cells too far from the cells left to reach, says what the
        // distances of a plain breadth-first walk say.
        let mut next = crate::track::random::numbers(0x51ab_cafe);
        let (mut around, mut not) = (0, 0);
        for _ in 0..300 {
            let checkpoints = 1 + next(3) as u8;
            let t = crate::track::random::random_track(&mut next, checkpoints);
            let (w, h) = (t.width, t.height);
            for (n, cells) in cells_of_marks(&t).into_iter().enumerate() {
                let mark = if n == 0 {
                    Mark::Finish
                } else {
                    Mark::Checkpoint(n as u8)
                };
                let open = |i: usize| t.reachable()[i] && t.mark_of_cell(i) != mark;
                let mut beside: Vec<usize> = Vec::new();
                for &(c, r) in &cells {
                    each_neighbour(r * w + c, w, h, |i| {
                        if open(i) {
                            beside.push(i);
                        }
                    });
                }
                let Some(&first) = beside.iter().min() else {
                    assert!(!driven_around(&t, mark, &cells));
                    continue;
                };
                let mut depth = vec![usize::MAX; w * h];
                depth[first] = 0;
                let mut queue = std::collections::VecDeque::from([first]);
                while let Some(i) = queue.pop_front() {
                    each_neighbour(i, w, h, |j| {
                        if open(j) && depth[j] == usize::MAX {
                            depth[j] = depth[i] + 1;
                            queue.push_back(j);
                        }
                    });
                }
                let expected = beside.iter().all(|&i| depth[i] <= 2 * cells.len() + 6);
                assert_eq!(driven_around(&t, mark, &cells), expected, "{mark:?}");
                if expected { around += 1 } else { not += 1 }
            }
        }
        assert!(
            around > 100 && not > 50,
            "{around} driven around, {not} not"
        );
    }

    #[test]
    fn a_checkpoint_with_grass_beside_it_can_be_driven_around() {
        // A ring: the finish and checkpoint 2 span the whole road, but
        // checkpoint 1 only the asphalt, with grass between it and the
        // island.
        let map = "\
##############
#.....|......#
#.>...|......#
#.#########1 #
#.#########..#
#............#
##############
";
        let t = parse("ring.track", map.as_bytes()).unwrap();
        assert_eq!(no_lap(&t), None);
        let warnings: Vec<String> = drive_arounds(&t, "ring.track")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            warnings,
            [
                "ring.track:4:12: warning: checkpoint 1 can be driven around (drivable ground beside it): easy to miss"
            ]
        );
        // Spanning the road to the island, it cannot.
        let t = parse("ring.track", map.replace("#1 #", "#11#").as_bytes()).unwrap();
        assert!(drive_arounds(&t, "ring.track").is_empty());
        // A finish line with ground beside it (the top road widened over
        // it by a row it does not span): driven around.
        let wide = map.replace("##############\n#.....|", "#####.........\n#.....|");
        let t = parse("ring.track", wide.replace("#1 #", "#11#").as_bytes()).unwrap();
        let warnings: Vec<String> = drive_arounds(&t, "ring.track")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            warnings,
            [
                "ring.track:2:7: warning: the finish line can be driven around (drivable ground beside it): easy to miss"
            ]
        );
    }

    #[test]
    fn pieces_reach_what_a_flood_reaches() {
        // On every bundled track and a field cut by a finish line with a
        // gap, from and to sets of a few cells each, drawn by a fixed
        // generator: the pieces say what a fill from the start cells says.
        let mut state = 0x9e37_79b9_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let cut = "##############\n#.....|......#\n#.....|......#\n#..>..|..#...#\n#.....|..#...#\n#........#...#\n##############\n";
        let mut tracks: Vec<Track> = bundled::TRACKS
            .iter()
            .map(|(name, _)| bundled::load(name).unwrap())
            .collect();
        tracks.push(parse("cut", cut.as_bytes()).unwrap());
        for t in &tracks {
            let mut pieces = Pieces::new(t);
            let (w, h) = (t.width, t.height);
            for _ in 0..50 {
                let mut some = || -> Vec<(usize, usize)> {
                    (0..=next(3)).map(|_| (next(w), next(h))).collect()
                };
                let (from, to) = (some(), some());
                let from: Vec<_> = from
                    .into_iter()
                    .filter(|&(c, r)| off(t, Mark::Finish, r * w + c))
                    .collect();
                let seen = flood(t, &from);
                let flooded = to.iter().any(|&(c, r)| seen[r * w + c]);
                assert_eq!(
                    pieces.reach(&from, &to),
                    Some(flooded),
                    "{} {from:?} {to:?}",
                    t.name
                );
            }
        }
    }

    #[test]
    fn past_the_pieces_that_can_be_told_apart_a_fill_answers() {
        // Checkpoint cells each boxed in by finish cells (along rows and
        // columns): 70,000 pieces, more than are labelled.
        let (w, h) = (530, 530);
        let mut rows = vec!["#".repeat(w)];
        for r in 1..h - 1 {
            let row: String = (1..w - 1)
                .map(|c| match (c, r) {
                    (3, 2) => '>',
                    (1..=5, 1..=3) => '.',
                    _ if (c + r) % 2 == 0 => '1',
                    _ => '|',
                })
                .collect();
            rows.push(format!("#{row}#"));
        }
        rows.push("#".repeat(w));
        let t = parse("boxes", rows.join("\n").as_bytes()).unwrap();
        let marks = cells_of_marks(&t);
        let checkpoint: Vec<_> = marks[1]
            .iter()
            .copied()
            .filter(|&(c, r)| t.drivable(c, r))
            .collect();
        assert!(checkpoint.len() > 70_000);
        let mut pieces = Pieces::new(&t);
        assert_eq!(pieces.reach(&checkpoint, &checkpoint[..1]), None);
        let (last, first) = (checkpoint[checkpoint.len() - 1], checkpoint[0]);
        assert!(reaches(&mut pieces, &checkpoint, &[first]));
        assert!(!reaches(&mut Pieces::new(&t), &[last], &[first]));
    }

    #[test]
    fn every_bundled_track_has_a_lap() {
        for (name, _) in bundled::TRACKS {
            assert_eq!(no_lap(&bundled::load(name).unwrap()), None, "{name}");
        }
    }

    #[test]
    fn a_straight_with_a_wall_after_the_finish_has_no_lap() {
        let map = "#########\n#.......#\n#...>..=#\n#.......#\n#########\n";
        assert_eq!(
            problem(map).as_deref(),
            Some(
                "3:8: no way on past the finish line in the race direction (a wall right after it)"
            )
        );
    }

    #[test]
    fn a_straight_with_room_after_the_finish_still_has_no_loop() {
        let map = "###########\n#.........#\n#...>..=..#\n#.........#\n###########\n";
        // The finish spans only its row, so the car can get round it:
        // that is a loop. Walled off above and below, it is not.
        assert_eq!(problem(map), None);
        let map = "###########\n###########\n#...>..=..#\n###########\n";
        assert_eq!(
            problem(map).as_deref(),
            Some("3:8: no way back to the finish line from the finish line in the race direction")
        );
    }

    #[test]
    fn a_walled_off_checkpoint_is_named_with_its_position() {
        let map = "\
##############
#............#
#.>=.....#####
#........#.2.#
#.....1..#####
#............#
##############
";
        assert_eq!(
            problem(map).as_deref(),
            Some("4:12: checkpoint 2 cannot be reached from the start")
        );
    }

    #[test]
    fn a_checkpoint_only_reachable_backwards_over_the_finish_has_no_lap() {
        let map = "\
##########
#1.>.=...#
#1...=...#
##########
";
        assert_eq!(
            problem(map).as_deref(),
            Some("2:2: checkpoint 1 cannot be reached from the finish line in the race direction")
        );
    }

    #[test]
    fn an_enclosed_start_cannot_reach_the_finish() {
        let map = "\
##############
#.......#....#
#...>...#.=..#
#.......#....#
##############
";
        assert_eq!(
            problem(map).as_deref(),
            Some("3:11: the finish line cannot be reached from the start")
        );
    }
}
