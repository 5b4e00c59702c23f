//! Random maps for the tests of the racing line's searches
//! ([`super::paths`], [`super::regions`]): the same maps on every run.

use super::search::{Cost, MOVES, move_cost, units};
use crate::track::{Track, parse};

pub(crate) use crate::track::numbers;

/// A walled `w` x `h` field of asphalt, with `mark(column, row)` drawn
/// where it is given (a start, a finish line...).
pub fn walled_field(w: usize, h: usize, mark: impl Fn(usize, usize) -> Option<char>) -> Track {
    let mut map = String::new();
    for r in 0..h {
        for c in 0..w {
            map.push(match mark(c, r) {
                Some(m) => m,
                None if c == 0 || r == 0 || c == w - 1 || r == h - 1 => '#',
                None => '.',
            });
        }
        map.push('\n');
    }
    parse("field", map.as_bytes()).unwrap()
}

/// A random map: walls, asphalt, grass, gravel and ice, the start and
/// a finish line cell somewhere, and checkpoints 1 to `checkpoints`,
/// each a short line (along a row, a column or a diagonal) anywhere.
pub fn random_track(next: &mut impl FnMut(usize) -> usize, checkpoints: u8) -> Track {
    let (w, h) = (12 + next(50), 8 + next(30));
    // Clear of walls round the start, the finish just east of it.
    let (sc, sr) = (5 + next(w - 10), 3 + next(h - 6));
    let mut map: Vec<Vec<u8>> = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| match (c.abs_diff(sc), r.abs_diff(sr)) {
                    (0, 0) => b'>',
                    (2, 0) if c > sc => b'|',
                    (dc, dr) if dc <= 4 && dr <= 2 => b'.',
                    _ => b"##.....,:~"[next(10)],
                })
                .collect()
        })
        .collect();
    for n in 1..=checkpoints {
        let (dc, dr) = [(1, 0), (0, 1), (1, 1), (1, -1)][next(4)];
        let taken = |cell: &u8| b">|".contains(cell) || cell.is_ascii_digit();
        let (mut c, mut r) = loop {
            let (c, r) = (next(w), next(h));
            if !taken(&map[r][c]) {
                break (c as isize, r as isize);
            }
        };
        for _ in 0..=next(16) {
            if let Some(cell) = map
                .get_mut(r as usize)
                .and_then(|row| row.get_mut(c as usize))
                && !taken(cell)
            {
                *cell = b'0' + n;
            }
            (c, r) = (c + dc, r + dr);
        }
    }
    let text: Vec<u8> = map
        .into_iter()
        .flat_map(|row| row.into_iter().chain([b'\n']))
        .collect();
    parse("random", &text).unwrap()
}

/// The cost of a path, in the searches' units: each move's length (from
/// `length` metres) times the price of the cell it enters, added from the
/// start. Checks that it is a path: moves between cells a car can reach,
/// no corner cut.
pub fn cost_of(track: &Track, path: &[u32], length: &[f64], cost: &impl Cost) -> u64 {
    let w = track.width as isize;
    let length = units(track, length);
    let mut d = 0;
    for pair in path.windows(2) {
        let (a, b) = (pair[0] as isize, pair[1] as isize);
        let m = MOVES
            .iter()
            .position(|&(dc, dr)| a % w + dc == b % w && a / w + dr == b / w)
            .expect("a move");
        let (c, r) = ((b % w) as usize, (b / w) as usize);
        let (ac, ar) = ((a % w) as usize, (a / w) as usize);
        assert!(track.drivable(c, r) && track.drivable(c, ar) && track.drivable(ac, r));
        let price = cost(b as usize, (c, r)).expect("an open cell");
        d += move_cost(length[m], price).expect("a price");
    }
    d
}
