//! A track seen in blocks of `f` x `f` cells: the coarse map the racing
//! line is planned on where the track is too large to plan cell by cell
//! in time (`crate::ai::line`). On a road winding over a whole 8192 x 8192
//! map, a search settles all 60 million of its cells: 1.7 s on two cores
//! before any smoothing. In blocks of 4 x 4 it settles 3.8 million.
//!
//! A block is open only where a car can reach every one of its cells, so
//! any way over open blocks, block centre to block centre, is a way over
//! the track itself (a move between two open blocks stays inside them).
//! Roads narrower than `2 f - 1` cells close: the planner then tries
//! smaller blocks, down to cells.

use super::{MARK_NONE, Start, Track, WALL};

impl Track {
    /// This track in blocks of `f` x `f` cells (`f` at least 2): block
    /// `(c, r)` covers columns `c f .. c f + f` and rows `r f .. r f + f`,
    /// so its centre is the centre of those cells, and `cell` is `f` times
    /// as large. A block is a wall unless a car can reach every cell of
    /// it (off the map is wall); its surface is the one of least grip
    /// among its cells (the line plans for the worst of it), its mark the
    /// one mark among its cells. `None` where a block holds cells of two
    /// different marks (too close together to tell apart at this scale)
    /// or a mark has no open block (every block of it touches a wall).
    /// Start slots keep their headings in the blocks that hold them.
    pub fn in_blocks(&self, f: usize) -> Option<Track> {
        assert!(f >= 2, "blocks of {f} cells");
        let (w, h) = (self.width.div_ceil(f), self.height.div_ceil(f));
        // Surfaces by grip, least first (ties in table order).
        let mut by_grip: Vec<usize> = (0..self.surfaces.len()).collect();
        by_grip.sort_by(|&a, &b| self.surfaces[a].grip.total_cmp(&self.surfaces[b].grip));
        let mut rank = [u8::MAX; 256];
        for (k, &s) in by_grip.iter().enumerate() {
            rank[s] = k as u8;
        }
        let rows: Vec<usize> = (0..h).collect();
        let parts = crate::base::threads::each(
            rows.chunks(h.div_ceil(2).max(1)).collect(),
            |rows: &[usize]| {
                let mut out = Vec::with_capacity(rows.len() * w * 2);
                for &r in rows {
                    out.extend(self.block_row(f, r, w, &rank, &by_grip));
                }
                out
            },
        );
        let mut cells = Vec::with_capacity(w * h);
        let mut marks = Vec::with_capacity(w * h);
        for part in parts {
            for (cell, mark) in part {
                cells.push(cell);
                marks.push(mark?);
            }
        }
        let mut present = [false; 11];
        for &m in &marks {
            present[usize::from(m)] = true;
        }
        if !present[usize::from(super::MARK_FINISH)]
            || (1..=usize::from(self.checkpoints)).any(|n| !present[n])
        {
            return None;
        }
        let reach = cells.iter().map(|&c| c != WALL).collect();
        let mut track = Track {
            name: self.name.clone(),
            laps: self.laps,
            cell: self.cell * f as f64,
            width: w,
            height: h,
            surfaces: self.surfaces.clone(),
            cells,
            marks,
            clearance: Vec::new(),
            reach,
            uniform: Vec::new(),
            starts: self
                .starts
                .iter()
                .map(|s| Start {
                    col: s.col / f,
                    row: s.row / f,
                    dir: s.dir,
                })
                .collect(),
            checkpoints: self.checkpoints,
            id: self.id,
            map_line: self.map_line,
        };
        track.compute_clearance();
        Some(track)
    }

    /// Block row `r` of [`Track::in_blocks`], `w` blocks: each block's
    /// cell value, and its mark (`None`: two marks in one block).
    fn block_row(
        &self,
        f: usize,
        r: usize,
        w: usize,
        rank: &[u8; 256],
        by_grip: &[usize],
    ) -> Vec<(u8, Option<u8>)> {
        let rows = r * f..(r * f + f).min(self.height);
        let whole = rows.len() == f;
        (0..w)
            .map(|c| {
                let cols = c * f..(c * f + f).min(self.width);
                if !whole || cols.len() < f {
                    return (WALL, Some(MARK_NONE));
                }
                let mut least = u8::MAX;
                let mut mark = MARK_NONE;
                for row in rows.clone() {
                    let at = row * self.width;
                    let span = at + cols.start..at + cols.end;
                    if !self.reach[span.clone()].iter().all(|&r| r) {
                        return (WALL, Some(MARK_NONE));
                    }
                    for &s in &self.cells[span.clone()] {
                        least = least.min(rank[usize::from(s)]);
                    }
                    for &m in &self.marks[span] {
                        if m != MARK_NONE {
                            if mark != MARK_NONE && m != mark {
                                return (WALL, None);
                            }
                            mark = m;
                        }
                    }
                }
                (by_grip[usize::from(least)] as u8, Some(mark))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mark, parse};

    fn track(map: &str) -> super::Track {
        parse("t", map.as_bytes()).unwrap()
    }

    #[test]
    fn a_block_is_open_only_where_every_cell_is_reachable() {
        // Blocks of 2: the wall's corner closes the top-left block; the
        // walled-off room on the right (reachable from nowhere) closes its
        // blocks too, though they hold no wall.
        let t = track(
            "##########\n\
             #........#\n\
             #.>...=.##\n\
             #.....=.#.\n\
             #.......#.\n\
             ##########\n",
        );
        let b = t.in_blocks(2).unwrap();
        assert_eq!((b.width, b.height, b.cell), (5, 3, 4.0));
        let open: Vec<String> = (0..b.height)
            .map(|r| {
                (0..b.width)
                    .map(|c| if b.drivable(c, r) { 'o' } else { '#' })
                    .collect()
            })
            .collect();
        assert_eq!(open, ["#####", "#ooo#", "#####"]);
        assert_eq!(b.mark_of(3, 1), Mark::Finish);
        assert_eq!(b.mark_of(2, 1), Mark::None);
        assert_eq!(b.starts[0].col, 1);
        assert_eq!(
            b.cell_center(1, 1),
            t.cell_center(2, 2) + t.cell_size() / 2.0
        );
    }

    #[test]
    fn a_block_takes_its_least_grip_and_refuses_two_marks() {
        let t = track(
            "##########\n\
             #........#\n\
             #.>.,,=1.#\n\
             #...,.=1.#\n\
             #........#\n\
             ##########\n",
        );
        // Grass in block (2, 1) of 2: grass, not asphalt. The finish and
        // checkpoint 1 in block (3, 1): no plan in blocks of 2.
        assert!(t.in_blocks(2).is_none());
        let t = track(
            "############\n\
             #..........#\n\
             #.>.,,=..1.#\n\
             #...,.=..1.#\n\
             #..........#\n\
             ############\n",
        );
        let b = t.in_blocks(2).unwrap();
        assert_eq!(b.surface_of(2, 1).unwrap().name, "grass");
        assert_eq!(b.surface_of(1, 1).unwrap().name, "asphalt");
        assert_eq!(b.mark_of(3, 1), Mark::Finish);
        assert_eq!(b.mark_of(4, 1), Mark::Checkpoint(1));
        // A mark whose every block touches a wall: no plan.
        let t = track(
            "##########\n\
             #.>......#\n\
             #.......=#\n\
             ##########\n",
        );
        assert!(t.in_blocks(2).is_none());
    }
}
