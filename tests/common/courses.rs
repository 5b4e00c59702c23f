//! Random closed courses, for tests that must hold on any track rather than
//! on the bundled ones: a ring of road round a walled infield, its radius
//! and width varying with the angle, with grass, gravel and ice on it and
//! finish and checkpoint lines that may cover only part of its width.

/// What a course is drawn from: every field a number from 0 to 1 (a
/// proptest strategy draws them), read by [`course`].
#[derive(Debug, Clone)]
pub struct Shape {
    /// The road's centre radius at evenly spaced angles, from 0.55 to 1 of
    /// the most the map allows.
    pub radii: Vec<f64>,
    /// The road's half width at the same angles, 6 to 11 m (as on the
    /// bundled tracks: three rows or more).
    pub widths: Vec<f64>,
    /// Patches of another surface: angle, offset across the road (0 the
    /// inside edge, 1 the outside), size, and which surface.
    pub patches: Vec<[f64; 4]>,
    /// Checkpoint lines: angle (spread over the lap, in order), where the
    /// line starts across the road and how much of the width it covers
    /// (at least half).
    pub checkpoints: Vec<[f64; 3]>,
    /// The finish line's start across the road and its cover.
    pub finish: [f64; 2],
    /// Map size: columns 70..150, rows 34..64 (the tightest bend then
    /// has a radius of 25 m at its inside edge: `arcade` turns no tighter
    /// than 17 m).
    pub size: [f64; 2],
}

/// A course's ring of road in metres: a cell is 2 m wide and 4 m tall.
struct Ring<'a> {
    s: &'a Shape,
    cols: usize,
    rows: usize,
    centre: (f64, f64),
    room: f64,
}

const CELL: (f64, f64) = (2.0, 4.0);

impl Ring<'_> {
    /// Periodic linear interpolation of `v` over evenly spaced angles.
    fn at(v: &[f64], a: f64) -> f64 {
        let n = v.len();
        let x = a.rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU * n as f64;
        let (i, t) = (x.floor() as usize % n, x.fract());
        v[i] * (1.0 - t) + v[(i + 1) % n] * t
    }

    fn half(&self, a: f64) -> f64 {
        6.0 + 5.0 * Self::at(&self.s.widths, a)
    }

    fn radius(&self, a: f64) -> f64 {
        (self.room - self.half(a) - 1.0).min(self.room * (0.55 + 0.45 * Self::at(&self.s.radii, a)))
    }

    /// Cell `(c, r)`'s centre from the ring's centre, m.
    fn offset(&self, c: usize, r: usize) -> (f64, f64) {
        (
            (c as f64 + 0.5) * CELL.0 - self.centre.0,
            (r as f64 + 0.5) * CELL.1 - self.centre.1,
        )
    }

    /// Across the road at cell `(c, r)`: its angle, and 0 at the inside
    /// edge to 1 at the outside; none off the road.
    fn across(&self, c: usize, r: usize) -> Option<(f64, f64)> {
        let (x, y) = self.offset(c, r);
        let (a, d) = (y.atan2(x), x.hypot(y));
        let t = (d - (self.radius(a) - self.half(a))) / (2.0 * self.half(a));
        (0.0..=1.0).contains(&t).then_some((a, t))
    }

    /// The road's cells with the patches' surfaces on them.
    fn road(&self) -> Vec<Vec<char>> {
        let mut map = vec![vec!['#'; self.cols]; self.rows];
        for (r, row) in map.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let Some((a, t)) = self.across(c, r) else {
                    continue;
                };
                *cell = '.';
                for p in &self.s.patches {
                    let da = (a - (p[0] * 2.0 - 1.0) * std::f64::consts::PI).abs();
                    let da = da.min(std::f64::consts::TAU - da);
                    if da < 0.05 + 0.3 * p[2] && (t - p[1]).abs() < 0.15 + 0.35 * p[2] {
                        *cell = course_surface(p[3]);
                    }
                }
            }
        }
        map
    }

    /// A line across the road at angle `a`: of the road's cells the ray
    /// at that angle passes through (in order across the road, so that
    /// they meet by a side, not only a corner), the part from `from`
    /// covering half of them to all as `cover` goes from 0 to 1, two cells
    /// at least; asphalt beside it turns to grass.
    fn line(&self, map: &mut [Vec<char>], a: f64, from: f64, cover: f64, mark: char) {
        let mut cells: Vec<(f64, usize, usize)> = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Some((ca, t)) = self.across(c, r) else {
                    continue;
                };
                // The ray's distance from the cell's centre within the
                // cell's half extent across the ray.
                let (x, y) = self.offset(c, r);
                let off = (x * a.sin() - y * a.cos()).abs();
                let reach = 0.5 * (CELL.0 * a.sin().abs() + CELL.1 * a.cos().abs());
                if (ca - a).cos() > 0.0 && off <= reach + 1e-9 {
                    cells.push((t, c, r));
                }
            }
        }
        cells.sort_by(|p, q| p.0.total_cmp(&q.0));
        let m = cells.len();
        let take = ((0.5 + 0.5 * cover) * m as f64).ceil().max(2.0) as usize;
        let skip = (from * (m - take.min(m)) as f64).round() as usize;
        for (i, &(_, c, r)) in cells.iter().enumerate() {
            if (skip..skip + take).contains(&i) {
                map[r][c] = mark;
            } else if map[r][c] == '.' {
                // Beside the line, as on a road whose lines span the
                // asphalt alone: grass.
                map[r][c] = ' ';
            }
        }
    }

    /// The start: a few cells past the finish, on the cell nearest the
    /// road's middle with road two cells either side of it.
    fn start(&self, map: &[Vec<char>]) -> (usize, usize) {
        let fc = self.cols / 2;
        (fc + 4..fc + 12)
            .flat_map(|c| (0..self.rows / 2).map(move |r| (c, r)))
            .filter(|&(c, r)| {
                (c - 2..=c + 2).all(|c| map[r][c] != '#' && self.across(c, r).is_some())
            })
            .min_by(|a, b| {
                let off = |&(c, r): &(usize, usize)| {
                    self.across(c, r).map_or(1.0, |(_, t)| (t - 0.5f64).abs())
                };
                (a.0 - fc, off(a))
                    .partial_cmp(&(b.0 - fc, off(b)))
                    .expect("finite")
            })
            .expect("the road passes the top of the map")
    }
}

/// The course as track source (no front matter but `laps`).
pub fn course(s: &Shape, laps: u32) -> String {
    let cols = 70 + (s.size[0] * 80.0) as usize;
    let rows = 34 + (s.size[1] * 30.0) as usize;
    let centre = (cols as f64 * CELL.0 / 2.0, rows as f64 * CELL.1 / 2.0);
    let room = (centre.0 - 3.0 * CELL.0).min(centre.1 - 2.0 * CELL.1);
    let ring = Ring {
        s,
        cols,
        rows,
        centre,
        room,
    };
    let mut map = ring.road();
    // The finish at the top, going east (clockwise on the screen: the
    // angle grows); checkpoints spread over the rest of the lap in order.
    let top = -std::f64::consts::FRAC_PI_2;
    ring.line(&mut map, top + 0.01, s.finish[0], s.finish[1], '|');
    let n = s.checkpoints.len();
    for (k, cp) in s.checkpoints.iter().enumerate() {
        let span = std::f64::consts::TAU / (n + 1) as f64;
        let a = top + span * (k as f64 + 0.6 + 0.8 * cp[0]);
        ring.line(&mut map, a, cp[1], cp[2], char::from(b'1' + k as u8));
    }
    let (sc, sr) = ring.start(&map);
    map[sr][sc] = '>';
    let mut out = format!("+++\nlaps = {laps}\n+++\n");
    for row in map {
        out.extend(row);
        out.push('\n');
    }
    out
}

/// The surface a patch of a course is drawn in, from its fourth number:
/// grass, gravel, ice or grass.
pub fn course_surface(which: f64) -> char {
    [' ', ':', '~', ','][(which * 3.99) as usize]
}
