//! The lobby's rows, top to bottom: today's track (where the server
//! offers one), making a room, this server's rooms in the order they
//! were made, the other servers' rooms; then the tracks other players
//! published, the player's own tracks, and building a track, last, so
//! that ↑ from the top reaches it at once (docs/SERVE.md, "Lobby, rooms,
//! races"). One reading of a row's number for the keys, the boards and
//! the screen; the rows differ from player to player only in the tracks
//! (a player's own are theirs to see).

/// What a row of the lobby is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyRow {
    /// Makes a room on today's track.
    Today,
    /// Makes a room on the first of the other tracks.
    Make,
    /// This server's room, by its place in the list.
    Here(usize),
    /// Another server's room, by its place in their list.
    Elsewhere(usize),
    /// Makes a room on another player's published track, by its place
    /// among those.
    Track(usize),
    /// Opens one of the player's own tracks in the editor.
    Mine(usize),
    /// Opens the track editor on a new track.
    Build,
}

use std::collections::BTreeMap;

use super::keeper::PlayersTrack;
use super::room::{Room, in_lobby};

/// The published tracks a player keyed `identity` sees in their lobby
/// (another maker's: their own are their `Mine` rows), each with its
/// place among all of them.
pub fn theirs<'a>(
    published: &'a [PlayersTrack],
    identity: Option<&'a str>,
) -> impl Iterator<Item = (usize, &'a PlayersTrack)> {
    (published.iter().enumerate()).filter(move |(_, t)| Some(t.shelved.owner.as_str()) != identity)
}

/// How many rows of a kind there are, and which is the `n`-th.
type Kind = (usize, fn(usize) -> LobbyRow);

/// How many rows of each kind the lobby has.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rows {
    /// Whether the server offers today's track.
    pub today: bool,
    /// The other players' published tracks.
    pub tracks: usize,
    /// The player's own tracks.
    pub mine: usize,
    /// This server's rooms.
    pub here: usize,
    /// The other servers' rooms.
    pub elsewhere: usize,
}

impl Rows {
    /// The rows of the lobby of a player keyed `identity` (none: a
    /// guest) who keeps `mine` tracks, where today's track is offered
    /// or not, `published` are the players' tracks, `rooms` this
    /// server's and `elsewhere` rooms on the others.
    pub fn new(
        today: bool,
        published: &[PlayersTrack],
        identity: Option<&str>,
        mine: usize,
        rooms: &BTreeMap<u32, Room>,
        elsewhere: usize,
    ) -> Rows {
        Rows {
            today,
            tracks: theirs(published, identity).count(),
            mine,
            here: in_lobby(rooms).count(),
            elsewhere,
        }
    }

    /// The rows above the rooms.
    pub fn top(&self) -> usize {
        1 + usize::from(self.today)
    }

    /// The rows below the rooms.
    pub fn bottom(&self) -> usize {
        self.tracks + self.mine + 1
    }

    /// All the rows.
    pub fn count(&self) -> usize {
        self.top() + self.here + self.elsewhere + self.bottom()
    }

    /// What row number `row` is, if there is one.
    pub fn at(&self, row: usize) -> Option<LobbyRow> {
        let mut row = row;
        if self.today {
            if row == 0 {
                return Some(LobbyRow::Today);
            }
            row -= 1;
        }
        let kinds: [Kind; 6] = [
            (1, |_| LobbyRow::Make),
            (self.here, LobbyRow::Here),
            (self.elsewhere, LobbyRow::Elsewhere),
            (self.tracks, LobbyRow::Track),
            (self.mine, LobbyRow::Mine),
            (1, |_| LobbyRow::Build),
        ];
        for (n, kind) in kinds {
            if row < n {
                return Some(kind(row));
            }
            row -= n;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row is one thing, in the order the lobby shows them, with
    /// today's track or without, with tracks or without.
    #[test]
    fn rows_read_top_to_bottom() {
        use LobbyRow::*;
        let with = Rows {
            today: true,
            tracks: 2,
            mine: 1,
            here: 2,
            elsewhere: 1,
        };
        let all: Vec<_> = (0..=with.count()).map(|r| with.at(r)).collect();
        let expected = [
            Today,
            Make,
            Here(0),
            Here(1),
            Elsewhere(0),
            Track(0),
            Track(1),
            Mine(0),
            Build,
        ];
        assert_eq!(all[..9], expected.map(Some));
        assert_eq!(all[9], None);
        assert_eq!((with.top(), with.bottom()), (2, 4));
        let without = Rows {
            today: false,
            tracks: 0,
            mine: 0,
            ..with
        };
        assert_eq!(without.at(0), Some(Make));
        assert_eq!(without.at(1), Some(Here(0)));
        assert_eq!(without.at(4), Some(Build));
        assert_eq!(without.count(), 5);
    }
}
