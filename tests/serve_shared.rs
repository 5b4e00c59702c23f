//! Two `skid serve` processes on one PostgreSQL database, as behind a
//! load balancer: Ann races on one, Ben waits in a room on the other, and
//! Ann's lap is on Ben's BOARD within a second of her crossing the line.
//! The track is a drag strip (start, checkpoint, finish in a straight
//! line), so holding W drives a lap.
#![cfg(feature = "serve")]

#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;

use std::ffi::OsStr;
use std::net::SocketAddr;
use std::path::Path;
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

/// `skid serve` on a free port, its laps in `database`, offering `track`.
fn serve(dir: &Path, database: &str, track: &Path) -> (server::Server, SocketAddr) {
    let bin = env!("CARGO_BIN_EXE_skid");
    let args = [
        OsStr::new("--database"),
        OsStr::new(database),
        OsStr::new("--data-dir"),
    ];
    let args: Vec<&OsStr> = args
        .into_iter()
        .chain([dir.as_os_str(), "--track".as_ref(), track.as_os_str()])
        .collect();
    server::serve(bin, &args)
}

#[test]
fn a_lap_on_one_server_is_on_the_other_servers_board_within_a_second() {
    postgres_db::on_runtime("shared", |db| async move {
        race_on_one_board_on_the_other(&db).await;
    });
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
    eprintln!(
        "ann's lap on ben's board {} ms after her results",
        seen.as_millis()
    );
    assert!(seen < Duration::from_secs(1), "{seen:?}\n{board}");
    assert!(board.contains(" 1. 0:0"), "her lap, first: {board}");
    let _ = std::fs::remove_dir_all(&dir);
}
