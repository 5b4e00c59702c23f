//! Distance transforms over a track's grid: how far each cell lies from
//! the nearest cell of a set (a wall, a change of surface), which the
//! track keeps per cell for the physics' ground queries and the racing
//! line's prices.

use super::WALL;

/// Chebyshev distance to the nearest `seed` cell (counted as `base`;
/// off the map counts as 0), capped at [`CAP`]: two chamfer passes, in
/// place. Every step is a minimum or a saturating step of one, so
/// counting in bytes that stop at the cap gives what counting on and
/// capping at the end would.
pub(super) fn chebyshev(w: usize, h: usize, seed: &[bool], base: u8) -> Vec<u8> {
    let mut d: Vec<u8> = seed.iter().map(|&s| if s { base } else { CAP }).collect();
    // Each pass: the row before (three neighbours, independent of one
    // another), then a scan along the row.
    let mut before = vec![0u8; w];
    for r in 0..h {
        let (done, rest) = d.split_at_mut(r * w);
        let last = r.checked_sub(1).map(|p| &done[p * w..]);
        nearest(&mut before, last);
        forward(&mut rest[..w], &before);
    }
    for r in (0..h).rev() {
        let (upto, done) = d.split_at_mut((r + 1) * w);
        let last = (r + 1 < h).then(|| &done[..w]);
        nearest(&mut before, last);
        backward(&mut upto[r * w..], &before);
    }
    d
}

/// The largest distance told apart.
const CAP: u8 = u8::MAX;

/// Sets `out[c]` to one more than the least of the cells beside and at
/// column `c` of `row` (of the row before: `None` off the map, whose
/// cells count as 0), saturating; the middle in slices whose lengths the
/// compiler knows, so that it works on many cells at once.
fn nearest(out: &mut [u8], row: Option<&[u8]>) {
    let w = out.len();
    let Some(row) = row else {
        out.fill(1);
        return;
    };
    if w > 2 {
        let n = w - 2;
        let (left, at, right) = (&row[..n], &row[1..=n], &row[2..n + 2]);
        for (c, o) in out[1..=n].iter_mut().enumerate() {
            *o = left[c].min(at[c]).min(right[c]).saturating_add(1);
        }
    }
    // Beside the map's sides.
    for c in [0, w.saturating_sub(1)].into_iter().take(w) {
        out[c] = 1;
    }
}

/// The scan along a row from the left: each cell becomes
/// `min(v[c], row[c - 1] + 1)` (saturating; `v` the least of it and the
/// row before's), which is `c + min over k <= c of (v[k] - k)` counting
/// the cell off the map's side (0) as `k = -1`: a running minimum, whose
/// chain from cell to cell is one comparison, not an addition and a
/// comparison (the scans were most of the time a large map took to
/// load).
fn forward(row: &mut [u8], before: &[u8]) {
    // Columns counted from 1, the cell off the side being column 0.
    let mut least = 0i32;
    for (c, (x, &b)) in row.iter_mut().zip(before).enumerate() {
        let k = c as i32 + 1;
        least = least.min(i32::from((*x).min(b)) - k);
        *x = (least + k).min(i32::from(CAP)) as u8;
    }
}

/// [`forward`] from the right: `min over k >= c of (v[k] + k) - c`.
fn backward(row: &mut [u8], before: &[u8]) {
    let mut least = row.len() as i32 + 1;
    for (c, (x, &b)) in row.iter_mut().zip(before).enumerate().rev() {
        let k = c as i32 + 1;
        least = least.min(i32::from((*x).min(b)) + k);
        *x = (least - k).min(i32::from(CAP)) as u8;
    }
}

/// The cells on an edge of the grid of `w` x `h` cells `cells`: walls,
/// cells beside a cell of another surface (a wall is one), and those on
/// the map's border. Each pair of neighbours is compared once.
pub(super) fn edges(w: usize, h: usize, cells: &[u8]) -> Vec<bool> {
    let mut edge: Vec<bool> = cells.iter().map(|&c| c == WALL).collect();
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if r == 0 || c == 0 || r + 1 == h || c + 1 == w {
                edge[i] = true;
                continue;
            }
            let here = cells[i];
            for j in [i + 1, i + w - 1, i + w, i + w + 1] {
                if cells[j] != here {
                    edge[i] = true;
                    edge[j] = true;
                }
            }
        }
    }
    edge
}

/// Maps of this many cells or more have their tables made two at once
/// ([`at_once`]).
const LARGE: usize = 1 << 20;

/// `a()` and `b()`, on two threads where the map has `cells` cells or
/// more ([`LARGE`]) and there are two cores (and a thread can be had:
/// [`crate::base::threads::both`]): the two distance tables of the largest map
/// took 0.4 s one after the other.
pub(super) fn at_once<T: Send>(
    cells: usize,
    a: impl Fn() -> T + Sync,
    b: impl Fn() -> T + Sync,
) -> (T, T) {
    if cells < LARGE || !crate::base::threads::two_cores() {
        return (a(), b());
    }
    crate::base::threads::both(a, b)
}

#[cfg(test)]
mod tests {
    use super::super::random::numbers;
    use super::chebyshev;

    /// The distance by definition: the least `max(|dc|, |dr|)` to a seed
    /// (counted as `base`), or to a cell off the map (counted as 0),
    /// capped at 255.
    fn by_definition(w: usize, h: usize, seed: &[bool], base: u8) -> Vec<u8> {
        let seeds: Vec<usize> = (0..w * h).filter(|&k| seed[k]).collect();
        let mut out = Vec::with_capacity(w * h);
        for r in 0..h {
            for c in 0..w {
                // Off the map: one step past the nearest edge.
                let edge = (c + 1).min(r + 1).min(w - c).min(h - r);
                let mut best = edge;
                for &k in &seeds {
                    let (sc, sr) = (k % w, k / w);
                    let d = sc.abs_diff(c).max(sr.abs_diff(r)) + usize::from(base);
                    best = best.min(d);
                }
                out.push(best.min(255) as u8);
            }
        }
        out
    }

    #[test]
    fn the_transform_is_the_chebyshev_distance_to_the_nearest_seed() {
        // Random grids, thin to dense seeds, and wide open ones whose
        // distances pass 255, both bases.
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        for case in 0..300 {
            let (w, h) = (1 + next(40), 1 + next(30));
            let density = next(100);
            let seed: Vec<bool> = (0..w * h).map(|_| next(100) < density / 4).collect();
            let base = u8::from(case % 2 == 1);
            assert_eq!(
                chebyshev(w, h, &seed, base),
                by_definition(w, h, &seed, base),
                "{w} x {h}, base {base}"
            );
        }
        let (w, h) = (600, 3);
        let none = vec![false; w * h];
        assert_eq!(chebyshev(w, h, &none, 0), by_definition(w, h, &none, 0));
        let (w, h) = (700, 700);
        let mut one = vec![false; w * h];
        one[0] = true;
        let far = chebyshev(w, h, &one, 1);
        assert_eq!(far, by_definition(w, h, &one, 1));
        assert_eq!(far[350 * w + 350], 255, "capped");
    }

    #[test]
    fn a_large_map_has_the_same_tables_with_or_without_a_second_thread() {
        // Past [`super::LARGE`] cells the two transforms run at once, where
        // a thread can be had; where none can, one after the other.
        let (w, h) = (1100, 1000);
        let mut next = numbers(0xd15c);
        let mut map = String::from("+++\nlaps = 1\n+++\n");
        for r in 0..h {
            for c in 0..w {
                map.push(match (c, r) {
                    (4, 2) => '>',
                    (6, 2) => '|',
                    (c, r) if c < 9 && r < 5 => '.',
                    _ => b"#.....,:~"[next(9)] as char,
                });
            }
            map.push('\n');
        }
        assert!(w * h >= super::LARGE);
        let track = crate::track::parse("big", map.as_bytes()).expect("parses");
        let alone =
            crate::base::threads::without_threads(|| crate::track::parse("big", map.as_bytes()));
        // Every table, through the track's debug form.
        assert!(alone.is_ok_and(|alone| format!("{alone:?}") == format!("{track:?}")));
    }
}
