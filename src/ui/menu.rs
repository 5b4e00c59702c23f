//! The title menu: track, model, car, laps, rivals, aid, start, drawn
//! from what it is given ([`MenuView`]), whoever hosts it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, Widget};

use super::column::{self, Piece};
use super::theme::THEME;
use crate::race::medals::Medal;
use crate::race::medals::book::Lookup;
use crate::race::{Row, Setup};

/// What the title menu shows: its selection and cursor, the records
/// for the selection, the medals, the physics rate, and whether the
/// racing line asked for is being planned.
pub struct MenuView<'a> {
    pub setup: Setup<'a>,
    /// The row the cursor is on.
    pub row: Row,
    /// The selection's medals, and the medal its record earned.
    pub medals: (Lookup, Option<Medal>),
    /// The record on the unaided board and on the aided one, seconds.
    pub best: Option<f64>,
    pub aided: Option<f64>,
    /// Ticks a second: at another rate than 120 laps set no record.
    pub hz: u32,
    /// Whether Start waits on the racing line being planned.
    pub planning: bool,
    /// Whether the track editor is offered beside Start.
    pub build: bool,
}

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
/// the box's right), the key hint under it. A screen too short for all
/// of it (under 21 rows) goes without the title: the menu stays whole.
pub fn draw(buf: &mut Buffer, area: Rect, v: &MenuView<'_>) {
    let titled = area.height >= 21;
    let r = centred(area, 50, if titled { 23 } else { 15 });
    if titled {
        logo(buf, Rect { height: 5, ..r }.intersection(r));
    }
    // Seven rows, three lines about them, a gap and Start, in a border.
    let top = (r.y + if titled { 6 } else { 0 }).min(r.bottom());
    let box_area = Rect::new(r.x, top, r.width, 14.min(r.bottom() - top));
    Block::bordered()
        .border_style(Style::new().fg(THEME.faint))
        .render(box_area, buf);
    // The selected track's course, at the box's right beside the first
    // five rows: the lines under them run the box's width.
    let outline = Rect::new(r.x + 34, box_area.y + 1, 14, 5).intersection(box_area);
    super::minimap::course(buf, outline, &v.setup.track.track, THEME.dim);
    rows(buf, box_area.inner(Margin::new(2, 1)), v);
    let hint = Rect::new(r.x, box_area.bottom(), r.width, 1).intersection(area);
    let line = if v.planning {
        column::line("Planning the racing line…  Esc back  q quit", THEME.accent)
    } else {
        column::line(
            "↑↓ choose  ←→ change  Enter start  ? help  q quit",
            THEME.faint,
        )
    };
    column::stack(buf, hint, [line]);
}

/// The game's name in letters, and what it is.
fn logo(buf: &mut Buffer, area: Rect) {
    let x = area.x + area.width.saturating_sub(17) / 2;
    let letters = TITLE.iter().chain([&TITLE_LAST]);
    let lines = letters.map(|l| column::line(*l, THEME.you));
    column::stack(buf, Rect { x, ..area }.intersection(area), lines);
    let sub = "a top-down racing game for the terminal";
    let x = area.x + area.width.saturating_sub(sub.len() as u16) / 2;
    let below = Rect::new(x, area.y + 4, area.width, 1).intersection(area);
    column::stack(buf, below, [column::line(sub, THEME.dim)]);
}

/// The menu's rows, under them (indented) the model's feel, the record
/// and the medals, then Start.
fn rows(buf: &mut Buffer, area: Rect, v: &MenuView<'_>) {
    let rows = (v.setup.rows().into_iter()).map(|(row, label, value)| {
        let (text, style) = super::selector::row(label, &value, v.row == row, true);
        Piece::Line(text, style)
    });
    let y = column::stack(buf, area, rows);
    let (lookup, kept) = v.medals;
    // Laps at another physics rate are no records (`timing::standard_rate`).
    let record = if crate::race::timing::standard_rate(1.0 / f64::from(v.hz)) {
        super::medals::record(v.best, kept, lookup.medals(), v.aided)
    } else {
        format!("at --hz {}: laps set no record, no medal", v.hz)
    };
    let about = [
        v.setup.model.feel().to_string(),
        record,
        super::medals::targets(lookup),
    ]
    .map(|t| column::line(t, THEME.dim));
    let notes = Rect::new(
        area.x + 2,
        y,
        area.width.saturating_sub(2),
        area.bottom() - y,
    );
    let y = column::stack(buf, notes, about);
    let (start, style) = super::selector::start(v.row == Row::Start);
    let rest = Rect::new(area.x, y, area.width, area.bottom() - y);
    column::stack(buf, rest, [Piece::Gap, Piece::Line(start, style)]);
    if v.build && rest.height > 1 {
        let (build, style) = super::selector::button("Build a track", v.row == Row::Build);
        let x = rest.x + 22;
        if x < rest.right() {
            let room = usize::from(rest.right() - x);
            buf.set_stringn(x, rest.y + 1, build, room, style);
        }
    }
}
