//! What a player on the server sees: the lobby, their room, the race from
//! their own seat (or, done or watching, the car they follow), their
//! results. It reads the hub's state and draws with [`crate::ui`]; it
//! changes nothing.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::console::damage::Damage;
use crate::physics::car::CarSpec;
use crate::race::edit::Editor;
use crate::race::session::{Door, Session};
use crate::ui::{self, lobby, overlay};

use super::db::{Board, Boards, Listed, Shelved};
use super::keeper::{Best, LapKey, PlayersTrack};
use super::offered::Offered;
use super::room::{Place, PlayerId, Room, in_lobby};
use super::rows::{LobbyRow, Rows, theirs};

/// The lobby's rows in a frame turn, this server's rooms then the other
/// servers' ([`elsewhere_rows`]): worked out once, by the first lobby
/// screen drawn in it, and read by every other (each row of every room
/// for each player in the lobby cost a turn tens of milliseconds while
/// hundreds joined).
pub type LobbyRows = OnceLock<Vec<lobby::RoomLine>>;

/// One player's screen, read from the hub.
pub struct View<'a> {
    pub id: PlayerId,
    pub name: &'a str,
    /// Whether the player came with a key (their laps are kept).
    pub keyed: bool,
    pub place: Place,
    /// The person at the screen: help, leaving, the car they watch,
    /// their camera on it, size, colour.
    pub session: &'a Session,
    pub rooms: &'a BTreeMap<u32, Room>,
    /// The lobby's rows of `rooms`, this turn.
    pub listed: &'a LobbyRows,
    pub tracks: &'a [Offered],
    /// Whether `tracks` begins with today's track.
    pub today: bool,
    pub cars: &'a [(String, CarSpec)],
    /// The best lap on each track, by its content id.
    pub board: &'a BTreeMap<String, Best>,
    /// The boards the rooms asked for.
    pub boards: &'a HashMap<LapKey, Boards>,
    /// Whether the database answers: the boards are offline while it
    /// does not (laps wait, and are kept).
    pub online: bool,
    /// The rooms open on the other servers sharing the database: the
    /// lobby lists them below this server's own.
    pub elsewhere: &'a [Listed],
    /// The player's key fingerprint, if they came with one.
    pub identity: Option<&'a str>,
    /// Seconds left before the player is cut off for being idle, while
    /// they are warned: said on the top row.
    pub idle_left: Option<u64>,
    /// A line for the player in the lobby (why a relay ended).
    pub note: Option<&'a str>,
    /// Their editor, while they build a track.
    pub editor: Option<&'a Editor>,
    /// The tracks players published, and the lobby's line for each.
    pub published: &'a [PlayersTrack],
    pub track_lines: &'a [String],
    /// The player's own tracks.
    pub shelf: &'a [Shelved],
}

impl View<'_> {
    /// Draws the screen, in colour unless the player asked for none, and
    /// says which cells may differ from the frame drawn before it (only a
    /// race knows).
    pub fn draw(&self, buf: &mut Buffer, area: Rect, before: &Damage) -> Damage {
        let mut damage = self.draw_in_colour(buf, area, before);
        if let Some(left) = self.idle_left {
            // Over whatever the screen shows, centred on the top row.
            let text = idle_warning(left);
            let w = (text.chars().count() as u16).min(area.width);
            let x = area.x + (area.width - w) / 2;
            let style = ratatui::style::Style::new()
                .fg(ui::theme::THEME.bad)
                .add_modifier(ratatui::style::Modifier::REVERSED);
            buf.set_stringn(x, area.y, &text, w as usize, style);
            damage = Damage::All;
        }
        ui::theme::finish(buf, self.session.color);
        damage
    }

    fn draw_in_colour(&self, buf: &mut Buffer, area: Rect, before: &Damage) -> Damage {
        let damage = match self.place {
            Place::Lobby { row } => {
                buf.reset();
                let board = self.lobby_board(row);
                let you = self.you();
                let (top, bottom) = (self.top_rows(), self.bottom_rows());
                let list = lobby::List {
                    top: &top,
                    rooms: self.rows(),
                    bottom: &bottom,
                };
                lobby::lobby(buf, area, &you, &list, row, &board);
                Damage::All
            }
            Place::Room(r) => self.room(buf, area, r, before),
            Place::Edit => {
                buf.reset();
                if let Some(editor) = self.editor {
                    ui::edit::edit(buf, area, editor);
                }
                Damage::All
            }
        };
        if self.session.help {
            overlay::help(buf, area, Door::Served);
            return Damage::All;
        }
        damage
    }

    /// Room `r`: its race if one runs ([`ui::InRace`]: the player's own
    /// seat while they race; once done, the car they chose to watch or
    /// their results, `host` theirs the Enter that takes the room back;
    /// watching, that car or the first seat's), else its settings (the
    /// lobby if the room is gone).
    fn room(&self, buf: &mut Buffer, area: Rect, r: u32, before: &Damage) -> Damage {
        let room = self.rooms.get(&r);
        if let Some(room) = room
            && let Some(run) = room.running.as_ref()
        {
            let mine = run.seat_of(self.id);
            let leaving = "leave the race? q or Esc again; any other key stays";
            return ui::InRace {
                race: &run.race,
                mine,
                session: self.session,
                paused: false,
                host: room.creator == self.id,
                keys: match mine {
                    Some(_) => "v next car",
                    None => "v next car  Esc leave  · you drive the next race",
                },
                note: self.session.leaving.then_some(leaving),
            }
            .draw(buf, area, before);
        }
        buf.reset();
        match room {
            None => {
                let (top, bottom) = (self.top_rows(), self.bottom_rows());
                let list = lobby::List {
                    top: &top,
                    rooms: self.rows(),
                    bottom: &bottom,
                };
                lobby::lobby(buf, area, &self.you(), &list, 0, &[]);
            }
            Some(room) => lobby::room(buf, area, &self.room_screen(room)),
        }
        Damage::All
    }

    /// The lobby's rows above the rooms ([`Rows`]): today's track, if
    /// the server offers one (the first of its tracks), and making a room.
    fn top_rows(&self) -> Vec<String> {
        let today = (self.today).then(|| self.tracks[0].choice.name.clone());
        today.into_iter().chain(["Make a room".into()]).collect()
    }

    /// The lobby's rows below the rooms ([`Rows`]): the other players'
    /// published tracks, the player's own, and building a track.
    fn bottom_rows(&self) -> Vec<String> {
        let theirs =
            theirs(self.published, self.identity).map(|(i, _)| self.track_lines[i].clone());
        let mine = self.shelf.iter().map(|t| {
            let how = if t.published {
                "published"
            } else {
                "yours alone"
            };
            format!("edit {} · {how}", t.name)
        });
        theirs.chain(mine).chain(["Build a track".into()]).collect()
    }

    /// How many rows of each kind the lobby has.
    fn row_counts(&self) -> Rows {
        Rows::new(
            self.today,
            self.published,
            self.identity,
            self.shelf.len(),
            self.rooms,
            self.elsewhere.len(),
        )
    }

    /// The lobby's rows this turn ([`LobbyRows`]).
    fn rows(&self) -> &[lobby::RoomLine] {
        self.listed.get_or_init(|| {
            let mut rows = lobby_rows(self.rooms, self.tracks);
            rows.extend(elsewhere_rows(self.elsewhere));
            rows
        })
    }

    /// Who the player is, whether their laps are kept, and their note.
    fn you(&self) -> lobby::You<'_> {
        let who = if self.keyed {
            format!("you are {} · laps kept for your key", self.name)
        } else {
            format!("you are {} · a guest: laps not kept", self.name)
        };
        lobby::You {
            who,
            note: self.note,
        }
    }

    /// The lobby's board, its heading first: the boards of the room on
    /// the cursor's `row` once read (the viewer's place on each, read
    /// for them while the cursor stays, and its best laps; the aided
    /// board after the other, if it has laps), else the best lap on each
    /// offered track, if anyone has one.
    fn lobby_board(&self, row: usize) -> Vec<String> {
        let room = match self.row_counts().at(row) {
            Some(LobbyRow::Here(i)) => in_lobby(self.rooms).nth(i).map(|(_, r)| r),
            _ => None,
        };
        let boards = room.and_then(|r| Some((r, self.boards.get(r.board.as_ref()?)?)));
        let laps = |b: &Boards| !b.unaided.top.is_empty() || !b.aided.top.is_empty();
        if let Some((room, boards)) = boards.filter(|(_, b)| laps(b)) {
            let offered = room.offered(self.tracks);
            let setup = room.menu.setup(&offered.choice, self.cars);
            let mut heading = format!(
                "BOARD  ·  room {}: {}, {}, {}",
                room.id, offered.choice.name, setup.model, setup.car
            );
            if !self.online {
                heading = format!("{heading}  ·  offline");
            }
            let mut lines = vec![heading];
            lines.extend(self.place_on(&boards.unaided));
            lines.extend(top_lines(&boards.unaided));
            lines.extend(self.aided_board(&boards.aided));
            return lines;
        }
        let best = (self.tracks.iter()).filter_map(|t| {
            let b = self.board.get(&t.id)?;
            Some(format!(
                "{:<10} {}  {}  {} {}{}",
                t.choice.name,
                ui::hud::clock(Some(b.time)),
                b.name,
                b.model,
                b.car,
                crate::race::aid::mark(b.aided)
            ))
        });
        let mut lines = vec!["BEST LAPS".to_string()];
        lines.extend(best);
        if !self.online {
            lines[0] = format!("BEST LAPS  ·  {OFFLINE}");
            if lines.len() == 1 {
                lines.push("your laps are kept until it answers".into());
            }
        }
        lines
    }

    /// A room waiting for its race, as its screen shows it.
    fn room_screen(&self, room: &Room) -> lobby::RoomScreen {
        let offered = room.offered(self.tracks);
        lobby::RoomScreen {
            id: room.id,
            rows: room.menu.setup(&offered.choice, self.cars).rows(),
            row: room.menu.row,
            slots: Room::slots(&offered.choice.track),
            members: room.members.iter().map(|m| m.1.clone()).collect(),
            host: room.creator == self.id,
            medals: room.medals,
            board: self.room_board(room),
        }
    }

    /// Where the viewer stands on `board`, if it says: `you 3 of 12,
    /// 0:41.20`.
    fn place_on(&self, board: &Board) -> Option<String> {
        let (place, e) = board.place_of(Some(self.identity?))?;
        let time = ui::hud::clock(Some(e.time));
        Some(format!("you {place} of {}, {time}", board.total))
    }

    /// The aided board's lines, after the other's (none while it holds
    /// no lap): its heading with the viewer's place, then its best laps.
    fn aided_board(&self, board: &Board) -> Vec<String> {
        if board.top.is_empty() {
            return Vec::new();
        }
        let heading = match self.place_on(board) {
            Some(place) => format!("{AIDED_BOARD}  ·  {place}"),
            None => AIDED_BOARD.to_string(),
        };
        std::iter::once(heading).chain(top_lines(board)).collect()
    }

    /// The server's boards for a room's settings: a heading with the
    /// viewer's place (a guest has none), whose ghost they race (g picks
    /// another), then the best laps; then the aided board's, if it has
    /// any.
    fn room_board(&self, room: &Room) -> Vec<String> {
        let Some(boards) = room.board.as_ref().and_then(|k| self.boards.get(k)) else {
            if self.online {
                return Vec::new();
            }
            return vec![format!("BOARD  ·  {OFFLINE}")];
        };
        let board = &boards.unaided;
        let you = match (self.place_on(board), self.identity) {
            (Some(place), _) => place,
            (None, Some(_)) => "no lap of yours yet".into(),
            (None, None) => "a guest's laps are not kept".into(),
        };
        let ghost = (room.ghosts.get(&self.id))
            .and_then(|&spot| Some((spot, boards.at(spot)?)))
            .map_or_else(
                || "ghost: your best lap  ·  g: race one of these".to_string(),
                |(spot, e)| {
                    let on = boards.on(spot.aided);
                    let p = spot.place;
                    let just = if p as usize <= on.top.len() {
                        ""
                    } else if on.just_above(p, self.identity) {
                        " (just above you)"
                    } else {
                        " (in this room)"
                    };
                    let aided = crate::race::aid::mark(spot.aided);
                    format!("ghost: {p}. {}{aided}{just}  ·  g: the next", e.name)
                },
            );
        let heading = if self.online {
            format!("BOARD  ·  {you}")
        } else {
            format!("BOARD  ·  {OFFLINE}")
        };
        let mut lines = vec![heading, ghost];
        lines.extend(top_lines(board));
        if board.top.is_empty() {
            lines.push("nobody has a lap here yet".into());
        }
        lines.extend(self.aided_board(&boards.aided));
        lines
    }
}

/// The aided board's heading: laps the steering aid steered, ranked
/// apart from the others and always shown after them.
const AIDED_BOARD: &str = "AIDED BOARD";

/// What an idle player's warning says ([`super::hub`] counts it down).
fn idle_warning(left: u64) -> String {
    format!(" idle: any key keeps you here; disconnected in {left} s ")
}

/// What a board's heading says while the database does not answer.
const OFFLINE: &str = "offline: laps wait for the database";

/// A board's best laps, a line each: place, time, name, medal, and
/// `aided` for a lap the steering aid steered.
fn top_lines(board: &Board) -> impl Iterator<Item = String> + '_ {
    board.top.iter().enumerate().map(|(i, e)| {
        let medal = e.medal.map_or(String::new(), |m| format!("  {m}"));
        let time = ui::hud::clock(Some(e.time));
        let aided = crate::race::aid::mark(e.aided);
        format!("{:>2}. {time}  {}{medal}{aided}", i + 1, e.name)
    })
}

/// The lobby's rows, for its screen.
fn lobby_rows(hub_rooms: &BTreeMap<u32, Room>, tracks: &[Offered]) -> Vec<lobby::RoomLine> {
    in_lobby(hub_rooms)
        .map(|(_, room)| {
            let t = &room.offered(tracks).choice;
            lobby::RoomLine {
                id: room.id,
                track: t.name.clone(),
                model: room.menu.model.to_string(),
                players: room.members.len(),
                slots: Room::slots(&t.track),
                racing: room.running.is_some(),
                aid: room.menu.aid,
                on: None,
            }
        })
        .collect()
}

/// The other servers' rooms `elsewhere` as the lobby lists them, each
/// with the host of the server it is on ([`Listed::host`]).
fn elsewhere_rows(elsewhere: &[Listed]) -> impl Iterator<Item = lobby::RoomLine> + '_ {
    elsewhere.iter().map(|l| lobby::RoomLine {
        id: l.room,
        track: l.track.clone(),
        model: l.model.to_string(),
        players: l.players as usize,
        slots: l.seats as usize,
        racing: l.racing,
        aid: l.aid,
        on: Some(l.host().to_string()),
    })
}
