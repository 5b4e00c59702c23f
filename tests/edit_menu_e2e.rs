//! The title menu's Build a track (issue 64), played as a person plays:
//! the release binary in tmux, in a folder of its own. Down from Start
//! is Build a track; Enter opens the editor on `untitled.track` there
//! (what `skid edit` with no file opens); a ring drawn by keys and saved
//! (a bare file name: saved in the folder, no error), q comes back to
//! the menu with the track among its tracks, selected, and raced.

#[path = "common/tmux.rs"]
mod tmux;

use tmux::Tmux;

/// Keys to `t`, twenty at a time.
fn keys(t: &Tmux, keys: &[&str]) {
    for chunk in keys.chunks(20) {
        t.keys(chunk);
    }
}

#[test]
fn build_a_track_from_the_title_menu_and_race_it() {
    let dir = std::env::temp_dir().join(format!("skid-edit-menu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let command = format!(
        "cd {} && {} --data-dir {}",
        dir.display(),
        env!("CARGO_BIN_EXE_skid"),
        dir.join("data").display()
    );
    let Some(t) = Tmux::start("edit-menu", (80, 24), &command) else {
        return;
    };
    let menu = t.wait_for("[ Build a track ]");
    assert!(menu.contains("› [ Start race ]"), "{menu}");
    t.keys(&["Down"]);
    let on = t.wait_for("› [ Build a track ]");
    assert!(on.contains("› [ Build a track ]"), "{on}");
    t.keys(&["Enter"]);
    let editor = t.wait_for("EDIT untitled.track");
    assert!(editor.contains("NOT RACEABLE"), "{editor}");
    // A ring of 30 x 12 from the new track's middle: asphalt to the
    // map's edge, a wall island, finish, a start slot, checkpoint 1.
    keys(&t, &["x"]);
    keys(&t, &["BSpace"; 10]);
    t.run(&["send-keys", "-t", "e2e", "-l", "30x12"]);
    keys(&t, &["Enter", "b", "a"]);
    keys(&t, &["Left"; 40]);
    keys(&t, &["Up"; 20]);
    keys(&t, &["Space"]);
    keys(&t, &["Right"; 40]);
    keys(&t, &["Down"; 20]);
    keys(&t, &["Space", "b", "w"]);
    // From (29, 11): the island's corners, (7, 4) and (22, 7).
    keys(&t, &["Left"; 22]);
    keys(&t, &["Up"; 7]);
    keys(&t, &["Space"]);
    keys(&t, &["Right"; 15]);
    keys(&t, &["Down"; 3]);
    keys(&t, &["Space", "l", "f"]);
    // The finish from (11, 0) to (11, 3); the start slot at (8, 1);
    // checkpoint 1 from (11, 8) to (11, 11).
    keys(&t, &["Left"; 11]);
    keys(&t, &["Up"; 7]);
    keys(&t, &["Space", "Down", "Down", "Down", "Space", "p", "s"]);
    keys(&t, &["Left", "Left", "Left", "Up", "Up", "Space", "l", "1"]);
    keys(&t, &["Right", "Right", "Right"]);
    keys(&t, &["Down"; 7]);
    keys(&t, &["Space", "Down", "Down", "Down", "Space", "[", "["]);
    let drawn = t.wait_for("RACEABLE: a lap");
    assert!(drawn.contains("RACEABLE: a lap"), "{drawn}");
    t.keys(&["C-s"]);
    let saved = t.wait_for("saved: untitled.track");
    assert!(!saved.contains("not saved"), "{saved}");
    assert!(dir.join("untitled.track").is_file());
    // Back in the menu: the track built, selected; Enter races it.
    t.keys(&["q"]);
    let back = t.wait_for("Track  ◀ untitled");
    assert!(back.contains("› [ Start race ]"), "{back}");
    t.keys(&["Enter"]);
    let race = t.wait_for("LAP   1/1");
    assert!(race.contains("skid · New track"), "{race}");
    let _ = std::fs::remove_dir_all(&dir);
}
