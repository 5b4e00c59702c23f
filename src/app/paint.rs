//! Local play drawn: the app handed to the drawing layer ([`crate::ui`])
//! as the views it draws from, the title menu's ([`MenuView`]) or the
//! player in their race ([`InRace`]), as the server hands it its own.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, LOCAL, Screen};
use crate::console::damage::Damage;
use crate::race::session::Door;
use crate::ui::{self, InRace, menu::MenuView};

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
    ui::theme::finish(buf, app.session.color);
    damage
}

fn paint_in_colour(buf: &mut Buffer, area: Rect, app: &App, before: &Damage) -> Damage {
    let race = app.race.as_ref().filter(|_| app.screen != Screen::Menu);
    let damage = if let Some(race) = race {
        let at = InRace {
            race,
            mine: Some(LOCAL),
            session: &app.session,
            paused: app.paused,
            host: true,
            keys: "v next car  Enter menu",
            note: None,
        };
        at.draw(buf, area, before)
    } else {
        // Below the smallest size the menu says so too: its rows would
        // be cut, Start among them.
        buf.reset();
        if app.session.too_small() {
            ui::overlay::too_small(buf, area, app.session.size, Door::Local, false);
        } else {
            ui::menu::draw(buf, area, &app.menu_view());
        }
        Damage::All
    };
    if app.session.help {
        ui::overlay::help(buf, area, Door::Local);
        return Damage::All;
    }
    damage
}

impl App {
    /// The title menu as the drawing layer shows it.
    pub fn menu_view(&self) -> MenuView<'_> {
        MenuView {
            setup: self.setup(),
            row: self.menu.row,
            medals: self.menu_medals,
            best: self.menu_best,
            aided: self.menu_aided,
            hz: self.hz,
            planning: self.planner.as_ref().is_some_and(|p| p.wanted),
            build: self.menu.build,
        }
    }
}
