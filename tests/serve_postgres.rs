//! The server's laps on PostgreSQL (`--database postgres://...`), as
//! several servers share them: a lap kept through one is on the other's
//! boards within a second; a lost connection is made again and the laps
//! meanwhile are kept; two servers starting at once on a new database
//! both run.
#![cfg(feature = "serve")]

#[path = "common/laps.rs"]
mod laps;
#[path = "common/postgres.rs"]
mod postgres_db;

use std::time::{Duration, Instant};

use skid::physics::models::ModelKind;
use skid::race::records::Record;
use skid::serve::keeper::{Ask, Keeper, LapKey, Polled, Wants};

use laps::on_00ff as record;

fn key() -> LapKey {
    ("00ff".into(), ModelKind::Arcade, "c".into())
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-pg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Polls `k` until `done` holds, within `limit`.
fn until(k: &mut Keeper, limit: Duration, mut done: impl FnMut(&Keeper, &Polled) -> bool) {
    let end = Instant::now() + limit;
    let mut all = Polled::default();
    loop {
        let p = k.poll();
        all.records.extend(p.records);
        all.changed.extend(p.changed);
        all.news |= p.news;
        if done(k, &all) {
            return;
        }
        assert!(Instant::now() < end, "not within {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_lap_kept_through_one_server_is_on_the_others_board_within_a_second() {
    let Some(db) = postgres_db::database("board") else {
        return;
    };
    let mut one = Keeper::on(Some(&db.url), &temp("one")).unwrap();
    let mut two = Keeper::on(Some(&db.url), &temp("two")).unwrap();
    two.ask_board(key(), vec!["SHA256:ann".into()]);
    until(&mut two, Duration::from_secs(5), |k, _| {
        k.boards.contains_key(&key())
    });
    assert!(two.boards[&key()].unaided.top.is_empty());
    let ghost = vec![[1.5, 2.5, 0.25]; 300];
    one.save("SHA256:ann", "ann", record(21.5), ghost.clone());
    let set = Instant::now();
    until(&mut two, Duration::from_secs(1), |_, p| {
        p.changed.contains(&key())
    });
    two.ask_board(key(), vec!["SHA256:ann".into()]);
    until(&mut two, Duration::from_secs(1), |k, _| {
        !k.boards[&key()].unaided.top.is_empty()
    });
    let shown = set.elapsed();
    assert!(shown < Duration::from_secs(1), "{shown:?}");
    let board = &two.boards[&key()].unaided;
    assert_eq!(
        (board.top[0].name.as_str(), board.top[0].time),
        ("ann", 21.5)
    );
    assert_eq!(board.places[0].0, 1);
    assert_eq!(two.board["00ff"].name, "ann", "the lobby's best lap too");
    // Her record and ghost, read through the other server.
    let ask = Ask {
        room: 1,
        race: 1,
        player: 1,
        wants: Wants::Records,
    };
    two.ask("SHA256:ann", key(), 120, ask);
    let mut lap = None;
    until(&mut two, Duration::from_secs(5), |_, p| {
        lap = p.records.first().and_then(|(_, l)| l.first().cloned());
        !p.records.is_empty()
    });
    assert_eq!(lap.expect("ann's lap").ghost, ghost);
}

/// The lap just above a player below the board's top, read from
/// PostgreSQL (its LIMIT and OFFSET bound as parameters).
#[test]
fn the_lap_just_above_a_player_below_the_top_is_on_the_board() {
    let Some(db) = postgres_db::database("above") else {
        return;
    };
    let mut k = Keeper::on(Some(&db.url), &temp("above")).unwrap();
    for i in 0..12 {
        let who = format!("SHA256:p{i}");
        k.save(&who, &format!("p{i}"), record(20.0 + f64::from(i)), vec![]);
    }
    k.ask_board(key(), vec!["SHA256:p11".into()]);
    until(&mut k, Duration::from_secs(5), |k, _| {
        k.boards.get(&key()).is_some_and(|b| b.unaided.total == 12)
    });
    let board = &k.boards[&key()].unaided;
    assert_eq!(board.places[0].0, 12);
    assert_eq!(
        (board.above[0].0, board.above[0].1.name.as_str()),
        (11, "p10")
    );
    assert_eq!(
        board.ghost_places(Some("SHA256:p11"), &[]).last(),
        Some(&11)
    );
}

#[test]
fn a_lost_connection_is_made_again_and_laps_meanwhile_are_kept() {
    let Some(db) = postgres_db::database("lost") else {
        return;
    };
    let mut k = Keeper::on(Some(&db.url), &temp("lost")).unwrap();
    db.cut_connections();
    k.save("SHA256:bob", "bob", record(30.0), vec![]);
    until(&mut k, Duration::from_secs(5), |_, p| {
        p.changed.contains(&key())
    });
    k.ask_board(key(), vec![]);
    until(&mut k, Duration::from_secs(5), |k, _| {
        k.boards.get(&key()).is_some_and(|b| b.unaided.total == 1)
    });
}

#[test]
fn two_servers_starting_at_once_on_a_new_database_both_open_it() {
    let Some(db) = postgres_db::database("both") else {
        return;
    };
    let both: Vec<_> = (0..2)
        .map(|i| {
            let url = db.url.clone();
            std::thread::spawn(move || {
                Keeper::on(Some(&url), &temp(&format!("both{i}"))).map(|_| ())
            })
        })
        .collect();
    for t in both {
        assert_eq!(t.join().unwrap(), Ok(()));
    }
}

/// `skid records --database` with its arguments: stdout, stderr, status.
fn records(args: &[&str]) -> (String, String, Option<i32>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .arg("records")
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr), out.status.code())
}

#[test]
fn skid_records_lists_a_servers_boards_from_either_database() {
    let dir = temp("records");
    {
        let mut k = Keeper::open(&dir).unwrap();
        k.save("SHA256:ann", "ann", record(21.5), vec![]);
        k.save("SHA256:bob", "bob", record(20.25), vec![]);
    }
    let file = dir.join("skid.db");
    let (out, err, status) = records(&["--database", file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("track") && lines[0].contains("place"),
        "{out}"
    );
    assert!(
        lines[1].contains("bob") && lines[1].contains("0:20.25"),
        "{out}"
    );
    assert!(
        lines[2].contains("ann") && lines[2].contains("0:21.50"),
        "{out}"
    );
    // Another track's boards: none, and said so.
    let (out, err, status) = records(&["--database", file.to_str().unwrap(), "--track", "oval"]);
    assert_eq!((status, out.lines().count()), (Some(0), 1), "{out}");
    assert!(err.contains("no records of that track"), "{err}");
    // A database that is not there is an error naming it, and none is made.
    let missing = dir.join("nothing.db");
    let (_, err, status) = records(&["--database", missing.to_str().unwrap()]);
    assert_eq!(status, Some(2));
    assert!(err.contains(missing.to_str().unwrap()), "{err}");
    assert!(!missing.exists());
    // TLS asked of PostgreSQL, which skid does not speak: said before
    // connecting, the password not shown.
    let tls = "postgres://skid:secret@127.0.0.1:9/skid?sslmode=require";
    let (_, err, status) = records(&["--database", tls]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("without TLS") && !err.contains("secret"),
        "{err}"
    );
    // The same boards on PostgreSQL.
    let Some(db) = postgres_db::database("records") else {
        return;
    };
    {
        let mut k = Keeper::on(Some(&db.url), &temp("records-pg")).unwrap();
        k.save("SHA256:cat", "cat", record(19.0), vec![]);
    }
    let (out, err, status) = records(&["--database", &db.url]);
    assert_eq!(status, Some(0), "{err}");
    assert!(
        out.lines().nth(1).is_some_and(|l| l.contains("cat")),
        "{out}"
    );
}

#[test]
fn a_database_that_refuses_says_why_without_the_password() {
    // Nothing listens on port 9 here: the refusal itself is the reason.
    let url = "postgres://skid:s3cret@127.0.0.1:9/skid?password=s3cret";
    let (_, err, status) = records(&["--database", url]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("Connection refused") && !err.contains("s3cret"),
        "{err}"
    );
    let Some(db) = postgres_db::database("refuses") else {
        return;
    };
    // A password the server refuses, then a database it does not have:
    // the server's own words, never the password.
    let (who, place) = db.url.split_once('@').unwrap();
    let user = who.rsplit_once(':').unwrap().0;
    let wrong = format!("{user}:n0tit@{place}");
    let (_, err, status) = records(&["--database", &wrong]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("password authentication failed") && !err.contains("n0tit"),
        "{err}"
    );
    let missing = format!("{}/skid_nothing_here", db.url.rsplit_once('/').unwrap().0);
    let (_, err, status) = records(&["--database", &missing]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("\"skid_nothing_here\" does not exist"),
        "{err}"
    );
}

/// Laps the steering aid steered are ranked on a board of their own on
/// either database: a person's faster aided lap replaces nothing, and
/// `skid records --database` lists each key's unaided board first.
#[test]
fn aided_laps_are_ranked_apart_on_either_databases_boards() {
    let aided = |time| Record {
        aided: true,
        ..record(time)
    };
    let check = |url: &str| {
        let (out, err, status) = records(&["--database", url]);
        assert_eq!(status, Some(0), "{err}");
        let lines: Vec<Vec<&str>> = out
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        let header = [
            "track", "model", "car", "board", "place", "name", "time", "medal",
        ];
        assert_eq!(lines[0], header, "{out}");
        let rows: Vec<(&str, &str, &str)> = lines[1..].iter().map(|l| (l[3], l[4], l[5])).collect();
        assert_eq!(
            rows,
            [
                ("unaided", "1", "ann"),
                ("unaided", "2", "bob"),
                ("aided", "1", "ann"),
                ("aided", "2", "bob")
            ],
            "{out}"
        );
    };
    let save = |k: &mut Keeper| {
        k.save("SHA256:ann", "ann", record(21.5), vec![]);
        k.save("SHA256:bob", "bob", aided(12.0), vec![]);
        k.save("SHA256:bob", "bob", record(22.0), vec![]);
        k.save("SHA256:ann", "ann", aided(11.5), vec![]);
    };
    let dir = temp("aided");
    {
        let mut k = Keeper::open(&dir).unwrap();
        save(&mut k);
        assert_eq!(k.board["00ff"].name, "ann", "the lobby's best lap");
        assert!(!k.board["00ff"].aided, "is the best unaided lap");
    }
    check(dir.join("skid.db").to_str().unwrap());
    let Some(db) = postgres_db::database("aided") else {
        return;
    };
    {
        let mut k = Keeper::on(Some(&db.url), &temp("aided-pg")).unwrap();
        save(&mut k);
    }
    check(&db.url);
}
