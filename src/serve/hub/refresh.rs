//! What the hub learns each tick and shows: records and ghosts read for
//! races that started, and each room's medals and board kept up with its
//! settings and with who looks at it.

use std::collections::BTreeMap;

use super::super::keeper::Wants;
use super::super::room::{Place, PlayerId, Shown, in_lobby};
use super::super::rows::LobbyRow;
use super::Hub;

impl Hub {
    /// Records read for races that started, each to its room: records to
    /// beat, or the ghost a player picked.
    pub(super) fn records_found(
        &mut self,
        records: Vec<(super::super::keeper::Ask, Vec<crate::race::timing::Lap>)>,
    ) {
        for (ask, laps) in records {
            let Some(room) = self.rooms.get_mut(&ask.room) else {
                continue;
            };
            for lap in laps {
                match ask.wants {
                    Wants::Ghost { .. } => room.ghost_found(ask.race, ask.player, lap),
                    Wants::Records => room.record_found(ask.race, ask.player, lap),
                }
            }
        }
    }

    /// Each room's medals and board, for its settings ([`Room::refresh`]):
    /// `changed` names the boards changed since the last time.
    pub(super) fn refresh_rooms(&mut self, changed: &[super::super::keeper::LapKey]) {
        if self.medals.poll() {
            self.relist_tracks();
            self.lobby_changed();
        }
        let players = &self.players;
        // Keyed players in the lobby whose cursor is on a room, by the
        // room's row: the board the lobby shows them has their place.
        let listed: Vec<u32> = in_lobby(&self.rooms).map(|(r, _)| r).collect();
        let mut lookers: BTreeMap<u32, Vec<PlayerId>> = BTreeMap::new();
        for (&id, p) in players {
            if let Place::Lobby { row } = p.place
                && let Some(LobbyRow::Here(i)) = self.lobby_rows(id).at(row)
                && let Some(&r) = listed.get(i)
                && p.identity.is_some()
            {
                lookers.entry(r).or_default().push(id);
            }
        }
        for (r, room) in &mut self.rooms {
            let lookers = lookers.get(r).map_or(&[][..], Vec::as_slice);
            let shown = Shown {
                book: &mut self.medals,
                keeper: &mut self.keeper,
                tracks: &self.tracks,
                cars: &self.cars,
                changed,
            };
            room.refresh(shown, lookers, |who| {
                (who.iter())
                    .filter_map(|m| players.get(m)?.identity.clone())
                    .collect()
            });
        }
    }
}
