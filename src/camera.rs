//! What part of the track the screen shows.
//!
//! A track cell is as wide as a terminal cell and as tall (1:2), so at zoom
//! 1 a track column is a terminal column and braille dots come out square.
//! A track that fits is shown whole, at the largest whole zoom that fits,
//! and never moves. A larger one is followed with a dead zone around a
//! point [`LOOK_AHEAD`] seconds of travel ahead of the car (held to keep
//! the car an eighth of the view from its edge), so more road shows ahead
//! the faster the car goes: the camera stays put while that point is in
//! the middle half of the view and jumps to centre it when it leaves. The
//! view never leaves the map where the map is larger than it. Positions
//! are whole cells, so the picture of a still part of the track is the
//! same from frame to frame and costs no bytes (docs/TERMINAL.md, "Bytes on the
//! wire").

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
    /// same view) as little as the dead zone allows.
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
        let target = (
            cell(car.x, cs.x) + ahead(vel.x, cs.x, cols / 2 - cols / 8),
            cell(car.y, cs.y) + ahead(vel.y, cs.y, rows / 2 - rows / 8),
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
        let (x, y) = (target.0 - prev.origin.0, target.1 - prev.origin.1);
        let inside = x >= cols / 4 && x < cols - cols / 4 && y >= rows / 4 && y < rows - rows / 4;
        Camera {
            zoom: 1,
            origin: if inside { prev.origin } else { centred },
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
    fn a_large_track_is_followed_with_a_dead_zone() {
        let gp = bundled::load("grandprix").unwrap();
        let view = (56, 24);
        let start = DVec2::new(300.0, 60.0);
        let still = DVec2::ZERO;
        let c0 = Camera::follow(None, &gp, view, start, still);
        assert!(!c0.fixed);
        // Small moves keep the camera where it is.
        let c1 = Camera::follow(Some(c0), &gp, view, start + DVec2::new(20.0, 8.0), still);
        assert_eq!(c1, c0);
        // Leaving the middle half re-centres it.
        let far = start + DVec2::new(40.0, 0.0);
        let c2 = Camera::follow(Some(c1), &gp, view, far, still);
        assert_ne!(c2.origin, c0.origin);
        assert_eq!(c2.origin.0, (far.x / 2.0) as i64 - 28);
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
