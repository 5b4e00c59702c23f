//! Which cells of a track a car can reach: a flood fill from the start
//! through every cell that is not a wall, along rows and columns.

use super::WALL;

/// The cells (by index `row * width + col` of a `w` x `h` grid whose
/// cells are `cells`) reached from `start` (none: no cell) through cells
/// that are not [`WALL`], a run of a row at a time (a stack of every cell
/// took a sixth of the time the largest map took to load).
pub(super) fn reach(w: usize, h: usize, cells: &[u8], start: Option<usize>) -> Vec<bool> {
    let mut reach = vec![false; w * h];
    let open = |i: usize, reach: &[bool]| !reach[i] && cells[i] != WALL;
    let mut stack: Vec<usize> = start.into_iter().collect();
    while let Some(i) = stack.pop() {
        if !open(i, &reach) {
            continue;
        }
        // The run of open cells along the row through `i`.
        let row = i - i % w;
        let (mut a, mut b) = (i, i + 1);
        while a > row && open(a - 1, &reach) {
            a -= 1;
        }
        while b < row + w && open(b, &reach) {
            b += 1;
        }
        reach[a..b].fill(true);
        // The first cell of each open run beside it, above and below.
        let above = row.checked_sub(w);
        let below = Some(row + w).filter(|&n| n < w * h);
        for next in [above, below].into_iter().flatten() {
            let mut inside = false;
            for j in next + (a - row)..next + (b - row) {
                let here = open(j, &reach);
                if here && !inside {
                    stack.push(j);
                }
                inside = here;
            }
        }
    }
    reach
}

#[cfg(test)]
mod tests {
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
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut reached = 0;
        for _ in 0..500 {
            let (w, h) = (1 + next(60) as usize, 1 + next(40) as usize);
            let walls = next(70);
            let cells: Vec<u8> = (0..w * h)
                .map(|_| if next(100) < walls { WALL } else { 0 })
                .collect();
            let start = next((w * h) as u64) as usize;
            let expected = one_at_a_time(w, h, &cells, start);
            assert_eq!(reach(w, h, &cells, Some(start)), expected, "{w} x {h}");
            reached += expected.iter().filter(|&&r| r).count();
        }
        assert!(reached > 50_000, "the grids reach far: {reached} cells");
        assert_eq!(reach(3, 2, &[0; 6], None), [false; 6]);
    }
}
