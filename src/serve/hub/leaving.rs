//! Players leaving: out of their room, off the server, and the last
//! word to their connection, which a frame still being sent does not
//! lose.

use std::time::{Duration, Instant};

use tokio::sync::mpsc::Sender;
use tokio::sync::mpsc::error::TrySendError;

use super::super::room::{Place, PlayerId};
use super::{Hub, LEFT_ROOM, Link, Out, frames};

/// How long a last word waits for its connection's channel of one frame
/// to have room (a client that stopped reading is closed without it).
const LAST_WORD: Duration = Duration::from_secs(2);

/// The last words not sent yet: each player's channel was full (their
/// last frame still being sent) when they were taken off; tried again
/// each frame turn, and at shutdown.
#[derive(Default)]
pub(super) struct Closing {
    waiting: Vec<(Sender<Out>, String, Instant)>,
}

impl Closing {
    /// Tells the connection behind `out` to close saying `why`, now or as
    /// soon as its channel has room, within [`LAST_WORD`] of `now`.
    pub(super) fn tell(&mut self, out: &Sender<Out>, why: &str, now: Instant) {
        if let Err(TrySendError::Full(_)) = out.try_send(Out::Close(why.to_string())) {
            self.waiting
                .push((out.clone(), why.to_string(), now + LAST_WORD));
        }
    }

    /// Tries the words still waiting again at `now`.
    pub(super) fn retry(&mut self, now: Instant) {
        self.waiting.retain(|(out, why, until)| {
            matches!(
                out.try_send(Out::Close(why.clone())),
                Err(TrySendError::Full(_))
            ) && now < *until
        });
    }

    /// Whether no word waits.
    pub(super) fn done(&self) -> bool {
        self.waiting.is_empty()
    }
}

impl Hub {
    /// Takes a player off the server: out of their room, and their
    /// connection closed with `why` if given.
    pub fn drop_player(&mut self, id: PlayerId, why: Option<&str>) {
        self.leave_room(id);
        if let Some(p) = self.players.remove(&id) {
            if let Some(why) = why {
                self.closing.tell(&p.out, why, Instant::now());
            }
            // Why, for the operator: quit, idle, shutting down; none
            // when the connection went.
            match why {
                Some(why) => eprintln!("skid serve: {} (player {id}) left ({why})", p.name),
                None => eprintln!("skid serve: {} (player {id}) left", p.name),
            }
            if frames::huge(p.frames.size()) {
                drop(p);
                frames::give_back_memory();
            }
        }
        self.lobby_changed();
    }

    /// Takes `id` out of their room to the lobby, or, relayed here by
    /// another server, off this one (back to that server's lobby).
    pub(super) fn back_to_lobby(&mut self, id: PlayerId) {
        self.leave_room(id);
        if self
            .players
            .get(&id)
            .is_some_and(|p| matches!(p.link, Link::Here))
        {
            self.drop_player(id, Some(LEFT_ROOM));
        }
    }

    /// Takes `id` out of the room they are in, if any.
    pub(super) fn leave_room(&mut self, id: PlayerId) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let Place::Room(r) = p.place else { return };
        // Out of a trial of their drawing: back to the editor.
        p.place = match p.build {
            Some(_) => {
                p.mouse = Some(true);
                p.clear = true;
                Place::Edit
            }
            None => Place::Lobby { row: 0 },
        };
        p.session.leaving = false;
        if let Some(room) = self.rooms.get_mut(&r)
            && room.leave(id)
        {
            self.rooms.remove(&r);
        }
        self.lobby_changed();
    }

    /// At shutdown: the last words still waiting, for up to a second.
    pub(super) fn last_words(&mut self) {
        let end = Instant::now() + Duration::from_secs(1);
        while !self.closing.done() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(5));
            self.closing.retry(Instant::now());
        }
    }
}
