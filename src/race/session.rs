//! A person at a screen, whichever front door they came through: the
//! local terminal (`game`) or `skid serve` (`serve::hub`). What is theirs
//! (help open or not, the keys they hold, their screen's size, whether it
//! needs drawing) and how their key events read are one [`Session`] and
//! one [`read`], so that a fix to either lands for both. What differs
//! between the two doors is said once, in [`Door`], never inferred, and
//! kept once, by the race people came to (`Race::door`): a person's
//! session outside a race is the same at either door.

use ratatui::crossterm::event::{KeyEvent, KeyEventKind};

use crate::input::keys::{self, Command, key_id, key_name};
use crate::input::{Held, Key};
use crate::race::camera::Camera;
use crate::race::world::CarId;

/// The largest screen drawn, in cells (columns, rows). A terminal
/// larger than this, which any pty or SSH client can claim (65535 x
/// 65535: two frames of it would be hundreds of gigabytes), has its
/// top-left part drawn and the rest left blank.
pub const MAX_SIZE: (u16, u16) = (500, 200);

/// A screen of `w` x `h` cells, as a terminal or an SSH client gives its
/// size, as the game draws it: 1 x 1 up to [`MAX_SIZE`].
pub fn screen_size(w: u32, h: u32) -> (u16, u16) {
    let side = |v: u32, max: u16| v.clamp(1, u32::from(max)) as u16;
    (side(w, MAX_SIZE.0), side(h, MAX_SIZE.1))
}

/// Which front door a person came through, and so what differs for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Door {
    /// The local terminal: a race pauses, q quits the program, records
    /// are saved as the lap ends.
    Local,
    /// `skid serve`: races have no pause (others race on), q leaves for
    /// the lobby, records are saved on the server's own thread.
    Served,
}

impl Door {
    /// Whether a race can be paused.
    pub fn pauses(self) -> bool {
        self == Door::Local
    }

    /// Whether a person's inputs are kept as an input script as they
    /// race: locally, for `--record`; a server has no use for them, and
    /// at a hold a tick or so while steering they would be some
    /// kilobytes a second for each of its players.
    pub fn keeps_inputs(self) -> bool {
        self == Door::Local
    }
}

/// A key event as every front door reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// Ctrl-L: clear the screen and draw it all again.
    Redraw,
    /// Any other key.
    Key {
        /// The driving key it is, if any.
        drive: Option<Key>,
        /// Whether it was let go (terminals with key releases).
        release: bool,
        /// Tells keys apart, for learning the terminal's key repeat.
        id: u32,
        /// The command it gives now: none for a release, nor for a key's
        /// repeat outside a menu (a held key repeats; a command is one
        /// press, but moving through a menu may repeat).
        command: Option<Command>,
    },
}

/// Reads a key event: `menu` says whether the person is in a menu, where
/// a held key's repeats move the cursor on.
pub fn read(k: &KeyEvent, menu: bool) -> Read {
    let name = key_name(k);
    if name.is_some_and(keys::is_redraw) {
        return Read::Redraw;
    }
    let release = k.kind == KeyEventKind::Release;
    let repeat = k.kind == KeyEventKind::Repeat;
    let command = name
        .and_then(keys::command)
        .filter(|_| !release && (menu || !repeat));
    Read::Key {
        drive: name.and_then(Key::of),
        release,
        id: key_id(k.code),
        command,
    }
}

/// One person at one screen.
// A person's switches (help, leaving, colour...) are independent of one
// another: no state machine hides among them.
#[allow(clippy::struct_excessive_bools)]
pub struct Session {
    /// Whether the help is open over their screen.
    pub help: bool,
    /// The keys they hold: where their terminal's key repeat is learned,
    /// and (locally) what drives their car.
    pub held: Held,
    /// Their screen's size, columns and rows.
    pub size: (u16, u16),
    /// Something visible changed since their screen was last drawn.
    pub dirty: bool,
    /// Whether they were asked to press q or Esc again to leave their
    /// race ([`Session::leave`]).
    pub leaving: bool,
    /// The car their camera follows while they watch a race they are not
    /// driving in (done, or watching): none, the screen's own choice.
    pub watch: Option<CarId>,
    /// Their own camera on the car they watch, fitted to their screen (the
    /// watched seat's camera is fitted to its driver's).
    pub camera: Option<Camera>,
    /// Whether their screen is in colour: not when they set `NO_COLOR`
    /// (no-color.org), in the game's environment or, over SSH, sent as
    /// the session's (`ssh -o SetEnv=NO_COLOR=1`).
    pub color: bool,
}

impl Session {
    pub fn new(size: (u16, u16)) -> Session {
        Session {
            help: false,
            held: Held::new(),
            size,
            dirty: true,
            leaving: false,
            watch: None,
            camera: None,
            color: true,
        }
    }

    /// The next of `cars` for the camera to follow ([`Session::watch`]),
    /// in their order; after the last, none (the screen's own choice),
    /// and a car no longer in `cars` starts again from the first.
    pub fn next_car(&mut self, cars: &[CarId]) {
        let at = self.watch.and_then(|w| cars.iter().position(|&c| c == w));
        self.watch = match at {
            Some(i) => cars.get(i + 1).copied(),
            None => cars.first().copied(),
        };
        self.camera = None;
        self.dirty = true;
    }

    /// Back to following their own car (a new race: its cars are not
    /// the last one's).
    pub fn stop_watching(&mut self) {
        self.watch = None;
        self.camera = None;
    }

    /// q or Esc in a race that others race on (`skid serve`): the first
    /// asks, the second leaves; any other key in between stays. Over a
    /// slow link an arrow key's escape sequence can arrive split, its
    /// first byte alone reading as Esc: that must not throw anyone out.
    /// Returns whether to leave now.
    pub fn leave(&mut self) -> bool {
        self.dirty = true;
        let asked = self.leaving;
        self.leaving = !asked;
        asked
    }

    /// Whether their screen is too small to draw a race.
    pub fn too_small(&self) -> bool {
        crate::race::layout::too_small(self.size)
    }

    /// Passes `cmd` through the help: `?` opens it; while it is open,
    /// `?`, Esc, p and Enter close it, q still quits and nothing else
    /// does anything. Returns the command left to carry out, if any.
    pub fn through_help(&mut self, cmd: Command) -> Option<Command> {
        self.dirty = true;
        if self.help {
            match cmd {
                Command::Help | Command::Back | Command::Pause | Command::Enter => {
                    self.help = false;
                    None
                }
                Command::Quit => Some(Command::Quit),
                _ => None,
            }
        } else if cmd == Command::Help {
            self.help = true;
            None
        } else {
            Some(cmd)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEventState, KeyModifiers};

    fn event(code: KeyCode, kind: KeyEventKind) -> KeyEvent {
        KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind,
            state: KeyEventState::NONE,
        }
    }

    fn command(code: KeyCode, kind: KeyEventKind, menu: bool) -> Option<Command> {
        match read(&event(code, kind), menu) {
            Read::Key { command, .. } => command,
            Read::Redraw => panic!("not a redraw"),
        }
    }

    #[test]
    fn a_command_is_a_press_and_a_menu_also_takes_repeats() {
        use KeyEventKind::{Press, Release, Repeat};
        let up = KeyCode::Up;
        assert_eq!(command(up, Press, false), Some(Command::Up));
        assert_eq!(command(up, Repeat, false), None, "a held key in a race");
        assert_eq!(command(up, Repeat, true), Some(Command::Up), "the menu");
        assert_eq!(command(up, Release, true), None);
        let ctrl_l = KeyEvent {
            modifiers: KeyModifiers::CONTROL,
            ..event(KeyCode::Char('l'), Press)
        };
        assert_eq!(read(&ctrl_l, false), Read::Redraw);
    }

    #[test]
    fn leaving_a_race_takes_a_second_key() {
        let mut s = Session::new((80, 24));
        assert!(!s.leave(), "the first asks");
        assert!(s.leaving);
        s.leaving = false; // any other key in between
        assert!(!s.leave());
        assert!(s.leave(), "the second leaves");
        assert!(!s.leaving);
    }

    #[test]
    fn help_takes_every_command_while_open_but_quit() {
        let mut s = Session::new((80, 24));
        assert_eq!(s.through_help(Command::Enter), Some(Command::Enter));
        assert_eq!(s.through_help(Command::Help), None);
        assert!(s.help);
        for cmd in [Command::Up, Command::Restart, Command::SwitchModel] {
            assert_eq!(s.through_help(cmd), None);
            assert!(s.help);
        }
        assert_eq!(s.through_help(Command::Quit), Some(Command::Quit));
        assert_eq!(s.through_help(Command::Back), None);
        assert!(!s.help);
    }
}
