//! The server's screens before a race (`skid serve`): the lobby, which
//! lists the rooms, and a room waiting for its race. They draw plain data
//! the server hands them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Widget};

use super::menu::centred;
use super::theme::THEME;
use crate::app::Row;

/// One room as the lobby lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomLine {
    pub id: u32,
    pub track: String,
    pub model: String,
    pub players: usize,
    pub slots: usize,
    pub racing: bool,
}

/// A room waiting for its race.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomScreen {
    pub id: u32,
    /// The race's settings as [`crate::app::Setup::rows`] gives them.
    pub rows: [(Row, &'static str, String); 5],
    /// The row the host's cursor is on.
    pub row: Row,
    pub slots: usize,
    /// Everyone in the room, the host first... in the order they came.
    pub members: Vec<String>,
    /// Whether the one looking is the host (who changes and starts).
    pub host: bool,
}

fn style(selected: bool) -> Style {
    if selected {
        Style::new().fg(THEME.accent).add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(THEME.text)
    }
}

/// A box of `h` rows titled `title`, centred in `area`; returns the room
/// inside it.
fn panel(buf: &mut Buffer, area: Rect, h: u16, title: &str) -> Rect {
    let r = centred(area, 60, h);
    Block::bordered()
        .title(title)
        .border_style(Style::new().fg(THEME.faint))
        .render(r, buf);
    Rect::new(
        r.x + 2,
        r.y + 1,
        r.width.saturating_sub(4),
        r.height.saturating_sub(2),
    )
}

/// Writes `text` on row `y` of `r` if it is inside, then moves down.
fn put(buf: &mut Buffer, r: Rect, y: &mut u16, text: &str, style: Style) {
    if *y < r.bottom() {
        buf.set_stringn(r.x, *y, text, r.width as usize, style);
    }
    *y += 1;
}

/// The lobby: who you are (`you`, a line), a row to make a room, then every room (track,
/// model, players of slots, waiting or racing), the cursor on `row`; under
/// them the server's best laps (`best`, a line each).
pub fn lobby(
    buf: &mut Buffer,
    area: Rect,
    you: &str,
    rooms: &[RoomLine],
    row: usize,
    best: &[String],
) {
    // The box fits everything if the screen has room; else the list of
    // rooms scrolls to keep the cursor's row in sight, and the best laps
    // give way first.
    let h = (rooms.len() as u16 + best.len() as u16 + 10).max(10);
    let inner = panel(buf, area, h, " skid · lobby ");
    let best = &best[..best.len().min(inner.height.saturating_sub(12) as usize)];
    let gap = if best.is_empty() { 0 } else { best.len() + 2 };
    // Rows for the list: the box less who you are, a blank, the best laps
    // and the key line.
    let room_for = (inner.height as usize).saturating_sub(3 + gap).max(1);
    let mut y = inner.y;
    put(buf, inner, &mut y, you, Style::new().fg(THEME.you));
    y += 1;
    let mut lines = vec!["[ Make a room ]".to_string()];
    lines.extend(rooms.iter().map(|room| {
        format!(
            "room {:<3} {:<10} {:<9} {}/{}  {}",
            room.id,
            room.track,
            room.model,
            room.players,
            room.slots,
            if room.racing { "racing" } else { "waiting" }
        )
    }));
    let first = (row + 1).saturating_sub(room_for);
    for (i, line) in lines.iter().enumerate().skip(first).take(room_for) {
        let mark = if i == row { "›" } else { " " };
        put(
            buf,
            inner,
            &mut y,
            &format!("{mark} {line}"),
            style(i == row),
        );
    }
    if rooms.is_empty() && room_for > 1 {
        put(
            buf,
            inner,
            &mut y,
            "  no rooms yet",
            Style::new().fg(THEME.dim),
        );
    }
    if !best.is_empty() {
        y += 1;
        put(
            buf,
            inner,
            &mut y,
            "BEST LAPS",
            Style::new().fg(THEME.accent),
        );
        for line in best {
            put(
                buf,
                inner,
                &mut y,
                &format!("  {line}"),
                Style::new().fg(THEME.dim),
            );
        }
    }
    let hint = "↑↓ choose  Enter join or make  ? help  q quit";
    let mut hy = inner.bottom().saturating_sub(1);
    put(buf, inner, &mut hy, hint, Style::new().fg(THEME.faint));
}

/// A room waiting for its race: the settings (the host's cursor on
/// them), who is in, and what the keys do.
pub fn room(buf: &mut Buffer, area: Rect, s: &RoomScreen) {
    let inner = panel(buf, area, 18, &format!(" skid · room {} ", s.id));
    let mut y = inner.y;
    for (row, label, value) in &s.rows {
        let (text, style) = super::selector::row(label, value, s.host && s.row == *row, s.host);
        put(buf, inner, &mut y, &text, style);
    }
    if s.host {
        let (text, style) = super::selector::start(s.row == Row::Start);
        put(buf, inner, &mut y, text, style);
    }
    y += 1;
    let who = format!("PLAYERS {}/{}", s.members.len(), s.slots);
    put(buf, inner, &mut y, &who, Style::new().fg(THEME.accent));
    for (i, m) in s.members.iter().enumerate() {
        let note = match i {
            0 => "  host",
            i if i >= s.slots => "  watches",
            _ => "",
        };
        put(
            buf,
            inner,
            &mut y,
            &format!("  {m}{note}"),
            Style::new().fg(THEME.text),
        );
    }
    let hint = if s.host {
        "↑↓ choose  ←→ change  Enter start  Esc leave"
    } else {
        "waiting for the host to start  Esc leave"
    };
    let mut hy = inner.bottom().saturating_sub(1);
    put(buf, inner, &mut hy, hint, Style::new().fg(THEME.faint));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rooms(n: u32) -> Vec<RoomLine> {
        (1..=n)
            .map(|id| RoomLine {
                id,
                track: "oval".into(),
                model: "arcade".into(),
                players: 1,
                slots: 8,
                racing: false,
            })
            .collect()
    }

    fn screen(rooms: &[RoomLine], row: usize, best: &[String]) -> String {
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        lobby(&mut buf, area, "you are x", rooms, row, best);
        crate::ui::buffer_text(&buf)
    }

    #[test]
    fn a_long_list_of_rooms_scrolls_to_the_cursor() {
        let best: Vec<String> = (0..6).map(|i| format!("track{i} 0:40.00")).collect();
        let all = rooms(30);
        for row in [0, 1, 12, 25, 30] {
            let text = screen(&all, row, &best);
            let cursor = if row == 0 {
                "› [ Make a room ]".to_string()
            } else {
                format!("› room {row:<3}")
            };
            assert!(text.contains(&cursor), "row {row}:\n{text}");
            assert!(
                text.contains("you are x") && text.contains("q quit"),
                "{text}"
            );
        }
        // Few rooms: all of them and the best laps.
        let text = screen(&all[..3], 0, &best);
        assert!(
            text.contains("room 3") && text.contains("BEST LAPS"),
            "{text}"
        );
    }
}
