//! What part of the track the screen shows.
//!
//! A track cell is as wide as a terminal cell and as tall (1:2), so at zoom
//! 1 a track column is a terminal column and braille dots come out square.
//! A track that fits is shown whole, at the largest whole zoom that fits,
//! and never moves. A larger one is followed with a dead zone: the camera
//! stays put while the car is in the middle half of the view and jumps to
//! centre it when it leaves. Positions are whole cells, so the picture of a
//! still part of the track is the same from frame to frame and costs no
//! bytes (TERMINAL.md, "Bytes on the wire").

use glam::DVec2;

use crate::track::Track;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Camera {
    /// Terminal cells per track cell, each way.
    pub zoom: u32,
    /// The track cell (column, row) at the view's top-left corner; negative
    /// to centre a small track.
    pub origin: (i64, i64),
    /// Whether the whole track fits (the camera never moves then).
    pub fixed: bool,
}

impl Camera {
    /// The camera for a view of `cols` x `rows` terminal cells with the car
    /// at `car`, moving from `prev` as little as the dead zone allows.
    pub fn follow(prev: Option<Camera>, track: &Track, view: (u16, u16), car: DVec2) -> Camera {
        let (cols, rows) = (view.0 as i64, view.1 as i64);
        let (w, h) = (track.width as i64, track.height as i64);
        if let Some(zoom) = (1..=4).rev().find(|z| w * z <= cols && h * z <= rows) {
            return Camera {
                zoom: zoom as u32,
                origin: (-(cols / zoom - w) / 2, -(rows / zoom - h) / 2),
                fixed: true,
            };
        }
        let cs = track.cell_size();
        let (cx, cy) = ((car.x / cs.x).floor() as i64, (car.y / cs.y).floor() as i64);
        let centred = (cx - cols / 2, cy - rows / 2);
        let Some(prev) = prev.filter(|p| !p.fixed && p.zoom == 1) else {
            return Camera {
                zoom: 1,
                origin: centred,
                fixed: false,
            };
        };
        let (x, y) = (cx - prev.origin.0, cy - prev.origin.1);
        let inside = x >= cols / 4 && x < cols - cols / 4 && y >= rows / 4 && y < rows - rows / 4;
        Camera {
            zoom: 1,
            origin: if inside { prev.origin } else { centred },
            fixed: false,
        }
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
        let c = Camera::follow(None, &pocket, (56, 24), car);
        assert_eq!((c.zoom, c.fixed), (1, true));
        let c = Camera::follow(None, &pocket, (136, 48), car);
        assert_eq!((c.zoom, c.fixed), (2, true));
        assert_eq!(c.origin, (-(68 - 53) / 2, -(24 - 19) / 2), "centred");
    }

    #[test]
    fn a_large_track_is_followed_with_a_dead_zone() {
        let gp = bundled::load("grandprix").unwrap();
        let view = (56, 24);
        let start = DVec2::new(300.0, 60.0);
        let c0 = Camera::follow(None, &gp, view, start);
        assert!(!c0.fixed);
        // Small moves keep the camera where it is.
        let c1 = Camera::follow(Some(c0), &gp, view, start + DVec2::new(20.0, 8.0));
        assert_eq!(c1, c0);
        // Leaving the middle half re-centres it.
        let far = start + DVec2::new(40.0, 0.0);
        let c2 = Camera::follow(Some(c1), &gp, view, far);
        assert_ne!(c2.origin, c0.origin);
        assert_eq!(c2.origin.0, (far.x / 2.0) as i64 - 28);
    }
}
