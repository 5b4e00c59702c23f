//! Pseudo-terminals for the tests that put a program on one: a pair of
//! a size, and resizing one (its session is told, as by a terminal).
#![allow(dead_code)]

use std::os::fd::{FromRawFd, OwnedFd};

/// Sets the size of the pseudo-terminal whose master is `fd`; the
/// session it is the controlling terminal of gets SIGWINCH.
pub fn set_size(fd: i32, cols: u16, rows: u16) {
    let ws = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: a valid fd and a valid winsize for the call.
    assert_eq!(unsafe { libc::ioctl(fd, libc::TIOCSWINSZ, &ws) }, 0);
}

/// A new pseudo-terminal of `cols` x `rows`: its master and its slave.
pub fn pair(cols: u16, rows: u16) -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two fds; null name, termios and winsize.
    let rc = unsafe {
        libc::openpty(
            &raw mut master,
            &raw mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    set_size(master, cols, rows);
    // SAFETY: both fds were just opened and are owned here.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}
