//! Two `skid serve` processes on one PostgreSQL database, as behind a
//! load balancer: Ann races on one, Ben waits in a room on the other, and
//! Ann's lap is on Ben's BOARD within a second of her crossing the line.
//! The track is a drag strip (start, checkpoint, finish in a straight
//! line), so holding W drives a lap.
#![cfg(feature = "serve")]

#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/ssh.rs"]
mod ssh;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DRAG: &str = "+++
name = \"Drag\"
laps = 1
+++
################################
#..............................#
#..............................#
#....>.......1.........=.......#
#..............................#
#..............................#
################################
";

/// A server process, killed when the test is done.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `skid serve` on a free port, its laps in `database`, offering `track`.
fn serve(dir: &std::path::Path, database: &str, track: &std::path::Path) -> (Server, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skid"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--database",
            database,
            "--data-dir",
        ])
        .arg(dir)
        .arg("--track")
        .arg(track)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skid serve starts");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    std::thread::spawn(move || for _ in err.lines() {});
    let port: u16 = first
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    (Server(child), SocketAddr::from(([127, 0, 0, 1], port)))
}

#[test]
fn a_lap_on_one_server_is_on_the_other_servers_board_within_a_second() {
    // The database is made and dropped outside the clients' runtime (its
    // client blocks on a runtime of its own).
    let Some(db) = postgres_db::database("shared") else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(race_on_one_board_on_the_other(&db.url));
}

async fn race_on_one_board_on_the_other(database: &str) {
    let dir = std::env::temp_dir().join(format!("skid-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let track = dir.join("drag.track");
    std::fs::write(&track, DRAG).unwrap();
    let (_one, a) = serve(&dir.join("one"), database, &track);
    let (_two, b) = serve(&dir.join("two"), database, &track);
    // Ben waits in a room on the second server, looking at its board.
    let ben = ssh::join_with(b, "ben", (80, 24), Some(ssh::key(2))).await;
    ben.wait_for("you are ben", 5.0).await;
    ben.send(b"\r").await;
    ben.wait_for("nobody has a lap here yet", 5.0).await;
    // Ann races on the first: a room, the race, W held as a terminal
    // holds it.
    let ann = ssh::join_with(a, "ann", (80, 24), Some(ssh::key(1))).await;
    ann.wait_for("you are ann", 5.0).await;
    ann.send(b"\r").await;
    ann.wait_for("room 1", 5.0).await;
    ann.send(b"\r").await;
    ann.wait_for("LAP", 5.0).await;
    tokio::time::sleep(Duration::from_millis(3200)).await;
    // Held as a terminal holds it (a press, 0.5 s, a repeat every 33 ms)
    // until her results show: the lap is done and kept.
    let end = Instant::now() + Duration::from_secs(20);
    ann.send(b"w").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    while !ann.text().contains("RESULTS") {
        assert!(Instant::now() < end, "no lap in 20 s:\n{}", ann.text());
        ann.send(b"w").await;
        tokio::time::sleep(Duration::from_millis(33)).await;
    }
    let finished = Instant::now();
    let board = ben
        .wait_until(|t| t.contains(" ann"), 5.0, "ann on ben's board")
        .await;
    let seen = finished.elapsed();
    eprintln!("ann's lap on ben's board {} ms after her results", seen.as_millis());
    assert!(seen < Duration::from_secs(1), "{seen:?}\n{board}");
    assert!(board.contains(" 1. 0:0"), "her lap, first: {board}");
    let _ = std::fs::remove_dir_all(&dir);
}
