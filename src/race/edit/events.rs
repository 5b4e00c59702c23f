//! A terminal's events to the editor, the same through either door
//! (`skid edit`, and a server's lobby): key presses and repeats (a held
//! arrow moves on), characters typed into a setting as typed, and mouse
//! reports. Resizes are the door's: it knows the screen.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::input::keys::key_name;

use super::{Asked, Editor};

impl Editor {
    /// One event: what it asks of the door, if it was the editor's (the
    /// screen then changed); none for what the editor does not read (a
    /// key's release, focus).
    pub fn event(&mut self, ev: &Event) -> Option<Asked> {
        match ev {
            Event::Key(k) if k.kind == KeyEventKind::Release => None,
            Event::Key(k) if self.typing(k) => Some(Asked::Nothing),
            Event::Key(k) => key_name(k).map(|key| self.key(key)),
            Event::Mouse(m) => {
                self.mouse(m.kind, m.column, m.row);
                Some(Asked::Nothing)
            }
            _ => None,
        }
    }

    /// Whether `k` went into the setting being typed, if one is: a
    /// character as typed (case and all), or Backspace.
    fn typing(&mut self, k: &KeyEvent) -> bool {
        if self.prompt.is_none() || k.modifiers.contains(KeyModifiers::CONTROL) {
            return false;
        }
        match k.code {
            KeyCode::Char(c) => self.typed(c),
            KeyCode::Backspace => self.erase(),
            _ => return false,
        }
        true
    }
}
