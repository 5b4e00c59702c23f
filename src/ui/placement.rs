//! Where an overlay may go over the race: never on the road the player's
//! car will drive in the next two seconds, nor on the car.

use ratatui::layout::Rect;

use crate::race::SeatView;

/// Seconds of road ahead of the car kept clear of overlays.
pub const CLEAR_AHEAD: f64 = 2.0;

/// The view cells (relative to the view) of the car and of the racing
/// line over the next [`CLEAR_AHEAD`] seconds at the car's speed (at
/// least 10 m), and of its own path if it went straight on.
pub fn ahead(view: Rect, v: SeatView<'_>) -> Vec<(i64, i64)> {
    let cam = super::track::camera(v, view);
    let track = &v.race.world.track;
    let body = &v.car().state.body;
    let line = &v.race.line;
    let along = v.entrant.along;
    let reach = (body.vel.length() * CLEAR_AHEAD).max(10.0);
    let steps = (reach / crate::ai::line::SPACING).ceil() as usize;
    let n = line.points.len().max(1);
    let on_line = (0..=steps).map(|k| line.points[(along + k) % n]);
    let straight = (0..=8).map(|k| body.pos + body.vel * (CLEAR_AHEAD * f64::from(k) / 8.0));
    (std::iter::once(body.pos).chain(on_line).chain(straight))
        .map(|p| (cam.col_of(track, p), cam.row_of(track, p)))
        .collect()
}

/// Whether `r` (in view coordinates) keeps a cell's margin from every
/// cell of `keep`.
pub fn clear(r: Rect, keep: &[(i64, i64)]) -> bool {
    let (x0, y0) = (i64::from(r.x) - 1, i64::from(r.y) - 1);
    let (x1, y1) = (i64::from(r.right()), i64::from(r.bottom()));
    !keep
        .iter()
        .any(|&(x, y)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y))
}

/// The first of `candidates` (absolute rectangles within `view`) clear
/// of `keep` and of `taken`.
pub fn first_clear(
    view: Rect,
    candidates: &[Rect],
    keep: &[(i64, i64)],
    taken: Option<Rect>,
) -> Option<Rect> {
    candidates.iter().copied().find(|&r| {
        let rel = Rect::new(r.x - view.x, r.y - view.y, r.width, r.height);
        r.width > 0 && r.height > 0 && clear(rel, keep) && taken.is_none_or(|t| !t.intersects(r))
    })
}

/// Strips of `h` rows across `view`, the side away from the car first
/// (`low`: the car is high, so the bottom first), then the same halves
/// of each side.
pub fn strips(view: Rect, h: u16, low: bool) -> Vec<Rect> {
    let h = h.min(view.height);
    let top = Rect::new(view.x, view.y, view.width, h);
    let bottom = Rect::new(view.x, view.bottom() - h, view.width, h);
    let (first, second) = if low { (bottom, top) } else { (top, bottom) };
    let half = view.width / 2;
    let halves = |r: Rect| {
        [
            Rect::new(r.x, r.y, half, r.height),
            Rect::new(r.x + half, r.y, view.width - half, r.height),
        ]
    };
    let mut all = vec![first, second];
    all.extend(halves(first));
    all.extend(halves(second));
    all
}

/// Boxes of `w` x `h` in `view`: centred at the top or bottom (away from
/// the car first), then at each corner, then centred on each side's
/// middle row band.
pub fn boxes(view: Rect, w: u16, h: u16, low: bool) -> Vec<Rect> {
    let (w, h) = (w.min(view.width), h.min(view.height));
    let xs = [view.x + (view.width - w) / 2, view.x, view.right() - w];
    let (top, bottom) = (view.y, view.bottom() - h);
    let ys = if low { [bottom, top] } else { [top, bottom] };
    let mut all = Vec::new();
    for y in ys {
        for x in xs {
            all.push(Rect::new(x, y, w, h));
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rectangle_is_clear_only_with_a_cell_to_spare() {
        let r = Rect::new(10, 5, 4, 2);
        assert!(clear(r, &[(8, 5), (10, 8), (20, 20)]));
        assert!(!clear(r, &[(9, 5)]), "next to it");
        assert!(!clear(r, &[(12, 6)]), "inside");
        assert!(!clear(r, &[(14, 7)]), "the corner after");
    }

    #[test]
    fn the_first_clear_candidate_is_chosen_and_none_when_all_are_covered() {
        let view = Rect::new(0, 0, 80, 20);
        let c = strips(view, 6, true);
        assert_eq!(
            c[0],
            Rect::new(0, 14, 80, 6),
            "bottom first when the car is high"
        );
        // The road ahead crosses the bottom strip's left half.
        let keep = [(10, 16)];
        let got = first_clear(view, &c, &keep, None).unwrap();
        assert_eq!(got, Rect::new(0, 0, 80, 6), "then the top");
        let everywhere: Vec<(i64, i64)> = (0..80).flat_map(|x| [(x, 2), (x, 17)]).collect();
        assert_eq!(first_clear(view, &c, &everywhere, None), None);
    }
}
