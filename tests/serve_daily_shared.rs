//! Today's track on two `skid serve` processes sharing one PostgreSQL
//! database: both lobbies show the same Track of the Day as their first
//! row; Ann's lap of it on one server is on Ben's board on the other (one
//! board), and `skid records --daily` on that database, which works the
//! track out locally, finds it there (the same content id).
#![cfg(feature = "serve")]

#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use skid::base::day::Day;
use skid::race::TrackChoice;

/// `skid serve` on a free port, its laps in `database`, offering today's
/// track and pocket.
fn serve(dir: &Path, database: &str) -> (server::Server, SocketAddr) {
    let bin = env!("CARGO_BIN_EXE_skid");
    server::sharing(bin, dir, database, &["daily", "pocket"])
}

#[test]
fn two_servers_show_one_track_of_the_day_and_one_board() {
    postgres_db::on_runtime("daily", |db| async move {
        one_track_one_board(&db).await;
    });
}

async fn one_track_one_board(database: &str) {
    let dir = std::env::temp_dir().join(format!("skid-daily-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let day = Day::today();
    let today = TrackChoice::daily(day, day).unwrap().name;
    let (_one, a) = serve(&dir.join("one"), database);
    let (_two, b) = serve(&dir.join("two"), database);
    // Both lobbies: today's track first, the cursor on it.
    let ann = ssh::join_with(a, "ann", (80, 24), Some(ssh::key(1))).await;
    let ben = ssh::join_with(b, "ben", (80, 24), Some(ssh::key(2))).await;
    for p in [&ann, &ben] {
        p.wait_for(&format!("› [ {today} ]"), 10.0).await;
    }
    // Ann: a room on it (Enter on the first row), one lap, W held as a
    // terminal without key releases holds it: the aid steers.
    ann.send(b"\r").await;
    ann.wait_for("room 1", 5.0).await;
    ann.send(b"\x1b[B\x1b[B\x1b[B\x1b[B").await;
    for _ in 0..10 {
        ann.send(b"\x1b[D").await;
    }
    ann.wait_for("Laps   ◀ 1 ▶", 5.0).await;
    ann.send(b"\r").await;
    ann.wait_for("LAP", 5.0).await;
    let end = Instant::now() + Duration::from_secs(150);
    ann.send(b"w").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    while !ann.text().contains("RESULTS") {
        assert!(Instant::now() < end, "no lap in 150 s:\n{}", ann.text());
        ann.send(b"w").await;
        tokio::time::sleep(Duration::from_millis(33)).await;
    }
    // Ben, on the other server: a room on today's track shows her lap
    // on its (aided) board.
    ben.send(b"\r").await;
    let board = ben
        .wait_until(
            |t| t.contains("AIDED BOARD") && t.contains(" ann"),
            10.0,
            "ann on ben's board",
        )
        .await;
    assert!(board.contains(&today), "{board}");
    // The command line works the day's track out itself: same id.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["records", "--database", database, "--daily"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    if Day::today() == day {
        assert!(out.status.success() && text.contains("ann"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
