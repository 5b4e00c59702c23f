//! The records' thread and its database: laps kept per key, boards,
//! the first start's import of record files, and changes seen by a second
//! server on the same database.

use super::*;
use std::time::Instant;

fn record(track_id: &str, time: f64) -> Record {
    Record {
        track: "t".into(),
        track_id: track_id.into(),
        model: ModelKind::Arcade,
        car: "hatch".into(),
        car_id: "c".into(),
        time,
        ticks: (time * 120.0) as u64,
        hz: 120,
        splits: vec![],
        medal: None,
        aided: false,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-keeper-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Polls `k` until `done` holds of what it has gathered (5 s at most).
fn wait(k: &mut Keeper, mut done: impl FnMut(&Keeper, &Polled) -> bool) -> Polled {
    let mut all = Polled::default();
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        let p = k.poll();
        all.records.extend(p.records);
        all.changed.extend(p.changed);
        all.news |= p.news;
        all.unsaved.extend(p.unsaved);
        if done(k, &all) {
            return all;
        }
        assert!(Instant::now() < end, "the records' thread never said it");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Another hand takes the laps' table of the database in `dir` away:
/// every write fails meanwhile. Returns its connection.
fn take_the_table_away(dir: &Path) -> rusqlite::Connection {
    let other = rusqlite::Connection::open(dir.join("skid.db")).unwrap();
    other
        .execute_batch("ALTER TABLE laps RENAME TO gone")
        .unwrap();
    other
}

fn give_the_table_back(other: &rusqlite::Connection) {
    other
        .execute_batch("ALTER TABLE gone RENAME TO laps")
        .unwrap();
}

fn key(track: &str) -> LapKey {
    (track.to_string(), ModelKind::Arcade, "c".to_string())
}

#[test]
fn laps_follow_the_key_and_the_board_survives_a_restart() {
    let dir = temp("restart");
    let alice = "SHA256:ab/cd+ef";
    let bob = "SHA256:zz/yy+xx";
    {
        let mut k = Keeper::open(&dir).unwrap();
        k.save(alice, "alice", record("T", 41.0), vec![[1.0, 2.0, 0.5]]);
        k.save(bob, "bob", record("T", 40.0), vec![]);
        k.save(bob, "bob", record("U", 50.0), vec![]);
        k.save(bob, "bob", record("U", 55.0), vec![]); // not better: not kept
        assert_eq!(k.board["T"].name, "bob");
    } // the thread writes what it was given, then ends
    let mut k = Keeper::open(&dir).unwrap();
    assert_eq!(k.board["T"].time, 40.0);
    assert_eq!(k.board["T"].name, "bob");
    assert_eq!(k.board["U"].time, 50.0);
    // Alice's own record and ghost, for her key only.
    let ask = |player| Ask {
        room: 1,
        race: 1,
        player,
        wants: Wants::Records,
    };
    k.ask(alice, key("T"), 120, ask(1));
    k.ask("SHA256:other", key("T"), 120, ask(2));
    let answers = wait(&mut k, |_, p| p.records.len() == 2).records;
    assert_eq!(answers[0].0, ask(1));
    let lap = answers[0].1.first().expect("alice's lap");
    assert_eq!(lap.ticks, 41 * 120);
    assert_eq!(lap.ghost, [[1.0, 2.0, 0.5]]);
    assert!(answers[1].1.is_empty());
    // The board: bob first, alice second, and where each stands.
    k.ask_board(key("T"), vec![alice.into(), "SHA256:nobody".into()]);
    wait(&mut k, |k, _| k.boards.contains_key(&key("T")));
    let board = &k.boards[&key("T")].unaided;
    let names: Vec<&str> = board.top.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["bob", "alice"]);
    assert_eq!(board.total, 2);
    assert_eq!(board.places.len(), 1, "nobody has no place");
    assert_eq!((board.places[0].0, board.places[0].1.time), (2, 41.0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lap_kept_by_one_server_shows_on_the_others_board() {
    let dir = temp("two");
    let mut one = Keeper::open(&dir).unwrap();
    let mut two = Keeper::open(&dir).unwrap();
    two.ask_board(key("T"), vec![]);
    wait(&mut two, |k, _| k.boards.contains_key(&key("T")));
    assert!(two.boards[&key("T")].unaided.top.is_empty());
    one.save("SHA256:ann", "ann", record("T", 33.0), vec![]);
    let changed = wait(&mut two, |_, p| !p.changed.is_empty()).changed;
    assert_eq!(changed, [key("T")]);
    assert_eq!(two.board["T"].name, "ann", "the lobby's best too");
    two.ask_board(key("T"), vec!["SHA256:ann".into()]);
    wait(&mut two, |k, _| !k.boards[&key("T")].unaided.top.is_empty());
    assert_eq!(two.boards[&key("T")].unaided.places[0].0, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_files_of_an_older_server_are_imported_once_and_left() {
    let dir = temp("import");
    let folder = dir.join("players").join("SHA256_ab_cd-ef");
    let store = Store::new(&folder);
    store.save(record("T", 44.5), &[[3.0, 4.0, 0.0]]).unwrap();
    std::fs::write(folder.join("name"), "carol").unwrap();
    {
        let mut k = Keeper::open(&dir).unwrap();
        assert_eq!(k.board["T"].name, "carol");
        k.ask(
            "SHA256:ab/cd+ef",
            key("T"),
            120,
            Ask {
                room: 1,
                race: 1,
                player: 1,
                wants: Wants::Records,
            },
        );
        let answers = wait(&mut k, |_, p| !p.records.is_empty()).records;
        let lap = answers[0].1.first().expect("carol's lap, under her key");
        assert_eq!(lap.ghost, [[3.0, 4.0, 0.0]]);
    }
    assert!(folder.join("records.toml").exists(), "left in place");
    // A lap in the files after the import is not imported again.
    store.save(record("T", 40.0), &[]).unwrap();
    let k = Keeper::open(&dir).unwrap();
    assert_eq!(k.board["T"].time, 44.5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_database_newer_than_this_build_is_refused_with_its_path() {
    let dir = temp("newer");
    drop(Keeper::open(&dir).unwrap());
    let conn = rusqlite::Connection::open(dir.join("skid.db")).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let Err(e) = Keeper::open(&dir) else {
        panic!("a newer schema is refused");
    };
    assert!(
        e.starts_with(&dir.join("skid.db").display().to_string()),
        "{e}"
    );
    assert!(e.contains("schema version 99"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_servers_starting_at_once_on_a_new_database_both_open_it() {
    for round in 0..10 {
        let dir = temp(&format!("both-{round}"));
        let start = std::sync::Arc::new(std::sync::Barrier::new(2));
        let both: Vec<_> = (0..2)
            .map(|_| {
                let (dir, start) = (dir.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    Keeper::open(&dir).map(|_| ())
                })
            })
            .collect();
        for t in both {
            assert_eq!(t.join().unwrap(), Ok(()), "round {round}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A keeper on `dir` whose database lost its laps' table (taken away
/// through the connection returned), and Ann's lap of 30 s on `T`, its
/// ghost one `pose`, handed to it meanwhile.
fn anns_lap_while_the_table_is_gone(
    dir: &std::path::Path,
    pose: [f64; 3],
) -> (Keeper, rusqlite::Connection) {
    let mut k = Keeper::open(dir).unwrap();
    let other = take_the_table_away(dir);
    k.save("SHA256:ann", "ann", record("T", 30.0), vec![pose]);
    (k, other)
}

#[test]
fn laps_wait_while_the_database_fails_and_are_written_when_it_is_back() {
    let dir = temp("down");
    let (mut k, other) = anns_lap_while_the_table_is_gone(&dir, [1.0, 1.0, 0.0]);
    k.save("SHA256:bob", "bob", record("T", 31.0), vec![]);
    std::thread::sleep(Duration::from_millis(400));
    let kept: i64 = other
        .query_row("SELECT COUNT(*) FROM gone", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, 0, "nothing written while the table is gone");
    assert!(k.poll().changed.is_empty());
    // Back: both laps are written, and the boards hear of it.
    give_the_table_back(&other);
    let changed = wait(&mut k, |_, p| !p.changed.is_empty()).changed;
    assert_eq!(changed, [key("T")]);
    drop(k);
    let mut db = db::Sqlite::open(&dir.join("skid.db")).unwrap();
    assert_eq!(
        db.best("SHA256:ann", &key("T"), false).unwrap().unwrap().1,
        [[1.0, 1.0, 0.0]]
    );
    assert_eq!(
        db.best("SHA256:bob", &key("T"), false)
            .unwrap()
            .unwrap()
            .0
            .time,
        31.0
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn laps_waiting_when_the_server_stops_are_written_at_its_next_start() {
    let dir = temp("spool");
    let (k, other) = anns_lap_while_the_table_is_gone(&dir, [2.0, 3.0, 0.5]);
    // The lap waits, kept in the spool as soon as the write fails; then
    // the server stops with the database still failing (its last try
    // fails too), as a kill would leave it: only the spool holds the lap.
    let spool = dir.join("laps-waiting.toml");
    let end = Instant::now() + Duration::from_secs(5);
    while !spool.exists() {
        assert!(Instant::now() < end, "the lap waiting was never kept");
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(k);
    assert!(spool.exists());
    // The database back, a new start writes the lap and drops the spool.
    give_the_table_back(&other);
    let mut k = Keeper::open(&dir).unwrap();
    let changed = wait(&mut k, |_, p| !p.changed.is_empty()).changed;
    assert_eq!(changed, [key("T")]);
    drop(k);
    assert!(!spool.exists());
    let mut db = db::Sqlite::open(&dir.join("skid.db")).unwrap();
    let (r, ghost) = db.best("SHA256:ann", &key("T"), false).unwrap().unwrap();
    assert_eq!((r.time, ghost), (30.0, vec![[2.0, 3.0, 0.5]]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lap_neither_the_database_nor_the_spool_takes_is_told_then_kept() {
    let dir = temp("nowhere");
    // A folder where the spool goes: it cannot be written either.
    std::fs::create_dir_all(dir.join("laps-waiting.toml")).unwrap();
    let (mut k, other) = anns_lap_while_the_table_is_gone(&dir, [1.0, 2.0, 0.0]);
    let told = wait(&mut k, |_, p| !p.unsaved.is_empty()).unsaved;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].0 == "SHA256:ann" && told[0].1.is_some(), "{told:?}");
    // Said once while it goes on failing.
    std::thread::sleep(Duration::from_millis(600));
    assert!(k.poll().unsaved.is_empty());
    // Bob's lap, while it fails: he is told too.
    k.save("SHA256:bob", "bob", record("T", 31.0), vec![]);
    let told = wait(&mut k, |_, p| !p.unsaved.is_empty()).unsaved;
    assert!(told.iter().all(|(_, why)| why.is_some()), "{told:?}");
    assert!(told.iter().any(|(id, _)| id == "SHA256:bob"), "{told:?}");
    // The database back: both laps written, and both told so.
    give_the_table_back(&other);
    let mut told = wait(&mut k, |_, p| p.unsaved.len() >= 2).unsaved;
    told.sort();
    assert_eq!(
        told,
        [("SHA256:ann".into(), None), ("SHA256:bob".into(), None)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: a player below the top can race the lap just above theirs;
/// one in the top or just below it has nothing more to pick.
#[test]
fn a_board_holds_the_lap_just_above_a_player_below_its_top() {
    let dir = temp("above");
    let mut k = Keeper::open(&dir).unwrap();
    // Fourteen laps, 20.0 s to 26.5 s: the slowest is 14th.
    for i in 0..14 {
        let who = format!("SHA256:p{i}");
        k.save(
            &who,
            &format!("p{i}"),
            record("T", 20.0 + 0.5 * f64::from(i)),
            vec![],
        );
    }
    let who: Vec<String> = ["SHA256:p13", "SHA256:p10", "SHA256:p3"]
        .map(String::from)
        .into();
    k.ask_board(key("T"), who);
    wait(&mut k, |k, _| {
        k.boards
            .get(&key("T"))
            .is_some_and(|b| b.unaided.total == 14)
    });
    let board = &k.boards[&key("T")].unaided;
    assert_eq!(board.top.len(), 10);
    // p13 (14th) has p12 (13th) above; p10 (11th) has the 10th, in the top.
    assert_eq!(board.above.len(), 1, "{:?}", board.above);
    assert_eq!(
        (board.above[0].0, board.above[0].1.name.as_str()),
        (13, "p12")
    );
    assert_eq!(board.at(13).map(|e| e.time), Some(26.0));
    assert_eq!(board.at(12), None, "not asked about");
    assert_eq!(board.at(14).map(|e| e.name.as_str()), Some("p13"));
    let mut places: Vec<u64> = (1..=10).collect();
    assert_eq!(board.ghost_places(Some("SHA256:p3"), &[]), places);
    assert_eq!(board.ghost_places(Some("SHA256:p10"), &[]), places);
    assert_eq!(board.ghost_places(None, &[]), places);
    // p3 races with p13 and p10: their laps (14th, 11th) come after the
    // top, the better first; p13 goes on from the top to the lap just
    // above theirs, then to p10's.
    let mates = ["SHA256:p13".into(), "SHA256:p10".into()];
    let then = |more: &[u64]| places.iter().chain(more).copied().collect::<Vec<u64>>();
    assert_eq!(
        board.ghost_places(Some("SHA256:p3"), &mates),
        then(&[11, 14])
    );
    assert_eq!(
        board.ghost_places(Some("SHA256:p13"), &mates),
        then(&[13, 11])
    );
    places.push(13);
    assert_eq!(board.ghost_places(Some("SHA256:p13"), &[]), places);
    assert!(board.just_above(13, Some("SHA256:p13")));
    assert!(!board.just_above(13, Some("SHA256:p10")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A faster aided lap is kept on the aided board beside its driver's
/// unaided one, never in its place: both are read back as records to
/// beat, each board ranks its own, and the lobby shows the unaided best.
#[test]
fn an_aided_lap_goes_on_a_board_of_its_own() {
    let dir = temp("boards");
    let aided = |time| Record {
        aided: true,
        ..record("T", time)
    };
    let mut k = Keeper::open(&dir).unwrap();
    k.save("SHA256:ann", "ann", record("T", 30.0), vec![[1.0; 3]]);
    k.save("SHA256:bob", "bob", record("T", 32.0), vec![]);
    k.save("SHA256:ann", "ann", aided(20.0), vec![[2.0; 3]]);
    assert_eq!(
        (k.board["T"].name.as_str(), k.board["T"].time),
        ("ann", 30.0)
    );
    let ask = Ask {
        room: 1,
        race: 1,
        player: 1,
        wants: Wants::Records,
    };
    k.ask("SHA256:ann", key("T"), 120, ask);
    let records = wait(&mut k, |_, p| !p.records.is_empty()).records;
    let laps: Vec<(u64, bool, Vec<[f64; 3]>)> = (records[0].1.iter())
        .map(|l| (l.ticks, l.aided, l.ghost.clone()))
        .collect();
    assert_eq!(
        laps,
        [(3600, false, vec![[1.0; 3]]), (2400, true, vec![[2.0; 3]])]
    );
    // Her aided ghost alone, when it is the one picked.
    let ghost = Ask {
        wants: Wants::Ghost { aided: true },
        ..ask
    };
    k.ask("SHA256:ann", key("T"), 120, ghost);
    let records = wait(&mut k, |_, p| !p.records.is_empty()).records;
    assert_eq!(records[0].1.len(), 1);
    assert!(records[0].1[0].aided);
    k.ask_board(key("T"), vec!["SHA256:ann".into()]);
    wait(&mut k, |k, _| k.boards.contains_key(&key("T")));
    let boards = &k.boards[&key("T")];
    let names = |b: &db::Board| {
        b.top
            .iter()
            .map(|e| (e.name.clone(), e.time))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&boards.unaided),
        [("ann".to_string(), 30.0), ("bob".to_string(), 32.0)]
    );
    assert_eq!(names(&boards.aided), [("ann".to_string(), 20.0)]);
    assert_eq!(boards.unaided.places[0].0, 1);
    assert_eq!(boards.aided.places[0].0, 1);
    // g goes through the unaided board, then the aided one.
    let spots = boards.ghost_spots(Some("SHA256:bob"), &[]);
    let spot = |aided, place| db::Spot { aided, place };
    assert_eq!(spots, [spot(false, 1), spot(false, 2), spot(true, 1)]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database another process holds locked when the server starts (a
/// tool with a transaction open): the server starts without it, saying
/// who holds it, and keeps the laps until it lets go.
#[test]
fn a_database_held_by_another_process_at_start_is_waited_for() {
    let dir = temp("held");
    drop(Keeper::open(&dir).unwrap());
    let other = rusqlite::Connection::open(dir.join("skid.db")).unwrap();
    other.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let mut k = Keeper::open(&dir).expect("started without it");
    assert!(!k.online);
    let said = k.down_at_start.clone().unwrap_or_default();
    assert!(said.contains("another process holds it"), "{said}");
    k.save("SHA256:ann", "ann", record("T", 30.0), vec![]);
    other.execute_batch("COMMIT").unwrap();
    let changed = wait(&mut k, |_, p| !p.changed.is_empty()).changed;
    assert_eq!(changed, [key("T")]);
    assert!(k.online);
    let _ = std::fs::remove_dir_all(&dir);
}
