//! Each player's frame: drawn on every core, each screen at a rate its
//! size allows (the screen budget), sent through its connection's channel
//! of one frame (docs/SERVE.md, "Input and frames").
//!
//! Drawing and diffing cost about the same for every cell of a screen, so
//! one 500x200 watcher costs as much as 52 racers at 80x24. A screen of up
//! to [`FULL_RATE_CELLS`] gets every frame; a larger one every `n`-th, `n`
//! its cells over that (a 500x200 screen: every 9th, 3.3 frames a second
//! at 30): whoever opens a huge terminal sees a slower picture, and
//! nobody else does. A resize takes effect at the player's next frame,
//! whose buffers are made then, once, however many resizes came before
//! it.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use tokio::sync::mpsc::error::TrySendError;

use crate::console::Frames;
use crate::physics::car::CarSpec;

use super::super::db::{Boards, Listed};
use super::super::keeper::{Best, LapKey, PlayersTrack};
use super::super::messages::to_size;
use super::super::offered::Offered;
use super::super::room::{Place, PlayerId, Room};
use super::super::screen;
use super::{Hub, Out, Player, idle};

/// The cells a screen may have and still get every frame: 200x60.
pub const FULL_RATE_CELLS: u32 = 12_000;

/// Frame turns per frame drawn for a screen of `size` (columns, rows):
/// 1 up to [`FULL_RATE_CELLS`], then one more for each such share.
pub fn stride(size: (u16, u16)) -> u32 {
    let cells = u32::from(size.0) * u32::from(size.1);
    cells.div_ceil(FULL_RATE_CELLS).max(1)
}

/// Whether a screen of `size` is past the budget's full rate: its
/// buffers are large enough that their memory is worth giving back.
pub fn huge(size: (u16, u16)) -> bool {
    stride(size) > 1
}

/// Gives the memory freed by a huge screen's buffers (two 500x200 buffers
/// are about 10 MB) back to the system: the allocator keeps freed memory
/// for reuse otherwise, and a server would stay at its largest size.
pub fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// What every player's frame reads of the hub.
struct Shared<'a> {
    rooms: &'a BTreeMap<u32, Room>,
    listed: screen::LobbyRows,
    tracks: &'a [Offered],
    /// Whether `tracks` begins with today's track.
    today: bool,
    cars: &'a [(String, CarSpec)],
    board: &'a BTreeMap<String, Best>,
    boards: &'a HashMap<LapKey, Boards>,
    /// Whether the database answers.
    online: bool,
    /// The rooms open on the other servers sharing the database.
    elsewhere: &'a [Listed],
    idle: Duration,
    /// The newest key pressed in each room, by anyone in it.
    rooms_last_key: HashMap<u32, Instant>,
    /// Frame turns so far.
    turn: u64,
    /// Whether only players with a key to show are drawn.
    urgent: bool,
    /// Whether a player's huge buffers were let go this turn (their
    /// memory given back after it, once).
    freed: AtomicBool,
    /// The tracks players published, and the lobby's line for each.
    published: &'a [PlayersTrack],
    track_lines: &'a [String],
}

/// Why a player is taken off the server after a frame turn (none: their
/// connection is gone, nothing to tell).
type Gone = (PlayerId, Option<&'static str>);

/// The least time between two frames of one player: keys drawn at once
/// ([`Hub::urgent_frames`]) never make more than 60 a second, however fast
/// a terminal repeats.
pub const MIN_FRAME_GAP: Duration = Duration::from_micros(16_667);

/// Frame turns between two looks at whether the rooms changed for the
/// other servers' lobbies (a quarter second at 30 fps).
const PUBLISH_TURNS: u64 = 8;

impl Hub {
    /// Sends the last words still waiting (`leaving::Closing`), then draws
    /// and sends each player's frame whose screen changed and whose turn
    /// it is, on every core, and disconnects idle players and players
    /// whose connection is gone; every [`PUBLISH_TURNS`] turns,
    /// publishes the rooms if they changed (a race ended, a player left)
    /// where nothing said so at once.
    pub fn frames(&mut self, now: Instant) {
        self.closing.retry(now);
        self.draw_frames(now, false);
        self.turns += 1;
        if self.turns.is_multiple_of(PUBLISH_TURNS) {
            self.publish_rooms();
        }
    }

    /// Draws and sends the frames of the players who pressed a key since
    /// their last one, now (after the physics step that applied it), at
    /// most one each [`MIN_FRAME_GAP`]: a key shows within a step, not
    /// up to a frame later.
    pub fn urgent_frames(&mut self, now: Instant) {
        if self.players.values().any(|p| p.urgent_due(now)) {
            self.draw_frames(now, true);
        }
    }

    /// [`Hub::frames`]' work: every player's turn, or (`urgent`) only the
    /// players with a key to show.
    fn draw_frames(&mut self, now: Instant, urgent: bool) {
        let shared = Shared {
            rooms: &self.rooms,
            listed: screen::LobbyRows::new(),
            tracks: &self.tracks,
            today: self.daily.is_some(),
            cars: &self.cars,
            board: &self.keeper.board,
            boards: &self.keeper.boards,
            online: self.keeper.online,
            elsewhere: self.listing.elsewhere(),
            idle: self.settings.idle,
            rooms_last_key: idle::rooms_last_key(self.players.values()),
            turn: self.turns,
            urgent,
            freed: AtomicBool::new(false),
            published: &self.players_tracks,
            track_lines: &self.track_lines,
        };
        // A player relayed to another server's room has their screen, and
        // idle time, drawn and kept there.
        let players: Vec<(PlayerId, &mut Player)> = (self.players.iter_mut())
            .filter(|(_, p)| !p.relayed_away())
            .map(|(&id, p)| (id, p))
            .collect();
        let gone: Vec<Gone> = (players.into_par_iter())
            .filter_map(|(id, p)| p.frame(id, now, &shared))
            .collect();
        if shared.freed.into_inner() {
            give_back_memory();
        }
        for (id, why) in gone {
            self.drop_player(id, why);
        }
    }
}

impl Player {
    /// Whether their screen is another server's to draw: relayed there.
    fn relayed_away(&self) -> bool {
        matches!(&self.link, super::Link::To(relay) if relay.up)
    }

    /// Whether a key of theirs waits to be drawn, and may be now: at most
    /// one such frame each [`MIN_FRAME_GAP`].
    fn urgent_due(&self, now: Instant) -> bool {
        self.urgent
            && self
                .urgent_at
                .is_none_or(|at| now.saturating_duration_since(at) >= MIN_FRAME_GAP)
    }

    /// Whether player `id`'s screen, changed, is drawn in this turn: in
    /// a turn for keys, if a key of theirs waits (a large screen never);
    /// else in the turns of its stride, and not just after one drawn for
    /// a key.
    fn turn_due(&self, id: PlayerId, now: Instant, hub: &Shared<'_>) -> bool {
        if hub.urgent {
            return self.urgent_due(now) && stride(self.session.size) == 1;
        }
        // A large screen's turns spread over the turns by its id, so
        // that many of them never all draw at once; and one drawn for a
        // key just now waits for the next turn.
        (hub.turn + id).is_multiple_of(u64::from(stride(self.session.size)))
            && (self.urgent_at).is_none_or(|at| now.saturating_duration_since(at) >= MIN_FRAME_GAP)
    }

    fn frame(&mut self, id: PlayerId, now: Instant, hub: &Shared<'_>) -> Option<Gone> {
        let last = match self.place {
            Place::Room(r) => hub.rooms_last_key.get(&r).copied(),
            Place::Lobby { .. } | Place::Edit => None,
        };
        let quiet = now.saturating_duration_since(last.unwrap_or(self.last_key).max(self.last_key));
        if quiet >= hub.idle {
            return Some((id, Some("idle too long: disconnected")));
        }
        // Warned (with a bell as it starts), the count shown each second;
        // once a key ends it, the screen is drawn whole again.
        let left = idle::left(quiet, hub.idle);
        let bell = left.is_some() && self.idle_shown.is_none();
        if left != self.idle_shown {
            self.clear |= left.is_none();
            self.idle_shown = left;
            self.session.dirty = true;
        }
        if !self.session.dirty {
            return None;
        }
        if !self.turn_due(id, now, hub) {
            return None;
        }
        let permit = match self.out.try_reserve() {
            Ok(permit) => permit,
            // Still sending the last frame: this one is drawn later.
            Err(TrySendError::Full(())) => return None,
            Err(TrySendError::Closed(())) => return Some((id, None)),
        };
        if std::mem::take(&mut self.resized) {
            // Fresh buffers at the new size (a terminal's resize keeps
            // the old ones' memory), drawn whole.
            if huge(self.frames.size()) {
                hub.freed.store(true, Ordering::Relaxed);
            }
            (self.frames, _) = Frames::new(self.sink.clone(), to_size(self.session.size));
            self.clear = true;
        }
        let drawn = catch_unwind(AssertUnwindSafe(|| {
            if self.clear {
                self.frames.redraw_all()?;
                self.clear = false;
            }
            let view = screen::View {
                id,
                name: &self.name,
                keyed: self.identity.is_some(),
                place: self.place,
                session: &self.session,
                rooms: hub.rooms,
                listed: &hub.listed,
                tracks: hub.tracks,
                today: hub.today,
                cars: hub.cars,
                board: hub.board,
                boards: hub.boards,
                online: hub.online,
                elsewhere: hub.elsewhere,
                identity: self.identity.as_deref(),
                idle_left: self.idle_shown,
                note: self.note.as_deref(),
                editor: self.build.as_deref().map(|b| &b.editor),
                published: hub.published,
                track_lines: hub.track_lines,
                shelf: &self.shelf,
            };
            self.frames
                .frame(|buf, area, before| view.draw(buf, area, before))
        }));
        match drawn {
            Ok(Ok(())) => {
                self.session.dirty = false;
                if std::mem::take(&mut self.urgent) && hub.urgent {
                    self.urgent_at = Some(now);
                }
                permit.send(Out::Frame(framed(
                    self.sink.take(),
                    self.mouse.take(),
                    bell,
                )));
                None
            }
            _ => Some((id, Some("the server failed to draw your screen"))),
        }
    }
}

/// A frame's bytes as sent: the mouse turned on or off before them
/// where asked (the editor reads it; nothing else does), a bell after
/// them if `bell`.
fn framed(mut bytes: Vec<u8>, mouse: Option<bool>, bell: bool) -> Vec<u8> {
    if let Some(on) = mouse {
        use crate::console::{MOUSE_OFF, MOUSE_ON};
        let switch = if on { MOUSE_ON } else { MOUSE_OFF };
        bytes.splice(0..0, switch.iter().copied());
    }
    if bell {
        bytes.push(0x07);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_gets_frames_at_a_rate_its_size_allows() {
        assert_eq!(stride((80, 24)), 1);
        assert_eq!(stride((200, 60)), 1);
        assert_eq!(stride((201, 60)), 2);
        assert_eq!(stride((500, 200)), 9);
        assert_eq!(stride((0, 0)), 1);
        assert_eq!(stride((u16::MAX, u16::MAX)), 357_904);
    }
}
