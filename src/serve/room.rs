//! A room on the server: its settings (the title menu's rows: track,
//! model, car, laps, computer cars), the people in it, and the race they
//! drive, one [`Race`] with a seat for each person racing (docs/SERVE.md,
//! "Lobby, rooms, races").

use std::collections::BTreeMap;

use crate::input::Held;
use crate::physics::ModelKind;
use crate::race::medals::book::{Book, Lookup};
use crate::race::records::Record;
use crate::race::session::{Door, Session};
use crate::race::timing::Lap;
use crate::race::world::CarId;
use crate::race::{Entry, Menu, Race};
use crate::track::Track;

use super::db::{Boards, Listed, Spot};
use super::keeper::{self, Keeper};
use super::listing::Published;
use super::offered::Offered;

/// A player's number on the server, for as long as they are connected.
pub type PlayerId = u64;

/// Cars a room seats at the most.
pub const MAX_SEATS: usize = crate::race::MAX_CARS;

/// Where a player is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In the lobby, the cursor on a row (0: make a room; then the rooms).
    Lobby { row: usize },
    /// In a room, by its number.
    Room(u32),
    /// In the track editor.
    Edit,
}

/// The rooms lobbies list (no trial of a drawing), in their order,
/// with their numbers.
pub fn in_lobby(rooms: &BTreeMap<u32, Room>) -> impl Iterator<Item = (u32, &Room)> {
    (rooms.iter())
        .filter(|(_, room)| room.listed_in_lobby())
        .map(|(&r, room)| (r, room))
}

/// The race player `id` drives in, with their seat, while one runs in
/// their room.
pub fn running_mut(
    rooms: &mut BTreeMap<u32, Room>,
    place: Place,
    id: PlayerId,
) -> Option<(CarId, &mut Running)> {
    let Place::Room(r) = place else { return None };
    let run = rooms.get_mut(&r)?.running.as_mut()?;
    Some((run.seat_of(id)?, run))
}

/// A race under way in a room.
pub struct Running {
    pub race: Race,
    /// Which car each player racing drives.
    pub drivers: BTreeMap<PlayerId, CarId>,
    /// Which of the room's races this is, from 1.
    pub serial: u64,
    /// The track it runs on, as offered when it started: kept to its end
    /// though the offer changes (today's track at midnight).
    pub offered: Offered,
}

impl Running {
    /// The car `who` drives, if any.
    pub fn seat_of(&self, who: PlayerId) -> Option<CarId> {
        self.drivers.get(&who).copied()
    }

    /// Whether the race is over (`Race::over`): the host may then take
    /// the room back to its settings.
    pub fn over(&self) -> bool {
        self.race.over()
    }

    /// Takes `who` and their car out: they left. The race goes on for
    /// the others.
    pub fn leave(&mut self, who: PlayerId) {
        if let Some(car) = self.drivers.remove(&who) {
            self.race.leave(car);
        }
    }
}

/// The track a room races on: its race's own while one runs, else the
/// drawing it tries (`trial`), else `tracks`' number `track` (the last
/// one if the choice is past them).
fn offered_by<'a>(
    running: Option<&'a Running>,
    trial: Option<&'a Offered>,
    track: usize,
    tracks: &'a [Offered],
) -> &'a Offered {
    match (running, trial) {
        (Some(run), _) => &run.offered,
        (None, Some(trial)) => trial,
        (None, None) => &tracks[track.min(tracks.len() - 1)],
    }
}

/// A room.
pub struct Room {
    /// Its number in the lobby, never reused while the server runs.
    pub id: u32,
    /// The race's settings, changed by the room's creator.
    pub menu: Menu,
    /// The player who made the room and starts its races; the next
    /// member when they leave.
    pub creator: PlayerId,
    /// Everyone in the room with their name, in the order they came.
    pub members: Vec<(PlayerId, String)>,
    pub running: Option<Running>,
    /// Races started so far.
    races: u64,
    /// The medals of the room's settings, as the hub's book knows them.
    pub medals: Lookup,
    /// The key of the room's settings (track and car content ids, the
    /// model): its board's, its medals'.
    pub board: Option<keeper::LapKey>,
    /// What `medals` and `board` were last brought up to date with.
    seen: Seen,
    /// The ghost each member picked from the boards: its place (none:
    /// their own best lap's).
    pub ghosts: BTreeMap<PlayerId, Spot>,
    /// Whose ghost each driver of the race races, by name.
    ghost_names: BTreeMap<PlayerId, String>,
    /// A drawing its maker tries from the editor: the room's track, and
    /// the room is theirs alone, listed in no lobby.
    pub trial: Option<Offered>,
}

/// What a room's medals and board were last brought up to date with
/// ([`Room::refresh`]).
#[derive(Debug, Default)]
struct Seen {
    /// The settings: the track's content id, the model, the car.
    settings: Option<(String, ModelKind, usize)>,
    /// The medal book's generation.
    generation: u64,
    /// The players whose places on the board were asked for: the
    /// members, then keyed players looking at the room from the lobby
    /// (none before the board is first asked for).
    who: Option<Vec<PlayerId>>,
}

/// What of the hub a room's [`Room::refresh`] reads and asks.
pub struct Shown<'a> {
    pub book: &'a mut Book,
    pub keeper: &'a mut Keeper,
    pub tracks: &'a [Offered],
    pub cars: &'a [(String, crate::physics::car::CarSpec)],
    /// Boards changed since the last refresh.
    pub changed: &'a [keeper::LapKey],
}

impl Room {
    /// Room `id`, made by `creator` called `name`, on the offered track
    /// numbered `track`.
    pub fn new(id: u32, creator: PlayerId, name: String, track: usize) -> Room {
        Room {
            id,
            menu: Menu::new(track, ModelKind::Arcade),
            creator,
            members: vec![(creator, name)],
            running: None,
            races: 0,
            medals: Lookup::Working,
            board: None,
            seen: Seen::default(),
            ghosts: BTreeMap::new(),
            ghost_names: BTreeMap::new(),
            trial: None,
        }
    }

    /// Whether lobbies list the room (a trial of a drawing they do not).
    pub fn listed_in_lobby(&self) -> bool {
        self.trial.is_none()
    }

    /// `who` picks the next ghost: their own best lap's, then the laps
    /// at the boards' `places` in turn (`Boards::ghost_spots`), then their
    /// own again.
    pub fn next_ghost(&mut self, who: PlayerId, places: &[Spot]) {
        let next = match self.ghosts.get(&who) {
            None => places.first(),
            Some(now) => (places.iter()).skip_while(|p| *p != now).nth(1),
        };
        match next {
            Some(&p) => self.ghosts.insert(who, p),
            None => self.ghosts.remove(&who),
        };
    }

    /// The ghosts the race starting now asks for: each driver who picked
    /// a board's lap (not their own) gets its driver's name, and the
    /// identity whose lap to read, and from which board, are returned
    /// with them.
    pub fn ghosts_asked(
        &mut self,
        board: Option<&Boards>,
        identity: impl Fn(PlayerId) -> Option<String>,
    ) -> Vec<(PlayerId, String, bool)> {
        self.ghost_names.clear();
        let Some(run) = &self.running else {
            return Vec::new();
        };
        let mut asked = Vec::new();
        for (&who, &place) in &self.ghosts {
            let entry = board.and_then(|b| b.at(place));
            let Some(e) = entry.filter(|_| run.seat_of(who).is_some()) else {
                continue;
            };
            if identity(who).as_deref() == Some(e.identity.as_str()) && !place.aided {
                continue; // their own lap: the best lap's ghost already
            }
            self.ghost_names.insert(who, e.name.clone());
            asked.push((who, e.identity.clone(), place.aided));
        }
        asked
    }

    /// The ghost `who` picked, read for race number `serial`: raced from
    /// now, with its driver's name, if that race still runs.
    pub fn ghost_found(&mut self, serial: u64, who: PlayerId, lap: Lap) {
        let Some(run) = self.running.as_mut().filter(|run| run.serial == serial) else {
            return;
        };
        let (Some(car), Some(name)) = (run.seat_of(who), self.ghost_names.get(&who)) else {
            return;
        };
        if let Some(seat) = run.race.seat_mut(car) {
            seat.their_ghost = Some((name.clone(), lap));
        }
    }

    /// What the room shows of its settings, kept up: their key (the
    /// track's and car's content ids, the model) worked out when the
    /// settings or the track they choose change (today's turns at
    /// midnight; a race keeps its own, [`Running::offered`]); their medals asked of `book` then and looked up
    /// again when it learnt more; their board asked of `keeper` (with
    /// where the members and the `lookers` in the lobby stand, their key
    /// fingerprints from `identities`) then, when those players change,
    /// and when `changed` says the board did.
    pub fn refresh(
        &mut self,
        hub: Shown<'_>,
        lookers: &[PlayerId],
        identities: impl FnOnce(&[PlayerId]) -> Vec<String>,
    ) {
        let trial = self.trial.as_ref();
        let offered = offered_by(self.running.as_ref(), trial, self.menu.track, hub.tracks);
        let (model, car) = (self.menu.model, self.menu.car);
        let same = (self.seen.settings.as_ref())
            .is_some_and(|(id, m, c)| *id == offered.id && (*m, *c) == (model, car));
        if self.board.is_none() || !same {
            let setup = self.menu.setup(&offered.choice, hub.cars);
            let key = (offered.id.clone(), setup.model, setup.spec.content_id());
            self.medals = (hub.book).ask(key.clone(), &offered.choice.track, &setup.spec, true);
            self.seen = Seen {
                settings: Some((offered.id.clone(), model, car)),
                generation: hub.book.generation,
                who: None,
            };
            self.board = Some(key);
        }
        let Some(key) = self.board.clone() else {
            return;
        };
        if self.seen.generation != hub.book.generation {
            self.seen.generation = hub.book.generation;
            self.medals = hub.book.get(&key);
        }
        if let Some(run) = &mut self.running
            && run.race.medals.is_none()
        {
            run.race.set_medals(self.medals.medals());
        }
        let members = self.members.iter().map(|m| m.0);
        let who = members.chain(lookers.iter().copied());
        let same = (self.seen.who.as_ref()).is_some_and(|w| w.iter().copied().eq(who.clone()));
        if !same || hub.changed.contains(&key) {
            let who: Vec<PlayerId> = who.collect();
            hub.keeper.ask_board(key, identities(&who));
            self.seen.who = Some(who);
        }
    }

    /// The track the room's race runs on, else the offered one its
    /// settings choose ([`offered_by`]).
    pub fn offered<'a>(&'a self, tracks: &'a [Offered]) -> &'a Offered {
        offered_by(
            self.running.as_ref(),
            self.trial.as_ref(),
            self.menu.track,
            tracks,
        )
    }

    /// This room as `server` publishes it for the other servers' lobbies.
    pub fn listed(&self, server: &Published, tracks: &[Offered]) -> Listed {
        let t = &self.offered(tracks).choice;
        Listed {
            server: server.name.clone(),
            peer: server.peer.clone(),
            room: self.id,
            track: t.name.clone(),
            model: self.menu.model,
            players: self.members.len() as u32,
            seats: Room::slots(&t.track) as u32,
            racing: self.running.is_some(),
            aid: self.menu.aid,
        }
    }

    /// The cars this room's track seats.
    pub fn slots(track: &Track) -> usize {
        track.starts.len().clamp(1, MAX_SEATS)
    }

    /// Starts the race the room's settings ask for on `offered` (kept
    /// by the race, [`Running::offered`]) with `cars`: the first members
    /// (as many as the track has start slots) each on a seat, then the
    /// computer cars asked for on the slots left; `held` gives each
    /// member's held keys (with their terminal's repeat learned). The
    /// others watch. Returns the key of its laps' board. Records come
    /// later ([`Room::record_found`]): they are read off the hub.
    pub fn start(
        &mut self,
        offered: Offered,
        cars: &[(String, crate::physics::car::CarSpec)],
        hz: u32,
        held: impl Fn(PlayerId) -> Held,
    ) -> keeper::LapKey {
        let setup = self.menu.setup(&offered.choice, cars);
        let key = (offered.id.clone(), setup.model, setup.spec.content_id());
        let seated = &self.members[..self.members.len().min(Self::slots(&setup.track.track))];
        let people: Vec<Entry> = (seated.iter())
            .map(|(who, name)| Entry {
                name: Some(name.clone()),
                records: Vec::new(),
                held: held(*who),
            })
            .collect();
        let mut race = Race::start(
            &setup,
            offered.line.clone(),
            hz,
            Door::Served,
            &people,
            None,
            setup.rivals,
        );
        // The seats are the people's, in order.
        let mut drivers = BTreeMap::new();
        for (&car, (who, _)) in race.seats.keys().zip(seated) {
            drivers.insert(*who, car);
        }
        self.races += 1;
        race.set_medals(self.medals.medals());
        self.running = Some(Running {
            race,
            drivers,
            serial: self.races,
            offered,
        });
        key
    }

    /// `who`'s record, read for race number `serial`: raced against from
    /// now, if that race still runs and they drive in it.
    pub fn record_found(&mut self, serial: u64, who: PlayerId, record: Lap) {
        let Some(run) = self.running.as_mut().filter(|run| run.serial == serial) else {
            return;
        };
        let Some(car) = run.seat_of(who) else { return };
        if let Some(seat) = run.race.seat_mut(car) {
            seat.log.record_found(record);
        }
    }

    /// Whether `who`'s laps are held nowhere but the server's memory
    /// (`why`), or kept again (none): their seat in the race shows it.
    pub fn unsaved(&mut self, who: PlayerId, why: Option<&String>) {
        let Some(run) = self.running.as_mut() else {
            return;
        };
        let Some(car) = run.seat_of(who) else { return };
        if let Some(seat) = run.race.seat_mut(car) {
            seat.unsaved = why.cloned();
        }
    }

    /// `who` leaves the room (and its race); returns whether the room is
    /// empty now.
    pub fn leave(&mut self, who: PlayerId) -> bool {
        self.members.retain(|m| m.0 != who);
        if let Some(run) = &mut self.running {
            run.leave(who);
            if run.drivers.is_empty() {
                self.running = None;
            }
        }
        if self.creator == who
            && let Some(next) = self.members.first()
        {
            self.creator = next.0;
        }
        self.members.is_empty()
    }

    /// One physics tick of the race, if one runs, `now` seconds into the
    /// server's run; returns the laps that beat their driver's record (a
    /// lap from a run that ever went non-finite never does), with their
    /// ghosts.
    pub fn tick(&mut self, now: f64) -> Vec<(PlayerId, Record, Vec<[f64; 3]>)> {
        let mut laps = Vec::new();
        let Some(run) = self.running.as_mut().filter(|run| !run.over()) else {
            return laps;
        };
        run.race.tick(now);
        for (&who, &id) in &run.drivers {
            for (record, ghost) in run.race.new_records(id) {
                laps.push((who, record, ghost));
            }
        }
        laps
    }

    /// After a tick: each member's screen changed, and their camera
    /// follows the car they follow. `members` are the sessions of the
    /// players in the room (in any order), so that rooms move their own
    /// cameras each on its own thread.
    pub fn follow(&mut self, members: &mut [(PlayerId, &mut Session)]) {
        for (who, session) in members {
            session.dirty = true;
            if let Some(run) = &mut self.running {
                let mine = run.seat_of(*who);
                run.race.move_camera(mine, session);
            }
        }
    }
}
