//! Rooms across servers that share one PostgreSQL database (issue 53,
//! its first part): each server's records' thread publishes its rooms
//! with a heartbeat and reads the others'; a room made on one is known to
//! the other within a second, a server that stops has its rooms gone at
//! once, and one that dies without a word (kill -9: no more heartbeats)
//! within a few seconds.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use skid::physics::models::ModelKind;
use skid::serve::db::{self, Database, Listed, ROOMS_FRESH_MS};
use skid::serve::keeper::Keeper;
use skid::serve::listing::{Listing, Published};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-rooms-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn room(server: &str, n: u32, players: u32, racing: bool) -> Listed {
    Listed {
        server: server.into(),
        room: n,
        track: "Pocket".into(),
        model: ModelKind::Tire,
        players,
        seats: 4,
        racing,
        peer: None,
        aid: true,
    }
}

/// Polls `k` until the other servers' rooms it read last (its hub's
/// listing, `seen`) are `want`, within `limit`; returns how long that
/// took.
fn until_elsewhere(
    (k, seen): &mut (Keeper, Listing),
    want: &[Listed],
    limit: Duration,
) -> Duration {
    let start = Instant::now();
    loop {
        if let Some(rooms) = k.poll().elsewhere {
            seen.heard(rooms);
        }
        if seen.elsewhere() == want {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < limit,
            "not within {limit:?}: {:?}",
            seen.elsewhere()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A server's published name, taking no relays.
fn published(name: &str) -> Listing {
    Listing::new(Some(Published {
        name: name.into(),
        peer: None,
    }))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[test]
fn a_room_on_one_server_is_known_to_the_other_within_a_second() {
    let Some(db) = postgres_db::database("rooms") else {
        return;
    };
    let mut a = (
        Keeper::on(Some(&db.url), &temp("a")).unwrap(),
        Listing::default(),
    );
    let mut b = (
        Keeper::on(Some(&db.url), &temp("b")).unwrap(),
        Listing::default(),
    );
    b.0.publish("b", vec![]);
    until_elsewhere(&mut b, &[], Duration::from_secs(5));
    // A room made on A, then a second player in it and its race.
    let made = vec![room("a", 1, 1, false)];
    a.0.publish("a", made.clone());
    let took = until_elsewhere(&mut b, &made, Duration::from_secs(5));
    assert!(took < Duration::from_secs(1), "{took:?}");
    let racing = vec![room("a", 1, 2, true), room("a", 2, 1, false)];
    a.0.publish("a", racing.clone());
    let took = until_elsewhere(&mut b, &racing, Duration::from_secs(5));
    assert!(took < Duration::from_secs(1), "{took:?}");
    // A server never lists its own rooms as elsewhere.
    until_elsewhere(&mut a, &[], Duration::from_secs(1));
    // A stops: its rooms go from B's lobby at once.
    drop(a);
    let took = until_elsewhere(&mut b, &[], Duration::from_secs(5));
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn a_server_that_goes_silent_has_its_rooms_gone_within_seconds() {
    let Some(db) = postgres_db::database("silent") else {
        return;
    };
    // A server killed with -9: its rows stay, its heartbeat stops.
    let mut dead = db::open(Some(&db.url), &temp("dead")).unwrap();
    dead.ready(db::DEADLINE).unwrap();
    let rooms = vec![room("dead", 3, 2, true)];
    dead.publish_rooms("dead", &rooms, now_ms()).unwrap();
    let mut b = (
        Keeper::on(Some(&db.url), &temp("alive")).unwrap(),
        Listing::default(),
    );
    b.0.publish("alive", vec![]);
    until_elsewhere(&mut b, &rooms, Duration::from_secs(2));
    let gone = until_elsewhere(&mut b, &[], Duration::from_secs(6));
    let fresh = Duration::from_millis(ROOMS_FRESH_MS as u64);
    assert!(gone <= fresh + Duration::from_secs(1), "{gone:?}");
    // Read directly: a heartbeat older than the window lists nothing, a
    // fresh one lists the rooms.
    let at = now_ms();
    dead.publish_rooms("dead", &rooms, at - ROOMS_FRESH_MS - 1)
        .unwrap();
    assert!(dead.rooms_elsewhere("alive", at).unwrap().is_empty());
    dead.publish_rooms("dead", &rooms, at).unwrap();
    assert_eq!(dead.rooms_elsewhere("alive", at).unwrap(), rooms);
}

/// The hub's side: a server that shares its database (named) publishes
/// its rooms as its lobby shows them, through its records' thread, and
/// again as they change (a player joins, the race starts).
#[test]
fn a_hub_publishes_its_rooms_as_they_change() {
    use ratatui::crossterm::event::KeyCode;
    let dir = temp("hub");
    let mut two = hub_sim::TwoOnHub::keyed_with(Keeper::open(&dir).unwrap());
    two.hub.listing = published("here");
    let mut db = db::open(None, &dir).unwrap();
    let seen = |db: &mut Box<dyn Database>| db.rooms_elsewhere("another", now_ms()).unwrap();
    let until = |db: &mut Box<dyn Database>, two: &mut hub_sim::TwoOnHub, want: &[Listed]| {
        let end = Instant::now() + Duration::from_secs(5);
        while seen(db) != want {
            assert!(Instant::now() < end, "{:?}", seen(db));
            two.hub.keeper.poll();
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let pocket = |players, racing| Listed {
        server: "here".into(),
        room: 1,
        track: "pocket".into(),
        model: ModelKind::Arcade,
        players,
        seats: 4,
        racing,
        peer: None,
        aid: true,
    };
    two.press(1, KeyCode::Enter, 0);
    until(&mut db, &mut two, &[pocket(1, false)]);
    two.press(2, KeyCode::Down, 0);
    two.press(2, KeyCode::Enter, 0);
    until(&mut db, &mut two, &[pocket(2, false)]);
    two.press(1, KeyCode::Enter, 0);
    until(&mut db, &mut two, &[pocket(2, true)]);
}

/// Two servers on one database: a room made on one is listed in the
/// other's lobby, among its rooms with the host it is on,
/// and goes from it when that room's server stops.
#[test]
fn the_lobby_lists_the_rooms_on_the_other_servers() {
    use ratatui::crossterm::event::KeyCode;
    let dir = temp("lobbies");
    let mut a = hub_sim::TwoOnHub::keyed_with(Keeper::open(&dir).unwrap());
    let mut b = hub_sim::TwoOnHub::keyed_with(Keeper::open(&dir).unwrap());
    a.hub.listing = published("host-a/10.0.0.1:22");
    b.hub.listing = published("host-b/10.0.0.2:22");
    a.press(1, KeyCode::Enter, 0);
    // Ben, in B's lobby, sees Ann's room on A within a second.
    let start = Instant::now();
    let mut tick = 0;
    let lobby = loop {
        tick += 4;
        a.hub.tick(a.at(tick));
        b.hub.tick(b.at(tick));
        b.frames(tick);
        let text = b.screens[1].screen().contents();
        if text.contains("· host-a") {
            break text;
        }
        assert!(start.elapsed() < Duration::from_secs(2), "{text}");
        std::thread::sleep(Duration::from_millis(10));
    };
    let line = (lobby.lines())
        .find(|l| l.contains("· host-a"))
        .expect("where the room is");
    assert!(
        line.contains("room 1") && line.contains("pocket") && line.contains("1/4"),
        "{lobby}"
    );
    assert!(!lobby.contains("no rooms yet"), "{lobby}");
    assert!(!line.contains("no aid"), "{lobby}");
    // Ann, the host, turns the aid off: Ben's lobby says so.
    a.press(1, KeyCode::Up, 0);
    a.press(1, KeyCode::Left, 0);
    let start = Instant::now();
    loop {
        tick += 4;
        a.hub.tick(a.at(tick));
        b.hub.tick(b.at(tick));
        b.frames(tick);
        let text = b.screens[1].screen().contents();
        if (text.lines()).any(|l| l.contains("· host-a") && l.contains("no aid")) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(2), "{text}");
        std::thread::sleep(Duration::from_millis(10));
    }
    // A goes: its room leaves B's lobby.
    drop(a);
    let start = Instant::now();
    while b.screens[1].screen().contents().contains("· host-a") {
        assert!(start.elapsed() < Duration::from_secs(2));
        tick += 4;
        b.hub.tick(b.at(tick));
        b.frames(tick);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A room on a server that takes no relays (no `--peer`, or an older
/// build) is listed but cannot be joined: Enter on it says so under the
/// player's name, and their next key there takes the line away.
#[test]
fn a_room_whose_server_takes_no_relays_says_so() {
    use ratatui::crossterm::event::KeyCode;
    let dir = temp("no-relays");
    let mut b = hub_sim::TwoOnHub::keyed_with(Keeper::open(&dir).unwrap());
    (b.hub.listing).heard(vec![room("host-a/10.0.0.1:22", 3, 1, false)]);
    b.press(2, KeyCode::Down, 0);
    b.press(2, KeyCode::Enter, 0);
    b.frames(4);
    let lobby = b.screens[1].screen().contents();
    let said = "room 3 on host-a: its server takes no relays";
    assert!(lobby.contains(said), "{lobby}");
    assert!(lobby.contains("› room 3"), "{lobby}");
    b.press(2, KeyCode::Up, 8);
    b.frames(8);
    let lobby = b.screens[1].screen().contents();
    assert!(!lobby.contains("takes no relays"), "{lobby}");
    assert!(lobby.contains("› [ Make a room ]"), "{lobby}");
}

/// Servers starting at once on a new database both make the rooms'
/// table, and neither fails for it (PostgreSQL's `CREATE TABLE IF NOT
/// EXISTS` alone lets two at once collide, which took the boards
/// offline for a moment).
#[test]
fn servers_publishing_first_at_once_both_succeed() {
    let Some(test_db) = postgres_db::database("first") else {
        return;
    };
    for round in 0..4 {
        let fresh = postgres_db::database(&format!("first{round}")).unwrap();
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let threads: Vec<_> = (0..4)
            .map(|i| {
                let (url, barrier) = (fresh.url.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let mut db = db::open(Some(&url), &temp(&format!("first-{i}"))).unwrap();
                    db.ready(db::DEADLINE).unwrap();
                    barrier.wait();
                    let name = format!("s{i}");
                    db.publish_rooms(&name, &[room(&name, 1, 1, false)], now_ms())
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap().expect("every server publishes");
        }
    }
    drop(test_db);
}
