//! One player as the hub holds them: who they are, where, their screen's
//! frames, and their link to the other servers sharing the database.

use std::sync::mpsc::Receiver;
use std::time::Instant;

use tokio::sync::mpsc::Sender;

use crate::console::{Frames, Sink};
use crate::race::edit::Editor;
use crate::race::session::Session;

use super::super::db::Shelved;
use super::super::offered::Offered;

use super::super::relay::Relay;
use super::super::room::Place;
use super::Out;

/// One connected player.
pub struct Player {
    pub name: String,
    pub identity: Option<String>,
    /// The person at this screen, as local play has one: help, screen
    /// size, and keys held outside a race (where the terminal's repeat is
    /// learned, carried into the player's seat).
    pub session: Session,
    pub place: Place,
    pub(super) out: Sender<Out>,
    /// Where their frames are drawn, into `sink`.
    pub(super) frames: Frames<Sink>,
    /// Whether the terminal was resized (to any size, its own too) since
    /// `frames` were made: they are made again, and drawn whole, at the
    /// player's next frame.
    pub(super) resized: bool,
    pub(super) sink: Sink,
    pub(super) last_key: Instant,
    pub(super) clear: bool,
    /// The seconds left before an idle player is cut off, as their screen
    /// shows them (`idle`).
    pub(super) idle_shown: Option<u64>,
    /// A key came since their last frame: it is drawn as soon as the
    /// next physics step has applied it ([`super::Hub::urgent_frames`]).
    pub(super) urgent: bool,
    /// When their last frame drawn for a key was.
    pub(super) urgent_at: Option<Instant>,
    /// Whether they are relayed to or from another server.
    pub(super) link: Link,
    /// A line for them in the lobby (why a relay ended), until their
    /// next key there.
    pub note: Option<String>,
    /// What they build, where they are in the editor or trying their
    /// drawing from it ([`super::build`]).
    pub build: Option<Box<Builder>>,
    /// Their own tracks on the server, as last read.
    pub shelf: Vec<Shelved>,
    /// The mouse to turn on or off with their next frame (the editor
    /// reads it; nothing else does).
    pub(super) mouse: Option<bool>,
}

/// A player's editor, and their drawing on its way to a room of their
/// own to try it (its racing line worked out off the hub).
pub struct Builder {
    pub editor: Editor,
    pub(super) trying: Option<Receiver<Result<Offered, String>>>,
}

/// A player's link to the other servers sharing the database.
pub(super) enum Link {
    /// None: a player of this server, in its lobby or its rooms.
    Home,
    /// Relayed to a room on another server (or on their way there): this
    /// hub only passes their bytes on.
    To(Relay),
    /// Relayed here by another server, into a room: leaving it ends their
    /// session ([`super::LEFT_ROOM`]); there is no lobby here for them.
    Here,
}
