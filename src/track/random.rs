//! Random grids and maps for tests that must hold beyond the bundled
//! tracks: the same ones on every run.

use super::{Track, parse};

/// A generator of numbers below `n` (xorshift, fixed seed), for tests on
/// random grids and maps that are the same on every run.
pub(crate) fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// A random map: walls, asphalt, grass, gravel and ice, the start and
/// a finish line cell somewhere, and checkpoints 1 to `checkpoints`,
/// each a short line (along a row, a column or a diagonal) anywhere.
pub(crate) fn random_track(next: &mut impl FnMut(usize) -> usize, checkpoints: u8) -> Track {
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
