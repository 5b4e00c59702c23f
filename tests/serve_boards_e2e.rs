//! Boards of their own, end to end: the release binary as a server, two
//! players on the real OpenSSH client (each with a key of their own) in
//! tmux. Ann holds an unaided lap on pocket; she then drives an aided
//! lap (W held alone on a keyboard without key releases), faster. The
//! room's BOARD, bob's lobby and `skid records --database` show her
//! unaided lap on the board that comes first and the aided one on the
//! aided board after it, and her unaided record and ghost are still in
//! the database.
#![cfg(feature = "serve")]

#[path = "common/laps.rs"]
mod laps;
#[path = "common/openssh.rs"]
mod openssh;
#[path = "common/server.rs"]
mod server;

use std::process::Command;

use openssh::{Tmux, key, ssh, w_held_to_the_results, wait_all};
use skid::physics::models::ModelKind;
use skid::race::records::Record;
use skid::serve::db::{Database, Sqlite};
use skid::serve::keeper::Keeper;

/// The lines of `screen` that hold `text`, trimmed of the box.
fn line_of<'a>(screen: &'a str, text: &str) -> Vec<&'a str> {
    (screen.lines())
        .filter(|l| l.contains(text))
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect()
}

/// Ann's unaided lap on pocket (arcade, the room's first car), 40 s,
/// with its ghost, kept in the server's data directory `data` under
/// her key `ann` before the server starts.
fn anns_unaided_lap(data: &std::path::Path, ann: &str) -> (Record, Vec<[f64; 3]>) {
    let (unaided, ghost) = laps::slow_on_pocket();
    let mut k = Keeper::open(data).unwrap();
    k.save(ann, "ann", unaided.clone(), ghost.clone());
    (unaided, ghost)
}

/// In the room's screen in `t`: the Laps row set to 1 by the host.
fn one_lap(t: &Tmux) {
    t.keys(&["Up", "Up", "Up", "Up"]);
    t.wait_for("› Laps");
    t.keys(&["Left", "Left", "Left", "Left"]);
    t.wait_for("◀ 1 ▶");
    t.keys(&["Down", "Down", "Down", "Down"]);
    let room = t.wait_for("› [ Start race ]");
    assert!(line_of(&room, "Laps")[0].contains("◀ 1 ▶"), "{room}");
}

/// `skid records --database db`'s rows: (board, name, time).
fn listed(db: &std::path::Path) -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["records", "--database"])
        .arg(db)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (text.lines().skip(1))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[3].into(), w[5].into(), w[6].into())
        })
        .collect()
}

#[test]
fn an_aided_lap_goes_on_the_aided_board_and_the_unaided_record_stays() {
    if Command::new("ssh").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the OpenSSH client is not installed, and CI needs this test"
        );
        eprintln!("skipped: no ssh client");
        return;
    }
    let dir = std::env::temp_dir().join(format!("skid-boards-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (ann_key, ann) = key(&dir, "ann");
    let (bob_key, _) = key(&dir, "bob");
    let data = dir.join("data");
    let (unaided, ghost) = anns_unaided_lap(&data, &ann);
    let args = [
        "--data-dir".as_ref(),
        data.as_os_str(),
        "--track".as_ref(),
        "pocket".as_ref(),
    ];
    let (mut server, addr) = server::serve::<&std::ffi::OsStr>(env!("CARGO_BIN_EXE_skid"), &args);
    let port = addr.port();
    let Some(a) = Tmux::start("boards-ann", (100, 40), &ssh(port, "ann", &ann_key)) else {
        return;
    };
    let Some(b) = Tmux::start("boards-bob", (80, 24), &ssh(port, "bob", &bob_key)) else {
        return;
    };
    a.wait_for("you are ann");
    b.wait_for("you are bob");
    // Ann makes a room of one lap and starts it.
    a.keys(&["Enter"]);
    a.wait_for("Start race");
    one_lap(&a);
    let room = a.screen();
    // The room's board before: her unaided lap, no aided board.
    assert!(room.contains("1. 0:40.00  ann"), "{room}");
    assert!(!room.contains("AIDED BOARD"), "{room}");
    a.keys(&["Enter"]);
    let results = w_held_to_the_results(&a);
    assert!(results.contains("aided"), "{results}");
    assert!(results.contains("NO MEDAL  ·  AIDED"), "{results}");
    // Back in the room: the unaided board first, her 40 s lap still on
    // it; the aided board after it with her aided lap.
    a.keys(&["Enter"]);
    let room = wait_all(&a, &["BOARD", "AIDED BOARD"], 5);
    let board = room.find("BOARD  ·").expect("the board");
    let aided = room.find("AIDED BOARD").expect("the aided board");
    assert!(board < aided, "{room}");
    let unaided_lap = room.find("1. 0:40.00  ann").expect("the unaided lap");
    assert!(unaided_lap < aided, "{room}");
    let aided_line = line_of(&room[aided..], "ann")[0].to_string();
    assert!(
        aided_line.starts_with("1. 0:") && aided_line.ends_with("aided"),
        "{room}"
    );
    // Bob's lobby, the cursor on the room: the same, in the same order.
    b.keys(&["Down"]);
    let lobby = wait_all(&b, &["BOARD  ·  room 1", "AIDED BOARD"], 5);
    let first = lobby.find("0:40.00  ann").expect("the unaided lap");
    let second = lobby.find("AIDED BOARD").expect("the aided board");
    assert!(first < second, "{lobby}");
    assert!(lobby[second..].contains(&aided_line), "{lobby}");
    // skid records --database: the unaided board first.
    let db = data.join("skid.db");
    let rows = listed(&db);
    let boards: Vec<(&str, &str)> = rows.iter().map(|r| (&*r.0, &*r.1)).collect();
    assert_eq!(boards, [("unaided", "ann"), ("aided", "ann")], "{rows:?}");
    assert_eq!(rows[0].2, "0:40.00");
    // Her unaided record and its ghost, as they were.
    a.keys(&["Escape"]);
    b.keys(&["q"]);
    let _ = server.stop(libc::SIGTERM, 5.0);
    let mut db = Sqlite::open(&db).unwrap();
    let key = (
        unaided.track_id.clone(),
        ModelKind::Arcade,
        unaided.car_id.clone(),
    );
    let (kept, kept_ghost) = db.best(&ann, &key, false).unwrap().expect("her record");
    assert_eq!((kept.time, kept_ghost), (40.0, ghost));
    let (fast, _) = db.best(&ann, &key, true).unwrap().expect("her aided lap");
    assert!(fast.aided && fast.time < 40.0, "{fast:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
