//! A relayed player whose client stops reading (issue 61): Ben, on one
//! server, races in Ann's room on the other through a real OpenSSH
//! client whose output nobody reads, while he types W at 12 KB/s (under
//! the input cut-off) for a minute. His client's window closes first (its
//! pipe full, then its own buffer: for 20 s his terminal is resized ten
//! times a second, each time drawn whole), so his server can send him
//! nothing while the memory is measured; his
//! keys must still go on to the room's server and his server must hold
//! no growing queue of them or of frames: its memory stays flat. The
//! figure is printed. (Before, the relay's queue of keys had no bound and
//! grew with the typing.)
#![cfg(feature = "serve")]

#[path = "common/peers.rs"]
mod peers;
#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/pty.rs"]
mod pty;
#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;

use std::io::Write as _;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use peers::{temp, two_on};

/// How long Ben types before the first measure: long enough for his
/// client's window to close.
const FILL: Duration = Duration::from_secs(20);
/// How long he types between the two measures.
const TYPING: Duration = Duration::from_mins(1);
/// The most his server's memory may grow while he types: a queue of his
/// keys would grow by about what he types (720 KB).
const FLAT_KB: i64 = 256;

/// A process's resident memory, in KB.
fn rss_kb(pid: u32) -> i64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

/// Bytes waiting in a pipe.
fn unread(fd: i32) -> i32 {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD on an open pipe writes one int.
    assert_eq!(unsafe { libc::ioctl(fd, libc::FIONREAD, &raw mut n) }, 0);
    n
}

/// OpenSSH as guest `ben` on `port`, its terminal (and controlling
/// terminal, so it hears of resizes) the pty whose slave is `slave`, its
/// output into a pipe the caller holds and never reads.
fn unread_ssh(port: u16, slave: OwnedFd) -> std::process::Child {
    let mut ben = Command::new("ssh");
    ben.args(["-tt", "-p", &port.to_string()])
        .args([
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
        ])
        .args(["-o", "LogLevel=ERROR", "ben@127.0.0.1"])
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        ben.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    ben.spawn().expect("ssh starts")
}

#[test]
fn a_relayed_player_who_reads_nothing_leaves_their_server_flat() {
    let found = Command::new("ssh").arg("-V").output().is_ok();
    assert!(
        found || std::env::var_os("CI").is_none(),
        "the OpenSSH client is not installed, and CI needs this test (.ci/run installs it)"
    );
    if !found {
        eprintln!("skipped: no ssh client");
        return;
    }
    postgres_db::on_runtime("relay_unread", |db| async move {
        let dirs = [temp("unread-a"), temp("unread-b")];
        let [(_a, a_at, _), (b, b_at, mut b_log)] = two_on(&db, &dirs, false);
        let ann = ssh::in_lobby(a_at, "ann").await;
        ann.send(b"\r").await;
        ann.wait_for("PLAYERS 1/4", 5.0).await;
        // Ben on server B, in a large terminal (large frames fill his
        // window soon); his output goes to a pipe nobody reads.
        let (master, slave) = pty::pair(200, 60);
        let mut keys = std::fs::File::from(master);
        let mut ben = unread_ssh(b_at.port(), slave);
        let out = ben.stdout.take().unwrap();
        b_log.wait_until(
            |seen| (seen.iter()).any(|l| l.contains("ben (player") && l.contains("joined")),
            5.0,
        );
        // Ann's room is listed on B within a second: Ben picks it.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        keys.write_all(b"\x1b[B").unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        keys.write_all(b"\r").unwrap();
        ann.wait_for("ben", 5.0).await;
        ann.send(b"\r").await;
        ann.wait_for("POS", 5.0).await;
        // W at 12 KB/s: 120 bytes every 10 ms.
        let master = keys.as_raw_fd();
        let mut type_for = async |how_long: Duration, resizing: bool| {
            let end = Instant::now() + how_long;
            let mut n = 0u32;
            while Instant::now() < end {
                n += 1;
                if resizing && n.is_multiple_of(10) {
                    pty::set_size(master, 200 - (n / 10 % 2) as u16, 60);
                }
                keys.write_all(&[b'w'; 120]).unwrap();
                b_log.read_for(Duration::from_millis(1));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        type_for(FILL, true).await;
        let before = rss_kb(b.0.id());
        let ssh_before = rss_kb(ben.id());
        type_for(TYPING, false).await;
        let after = rss_kb(b.0.id());
        let ssh_after = rss_kb(ben.id());
        let piped = unread(out.as_raw_fd());
        eprintln!(
            "Ben's server: {before} KB, then {after} KB after {} s more of typing \
             ({:+} KB); his ssh client {ssh_before} KB, then {ssh_after} KB, \
             and {} KB unread in its pipe",
            TYPING.as_secs(),
            after - before,
            piped / 1024,
        );
        // His client really stopped reading: its pipe is full, and it
        // was sent nothing more while he typed (its window closed).
        assert!(piped >= 48 * 1024, "pipe holds only {piped} bytes");
        assert!(
            ssh_after - ssh_before < FLAT_KB,
            "his client still took frames"
        );
        assert!(
            after - before < FLAT_KB,
            "memory grew {before} -> {after} KB while a client read nothing"
        );
        // His keys went on all the while: he drove (Ann, who pressed
        // nothing, sees him lead laps ahead); a relay that jammed would
        // have ended and taken him out of the race.
        let race = ann.text();
        let lead = (race.lines()).find(|l| l.contains("P1 ben"));
        assert!(lead.is_some_and(|l| !l.contains(" L1")), "{race}");
        let _ = ben.kill();
        let _ = ben.wait();
        for dir in dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    });
}
