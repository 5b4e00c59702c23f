//! A keyed player's record on `skid serve`: read off the hub's thread
//! while the race counts down, and raced against from the start (BEST
//! shows it, its ghost drives); or another player's lap from the board
//! raced as the ghost, by name.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyCode;
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::records::Record;
use skid::serve::db::Board;
use skid::serve::hub::{Hub, Out, ToHub};
use skid::serve::keeper::Keeper;
use skid::track::bundled;
use tokio::sync::mpsc::Receiver;

/// Ann presses `code` (at `at`).
fn press(hub: &mut Hub, code: KeyCode, at: Instant) {
    hub_sim::press(hub, 1, code, at);
}

#[test]
fn a_keyed_players_record_is_raced_against_from_the_start() {
    let dir = std::env::temp_dir().join(format!("skid-serve-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Ann's record on pocket, from an earlier run of the server.
    laps_on_pocket(&dir, &[("ann", 12.34)]);
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    let at = |tick: u64| at(start, tick);
    press(&mut hub, KeyCode::Enter, start); // a room
    press(&mut hub, KeyCode::Enter, start); // its race
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    // Through the countdown (3 s) and a moment of racing.
    for tick in 1..=(120 * 3 + 30) {
        hub.tick(at(tick));
        if tick.is_multiple_of(4) {
            hub.frames(at(tick));
            if let Ok(Out::Frame(bytes)) = rx.try_recv() {
                screen.process(&bytes);
            }
        }
        // The records' thread answers in its own time: give it some.
        if tick == 60 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let text = screen.screen().contents();
    assert!(text.contains("BEST  0:12.34"), "{text}");
    let run = hub.rooms[&1].running.as_ref().unwrap();
    let seat = &run.race.seats[&skid::race::world::FIRST];
    assert_eq!(seat.log.best().map(|b| b.ticks), Some(1481));
    let mut log = seat.log.clone();
    assert!(
        log.new_records(true, 1.0 / 120.0).is_empty(),
        "the record is not a lap of this race"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Laps on pocket in arcade, from earlier races on the server in `dir`:
/// each driver's name and time; their ghosts stand on the top straight.
fn laps_on_pocket(dir: &std::path::Path, laps: &[(&str, f64)]) {
    let track_id = bundled::load_raceable("pocket")
        .unwrap()
        .track()
        .content_id();
    let mut keeper = Keeper::open(dir).unwrap();
    for &(name, time) in laps {
        let record = Record {
            track: "pocket".into(),
            track_id: track_id.clone(),
            model: ModelKind::Arcade,
            car: "hatch".into(),
            car_id: CarSpec::default_for(ModelKind::Arcade).content_id(),
            time,
            ticks: (time * 120.0).round() as u64,
            hz: 120,
            splits: Vec::new(),
            medal: None,
            aided: false,
        };
        let ghost = vec![[40.0, 10.0, 0.0]; 586];
        keeper.save(&format!("SHA256:{name}"), name, record, ghost);
    }
}

/// Bob's lap on pocket, 19.5 s.
fn bobs_lap_on_pocket(dir: &std::path::Path) {
    laps_on_pocket(dir, &[("bob", 19.5)]);
}

/// The time of tick `tick` of a hub started at `start` (120 Hz).
fn at(start: Instant, tick: u64) -> Instant {
    start + Duration::from_micros(tick * 1_000_000 / 120)
}

/// Ticks the hub (started at `start`) until room 1's unaided board is
/// read and `ready` holds of it; returns the tick.
fn until_board(hub: &mut Hub, start: Instant, ready: impl Fn(&Board) -> bool) -> u64 {
    let mut tick = 0;
    loop {
        let key = hub.rooms[&1].board.as_ref();
        if key
            .and_then(|k| hub.keeper.boards.get(k))
            .is_some_and(|b| ready(&b.unaided))
        {
            return tick;
        }
        tick += 1;
        assert!(tick < 2000, "the board was never read");
        hub.tick(at(start, tick));
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Ann's `screen` after the hub draws a frame at `at`.
fn anns_screen(
    hub: &mut Hub,
    rx: &mut Receiver<Out>,
    screen: &mut vt100::Parser,
    at: Instant,
) -> String {
    hub.frames(at);
    while let Ok(Out::Frame(bytes)) = rx.try_recv() {
        screen.process(&bytes);
    }
    screen.screen().contents()
}

/// Twelve drivers' laps, al's 19.0 s to lee's 21.75 s, then `behind`'s.
fn twelve_ahead_of<'a>(behind: &[(&'a str, f64)]) -> Vec<(&'a str, f64)> {
    let names = [
        "al", "bo", "cy", "di", "ed", "fy", "gus", "hal", "ida", "jo", "kai", "lee",
    ];
    let ahead = (names.iter().enumerate()).map(|(i, n)| (*n, 19.0 + i as f64 * 0.25));
    ahead.chain(behind.iter().copied()).collect()
}

/// Issue 29: below the board's top, g goes on past the tenth lap to the
/// one just above yours, then back to your own best lap.
#[test]
fn a_player_below_the_top_can_race_the_lap_just_above_theirs() {
    let dir = std::env::temp_dir().join(format!("skid-serve-above-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Twelve drivers ahead of Ann: she is 13th, Lee (12th) just above her.
    laps_on_pocket(&dir, &twelve_ahead_of(&[("ann", 30.0)]));
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    press(&mut hub, KeyCode::Enter, start); // her room, with its board
    let tick = until_board(&mut hub, start, |b| !b.places.is_empty());
    let at = |tick: u64| at(start, tick);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("you 13 of 13"), "{text}");
    for _ in 0..10 {
        press(&mut hub, KeyCode::Char('g'), start);
    }
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("ghost: 10. jo"), "{text}");
    press(&mut hub, KeyCode::Char('g'), start);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("ghost: 12. lee (just above you)"), "{text}");
    press(&mut hub, KeyCode::Char('g'), start);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("ghost: your best lap"), "{text}");
    // Lee's it is, for the race.
    for _ in 0..11 {
        press(&mut hub, KeyCode::Char('g'), start);
    }
    press(&mut hub, KeyCode::Enter, start);
    for t in tick + 1..=tick + 120 * 3 + 30 {
        hub.tick(at(t));
        if t == tick + 60 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let seat = &hub.rooms[&1].running.as_ref().unwrap().race.seats[&skid::race::world::FIRST];
    let (name, lap) = seat.their_ghost.as_ref().expect("lee's ghost");
    assert_eq!((name.as_str(), lap.ticks), ("lee", 2610));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: a friend's lap, though far from the top, is a ghost to race
/// for whoever shares a room with them: g goes on from the lap just above
/// yours to each room-mate's.
#[test]
fn a_player_can_race_the_ghost_of_a_room_mates_lap() {
    let dir = std::env::temp_dir().join(format!("skid-serve-mate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // Twelve drivers ahead: Ann is 13th, Mo 14th.
    laps_on_pocket(&dir, &twelve_ahead_of(&[("ann", 30.0), ("mo", 31.0)]));
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    let (mo, _mo_rx) = tokio::sync::mpsc::channel(1);
    let mut join = hub_sim::guest(2, "mo", mo);
    if let ToHub::Join { identity, .. } = &mut join {
        *identity = Some("SHA256:mo".into());
    }
    hub.apply(join, start);
    press(&mut hub, KeyCode::Enter, start); // Ann's room
    for code in [KeyCode::Down, KeyCode::Enter] {
        hub_sim::press(&mut hub, 2, code, start);
    }
    let tick = until_board(&mut hub, start, |b| b.places.len() == 2);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    for _ in 0..11 {
        press(&mut hub, KeyCode::Char('g'), start);
    }
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(start, tick));
    assert!(text.contains("ghost: 12. lee (just above you)"), "{text}");
    press(&mut hub, KeyCode::Char('g'), start);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(start, tick));
    assert!(text.contains("ghost: 14. mo (in this room)"), "{text}");
    press(&mut hub, KeyCode::Enter, start);
    for t in tick + 1..=tick + 120 * 3 + 30 {
        hub.tick(at(start, t));
        if t == tick + 60 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let seat = &hub.rooms[&1].running.as_ref().unwrap().race.seats[&skid::race::world::FIRST];
    let (name, _) = seat.their_ghost.as_ref().expect("mo's ghost");
    assert_eq!(name, "mo");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: a player picks a lap of the room's board with g and races
/// its ghost, its driver's name beside it, while their own record stays
/// the one to beat.
#[test]
fn a_player_races_the_ghost_of_a_lap_picked_from_the_board() {
    let dir = std::env::temp_dir().join(format!("skid-serve-ghost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    bobs_lap_on_pocket(&dir);
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    press(&mut hub, KeyCode::Enter, start); // her room, with its board
    let tick = until_board(&mut hub, start, |b| !b.top.is_empty());
    let at = |tick: u64| at(start, tick);
    press(&mut hub, KeyCode::Char('g'), start);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    hub.frames(at(tick));
    if let Ok(Out::Frame(bytes)) = rx.try_recv() {
        screen.process(&bytes);
    }
    let text = screen.screen().contents();
    assert!(text.contains("ghost: 1. bob"), "{text}");
    press(&mut hub, KeyCode::Enter, start); // the race
    for t in tick + 1..=tick + 120 * 3 + 30 {
        hub.tick(at(t));
        if t.is_multiple_of(4) {
            hub.frames(at(t));
            if let Ok(Out::Frame(bytes)) = rx.try_recv() {
                screen.process(&bytes);
            }
        }
        if t == tick + 60 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let seat = &hub.rooms[&1].running.as_ref().unwrap().race.seats[&skid::race::world::FIRST];
    let (name, lap) = seat.their_ghost.as_ref().expect("bob's ghost");
    assert_eq!((name.as_str(), lap.ticks), ("bob", 2340));
    assert!(
        seat.log.best().is_none(),
        "her own record (none) is still the one to beat"
    );
    let text = screen.screen().contents();
    assert!(text.contains("bob"), "his name beside his ghost: {text}");
    assert!(text.contains("BEST  -:--.--"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: in the lobby, the room on the cursor shows its board (its
/// best laps, and your place though you are not in the room); the
/// make-a-room row the best lap on each track.
#[test]
fn the_lobby_shows_the_board_of_the_room_on_the_cursor() {
    let dir = std::env::temp_dir().join(format!("skid-serve-lobby-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    laps_on_pocket(&dir, &[("bob", 19.5), ("ann", 21.0)]);
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    let (ben, _ben_rx) = tokio::sync::mpsc::channel(1);
    hub.apply(hub_sim::guest(2, "ben", ben), start);
    hub_sim::press(&mut hub, 2, KeyCode::Enter, start);
    let tick = until_board(&mut hub, start, |b| !b.top.is_empty());
    let at = |tick: u64| at(start, tick);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("BEST LAPS"), "{text}");
    press(&mut hub, KeyCode::Down, start);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("BOARD  ·  room 1: pocket, arcade"), "{text}");
    assert!(text.contains(" 1. 0:19.50  bob"), "{text}");
    assert!(text.contains(" 2. 0:21.00  ann"), "{text}");
    assert!(!text.contains("BEST LAPS"), "{text}");
    // Ann is not in Ben's room: her place is read for her all the same.
    let ann = |b: &Board| b.places.iter().any(|(_, e)| e.identity == "SHA256:ann");
    let tick = until_board(&mut hub, start, ann);
    let text = anns_screen(&mut hub, &mut rx, &mut screen, at(tick));
    assert!(text.contains("you 2 of 2, 0:21.00"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ann's lap on a server whose database fails and whose spool cannot be
/// written either (a folder stands where it goes; a full disk refuses
/// both alike): her results say NOT SAVED YET until the database takes
/// it, then no longer.
#[test]
fn a_lap_the_server_cannot_keep_says_so_until_it_is_kept() {
    let dir = std::env::temp_dir().join(format!("skid-serve-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("laps-waiting.toml")).unwrap();
    let mut two = hub_sim::TwoOnHub::keyed_in(&dir);
    let db = rusqlite::Connection::open(dir.join("skid.db")).unwrap();
    db.execute_batch("ALTER TABLE laps RENAME TO gone").unwrap();
    two.alone(0);
    assert!(two.race(120 * 60), "Ann's lap was done");
    let mut tick = 120 * 60;
    let mut look = |two: &mut hub_sim::TwoOnHub, want: bool| {
        for _ in 0..500 {
            tick += 4;
            two.hub.tick(two.at(tick));
            two.frames(tick);
            if two.screens[0].screen().contents().contains("NOT SAVED") == want {
                return two.screens[0].screen().contents();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("NOT SAVED {want}: {}", two.screens[0].screen().contents());
    };
    let text = look(&mut two, true);
    assert!(text.contains("NOT SAVED YET"), "{text}");
    // The database back (and the spool's place free): kept, and said.
    db.execute_batch("ALTER TABLE gone RENAME TO laps").unwrap();
    std::fs::remove_dir(dir.join("laps-waiting.toml")).unwrap();
    let text = look(&mut two, false);
    assert!(text.contains("RESULTS"), "{text}");
    let kept: i64 = db
        .query_row("SELECT COUNT(*) FROM laps", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 60: `skid records --data-dir DIR` on a server's data directory
/// found "no records" although `DIR/skid.db` held laps. It says where
/// they are and how to list them, and that command lists them.
#[test]
fn records_of_a_servers_data_directory_point_to_its_database() {
    let dir = std::env::temp_dir().join(format!("skid-serve-listing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    bobs_lap_on_pocket(&dir);
    let skid = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = skid(&["records", "--data-dir", dir.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    let db = dir.join("skid.db");
    let db = db.to_str().unwrap();
    assert!(
        err.contains(&format!("skid records --database {db}")),
        "{err}"
    );
    let out = skid(&["records", "--database", db]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("0:19.50") && listed.contains("bob"),
        "{listed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
