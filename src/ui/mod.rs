//! Drawing: pure functions from an [`App`] to a frame. Nothing here
//! changes the game; `skid render` and the golden screens use the same
//! functions into a test backend.

pub mod charts;
pub mod column;
pub mod dots;
pub mod gauges;
pub mod hud;
pub mod lobby;
pub mod medals;
pub mod menu;
pub mod minimap;
pub mod overlay;
pub mod placement;
pub mod results;
pub mod selector;
pub mod theme;
pub mod track;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::app::{App, LOCAL, Screen, SeatView};
use crate::damage::Damage;
use crate::layout::race_areas;

/// Draws the whole screen into a ratatui frame (`skid render`, tests).
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    paint(frame.buffer_mut(), area, app);
}

/// Paints the whole screen into `buf`'s `area`, in colour unless the
/// player asked for none, and says which cells may differ from the frame
/// painted before it ([`Damage`]).
pub fn paint(buf: &mut Buffer, area: Rect, app: &App) -> Damage {
    let damage = paint_in_colour(buf, area, app);
    if !app.color {
        theme::monochrome(buf);
    }
    damage
}

fn paint_in_colour(buf: &mut Buffer, area: Rect, app: &App) -> Damage {
    if app.screen != Screen::Menu && app.session.too_small() {
        overlay::too_small(buf, area, app.session.size, app.session.door);
        return Damage::All;
    }
    let damage = match app.screen {
        Screen::Menu => {
            menu::draw(buf, area, app);
            Damage::All
        }
        Screen::Race => match &app.race {
            Some(race) => race_screen(buf, area, race.view(LOCAL), app.paused, app.color),
            None => Damage::All,
        },
        Screen::Results => match &app.race {
            Some(race) => match race.followed(Some(LOCAL), app.session.watch) {
                Some(c) if c != LOCAL => {
                    let v = race.view(c).watched_by(Some(LOCAL), app.session.camera);
                    watching(buf, area, v, "v next car  Enter menu", app.color)
                }
                _ => {
                    results::draw(buf, area, race.view(LOCAL), app.color);
                    Damage::All
                }
            },
            None => Damage::All,
        },
    };
    if app.session.help {
        overlay::help(buf, area, false);
        return Damage::All;
    }
    damage
}

/// One seat's race screen: the track view with its overlays (countdown,
/// banners, pause) and the side panel with the minimap where the view
/// does not show the whole track. Local play draws its one seat with
/// this; a server draws each player's seat with it.
/// Its damage: what moves on the track, the overlays, and the panel's
/// lines, gauges and minimap as parts.
pub fn race_screen(
    buf: &mut Buffer,
    area: Rect,
    v: SeatView<'_>,
    paused: bool,
    color: bool,
) -> Damage {
    let (view, panel) = race_areas(area);
    let mut damage = track::draw(buf, view, v);
    let below = hud::draw(buf, panel, v, &mut damage);
    // The minimap between the panel's figures and its key line, on tracks
    // the view does not show whole.
    if !track::camera(v, view).fixed && below + 2 < panel.bottom() {
        let map = Rect::new(
            panel.x + 1,
            below + 1,
            panel.width.saturating_sub(1),
            panel.bottom() - below - 2,
        );
        minimap::draw(buf, map, v, &mut damage);
    }
    damage.extend(overlay::race(buf, view, v, paused, color));
    damage
}

/// A race seen by a person not driving in it (done, or watching): the
/// car `v` follows through their camera, a line at the top naming it and
/// the keys `keys`.
pub fn watching(buf: &mut Buffer, area: Rect, v: SeatView<'_>, keys: &str, color: bool) -> Damage {
    let mut damage = race_screen(buf, area, v, false, color);
    let name = v.race.name(v.seat.car, v.viewer);
    damage.add(overlay::note(
        buf,
        area,
        &format!("watching {name}  {keys}"),
    ));
    damage
}

/// A buffer as plain text: one line per row, trailing spaces trimmed.
pub fn buffer_text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
