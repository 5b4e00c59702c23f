//! Records as the command line keeps them: the computer's best lap saved
//! with `skid sim --driver ai --save` (with its medal, as the game saves
//! it), listed by `skid records`, and two
//! processes saving at once both keeping theirs.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use skid::physics::ModelKind;

fn skid(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(args)
        .output()
        .unwrap()
}

fn data_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skid-records-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn save(track: &str, model: &str, dir: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skid"));
    c.stdout(std::process::Stdio::null());
    c.args([
        "sim",
        "--track",
        track,
        "--model",
        model,
        "--driver",
        "ai",
        "--every",
        "1000000",
        "--save",
        "--data-dir",
        dir,
    ]);
    c
}

#[test]
fn a_computer_lap_is_saved_and_listed() {
    let dir = data_dir("listed");
    let d = dir.to_str().unwrap();
    assert!(save("eight", "tire", d).status().unwrap().success());
    let out = skid(&["records", "--data-dir", d]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().nth(1).expect("one record");
    assert!(
        row.starts_with("Figure Eight") && row.contains("tire") && row.contains("iforce2d"),
        "{text}"
    );
    // With the medal it earned, as the game saves it: the computer at
    // full skill laps at the author time (or within gold of it, the
    // standing lap), and the medals are kept for the next run.
    // and on the unaided board (a script drove it), the last column.
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(words.last(), Some(&"unaided"), "{text}");
    let medal = words[words.len() - 2];
    assert!(["author", "gold"].contains(&medal), "{text}");
    assert!(
        dir.join("medals.toml").exists(),
        "the medals worked out are kept"
    );
    let ghosts: Vec<_> = std::fs::read_dir(dir.join("ghosts")).unwrap().collect();
    assert_eq!(ghosts.len(), 1, "its ghost is kept beside it");
    // Filtered by another track: nothing.
    let other = skid(&["records", "--data-dir", d, "--track", "oval"]);
    assert_eq!(
        String::from_utf8(other.stdout).unwrap().lines().count(),
        1,
        "only the header"
    );
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("no records of that track"),
        "and why"
    );
}

/// `skid records` only reads: a directory that is not there (a typo) is
/// named, and not made.
#[test]
fn records_in_a_directory_not_there_is_an_error_and_not_made() {
    let dir = data_dir("typo").join("not-here");
    let d = dir.to_str().unwrap();
    let out = skid(&["records", "--data-dir", d]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(d) && err.contains("no such directory"),
        "{err}"
    );
    assert!(!dir.exists(), "not made");
    std::fs::create_dir_all(&dir).unwrap();
    let out = skid(&["records", "--data-dir", d]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no records in"));
}

#[test]
fn two_processes_saving_at_once_both_keep_their_records() {
    let dir = data_dir("together");
    let d = dir.to_str().unwrap();
    let models = ["arcade", "kinematic", "tire", "strafe"];
    let children: Vec<_> = models
        .iter()
        .map(|m| save("pocket", m, d).spawn().unwrap())
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let text = String::from_utf8(skid(&["records", "--data-dir", d]).stdout).unwrap();
    for m in models {
        assert!(text.lines().any(|l| l.contains(m)), "{m} kept:\n{text}");
    }
    assert_eq!(text.lines().count(), 1 + models.len());
}

#[test]
fn a_damaged_records_file_is_reported_and_kept_aside() {
    let dir = data_dir("damaged");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("records.toml"), "this is not toml [[[").unwrap();
    let out = skid(&["records", "--data-dir", dir.to_str().unwrap()]);
    assert!(out.status.success(), "the game goes on");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("damaged") && err.contains("records.toml.damaged-1"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("records.toml.damaged-1")).unwrap(),
        "this is not toml [[["
    );
}

#[test]
fn a_fifo_or_a_link_as_the_records_file_is_reported_not_waited_on() {
    let dir = std::env::temp_dir().join(format!("skid-rec-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("records.toml");
    let c = std::ffi::CString::new(table.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string for the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["records", "--data-dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a regular file"), "{err}");
    // A link to a real table is not followed either.
    std::fs::remove_file(&table).unwrap();
    let elsewhere = dir.join("elsewhere.toml");
    std::fs::write(&elsewhere, "").unwrap();
    std::os::unix::fs::symlink(&elsewhere, &table).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["records", "--data-dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_refuses_devices_at_once() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["check", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "/dev/zero: cannot read: not a regular file\n"
    );
}

fn record(car: &str, time: f64) -> skid::race::records::Record {
    skid::race::records::Record {
        track: "pocket".into(),
        track_id: "00ff".into(),
        model: skid::physics::ModelKind::Arcade,
        car: car.into(),
        car_id: format!("{car}-id"),
        time,
        ticks: (time * 120.0) as u64,
        hz: 120,
        splits: vec![],
        medal: None,
        aided: false,
    }
}

#[test]
fn listings_racing_saves_over_a_damaged_table_lose_nothing() {
    let damaged = b"this is [not toml";
    for trial in 0..30 {
        let dir = data_dir(&format!("race-{trial}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("records.toml"), damaged).unwrap();
        let store = skid::race::records::Store::new(&dir);
        std::thread::scope(|s| {
            for i in 0..3 {
                let (saver, lister) = (store.clone(), store.clone());
                s.spawn(move || {
                    saver
                        .save(record(&format!("car{i}"), 20.0 + f64::from(i)), &[[0.0; 3]])
                        .unwrap();
                });
                s.spawn(move || {
                    lister.load().unwrap();
                });
            }
        });
        let loaded = store.load().unwrap();
        assert_eq!(loaded.moved_aside, None);
        let mut cars: Vec<&str> = loaded.records.iter().map(|r| r.car.as_str()).collect();
        cars.sort_unstable();
        assert_eq!(
            cars,
            ["car0", "car1", "car2"],
            "trial {trial}: every save kept"
        );
        // Only the damaged table was ever moved aside, once.
        assert_eq!(
            std::fs::read(dir.join("records.toml.damaged-1")).unwrap(),
            damaged
        );
        assert!(
            !dir.join("records.toml.damaged-2").exists(),
            "trial {trial}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_link_planted_where_a_temporary_file_goes_is_left_alone() {
    let dir = data_dir("planted");
    std::fs::create_dir_all(dir.join("ghosts")).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    // Links at every name a temporary file of this process could take
    // (and the one earlier versions used).
    for name in ["records.toml", "ghosts/00ff-arcade-hatch.csv"] {
        let (parent, file) = name.rsplit_once('/').unwrap_or(("", name));
        let tmp = dir
            .join(parent)
            .join(format!(".{file}.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &tmp).unwrap();
    }
    for n in 0..64 {
        let tmp = dir.join(format!(".records.toml.tmp-{}-{n}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &tmp).unwrap();
    }
    let store = skid::race::records::Store::new(&dir);
    let saved = store.save(record("hatch", 20.0), &[[0.0; 3]]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    // Either saved under a free name or refused: never written through.
    if saved.is_ok() {
        assert_eq!(store.load().unwrap().records.len(), 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_preset_edited_under_a_bundled_name_is_another_car() {
    use skid::physics::ModelKind;
    use skid::physics::car::CarSpec;
    let genuine = CarSpec::default_for(ModelKind::Tire);
    let mut edited = genuine.clone();
    edited.body.mass = 1.0;
    edited.body.inertia = 0.1;
    assert_eq!(genuine.name, edited.name);
    assert_ne!(genuine.content_id(), edited.content_id());
    let dir = data_dir("edited");
    let store = skid::race::records::Store::new(&dir);
    let as_record = |spec: &CarSpec, time: f64| skid::race::records::Record {
        car: spec.name.clone(),
        car_id: spec.content_id(),
        ..record("x", time)
    };
    store.save(as_record(&genuine, 40.0), &[[0.0; 3]]).unwrap();
    // The edited car's lap is far faster, and saved as its own.
    store.save(as_record(&edited, 0.175), &[[0.0; 3]]).unwrap();
    let (best, _) = store
        .best("00ff", ModelKind::Arcade, &genuine.content_id())
        .unwrap();
    assert_eq!(best[0].0.time, 40.0, "the genuine record stands");
    assert_eq!(store.load().unwrap().records.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The computer's one lap of `pocket` in `arcade` as a script, switched
/// to `kinematic` `before` ticks before its end if given, run with
/// `skid sim --save` into `dir`: the trace's last row.
fn one_lap_switched(dir: &str, before: Option<usize>) -> String {
    let run = common::computer_run("pocket", ModelKind::Arcade, Some(1));
    let ticks: Vec<_> = run.controls().collect();
    let mut script = skid::race::script::Script::default();
    for (i, mut c) in ticks.iter().copied().enumerate() {
        if before.is_some_and(|b| i + b == ticks.len()) {
            c.model = Some(ModelKind::Kinematic);
        }
        script.push(&c);
    }
    let path = PathBuf::from(dir).with_extension("toml");
    std::fs::write(&path, script.to_toml()).unwrap();
    let out = skid(&[
        "sim",
        "--track",
        "pocket",
        "--model",
        "arcade",
        "--inputs",
        path.to_str().unwrap(),
        "--every",
        "1000000",
        "--save",
        "--data-dir",
        dir,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string()
}

/// The records listed in `dir`, without the header.
fn listed(dir: &str) -> Vec<String> {
    let out = skid(&["records", "--data-dir", dir]);
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn a_lap_driven_in_two_models_sets_no_record() {
    // The lap as the computer drove it: a record.
    let plain = data_dir("one-model");
    let d = plain.to_str().unwrap();
    let last = one_lap_switched(d, None);
    assert!(last.ends_with(",1,0"), "one lap done: {last}");
    assert_eq!(listed(d).len(), 1, "{:?}", listed(d));
    // The same lap with the model switched a twelfth of a second before
    // the line (the car keeps its motion and crosses it): listed by the
    // run, kept as the record of neither model.
    let mixed = data_dir("two-models");
    let d = mixed.to_str().unwrap();
    let last = one_lap_switched(d, Some(10));
    assert!(last.ends_with(",1,0"), "one lap done: {last}");
    assert!(listed(d).is_empty(), "{:?}", listed(d));
}

/// Records and medals are timed at the standard physics rate: a lap at
/// another (`--hz`), another simulation, is neither (the computer's arcade
/// laps were about 5% faster at 30 Hz, and were kept as records).
#[test]
fn a_lap_at_another_physics_rate_sets_no_record_and_earns_no_medal() {
    for hz in [60, 120] {
        let dir = data_dir(&format!("rate-{hz}"));
        let store = skid::race::records::Store::new(&dir);
        let p = common::person::one_lap_of_pocket(hz, Some(store.clone()));
        assert_eq!(p.app.screen, skid::app::Screen::Results, "{hz} Hz: no lap");
        let loaded = store.load().unwrap();
        assert_eq!(loaded.records.len(), usize::from(hz == 120), "{hz} Hz");
        let text = skid::ui::buffer_text(&common::drawn(&p.app));
        assert_eq!(text.contains("MEDAL"), hz == 120, "{hz} Hz:\n{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // `skid sim --save` at another rate: refused, nothing kept.
    let dir = data_dir("rate-sim");
    let out = save("pocket", "arcade", dir.to_str().unwrap())
        .args(["--hz", "60"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--hz 120"));
    assert!(!dir.join("records.toml").exists());
}
