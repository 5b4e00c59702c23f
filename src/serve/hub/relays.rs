//! The hub's side of relays (`super::super::relay`): a player joining a
//! room another server lists goes there through a relay, stays this
//! server's player meanwhile (their connection, their place in its
//! counts) and is back in this lobby when it ends.

use std::time::Instant;

use tokio::sync::mpsc::Sender;
use tokio::sync::oneshot;

use super::super::relay::Trip;
use super::super::room::{Place, PlayerId};
use super::{Hub, Link, Out};

impl Hub {
    /// Player `id` chose the other servers' room at `index` in their
    /// lobby: relayed there if its server takes relays, else told why not.
    pub(super) fn relay_to(&mut self, id: PlayerId, index: usize) {
        let Some(listed) = self.listing.elsewhere().get(index).cloned() else {
            return;
        };
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let whereto = format!("room {} on {}", listed.room, listed.host());
        let (Some(relays), Some(peer)) = (&self.relays, listed.peer) else {
            p.note = Some(format!("{whereto}: its server takes no relays"));
            return;
        };
        let ask = Trip {
            id,
            name: p.name.clone(),
            identity: p.identity.clone(),
            size: p.session.size,
            color: p.session.color,
            peer,
            room: listed.room,
        };
        p.note = Some(format!("joining {whereto}..."));
        p.session.dirty = true;
        eprintln!(
            "skid serve: {} (player {id}) joining room {} on {}",
            p.name, listed.room, listed.server
        );
        p.link = Link::To(relays.start(ask, whereto));
    }

    /// Player `id`'s relay is up: their screen is the room's server's to
    /// draw from now on, through their frames' channel, handed over.
    pub(super) fn relay_up(&mut self, id: PlayerId, frames: oneshot::Sender<Sender<Out>>) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let Link::To(relay) = &mut p.link else {
            return;
        };
        if frames.send(p.out.clone()).is_ok() {
            relay.up = true;
            p.note = None;
            eprintln!(
                "skid serve: {} (player {id}) relayed to {}",
                p.name, relay.whereto
            );
        }
    }

    /// Player `id`'s relay ended: back in this lobby, drawn whole, told
    /// why unless they only left the room.
    pub(super) fn relay_ended(&mut self, id: PlayerId, why: Option<String>, now: Instant) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let Link::To(relay) = std::mem::replace(&mut p.link, Link::Home) else {
            return;
        };
        match &why {
            Some(why) => eprintln!(
                "skid serve: {} (player {id}) back from {}: {why}",
                p.name, relay.whereto
            ),
            None => eprintln!(
                "skid serve: {} (player {id}) back from {}",
                p.name, relay.whereto
            ),
        }
        p.note = why.map(|why| format!("{}: {why}", relay.whereto));
        p.place = Place::Lobby { row: 0 };
        p.last_key = now;
        p.resized = true;
        p.clear = true;
        p.session.dirty = true;
    }
}
