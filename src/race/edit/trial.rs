//! Racing the drawing from the editor: from its start (`d`), or from
//! the cursor facing the way an arrow says (`h`), once the checks say a
//! lap can be driven; the door races it ([`Asked::Drive`],
//! [`Asked::DriveHere`]).

use crate::input::keys::KeyName;

use super::{Asked, Editor};

impl Editor {
    /// Racing the drawing, if it can be raced; else why not, said.
    pub(super) fn drive(&mut self) -> Asked {
        let last = &self.checker.last;
        if !self.checker.current() {
            self.note = Some("still checking: d again in a moment".into());
        } else if let Some(p) = last.problems.first() {
            self.note = Some(format!("not raceable yet: {}", p.message));
        } else {
            return Asked::Drive;
        }
        Asked::Nothing
    }

    /// Racing from the cursor, facing the way arrow `key` points (any
    /// other key: not).
    pub(super) fn drive_facing(&mut self, key: KeyName) -> Asked {
        let heading = match key {
            KeyName::Right => '>',
            KeyName::Down => 'v',
            KeyName::Left => '<',
            KeyName::Up => '^',
            _ => {
                self.note = None;
                return Asked::Nothing;
            }
        };
        match self.drive() {
            Asked::Drive => Asked::DriveHere(heading),
            other => other,
        }
    }

    /// The drawing as raced from the cursor facing `heading`: its start
    /// slots asphalt, one slot at the cursor instead (a track of its own:
    /// its laps go on no board of the drawing's).
    pub fn text_from_cursor(&self, heading: char) -> String {
        let mut draft = self.draft.clone();
        let (w, h) = draft.size();
        for y in 0..h {
            for x in 0..w {
                if draft.get(x, y).is_some_and(|c| "><^v".contains(c)) {
                    draft.set(x, y, '.');
                }
            }
        }
        draft.set(self.cursor.0, self.cursor.1, heading);
        draft.text()
    }
}
