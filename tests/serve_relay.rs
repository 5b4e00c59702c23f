//! One lobby across servers (issue 53): two `skid serve` processes on one
//! real PostgreSQL, behind `HAProxy` as docs/SERVE.md sets them up (`leastconn`,
//! `send-proxy-v2`), each taking the other's relays at its `--peer`
//! address with the host key they share. A player on one server joins a
//! room on the other and races in it as in a room of their own server;
//! the room's server killed, they are back in their own lobby, told why.
//! `.ci/run` installs `HAProxy`; in CI a missing one fails this test.
#![cfg(feature = "serve")]

#[path = "common/peers.rs"]
mod peers;
#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use peers::{temp, two_on};
use server::Log;

const DOWN: &[u8] = b"\x1b[B";
const LEFT: &[u8] = b"\x1b[D";
const RIGHT: &[u8] = b"\x1b[C";
const ENTER: &[u8] = b"\r";

/// `HAProxy` in front of `servers` as docs/SERVE.md sets it up, listening on
/// a free port of its own; killed when dropped.
struct Balancer {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn balancer(dir: &Path, servers: &[SocketAddr]) -> Balancer {
    let found = Command::new("haproxy").arg("-v").output().is_ok();
    assert!(
        found,
        "HAProxy is not installed, and this test needs it (.ci/run installs it)"
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut cfg = format!(
        "defaults\n    mode tcp\n    timeout connect 5s\n    timeout client 1h\n    \
         timeout server 1h\nfrontend ssh\n    bind 127.0.0.1:{port}\n    \
         default_backend skid\nbackend skid\n    balance leastconn\n"
    );
    for (i, s) in servers.iter().enumerate() {
        writeln!(cfg, "    server s{i} {s} check send-proxy-v2").unwrap();
    }
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, cfg).unwrap();
    let child = Command::new("haproxy")
        .arg("-f")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy starts");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let end = Instant::now() + Duration::from_secs(5);
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(Instant::now() < end, "haproxy does not listen on {addr}");
        std::thread::sleep(Duration::from_millis(50));
    }
    Balancer { child, addr }
}

/// Which of `logs` says `who` joined its lobby, within 5 s.
fn joined_on(logs: &mut [&mut Log], who: &str) -> usize {
    let said = format!("{who} (player");
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        for (i, log) in logs.iter_mut().enumerate() {
            log.read_for(Duration::from_millis(20));
            if log
                .seen
                .iter()
                .any(|l| l.contains(&said) && l.contains("joined the lobby"))
            {
                return i;
            }
        }
        assert!(Instant::now() < end, "{who} joined no server's lobby");
    }
}

/// The host makes the room's settings one lap of kinematic (the model
/// the steering aid laps pocket best with when W alone is held).
async fn one_lap_of_kinematic(host: &ssh::Player) {
    // The cursor begins on Start: down to Track, then Model.
    host.send(DOWN).await;
    host.send(DOWN).await;
    for _ in 0..6 {
        let text = host.wait_for("Model", 2.0).await;
        if text.contains("kinematic") {
            break;
        }
        host.send(RIGHT).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    host.wait_for("kinematic", 2.0).await;
    for _ in 0..2 {
        host.send(DOWN).await;
    }
    for _ in 0..10 {
        host.send(LEFT).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// Holds W as a terminal without releases does until `who`'s screen
/// shows the results, within `secs`.
async fn race_to_results(who: &ssh::Player, secs: f64) -> String {
    let end = Instant::now() + Duration::from_secs_f64(secs);
    who.send(b"w").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    loop {
        let text = who.text();
        if text.contains("RESULTS") {
            return text;
        }
        assert!(Instant::now() < end, "no results in {secs} s:\n{text}");
        who.send(b"w").await;
        tokio::time::sleep(Duration::from_millis(33)).await;
    }
}

#[test]
fn a_player_on_one_server_races_in_a_room_on_the_other() {
    postgres_db::on_runtime("relay", |db| async move { two_servers(&db).await });
}

async fn two_servers(db: &str) {
    let dirs = [temp("a"), temp("b")];
    let [
        (mut one, one_at, mut one_log),
        (mut two, two_at, mut two_log),
    ] = two_on(db, &dirs, true);
    let lb = balancer(&dirs[0], &[one_at, two_at]);
    // Ann and Ben ssh to one address; the balancer puts them on two
    // servers (leastconn: Ben on the one Ann is not on).
    let ann = ssh::join_with(lb.addr, "ann", (80, 24), Some(ssh::key(1))).await;
    ann.wait_for("you are ann", 5.0).await;
    let a = joined_on(&mut [&mut one_log, &mut two_log], "ann");
    let ben = ssh::join_with(lb.addr, "ben", (80, 24), Some(ssh::key(2))).await;
    ben.wait_for("you are ben", 5.0).await;
    let b = joined_on(&mut [&mut one_log, &mut two_log], "ben");
    assert_ne!(a, b, "the balancer put both on one server");
    // Ann makes a room; Ben sees it in his lobby within a second.
    ann.send(ENTER).await;
    ann.wait_for("room 1", 5.0).await;
    let seen = Instant::now();
    let lobby = ben.wait_for("room 1", 2.0).await;
    assert!(seen.elapsed() < Duration::from_secs(1), "{lobby}");
    one_lap_of_kinematic(&ann).await;
    race_together(&ann, &ben).await;
    both_boards_show_both_laps(&ann, &ben).await;
    // Ben back in Ann's room, racing; when he leaves her race he is back
    // without a word; watching it, the room's server is killed: he is
    // back in his own lobby, told why.
    ben.send(b"q").await;
    ben.wait_for("you are ben", 5.0).await;
    ben.send(DOWN).await;
    let lobby = ben.wait_for("› room 1", 2.0).await;
    let row = (lobby.lines())
        .find(|l| l.contains("›"))
        .unwrap_or_default()
        .to_string();
    assert!(row.contains("room 1") && row.contains("· "), "{lobby}");
    ben.send(ENTER).await;
    ben.wait_for("waiting for the host", 5.0).await;
    ann.send(ENTER).await;
    ben.wait_for("POS", 5.0).await;
    // Leaving the race under way (q asks, q leaves): back without a word,
    // however many frames are on their way.
    tokio::time::sleep(Duration::from_secs(4)).await;
    ben.send(b"q").await;
    ben.wait_for("leave the race?", 2.0).await;
    ben.send(b"q").await;
    let lobby = ben.wait_for("you are ben", 5.0).await;
    assert!(!lobby.contains("room 1 on "), "{lobby}");
    // Back in to watch it; then its server is killed.
    ben.send(DOWN).await;
    ben.wait_for("› room 1", 2.0).await;
    ben.send(ENTER).await;
    ben.wait_for("v next car", 5.0).await;
    let (room_server, own_log) = if a == 0 {
        (&mut one, &mut two_log)
    } else {
        (&mut two, &mut one_log)
    };
    let _ = room_server.stop(libc::SIGKILL, 5.0);
    let back = ben.wait_for("you are ben", 5.0).await;
    assert!(back.contains("went away"), "{back}");
    own_log.wait_until(
        |seen| {
            seen.iter()
                .any(|l| l.contains("ben") && l.contains("back from room 1"))
        },
        5.0,
    );
    own_log.wait_until(
        |seen| {
            seen.iter()
                .any(|l| l.contains("ben") && l.contains("relayed to room 1"))
        },
        0.0,
    );
    drop(lb);
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The room's server sees a relayed player go when they hang up and when
/// their own server dies (kill -9): their place in the room is free
/// again, nobody's held by a relay whose player is gone.
#[test]
fn the_rooms_server_sees_a_relayed_player_go() {
    postgres_db::on_runtime("relay_gone", |db| async move {
        let dirs = [temp("gone-a"), temp("gone-b")];
        let [(_a, a_at, mut a_log), (mut b, b_at, _)] = two_on(&db, &dirs, false);
        let ann = ssh::in_lobby(a_at, "ann").await;
        ann.send(ENTER).await;
        ann.wait_for("PLAYERS 1/4", 5.0).await;
        for who in ["ben", "cal"] {
            let p = ssh::in_lobby(b_at, who).await;
            p.wait_for("room 1", 2.0).await;
            p.send(DOWN).await;
            p.wait_for("› room 1", 2.0).await;
            p.send(ENTER).await;
            p.wait_for("waiting for the host", 5.0).await;
            ann.wait_for("PLAYERS 2/4", 5.0).await;
            assert!(ann.text().contains(who), "{}", ann.text());
            if who == "ben" {
                // Ben hangs up.
                drop(p);
            } else {
                // Cal's server dies.
                let _ = b.stop(libc::SIGKILL, 5.0);
            }
            let left = ann.wait_for("PLAYERS 1/4", 5.0).await;
            assert!(!left.contains(who), "{left}");
            let said = format!("{who} (player");
            a_log.wait_until(
                |seen| {
                    seen.iter()
                        .any(|l| l.contains(&said) && l.ends_with(" left"))
                },
                2.0,
            );
        }
        for dir in dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    });
}

/// Ben, on the other server, joins Ann's room (row 0 makes a room, row 1
/// is hers); Ann starts; both race to the results.
async fn race_together(ann: &ssh::Player, ben: &ssh::Player) {
    ben.send(DOWN).await;
    ben.wait_for("› room 1", 2.0).await;
    ben.send(ENTER).await;
    ben.wait_for("waiting for the host", 5.0).await;
    ann.wait_for("ben", 5.0).await;
    ann.send(ENTER).await;
    ann.wait_for("POS", 5.0).await;
    ben.wait_for("POS", 5.0).await;
    // The countdown, then both race to the results.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (a_end, b_end) = tokio::join!(race_to_results(ann, 60.0), race_to_results(ben, 60.0));
    assert!(a_end.contains("YOU") && a_end.contains("ben"), "{a_end}");
    assert!(b_end.contains("YOU") && b_end.contains("ann"), "{b_end}");
    // Driven with presses only, the steering aid's: no medal, as the
    // boards say.
    assert!(a_end.contains("NO MEDAL  ·  AIDED"), "{a_end}");
    // Both finished, as both screens say.
    for who in [ann, ben] {
        let finished = |s: &str| (s.lines()).filter(|l| l.contains(" FIN")).count() == 2;
        who.wait_until(finished, 30.0, "both finished").await;
    }
}

/// Ben leaves the room, back in his own lobby without a word; both laps
/// are on both servers' boards: Ann's room taken back to its settings on
/// one, and on the other, a room of Ben's of the same settings.
async fn both_boards_show_both_laps(ann: &ssh::Player, ben: &ssh::Player) {
    ben.send(b"q").await;
    let lobby = ben.wait_for("you are ben", 5.0).await;
    assert!(!lobby.contains("room 1 on "), "{lobby}");
    ann.send(ENTER).await;
    let both = |s: &str| s.contains("BOARD") && s.contains(" 2. ");
    let board_a = ann.wait_until(both, 5.0, "both laps").await;
    ben.send(ENTER).await;
    ben.wait_for("Start race", 5.0).await;
    one_lap_of_kinematic(ben).await;
    let board_b = ben
        .wait_until(
            |s| s.contains("ann") && s.contains(" 2. "),
            5.0,
            "both laps",
        )
        .await;
    for board in [&board_a, &board_b] {
        assert!(board.contains(" 1. ") && board.contains(" 2. "), "{board}");
        assert!(board.contains("ann") && board.contains("ben"), "{board}");
    }
}

/// A key split across SSH packets, as a network may split it, is read
/// whole by the room's server for a relayed player exactly as for a
/// direct one: at every byte boundary but the first (a packet ending in
/// a lone Esc is the Esc key, for everyone), an arrow, a kitty press and
/// release of W and a Windows Terminal record of each, sent in two pieces
/// 100 ms apart to Ben (relayed) and Cal (direct) in one race, hold the
/// throttle on both and let it go on both. (It stuck before for the
/// relayed player: his server passed on only packets holding a whole
/// key.)
#[test]
fn a_key_split_anywhere_reaches_the_rooms_server_whole() {
    postgres_db::on_runtime("relay_split", |db| async move {
        let dirs = [temp("split-a"), temp("split-b")];
        let [(_a, a_at, _), (_b, b_at, _)] = two_on(&db, &dirs, false);
        let ann = ssh::in_lobby(a_at, "ann").await;
        ann.send(ENTER).await;
        ann.wait_for("PLAYERS 1/4", 5.0).await;
        let cal = ssh::in_lobby(a_at, "cal").await;
        let ben = ssh::in_lobby(b_at, "ben").await;
        for p in [&cal, &ben] {
            p.wait_for("room 1", 2.0).await;
            p.send(DOWN).await;
            p.wait_for("› room 1", 2.0).await;
            p.send(ENTER).await;
            p.wait_for("waiting for the host", 5.0).await;
        }
        ann.send(ENTER).await;
        for p in [&cal, &ben] {
            p.wait_for("RPM", 5.0).await;
        }
        tokio::time::sleep(Duration::from_millis(3500)).await;
        let gas = |t: &str| (t.lines()).any(|l| l.contains("INPUT") && l.contains("GAS"));
        // Both, the same pieces at the same moments.
        let send = async |bytes: &[u8], k: usize| {
            let (first, second) = bytes.split_at(k.min(bytes.len()));
            for p in [&cal, &ben] {
                p.send(first).await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            if !second.is_empty() {
                for p in [&cal, &ben] {
                    p.send(second).await;
                }
            }
        };
        let both = async |held: bool, what: &str| {
            for p in [&cal, &ben] {
                p.wait_until(|t| gas(t) == held, 2.0, what).await;
            }
        };
        // Without releases (no kitty or Windows report yet): the arrow
        // holds the throttle until the brake.
        let up = b"\x1b[A";
        for k in 2..up.len() {
            send(up, k).await;
            both(true, &format!("Up split at {k}")).await;
            send(b"s", 1).await;
            both(false, "s").await;
        }
        let kitty: [&[u8]; 2] = [b"\x1b[119u", b"\x1b[119;1:3u"];
        let win32 = [
            b"\x1b[87;0;119;1;0;1_".to_vec(),
            b"\x1b[87;0;119;0;0;1_".to_vec(),
        ];
        for (name, [press, release]) in [
            ("kitty", [kitty[0].to_vec(), kitty[1].to_vec()]),
            ("win32", win32),
        ] {
            for k in 2..release.len() {
                send(&press, k).await;
                both(true, &format!("{name} press split at {k}")).await;
                send(&release, k).await;
                both(false, &format!("{name} release split at {k}")).await;
            }
        }
        for dir in dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    });
}
