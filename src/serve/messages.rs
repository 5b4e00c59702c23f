//! What the connections (and the day's clock) and the hub say to each
//! other, and the screen sizes a connection may ask for: the one
//! vocabulary both sides share, so that neither imports the other.

use std::time::Instant;

use ratatui::crossterm::event::Event;
use ratatui::layout::Size;
use tokio::sync::mpsc::Sender;
use tokio::sync::oneshot;

use crate::base::day::Day;

use super::offered::Offered;
use super::room::PlayerId;

/// What a connection tells the hub.
pub enum ToHub {
    /// A player with a terminal of `size` is in; frames go to `out`.
    Join {
        id: PlayerId,
        name: String,
        /// Their key's fingerprint; none for a guest.
        identity: Option<String>,
        size: (u16, u16),
        /// Whether their screen is in colour (`Session::color`).
        color: bool,
        /// The room they are relayed into by another server sharing the
        /// database (`super::relay`): they join it at once, and leaving
        /// it ends their session here.
        room: Option<u32>,
        out: Sender<Out>,
    },
    /// Key events from the player, as they arrived at `at`, and the
    /// bytes they were read from (for a relay, which passes the bytes on).
    Input {
        id: PlayerId,
        events: Vec<Event>,
        bytes: Vec<u8>,
        at: Instant,
    },
    Resize {
        id: PlayerId,
        size: (u16, u16),
    },
    /// The player's connection is gone.
    Leave {
        id: PlayerId,
    },
    /// The player's relay to a room on another server is up: the hub
    /// stops drawing their screen and hands the relay their frames'
    /// channel, through `frames`.
    RelayUp {
        id: PlayerId,
        frames: oneshot::Sender<Sender<Out>>,
    },
    /// The player's relay ended: they are back in this lobby, told `why`
    /// unless they only left the room.
    RelayEnded {
        id: PlayerId,
        why: Option<String>,
    },
    /// The next day's track, made ahead of midnight (`super::daily`):
    /// kept until the day turns, its medals asked for now.
    Tomorrow {
        day: Day,
        offered: Box<Offered>,
    },
    /// Midnight UTC: `day` begins, and its track is today's.
    DayTurned {
        day: Day,
    },
    /// The server is stopping: tell every player, then end.
    Shutdown,
}

/// What the hub sends a connection.
#[derive(Debug)]
pub enum Out {
    /// A frame's bytes.
    Frame(Vec<u8>),
    /// The end: give the terminal back, say this, close.
    Close(String),
}

/// A terminal size as ratatui's.
pub fn to_size((w, h): (u16, u16)) -> Size {
    let (w, h) = crate::race::session::screen_size(w.into(), h.into());
    Size::new(w, h)
}
