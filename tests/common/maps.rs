//! Generated maps for tests and benchmarks that must hold beyond the
//! bundled tracks: open fields whose lines stop in the open, and a road
//! winding over a whole map. Each returns track source.
#![allow(dead_code)] // each user takes what it needs

use std::ops::Range;

/// A walled open field `w` x `h` cells with a finish line down column
/// `w / 2` over rows `finish` (from the top wall, or floating), a
/// checkpoint line below it over rows `checkpoint` if any, and the start
/// 4 cells east of the finish facing east: no road, so the lap is any
/// loop round the lines' ends.
pub fn field(w: usize, h: usize, finish: Range<usize>, checkpoint: Option<Range<usize>>) -> String {
    let x = w / 2;
    let start = usize::midpoint(finish.start, finish.end);
    let mut map = String::from("+++\nlaps = 2\n+++\n");
    for r in 0..h {
        for c in 0..w {
            map.push(match (r, c) {
                (0, _) | (_, 0) => '#',
                (r, c) if r == h - 1 || c == w - 1 => '#',
                (r, c) if c == x && finish.contains(&r) => '|',
                (r, c) if c == x && checkpoint.as_ref().is_some_and(|k| k.contains(&r)) => '1',
                (r, c) if r == start && c == x + 4 => '>',
                _ => '.',
            });
        }
        map.push('\n');
    }
    map
}

/// A winding road filling a `n` x `n` map: lanes of eight rows joined at
/// alternate ends, and a way back up the left side. Its racing line runs
/// the whole map (about 465,000 points at 2048), which takes a while.
pub fn serpentine(n: usize) -> String {
    let mut lanes = (n - 2) / 9;
    lanes -= lanes % 2;
    let h = lanes * 9 + 1;
    let mut g = vec![vec![b'#'; n]; h];
    for i in 0..lanes {
        let top = 1 + 9 * i;
        for row in g.iter_mut().skip(top).take(8) {
            row[10..n - 1].fill(b'.');
        }
        if i + 1 < lanes {
            let gap = if i % 2 == 0 { n - 9..n - 1 } else { 10..18 };
            g[top + 8][gap].fill(b'.');
        }
    }
    for (r, row) in g.iter_mut().enumerate().take(h - 1).skip(1) {
        row[1..9].fill(b'.');
        if r < 9 || r >= h - 9 {
            row[9] = b'.';
        }
    }
    for row in g.iter_mut().skip(1).take(8) {
        row[20] = b'|';
    }
    g[4][24] = b'>';
    g.into_iter()
        .map(|row| String::from_utf8(row).unwrap() + "\n")
        .collect()
}

/// [`serpentine`] with checkpoints 1 to `k` (at most 9) across lanes
/// spread evenly down the map, each in the middle of its lane: a lap of
/// `k + 1` legs, each a tenth of the road for nine.
pub fn serpentine_checkpoints(n: usize, k: u8) -> String {
    let map = serpentine(n);
    let mut rows: Vec<Vec<u8>> = map.lines().map(|l| l.as_bytes().to_vec()).collect();
    let lanes = (rows.len() - 1) / 9;
    for c in 1..=k.min(9) {
        let top = 1 + 9 * (usize::from(c) * lanes / (usize::from(k) + 1));
        for row in &mut rows[top..top + 8] {
            row[n / 2] = b'0' + c;
        }
    }
    rows.into_iter()
        .map(|row| String::from_utf8(row).unwrap() + "\n")
        .collect()
}

/// A walled open field `n` x `n` cells with a finish line down column 100
/// from the top wall over 60 rows, the start 4 cells east of it facing
/// east, and checkpoints 1, 2, ... as lines 30 rows long down from the
/// cells `spots` (column, row): no road, so each leg of the lap crosses
/// open ground from one line to the next.
pub fn field_checkpoints(n: usize, spots: &[(usize, usize)]) -> String {
    let mut g = vec![vec![b'.'; n]; n];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r == n - 1 || c == n - 1 {
                *cell = b'#';
            }
        }
    }
    for row in &mut g[1..60] {
        row[100] = b'|';
    }
    g[30][104] = b'>';
    for (k, &(c, r)) in spots.iter().enumerate() {
        for row in &mut g[r..r + 30] {
            row[c] = b'1' + k as u8;
        }
    }
    let mut map = String::from("+++\nlaps = 2\n+++\n");
    for row in g {
        map.push_str(std::str::from_utf8(&row).unwrap());
        map.push('\n');
    }
    map
}

/// Nine checkpoint spots spread over an `n` x `n` [`field_checkpoints`]:
/// far corners, the middle and the sides' middles, so that the lap's ten
/// legs cross the field this way and that.
pub fn spread(n: usize) -> [(usize, usize); 9] {
    let (far, mid, near) = (n - 192, n / 2, 100);
    [
        (far, far),
        (far, near),
        (near, far),
        (mid, mid),
        (far, mid),
        (near, mid),
        (mid, far),
        (mid, near),
        (3 * n / 4, 3 * n / 4),
    ]
}

/// A rectangular road round a grass infield, with grass between it and
/// the walls too, whose finish and checkpoint lines span the road only:
/// each can be driven round through the grass beside it (`skid check`
/// warns so) and lies anywhere along its side. `seed` draws the map's
/// size, the road's width, the grass margin and where each line and the
/// start stand. None where the draw leaves no room for them.
pub fn grass_ringed(seed: u64) -> Option<String> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut draw = |lo: usize, hi: usize| -> Option<usize> {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (lo <= hi).then(|| lo + (state >> 33) as usize % (hi - lo + 1))
    };
    let (w, h) = (draw(40, 90)?, draw(16, 30)?);
    let (m, t) = (draw(2, 6)?, draw(2, 4)?);
    let (top, bot, left, right) = (m, h - 1 - m, 2 * m, w - 1 - 2 * m);
    let mut g = vec![vec![' '; w]; h];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let road = (top..=bot).contains(&r) && (left..=right).contains(&c);
            let infield =
                (top + t..=bot - t).contains(&r) && (left + 2 * t..=right - 2 * t).contains(&c);
            if r == 0 || c == 0 || r == h - 1 || c == w - 1 {
                *cell = '#';
            } else if road && !infield {
                *cell = '.';
            }
        }
    }
    let finish = draw(left + 2 * t + 2, right.checked_sub(2 * t + 2)?)?;
    for row in &mut g[top..top + t] {
        row[finish] = '=';
    }
    let one = draw(top + t + 1, bot - t - 1)?;
    g[one][right + 1 - 2 * t..=right].fill('1');
    let two = draw(left + 2 * t + 2, right - 2 * t - 2)?;
    for row in &mut g[bot + 1 - t..=bot] {
        row[two] = '2';
    }
    let three = draw(top + t + 1, bot - t - 1)?;
    g[three][left..left + 2 * t].fill('3');
    let start = finish.checked_sub(draw(3, 8)?)?;
    g[top + t / 2][start] = '>';
    let rows: Vec<String> = g.into_iter().map(|r| r.into_iter().collect()).collect();
    Some(format!("+++\nlaps = 2\n+++\n{}\n", rows.join("\n")))
}
