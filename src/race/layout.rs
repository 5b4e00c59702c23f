//! The race screen's layout: the track view and the side panel. Read by
//! the camera (`app`, which frames the track to the view's size) and by
//! the drawing (`ui`), so neither depends on the other for it.

use ratatui::layout::Rect;

/// Width of the side panel: 24 columns, 30 when the terminal is wide.
fn panel_width(width: u16) -> u16 {
    if width >= 120 { 30 } else { 24 }
}

/// The race screen's two parts: the track view and the side panel (the
/// whole width, on a screen narrower than the panel). Worked out by hand
/// rather than by ratatui's `Layout`, whose solver every player's every
/// frame and tick paid for (3% of a server's frame).
pub fn race_areas(area: Rect) -> (Rect, Rect) {
    let view = area.width.saturating_sub(panel_width(area.width));
    let panel = area.width - view;
    (
        Rect {
            width: view,
            ..area
        },
        Rect {
            x: area.x + view,
            width: panel,
            ..area
        },
    )
}

/// Size of the track view on a terminal of `size`.
pub fn track_view_size(size: (u16, u16)) -> (u16, u16) {
    let (view, _) = race_areas(Rect::new(0, 0, size.0, size.1));
    (view.width, view.height)
}

/// The smallest terminal the race is drawn in; below it a message shows
/// and the race pauses.
pub const MIN_SIZE: (u16, u16) = (60, 16);

/// Whether a terminal of `size` is too small to draw the race.
pub fn too_small(size: (u16, u16)) -> bool {
    size.0 < MIN_SIZE.0 || size.1 < MIN_SIZE.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::{Constraint, Layout};

    #[test]
    fn the_areas_are_what_a_layout_of_a_view_and_a_panel_gives() {
        for (x, y, w, h) in [
            (0, 0, 80, 24),
            (3, 2, 119, 30),
            (0, 0, 120, 40),
            (1, 1, 10, 5),
            (0, 0, 0, 0),
        ] {
            let area = Rect::new(x, y, w, h);
            let [view, panel] = Layout::horizontal([
                Constraint::Min(0),
                Constraint::Length(panel_width(area.width)),
            ])
            .areas(area);
            assert_eq!(race_areas(area), (view, panel), "{area:?}");
        }
    }
}
