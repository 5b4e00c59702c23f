//! Drawing: pure functions from what a front door hands it (a menu's
//! view, a person in a race, a lobby, a room) to a frame. It knows
//! neither door: local play (`app/paint.rs`) and the server
//! (`serve/screen.rs`) each hand it theirs. Nothing here changes
//! the game; `skid render` and the golden screens draw the same way into
//! a test backend.

pub mod charts;
pub mod column;
pub mod dots;
pub mod edit;
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

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::console::damage::Damage;
use crate::race::layout::race_areas;
use crate::race::session::Session;
use crate::race::world::CarId;
use crate::race::{Race, SeatView};

/// A person in a race, as both front doors draw them: below the
/// smallest screen, that it is too small; their own seat's race screen
/// while their car races (`note` over it, if any); once done, or with no
/// car, the car they follow ([`Race::followed`]) with the keys `keys`;
/// when they follow none, their results (`host`: theirs is the Enter
/// that goes on).
pub struct InRace<'a> {
    pub race: &'a Race,
    /// Their car, if they drive in the race.
    pub mine: Option<CarId>,
    pub session: &'a Session,
    /// The race is paused (local play).
    pub paused: bool,
    pub host: bool,
    pub keys: &'a str,
    pub note: Option<&'a str>,
}

impl InRace<'_> {
    /// Draws it into `buf`'s `area` over the frame before (`before`),
    /// saying which cells may differ from it.
    pub fn draw(&self, buf: &mut Buffer, area: Rect, before: &Damage) -> Damage {
        let (race, s) = (self.race, self.session);
        if s.too_small() {
            buf.reset();
            overlay::too_small(buf, area, s.size, race.door, true);
            return Damage::All;
        }
        let followed = race.followed(self.mine, s.watch);
        match (self.mine, followed.and_then(|c| race.view(c))) {
            (Some(i), Some(v)) if v.seat.car == i => {
                let mut damage = race_screen(buf, area, v, self.paused, s.color, before);
                if let Some(note) = self.note {
                    damage.add(overlay::note(buf, area, note));
                }
                damage
            }
            (_, Some(v)) => {
                let v = v.watched_by(self.mine, s.camera);
                watching(buf, area, v, self.keys, s.color, before)
            }
            (mine, None) => {
                buf.reset();
                if let Some(v) = mine.and_then(|i| race.view(i)) {
                    results::draw(buf, area, v, s.color, self.host);
                }
                Damage::All
            }
        }
    }
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
