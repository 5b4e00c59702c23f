//! `skid generate` and the Track of the Day from the command line (issue
//! 63): a seed gives the same bytes every time, to standard output or a
//! file that `skid check` passes; a day's track is its seed's; a bad size
//! or date is an error with status 2; and a day's track keeps laps on a
//! board of its own.

use std::process::{Command, Output};

fn skid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(args)
        .output()
        .expect("skid runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-generate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_seed_gives_the_same_track_every_time_and_it_checks() {
    let dir = temp("seed");
    let once = skid(&["generate", "--seed", "42"]);
    assert!(once.status.success(), "{}", text(&once.stderr));
    assert_eq!(once.stdout, skid(&["generate", "--seed", "42"]).stdout);
    let file = dir.join("42.track");
    let file = file.to_str().unwrap();
    let written = skid(&["generate", "--seed", "42", "--out", file]);
    assert!(written.status.success(), "{}", text(&written.stderr));
    assert_eq!(std::fs::read(file).unwrap(), once.stdout);
    let checked = skid(&["check", file]);
    assert_eq!(text(&checked.stdout), format!("{file}: ok\n"));
    assert!(checked.stderr.is_empty(), "{}", text(&checked.stderr));
    let large = skid(&["generate", "--seed", "42", "--size", "large"]);
    assert!(large.stdout.len() > once.stdout.len());
    // Without a seed, the file says which was drawn: made again, the same.
    let drawn = text(&skid(&["generate", "--size", "small"]).stdout);
    let seed = (drawn.split("--seed ").nth(1))
        .and_then(|s| s.split(' ').next())
        .expect("the seed in the first lines");
    let again = skid(&["generate", "--seed", seed, "--size", "small"]);
    assert_eq!(text(&again.stdout), drawn);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_days_track_is_its_seeds_and_bad_words_exit_2() {
    let day = skid(&["generate", "--daily", "2026-12-06"]);
    assert!(day.status.success());
    let first = text(&day.stdout);
    let seed = (first.split("--seed ").nth(1))
        .and_then(|s| s.split(' ').next())
        .unwrap();
    assert_eq!(skid(&["generate", "--seed", seed]).stdout, day.stdout);
    assert!(first.contains("name = \"Lost Crossing\""), "{first}");
    assert_ne!(
        skid(&["generate", "--daily", "2026-12-05"]).stdout,
        day.stdout
    );
    for (args, says) in [
        (
            &["generate", "--size", "huge"][..],
            "small, medium or large",
        ),
        (&["generate", "--daily", "2026-02-30"][..], "YYYY-MM-DD"),
        (&["records", "--daily", "yesterday"][..], "YYYY-MM-DD"),
        (&["play", "--daily", "12/06/2026"][..], "YYYY-MM-DD"),
        (
            &["generate", "--seed", "1", "--daily"][..],
            "cannot be used with",
        ),
    ] {
        let out = skid(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// A lap of a day's track (the computer's, saved as the game saves) is
/// on that day's board, by the track's name, and on no other day's.
#[test]
fn a_days_track_keeps_its_own_board() {
    let dir = temp("board");
    let data = dir.to_str().unwrap();
    let day = ["--daily", "2026-12-06", "--model", "kinematic"];
    let mut args = vec!["sim", "--driver", "ai", "--save", "--data-dir", data];
    args.extend(day);
    let sim = skid(&args);
    assert!(sim.status.success(), "{}", text(&sim.stderr));
    let board = skid(&["records", "--daily", "2026-12-06", "--data-dir", data]);
    let listed = text(&board.stdout);
    assert!(
        listed.contains("Lost Crossing") && listed.contains("kinematic"),
        "{listed}"
    );
    let other = skid(&["records", "--daily", "2026-12-05", "--data-dir", data]);
    assert!(
        !text(&other.stdout).contains("kinematic"),
        "{}",
        text(&other.stdout)
    );
    let _ = std::fs::remove_dir_all(dir);
}
