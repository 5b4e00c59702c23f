//! Every key skid answers, in one table ([`BINDINGS`]) that the input
//! handling ([`command`], [`crate::input::Key::of`]) and the help overlay both read, so
//! the help cannot drift from what the keys do (television's action
//! table is the model). Keys are named here whatever sent them: a key
//! event, from the local terminal or decoded from an SSH channel's bytes,
//! becomes a [`KeyName`] in [`key_name`].

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key press asks of the game (a held driving key is not a
/// command: [`crate::input`] reads those).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Pause,
    Restart,
    SwitchModel,
    Help,
    Quit,
    ToggleManual,
    ShiftUp,
    ShiftDown,
    ToggleAutostrafe,
    ToggleGhost,
    /// The steering aid off or on (where the keyboard sends no releases).
    ToggleAid,
    /// Follow the next car with the camera (done or watching).
    NextCar,
    /// Back to the last checkpoint passed, standing.
    Respawn,
    Back,
}

/// A key as skid names it. Letters are lower case: `W` and `w` are one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyName {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Esc,
    Space,
    Char(char),
    /// A letter with Control held.
    Ctrl(char),
}

impl KeyName {
    /// How the help shows the key.
    pub fn label(self) -> String {
        match self {
            KeyName::Up => "↑".into(),
            KeyName::Down => "↓".into(),
            KeyName::Left => "←".into(),
            KeyName::Right => "→".into(),
            KeyName::Enter => "Enter".into(),
            KeyName::Esc => "Esc".into(),
            KeyName::Space => "Space".into(),
            KeyName::Char(c) => c.to_ascii_uppercase().to_string(),
            KeyName::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
        }
    }
}

/// Keys and what they do, with the help's words for it.
#[derive(Debug)]
pub struct Binding {
    /// What the help says the keys do.
    pub help: &'static str,
    /// The keys, each with the command it gives, if any (a driving key's
    /// control comes from [`crate::input::Key::of`]: it is held, not a command).
    pub keys: &'static [(KeyName, Option<Command>)],
    /// Whether the help shows a letter key in lower case (commands) or
    /// upper case (the driving keys, as on a keyboard's caps).
    pub lower: bool,
}

impl Binding {
    /// The keys as the help shows them: `p Esc`, `↑ W`.
    pub fn label(&self) -> String {
        let names: Vec<String> = self
            .keys
            .iter()
            .map(|(k, _)| match k {
                KeyName::Char(c) if self.lower => c.to_string(),
                k => k.label(),
            })
            .collect();
        names.join(" ")
    }

    /// The help's entry: the keys in a column six wide, then the words.
    pub fn entry(&self) -> String {
        format!("{:<5} {}", self.label(), self.help)
    }
}

use KeyName::{Char, Ctrl, Down, Enter, Esc, Left, Right, Space, Up};

const fn drive(help: &'static str, keys: &'static [(KeyName, Option<Command>)]) -> Binding {
    Binding {
        help,
        keys,
        lower: false,
    }
}

const fn command_keys(help: &'static str, keys: &'static [(KeyName, Option<Command>)]) -> Binding {
    Binding {
        help,
        keys,
        lower: true,
    }
}

pub const THROTTLE: Binding = drive("throttle", &[(Up, Some(Command::Up)), (Char('w'), None)]);
pub const BRAKE: Binding = drive(
    "brake; at a stop, reverse",
    &[(Down, Some(Command::Down)), (Char('s'), None)],
);
pub const STEER_LEFT: Binding = drive(
    "steer left",
    &[(Left, Some(Command::Left)), (Char('a'), None)],
);
pub const STEER_RIGHT: Binding = drive(
    "steer right",
    &[(Right, Some(Command::Right)), (Char('d'), None)],
);
pub const HANDBRAKE: Binding = drive("handbrake", &[(Space, None)]);
pub const START: Binding = command_keys("start, choose", &[(Enter, Some(Command::Enter))]);
pub const MANUAL: Binding =
    command_keys("manual gears", &[(Char('c'), Some(Command::ToggleManual))]);
pub const SHIFT: Binding = command_keys(
    "shift up, down",
    &[
        (Char('x'), Some(Command::ShiftUp)),
        (Char('z'), Some(Command::ShiftDown)),
    ],
);
pub const AUTOSTRAFE: Binding = command_keys(
    "autostrafe",
    &[(Char('f'), Some(Command::ToggleAutostrafe))],
);
pub const SWITCH_MODEL: Binding =
    command_keys("switch model", &[(Char('m'), Some(Command::SwitchModel))]);
pub const RESTART: Binding = command_keys("restart", &[(Char('r'), Some(Command::Restart))]);
pub const RESPAWN: Binding = command_keys(
    "back to the last checkpoint",
    &[(Char('b'), Some(Command::Respawn))],
);
pub const GHOST: Binding =
    command_keys("ghost on, off", &[(Char('g'), Some(Command::ToggleGhost))]);
pub const AID: Binding = command_keys(
    "steering aid off, on (keys without releases)",
    &[(Char('t'), Some(Command::ToggleAid))],
);
pub const REDRAW: Binding = command_keys("redraw", &[(Ctrl('l'), None)]);
pub const FOLLOW: Binding = command_keys(
    "watch the next car (done or watching)",
    &[(Char('v'), Some(Command::NextCar))],
);
pub const PAUSE: Binding = command_keys(
    "pause",
    &[
        (Char('p'), Some(Command::Pause)),
        (Esc, Some(Command::Back)),
    ],
);
pub const HELP: Binding = command_keys("this help", &[(Char('?'), Some(Command::Help))]);
pub const QUIT: Binding = command_keys(
    "quit",
    &[
        (Char('q'), Some(Command::Quit)),
        (Ctrl('c'), Some(Command::Quit)),
    ],
);

/// Every binding.
pub const BINDINGS: &[&Binding] = &[
    &THROTTLE,
    &BRAKE,
    &STEER_LEFT,
    &STEER_RIGHT,
    &HANDBRAKE,
    &START,
    &MANUAL,
    &SHIFT,
    &AUTOSTRAFE,
    &SWITCH_MODEL,
    &RESTART,
    &RESPAWN,
    &GHOST,
    &AID,
    &REDRAW,
    &FOLLOW,
    &PAUSE,
    &HELP,
    &QUIT,
];

/// The command a key gives, if any.
pub fn command(key: KeyName) -> Option<Command> {
    BINDINGS
        .iter()
        .flat_map(|b| b.keys.iter())
        .find(|(k, _)| *k == key)
        .and_then(|&(_, c)| c)
}

/// Whether the key redraws the whole screen.
pub fn is_redraw(key: KeyName) -> bool {
    REDRAW.keys.iter().any(|&(k, _)| k == key)
}

/// The key a terminal event names, as [`crate::input::keys`] knows keys.
pub fn key_name(k: &KeyEvent) -> Option<KeyName> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Up => KeyName::Up,
        KeyCode::Down => KeyName::Down,
        KeyCode::Left => KeyName::Left,
        KeyCode::Right => KeyName::Right,
        KeyCode::Enter => KeyName::Enter,
        KeyCode::Esc => KeyName::Esc,
        KeyCode::Char(' ') => KeyName::Space,
        KeyCode::Char(c) if ctrl => KeyName::Ctrl(c.to_ascii_lowercase()),
        // The kitty protocol may report '?' as Shift and '/'.
        KeyCode::Char('/') if k.modifiers.contains(KeyModifiers::SHIFT) => KeyName::Char('?'),
        KeyCode::Char(c) => KeyName::Char(c.to_ascii_lowercase()),
        _ => return None,
    })
}

/// Tells keys apart for learning the terminal's key repeat.
pub fn key_id(code: KeyCode) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    code.hash(&mut h);
    h.finish() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Key;

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = std::collections::HashSet::new();
        for (k, _) in BINDINGS.iter().flat_map(|b| b.keys.iter()) {
            assert!(seen.insert(*k), "{k:?} is bound twice");
        }
    }

    #[test]
    fn every_command_has_a_key() {
        let all = [
            Command::Up,
            Command::Down,
            Command::Left,
            Command::Right,
            Command::Enter,
            Command::Pause,
            Command::Restart,
            Command::SwitchModel,
            Command::Help,
            Command::Quit,
            Command::ToggleManual,
            Command::ShiftUp,
            Command::ShiftDown,
            Command::ToggleAutostrafe,
            Command::ToggleGhost,
            Command::Back,
        ];
        for c in all {
            let keys: Vec<KeyName> = BINDINGS
                .iter()
                .flat_map(|b| b.keys.iter())
                .filter(|(_, bound)| *bound == Some(c))
                .map(|(k, _)| *k)
                .collect();
            assert!(!keys.is_empty(), "{c:?} has no key");
            for k in keys {
                assert_eq!(command(k), Some(c));
            }
        }
    }

    #[test]
    fn every_driving_key_in_the_table_drives() {
        for b in [&THROTTLE, &BRAKE, &STEER_LEFT, &STEER_RIGHT, &HANDBRAKE] {
            for (k, _) in b.keys {
                assert!(Key::of(*k).is_some(), "{k:?}");
            }
        }
        assert_eq!(Key::of(Char('q')), None);
    }

    #[test]
    fn entries_line_up_in_a_column_six_wide() {
        assert_eq!(THROTTLE.entry(), "↑ W   throttle");
        assert_eq!(PAUSE.entry(), "p Esc pause");
        assert_eq!(QUIT.entry(), "q Ctrl-C quit");
        assert_eq!(SHIFT.entry(), "x z   shift up, down");
    }
}
