//! What part of the track the screen shows.
//!
//! A track cell is as wide as a terminal cell and as tall (1:2), so at zoom
//! 1 a track column is a terminal column and braille dots come out square.
//! A track that fits is shown whole, at the largest whole zoom that fits,
//! and never moves. A larger one is followed by a point [`LOOK_AHEAD`]
//! seconds of travel ahead of the car (held to keep the car an eighth of
//! the view from its edge), so more road shows ahead the faster the car
//! goes. On each axis the camera stays put while the car is an eighth of
//! the view or more from its edges and that point a sixth, and jumps to
//! centre the point on that axis alone when either comes closer. The view
//! never leaves the map where the map is larger than it. Positions are
//! whole cells, so the picture of a still part of the track is the same
//! from frame to frame and costs no bytes; a jump rewrites every ground
//! cell that differs, which is why the camera jumps as seldom as that rule
//! allows, and on one axis where the other still frames the car (a jump
//! along a straight rewrites only the road's ends, one across it every
//! row; docs/TERMINAL.md, "Bytes on the wire").

use glam::DVec2;

use crate::track::Track;

/// Seconds of travel the followed camera looks ahead of the car.
pub const LOOK_AHEAD: f64 = 1.5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Camera {
    /// Terminal cells per track cell, each way.
    pub zoom: u32,
    /// The track cell (column, row) at the view's top-left corner; negative
    /// to centre a small track.
    pub origin: (i64, i64),
    /// Whether the whole track fits (the camera never moves then).
    pub fixed: bool,
    /// The view (columns, rows) it frames: a camera for another size is
    /// not followed from, so a resized screen frames its track anew.
    pub view: (u16, u16),
}

impl Camera {
    /// The camera for a view of `cols` x `rows` terminal cells with the car
    /// at `car` moving at `vel` (m/s), moving from `prev` (if it framed the
    /// same view) only on an axis where the car comes within an eighth of
    /// the view of its edge, or the point ahead of it within a sixth.
    pub fn follow(
        prev: Option<Camera>,
        track: &Track,
        view: (u16, u16),
        car: DVec2,
        vel: DVec2,
    ) -> Camera {
        let (cols, rows) = (i64::from(view.0), i64::from(view.1));
        let (w, h) = (track.width as i64, track.height as i64);
        if let Some(zoom) = (1..=4).rev().find(|z| w * z <= cols && h * z <= rows) {
            return Camera {
                zoom: zoom as u32,
                origin: (-(cols / zoom - w) / 2, -(rows / zoom - h) / 2),
                fixed: true,
                view,
            };
        }
        let cs = track.cell_size();
        let cell = |v: f64, size: f64| (v / size).floor() as i64;
        let ahead = |v: f64, size: f64, reach: i64| {
            let cells = v * LOOK_AHEAD / size;
            if cells.is_finite() {
                (cells.round() as i64).clamp(-reach, reach)
            } else {
                0
            }
        };
        let car = (cell(car.x, cs.x), cell(car.y, cs.y));
        let target = (
            car.0 + ahead(vel.x, cs.x, cols / 2 - cols / 8),
            car.1 + ahead(vel.y, cs.y, rows / 2 - rows / 8),
        );
        // Inside the map where it is larger than the view, centred where not.
        let within = |o: i64, view: i64, size: i64| {
            if size >= view {
                o.clamp(0, size - view)
            } else {
                -(view - size) / 2
            }
        };
        let centred = (
            within(target.0 - cols / 2, cols, w),
            within(target.1 - rows / 2, rows, h),
        );
        let Some(prev) = prev.filter(|p| !p.fixed && p.zoom == 1 && p.view == view) else {
            return Camera {
                zoom: 1,
                origin: centred,
                fixed: false,
                view,
            };
        };
        // Whether origin `o` still frames the car and the point ahead on an
        // axis of `view` cells.
        let frames = |o: i64, car: i64, target: i64, view: i64| {
            let within = |p: i64, margin: i64| p - o >= margin && p - o < view - margin;
            within(car, view / 8) && within(target, view / 6)
        };
        let keep_x = frames(prev.origin.0, car.0, target.0, cols);
        let keep_y = frames(prev.origin.1, car.1, target.1, rows);
        Camera {
            zoom: 1,
            origin: (
                if keep_x { prev.origin.0 } else { centred.0 },
                if keep_y { prev.origin.1 } else { centred.1 },
            ),
            fixed: false,
            view,
        }
    }

    /// The terminal column, from the view's left, of the world point `p`
    /// (may be outside the view).
    pub fn col_of(&self, track: &Track, p: DVec2) -> i64 {
        ((p.x / track.cell_size().x).floor() as i64 - self.origin.0) * i64::from(self.zoom)
    }

    /// The terminal row, from the view's top, of the world point `p`
    /// (may be outside the view).
    pub fn row_of(&self, track: &Track, p: DVec2) -> i64 {
        ((p.y / track.cell_size().y).floor() as i64 - self.origin.1) * i64::from(self.zoom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::bundled;

    #[test]
    fn a_small_track_is_shown_whole_and_zoomed_when_there_is_room() {
        let pocket = bundled::load("pocket").unwrap(); // 53 x 19
        let car = DVec2::new(50.0, 10.0);
        let c = Camera::follow(None, &pocket, (56, 24), car, DVec2::ZERO);
        assert_eq!((c.zoom, c.fixed), (1, true));
        let c = Camera::follow(None, &pocket, (136, 48), car, DVec2::X * 30.0);
        assert_eq!((c.zoom, c.fixed), (2, true));
        assert_eq!(c.origin, (-(68 - 53) / 2, -(24 - 19) / 2), "centred");
    }

    #[test]
    fn a_large_track_is_followed_by_jumps_on_one_axis() {
        let gp = bundled::load("grandprix").unwrap();
        let view = (56, 24); // a sixth: 9 columns, 4 rows
        let start = DVec2::new(300.0, 60.0); // column 150, row 15
        let still = DVec2::ZERO;
        let c0 = Camera::follow(None, &gp, view, start, still);
        assert!(!c0.fixed);
        assert_eq!(c0.origin, (150 - 28, 15 - 12));
        // Moves that leave the car (here the point ahead too) a sixth from
        // every edge keep it.
        let near = start + DVec2::new(36.0, 28.0); // 18 columns, 7 rows
        let c1 = Camera::follow(Some(c0), &gp, view, near, still);
        assert_eq!(c1, c0);
        // Closer to the right edge: it centres the car on that axis only.
        let right = near + DVec2::new(2.0, 0.0);
        let c2 = Camera::follow(Some(c1), &gp, view, right, still);
        assert_eq!(c2.origin, ((right.x / 2.0) as i64 - 28, c0.origin.1));
        // The point ahead counts too: at speed downwards, the rows move.
        let c3 = Camera::follow(Some(c2), &gp, view, right, DVec2::Y * 30.0);
        assert_eq!(c3.origin.0, c2.origin.0);
        assert!(c3.origin.1 > c2.origin.1, "{c3:?}");
    }

    #[test]
    fn at_speed_the_camera_shows_the_road_ahead() {
        let gp = bundled::load("grandprix").unwrap();
        let view = (56, 24);
        let car = DVec2::new(400.0, 130.0);
        let ahead_of = |vel: DVec2| {
            let c = Camera::follow(None, &gp, view, car, vel);
            // Metres of view ahead of the car, eastwards.
            (c.origin.0 + 56) as f64 * 2.0 - car.x
        };
        let still = ahead_of(DVec2::ZERO);
        let fast = ahead_of(DVec2::X * 35.0); // 126 km/h
        assert!((still - 56.0).abs() <= 2.0, "centred: {still}");
        // 1.5 s is 52 m, held to leave the car 7 cells from the edge:
        // 21 cells (42 m) ahead of centre.
        assert!((fast - 98.0).abs() <= 2.0, "{fast} m ahead at 126 km/h");
        let back = ahead_of(DVec2::X * -35.0);
        assert!(back < 20.0, "reversing, the view looks behind: {back}");
    }

    #[test]
    fn the_view_never_leaves_a_larger_map() {
        let rally = bundled::load("rally").unwrap();
        let (w, h) = (rally.width as i64, rally.height as i64);
        let cs = rally.cell_size();
        for (view, car, vel) in [
            ((176, 60), DVec2::new(4.0, 4.0), DVec2::new(-30.0, -30.0)),
            ((56, 24), DVec2::new(2.0, 2.0), DVec2::new(-30.0, -30.0)),
            (
                (56, 24),
                DVec2::new(w as f64 * cs.x - 2.0, h as f64 * cs.y - 2.0),
                DVec2::ONE * 30.0,
            ),
        ] {
            let c = Camera::follow(None, &rally, view, car, vel);
            if c.fixed {
                continue;
            }
            let (cols, rows) = (i64::from(view.0), i64::from(view.1));
            if w >= cols {
                assert!(c.origin.0 >= 0 && c.origin.0 + cols <= w, "{view:?} {c:?}");
            }
            if h >= rows {
                assert!(c.origin.1 >= 0 && c.origin.1 + rows <= h, "{view:?} {c:?}");
            }
        }
    }
}
