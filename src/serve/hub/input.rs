//! What a player's keys do on the server: driving keys to their seat,
//! with the same held-key inference as local play; commands to the lobby,
//! their room or their race.

use std::time::Instant;

use ratatui::crossterm::event::Event;

use crate::input::keys::Command;
use crate::race::person::Person;
use crate::race::session::{self, Read};

use super::super::keeper::{Ask, Wants};
use super::super::room::{self, Place, PlayerId, Room};
use super::super::rows::LobbyRow;
use super::Hub;
use crate::track::draft::Draft;

impl Hub {
    /// One key event (or focus change) from player `id`.
    pub(super) fn input(&mut self, id: PlayerId, ev: Event, at: Instant) {
        let now = self.secs(at);
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        p.session.dirty = true;
        let k = match ev {
            Event::Key(k) => k,
            Event::FocusLost => {
                let seat = room::running_mut(&mut self.rooms, p.place, id);
                let seat = seat.map(|(car, run)| (&mut run.race, car));
                Person {
                    session: &mut p.session,
                    seat,
                }
                .focus_lost();
                return;
            }
            _ => return,
        };
        p.last_key = at;
        p.urgent = true;
        let racing = room::running_mut(&mut self.rooms, p.place, id);
        let Read::Key {
            drive,
            release,
            id: key,
            command,
        } = session::read(&k, racing.is_none())
        else {
            p.clear = true;
            return;
        };
        // Keys drive the player's car while it races and their help is
        // closed ([`Person::key`]).
        let seat = racing.map(|(car, run)| (&mut run.race, car));
        let drives = seat
            .as_ref()
            .is_some_and(|(race, car)| !race.finished(*car));
        let drives = drives && !p.session.help;
        Person {
            session: &mut p.session,
            seat,
        }
        .key(drive, release, key, now, drives);
        match command {
            Some(cmd @ (Command::Quit | Command::Back)) => self.command(id, cmd),
            other => {
                // Any other key pressed: the player stays in the race.
                if let Some(p) = self.players.get_mut(&id).filter(|_| !release) {
                    p.session.leaving = false;
                }
                if let Some(cmd) = other {
                    self.command(id, cmd);
                }
            }
        }
    }

    /// One command from player `id`.
    fn command(&mut self, id: PlayerId, cmd: Command) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let Some(cmd) = p.session.through_help(cmd) else {
            return;
        };
        match p.place {
            Place::Lobby { row } => self.lobby_command(id, row, cmd),
            Place::Room(r) => self.room_command(id, r, cmd),
            Place::Edit => {}
        }
    }

    /// q or Ctrl-C: out of a room to the lobby; in the lobby, goodbye.
    fn quit(&mut self, id: PlayerId) {
        match self.players.get(&id).map(|p| p.place) {
            Some(Place::Room(_)) => self.back_to_lobby(id),
            Some(Place::Lobby { .. }) => self.drop_player(id, Some("bye")),
            Some(Place::Edit) | None => {}
        }
    }

    fn lobby_command(&mut self, id: PlayerId, row: usize, cmd: Command) {
        let rows = self.lobby_rows(id);
        let count = rows.count();
        if let Some(p) = self.players.get_mut(&id) {
            p.note = None;
        }
        let name = || {
            self.players
                .get(&id)
                .map(|p| p.name.clone())
                .unwrap_or_default()
        };
        let place = match (cmd, rows.at(row)) {
            (Command::Up, _) => Place::Lobby {
                row: (row + count - 1) % count,
            },
            (Command::Down, _) => Place::Lobby {
                row: (row + 1) % count,
            },
            (Command::Enter, Some(LobbyRow::Build)) => {
                let (w, h) = super::build::NEW;
                return self.open_editor(id, Draft::new(w, h), "New track", false);
            }
            (Command::Enter, Some(LobbyRow::Mine(i))) => return self.open_mine(id, i),
            (
                Command::Enter,
                Some(made @ (LobbyRow::Today | LobbyRow::Make | LobbyRow::Track(_))),
            ) => {
                // Today's track is the first offered; else the first
                // after the days'; a player's published track after the
                // server's own.
                let track = match made {
                    LobbyRow::Track(i) => match self.players_track(id, i) {
                        Some(t) => t,
                        None => return,
                    },
                    LobbyRow::Make if rows.today => super::super::daily::SLOTS,
                    _ => 0,
                };
                let r = self.next_room;
                self.next_room += 1;
                self.rooms.insert(r, Room::new(r, id, name(), track));
                eprintln!("skid serve: room {r} made by player {id}");
                self.lobby_changed();
                Place::Room(r)
            }
            (Command::Enter, Some(LobbyRow::Elsewhere(i))) => return self.relay_to(id, i),
            (Command::Enter, Some(LobbyRow::Here(i))) => {
                let name = name();
                let Some((r, _)) = super::super::room::in_lobby(&self.rooms).nth(i) else {
                    return;
                };
                let Some(room) = self.rooms.get_mut(&r) else {
                    return;
                };
                room.members.push((id, name));
                self.lobby_changed();
                Place::Room(r)
            }
            (Command::Quit, _) => return self.quit(id),
            _ => return,
        };
        if let Some(p) = self.players.get_mut(&id) {
            p.place = place;
            p.clear = true;
        }
    }

    fn room_command(&mut self, id: PlayerId, r: u32, cmd: Command) {
        if matches!(cmd, Command::Quit | Command::Back) {
            // Out of a race the others race on only at a second q or Esc.
            let racing = self.rooms.get(&r).and_then(|room| room.running.as_ref());
            let seated = racing.is_some_and(|run| run.seat_of(id).is_some() && !run.over());
            let p = self.players.get_mut(&id);
            if seated && p.is_some_and(|p| !p.session.leave()) {
                return;
            }
            return self.back_to_lobby(id);
        }
        let Some(room) = self.rooms.get_mut(&r) else {
            return;
        };
        let tracks = self.tracks.len();
        let cars = self.cars.len() + 1;
        let own = (self.tracks.get(room.menu.track)).map_or(1, |t| t.choice.track.laps);
        match &mut room.running {
            Some(run) if run.over() && cmd == Command::Enter && room.creator == id => {
                room.running = None;
            }
            // The only person racing: r starts the race again at once
            // (anyone watching takes a seat in it).
            Some(run)
                if cmd == Command::Restart
                    && run.race.people() == 1
                    && run.seat_of(id).is_some() =>
            {
                return self.start_race(r);
            }
            Some(run) if cmd == Command::NextCar => {
                if let Some(p) = self.players.get_mut(&id) {
                    run.race.watch_next(run.seat_of(id), &mut p.session);
                }
            }
            Some(run) => {
                if let Some(i) = run.seat_of(id) {
                    run.race.seat_command(i, cmd);
                }
            }
            None if cmd == Command::ToggleGhost => {
                let board = room.board.as_ref().and_then(|k| self.keeper.boards.get(k));
                let identity = |m| self.players.get(m).and_then(|p| p.identity.clone());
                let mates: Vec<String> = (room.members.iter())
                    .filter(|(m, _)| *m != id)
                    .filter_map(|(m, _)| identity(m))
                    .collect();
                let mine = identity(&id);
                let places =
                    (board.map(|b| b.ghost_spots(mine.as_deref(), &mates))).unwrap_or_default();
                room.next_ghost(id, &places);
            }
            None if room.creator != id => {}
            None if cmd == Command::Enter => return self.start_race(r),
            None => {
                room.menu.apply(cmd, tracks, cars, own);
            }
        }
        self.lobby_changed();
    }

    /// Starts room `r`'s race on its settings, each member who can seated
    /// (a race already running there is dropped: a restart).
    pub(super) fn start_race(&mut self, r: u32) {
        let Some(room) = self.rooms.get_mut(&r) else {
            return;
        };
        let (players, hz) = (&self.players, self.settings.hz);
        // Each driver's keys (their terminal's repeat learned): from the
        // race this one replaces, else from the room's screen.
        let before = room.running.take();
        let seat_held = |d| {
            let run = before.as_ref()?;
            Some(run.race.seat(run.seat_of(d)?)?.held.clone())
        };
        // The track as offered now, the race's own to its end.
        let offered = room.offered(&self.tracks).clone();
        let name = offered.choice.name.clone();
        let key = room.start(offered, &self.cars, hz, |d| {
            seat_held(d)
                .or_else(|| players.get(&d).map(|p| p.session.held.clone()))
                .unwrap_or_default()
        });
        // Each keyed driver's record, read off this thread.
        if let Some(run) = &room.running {
            for &who in run.drivers.keys() {
                let Some(identity) = players.get(&who).and_then(|p| p.identity.as_deref()) else {
                    continue;
                };
                let ask = Ask {
                    room: r,
                    race: run.serial,
                    player: who,
                    wants: Wants::Records,
                };
                self.keeper.ask(identity, key.clone(), hz, ask);
            }
        }
        // The ghosts picked from the board, read off this thread too.
        let board = room.board.as_ref().and_then(|k| self.keeper.boards.get(k));
        let identity = |who| players.get(&who)?.identity.clone();
        let serial = room.running.as_ref().map_or(0, |run| run.serial);
        for (who, whose, aided) in room.ghosts_asked(board, identity) {
            let ask = Ask {
                room: r,
                race: serial,
                player: who,
                wants: Wants::Ghost { aided },
            };
            self.keeper.ask(&whose, key.clone(), hz, ask);
        }
        for (m, _) in &room.members {
            if let Some(p) = self.players.get_mut(m) {
                p.session.stop_watching();
            }
        }
        eprintln!(
            "skid serve: room {r} races on {name} with {}",
            crate::base::diag::count(
                room.running.as_ref().map_or(0, |run| run.drivers.len()),
                "player"
            )
        );
        self.lobby_changed();
    }
}
