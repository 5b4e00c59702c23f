//! A server whose PostgreSQL stops answering (its processes stopped with
//! SIGSTOP: the kernel keeps the connections open and answers nothing, as
//! a network that drops packets does), or never answered: no lap is lost,
//! no race waits, the server stops within 5 s of SIGTERM, the log says
//! once that the database went and once that it is back, and the boards
//! say offline meanwhile. Each test runs a PostgreSQL server of its own
//! (`common/postgres.rs`), since stopping one stops it for everyone.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/server.rs"]
mod server;
#[path = "common/ssh.rs"]
mod ssh;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use postgres_db::Private;
use skid::serve::keeper::Keeper;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-down-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The names of the laps a database holds, sorted.
fn names_kept(url: &str) -> Vec<String> {
    let mut db = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let rows = db
        .query("SELECT name FROM laps ORDER BY name", &[])
        .unwrap();
    rows.iter().map(|r| r.get(0)).collect()
}

/// The spool's text in `dir`, once it holds every one of `names` and the
/// hub knows the database is down, ticking the race's hub meanwhile (5 s
/// at the most).
fn spooled(two: &mut hub_sim::TwoOnHub, dir: &Path, names: &[&str], mut tick: u64) -> String {
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        let text = std::fs::read_to_string(dir.join("laps-waiting.toml")).unwrap_or_default();
        if names
            .iter()
            .all(|n| text.contains(&format!("name = \"{n}\"")))
            && !two.hub.keeper.online
        {
            return text;
        }
        assert!(
            Instant::now() < end,
            "the laps never reached the spool: {text:?}"
        );
        tick += 4;
        two.hub.tick(two.at(tick));
        two.frames(tick);
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn laps_driven_while_the_database_is_stopped_are_kept_and_written_when_it_is_back() {
    let Some(pg) = Private::start("midrace") else {
        return;
    };
    let dir = temp("midrace");
    let keeper = Keeper::on(Some(&pg.url), &dir).unwrap();
    assert!(keeper.online);
    let mut two = hub_sim::TwoOnHub::keyed_with(keeper);
    two.one_lap(0);
    // The database stops as the race starts; both drive their lap.
    pg.stop();
    let raced = Instant::now();
    assert!(two.race(120 * 60), "the race was over");
    let text = spooled(&mut two, &dir, &["ann", "ben"], 120 * 60);
    assert_eq!(text.matches("[[lap]]").count(), 2, "{text}");
    // The race never waited on the database: a minute of racing in far
    // less (a call waits 2 s at the most, on the records' thread).
    assert!(raced.elapsed() < Duration::from_secs(30));
    // Kept on disk, so not NOT SAVED.
    for screen in &two.screens {
        let text = screen.screen().contents();
        assert!(!text.contains("NOT SAVED"), "{text}");
    }
    // The server stops (its hub goes, as at SIGTERM) with the database
    // still stopped: at once, the laps still in the spool.
    let stopping = Instant::now();
    drop(two);
    let took = stopping.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(dir.join("laps-waiting.toml").exists());
    // The database back, the next start writes both laps.
    pg.resume();
    let k = Keeper::on(Some(&pg.url), &dir).unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    while dir.join("laps-waiting.toml").exists() {
        assert!(Instant::now() < end, "the laps waiting were never written");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(k);
    assert_eq!(names_kept(&pg.url), ["ann", "ben"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of `log` that speak of the database at `port`.
fn about(log: &[String], port: &str) -> Vec<String> {
    (log.iter())
        .filter(|l| l.contains(&format!("127.0.0.1:{port}")))
        .cloned()
        .collect()
}

#[test]
fn a_server_says_once_that_its_database_went_and_once_that_it_is_back_and_stops_at_once() {
    let Some(pg) = Private::start("log") else {
        return;
    };
    let dir = temp("log");
    let port = pg
        .url
        .rsplit_once(':')
        .unwrap()
        .1
        .split('/')
        .next()
        .unwrap();
    let args = ["--database", &pg.url, "--data-dir", dir.to_str().unwrap()];
    let (mut server, _, mut log) = server::logged(env!("CARGO_BIN_EXE_skid"), &args);
    pg.stop();
    log.wait_until(|l| about(l, port).len() == 1, 10.0);
    assert!(
        about(&log.seen, port)[0].contains("offline"),
        "{:#?}",
        log.seen
    );
    // Eight seconds down: tried again and again, said nothing more.
    std::thread::sleep(Duration::from_secs(8));
    pg.resume();
    log.wait_until(|l| about(l, port).len() == 2, 10.0);
    let back = &about(&log.seen, port)[1];
    assert!(back.contains("answers again after"), "{back}");
    // Down again, and stopped meanwhile: within 5 s, with status 0.
    pg.stop();
    log.wait_until(|l| about(l, port).len() == 3, 10.0);
    let stopping = Instant::now();
    let status = server.stop(libc::SIGTERM, 5.0);
    assert!(
        status.is_some_and(|s| s.success()),
        "{status:?} after {:?}",
        stopping.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_database_never_answers_serves_at_once_with_its_boards_offline() {
    // A listener that takes connections and says nothing.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = silent.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in silent.incoming() {
            held.push(stream);
        }
    });
    let dir = temp("silent");
    let url = format!("postgres://skid@{at}/skid");
    let args = ["--database", &url, "--data-dir", dir.to_str().unwrap()];
    let started = Instant::now();
    let (mut server, addr, mut log) = server::logged(env!("CARGO_BIN_EXE_skid"), &args);
    // Listening after the half second it gives the database at the start
    // (and the start itself; 1 s on an idle machine).
    let listening = started.elapsed();
    assert!(listening < Duration::from_secs(3), "{listening:?}");
    let ann = ssh::join_with(addr, "ann", (80, 24), Some(ssh::key(7))).await;
    let text = ann.wait_for("BEST LAPS  ·  offline", 5.0).await;
    assert!(text.contains("laps kept for your key"), "{text}");
    // A room: its board says offline too, and its race runs.
    ann.send(b"\r").await;
    ann.wait_for("BOARD  ·  offline", 5.0).await;
    ann.send(b"\r").await;
    ann.wait_for("LAP", 5.0).await;
    log.wait_until(|l| l.iter().any(|l| l.contains("offline")), 5.0);
    let status = server.stop(libc::SIGTERM, 5.0);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
