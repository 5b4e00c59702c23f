//! The game in a bare pseudo-terminal that never answers anything (no
//! terminal emulator behind it, as a slow link, a serial console or an SSH
//! channel may be): the first frame comes at once and the game never asks
//! the terminal a question (a cursor-position query, `ESC[6n`, would wait
//! for an answer that never comes). Also a resize and Ctrl-L redraw
//! without asking. The pty is made here with `openpty`; nothing is ever
//! written to the game except the keys the test sends.

#[path = "common/pty.rs"]
mod pty;

use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Bytes that ask a terminal something and wait for its answer.
const QUERIES: [&[u8]; 4] = [
    b"\x1b[6n", // cursor position
    b"\x1b[?u", // kitty keyboard flags
    b"\x1b[c",  // primary device attributes
    b"\x1b[>c", // secondary device attributes
];
/// The end of a frame: skid wraps each in synchronized output.
const FRAME_END: &[u8] = b"\x1b[?2026l";

struct Pty {
    master: std::fs::File,
    child: Child,
    out: Vec<u8>,
}

impl Pty {
    /// `skid ARGS` on the slave side of a new pty of `cols` x `rows`, as
    /// the session leader with the pty as its controlling terminal.
    fn spawn(args: &[&str], cols: u16, rows: u16) -> Pty {
        let (master, slave) = pty::pair(cols, rows);
        // SAFETY: fcntl on an owned fd.
        unsafe {
            let flags = libc::fcntl(master.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(master.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        let dir = std::env::temp_dir().join(format!("skid-pty-{}", std::process::id()));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skid"));
        cmd.args(args)
            .env("XDG_DATA_HOME", &dir)
            .env("TERM", "xterm-256color")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn skid");
        Pty {
            master: std::fs::File::from(master),
            child,
            out: Vec::new(),
        }
    }

    /// Reads what the game wrote until `done` holds of it or `limit` runs
    /// out; returns whether it held.
    fn read_until(&mut self, limit: Duration, done: impl Fn(&[u8]) -> bool) -> bool {
        let end = Instant::now() + limit;
        let mut buf = vec![0u8; 65536];
        while Instant::now() < end {
            match self.master.read(&mut buf) {
                Ok(0) => return done(&self.out),
                Ok(n) => self.out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                // EIO: the slave side closed.
                Err(_) => return done(&self.out),
            }
            if done(&self.out) {
                return true;
            }
        }
        done(&self.out)
    }

    /// Reads what the game writes until it exits, within `limit`: its
    /// exit status, or none if it still runs (then dropped, it is
    /// killed).
    fn exit_within(&mut self, limit: Duration) -> Option<i32> {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                self.read_until(Duration::from_millis(200), |_| false);
                return status.code();
            }
            self.read_until(Duration::from_millis(20), |_| false);
        }
        None
    }

    fn frames(&self) -> usize {
        count(&self.out, FRAME_END)
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.master.write_all(bytes).unwrap();
    }

    fn assert_never_asked(&self) {
        for q in QUERIES {
            assert_eq!(
                count(&self.out, q),
                0,
                "the game asked the terminal {:?}",
                String::from_utf8_lossy(q)
            );
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// Long enough for a loaded machine, well short of the 2 s a query
/// waits for its answer before failing.
const FIRST_FRAME: Duration = Duration::from_millis(1500);

#[test]
fn the_title_menu_draws_at_once_in_a_pty_that_never_answers() {
    let mut pty = Pty::spawn(&[], 80, 24);
    assert!(
        pty.read_until(FIRST_FRAME, |o| count(o, FRAME_END) >= 1),
        "no frame: {:?}",
        text(&pty.out)
    );
    assert!(
        text(&pty.out).contains("Start race"),
        "{:?}",
        text(&pty.out)
    );
    pty.assert_never_asked();
    // q quits, and the terminal is given back (alternate screen left).
    pty.send(b"q");
    assert!(pty.read_until(FIRST_FRAME, |o| count(o, b"\x1b[?1049l") >= 1));
    assert_eq!(pty.child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_race_draws_at_once_and_redraws_on_resize_and_ctrl_l_without_asking() {
    let mut pty = Pty::spawn(&["play", "--track", "pocket"], 80, 24);
    // The race's frame (on a loaded machine a frame saying the racing
    // line is being planned may come first).
    assert!(
        pty.read_until(FIRST_FRAME, |o| count(o, FRAME_END) >= 1
            && text(o).contains("LAP")),
        "no frame: {:?}",
        text(&pty.out)
    );
    // A resize: the game clears and draws the whole screen again.
    pty::set_size(pty.master.as_raw_fd(), 100, 30);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(pty.child.id() as i32, libc::SIGWINCH) };
    let before = pty.out.len();
    assert!(
        pty.read_until(FIRST_FRAME, |o| count(&o[before..], b"\x1b[2J") >= 1
            && count(&o[before..], FRAME_END) >= 1)
    );
    // Ctrl-L: the same.
    let before = pty.out.len();
    pty.send(b"\x0c");
    assert!(
        pty.read_until(FIRST_FRAME, |o| count(&o[before..], b"\x1b[2J") >= 1
            && count(&o[before..], FRAME_END) >= 1)
    );
    assert!(pty.frames() >= 3);
    pty.assert_never_asked();
    pty.send(b"q");
    assert!(pty.read_until(FIRST_FRAME, |o| count(o, b"\x1b[?1049l") >= 1));
}

/// A pty may claim any size, up to 65535 x 65535: two frames of that
/// many cells would be some 200 GB (the game aborted, out of memory).
/// Its top-left 500 x 200 is drawn, at once; a resize to that size again
/// and to a small one follow; q quits with the terminal given back.
#[test]
fn a_terminal_of_65535_by_65535_gets_its_top_left_drawn() {
    let mut pty = Pty::spawn(&["play", "--track", "pocket"], u16::MAX, u16::MAX);
    assert!(
        pty.read_until(FIRST_FRAME, |o| count(o, FRAME_END) >= 1),
        "no frame: {:?}",
        text(&pty.out).chars().take(400).collect::<String>()
    );
    assert!(text(&pty.out).contains("LAP"));
    // No cell drawn past column 500 or row 200 (`ESC[row;colH`).
    let far = text(&pty.out)
        .split("\x1b[")
        .filter_map(|s| s.split_once('H').map(|(at, _)| at.to_string()))
        .filter_map(|at| {
            let (r, c) = at.split_once(';').unwrap_or((&at, "1"));
            Some((r.parse::<u32>().ok()?, c.parse::<u32>().ok()?))
        })
        .find(|&(r, c)| r > 200 || c > 500);
    assert_eq!(far, None, "a cell drawn past 500 x 200");
    for (cols, rows) in [(u16::MAX, 40_000), (90, 30)] {
        pty::set_size(pty.master.as_raw_fd(), cols, rows);
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(pty.child.id() as i32, libc::SIGWINCH) };
        let before = pty.out.len();
        assert!(
            pty.read_until(FIRST_FRAME, |o| count(&o[before..], FRAME_END) >= 1),
            "no frame after the resize to {cols}x{rows}"
        );
    }
    pty.send(b"q");
    assert!(pty.read_until(FIRST_FRAME, |o| count(o, b"\x1b[?1049l") >= 1));
    assert_eq!(pty.child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_recording_that_cannot_be_written_fails_before_the_game_starts() {
    let mut pty = Pty::spawn(
        &[
            "play",
            "--track",
            "pocket",
            "--record",
            "/no/such/dir/rec.toml",
        ],
        80,
        24,
    );
    assert_eq!(pty.exit_within(Duration::from_secs(5)), Some(2));
    let out = text(&pty.out);
    assert!(
        out.contains("/no/such/dir/rec.toml: cannot write the recording:"),
        "{out:?}"
    );
    assert!(!out.contains("\x1b[?1049h"), "the terminal was never taken");
}

#[test]
fn a_data_directory_that_cannot_keep_records_fails_before_the_game_starts() {
    let file = std::env::temp_dir().join(format!("skid-pty-file-{}", std::process::id()));
    std::fs::write(&file, "not a directory").unwrap();
    let under = file.join("records");
    for dir in [&file, &under] {
        let arg = dir.to_str().unwrap();
        let mut pty = Pty::spawn(&["play", "--track", "pocket", "--data-dir", arg], 80, 24);
        let status = pty.exit_within(Duration::from_secs(5));
        let out = text(&pty.out);
        assert_eq!(status, Some(2), "{out:?}");
        assert!(
            out.contains(&format!("{arg}: cannot keep records here:")),
            "{out:?}"
        );
        assert!(!out.contains("\x1b[?1049h"), "the terminal was never taken");
    }
    let _ = std::fs::remove_file(&file);
}

/// The title menu takes the game's options too: with `--data-dir`, the
/// medals it works out are kept there.
#[test]
fn the_title_menu_keeps_its_data_where_data_dir_says() {
    let dir = std::env::temp_dir().join(format!("skid-pty-menu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let arg = dir.to_str().unwrap();
    let mut pty = Pty::spawn(&["--data-dir", arg, "--difficulty", "hard"], 80, 24);
    assert!(
        pty.read_until(Duration::from_secs(20), |o| text(o).contains("author")),
        "{:?}",
        text(&pty.out)
    );
    pty.send(b"q");
    assert_eq!(pty.exit_within(Duration::from_secs(5)), Some(0));
    assert!(dir.join("medals.toml").is_file(), "kept in {arg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Windows Terminal's records (win32-input-mode) for the key `vk` typing
/// `ch`, down or up.
fn win32(vk: u8, ch: u8, down: bool) -> Vec<u8> {
    format!("\x1b[{vk};0;{ch};{};0;1_", u8::from(down)).into_bytes()
}

/// Local play in Windows Terminal's win32-input-mode, its bytes as that
/// terminal sends them: asked for at the start and turned off at the end,
/// and keys held exactly as long as they are down (W held while D is
/// pressed and let go, as a player does: with releases nothing is kept
/// without its key, so the INPUT line never shows `*`, and W let go ends
/// the throttle).
#[test]
fn windows_terminals_key_releases_drive_locally() {
    let rec = std::env::temp_dir().join(format!("skid-pty-win32-{}.toml", std::process::id()));
    let _ = std::fs::remove_file(&rec);
    let args = [
        "play",
        "--track",
        "pocket",
        "--record",
        rec.to_str().unwrap(),
    ];
    let mut pty = Pty::spawn(&args, 80, 24);
    assert!(pty.read_until(FIRST_FRAME, |o| count(o, FRAME_END) >= 1));
    assert!(
        count(&pty.out, b"\x1b[?9001h") == 1,
        "win32-input-mode asked for"
    );
    // The start lights, then W held (a down, then repeated downs every
    // 33 ms after half a second), with D pressed and let go meanwhile.
    pty.read_until(Duration::from_millis(3500), |_| false);
    let (w, d) = ((87, b'w'), (68, b'd'));
    let hold = |pty: &mut Pty, key: (u8, u8), secs: f64, first: bool| {
        if first {
            pty.send(&win32(key.0, key.1, true));
            pty.read_until(Duration::from_millis(500), |_| false);
        }
        let end = Instant::now() + Duration::from_secs_f64(secs);
        while Instant::now() < end {
            pty.send(&win32(key.0, key.1, true));
            pty.read_until(Duration::from_millis(33), |_| false);
        }
    };
    hold(&mut pty, w, 1.0, true);
    hold(&mut pty, d, 0.5, true);
    pty.send(&win32(d.0, d.1, false));
    hold(&mut pty, w, 0.5, false);
    pty.send(&win32(w.0, w.1, false));
    pty.read_until(Duration::from_millis(800), |_| false);
    let seen = text(&pty.out);
    let star = seen
        .find('*')
        .map(|i| seen[i.saturating_sub(200)..(i + 50).min(seen.len())].to_string());
    assert!(
        seen.contains("GAS") && star.is_none(),
        "a key kept without its key: {star:?}"
    );
    pty.send(&win32(81, b'q', true));
    pty.send(&win32(81, b'q', false));
    assert_eq!(pty.exit_within(Duration::from_secs(5)), Some(0));
    let after = &pty.out[pty
        .out
        .windows(8)
        .rposition(|w| w == b"\x1b[?1049l")
        .unwrap()
        + 8
        - skid::console::RESTORE.len()..];
    assert!(
        count(after, b"\x1b[?9001l") == 1,
        "win32-input-mode left on"
    );
    // The recording: throttle while W was down, steering while D was,
    // and neither once they were let go.
    let script = std::fs::read_to_string(&rec).unwrap();
    let holds: Vec<&str> = script.split("[[hold]]").skip(1).collect();
    assert!(
        holds
            .iter()
            .any(|h| h.contains("throttle = 1") && h.contains("steer = ")),
        "{script}"
    );
    let last = holds.last().unwrap();
    assert!(
        !last.contains("throttle") && !last.contains("steer"),
        "{script}"
    );
    let _ = std::fs::remove_file(&rec);
}
