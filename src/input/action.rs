//! The driving controls and the keys that press them: which control a
//! key drives depends on the model (in `strafe` the arrows turn and A
//! and D strafe), a control has an opposite it lets go of, and a latch
//! says what it does when a newer key interrupts it in a terminal
//! without releases (the `input` module's doc).

/// A physical key that drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    W,
    A,
    S,
    D,
    Space,
}

impl Key {
    /// The driving key `name` is, if any: the arrows, W A S D, Space.
    pub fn of(name: crate::input::keys::KeyName) -> Option<Key> {
        use crate::input::keys::KeyName;
        Some(match name {
            KeyName::Up => Key::Up,
            KeyName::Down => Key::Down,
            KeyName::Left => Key::Left,
            KeyName::Right => Key::Right,
            KeyName::Space => Key::Space,
            KeyName::Char('w') => Key::W,
            KeyName::Char('a') => Key::A,
            KeyName::Char('s') => Key::S,
            KeyName::Char('d') => Key::D,
            _ => return None,
        })
    }

    /// The control this key drives: in `strafe` the letters strafe and
    /// the arrows turn; elsewhere both steer.
    pub fn action(self, strafe: bool) -> Action {
        match self {
            Key::Up | Key::W => Action::Throttle,
            Key::Down | Key::S => Action::Brake,
            Key::A if strafe => Action::StrafeLeft,
            Key::D if strafe => Action::StrafeRight,
            Key::Left | Key::A => Action::Left,
            Key::Right | Key::D => Action::Right,
            Key::Space => Action::Space,
        }
    }
}

/// What a control does when a newer key interrupts it in a terminal
/// without releases (see the `input` module's doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Latch {
    /// Let go at once.
    #[default]
    No,
    /// Kept on while a steering key repeats, let go when steering ends.
    WhileSteering,
    /// Kept on until its opposite is pressed, or it is pressed again and
    /// let go.
    Always,
    /// Kept on for one repeat delay (the first window) after its last
    /// press or repeat, as a tap; a steering key shown to be held, also
    /// while the newer key that interrupted it is held and for one
    /// repeat delay after.
    Briefly,
}

/// A control that is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Throttle,
    Brake,
    Left,
    Right,
    StrafeLeft,
    StrafeRight,
    /// Handbrake, or `strafe`'s hop.
    Space,
}

/// How many controls there are.
pub(super) const ACTIONS: usize = 7;

impl Action {
    pub const ALL: [Action; ACTIONS] = [
        Action::Throttle,
        Action::Brake,
        Action::Left,
        Action::Right,
        Action::StrafeLeft,
        Action::StrafeRight,
        Action::Space,
    ];

    /// Its place in [`Action::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Steering or strafing: held only while its key repeats.
    pub fn steers(self) -> bool {
        matches!(
            self,
            Action::Left | Action::Right | Action::StrafeLeft | Action::StrafeRight
        )
    }

    /// The control that pressing this one lets go of.
    pub fn opposite(self) -> Option<Action> {
        Some(match self {
            Action::Throttle => Action::Brake,
            Action::Brake => Action::Throttle,
            Action::Left => Action::Right,
            Action::Right => Action::Left,
            Action::StrafeLeft => Action::StrafeRight,
            Action::StrafeRight => Action::StrafeLeft,
            Action::Space => return None,
        })
    }
}
