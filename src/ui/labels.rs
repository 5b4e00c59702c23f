//! Text on the track view ([`super::track`]): each other car's driver
//! by name beside the car (never on it, on the road ahead or under your
//! car's arrow), someone else's ghost by name, the next checkpoint's
//! number on its line, and on your own car's centre cell the arrow
//! nearest its heading.

use glam::DVec2;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::projection::Projection;
use super::theme::THEME;
use crate::race::SeatView;
use crate::track::Obb;

/// Where people race each other, each other car's driver by name beside
/// the car, and someone else's ghost by name beside it: the rows written.
pub(super) fn names(buf: &mut Buffer, area: Rect, view: Projection, v: SeatView<'_>) -> Vec<Rect> {
    let mut drawn = Vec::new();
    // Your car's arrow is drawn last, over everything: no name under it.
    let arrow = cell_of(view, v.car().state.body.pos);
    let track = &v.race.world.track;
    let wall = |x: i64, y: i64| {
        (track.cell_at(view.world(x, y))).is_none_or(|(c, r)| track.is_wall(c as isize, r as isize))
    };
    // Never with an arrow in it: the arrows are your car's.
    for e in &v.race.world.cars {
        let Some(name) = (e.name.as_ref()).filter(|n| e.id != v.seat.car && !n.is_empty()) else {
            continue;
        };
        let short: String = (name.chars())
            .filter(|c| !ARROWS.contains(c))
            .take(8)
            .collect();
        let cells = view.cells(&e.car.footprint());
        let at = place(
            cells,
            e.car.forward(),
            short.chars().count() as i64,
            arrow,
            wall,
        );
        let style = Style::new().fg(THEME.rival);
        drawn.extend(write_at(buf, area, at, &short, style));
    }
    // Someone else's ghost, by name, beside it.
    if let (Some(name), Some([x, y, heading])) = (v.ghost_name(), v.ghost_pose()) {
        let short: String = (name.chars())
            .filter(|c| !ARROWS.contains(c))
            .take(8)
            .collect();
        let spec = &v.car().spec().body;
        let outline = Obb::new(DVec2::new(x, y), heading, spec.length, spec.width);
        let fwd = DVec2::new(heading.cos(), heading.sin());
        let at = place(
            view.cells(&outline),
            fwd,
            short.chars().count() as i64,
            arrow,
            wall,
        );
        let style = Style::new().fg(THEME.faint);
        drawn.extend(write_at(buf, area, at, &short, style));
    }
    drawn
}

/// Where a name of `len` cells goes beside a car covering the cells
/// `[first column, first row, last column, last row]` and heading along
/// `fwd` (world, `y` down the screen): the cell it starts at, first
/// choice then second. Never on the car and never on the road ahead of
/// it: moving across the screen, on the row above (below when it climbs)
/// ending at the car's front column, or else on the other row ending at
/// its rear column; moving up or down it, on the car's rear row, right
/// of it or else left.
pub fn beside([c0, r0, c1, r1]: [i64; 4], fwd: DVec2, len: i64) -> [(i64, i64); 2] {
    // A terminal cell is twice as tall as wide: compare in cells.
    let across = fwd.x.abs() >= 0.5 * fwd.y.abs();
    if across {
        // The side away from any climb or fall: above when level or
        // falling, below when climbing (or at the view's top), ending at
        // the front column. Else the other side, ending at the rear
        // column: there, a car climbing or falling towards it has not
        // reached it.
        let (front, rear) = if fwd.x >= 0.0 {
            (c1 - len + 1, c0 - len + 1)
        } else {
            (c0, c1)
        };
        if fwd.y >= 0.0 && r0 > 0 {
            [(front, r0 - 1), (rear, r1 + 1)]
        } else {
            [(front, r1 + 1), (rear, r0 - 1)]
        }
    } else {
        let row = if fwd.y > 0.0 { r0 } else { r1 };
        [(c1 + 1, row), (c0 - len, row)]
    }
}

/// [`beside`]'s first choice, or its second where the first would run
/// under `arrow` (your car's arrow, which would hide a letter of it: a
/// rival alongside read "be→" for "ben"), or over more wall than the
/// second (`wall`: whether the view's cell is a wall's; a name over a
/// wall hid where the road turns).
fn place(
    cells: [i64; 4],
    fwd: DVec2,
    len: i64,
    arrow: (i64, i64),
    wall: impl Fn(i64, i64) -> bool,
) -> (i64, i64) {
    let [first, second] = beside(cells, fwd, len);
    let under = |(x, y): (i64, i64)| y == arrow.1 && (x..x + len).contains(&arrow.0);
    let walls = |(x, y): (i64, i64)| (x..x + len).filter(|&c| wall(c, y)).count();
    match (under(first), under(second)) {
        (true, false) => second,
        (false, false) if walls(second) < walls(first) => second,
        _ => first,
    }
}

/// The view's cell under the world point `at`.
fn cell_of(view: Projection, at: DVec2) -> (i64, i64) {
    let d = view.dot(at);
    ((d.x / 2.0).floor() as i64, (d.y / 4.0).floor() as i64)
}

/// The eight arrows, by heading from east (`+x`) turning towards south
/// (`+y`, down the screen) in eighths of a turn.
pub const ARROWS: [char; 8] = ['→', '↘', '↓', '↙', '←', '↖', '↑', '↗'];

/// The arrow nearest `heading` (radians from `+x` towards `+y`).
pub fn arrow(heading: f64) -> char {
    let eighth = std::f64::consts::FRAC_PI_4;
    let k = (super::gauges::finite(heading) / eighth).round() as i64;
    ARROWS[k.rem_euclid(8) as usize]
}

/// Writes `text` on the view's cell at `at`, `dx` cells to its right,
/// clipped to `area`; nothing if the cell is outside. The cells
/// written, if any.
pub(super) fn label(
    buf: &mut Buffer,
    area: Rect,
    view: Projection,
    at: DVec2,
    dx: u16,
    text: &str,
    style: Style,
) -> Option<Rect> {
    let (x, y) = cell_of(view, at);
    if x >= 0 && x < i64::from(area.width) {
        return write_at(buf, area, (x + i64::from(dx), y), text, style);
    }
    None
}

/// Writes `text` from the view's cell `(x, y)` (which may lie outside
/// it), clipped to `area`: a text that starts left of it shows its end.
/// The cells written, if any.
fn write_at(
    buf: &mut Buffer,
    area: Rect,
    (x, y): (i64, i64),
    text: &str,
    style: Style,
) -> Option<Rect> {
    if y < 0 || y >= i64::from(area.height) || x >= i64::from(area.width) {
        return None;
    }
    let shown: String = text.chars().skip((-x).max(0) as usize).collect();
    let x = x.max(0) as u16;
    let room = area.width - x;
    let y = area.y + y as u16;
    super::text::put_str(buf, area.x + x, y, &shown, room, style);
    let width = unicode_width::UnicodeWidthStr::width(shown.as_str()).min(usize::from(room));
    Some(Rect::new(area.x + x, y, width as u16, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27: a rival's name started two cells right of the car's
    /// centre, which at one cell a metre or two is the car's own nose.
    /// A name is never on the car's cells, nor past its front along its
    /// heading, whichever way it heads.
    #[test]
    fn a_name_goes_beside_its_car_never_on_it_or_ahead() {
        let car = [10, 5, 13, 6];
        let screen = |c: i64, r: i64| DVec2::new(c as f64 + 0.5, 2.0 * (r as f64 + 0.5));
        for k in 0..16 {
            let heading = f64::from(k) * std::f64::consts::TAU / 16.0;
            let fwd = DVec2::new(heading.cos(), heading.sin());
            let front = (car[0]..=car[2])
                .flat_map(|c| (car[1]..=car[3]).map(move |r| screen(c, r).dot(fwd)))
                .fold(f64::MIN, f64::max);
            for (x, y) in beside(car, fwd, 6) {
                for c in x..x + 6 {
                    let on = (car[0]..=car[2]).contains(&c) && (car[1]..=car[3]).contains(&y);
                    assert!(!on, "heading {heading:.2}: name on the car at ({c}, {y})");
                    let ahead = screen(c, y).dot(fwd) > front + 0.5;
                    assert!(!ahead, "heading {heading:.2}: name ahead at ({c}, {y})");
                }
            }
        }
    }

    /// Your car's arrow, alongside a rival where its name would go,
    /// would hide a letter of it: the name goes to its other side, whole.
    #[test]
    fn a_name_never_runs_under_your_arrow() {
        let car = [10, 5, 13, 6];
        for k in 0..16 {
            let heading = f64::from(k) * std::f64::consts::TAU / 16.0;
            let fwd = DVec2::new(heading.cos(), heading.sin());
            let [first, _] = beside(car, fwd, 3);
            for dx in 0..3 {
                let arrow = (first.0 + dx, first.1);
                let (x, y) = place(car, fwd, 3, arrow, |_, _| false);
                let under = y == arrow.1 && (x..x + 3).contains(&arrow.0);
                assert!(
                    !under,
                    "heading {heading:.2}: the name under the arrow at {arrow:?}"
                );
            }
            // Elsewhere, the first choice.
            assert_eq!(place(car, fwd, 3, (-50, -50), |_, _| false), first);
        }
    }

    /// Issue 50: a name was drawn over a wall beside its car. Where its
    /// first place runs over more wall than its second, it takes the
    /// second; where both are clear, the first.
    #[test]
    fn a_name_goes_where_there_is_less_wall() {
        let car = [10, 5, 13, 6];
        let east = DVec2::new(1.0, 0.0);
        let [first, second] = beside(car, east, 3);
        let wall_on = |row: i64| move |_: i64, y: i64| y == row;
        assert_eq!(place(car, east, 3, (-50, -50), wall_on(first.1)), second);
        assert_eq!(place(car, east, 3, (-50, -50), wall_on(second.1)), first);
        assert_eq!(place(car, east, 3, (-50, -50), wall_on(99)), first);
    }

    #[test]
    fn each_heading_has_the_nearest_arrow() {
        let eighth = std::f64::consts::FRAC_PI_4;
        for (k, &a) in ARROWS.iter().enumerate() {
            let h = k as f64 * eighth;
            assert_eq!(arrow(h), a);
            assert_eq!(arrow(h + 0.3 * eighth), a);
            assert_eq!(arrow(h - 0.3 * eighth - std::f64::consts::TAU), a);
        }
        assert_eq!(arrow(f64::NAN), '→');
    }
}
