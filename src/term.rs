//! The terminal: taking it over for the game and always giving it back
//! (TERMINAL.md, "Lifecycle").
//!
//! [`enter`] switches to raw mode and the alternate screen, hides the
//! cursor, asks for focus events and pushes the kitty keyboard flags (a
//! terminal that does not know them ignores them; no query is sent, so
//! nothing waits for an answer). [`restore`] undoes all of it, once, from
//! whichever path gets there first:
//! * the game quitting (and [`Session`]'s drop, for early returns);
//! * a panic (a hook that restores, then runs the previous hook);
//! * SIGINT, SIGTERM, SIGQUIT (a thread restores, then exits 128 + signal;
//!   Ctrl-C in raw mode is a key, handled as quit);
//! * SIGHUP, a dropped SSH connection: the terminal is gone, so a thread
//!   ends the process at once (polling a dead pty would otherwise spin a
//!   core forever, crossterm issue 793); and where SIGHUP is ignored
//!   (nohup), a watchdog thread that sees standard input hang up does the
//!   same.

use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{
    DisableFocusChange, EnableFocusChange, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

static ACTIVE: AtomicBool = AtomicBool::new(false);
static GUARDS: Once = Once::new();

/// Exit status for a hang-up: 128 + SIGHUP.
const HANGUP_EXIT: i32 = 128 + libc::SIGHUP;

/// The game's hold on the terminal; dropping it restores the terminal.
pub struct Session(());

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Takes the terminal over for the game.
pub fn enter() -> io::Result<Session> {
    install_guards();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
        | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
        | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES;
    let mut out = io::stdout();
    execute!(
        out,
        EnterAlternateScreen,
        Hide,
        EnableFocusChange,
        PushKeyboardEnhancementFlags(flags)
    )?;
    Ok(Session(()))
}

/// Gives the terminal back; does nothing if it was not taken or was given
/// back already. Safe from any thread.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = execute!(
            out,
            PopKeyboardEnhancementFlags,
            DisableFocusChange,
            Show,
            LeaveAlternateScreen
        );
        let _ = out.flush();
        let _ = disable_raw_mode();
    }
}

/// Ends the process at once, skipping every exit handler (nothing of the
/// terminal is left to restore, and a handler could wait on a dead pty).
fn hang_up() -> ! {
    // SAFETY: _exit only ends the process.
    unsafe { libc::_exit(HANGUP_EXIT) }
}

fn install_guards() {
    GUARDS.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        if let Ok(mut signals) =
            signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGQUIT, SIGHUP])
        {
            std::thread::spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    if sig == SIGHUP {
                        hang_up();
                    }
                    restore();
                    std::process::exit(128 + sig);
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
                let n = unsafe { libc::poll(&mut fd, 1, -1) };
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
