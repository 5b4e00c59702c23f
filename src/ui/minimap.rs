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

use glam::DVec2;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::dots::Dots;
use super::theme::THEME;
use crate::console::damage::Damage;
use crate::race::SeatView;
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

/// Where the whole course of `track` lands scaled into `area` (see the
/// module doc); nowhere below 8 x 3 cells.
fn placed(area: Rect, track: &Track) -> Option<Placed> {
    if area.width < 8 || area.height < 3 {
        return None;
    }
    let size = track.size_m();
    let (dw, dh) = (f64::from(area.width) * 2.0, f64::from(area.height) * 4.0);
    let s = (size.x / dw).max(size.y / dh);
    if !(s.is_finite() && s > 0.0) {
        return None;
    }
    // Centre the map in the area.
    let used = (
        ((size.x / s / 2.0).ceil() as u16).min(area.width),
        ((size.y / s / 4.0).ceil() as u16).min(area.height),
    );
    let x0 = area.x + (area.width - used.0) / 2;
    let y0 = area.y + (area.height - used.1) / 2;
    Some(Placed { s, x0, y0, used })
}

/// Draws the whole course of `track` scaled into `area` in `color` (see
/// the module doc); none below 8 x 3 cells. Its dots are painted once
/// per track and area size on each thread and kept with the track
/// view's grounds, and rendered from there ([`Dots::render_cached`]).
pub fn course(buf: &mut Buffer, area: Rect, track: &Track, color: Color) -> Option<Placed> {
    let map = placed(area, track)?;
    paint_course(buf, area, &map, track, color);
    Some(map)
}

/// The course's dots, placed as `map`, into `buf`.
fn paint_course(buf: &mut Buffer, area: Rect, map: &Placed, track: &Track, color: Color) {
    let (s, used) = (map.s, map.used);
    let dots = (usize::from(used.0) * 2, usize::from(used.1) * 4);
    // Zoom 0, which no camera has, and the area's size where a camera's
    // origin goes: the whole course scaled to the area.
    let whole = (i64::from(area.width), i64::from(area.height));
    let key = (track.id, track.width, track.height, 0, whole, dots, 0);
    let at = Rect::new(map.x0, map.y0, used.0, used.1);
    Dots::render_cached(key, dots, |g| paint(g, dots, track, s, color), at, buf);
}

/// Lights each dot of `grid` (`dots` of them, `s` metres a dot) with
/// road under it.
fn paint(grid: &mut Dots, dots: (usize, usize), track: &Track, s: f64, color: Color) {
    let cs = track.cell_size();
    let (w, h) = dots;
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (x as f64, y as f64);
            // The cells under this dot's square.
            let (c0, r0) = ((dx * s / cs.x) as usize, (dy * s / cs.y) as usize);
            if c0 >= track.width || r0 >= track.height {
                continue; // past the map's edge in the last cell
            }
            let c1 = (((dx + 1.0) * s / cs.x).ceil() as usize).clamp(c0 + 1, track.width);
            let r1 = (((dy + 1.0) * s / cs.y).ceil() as usize).clamp(r0 + 1, track.height);
            if (r0..r1).any(|r| (c0..c1).any(|c| road(track, c, r))) {
                grid.paint(x, y, color);
            }
        }
    }
}

/// Draws the minimap into `area`: the course, the next mark, the cars; a
/// part of `damage` keyed by the course and where each letter landed,
/// painted unless the buffer holds it (`kept`, [`Damage::part`]).
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    v: SeatView<'_>,
    damage: &mut Damage,
    kept: Option<&Damage>,
) {
    let track = &v.race.world.track;
    let Some(map) = placed(area, track) else {
        return; // blank
    };
    let next = v.next_mark();
    let label = match next {
        0 => "F".to_string(),
        n => n.to_string(),
    };
    let at = v.race.marks.get(next as usize).copied();
    let letters = (at.map(|p| (p, label.as_str(), THEME.next_mark)).into_iter())
        .chain(v.rivals().map(|car| (car.state.body.pos, "o", THEME.rival)))
        .chain([(v.car().state.body.pos, "@", THEME.you)]);
    let letters: Vec<_> = letters
        .filter_map(|(p, text, c)| map.cell_of(p).map(|at| (at, text, c)))
        .collect();
    let key = (track.id, track.width, track.height, &letters);
    if !damage.part(buf, area, key, kept) {
        return;
    }
    paint_course(buf, area, &map, track, THEME.dim);
    for &((x, y), text, c) in &letters {
        buf.set_string(x, y, text, Style::new().fg(c).add_modifier(Modifier::BOLD));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    #[test]
    fn any_area_and_any_track_draws_without_panicking() {
        for name in ["pocket", "grandprix", "oval", "rally"] {
            let track = bundled::load(name).unwrap();
            let world = crate::race::world::World::new(
                track,
                crate::physics::car::CarSpec::default_for(crate::physics::ModelKind::Arcade),
                crate::physics::ModelKind::Arcade,
                120,
            );
            let race = crate::race::Race::new(world, 3, None, None);
            for (w, h) in [(8, 3), (23, 5), (29, 20), (29, 41), (200, 3), (9, 60)] {
                let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
                draw(
                    &mut buf,
                    Rect::new(0, 0, w, h),
                    race.view(crate::race::world::FIRST).unwrap(),
                    &mut Damage::All,
                    None,
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
