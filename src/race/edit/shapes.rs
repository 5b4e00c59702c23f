//! The cells a tool covers: a line's, a rectangle's, a fill's. Pure
//! geometry on cell coordinates (column, row).

use crate::track::draft::Draft;

/// A cell of the map: column, row.
pub type Cell = (usize, usize);

/// The cells of a straight line from `a` to `b`, both ends included, each
/// step to a neighbour (Bresenham's, all octants).
pub fn line(a: Cell, b: Cell) -> Vec<Cell> {
    let (mut x, mut y) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = ((x1 - x).signum(), (y1 - y).signum());
    let mut err = dx + dy;
    let mut cells = Vec::new();
    loop {
        cells.push((x as usize, y as usize));
        if (x, y) == (x1, y1) {
            return cells;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// The cells of the rectangle with corners `a` and `b`: its outline, or
/// all of it (`filled`).
pub fn rect(a: Cell, b: Cell, filled: bool) -> Vec<Cell> {
    let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
    let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
    let mut cells = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if filled || x == x0 || x == x1 || y == y0 || y == y1 {
                cells.push((x, y));
            }
        }
    }
    cells
}

/// `cells`, each grown to a square `size` cells a side around it (off
/// the map's top and left edges cut), each cell once.
pub fn thick(cells: &[Cell], size: usize) -> Vec<Cell> {
    if size <= 1 {
        return cells.to_vec();
    }
    let back = (size - 1) / 2;
    let mut out: Vec<Cell> = Vec::new();
    for &(x, y) in cells {
        for dy in 0..size {
            for dx in 0..size {
                if let (Some(cx), Some(cy)) =
                    ((x + dx).checked_sub(back), (y + dy).checked_sub(back))
                {
                    out.push((cx, cy));
                }
            }
        }
    }
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out.dedup();
    out
}

/// The cells joined to `from` through sides by cells of its character,
/// in `draft` (none if `from` is off the map).
pub fn fill(draft: &Draft, from: Cell) -> Vec<Cell> {
    let (w, h) = draft.size();
    let Some(like) = draft.get(from.0, from.1) else {
        return Vec::new();
    };
    let mut seen = vec![false; w * h];
    let mut todo = vec![from];
    let mut cells = Vec::new();
    seen[from.1 * w + from.0] = true;
    while let Some((x, y)) = todo.pop() {
        cells.push((x, y));
        let near = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ];
        for (nx, ny) in near {
            if nx < w && ny < h && !seen[ny * w + nx] && draft.get(nx, ny) == Some(like) {
                seen[ny * w + nx] = true;
                todo.push((nx, ny));
            }
        }
    }
    cells.sort_unstable_by_key(|&(x, y)| (y, x));
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_steps_cell_by_cell_both_ways() {
        assert_eq!(line((0, 0), (3, 1)), [(0, 0), (1, 0), (2, 1), (3, 1)]);
        let back = line((3, 1), (0, 0));
        assert_eq!((back.len(), back[0], back[3]), (4, (3, 1), (0, 0)));
        assert_eq!(line((2, 5), (2, 2)).len(), 4);
        assert_eq!(line((1, 1), (1, 1)), [(1, 1)]);
    }

    #[test]
    fn a_rectangle_is_its_outline_or_all_of_it() {
        assert_eq!(rect((3, 2), (0, 0), false).len(), 10);
        assert_eq!(rect((0, 0), (3, 2), true).len(), 12);
    }

    #[test]
    fn a_thick_brush_is_a_square_round_each_cell() {
        assert_eq!(thick(&[(5, 5)], 1), [(5, 5)]);
        assert_eq!(thick(&[(5, 5)], 3).len(), 9);
        assert_eq!(thick(&[(0, 0)], 3), [(0, 0), (1, 0), (0, 1), (1, 1)]);
        // A line three wide: its squares overlap, each cell once.
        assert_eq!(thick(&line((2, 2), (6, 2)), 3).len(), 21);
    }

    #[test]
    fn a_fill_stays_inside_what_is_like_it() {
        let d = Draft::read("#####\n#  ##\n## .#\n#####\n");
        assert_eq!(fill(&d, (1, 1)), [(1, 1), (2, 1), (2, 2)]);
        assert_eq!(fill(&d, (3, 2)), [(3, 2)]);
        assert!(fill(&d, (9, 9)).is_empty());
    }
}
