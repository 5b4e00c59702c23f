//! Where the world falls on the track view's braille canvas: one
//! camera's mapping of metres to dots and back, and the shapes drawn in
//! dots along it (lines, box outlines), for the track ([`super::track`])
//! and the text over it ([`super::labels`]).

use glam::DVec2;
use ratatui::style::Color;

use super::dots::{Dots, steps};
use crate::race::camera::Camera;
use crate::track::Obb;

/// Maps world metres to canvas dots for one camera and view.
#[derive(Clone, Copy)]
pub(super) struct Projection {
    pub(super) cam: Camera,
    /// A track cell's size, metres.
    pub(super) cell: DVec2,
    /// The canvas's dots, across and down.
    pub(super) dots: (usize, usize),
}

impl Projection {
    pub(super) fn dot(&self, p: DVec2) -> DVec2 {
        let z = f64::from(self.cam.zoom);
        DVec2::new(
            (p.x / self.cell.x - self.cam.origin.0 as f64) * z * 2.0,
            (p.y / self.cell.y - self.cam.origin.1 as f64) * z * 4.0,
        )
    }

    /// The world point at the middle of the view's cell `(x, y)` (the
    /// inverse of [`Projection::dot`], at a cell's middle dot).
    pub(super) fn world(&self, x: i64, y: i64) -> DVec2 {
        let z = f64::from(self.cam.zoom);
        DVec2::new(
            ((x as f64 * 2.0 + 1.0) / (z * 2.0) + self.cam.origin.0 as f64) * self.cell.x,
            ((y as f64 * 4.0 + 2.0) / (z * 4.0) + self.cam.origin.1 as f64) * self.cell.y,
        )
    }

    /// The view's cells (columns, rows) a box covers: the first and the
    /// last of each.
    pub(super) fn cells(&self, b: &Obb) -> [i64; 4] {
        let dots = b.corners().map(|c| self.dot(c));
        let col = |d: DVec2| (d.x / 2.0).floor() as i64;
        let row = |d: DVec2| (d.y / 4.0).floor() as i64;
        let (mut c0, mut r0, mut c1, mut r1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for d in dots {
            (c0, c1) = (c0.min(col(d)), c1.max(col(d)));
            (r0, r1) = (r0.min(row(d)), r1.max(row(d)));
        }
        [c0, r0, c1, r1]
    }

    pub(super) fn paint(&self, painter: &mut Dots, x: i64, y: i64, c: Color) {
        if x >= 0 && y >= 0 && (x as usize) < self.dots.0 && (y as usize) < self.dots.1 {
            painter.paint(x as usize, y as usize, c);
        }
    }

    /// A box's outline; `dashed`, every other dot.
    pub(super) fn outline(&self, painter: &mut Dots, b: &Obb, c: Color, dashed: bool) {
        let corners = b.corners();
        for i in 0..4 {
            self.dots_between(painter, corners[i], corners[(i + 1) % 4], c, dashed);
        }
    }

    /// A straight line of dots (Bresenham) between two world points.
    pub(super) fn line(&self, painter: &mut Dots, a: DVec2, b: DVec2, c: Color) {
        self.dots_between(painter, a, b, c, false);
    }

    /// A line, or with `dashed` every other dot of it.
    pub(super) fn dots_between(
        &self,
        painter: &mut Dots,
        a: DVec2,
        b: DVec2,
        c: Color,
        dashed: bool,
    ) {
        let (a, b) = (self.dot(a), self.dot(b));
        if !(a.is_finite() && b.is_finite()) {
            return;
        }
        // Both ends (rounded to a dot) past the same edge of the view: no
        // dot of it is in view (a rival across the track, in every frame).
        let past = |p: f64, q: f64, n: usize| {
            let n = n as f64 - 0.5;
            (p < -0.5 && q < -0.5) || (p >= n && q >= n)
        };
        if past(a.x, b.x, self.dots.0) || past(a.y, b.y, self.dots.1) {
            return;
        }
        let (x0, y0) = (a.x.round() as i64, a.y.round() as i64);
        let (x1, y1) = (b.x.round() as i64, b.y.round() as i64);
        for (i, (x, y)) in steps((x0, y0), (x1, y1)).enumerate() {
            if !dashed || i % 2 == 0 {
                self.paint(painter, x, y, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    /// A cell's middle, back in the world, is in that cell again, at any
    /// zoom, origin and cell size.
    #[test]
    fn a_cells_middle_maps_back_to_it() {
        for (zoom, origin, cell) in [(1, (0, 0), DVec2::ONE), (3, (5, 2), DVec2::new(2.0, 4.0))] {
            let view = Projection {
                cam: Camera {
                    zoom,
                    origin,
                    fixed: false,
                    view: (20, 6),
                },
                cell,
                dots: (40, 24),
            };
            for (x, y) in [(0, 0), (7, 3), (19, 5)] {
                let d = view.dot(view.world(x, y));
                assert_eq!(
                    ((d.x / 2.0).floor() as i64, (d.y / 4.0).floor() as i64),
                    (x, y)
                );
            }
        }
    }

    /// A line's dots in view are Bresenham's, whether its ends are in
    /// view, past one edge or past two: the lines past an edge that are
    /// not drawn at all had no dot in view.
    #[test]
    fn a_line_paints_the_dots_of_it_in_view() {
        let (w, h) = (40, 24);
        let view = Projection {
            cam: Camera {
                zoom: 1,
                origin: (0, 0),
                fixed: false,
                view: (20, 6),
            },
            cell: DVec2::ONE,
            dots: (w, h),
        };
        let mut seed = 7u64;
        let mut next = |span: f64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * span
        };
        let area = Rect::new(0, 0, 20, 6);
        for k in 0..2000 {
            // World points (a dot is half a metre across, a quarter down)
            // round the view and far past it.
            let span = [30.0, 80.0, 400.0][k % 3];
            let p = |x: f64, y: f64| DVec2::new(10.0 + x, 3.0 + y / 4.0);
            let (a, b) = (p(next(span), next(span)), p(next(span), next(span)));
            let dashed = k % 4 == 0;
            let mut drawn = Dots::new((w, h));
            view.dots_between(&mut drawn, a, b, Color::Red, dashed);
            let mut want = Dots::new((w, h));
            let (da, db) = (view.dot(a), view.dot(b));
            let at = |d: DVec2| (d.x.round() as i64, d.y.round() as i64);
            for (i, (x, y)) in steps(at(da), at(db)).enumerate() {
                if (!dashed || i % 2 == 0)
                    && (0..w as i64).contains(&x)
                    && (0..h as i64).contains(&y)
                {
                    want.paint(x as usize, y as usize, Color::Red);
                }
            }
            let (mut got_buf, mut want_buf) = (Buffer::empty(area), Buffer::empty(area));
            drawn.render(area, &mut got_buf);
            want.render(area, &mut want_buf);
            assert_eq!(got_buf, want_buf, "{a:?} to {b:?}");
        }
    }
}
