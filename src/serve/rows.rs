//! The lobby's rows, top to bottom: today's track (where the server
//! offers one), making a room, this server's rooms in the order they were
//! made, then the other servers' rooms (docs/SERVE.md, "Lobby, rooms,
//! races"). One reading of a row's number for the keys, the boards and
//! the screen.

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
}

/// How many rows of each kind the lobby has.
#[derive(Debug, Clone, Copy)]
pub struct Rows {
    /// Whether the server offers today's track.
    pub today: bool,
    /// This server's rooms.
    pub here: usize,
    /// The other servers' rooms.
    pub elsewhere: usize,
}

impl Rows {
    /// The rows above the rooms.
    pub fn top(&self) -> usize {
        1 + usize::from(self.today)
    }

    /// All the rows.
    pub fn count(&self) -> usize {
        self.top() + self.here + self.elsewhere
    }

    /// What row number `row` is, if there is one.
    pub fn at(&self, row: usize) -> Option<LobbyRow> {
        let Some(room) = row.checked_sub(self.top()) else {
            return Some(if self.today && row == 0 {
                LobbyRow::Today
            } else {
                LobbyRow::Make
            });
        };
        if room < self.here {
            Some(LobbyRow::Here(room))
        } else {
            let there = room - self.here;
            (there < self.elsewhere).then_some(LobbyRow::Elsewhere(there))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row is one thing, in the order the lobby shows them, with
    /// today's track or without.
    #[test]
    fn rows_read_top_to_bottom() {
        use LobbyRow::*;
        let with = Rows {
            today: true,
            here: 2,
            elsewhere: 1,
        };
        let all: Vec<_> = (0..=with.count()).map(|r| with.at(r)).collect();
        let expected = [Today, Make, Here(0), Here(1), Elsewhere(0)];
        assert_eq!(all[..5], expected.map(Some));
        assert_eq!(all[5], None);
        let without = Rows {
            today: false,
            ..with
        };
        assert_eq!(without.at(0), Some(Make));
        assert_eq!(without.at(1), Some(Here(0)));
        assert_eq!(without.count(), 4);
    }
}
