//! The server's screens before a race (`skid serve`): the lobby, which
//! lists the rooms, and a room waiting for its race. They draw plain data
//! the server hands them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Widget};

use super::column::{self, Piece};
use super::menu::centred;
use super::selector;
use super::theme::THEME;
use crate::race::Row;
use crate::race::medals::book::Lookup;

mod list;
pub use list::List;

/// One room as the lobby lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomLine {
    pub id: u32,
    pub track: String,
    pub model: String,
    pub players: usize,
    pub slots: usize,
    pub racing: bool,
    /// Whether the steering aid may steer in its races (its host's
    /// choice; rooms on other servers: not known, shown as allowed).
    pub aid: bool,
    /// The host of the server it is on, if another sharing the database.
    pub on: Option<String>,
}

/// A room waiting for its race.
#[derive(Debug, Clone, PartialEq)]
pub struct RoomScreen {
    pub id: u32,
    /// The race's settings as [`crate::race::Setup::rows`] gives them.
    pub rows: [(Row, &'static str, String); 7],
    /// The row the host's cursor is on.
    pub row: Row,
    pub slots: usize,
    /// Everyone in the room, the host first... in the order they came.
    pub members: Vec<String>,
    /// Whether the one looking is the host (who changes and starts).
    pub host: bool,
    /// The medals of the settings.
    pub medals: Lookup,
    /// The server's board for the settings: a heading (with the viewer's
    /// place), whose ghost they race, then its best laps, as many as fit.
    pub board: Vec<String>,
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
/// The screens' box: 60 columns wide, or `w` where wider, and `h` high,
/// in the middle of `area`; returns the inside less a margin.
fn panel(buf: &mut Buffer, area: Rect, w: u16, h: u16, title: &str) -> Rect {
    let r = centred(area, w.max(60), h);
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

/// Who is looking at the lobby: `you are ann · ...`, and a line for them
/// (why a relay to another server's room ended), if any.
#[derive(Debug, Clone, PartialEq)]
pub struct You<'a> {
    pub who: String,
    pub note: Option<&'a str>,
}

/// The lobby: who you are (`you`, a line and its note), the rows of
/// `list`, the cursor on `row`; under them a board (`board`: its heading,
/// then a line each: the server's best laps, or the board of the room
/// the cursor is on).
pub fn lobby(
    buf: &mut Buffer,
    area: Rect,
    you: &You<'_>,
    list: &List<'_>,
    row: usize,
    board: &[String],
) {
    let (heading, best) = board
        .split_first()
        .map_or(("", &[][..]), |(h, b)| (h.as_str(), b));
    // The box fits everything if the screen has room; else the list
    // scrolls to keep the cursor's row in sight, and the board's lines
    // give way first.
    let count = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    let noted = usize::from(you.note.is_some());
    let lines = list.lines();
    let h = count(lines + noted)
        .saturating_add(count(best.len()))
        .saturating_add(7);
    // Wider than its 60 columns where a row needs it (another server's
    // room: its host at the end; a best lap on a day's track) and the
    // screen has them.
    let widest = (list.texts())
        .chain(best.iter().cloned())
        .map(|line| unicode_width::UnicodeWidthStr::width(line.as_str()))
        .max()
        .unwrap_or(0);
    let w = count(widest + 6).min(area.width);
    let inner = panel(buf, area, w, h, " skid · lobby ");
    // Rows besides the list's: who you are (and the note), a gap and the
    // key line, and for the board a gap and its heading.
    let spare = (inner.height as usize).saturating_sub(3 + noted + lines);
    let best = &best[..best.len().min(spare.saturating_sub(2))];
    let gap = if best.is_empty() { 0 } else { best.len() + 2 };
    // Lines for the list: the box less who you are, a blank, the best
    // laps and the key line.
    let room_for = (inner.height as usize)
        .saturating_sub(3 + noted + gap)
        .max(1);
    // Only the lines in sight are written out (a server may list
    // hundreds of rooms to each of hundreds of players), and how many
    // are out of sight is said, above in the gap under who you are,
    // below in a line of the list's own.
    let at = list.line_of(row);
    let mut window = room_for;
    let mut first = (at + 1).saturating_sub(window);
    if first + window < lines && window > 1 {
        window -= 1;
        first = (at + 1).saturating_sub(window);
    }
    let end = (first + window).min(lines);
    let more = |n: usize, way: &str| column::line(format!("  {way} {n} more"), THEME.dim);
    let above = match first {
        0 => Piece::Gap,
        n => more(n, "↑"),
    };
    let mut pieces = vec![column::line(you.who.as_str(), THEME.you)];
    if let Some(note) = you.note {
        pieces.push(column::line(note, THEME.bad));
    }
    pieces.push(above);
    pieces.extend((first..end).map(|i| match list.line(i) {
        (line, None) => column::line(format!(" {line}"), THEME.dim),
        (line, Some(r)) => {
            let mark = if r == row { "›" } else { " " };
            Piece::Line(format!("{mark} {line}"), style(r == row))
        }
    }));
    if end < lines {
        pieces.push(more(lines - end, "↓"));
    }
    if !best.is_empty() {
        pieces.extend([Piece::Gap, column::line(heading, THEME.accent)]);
        pieces.extend(
            best.iter()
                .map(|l| column::line(format!("  {l}"), THEME.dim)),
        );
    }
    column::stack(buf, inner, pieces);
    hint_line(buf, inner, "↑↓ choose  Enter join or make  ? help  q quit");
}

/// A room's row: number, track, model, players of slots, whether it
/// races or waits, and `no aid` where its host turned the aid off.
pub fn room_line(room: &RoomLine) -> String {
    let line = format!(
        "room {:<3} {:<10} {:<9} {}/{}  {}{}",
        room.id,
        tail(&room.track, 10),
        room.model,
        room.players.min(room.slots),
        room.slots,
        if room.racing { "racing" } else { "waiting" },
        if room.aid { "" } else { "  no aid" }
    );
    match &room.on {
        Some(host) => format!("{line}  · {host}"),
        None => line,
    }
}

/// `text` in at most `cols` columns: whole if it fits, else what follows
/// its last ` · ` (a day's track's name says more than its date), else
/// its end after `…` (a track's file name says more than the folders
/// before it).
fn tail(text: &str, cols: usize) -> String {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    if text.width() <= cols {
        return text.to_string();
    }
    // A day's track (`Today · Dec 7 · Lost Works`) by its own name.
    if let Some((_, name)) = text.rsplit_once(" · ") {
        return tail(name, cols);
    }
    let mut kept = Vec::new();
    let mut used = 1;
    for c in text.chars().rev() {
        used += c.width().unwrap_or(0);
        if used > cols {
            break;
        }
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// The key hint on the last row of `inner`.
fn hint_line(buf: &mut Buffer, inner: Rect, hint: &str) {
    let last = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    column::stack(
        buf,
        last.intersection(inner),
        [column::line(hint, THEME.faint)],
    );
}

/// Watchers a room's screen lists by name; more are counted.
const WATCHERS_LISTED: usize = 3;

/// A room waiting for its race: the settings (the host's cursor on
/// them) and their medals, who is in, the server's best laps for the
/// settings (as many as fit), and what the keys do.
pub fn room(buf: &mut Buffer, area: Rect, s: &RoomScreen) {
    let h = 21 + (s.board.len() as u16 + 1).min(12);
    let inner = panel(buf, area, 60, h, &format!(" skid · room {} ", s.id));
    let mut pieces: Vec<Piece> = (s.rows.iter())
        .map(|(row, label, value)| {
            let (text, style) = selector::row(label, value, s.host && s.row == *row, s.host);
            Piece::Line(text, style)
        })
        .collect();
    // The settings' medals, under them.
    let author = s.medals.medals().map_or_else(String::new, |m| {
        let t = super::hud::clock(Some(m.time(crate::race::medals::Medal::Author)));
        format!("author {t}: the computer's lap")
    });
    pieces.extend(
        [super::medals::targets(s.medals), author]
            .map(|t| column::line(format!("   {t}"), THEME.dim)),
    );
    if s.host {
        let (text, style) = selector::start(s.row == Row::Start);
        pieces.push(Piece::Line(text, style));
    }
    // Racers of the seats; whoever is past them watches. With a crowd
    // watching, no gap above them: the board needs the line at 80x24.
    let racers = s.members.len().min(s.slots);
    if s.members.len() <= racers {
        pieces.push(Piece::Gap);
    }
    let who = match s.members.len() - racers {
        0 => format!("PLAYERS {racers}/{}", s.slots),
        w => format!("PLAYERS {racers}/{}  +{w} watching", s.slots),
    };
    pieces.push(column::line(who, THEME.accent));
    // Every racer; of a crowd watching, the first few and how many more,
    // so that the board still shows.
    let listed = match s.members.len() {
        n if n > racers + WATCHERS_LISTED + 1 => racers + WATCHERS_LISTED,
        n => n,
    };
    pieces.extend(s.members[..listed].iter().enumerate().map(|(i, m)| {
        let note = match i {
            0 => "  host",
            i if i >= s.slots => "  watches",
            _ => "",
        };
        column::line(format!("  {m}{note}"), THEME.text)
    }));
    if listed < s.members.len() {
        let more = format!("  … {} more watching", s.members.len() - listed);
        pieces.push(column::line(more, THEME.dim));
    }
    if let Some((heading, laps)) = s.board.split_first() {
        pieces.extend([Piece::Gap, column::line(heading.clone(), THEME.accent)]);
        pieces.extend(
            laps.iter()
                .map(|l| column::line(format!("  {l}"), THEME.text)),
        );
    }
    // The last row is the hint's.
    column::stack(
        buf,
        Rect {
            height: inner.height.saturating_sub(1),
            ..inner
        },
        pieces,
    );
    let hint = if s.host {
        "↑↓ choose  ←→ change  Enter start  Esc leave"
    } else {
        "waiting for the host to start  Esc leave"
    };
    hint_line(buf, inner, hint);
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
                aid: true,
                slots: 8,
                racing: false,
                on: None,
            })
            .collect()
    }

    fn screen(rooms: &[RoomLine], row: usize, best: &[String]) -> String {
        screen_with(&["Make a room".into()], rooms, row, best)
    }

    fn screen_with(top: &[String], rooms: &[RoomLine], row: usize, best: &[String]) -> String {
        listed(
            &List {
                top,
                rooms,
                bottom: &[],
            },
            row,
            best,
        )
    }

    fn listed(list: &List<'_>, row: usize, best: &[String]) -> String {
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        let mut board = vec!["BEST LAPS".to_string()];
        board.extend_from_slice(best);
        let you = You {
            who: "you are x".into(),
            note: None,
        };
        lobby(&mut buf, area, &you, list, row, &board);
        crate::ui::buffer_text(&buf)
    }

    /// The rows below the rooms come after them, or after the line that
    /// says there are none (no row of its own: the cursor skips it).
    #[test]
    fn the_rows_below_the_rooms_follow_them_or_the_line_that_says_none() {
        let lines = |text: &str| -> Vec<String> {
            (text.lines())
                .map(|l| l.trim_matches(|c: char| c == '│' || c == ' ').to_string())
                .filter(|l| l.contains('[') || l.contains("room") || l.contains("rooms"))
                .collect()
        };
        let (top, build) = (["Make a room".into()], ["Build a track".into()]);
        let screen = |rooms: &[RoomLine], row| {
            let list = List {
                top: &top,
                rooms,
                bottom: &build,
            };
            listed(&list, row, &[])
        };
        let empty = lines(&screen(&[], 1));
        assert_eq!(
            empty,
            ["[ Make a room ]", "no rooms yet", "› [ Build a track ]"],
            "{empty:?}"
        );
        let two = lines(&screen(&rooms(2), 3));
        assert_eq!(two.len(), 4, "{two:?}");
        assert!(
            two[1].starts_with("room 1") && two[2].starts_with("room 2"),
            "{two:?}"
        );
        assert_eq!(two[3], "› [ Build a track ]");
    }

    #[test]
    fn a_long_track_path_leaves_the_rooms_status_in_sight() {
        let mut one = rooms(1);
        one[0].track = "/srv/skid/tracks/community/summer-cup/figure-eight.track".into();
        let text = screen(&one, 1, &[]);
        assert!(
            text.contains("…ght.track arcade") && text.contains("1/8  waiting"),
            "{text}"
        );
        assert_eq!(tail("oval", 10), "oval");
        assert_eq!(tail("赛道赛道赛道", 5), "…赛道");
        assert_eq!(tail("Today · Dec 7 · Lost Works", 10), "Lost Works");
        assert_eq!(tail("Dec 6 · Lost Crossing", 10), "… Crossing");
    }

    #[test]
    fn a_crowd_watching_a_room_is_counted_and_the_board_still_shows() {
        let track = crate::track::bundled::load_raceable("pocket").unwrap();
        let choice = crate::race::TrackChoice {
            name: "pocket".into(),
            track,
        };
        let menu = crate::race::Menu::new(0, crate::physics::ModelKind::Arcade);
        let setup = menu.setup(&choice, &crate::race::presets());
        let room = |members: usize| RoomScreen {
            id: 1,
            rows: setup.rows(),
            row: Row::Start,
            slots: 4,
            members: (0..members).map(|i| format!("p{i}")).collect(),
            host: false,
            medals: Lookup::Working,
            board: vec!["BOARD".into(), "1 ann 0:20.00".into()],
        };
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        super::room(&mut buf, area, &room(22));
        let text = crate::ui::buffer_text(&buf);
        assert!(text.contains("PLAYERS 4/4  +18 watching"), "{text}");
        assert!(
            text.contains("p6  watches") && !text.contains("p7 "),
            "{text}"
        );
        assert!(text.contains("… 15 more watching"), "{text}");
        assert!(text.contains("1 ann 0:20.00"), "{text}");
        // One watcher more than are listed takes the line a count would.
        let mut buf = Buffer::empty(area);
        super::room(&mut buf, area, &room(8));
        let text = crate::ui::buffer_text(&buf);
        assert!(
            text.contains("p7  watches") && !text.contains("more"),
            "{text}"
        );
    }

    /// Today's track is the first row, making a room the second, then
    /// the rooms; the cursor reaches the last room and the board stays.
    #[test]
    fn todays_track_comes_first_and_the_rooms_after() {
        let top = [
            "Today · Dec 7 · Lost Works".to_string(),
            "Make a room".into(),
        ];
        let best = ["Today · Dec 7 · Lost Works 0:31.20 ann".to_string()];
        let text = screen_with(&top, &rooms(3), 0, &best);
        let today = text.find("› [ Today · Dec 7 · Lost Works ]");
        let make = text.find("  [ Make a room ]");
        assert!(today.is_some() && today < make, "{text}");
        assert!(text.contains("0:31.20 ann"), "{text}");
        let all = rooms(30);
        let text = screen_with(&top, &all, 1, &best);
        assert!(text.contains("› [ Make a room ]"), "{text}");
        let text = screen_with(&top, &all, 31, &best);
        assert!(text.contains("› room 30 "), "{text}");
        assert!(!text.contains("[ Today"), "{text}");
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
        // How many rooms are out of sight, above and below.
        let text = screen(&all, 0, &best);
        assert!(
            text.contains("↓ 13 more") && text.matches(" more").count() == 1,
            "{text}"
        );
        let text = screen(&all, 30, &best);
        assert!(
            text.contains("↑ 12 more") && text.matches(" more").count() == 1,
            "{text}"
        );
        let text = screen(&all, 20, &best);
        assert!(
            text.contains("↑ 3 more") && text.contains("↓ 10 more"),
            "{text}"
        );
        // Few rooms: all of them and the best laps.
        let text = screen(&all[..3], 0, &best);
        assert!(
            text.contains("room 3") && text.contains("BEST LAPS") && text.contains("track5"),
            "{text}"
        );
        // One room and one best lap: both (the best laps gave way to a
        // room and a lap once).
        let text = screen(&all[..1], 0, &best[..1]);
        assert!(
            text.contains("room 1") && text.contains("track0 0:40.00"),
            "{text}"
        );
    }
}
