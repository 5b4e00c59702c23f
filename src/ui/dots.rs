//! A braille dot grid drawn straight into a buffer: what ratatui's
//! `Canvas` with `Marker::Braille` draws, dot for dot and colour for
//! colour (a cell's colour is its last dot's; a cell without dots keeps
//! what the buffer had), without its per-frame layer; and a grid can be
//! kept and copied. The track's ground is the same from frame to frame
//! while the camera stays put, so it is painted once per camera, view and
//! next mark, kept per thread ([`Dots::cached`]), and only the moving
//! things are painted over a copy of it; so is a seat's trail of skid
//! marks over it, only the marks added since painted ([`Dots::with_trail`]).

use std::cell::RefCell;
use std::collections::HashMap;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::braille::BRAILLE;

/// Cells of grids kept per thread (5 bytes each, so 10 MB at most): a
/// server's thread draws many players, whose cameras stand still most of
/// the time; 2 million cells are a thousand views of 80x24, or 20 of
/// 500x200.
const KEPT_CELLS: usize = 2_000_000;

/// A row none of whose cells were painted.
const NONE: (usize, usize) = (usize::MAX, 0);

/// A grid of braille cells, each 2 x 4 dots.
pub struct Dots {
    /// Cells a row.
    width: usize,
    /// Each cell's dots (bit `x + 2 y`) and colour.
    cells: Vec<(u8, Option<Color>)>,
    /// Each row's first and past-last cell painted since the grid was
    /// made or taken from the kept ones: where it may differ from them.
    touched: Vec<(usize, usize)>,
}

impl Clone for Dots {
    fn clone(&self) -> Dots {
        Dots {
            width: self.width,
            cells: self.cells.clone(),
            touched: self.touched.clone(),
        }
    }

    /// A copy in this grid's own memory (a kept grid copied for every
    /// frame of every player: no allocation when the sizes agree).
    fn clone_from(&mut self, source: &Dots) {
        self.width = source.width;
        self.cells.clone_from(&source.cells);
        self.touched.clone_from(&source.touched);
    }
}

impl PartialEq for Dots {
    /// The same dots in the same colours.
    fn eq(&self, other: &Dots) -> bool {
        self.width == other.width && self.cells == other.cells
    }
}

/// What a kept grid was painted for: the track (its content hash and
/// size), the camera's zoom and origin, the grid's size in dots, and a
/// number the painter adds (the next mark).
pub type Scene = (u64, usize, usize, u32, (i64, i64), (usize, usize), u8);

/// Cells of the trails' grids a thread keeps ([`Dots::with_trail`]): one
/// for each trail and view size, so a thousand players' views of 80x24
/// on each thread.
const KEPT_TRAIL_CELLS: usize = 3_000_000;

/// A trail's grid is kept only up to this many cells (a 200x60 screen's
/// track view): a larger view's cost is in its cells, not its marks.
const TRAIL_GRID_CELLS: usize = 12_000;

/// Grids a thread keeps, each with when it was last used and its cells,
/// up to a number of cells in all.
struct Cache<K, V> {
    grids: HashMap<K, (u64, usize, V)>,
    uses: u64,
    /// Cells of all the grids kept.
    cells: usize,
    budget: usize,
}

impl<K: std::hash::Hash + Eq + Copy, V> Cache<K, V> {
    fn new(budget: usize) -> Cache<K, V> {
        Cache {
            grids: HashMap::new(),
            uses: 0,
            cells: 0,
            budget,
        }
    }

    /// The grid kept for `key`, now the latest used.
    fn get(&mut self, key: &K) -> Option<&mut V> {
        self.uses += 1;
        let (used, _, v) = self.grids.get_mut(key)?;
        *used = self.uses;
        Some(v)
    }

    /// Keeps `v`, a grid of `cells`, for `key` if it fits in the budget
    /// at all, letting the least recently used go to make room: a
    /// quarter of the budget at once, so that a thread whose views do
    /// not all fit sorts its grids now and then, not on every miss.
    fn keep(&mut self, key: K, v: V, cells: usize) {
        if cells > self.budget {
            return;
        }
        if let Some((_, gone, _)) = self.grids.remove(&key) {
            self.cells -= gone;
        }
        if self.cells + cells > self.budget {
            let mut by_use: Vec<(u64, K)> =
                self.grids.iter().map(|(k, (u, ..))| (*u, *k)).collect();
            by_use.sort_unstable_by_key(|&(u, _)| u);
            for (_, k) in by_use {
                if self.cells + cells <= self.budget * 3 / 4 {
                    break;
                }
                if let Some((_, gone, _)) = self.grids.remove(&k) {
                    self.cells -= gone;
                }
            }
        }
        self.uses += 1;
        self.cells += cells;
        self.grids.insert(key, (self.uses, cells, v));
    }
}

/// Marks that are only ever added to, such as a seat's skid marks, but
/// for many let go at once now and then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trail {
    /// Which trail, among all of the process's.
    pub id: u64,
    /// Marks let go so far: while it stays the same, marks are only added.
    pub dropped: u64,
    /// Marks added so far.
    pub added: u64,
}

/// Where a trail's grid is kept: the trail, and the grid's size in dots.
type TrailAt = (u64, (usize, usize));

/// A trail's grid as kept: over which ground, and with how many marks.
struct TrailGrid {
    ground: Scene,
    dropped: u64,
    added: u64,
    grid: Dots,
}

thread_local! {
    /// A grid drawn and done with ([`Dots::give_back`]), whose memory
    /// the next copy of a kept grid takes.
    static SPARE: RefCell<Option<Dots>> = const { RefCell::new(None) };
    static KEPT_GRIDS: RefCell<Cache<Scene, Dots>> = RefCell::new(Cache::new(KEPT_CELLS));
    static KEPT_TRAILS: RefCell<Cache<TrailAt, TrailGrid>> =
        RefCell::new(Cache::new(KEPT_TRAIL_CELLS));
}

impl Dots {
    /// A blank grid of `dots` (columns, rows of dots).
    pub fn new(dots: (usize, usize)) -> Dots {
        let width = dots.0.div_ceil(2);
        let rows = dots.1.div_ceil(4);
        Dots {
            width,
            cells: vec![(0, None); width * rows],
            touched: vec![NONE; rows],
        }
    }

    /// A copy of `kept`, in the memory of the grid given back last.
    fn copy_of(kept: &Dots) -> Dots {
        match SPARE.with(|spare| spare.borrow_mut().take()) {
            Some(mut grid) => {
                grid.clone_from(kept);
                grid
            }
            None => kept.clone(),
        }
    }

    /// Done with: the next copy of a kept grid on this thread is made in
    /// its memory (up to [`TRAIL_GRID_CELLS`] cells: a big screen's
    /// grid is let go with it).
    pub fn give_back(self) {
        if self.cells.len() <= TRAIL_GRID_CELLS {
            SPARE.with(|spare| *spare.borrow_mut() = Some(self));
        }
    }

    /// The grid `paint` makes for `key`, painted once and kept (this
    /// thread keeps the latest used, [`KEPT_CELLS`] cells in all).
    pub fn cached(key: Scene, dots: (usize, usize), paint: impl FnOnce(&mut Dots)) -> Dots {
        Dots::kept(key, dots, paint, Dots::copy_of)
    }

    /// Renders the grid `paint` makes for `key` (kept as [`Dots::cached`]
    /// keeps it) into `area` of `buf` as it is, without a copy: for a
    /// grid nothing is painted over, such as the minimap's course.
    pub fn render_cached(
        key: Scene,
        dots: (usize, usize),
        paint: impl FnOnce(&mut Dots),
        area: Rect,
        buf: &mut Buffer,
    ) {
        Dots::kept(key, dots, paint, |grid| grid.render(area, buf));
    }

    /// What `then` makes of the grid kept for `key`, painted by `paint`
    /// and kept first if there is none yet.
    fn kept<R>(
        key: Scene,
        dots: (usize, usize),
        paint: impl FnOnce(&mut Dots),
        then: impl FnOnce(&Dots) -> R,
    ) -> R {
        KEPT_GRIDS.with(|kept| {
            let kept = &mut *kept.borrow_mut();
            if let Some(grid) = kept.get(&key) {
                return then(grid);
            }
            let grid = Dots::painted(dots, paint);
            let made = then(&grid);
            let cells = grid.cells.len();
            kept.keep(key, grid, cells);
            made
        })
    }

    /// A grid of `dots` as `paint` paints it, with nothing touched since.
    fn painted(dots: (usize, usize), paint: impl FnOnce(&mut Dots)) -> Dots {
        let mut grid = Dots::new(dots);
        paint(&mut grid);
        grid.touched.fill(NONE);
        grid
    }

    /// The kept grid for `key` (as [`Dots::cached`], `ground` painting
    /// it) with `trail`'s marks over it, which `marks` paints: those
    /// after the first `n` added. The grid says it was painted
    /// ([`Dots::touched`]) only where marks were added since this thread
    /// last painted the trail over this ground, or everywhere its marks
    /// are if it did not (or the trail let marks go since).
    pub fn with_trail(
        key: Scene,
        dots: (usize, usize),
        ground: impl FnOnce(&mut Dots),
        trail: Trail,
        marks: impl FnOnce(&mut Dots, u64),
    ) -> Dots {
        let at = (trail.id, dots);
        KEPT_TRAILS.with(|kept| {
            let kept = &mut *kept.borrow_mut();
            let same = |t: &&mut TrailGrid| {
                t.ground == key && t.dropped == trail.dropped && t.added <= trail.added
            };
            if let Some(t) = kept.get(&at).filter(same) {
                t.grid.touched.fill(NONE);
                marks(&mut t.grid, t.added);
                t.added = trail.added;
                return Dots::copy_of(&t.grid);
            }
            let mut grid = Dots::cached(key, dots, ground);
            marks(&mut grid, 0);
            if grid.cells.len() <= TRAIL_GRID_CELLS {
                let kept_grid = TrailGrid {
                    ground: key,
                    dropped: trail.dropped,
                    added: trail.added,
                    grid: grid.clone(),
                };
                kept.keep(at, kept_grid, grid.cells.len());
            }
            grid
        })
    }

    /// Dot `(x, y)` on, in `color`; a dot past the grid's cells is not
    /// drawn.
    pub fn paint(&mut self, x: usize, y: usize, color: Color) {
        if x / 2 >= self.width {
            return;
        }
        if let Some(cell) = self.cells.get_mut(y / 4 * self.width + x / 2) {
            cell.0 |= 1 << (x % 2 + 2 * (y % 4));
            cell.1 = Some(color);
            let row = &mut self.touched[y / 4];
            *row = (row.0.min(x / 2), row.1.max(x / 2 + 1));
        }
    }

    /// The cells of `area` (where the grid is rendered) painted since the
    /// grid was made or taken from the kept ones: one rectangle a row.
    pub fn touched(&self, area: Rect) -> impl Iterator<Item = Rect> + '_ {
        (self.touched.iter().enumerate())
            .filter(|(_, (from, to))| from < to)
            .map(move |(y, &(from, to))| {
                let (x, y) = (area.x as usize + from, area.y as usize + y);
                let r = Rect::new(x as u16, y as u16, (to - from) as u16, 1);
                r.intersection(area)
            })
            .filter(|r| !r.is_empty())
    }

    /// Draws the grid into `area` of `buf` as `Canvas` does: the area's
    /// background reset, each cell with dots its braille character in its
    /// colour.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        self.render_within(area, buf, [area]);
    }

    /// [`Dots::render`] into the cells of `area` within `rects` only (a
    /// cell in two of them drawn twice, the same).
    pub fn render_within(
        &self,
        area: Rect,
        buf: &mut Buffer,
        rects: impl IntoIterator<Item = Rect>,
    ) {
        // Row by row through the buffer's cells: this runs for every cell
        // of every player's track view in every frame, where indexing by
        // position would work out each cell's place again.
        let area = area.intersection(buf.area);
        let (bx, by, bw) = (buf.area.x, buf.area.y, usize::from(buf.area.width));
        let at = |x: u16, y: u16| usize::from(y - by) * bw + usize::from(x - bx);
        let cols = usize::from(area.width).min(self.width);
        for r in rects.into_iter().map(|r| r.intersection(area)) {
            let (gx, w) = (usize::from(r.x - area.x), usize::from(r.width));
            for y in r.top()..r.bottom() {
                let row = at(r.x, y);
                let cells = &mut buf.content[row..row + w];
                let g = usize::from(y - area.y) * self.width;
                let grid = self.cells.get(g + gx..g + cols.max(gx)).unwrap_or(&[]);
                for cell in cells.iter_mut() {
                    cell.bg = Color::Reset;
                }
                for (cell, &(dots, color)) in cells.iter_mut().zip(grid) {
                    if dots == 0 {
                        continue;
                    }
                    cell.set_char(BRAILLE[usize::from(dots)]);
                    if let Some(c) = color {
                        cell.set_fg(c);
                    }
                }
            }
        }
    }
}

/// The dots of a straight line from `a` to `b` (Bresenham's), both ends
/// in, at most 4,097 of them.
pub fn steps(a: (i64, i64), b: (i64, i64)) -> impl Iterator<Item = (i64, i64)> {
    let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
    let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
    let (mut at, mut err) = (Some(a), dx + dy);
    std::iter::from_fn(move || {
        let (x, y) = at?;
        at = (at != Some(b)).then(|| {
            let e2 = 2 * err;
            let mut next = (x, y);
            if e2 >= dy {
                err += dy;
                next.0 += sx;
            }
            if e2 <= dx {
                err += dx;
                next.1 += sy;
            }
            next
        });
        Some((x, y))
    })
    .take((dx - dy).min(4096) as usize + 1)
}

#[cfg(test)]
mod tests;
