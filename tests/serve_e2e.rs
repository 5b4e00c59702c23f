//! `skid serve` end to end: the release binary as a server, the real
//! OpenSSH client in tmux as the player (`.ci/run` installs both tmux and
//! openssh-client; in CI a missing one fails this test).
#![cfg(feature = "serve")]

#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;
#[path = "common/tmux.rs"]
mod tmux;

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use server::Server;
use tmux::Tmux;

/// `skid serve` on a free port with its data in `dir`, offering
/// `pocket`; returns the process and its log.
fn spawn(dir: &std::path::Path) -> (Server, BufReader<std::process::ChildStderr>) {
    let args = [
        "--data-dir".as_ref(),
        dir.as_os_str(),
        "--track".as_ref(),
        "pocket".as_ref(),
    ];
    server::spawn::<&std::ffi::OsStr>(env!("CARGO_BIN_EXE_skid"), &args)
}

/// `skid serve` on a free port; returns the child and the port.
fn serve(dir: &std::path::Path) -> (Server, u16) {
    let args = [
        "--data-dir".as_ref(),
        dir.as_os_str(),
        "--track".as_ref(),
        "pocket".as_ref(),
    ];
    let (server, addr) = server::serve::<&std::ffi::OsStr>(env!("CARGO_BIN_EXE_skid"), &args);
    (server, addr.port())
}

fn ssh_available() -> bool {
    let ok = Command::new("ssh").arg("-V").output().is_ok();
    assert!(
        ok || std::env::var_os("CI").is_none(),
        "the OpenSSH client is not installed, and CI needs this test (.ci/run installs it)"
    );
    ok
}

#[test]
fn a_player_races_over_a_real_ssh_connection_and_gets_the_terminal_back() {
    if !ssh_available() {
        eprintln!("skipped: no ssh client");
        return;
    }
    let dir = std::env::temp_dir().join(format!("skid-serve-e2e-{}", std::process::id()));
    let (mut server, port) = serve(&dir);
    let ssh = format!(
        "ssh -tt -p {port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
         -o LogLevel=ERROR alice@127.0.0.1"
    );
    let Some(t) = Tmux::start("serve", (80, 24), &ssh) else {
        return;
    };
    let lobby = t.wait_for("you are alice");
    assert!(lobby.contains("Make a room"), "{lobby}");
    assert!(t.alternate_on());
    t.keys(&["Enter"]);
    t.wait_for("room 1");
    t.keys(&["Enter"]);
    let race = t.wait_for("LAP");
    assert!(race.contains("RPM") && race.contains("q leave"), "{race}");
    // The countdown, then the throttle held as a terminal does: a press,
    // the repeat delay, repeats every 33 ms.
    sleep(Duration::from_millis(3200));
    t.keys(&["w"]);
    sleep(Duration::from_millis(500));
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        t.keys(&["w"]);
        sleep(Duration::from_millis(33));
    }
    let moving = t.screen();
    assert!(moving.contains("INPUT GAS"), "{moving}");
    // q asks, a second q leaves the race for the lobby, q there leaves
    // the server.
    t.keys(&["q"]);
    t.wait_for("leave the race?");
    t.keys(&["q"]);
    t.wait_for("Make a room");
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0), "{}", t.screen());
    assert!(!t.alternate_on(), "the terminal is given back");
    // SIGTERM: the server exits 0 within 2 s.
    let status = server.stop(libc::SIGTERM, 2.0);
    let status = status.expect("the server is still running 2 s after SIGTERM");
    assert!(status.success(), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A player's damaged records table is set aside at start, and the
/// server's log says so, naming where it went.
#[test]
fn a_damaged_records_table_is_logged_with_where_it_went() {
    let dir = std::env::temp_dir().join(format!("skid-serve-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let player = dir.join("players").join("SHA256_x");
    std::fs::create_dir_all(&player).unwrap();
    std::fs::write(player.join("records.toml"), "[[record]\nnot toml at all").unwrap();
    let (_server, err) = spawn(&dir);
    let mut log = Vec::new();
    for line in err.lines().take(3) {
        let line = line.unwrap();
        let done = line.contains("listening");
        log.push(line);
        if done {
            break;
        }
    }
    let aside = player.join("records.toml.damaged-1");
    assert!(aside.exists(), "set aside");
    assert!(
        log.iter()
            .any(|l| l.contains("damaged") && l.contains(&aside.display().to_string())),
        "{log:?}"
    );
}

/// Every signal that would end the process stops the server the same
/// way SIGTERM does: each player is told, gets their terminal back (the
/// alternate screen left) and is closed. SIGINT and SIGTERM exit 0; the
/// others 128 + the signal (a hang-up once killed the server outright,
/// every player's terminal left on the alternate screen).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_signal_that_would_end_the_server_gives_the_players_their_terminals_back() {
    for signal in skid::base::signals::ENDING {
        let dir = std::env::temp_dir().join(format!("skid-signal-{}-{signal}", std::process::id()));
        let (mut server, port) = serve(&dir);
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let ann = ssh::in_lobby(addr, "ann").await;
        let status = server.stop(signal, 3.0);
        ann.wait_closed(3.0).await;
        // The terminal given back, then told why.
        let raw = ann.raw_text();
        let restore = String::from_utf8_lossy(skid::console::RESTORE);
        let back = raw.rfind(&*restore);
        let told = raw.rfind("skid: server shutting down");
        assert!(back.is_some() && told > back, "signal {signal}: {raw:?}");
        let status = status.unwrap_or_else(|| panic!("signal {signal}: the server still runs"));
        let want = match signal {
            libc::SIGINT | libc::SIGTERM => 0,
            s => 128 + s,
        };
        assert_eq!(status.code(), Some(want), "signal {signal}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Tracks given by file are offered by their file's name, never where
/// the server keeps them; one given twice (by name and as a file of the
/// same content) is offered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tracks_are_offered_once_by_name_not_by_where_they_are_kept() {
    let dir = std::env::temp_dir().join(format!("skid-offered-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let kept = dir.join("srv").join("tracks");
    std::fs::create_dir_all(&kept).unwrap();
    let (_, pocket) = skid::track::bundled::TRACKS[0];
    std::fs::write(kept.join("pocket.track"), pocket).unwrap();
    let (_, oval) = skid::track::bundled::TRACKS[1];
    std::fs::write(kept.join("my oval.track"), oval).unwrap();
    let (file, mine) = (kept.join("pocket.track"), kept.join("my oval.track"));
    let args: [&std::ffi::OsStr; 8] = [
        "--data-dir".as_ref(),
        dir.as_os_str(),
        "--track".as_ref(),
        "pocket".as_ref(),
        "--track".as_ref(),
        file.as_os_str(),
        "--track".as_ref(),
        mine.as_os_str(),
    ];
    let (_server, addr) = server::serve(env!("CARGO_BIN_EXE_skid"), &args);
    let ann = ssh::in_lobby(addr, "ann").await;
    ann.send(b"\r").await;
    ann.wait_for("room 1", 5.0).await;
    // Up to the Track row, then round the tracks offered.
    for _ in 0..7 {
        ann.send(b"\x1b[A").await;
    }
    let mut seen = Vec::new();
    for _ in 0..3 {
        let screen = ann.wait_for("› Track", 5.0).await;
        let row = screen
            .lines()
            .find(|l| l.contains("› Track"))
            .unwrap()
            .to_string();
        let value = row.split('◀').nth(1).unwrap().split('▶').next().unwrap();
        seen.push(value.trim().to_string());
        ann.send(b"\x1b[C").await;
        ann.wait_until(|s| !s.contains(&row), 5.0, "the next track")
            .await;
    }
    assert_eq!(seen, ["pocket  53x19", "my oval  166x33", "pocket  53x19"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The log says why a player left: quit ("bye"), idle, or the
/// connection gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_says_why_a_player_left() {
    let dir = std::env::temp_dir().join(format!("skid-left-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "--data-dir".as_ref(),
        dir.as_os_str(),
        "--idle-timeout".as_ref(),
        "5".as_ref(),
    ];
    let (_server, addr, mut log) =
        server::logged::<&std::ffi::OsStr>(env!("CARGO_BIN_EXE_skid"), &args);
    let ann = ssh::in_lobby(addr, "ann").await;
    let ben = ssh::in_lobby(addr, "ben").await;
    ben.send(b"q").await;
    let has = |seen: &[String], who: &str, why: &str| {
        seen.iter().any(|l| l.contains(who) && l.contains(why))
    };
    log.wait_until(
        |seen| {
            has(seen, "ann (player", "left (idle too long")
                && has(seen, "ben (player", "left (bye)")
        },
        15.0,
    );
    drop(ann);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server that is not told of its balancer's PROXY headers closes
/// every connection through it at once: the log says why, and what to
/// give. One that is told of them says which connection came without.
#[test]
fn the_log_says_when_a_balancer_and_a_server_disagree() {
    use std::io::Write;
    let header = b"PROXY TCP4 198.51.100.7 10.0.0.11 51000 2222\r\nSSH-2.0-OpenSSH_9.6\r\n";
    for (flag, sent, said) in [
        (
            None,
            &header[..],
            "closed: it did not begin with SSH (a balancer's PROXY header wants --proxy-protocol)",
        ),
        (
            Some("--proxy-protocol"),
            b"SSH-2.0-OpenSSH_9.6\r\n",
            "refused: no PROXY header",
        ),
    ] {
        let dir = std::env::temp_dir().join(format!("skid-proxy-log-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = vec!["--data-dir".as_ref(), dir.as_os_str()];
        args.extend(flag.map(std::ffi::OsStr::new));
        let (_server, addr, mut log) =
            server::logged::<&std::ffi::OsStr>(env!("CARGO_BIN_EXE_skid"), &args);
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(sent).unwrap();
        log.wait_until(|seen| seen.iter().any(|l| l.contains(said)), 10.0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
