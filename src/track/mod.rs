//! Tracks: a grid of cells drawn as ASCII (see `parse` for the format).
//!
//! World frame (docs/DESIGN.md): metres, `x` east along the map's columns, `y`
//! south along its rows, origin at the map's top-left corner. A cell is
//! `cell` metres wide and `2 * cell` tall, because terminal cells are about
//! 1:2. Everything outside the map is wall.

mod blocks;
pub mod bundled;
pub mod collide;
pub mod course;
mod distance;
pub mod draft;
pub(crate) mod flood;
pub mod generate;
pub mod marks;
pub mod parse;
#[cfg(test)]
pub(crate) mod random;

use glam::DVec2;

pub use collide::{Obb, Penetration};
pub use course::Raceable;
pub use parse::parse;

/// Cell value for a wall in [`Track`]'s grid; other values index `surfaces`.
pub const WALL: u8 = u8::MAX;

/// What the ground does to a car. Every model reads all three numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    pub name: String,
    /// Tire friction factor: multiplies the grip of every tire (asphalt 1).
    pub grip: f64,
    /// Rolling resistance coefficient `C_rr`: a force of `C_rr * m * g`
    /// against the motion (seed 001: about 0.01 on dry asphalt).
    pub rolling: f64,
    /// Extra linear drag in 1/s: a deceleration of `drag * v`, the grass
    /// and gravel that clutch at a car.
    pub drag: f64,
}

/// The surfaces every track knows, in table order (asphalt first: it is the
/// fallback under a point that lies in a wall).
pub fn default_surfaces() -> Vec<Surface> {
    let s = |name: &str, grip, rolling, drag| Surface {
        name: name.to_string(),
        grip,
        rolling,
        drag,
    };
    vec![
        s("asphalt", 1.0, 0.015, 0.0),
        s("grass", 0.55, 0.08, 0.15),
        s("gravel", 0.65, 0.06, 0.25),
        s("ice", 0.12, 0.01, 0.0),
    ]
}

/// The four directions a start slot can face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    East,
    South,
    West,
    North,
}

impl Dir {
    /// Heading in radians from `+x` towards `+y` (so south is `+pi/2`).
    pub fn heading(self) -> f64 {
        use std::f64::consts::{FRAC_PI_2, PI};
        match self {
            Dir::East => 0.0,
            Dir::South => FRAC_PI_2,
            Dir::West => PI,
            Dir::North => -FRAC_PI_2,
        }
    }
}

/// A start slot: a cell and the heading a car starts with there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub col: usize,
    pub row: usize,
    pub dir: Dir,
}

/// Race marks painted on asphalt cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    None,
    Finish,
    Checkpoint(u8),
}

const MARK_NONE: u8 = 0;
const MARK_FINISH: u8 = 10;

/// The footprint a start slot must hold without touching a wall: a little
/// larger than every bundled car, so any preset fits on any valid start.
pub const START_FOOTPRINT: DVec2 = DVec2::new(4.8, 2.0);

/// The ground around a point: [`Track::around`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Around {
    /// Index into the track's surfaces.
    pub surface: usize,
    /// Metres within which the ground is the same surface.
    pub same_within: f64,
    /// Metres within which there is no wall.
    pub clear: f64,
}

/// A parsed, valid track.
#[derive(Debug, Clone)]
pub struct Track {
    pub name: String,
    pub laps: u32,
    /// Metres per column; a row is twice as tall.
    pub cell: f64,
    pub width: usize,
    pub height: usize,
    pub surfaces: Vec<Surface>,
    /// Row-major, `width * height`: a surface index or [`WALL`].
    cells: Vec<u8>,
    /// Row-major: `MARK_NONE`, a checkpoint 1..=9 or `MARK_FINISH`.
    marks: Vec<u8>,
    /// Row-major: how many cells away the nearest wall is (Chebyshev
    /// distance, off-map counting as wall, capped at 255); 0 on walls. Lets
    /// the physics skip every collision query in the open.
    clearance: Vec<u8>,
    /// Row-major: whether a car from the player's start can get there.
    reach: Vec<bool>,
    /// Row-major: how many cells away the surface first changes
    /// (Chebyshev, walls and off-map counting as a change, capped at 255):
    /// a car within it stands on one surface, looked up once.
    uniform: Vec<u8>,
    /// In reading order; the first is the player's.
    pub starts: Vec<Start>,
    /// How many checkpoints a lap passes, numbered 1..=checkpoints.
    pub checkpoints: u8,
    /// FNV-1a hash of the file's bytes: identifies the track's content.
    pub id: u64,
    /// The file's line number of the map's first row.
    pub map_line: usize,
}

impl Track {
    /// The content hash as records name it: 16 hex digits.
    pub fn content_id(&self) -> String {
        format!("{:016x}", self.id)
    }

    /// Size of a cell in metres: (width, height).
    pub fn cell_size(&self) -> DVec2 {
        DVec2::new(self.cell, 2.0 * self.cell)
    }

    /// Size of the whole map in metres.
    pub fn size_m(&self) -> DVec2 {
        self.cell_size() * DVec2::new(self.width as f64, self.height as f64)
    }

    /// The cell under a world point; `None` outside the map.
    pub fn cell_at(&self, p: DVec2) -> Option<(usize, usize)> {
        let c = p / self.cell_size();
        // Bounds in floating point first, so the conversions below need no
        // saturation (a map is at most `MAX_SIDE` cells a side).
        let inside = c.x >= 0.0
            && c.y >= 0.0
            && c.x < f64::from(self.width as u32)
            && c.y < f64::from(self.height as u32);
        inside.then_some((c.x as i32 as usize, c.y as i32 as usize))
    }

    /// Whether the cell at signed grid coordinates is a wall; everything
    /// outside the map is.
    pub fn is_wall(&self, col: isize, row: isize) -> bool {
        if col < 0 || row < 0 || col as usize >= self.width || row as usize >= self.height {
            return true;
        }
        self.cells[row as usize * self.width + col as usize] == WALL
    }

    /// The surface of a cell, `None` for a wall.
    pub fn surface_of(&self, col: usize, row: usize) -> Option<&Surface> {
        Some(&self.surfaces[self.surface_index(col, row)?])
    }

    /// The index into [`Track::surfaces`] of a cell's surface, `None` for a
    /// wall.
    pub fn surface_index(&self, col: usize, row: usize) -> Option<usize> {
        match self.cells[row * self.width + col] {
            WALL => None,
            i => Some(i as usize),
        }
    }

    /// The surface under a world point; `None` in a wall or off the map.
    pub fn surface_at(&self, p: DVec2) -> Option<&Surface> {
        let (col, row) = self.cell_at(p)?;
        self.surface_of(col, row)
    }

    /// The surface index a wheel at `p` drives on: the surface there, or
    /// asphalt (0) where the point lies in a wall (a wheel can overhang a
    /// wall's edge while the car's body stays clear of it).
    pub fn ground_index_at(&self, p: DVec2) -> usize {
        self.cell_at(p)
            .map_or(0, |(c, r)| self.ground_of(r * self.width + c))
    }

    /// The surface index of cell `i`, a wall counting as asphalt (0).
    fn ground_of(&self, i: usize) -> usize {
        match self.cells[i] {
            WALL => 0,
            s => s as usize,
        }
    }

    /// The race mark of a cell.
    pub fn mark_of(&self, col: usize, row: usize) -> Mark {
        self.mark_of_cell(row * self.width + col)
    }

    /// The race mark of the cell with index `row * width + col`.
    pub fn mark_of_cell(&self, i: usize) -> Mark {
        match self.marks[i] {
            MARK_NONE => Mark::None,
            MARK_FINISH => Mark::Finish,
            n => Mark::Checkpoint(n),
        }
    }

    /// Whether the cell with index `row * width + col` carries a race
    /// mark.
    pub fn marked(&self, i: usize) -> bool {
        self.marks[i] != MARK_NONE
    }

    /// The race mark under a world point.
    pub fn mark_at(&self, p: DVec2) -> Mark {
        self.cell_at(p)
            .map_or(Mark::None, |(c, r)| self.mark_of(c, r))
    }

    /// How many cells away the nearest wall is (Chebyshev, capped at 255).
    pub fn clearance_cells(&self, col: usize, row: usize) -> u8 {
        self.clearance[row * self.width + col]
    }

    /// What a car needs to know of the ground around `p`, from one cell
    /// lookup: the surface there, and radii (metres) within which the
    /// ground is surely that surface and there is surely no wall. Cells
    /// within Chebyshev distance `k - 1` of a cell whose table holds `k` are
    /// alike; a disc of `k - 2` cells around any point of the cell stays
    /// within them. Off the map, everything is zero.
    pub fn around(&self, p: DVec2) -> Around {
        match self.cell_at(p) {
            Some((c, r)) => {
                let i = r * self.width + c;
                let radius = |k: u8| (f64::from(k) - 2.0).max(0.0) * self.cell;
                Around {
                    surface: self.ground_of(i),
                    same_within: radius(self.uniform[i]),
                    clear: radius(self.clearance[i]),
                }
            }
            None => Around::default(),
        }
    }

    /// Whether a car starting from the player's slot can reach the cell:
    /// scenery walled off from the course is not.
    pub fn drivable(&self, col: usize, row: usize) -> bool {
        self.reach[row * self.width + col]
    }

    /// [`Track::drivable`] for every cell, by index `row * width + col`.
    pub fn reachable(&self) -> &[bool] {
        &self.reach
    }

    /// Fills `reach` ([`flood::reach`]): the cells a car starting from
    /// the player's slot can reach.
    pub(crate) fn compute_reach(&mut self) {
        let start = self.starts.first().map(|s| s.row * self.width + s.col);
        self.reach = flood::reach(self.width, self.height, &self.cells, start);
    }

    /// Fills `clearance` (distance to a wall) and `uniform` (distance to a
    /// change of surface), at once on a large map.
    pub(crate) fn compute_clearance(&mut self) {
        let (w, h, cells) = (self.width, self.height, &self.cells);
        let walls = || {
            let walls: Vec<bool> = cells.iter().map(|&c| c == WALL).collect();
            distance::chebyshev(w, h, &walls, 0)
        };
        let edges = || distance::chebyshev(w, h, &distance::edges(w, h, cells), 1);
        (self.clearance, self.uniform) = distance::at_once(w * h, walls, edges);
    }

    /// Calls `f` with each cell the segment from `a` to `b` passes through,
    /// in order, `a`'s own cell excluded (a grid walk after Amanatides and
    /// Woo): a car's centre cannot skip a one-cell line, however fast.
    pub fn cells_crossed(&self, a: DVec2, b: DVec2, mut f: impl FnMut(usize, usize)) {
        let cs = self.cell_size();
        let (pa, pb) = (a / cs, b / cs);
        let d = pb - pa;
        if !(pa.is_finite() && pb.is_finite()) {
            return;
        }
        let (mut col, mut row) = (pa.x.floor(), pa.y.floor());
        let (end_col, end_row) = (pb.x.floor(), pb.y.floor());
        let step = DVec2::new(d.x.signum(), d.y.signum());
        let next = |p: f64, c: f64, s: f64, dd: f64| {
            if dd == 0.0 {
                f64::INFINITY
            } else {
                ((c + f64::from(u8::from(s > 0.0))) - p) / dd
            }
        };
        let mut t_max = DVec2::new(next(pa.x, col, step.x, d.x), next(pa.y, row, step.y, d.y));
        let t_delta = DVec2::new(1.0 / d.x.abs(), 1.0 / d.y.abs());
        let cells = (end_col - col).abs() + (end_row - row).abs();
        for _ in 0..(cells as usize).min(1 << 16) {
            if t_max.x < t_max.y {
                col += step.x;
                t_max.x += t_delta.x;
            } else {
                row += step.y;
                t_max.y += t_delta.y;
            }
            if col >= 0.0
                && row >= 0.0
                && (col as usize) < self.width
                && (row as usize) < self.height
            {
                f(col as usize, row as usize);
            }
        }
    }

    /// Centre of a cell in world coordinates.
    pub fn cell_center(&self, col: usize, row: usize) -> DVec2 {
        (DVec2::new(col as f64, row as f64) + 0.5) * self.cell_size()
    }

    /// Position and heading of start slot `i` (0 is the player's).
    pub fn start_pose(&self, i: usize) -> (DVec2, f64) {
        let s = self.starts[i.min(self.starts.len() - 1)];
        (self.cell_center(s.col, s.row), s.dir.heading())
    }

    /// The race direction: the player's start heading as a unit vector.
    pub fn race_direction(&self) -> DVec2 {
        crate::base::trig::dir(self.starts[0].dir.heading())
    }

    /// Names of the surfaces that some cell uses, in table order.
    pub fn surfaces_used(&self) -> Vec<&str> {
        let (_, used) = self.ground_used();
        self.surfaces
            .iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(s, _)| s.name.as_str())
            .collect()
    }

    /// The most clearance of any cell (in cells, capped at 255), and
    /// which surfaces some cell uses (by index into
    /// [`Track::surfaces`]): one pass over the map.
    pub fn ground_used(&self) -> (u8, Vec<bool>) {
        let mut seen = [false; 256];
        let mut room = 0;
        for (&c, &k) in self.cells.iter().zip(&self.clearance) {
            seen[usize::from(c)] = true;
            room = room.max(k);
        }
        (room, seen[..self.surfaces.len()].to_vec())
    }
}

/// Calls `f` with each cell sharing a side with cell `i` (row-major) of a
/// `w` x `h` grid, as an index: the 4-connected steps of every flood over
/// a map (a plain chain of tests: parsing floods every cell of the map).
pub(crate) fn each_neighbour(i: usize, w: usize, h: usize, mut f: impl FnMut(usize)) {
    let (c, r) = (i % w, i / w);
    if c > 0 {
        f(i - 1);
    }
    if c + 1 < w {
        f(i + 1);
    }
    if r > 0 {
        f(i - w);
    }
    if r + 1 < h {
        f(i + w);
    }
}

/// FNV-1a, 64 bits: a stable content hash with no dependency.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
