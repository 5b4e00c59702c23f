//! Random maps for the tests of the racing line's searches
//! ([`super::paths`], [`super::regions`]): the same maps on every run.

use super::cost::{Cost, move_cost, units};
use super::search::MOVES;
use crate::track::{Track, parse};

pub(crate) use crate::track::random::{numbers, random_track};

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
