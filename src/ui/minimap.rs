//! The minimap: the whole course in the panel, on tracks larger than the
//! track view, with every car and the next checkpoint.
//!
//! The map is scaled to fit `area` with square braille dots (a dot covers
//! `s` metres each way, the larger of the track's width and height over
//! the dots available), and a dot is lit where any cell under it is road:
//! drivable ground that grips like asphalt, or a race mark. Cars are drawn
//! as letters over it, the player `@` and the computer cars `o`, and the
//! next checkpoint as its number (`F` for the finish), so it reads without
//! colour.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use glam::DVec2;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::theme::THEME;
use crate::app::SeatView;
use crate::track::{Mark, Track};

/// The dot under a world point, in a grid of `dots` at `s` metres a dot.
fn dot_of(p: DVec2, s: f64) -> (i64, i64) {
    ((p.x / s).floor() as i64, (p.y / s).floor() as i64)
}

/// Whether a cell is road for the map: drivable, and grippy or marked.
fn road(track: &Track, col: usize, row: usize) -> bool {
    track.drivable(col, row)
        && (track.mark_of(col, row) != Mark::None
            || track.surface_of(col, row).is_some_and(|s| s.grip >= 0.9))
}

/// A course drawn by [`course`]: where its dots landed.
#[derive(Clone, Copy)]
pub struct Placed {
    /// Metres a dot.
    s: f64,
    x0: u16,
    y0: u16,
    used: (u16, u16),
}

impl Placed {
    /// The terminal cell a world point falls in, if on the map.
    pub fn cell_of(&self, p: DVec2) -> Option<(u16, u16)> {
        let (dx, dy) = dot_of(p, self.s);
        let (cx, cy) = (dx.div_euclid(2), dy.div_euclid(4));
        (cx >= 0 && cy >= 0 && cx < i64::from(self.used.0) && cy < i64::from(self.used.1))
            .then(|| (self.x0 + cx as u16, self.y0 + cy as u16))
    }
}

/// A course's dots for one track and area: where they land and each
/// used cell's braille pattern (0: no road under it), row by row.
#[derive(Clone)]
struct Course {
    placed: Placed,
    cells: Rc<[u8]>,
}

/// Courses kept per thread, at most this many: one per track and
/// panel size, the same for every frame of every player who has them.
const KEPT_COURSES: usize = 64;

/// What a kept course was worked out for: the track (its content hash
/// and size in cells) and the area's size.
type Key = (u64, usize, usize, u16, u16);

thread_local! {
    static KEPT: RefCell<HashMap<Key, Course>> = RefCell::new(HashMap::new());
}

/// Draws the whole course of `track` scaled into `area` (see the module
/// doc); none below 8 x 3 cells. The dots are worked out once per track
/// and area size on each thread and kept.
pub fn course(buf: &mut Buffer, area: Rect, track: &Track, style: Style) -> Option<Placed> {
    if area.width < 8 || area.height < 3 {
        return None;
    }
    let key = (track.id, track.width, track.height, area.width, area.height);
    let kept = KEPT.with(|kept| kept.borrow().get(&key).cloned());
    let course = if let Some(c) = kept {
        c
    } else {
        let c = dots(area.width, area.height, track)?;
        KEPT.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.len() >= KEPT_COURSES {
                kept.clear();
            }
            kept.insert(key, c.clone());
        });
        c
    };
    let Placed { s, used, .. } = course.placed;
    let (x0, y0) = (
        area.x + (area.width - used.0) / 2,
        area.y + (area.height - used.1) / 2,
    );
    let rows = course.cells.chunks(usize::from(used.0).max(1));
    for (cy, row) in (0..used.1).zip(rows) {
        for (cx, &bits) in (0..used.0).zip(row) {
            if bits != 0 {
                let ch = char::from_u32(0x2800 + u32::from(bits)).unwrap_or(' ');
                buf[(x0 + cx, y0 + cy)].set_char(ch).set_style(style);
            }
        }
    }
    Some(Placed { s, x0, y0, used })
}

/// The course of `track` in an area of `width` x `height` cells, placed
/// at the area's origin.
fn dots(width: u16, height: u16, track: &Track) -> Option<Course> {
    let size = track.size_m();
    let (dw, dh) = (f64::from(width) * 2.0, f64::from(height) * 4.0);
    let s = (size.x / dw).max(size.y / dh);
    if !(s.is_finite() && s > 0.0) {
        return None;
    }
    let cs = track.cell_size();
    // Centre the map in the area.
    let used = (
        ((size.x / s / 2.0).ceil() as u16).min(width),
        ((size.y / s / 4.0).ceil() as u16).min(height),
    );
    let mut cells = Vec::with_capacity(usize::from(used.0) * usize::from(used.1));
    for cy in 0..used.1 {
        for cx in 0..used.0 {
            let mut bits = 0u8;
            for (i, (px, py)) in BRAILLE.iter().enumerate() {
                let (dx, dy) = (
                    f64::from(cx) * 2.0 + f64::from(*px),
                    f64::from(cy) * 4.0 + f64::from(*py),
                );
                // The cells under this dot's square.
                let (c0, r0) = ((dx * s / cs.x) as usize, (dy * s / cs.y) as usize);
                if c0 >= track.width || r0 >= track.height {
                    continue; // past the map's edge in the last cell
                }
                let c1 = (((dx + 1.0) * s / cs.x).ceil() as usize).clamp(c0 + 1, track.width);
                let r1 = (((dy + 1.0) * s / cs.y).ceil() as usize).clamp(r0 + 1, track.height);
                if (r0..r1).any(|r| (c0..c1).any(|c| road(track, c, r))) {
                    bits |= 1 << i;
                }
            }
            cells.push(bits);
        }
    }
    Some(Course {
        placed: Placed {
            s,
            x0: 0,
            y0: 0,
            used,
        },
        cells: cells.into(),
    })
}

/// Draws the minimap into `area`: the course, the next mark, the cars.
pub fn draw(buf: &mut Buffer, area: Rect, v: SeatView<'_>) {
    let Some(map) = course(buf, area, &v.race.world.track, Style::new().fg(THEME.dim)) else {
        return;
    };
    let mut mark = |p: DVec2, text: &str, c: Color| {
        if let Some((x, y)) = map.cell_of(p) {
            buf.set_string(x, y, text, Style::new().fg(c).add_modifier(Modifier::BOLD));
        }
    };
    let next = v.next_mark();
    if let Some(&at) = v.race.marks.get(next as usize) {
        let label = if next == 0 {
            "F".to_string()
        } else {
            next.to_string()
        };
        mark(at, &label, THEME.next_mark);
    }
    for car in v.rivals() {
        mark(car.state.body.pos, "o", THEME.rival);
    }
    mark(v.car().state.body.pos, "@", THEME.you);
}

/// Braille dot positions (column, row) in bit order 0..8: Unicode's
/// order of dots 1 to 8, so the bits are the pattern's offset from U+2800.
const BRAILLE: [(u8, u8); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 1),
    (1, 2),
    (0, 3),
    (1, 3),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    #[test]
    fn braille_bits_are_unicodes_dots() {
        let glyph = |col: u8, row: u8| {
            let i = BRAILLE.iter().position(|&d| d == (col, row)).unwrap();
            char::from_u32(0x2800 + (1 << i)).unwrap()
        };
        assert_eq!(glyph(0, 0), '⠁');
        assert_eq!(glyph(1, 0), '⠈');
        assert_eq!(glyph(0, 3), '⡀');
        assert_eq!(glyph(1, 3), '⢀');
        assert_eq!(glyph(1, 2), '⠠');
    }

    #[test]
    fn any_area_and_any_track_draws_without_panicking() {
        for name in ["pocket", "grandprix", "oval", "rally"] {
            let track = bundled::load(name).unwrap();
            let world = crate::world::World::new(
                track,
                crate::car::CarSpec::default_for(crate::physics::ModelKind::Arcade),
                crate::physics::ModelKind::Arcade,
                120,
            );
            let race = crate::app::Race::new(world, 3, None, None);
            for (w, h) in [(8, 3), (23, 5), (29, 20), (29, 41), (200, 3), (9, 60)] {
                let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
                draw(
                    &mut buf,
                    Rect::new(0, 0, w, h),
                    race.view(crate::app::LOCAL),
                );
                let text = crate::ui::buffer_text(&buf);
                assert!(text.contains('@'), "{name} {w}x{h}: the player\n{text}");
            }
        }
    }

    #[test]
    fn a_point_maps_into_the_grid() {
        let gp = bundled::load("grandprix").unwrap();
        let size = gp.size_m();
        let s = (size.x / 46.0).max(size.y / 20.0);
        // 892 x 520 m into 46 x 20 dots: the height decides, 26 m a dot.
        assert!((s - 26.0).abs() < 1e-9);
        let (x, y) = dot_of(size * 0.999, s);
        assert_eq!((x, y), (34, 19), "the far corner, in the last row");
    }
}
