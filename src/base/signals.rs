//! The signals whose default action ends the process. Both front doors
//! catch every one of them, so that a signal never leaves a terminal in
//! the game's modes: the local player's (`term`) or any player's over
//! SSH (`serve`). Not the faults (a thread cannot handle those), SIGKILL
//! and SIGSTOP (nothing can), nor SIGPIPE (Rust ignores it).

/// Every signal that ends the process by default but those above.
pub const ENDING: [i32; 12] = [
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGQUIT,
    libc::SIGHUP,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGIO,
];
