//! The lobby's listing across servers: this server's rooms as it
//! publishes them for the others sharing its database, and their rooms
//! as it last read them. The hub owns it; the records' thread only
//! carries it to and from the database ([`Keeper::publish`],
//! [`super::keeper::Polled::elsewhere`]).

use super::db::Listed;
use super::keeper::Keeper;

/// What this server publishes its rooms under for the others sharing its
/// database: its name (host and listen address) and where it takes their
/// relays, if it does (`--peer`).
#[derive(Debug, Clone)]
pub struct Published {
    pub name: String,
    pub peer: Option<String>,
}

/// This server's rooms as published and the other servers' as read.
#[derive(Debug, Default)]
pub struct Listing {
    /// The name this server publishes under (none: a server alone, which
    /// publishes nothing and reads nothing).
    pub server: Option<Published>,
    /// The rooms published last (none before the first time: even no
    /// rooms are published, which starts the reading of the others').
    published: Option<Vec<Listed>>,
    /// The rooms open on the other servers, as last read (none while the
    /// database does not answer).
    elsewhere: Vec<Listed>,
}

impl Listing {
    /// A listing publishing under `server`, or none for a server alone.
    pub fn new(server: Option<Published>) -> Listing {
        Listing {
            server,
            ..Listing::default()
        }
    }

    /// Publishes this server's rooms, as `listed` lists them under its
    /// name, through `keeper` if they changed since last time.
    pub fn publish(&mut self, listed: impl FnOnce(&Published) -> Vec<Listed>, keeper: &mut Keeper) {
        let Some(server) = &self.server else { return };
        let rooms = listed(server);
        if self.published.as_ref() != Some(&rooms) {
            keeper.publish(&server.name, rooms.clone());
            self.published = Some(rooms);
        }
    }

    /// Takes the other servers' rooms as just read.
    pub fn heard(&mut self, rooms: Vec<Listed>) {
        self.elsewhere = rooms;
    }

    /// The other servers' rooms, in the lobby's order.
    pub fn elsewhere(&self) -> &[Listed] {
        &self.elsewhere
    }
}
