//! Fills over a track's grid along rows and columns, a run of a row at a
//! time ([`fill`]): the cells a car can reach from the start ([`reach`]),
//! and the fill the lap check's pieces and the racing line's regions use.

use std::ops::Range;

use super::WALL;

/// The cells (by index `row * width + col` of a `w` x `h` grid whose
/// cells are `cells`) reached from `start` (none: no cell) through cells
/// that are not [`WALL`], a run of a row at a time ([`fill`]).
pub(super) fn reach(w: usize, h: usize, cells: &[u8], start: Option<usize>) -> Vec<bool> {
    let mut reach = vec![false; w * h];
    if let Some(start) = start {
        fill(
            &mut reach,
            w,
            0..h,
            start,
            &mut Vec::new(),
            |reach, i| !reach[i] && cells[i] != WALL,
            |reach, run| reach[run].fill(true),
        );
    }
    reach
}

/// Fills the cells joined to `seed` along rows and columns, within the
/// rows `rows` of a grid `w` cells wide: every cell that `open` says is
/// open and not yet filled, given the `state` that `take` fills, a run of
/// cells of a row at a time (by index `row * w + col`). `stack` is
/// scratch. Each cell is looked at three times at most: from its own row
/// and from the rows above and below. (A stack of every cell took a sixth
/// of the time the largest map took to load.)
pub(crate) fn fill<S: ?Sized>(
    state: &mut S,
    w: usize,
    rows: Range<usize>,
    seed: usize,
    stack: &mut Vec<usize>,
    open: impl Fn(&S, usize) -> bool,
    take: impl Fn(&mut S, Range<usize>),
) {
    stack.clear();
    stack.push(seed);
    while let Some(i) = stack.pop() {
        if !open(state, i) {
            continue;
        }
        // The run of open cells along the row through `i`.
        let row = i - i % w;
        let (mut a, mut b) = (i, i + 1);
        while a > row && open(state, a - 1) {
            a -= 1;
        }
        while b < row + w && open(state, b) {
            b += 1;
        }
        take(state, a..b);
        // The first cell of each open run beside it, above and below.
        let r = row / w;
        let above = (r > rows.start).then(|| row - w);
        let below = (r + 1 < rows.end).then_some(row + w);
        for next in [above, below].into_iter().flatten() {
            let mut inside = false;
            for j in next + (a - row)..next + (b - row) {
                let here = open(state, j);
                if here && !inside {
                    stack.push(j);
                }
                inside = here;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::random::numbers;
    use super::super::{WALL, each_neighbour};
    use super::reach;

    /// The cells reached by definition: a search of one cell at a time.
    fn one_at_a_time(w: usize, h: usize, cells: &[u8], start: usize) -> Vec<bool> {
        let mut seen = vec![false; w * h];
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if seen[i] || cells[i] == WALL {
                continue;
            }
            seen[i] = true;
            each_neighbour(i, w, h, |j| stack.push(j));
        }
        seen
    }

    #[test]
    fn the_fill_reaches_the_cells_a_search_of_one_cell_at_a_time_does() {
        // Random grids from nearly open to mostly walls (mazes of pockets,
        // runs that meet above and below), starts anywhere (on a wall
        // too: nothing is reached).
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let mut reached = 0;
        for _ in 0..500 {
            let (w, h) = (1 + next(60), 1 + next(40));
            let walls = next(70);
            let cells: Vec<u8> = (0..w * h)
                .map(|_| if next(100) < walls { WALL } else { 0 })
                .collect();
            let start = next(w * h);
            let expected = one_at_a_time(w, h, &cells, start);
            assert_eq!(reach(w, h, &cells, Some(start)), expected, "{w} x {h}");
            reached += expected.iter().filter(|&&r| r).count();
        }
        assert!(reached > 50_000, "the grids reach far: {reached} cells");
        assert_eq!(reach(3, 2, &[0; 6], None), [false; 6]);
    }
}
