//! The server's game: every connected player and every room, owned by
//! one thread with a fixed-step clock, fed by the connections through a
//! channel (docs/SERVE.md, "Input and frames").
//!
//! Each turn takes the messages that came (players joining, their key
//! events stamped with when they arrived, resizes, leaving), steps every
//! room's race as many ticks as real time holds, and at up to `fps` draws
//! each player's screen whose content changed. The races of a tick and
//! the frames of a turn are spread over every core (rayon): rooms share
//! nothing, and a frame only reads the hub, so the hub's thread still
//! owns all of it and nothing is locked. A frame goes to its
//! player's connection through a channel of one frame: when that is still
//! full (a slow client), the frame is not drawn at all, so ratatui's last
//! buffer stays what the player actually got and the next frame sent is
//! diffed against it ("drawn on credit"). No frames queue on the server.
//!
//! A panic in one room's tick or one player's frame ends that room or
//! that player, not the server.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::Sender;

use crate::base::clock::{Cadence, Clock};
use crate::console::{Frames, Sink};
use crate::physics::car::CarSpec;
use crate::race::medals::book::Book;
use crate::race::session::Session;

mod build;
mod frames;
mod idle;
mod leaving;
mod player;
mod refresh;
mod relays;
mod today;

use player::Link;
pub use player::Player;

mod input;

use super::keeper::Keeper;
use super::listing::{Listing, Published};
use super::messages::to_size;
pub use super::messages::{Out, ToHub};
use super::names::{looks_like, unique_name};
pub use super::offered::Offered;
use super::relay::{Relays, ToRelay};
use super::room::{Place, PlayerId, Room};
use super::rows::Rows;
use ratatui::crossterm::event::Event;

/// How the hub runs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Physics steps a second in every race.
    pub hz: u32,
    /// Frames a second at the most, per player.
    pub fps: u32,
    /// A player who sends no key for this long is disconnected.
    pub idle: Duration,
    /// Whether a key is drawn right after the step that applied it
    /// ([`Hub::urgent_frames`]); else at the frame clock's next turn, as
    /// before (kept for the benchmark's before and after).
    pub keys_at_once: bool,
}

/// Why a relayed player's session ends when they leave the room: their
/// own server takes them back to its lobby without a word.
pub const LEFT_ROOM: &str = "left the room";

/// Every player and room.
pub struct Hub {
    /// The tracks a room may race on: today's first if the server offers
    /// one (`daily`).
    pub tracks: Vec<Offered>,
    /// Today's track's turns, if `tracks` begins with it.
    pub daily: Option<super::daily::Turns>,
    pub cars: Vec<(String, CarSpec)>,
    pub settings: Settings,
    pub players: BTreeMap<PlayerId, Player>,
    pub rooms: BTreeMap<u32, Room>,
    /// The players' records and the lobby's board of best laps.
    pub keeper: Keeper,
    /// The medal tables known (kept in the data directory) and being
    /// worked out.
    pub medals: Book,
    next_room: u32,
    /// The fixed-step clock of every room's race.
    clock: Clock,
    /// Frame turns so far ([`Hub::frames`]).
    turns: u64,
    /// This server's rooms as published for the other servers sharing
    /// its database, and theirs as read.
    pub listing: Listing,
    /// How its players are relayed to the other servers' rooms (none: a
    /// server alone).
    pub relays: Option<Relays>,
    /// Players' last words still to send.
    closing: leaving::Closing,
    /// The tracks players published, offered after the server's own
    /// (`tracks` from `base_tracks` on).
    pub players_tracks: Vec<super::keeper::PlayersTrack>,
    /// The lobby's line for each of them ([`Hub::relist_tracks`]).
    track_lines: Vec<String>,
    base_tracks: usize,
}

impl Hub {
    pub fn new(tracks: Vec<Offered>, settings: Settings, keeper: Keeper, start: Instant) -> Hub {
        let cars = crate::race::presets();
        let tracks_len = tracks.len();
        Hub {
            tracks,
            daily: None,
            cars,
            clock: Clock::new(settings.hz, start),
            settings,
            players: BTreeMap::new(),
            rooms: BTreeMap::new(),
            medals: Book::open(Some(keeper.data_dir().to_path_buf())),
            keeper,
            next_room: 1,
            turns: 0,
            listing: Listing::default(),
            relays: None,
            closing: leaving::Closing::default(),
            players_tracks: Vec::new(),
            track_lines: Vec::new(),
            base_tracks: tracks_len,
        }
    }

    /// This server's rooms as the other servers' lobbies list them,
    /// handed to the records' thread to publish when they changed.
    pub(super) fn publish_rooms(&mut self) {
        let (rooms, tracks) = (&self.rooms, &self.tracks);
        let listed = |server: &Published| {
            (super::room::in_lobby(rooms))
                .map(|(_, r)| r.listed(server, tracks))
                .collect()
        };
        self.listing.publish(listed, &mut self.keeper);
    }

    /// Seconds since the hub started: the clock of every key event.
    fn secs(&self, at: Instant) -> f64 {
        self.clock.secs(at)
    }

    /// Applies one message; returns false when the hub is to stop.
    pub fn apply(&mut self, msg: ToHub, now: Instant) -> bool {
        match msg {
            ToHub::Join {
                id,
                name,
                identity,
                size,
                color,
                room,
                out,
            } => {
                let sink = Sink::default();
                let (frames, _) = Frames::new(sink.clone(), to_size(size));
                let taken = |n: &str| self.players.values().any(|p| looks_like(&p.name, n));
                let name = unique_name(&name, taken);
                let Some(place) = self.joining(id, &name, room, &out) else {
                    return true;
                };
                self.players.insert(
                    id,
                    Player {
                        name,
                        identity,
                        session: Session {
                            color,
                            ..Session::new(size)
                        },
                        place,
                        out,
                        frames,
                        resized: false,
                        sink,
                        last_key: now,
                        clear: true,
                        idle_shown: None,
                        urgent: false,
                        urgent_at: None,
                        link: match room {
                            Some(_) => Link::Here,
                            None => Link::Home,
                        },
                        note: None,
                        build: None,
                        shelf: Vec::new(),
                        mouse: None,
                    },
                );
                self.ask_mine(id);
            }
            ToHub::Input {
                id,
                events,
                bytes,
                at,
            } => self.typed(id, events, bytes, at),
            ToHub::Resize { id, size } => self.resized(id, size),
            ToHub::Leave { id } => self.drop_player(id, None),
            ToHub::RelayUp { id, frames } => self.relay_up(id, frames),
            ToHub::RelayEnded { id, why } => self.relay_ended(id, why, now),
            ToHub::Tomorrow { day, offered } => self.tomorrow(day, *offered),
            ToHub::DayTurned { day } => self.day_turned(day),
            ToHub::Shutdown => {
                let ids: Vec<PlayerId> = self.players.keys().copied().collect();
                for id in ids {
                    self.drop_player(id, Some("server shutting down"));
                }
                self.last_words();
                return false;
            }
        }
        true
    }

    /// Where player `id`, named `name`, joining begins: this lobby, or
    /// relayed by another server, room `room`, which is gone if none
    /// (they are told so through `out`).
    fn joining(
        &mut self,
        id: PlayerId,
        name: &str,
        room: Option<u32>,
        out: &Sender<Out>,
    ) -> Option<Place> {
        let Some(r) = room else {
            eprintln!("skid serve: {name} (player {id}) joined the lobby");
            return Some(Place::Lobby { row: 0 });
        };
        let Some(there) = self.rooms.get_mut(&r) else {
            eprintln!("skid serve: {name} (player {id}) relayed here: room {r} is gone");
            let _ = out.try_send(Out::Close(format!("room {r} is gone")));
            return None;
        };
        there.members.push((id, name.to_string()));
        eprintln!("skid serve: {name} (player {id}) relayed into room {r}");
        self.lobby_changed();
        Some(Place::Room(r))
    }

    /// Key events from player `id`, read from `bytes`: theirs to act on,
    /// or, relayed to another server's room, the bytes passed on there as
    /// they came, whole keys or pieces (dropped while the relay is on its
    /// way).
    fn typed(&mut self, id: PlayerId, events: Vec<Event>, bytes: Vec<u8>, at: Instant) {
        if let Some(Player {
            link: Link::To(relay),
            ..
        }) = self.players.get_mut(&id)
        {
            if relay.up {
                relay.pass(ToRelay::Bytes(bytes));
            }
            return;
        }
        for ev in events {
            match self.players.get(&id).map(|p| p.place) {
                Some(Place::Edit) => self.edit_event(id, &ev, at),
                _ => self.input(id, ev, at),
            }
        }
    }

    /// Player `id`'s terminal is now `size`: only noted, the buffers are
    /// made again at their next frame, once however many resizes came
    /// meanwhile (a client can send them by the thousand); a relay is
    /// told.
    fn resized(&mut self, id: PlayerId, size: (u16, u16)) {
        if let Some(p) = self.players.get_mut(&id) {
            p.session.size = size;
            p.resized = true;
            p.session.dirty = true;
            if let Some(b) = &mut p.build {
                let size = to_size(size);
                b.editor.resize(size.width, size.height);
            }
            if let Link::To(relay) = &mut p.link {
                relay.pass(ToRelay::Resize(size));
            }
        }
    }

    /// The lobby's rows as player `id` sees them now.
    fn lobby_rows(&self, id: PlayerId) -> Rows {
        let p = self.players.get(&id);
        Rows::new(
            self.daily.is_some(),
            &self.players_tracks,
            p.and_then(|p| p.identity.as_deref()),
            p.map_or(0, |p| p.shelf.len()),
            &self.rooms,
            self.listing.elsewhere().len(),
        )
    }

    /// Something the lobby lists changed: every lobby screen is redrawn.
    fn lobby_changed(&mut self) {
        for p in self.players.values_mut() {
            p.session.dirty = true;
        }
        self.publish_rooms();
    }

    /// One physics tick of every room's race, at `at`: the races on every
    /// core (rooms share nothing), then what they did, here.
    pub fn tick(&mut self, at: Instant) {
        let now = self.secs(at);
        // Each room with its members' sessions: a room's tick moves their
        // cameras too, all on rayon's threads (not after, on this one).
        let mut sessions: BTreeMap<u32, Vec<(PlayerId, &mut Session)>> = BTreeMap::new();
        for (&id, p) in &mut self.players {
            if let Place::Room(r) = p.place {
                sessions.entry(r).or_default().push((id, &mut p.session));
            }
        }
        let rooms: Vec<_> = (self.rooms.iter_mut())
            .filter(|(_, room)| room.running.is_some())
            .map(|(&r, room)| (r, room, sessions.remove(&r).unwrap_or_default()))
            .collect();
        let ticked: Vec<(u32, Option<Vec<_>>)> = (rooms.into_par_iter())
            .map(|(r, room, mut members)| {
                let ticked = catch_unwind(AssertUnwindSafe(|| {
                    let laps = room.tick(now);
                    room.follow(&mut members);
                    laps
                }));
                (r, ticked.ok())
            })
            .collect();
        // Records read for races that started (on the records' thread).
        let mut polled = self.keeper.poll();
        self.records_found(std::mem::take(&mut polled.records));
        if let Some(rooms) = polled.elsewhere.take() {
            self.listing.heard(rooms);
        }
        // Laps the server could not keep yet: their drivers are told.
        for (identity, why) in &polled.unsaved {
            for (id, p) in &self.players {
                if let Place::Room(r) = p.place
                    && p.identity.as_ref() == Some(identity)
                    && let Some(room) = self.rooms.get_mut(&r)
                {
                    room.unsaved(*id, why.as_ref());
                }
            }
        }
        self.tracks_news(std::mem::take(&mut polled.tracks));
        if let Some(list) = polled.published.take() {
            self.published(list);
        }
        self.poll_builders();
        self.refresh_rooms(&polled.changed);
        if polled.news {
            self.lobby_changed();
        }
        let mut broken = Vec::new();
        let mut board_changed = false;
        for (r, laps) in ticked {
            let Some(laps) = laps else {
                broken.push(r);
                continue;
            };
            for (who, record, ghost) in laps {
                let Some(p) = self.players.get(&who) else {
                    continue;
                };
                if let Some(identity) = &p.identity {
                    self.keeper.save(identity, &p.name, record, ghost);
                    board_changed = true;
                }
            }
        }
        if board_changed {
            self.lobby_changed();
        }
        for r in broken {
            eprintln!("skid serve: room {r} failed and was closed");
            if let Some(room) = self.rooms.remove(&r) {
                for (m, _) in room.members {
                    if let Some(p) = self.players.get_mut(&m) {
                        p.place = Place::Lobby { row: 0 };
                        if matches!(p.link, Link::Here) {
                            self.drop_player(m, Some("the room failed"));
                        }
                    }
                }
            }
            self.lobby_changed();
        }
    }
}

/// Runs the hub until the server stops: messages in, fixed steps, frames
/// out.
pub fn run(rx: &Receiver<ToHub>, mut hub: Hub) {
    let mut frames_due = Cadence::new(hub.settings.fps, Instant::now());
    loop {
        let wait = (hub.clock.next_due())
            .min(frames_due.next_due())
            .saturating_duration_since(Instant::now());
        // Every message that came, then the ticks and the frame due: a
        // busy channel never holds the races back.
        match rx.recv_timeout(wait) {
            Ok(msg) => {
                if !hub.apply(msg, Instant::now()) {
                    return;
                }
                while let Ok(msg) = rx.try_recv() {
                    if !hub.apply(msg, Instant::now()) {
                        return;
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        let mut stepped = false;
        while let Some(at) = hub.clock.step_due(now) {
            hub.tick(at);
            stepped = true;
        }
        if frames_due.due(now) {
            hub.frames(now);
            frames_due.drawn(now);
        } else if stepped && hub.settings.keys_at_once {
            // A key's effect, drawn once the step that applied it is done,
            // not at the next turn of the frame clock.
            hub.urgent_frames(now);
        }
    }
}
