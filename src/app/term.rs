//! The terminal: taking it over for the game and always giving it back
//! (docs/TERMINAL.md, "Lifecycle"). [`Local`] is the process's own terminal as
//! a [`Console`]: the only one that touches raw mode, signals and the tty.
//!
//! [`enter`] switches to raw mode and the alternate screen, hides the
//! cursor, asks for focus events, pushes the kitty keyboard flags and
//! turns on win32-input-mode (a terminal that does not know them ignores
//! them; no query is sent, so nothing waits for an answer). [`restore`] undoes all of it, once, from
//! whichever path gets there first:
//! * the game quitting (and [`Grip`]'s drop, for early returns);
//! * a panic (a hook that restores, then runs the previous hook);
//! * SIGINT, SIGTERM, SIGQUIT and every other signal that would end the
//!   process by default but the faults (SIGUSR1, SIGALRM...): a thread
//!   restores, then exits 128 + signal (Ctrl-C in raw mode is a key,
//!   handled as quit);
//! * SIGHUP, a dropped SSH connection: a thread ends the process at once
//!   (polling a dead pty would otherwise spin a core forever, crossterm
//!   issue 793), first giving a still-live terminal back without ever
//!   blocking (one write, only if the terminal can take it now, and the
//!   termios reset); where SIGHUP is ignored (nohup), a watchdog thread
//!   that sees standard input hang up ends it too.
//! * SIGTSTP (job control): the terminal is given back, the process stops;
//!   on SIGCONT it is taken again and [`redraw_wanted`] tells the game
//!   loop to draw everything anew.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ratatui::crossterm::event::Event;
use ratatui::crossterm::terminal::{disable_raw_mode, enable_raw_mode, size};
use ratatui::layout::Size;

use crate::console::{Console, RESTORE};
use crate::input::keyboard::Keyboard;

/// The process's own terminal, taken over for as long as this lives. Its
/// bytes are read here and parsed by [`Keyboard`], as a server session's
/// are, so that every encoding a terminal may send (win32-input-mode
/// among them, which crossterm's own reader drops) reads the same in
/// both front doors; a window's new size is told as crossterm tells it,
/// an [`Event::Resize`].
pub struct Local {
    _session: Grip,
    /// Where the keys come from: standard input, or the controlling
    /// terminal when standard input is not one.
    input: Input,
    keyboard: Keyboard,
    parsed: VecDeque<Event>,
    size: (u16, u16),
}

/// The descriptor keys are read from (and closed with this, if opened).
struct Input(Option<std::fs::File>);

impl Input {
    fn open() -> io::Result<Input> {
        // SAFETY: isatty has no preconditions.
        if unsafe { libc::isatty(0) } == 1 {
            return Ok(Input(None));
        }
        Ok(Input(Some(std::fs::File::open("/dev/tty")?)))
    }

    fn fd(&self) -> i32 {
        use std::os::fd::AsRawFd;
        self.0.as_ref().map_or(0, AsRawFd::as_raw_fd)
    }

    /// Waits up to `timeout` for bytes; reads what came (none if nothing
    /// did). A terminal that hung up is an error.
    fn read(&self, timeout: Duration, buf: &mut [u8]) -> io::Result<usize> {
        let mut fd = libc::pollfd {
            fd: self.fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: one pollfd, ours, for the call's length.
        let ready = unsafe { libc::poll(&raw mut fd, 1, ms) };
        if ready < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(0)
            } else {
                Err(e)
            };
        }
        if ready == 0 {
            return Ok(0);
        }
        // SAFETY: reads into `buf`, at most its length.
        let n = unsafe { libc::read(fd.fd, buf.as_mut_ptr().cast(), buf.len()) };
        match n {
            0 => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the terminal hung up",
            )),
            n if n < 0 => {
                let e = io::Error::last_os_error();
                match e.kind() {
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => Ok(0),
                    _ => Err(e),
                }
            }
            n => Ok(n as usize),
        }
    }
}

impl Local {
    /// Takes the terminal over.
    pub fn enter() -> io::Result<Local> {
        let input = Input::open()?;
        let session = enter()?;
        Ok(Local {
            _session: session,
            input,
            keyboard: Keyboard::default(),
            parsed: VecDeque::new(),
            size: size()?,
        })
    }
}

impl Console for Local {
    type Out = io::Stdout;

    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if let Some(ev) = self.parsed.pop_front() {
            return Ok(Some(ev));
        }
        let now = size()?;
        if now != self.size {
            self.size = now;
            return Ok(Some(Event::Resize(now.0, now.1)));
        }
        let mut buf = [0u8; 4096];
        let n = self.input.read(timeout, &mut buf)?;
        self.parsed.extend(self.keyboard.feed(&buf[..n]));
        Ok(self.parsed.pop_front())
    }

    /// The window's size, from the kernel (no query to the terminal).
    fn size(&mut self) -> io::Result<Size> {
        let (w, h) = size()?;
        Ok(Size::new(w, h))
    }

    fn redraw_wanted(&mut self) -> bool {
        redraw_wanted()
    }

    fn output(&mut self) -> io::Stdout {
        io::stdout()
    }

    fn mouse(&mut self, on: bool) -> io::Result<()> {
        self.keyboard.mouse = on;
        let mut out = io::stdout();
        let said = if on {
            crate::console::MOUSE_ON
        } else {
            crate::console::MOUSE_OFF
        };
        out.write_all(said)?;
        out.flush()
    }
}

static ACTIVE: AtomicBool = AtomicBool::new(false);
static GUARDS: Once = Once::new();
/// Set when the terminal was taken again after a stop.
static REDRAW: AtomicBool = AtomicBool::new(false);

/// Whether the terminal came back from a stop since the last call: the
/// screen is the shell's now, so everything must be drawn again.
pub fn redraw_wanted() -> bool {
    REDRAW.swap(false, Ordering::SeqCst)
}

/// Exit status for a hang-up: 128 + SIGHUP.
const HANGUP_EXIT: i32 = 128 + libc::SIGHUP;

/// The game's hold on the terminal; dropping it restores the terminal.
pub struct Grip(());

impl Drop for Grip {
    fn drop(&mut self) {
        restore();
    }
}

/// Takes the terminal over for the game.
pub fn enter() -> io::Result<Grip> {
    install_guards();
    take()?;
    Ok(Grip(()))
}

/// Raw mode, the alternate screen, no cursor, focus events and the kitty
/// keyboard flags.
fn take() -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    out.write_all(&crate::console::take_over())?;
    out.flush()
}

/// Gives the terminal back; does nothing if it was not taken or was given
/// back already. Safe from any thread.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = out.write_all(RESTORE);
        let _ = out.flush();
        let _ = disable_raw_mode();
    }
}

/// Ends the process at once, skipping every exit handler (a handler could
/// wait on a dead pty). A terminal that is still there gets itself back
/// first, without any chance of blocking: the restoring bytes go in one
/// write only if standard output can take them now, and the termios reset
/// does not wait.
fn hang_up() -> ! {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut fd = libc::pollfd {
            fd: 1,
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one valid pollfd; a write of a static buffer to fd 1.
        unsafe {
            if libc::poll(&raw mut fd, 1, 0) == 1 && fd.revents & libc::POLLOUT != 0 {
                let _ = libc::write(1, RESTORE.as_ptr().cast(), RESTORE.len());
            }
        }
        let _ = disable_raw_mode();
    }
    // SAFETY: _exit only ends the process.
    unsafe { libc::_exit(HANGUP_EXIT) }
}

/// Job control's stop: give the terminal back, stop as the default action
/// would, and when continued take the terminal again and ask for a full
/// redraw.
fn suspend() {
    let was_active = ACTIVE.load(Ordering::SeqCst);
    restore();
    let _ = signal_hook::low_level::emulate_default_handler(libc::SIGTSTP);
    // Here after SIGCONT.
    if was_active && take().is_ok() {
        REDRAW.store(true, Ordering::SeqCst);
    }
}

fn install_guards() {
    use signal_hook::consts::{SIGHUP, SIGTSTP};
    GUARDS.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        // Every signal whose default ends the process (`crate::base::signals`),
        // and job control's stop.
        let handled = crate::base::signals::ENDING.into_iter().chain([SIGTSTP]);
        if let Ok(mut signals) = signal_hook::iterator::Signals::new(handled) {
            std::thread::spawn(move || {
                for sig in signals.forever() {
                    match sig {
                        SIGTSTP => suspend(),
                        SIGHUP => hang_up(),
                        _ => {
                            restore();
                            std::process::exit(128 + sig);
                        }
                    }
                }
            });
        }
        std::thread::spawn(|| {
            loop {
                let mut fd = libc::pollfd {
                    fd: 0,
                    events: 0,
                    revents: 0,
                };
                // SAFETY: one valid pollfd, for the duration of the call.
                let n = unsafe { libc::poll(&raw mut fd, 1, -1) };
                if n > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                    hang_up();
                }
                if n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                    return;
                }
            }
        });
    });
}
