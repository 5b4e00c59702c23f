//! Players' tracks end to end (issue 64): two `skid serve` processes
//! sharing one PostgreSQL database, players on the real OpenSSH client
//! in tmux. Ann, on one, builds a circuit from nothing in the editor
//! reached from the lobby, by keys as a terminal sends them; its
//! problems go away as she draws; she may not publish it before she
//! saves it, nor before she has driven a lap of it; she drives one, and
//! publishes it. Ben, on the other server, sees it in his lobby with its
//! maker and medals, may not keep a track of his under its name nor
//! draw one past the size cap, makes a room on it and sets a lap on its
//! board. A guest may draw but not keep. The operator lists the tracks
//! and takes Ann's out of every lobby.
#![cfg(feature = "serve")]

#[path = "common/openssh.rs"]
mod openssh;
#[path = "common/postgres.rs"]
mod postgres_db;
#[path = "common/server.rs"]
mod server;

use std::process::Command;

use openssh::{Tmux, key, ssh, ssh_guest, w_held_to_the_results, wait_all};

/// `skid serve` on a free port, sharing `database`, offering pocket.
fn serve(dir: &std::path::Path, database: &str) -> (server::Server, u16) {
    let bin = env!("CARGO_BIN_EXE_skid");
    let (server, addr) = server::sharing(bin, dir, database, &["pocket"]);
    (server, addr.port())
}

/// A person at the editor in `t`, who knows where they put the cursor
/// (a new track's is in its middle; an arrow past the map's edge stays
/// at the edge).
struct Drawer<'a> {
    t: &'a Tmux,
    at: (usize, usize),
}

impl Drawer<'_> {
    fn keys(&self, keys: &[&str]) {
        for chunk in keys.chunks(20) {
            self.t.keys(chunk);
        }
    }

    /// The cursor to the map's top left corner, whatever its size.
    fn corner(&mut self) {
        self.keys(&["Left"; 250]);
        self.keys(&["Up"; 120]);
        self.at = (0, 0);
    }

    fn go(&mut self, to: (usize, usize)) {
        let (x, y) = self.at;
        let h = if to.0 > x { "Right" } else { "Left" };
        let v = if to.1 > y { "Down" } else { "Up" };
        self.keys(&vec![h; to.0.abs_diff(x)]);
        self.keys(&vec![v; to.1.abs_diff(y)]);
        self.at = to;
    }

    /// A tool and a brush, put down at each of `points`.
    fn stroke(&mut self, tool: &str, brush: &str, points: &[(usize, usize)]) {
        self.keys(&[tool, brush]);
        for &p in points {
            self.go(p);
            self.keys(&["Space"]);
        }
    }

    /// A setting typed: its key, what was there erased, `text`, Enter.
    fn type_in(&self, key: &str, text: &str) {
        self.keys(&[key]);
        self.keys(&["BSpace"; 20]);
        self.t.run(&["send-keys", "-t", "e2e", "-l", text]);
        self.keys(&["Enter"]);
    }
}

/// A ring of 30 x 12 in a new track: asphalt to the map's edge (a wall),
/// a wall island, the finish across the top, a start slot behind it,
/// checkpoint 1 across the bottom; named `name`, one lap.
fn ring(t: &Tmux, name: &str) {
    let mut d = Drawer { t, at: (0, 0) };
    d.type_in("x", "30x12");
    d.corner();
    d.stroke("b", "a", &[(0, 0), (29, 11)]);
    d.stroke("b", "w", &[(7, 4), (22, 7)]);
    d.stroke("l", "f", &[(11, 0), (11, 3)]);
    d.stroke("p", "s", &[(8, 1)]);
    d.stroke("l", "1", &[(11, 8), (11, 11)]);
    d.type_in("n", name);
    d.keys(&["[", "[", "["]);
}

/// `skid tracks --database URL` and `args`: its output and whether it
/// succeeded.
fn operator(database: &str, args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["tracks", "--database", database])
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (text, out.status.success())
}

#[test]
fn a_track_built_driven_and_published_on_one_server_is_raced_on_another() {
    let Some(db) = postgres_db::database("tracks") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("skid-tracks-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (ann_key, ann_print) = key(&dir, "ann");
    let (ben_key, _) = key(&dir, "ben");
    let (_one, one) = serve(&dir.join("one"), &db.url);
    let (_two, two) = serve(&dir.join("two"), &db.url);
    let Some(ann) = Tmux::start("tracks-ann", (80, 24), &ssh(one, "ann", &ann_key)) else {
        return;
    };
    let ben = Tmux::start("tracks-ben", (100, 30), &ssh(two, "ben", &ben_key)).unwrap();
    let guest = Tmux::start("tracks-guest", (80, 24), &ssh_guest(two, "gus")).unwrap();

    ann_builds_drives_and_publishes(&ann);
    ben_races_it(&ben);
    a_guest_keeps_nothing(&guest);
    the_operator_takes_it_back(&db.url, &ann_print, &ben);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ann, on one server, builds a ring in the editor, is refused
/// publishing it unsaved and undriven, drives a lap, publishes it.
fn ann_builds_drives_and_publishes(ann: &Tmux) {
    // Ann builds (the lobby's last row, ↑ from the first): a new track,
    // not raceable, then a ring that is.
    let lobby = wait_all(ann, &["you are ann", "[ Build a track ]"], 15);
    assert!(lobby.contains("[ Build a track ]"), "{lobby}");
    ann.keys(&["Up", "Enter"]);
    let new = wait_all(ann, &["EDIT New track", "NOT RACEABLE (2)"], 5);
    assert!(new.contains("NOT RACEABLE (2)"), "{new}");
    ring(ann, "Ann Ring");
    let drawn = wait_all(ann, &["RACEABLE: a lap", "Ann Ring · 1 laps"], 10);
    assert!(drawn.contains("RACEABLE: a lap"), "{drawn}");
    // Not published unsaved, nor saved and never driven.
    ann.keys(&["C-p"]);
    let unsaved = wait_all(ann, &["save it first"], 5);
    assert!(unsaved.contains("save it first"), "{unsaved}");
    ann.keys(&["C-s"]);
    let saved = wait_all(ann, &["saved: Ann Ring on the", "yours alone", "gold"], 30);
    assert!(
        saved.contains("yours alone") && saved.contains("gold"),
        "{saved}"
    );
    ann.keys(&["C-p"]);
    let undriven = wait_all(ann, &["drive a lap of it as"], 10);
    assert!(undriven.contains("drive a lap of it as"), "{undriven}");
    // She drives it (W held; the aid steers), and comes back to it.
    ann.keys(&["d"]);
    let results = w_held_to_the_results(ann);
    assert!(results.contains("Ann Ring"), "{results}");
    ann.keys(&["q"]);
    let back = wait_all(ann, &["EDIT Ann Ring", "RACEABLE"], 5);
    assert!(back.contains("EDIT Ann Ring"), "{back}");
    ann.keys(&["C-p"]);
    let published = wait_all(ann, &["published: Ann Ring is in"], 10);
    assert!(
        published.contains("published: Ann Ring is in"),
        "{published}"
    );
    // Back in her lobby, her track is hers to edit.
    ann.keys(&["q"]);
    let hers = wait_all(ann, &["[ edit Ann Ring · published ]"], 5);
    assert!(hers.contains("[ edit Ann Ring · published ]"), "{hers}");
}

/// Ben, on the other server: her track in his lobby; his own may not
/// take its name or pass the cap; a room on hers, a lap on its board.
fn ben_races_it(ben: &Tmux) {
    // Ben, on the other server: her track in his lobby, with its maker
    // and gold time.
    let listed = wait_all(ben, &["[ Ann Ring · by ann · gold"], 15);
    assert!(listed.contains("[ Ann Ring · by ann · gold"), "{listed}");
    // His own track may not take her track's name, nor pass the cap.
    ben.keys(&["Up", "Enter"]);
    wait_all(ben, &["EDIT New track"], 5);
    // The mouse, over SSH: a press at column 6, row 4 (SGR, from 1)
    // paints the cell (5, 3) with the brush, and the cursor goes there.
    let press = "1b 5b 3c 30 3b 36 3b 34 4d 1b 5b 3c 30 3b 36 3b 34 6d";
    let mut hex = vec!["send-keys", "-t", "e2e", "-H"];
    hex.extend(press.split(' '));
    ben.run(&hex);
    let clicked = wait_all(ben, &["5,3 of 60x20", "EDIT New track *"], 5);
    assert!(clicked.contains("EDIT New track *"), "{clicked}");
    let d = Drawer { t: ben, at: (0, 0) };
    d.type_in("n", "Ann Ring");
    d.keys(&["C-s", "C-s"]);
    let taken = wait_all(ben, &["another maker's"], 10);
    assert!(taken.contains("another maker's"), "{taken}");
    d.type_in("x", "300x50");
    let capped = wait_all(ben, &["from 3x3 to 200x100"], 5);
    assert!(capped.contains("from 3x3 to 200x100"), "{capped}");
    // Esc alone: a pause after it, as a person's (Esc then q at once
    // is Alt-q).
    d.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    d.keys(&["q", "q"]);
    // A room on her track; a lap of his on its board.
    wait_all(ben, &["[ Ann Ring · by ann"], 5);
    ben.keys(&["Up", "Up", "Enter"]);
    let room = wait_all(ben, &["Start race", "Ann Ring", "AIDED BOARD"], 10);
    assert!(room.contains("room 1") && room.contains("ann"), "{room}");
    ben.keys(&["Enter"]);
    w_held_to_the_results(ben);
    ben.keys(&["Enter"]);
    let board = wait_all(ben, &["AIDED BOARD", " ben", " ann"], 10);
    assert!(board.contains(" ben") && board.contains(" ann"), "{board}");
}

/// A guest draws, and is told a guest's tracks are not kept.
fn a_guest_keeps_nothing(guest: &Tmux) {
    // A guest draws, and is told a guest's tracks are not kept.
    wait_all(guest, &["a guest"], 10);
    guest.keys(&["Up", "Enter"]);
    wait_all(guest, &["EDIT New track"], 5);
    guest.keys(&["C-s", "C-s"]);
    let told = wait_all(guest, &["a guest's tracks are not"], 5);
    assert!(told.contains("a guest's tracks are not"), "{told}");
}

/// The operator lists the tracks, takes Ann's out of every lobby (Ben's
/// loses it), and is told of a track that is not there.
fn the_operator_takes_it_back(database: &str, ann_print: &str, ben: &Tmux) {
    // The operator: her track listed under her key, then taken out of
    // every lobby; she keeps it.
    let (list, ok) = operator(database, &[]);
    assert!(
        ok && list.contains("Ann Ring") && list.contains(ann_print),
        "{list}"
    );
    let line = list.lines().find(|l| l.starts_with("Ann Ring")).unwrap();
    assert!(line.contains("published"), "{list}");
    let (said, ok) = operator(database, &["--unpublish", "Ann Ring", "--key", ann_print]);
    assert!(ok, "{said}");
    ben.keys(&["q"]);
    let gone = (0..100)
        .map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            ben.screen()
        })
        .find(|s| s.contains("you are ben") && !s.contains("Ann Ring · by ann"));
    assert!(gone.is_some(), "{}", ben.screen());
    let (missing, ok) = operator(database, &["--remove", "No Such", "--key", ann_print]);
    assert!(!ok && missing.contains("keeps no track"), "{missing}");
}
