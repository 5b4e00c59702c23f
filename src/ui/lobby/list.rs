//! The lobby's list of rows, and the lines it is drawn as.

use super::{RoomLine, room_line};

/// The lobby's list: the rows above the rooms (`top`: make a room on
/// today's track, on any), every room (track, model, players of slots,
/// waiting or racing; the other servers' after this one's, each saying
/// its host), then the rows below them (`bottom`: players' tracks,
/// building one).
pub struct List<'a> {
    pub top: &'a [String],
    pub rooms: &'a [RoomLine],
    pub bottom: &'a [String],
}

impl List<'_> {
    /// The list's lines: a row each, and with no rooms a line that says
    /// so in their place.
    pub(super) fn lines(&self) -> usize {
        self.top.len() + self.rooms.len().max(1) + self.bottom.len()
    }

    /// The line row number `row` is on.
    pub(super) fn line_of(&self, row: usize) -> usize {
        row + usize::from(self.rooms.is_empty() && row >= self.top.len())
    }

    /// Line `i`: its text, and the row it is (none: the line that says
    /// there are no rooms).
    pub(super) fn line(&self, i: usize) -> (String, Option<usize>) {
        let button = |t: &String| format!("[ {t} ]");
        let Some(r) = i.checked_sub(self.top.len()) else {
            return (button(&self.top[i]), Some(i));
        };
        match (self.rooms.get(r), self.rooms.is_empty()) {
            (Some(room), _) => (room_line(room), Some(i)),
            (None, true) if r == 0 => (" no rooms yet".into(), None),
            (None, empty) => {
                let b = r - self.rooms.len().max(1);
                (button(&self.bottom[b]), Some(i - usize::from(empty)))
            }
        }
    }

    /// Every line's text, for the box's width.
    pub(super) fn texts(&self) -> impl Iterator<Item = String> + '_ {
        let button = |t: &String| format!("[ {t} ]");
        (self.top.iter().map(button))
            .chain(self.rooms.iter().map(room_line))
            .chain(self.bottom.iter().map(button))
    }
}
