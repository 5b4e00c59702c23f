//! Drawing: pure functions from an [`App`] to a frame. Nothing here
//! changes the game; `skid render` and the golden screens use the same
//! functions into a test backend.

pub mod charts;
pub mod column;
pub mod dots;
pub mod gauges;
pub mod hud;
pub mod labels;
pub mod lobby;
pub mod medals;
pub mod menu;
pub mod minimap;
pub mod overlay;
pub mod placement;
mod projection;
pub mod results;
pub mod selector;
mod text;
pub mod theme;
pub mod track;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::app::{App, LOCAL, Screen};
use crate::damage::Damage;
use crate::layout::race_areas;
use crate::race::SeatView;

/// Draws the whole screen into a ratatui frame (`skid render`, tests).
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    paint(frame.buffer_mut(), area, app, &Damage::All);
}

/// Paints the whole screen into `buf`'s `area`, in colour unless the
/// player asked for none, over the frame painted before it (damaged as
/// `before`; see `console::Frames::frame`), and says which cells may
/// differ from that frame ([`Damage`]).
pub fn paint(buf: &mut Buffer, area: Rect, app: &App, before: &Damage) -> Damage {
    let damage = paint_in_colour(buf, area, app, before);
    theme::finish(buf, app.session.color);
    damage
}

fn paint_in_colour(buf: &mut Buffer, area: Rect, app: &App, before: &Damage) -> Damage {
    let race = app.race.as_ref();
    // The seat whose race screen shows, if one does (it may keep what
    // the buffer holds); every other screen is painted whole, from blank.
    // Below the smallest size, every screen says so (the menu too: its
    // rows would be cut, Start among them).
    let seat = match app.screen {
        _ if app.session.too_small() => None,
        Screen::Race => race.and_then(|r| r.view(LOCAL)).map(|v| (v, None)),
        Screen::Results => race.and_then(|r| match r.followed(Some(LOCAL), app.session.watch) {
            Some(c) if c != LOCAL => r.view(c).map(|v| {
                let v = v.watched_by(Some(LOCAL), app.session.camera);
                (v, Some("v next car  Enter menu"))
            }),
            _ => None,
        }),
        Screen::Menu => None,
    };
    let damage = match seat {
        Some((v, None)) => race_screen(buf, area, v, app.paused, app.session.color, before),
        Some((v, Some(keys))) => watching(buf, area, v, keys, app.session.color, before),
        None => {
            buf.reset();
            if app.session.too_small() {
                let racing = app.screen != Screen::Menu;
                overlay::too_small(buf, area, app.session.size, app.session.door, racing);
            } else if app.screen == Screen::Menu {
                menu::draw(buf, area, app);
            } else if let Some(v) = race.and_then(|r| r.view(LOCAL)) {
                results::draw(buf, area, v, app.session.color, true);
            }
            Damage::All
        }
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
/// Its damage: what moves on the track, the overlays, and as parts the
/// track's ground (with the skid marks) and the panel's lines, gauges and
/// minimap. Over a race screen of the same place (`before` keyed as this
/// one), only the cells `before` damaged are blanked and painted again,
/// with those that change now and the parts that changed: the rest of
/// the ground and the panel's parts that are the same are kept, not
/// drawn again (the panel's too when only the camera moved).
pub fn race_screen(
    buf: &mut Buffer,
    area: Rect,
    v: SeatView<'_>,
    paused: bool,
    color: bool,
    before: &Damage,
) -> Damage {
    let (view, panel) = race_areas(area);
    let Some(at) = track::Framing::of(v, view) else {
        buf.reset();
        return Damage::All;
    };
    let kept = before.keyed(at.key()).then_some(before);
    match kept {
        Some(before) => before.blank(buf),
        None => buf.reset(),
    }
    let mut damage = track::draw(buf, &at, v, kept);
    // Rows kept for the minimap, where the view does not show the whole
    // track: the standings give way to it down to the player's own line.
    let spare = if at.whole_track() { 0 } else { MINIMAP_ROWS };
    let below = hud::draw(buf, panel, v, &mut damage, kept, spare);
    // The minimap between the panel's figures and its key line, on tracks
    // the view does not show whole.
    if !at.whole_track() && below + 2 < panel.bottom() {
        let map = Rect::new(
            panel.x + 1,
            below + 1,
            panel.width.saturating_sub(1),
            panel.bottom() - below - 2,
        );
        minimap::draw(buf, map, v, &mut damage, kept);
    }
    if let Some(kept) = kept {
        damage.blank_gone(kept, buf);
    }
    damage.extend(overlay::race(buf, view, v, paused, color));
    damage
}

/// A race seen by a person not driving in it (done, or watching): the
/// car `v` follows through their camera, a line at the top naming it and
/// the keys `keys`.
pub fn watching(
    buf: &mut Buffer,
    area: Rect,
    v: SeatView<'_>,
    keys: &str,
    color: bool,
    before: &Damage,
) -> Damage {
    let mut damage = race_screen(buf, area, v, false, color, before);
    let name = v.race.name(v.seat.car, v.viewer);
    // Over the track view only: the panel's title stays whole.
    let (view, _) = race_areas(area);
    damage.add(overlay::note(
        buf,
        view,
        &format!("watching {name}  {keys}"),
    ));
    damage
}

/// The rows the panel keeps for the minimap (with the gap above it).
const MINIMAP_ROWS: u16 = 5;

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
