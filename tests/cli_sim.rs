//! `skid sim` and `skid cars` as a user runs them, and `skid play`
//! without a terminal.

use std::path::PathBuf;
use std::process::{Command, Output};

use skid::physics::car::{CarSpec, PRESETS};

fn skid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file in a fresh temporary folder.
fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-cli-sim-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_bad_script_is_reported_with_its_position() {
    let p = temp("bad.toml", "[[hold]]\nticks = 10\nthrottle = 2.0\n");
    let p = p.to_str().unwrap();
    let o = skid(&["sim", "--track", "oval", "--inputs", p]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("{p}:3:12: throttle = 2 is out of range: 0 to 1\n")
    );
    assert!(o.stdout.is_empty(), "no trace for a bad script");
}

/// A wrong file given to `skid play` is named even where there is no
/// terminal to play in (a script, a pipe): the player fixes both at once.
#[test]
fn play_without_a_terminal_names_a_bad_file_first() {
    let garbage = temp("garbage.toml", "this is = = not toml\n");
    let garbage = garbage.to_str().unwrap();
    for (args, named) in [
        (vec!["play", "--track", "nowhere"], "nowhere"),
        (vec!["play", "--car", "batmobile"], "batmobile"),
        (vec!["play", "--replay", garbage], garbage),
        (
            vec!["play", "--replay", "no/such/script.toml"],
            "no/such/script.toml",
        ),
    ] {
        let o = skid(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(named) && !stderr(&o).contains("terminal"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = skid(&["play", "--track", "oval"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a terminal"), "{}", stderr(&o));
}

/// A recording names the race it was on its first line; replayed in
/// another (here other computer cars) it would drive something else, so
/// it is refused, saying which options to give. Without that line, or
/// in the same race, it is taken (and then needs a terminal).
#[test]
fn a_replay_must_be_the_race_it_was_recorded_in() {
    let holds = "[[hold]]\nticks = 240\nthrottle = 1.0\n";
    let line =
        "# recorded by skid: Pocket, arcade, hatch, 5 laps, --hz 120, 2 computer cars at skill 1";
    let rec = temp("rec.toml", &format!("{line}\n{holds}"));
    let rec = rec.to_str().unwrap();
    let replay = |extra: &[&str]| {
        let mut args = vec!["play", "--replay", rec];
        args.extend_from_slice(extra);
        let o = skid(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        stderr(&o)
    };
    for other in [
        &["--opponents", "2"][..],
        &["--opponents", "1", "--difficulty", "hard"],
        &["--opponents", "2", "--difficulty", "hard", "--laps", "3"],
        &[
            "--opponents",
            "2",
            "--difficulty",
            "hard",
            "--track",
            "oval",
        ],
        &["--opponents", "2", "--difficulty", "hard", "--hz", "60"],
    ] {
        let e = replay(other);
        assert!(e.starts_with(&format!("{rec}:1:1: recorded in Pocket, arcade, hatch, 5 laps, --hz 120, 2 computer cars at skill 1; this replay would be ")), "{other:?}: {e}");
        assert!(
            e.contains("--difficulty easy 0.6, medium 0.8, hard 1"),
            "{e}"
        );
    }
    let e = replay(&["--opponents", "2", "--difficulty", "hard"]);
    assert!(e.contains("needs a terminal"), "{e}");
    let bare = temp("bare.toml", holds);
    let o = skid(&[
        "play",
        "--replay",
        bare.to_str().unwrap(),
        "--model",
        "tire",
    ]);
    assert!(stderr(&o).contains("needs a terminal"), "{}", stderr(&o));
}

#[test]
fn bad_options_exit_2() {
    let ok = temp("ok.toml", "[[hold]]\nticks = 1\n");
    let ok = ok.to_str().unwrap();
    for args in [
        vec![
            "sim",
            "--track",
            "oval",
            "--model",
            "hovercraft",
            "--inputs",
            ok,
        ],
        vec!["sim", "--track", "oval", "--inputs", ok, "--hz", "0"],
        vec!["sim", "--track", "oval", "--inputs", ok, "--every", "0"],
        vec!["sim", "--track", "nowhere", "--inputs", ok],
        vec![
            "sim",
            "--track",
            "oval",
            "--car",
            "batmobile",
            "--inputs",
            ok,
        ],
        vec!["sim", "--track", "oval", "--inputs", "no/such/script.toml"],
    ] {
        let o = skid(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
}

#[test]
fn a_bad_car_file_is_reported_with_positions() {
    let p = temp(
        "car.toml",
        "name = \"x\"\n[body]\nmass = -3\n[engine]\ngears = [3.0, 0.0]\n",
    );
    let p = p.to_str().unwrap();
    let ok = temp("ok2.toml", "[[hold]]\nticks = 1\n");
    let o = skid(&[
        "sim",
        "--track",
        "oval",
        "--car",
        p,
        "--inputs",
        ok.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("{p}:3:8: body.mass = -3 is out of range")),
        "{e}"
    );
    assert!(
        e.contains(&format!("{p}:5:15: gear ratio 0 is out of range")),
        "{e}"
    );
}

#[test]
fn cars_lists_every_preset_with_its_model() {
    let o = skid(&["cars"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    for (name, model) in [
        ("hatch", "arcade"),
        ("corvette-c5", "dynamic"),
        ("quake", "strafe"),
        ("kart", "kinematic"),
        ("iforce2d", "tire"),
    ] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(name) && l.contains(model)),
            "{name} ({model}) in:\n{out}"
        );
    }
}

#[test]
fn cars_show_prints_toml_that_loads_back_unchanged() {
    for (name, _) in PRESETS {
        let o = skid(&["cars", "--show", name]);
        assert!(o.status.success());
        let text = String::from_utf8(o.stdout).unwrap();
        let back = CarSpec::parse("shown.toml", &text).unwrap();
        assert_eq!(back, CarSpec::bundled(name).unwrap());
        // And a file written from it drives like the preset.
        let p = temp(&format!("{name}.toml"), &text);
        let script = temp(
            "drive.toml",
            "[[hold]]\nticks = 120\nthrottle = 1.0\nsteer = 0.3\n",
        );
        let run = |car: &str| {
            skid(&[
                "sim",
                "--track",
                "oval",
                "--car",
                car,
                "--inputs",
                script.to_str().unwrap(),
            ])
            .stdout
        };
        assert_eq!(run(p.to_str().unwrap()), run(name));
    }
}

#[test]
fn model_and_car_combine() {
    let script = temp("combo.toml", "[[hold]]\nticks = 60\nthrottle = 1.0\n");
    let s = script.to_str().unwrap();
    // The Corvette driven by the arcade model differs from the Corvette as
    // tuned, which is the dynamic model's default car.
    let tuned = skid(&[
        "sim",
        "--track",
        "oval",
        "--car",
        "corvette-c5",
        "--inputs",
        s,
    ])
    .stdout;
    let dynamic = skid(&[
        "sim", "--track", "oval", "--model", "dynamic", "--inputs", s,
    ])
    .stdout;
    let arcade = skid(&[
        "sim",
        "--track",
        "oval",
        "--car",
        "corvette-c5",
        "--model",
        "arcade",
        "--inputs",
        s,
    ])
    .stdout;
    assert_eq!(tuned, dynamic);
    assert_ne!(tuned, arcade);
}

#[test]
fn every_nth_row_and_always_the_last() {
    let p = temp("every.toml", "[[hold]]\nticks = 100\nthrottle = 1.0\n");
    let p = p.to_str().unwrap();
    let rows = |every: &str| -> Vec<String> {
        let o = skid(&["sim", "--track", "oval", "--inputs", p, "--every", every]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(rows("30"), ["30", "60", "90", "100"]);
    assert_eq!(rows("50"), ["50", "100"], "the last not twice");
    let all = skid(&["sim", "--track", "oval", "--inputs", p]);
    let last = String::from_utf8(all.stdout).unwrap();
    let every = skid(&["sim", "--track", "oval", "--inputs", p, "--every", "30"]);
    assert_eq!(
        String::from_utf8(every.stdout).unwrap().lines().last(),
        last.lines().last(),
        "the same final row"
    );
}

#[test]
fn an_unfinished_computer_race_says_where_it_stopped() {
    let o = skid(&[
        "sim",
        "--track",
        "oval",
        "--driver",
        "ai",
        "--max-ticks",
        "600",
        "--every",
        "600",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("skid sim: stopped at --max-ticks 600 with the race unfinished: 0 of 5 laps, checkpoint "),
        "{err}"
    );
    assert!(err.contains(", the car at x "), "{err}");
    // A finished race says nothing.
    let o = skid(&[
        "sim",
        "--track",
        "pocket",
        "--model",
        "kinematic",
        "--driver",
        "ai",
        "--every",
        "100000",
    ]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
}
