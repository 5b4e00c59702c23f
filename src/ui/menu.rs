//! The title menu: track, model, car, laps, start.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Widget};

use super::theme::THEME;
use crate::app::{App, Row};

const TITLE: [&str; 3] = [
    "     _    _    _ ",
    " ___| | _(_)__| |",
    "(_-<| |/ / / _` |",
];
const TITLE_LAST: &str = "/__/|_\\_\\_\\__,_|";

/// A rectangle of `w` x `h` centred in `area` (clipped to it).
pub fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The title, the menu's rows in a box (with the selected model's feel,
/// the record lap for the selection, and the selected track's outline at
/// the box's right), the key hint under it.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App) {
    let r = centred(area, 50, 20);
    let mut y = r.y;
    for line in TITLE.iter().chain(std::iter::once(&TITLE_LAST)) {
        if y < r.bottom() {
            buf.set_stringn(
                r.x + (r.width.saturating_sub(17)) / 2,
                y,
                line,
                r.width as usize,
                Style::new().fg(THEME.you),
            );
        }
        y += 1;
    }
    if y < r.bottom() {
        let sub = "a top-down racing game for the terminal";
        buf.set_stringn(
            r.x + r.width.saturating_sub(sub.len() as u16) / 2,
            y,
            sub,
            r.width as usize,
            Style::new().fg(THEME.dim),
        );
    }
    y += 2;

    let setup = app.setup();
    let choice = setup.track;
    let rows = setup.rows();
    let box_area = Rect::new(
        r.x,
        y,
        r.width,
        (rows.len() as u16 + 6).min(r.bottom().saturating_sub(y)),
    );
    Block::bordered()
        .border_style(Style::new().fg(THEME.faint))
        .render(box_area, buf);
    // The selected track's course, at the box's right.
    let outline =
        Rect::new(r.x + 34, box_area.y + 1, 14, rows.len() as u16 + 1).intersection(box_area);
    super::minimap::course(buf, outline, &choice.track, Style::new().fg(THEME.dim));
    let mut y = y + 1;
    for (row, label, value) in &rows {
        let (text, style) = super::selector::row(label, value, app.menu.row == *row, true);
        if y < box_area.bottom().saturating_sub(1) {
            buf.set_stringn(r.x + 2, y, &text, r.width.saturating_sub(4) as usize, style);
        }
        y += 1;
    }
    let best = match app.menu_best {
        Some(t) => format!("record {}", super::hud::clock(Some(t))),
        None => "no record yet".into(),
    };
    for text in [app.menu.model.feel().to_string(), best] {
        if y < box_area.bottom().saturating_sub(1) {
            buf.set_stringn(
                r.x + 4,
                y,
                &text,
                r.width.saturating_sub(6) as usize,
                Style::new().fg(THEME.dim),
            );
        }
        y += 1;
    }
    y += 1;
    let (start, style) = super::selector::start(app.menu.row == Row::Start);
    if y < box_area.bottom().saturating_sub(1) {
        buf.set_stringn(r.x + 2, y, start, r.width.saturating_sub(4) as usize, style);
    }
    let hy = box_area.bottom();
    if hy < area.bottom() {
        match &app.planner {
            Some(p) if p.wanted => {
                let wait = "Planning the racing line…  Esc back  q quit";
                buf.set_stringn(
                    r.x,
                    hy,
                    wait,
                    r.width as usize,
                    Style::new().fg(THEME.accent),
                );
            }
            _ => {
                let hint = "↑↓ choose  ←→ change  Enter start  ? help  q quit";
                buf.set_stringn(
                    r.x,
                    hy,
                    hint,
                    r.width as usize,
                    Style::new().fg(THEME.faint),
                );
            }
        }
    }
}
