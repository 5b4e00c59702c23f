//! Unit tests of the local records: ghosts and their names, better laps
//! replacing worse, damaged and interrupted tables.

use super::*;

fn temp(name: &str) -> Store {
    let dir = std::env::temp_dir().join(format!("skid-records-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    Store::new(dir)
}

fn record(model: ModelKind, time: f64) -> Record {
    Record {
        track: "pocket".into(),
        track_id: "00ff".into(),
        model,
        car: "hatch".into(),
        car_id: "hatch-id".into(),
        time,
        ticks: (time * 120.0) as u64,
        hz: 120,
        splits: vec![600, 1200],
        medal: None,
        aided: false,
    }
}

#[test]
fn a_ghost_longer_than_its_lap_can_be_is_not_read() {
    let s = temp("ghost-cap");
    // A 20 s lap: 600 poses; its own ghost, full length, is read.
    let r = record(ModelKind::Arcade, 20.0);
    let poses: Vec<[f64; 3]> = (0..=600)
        .map(|i| [-8191.5, f64::from(i), -std::f64::consts::PI])
        .collect();
    s.save(r.clone(), &poses).unwrap();
    let (best, _) = s.best("00ff", ModelKind::Arcade, "hatch-id").unwrap();
    assert_eq!(best.into_iter().next().unwrap().1.ghost.len(), 601);
    // The same file grown to what a lap of hours would hold: the
    // record stands, raced without a ghost, and nothing large is read.
    let path = s.dir.join("ghosts").join(r.ghost_file());
    let line = "1.000,2.000,0.5000\n".repeat(200_000);
    fs::write(&path, line).unwrap();
    let (best, _) = s.best("00ff", ModelKind::Arcade, "hatch-id").unwrap();
    let (record, lap) = best.into_iter().next().unwrap();
    assert_eq!(record.ticks, 2400);
    assert!(lap.ghost.is_empty());
    assert!(ghost_cap(2400) < 64 * 1024);
}

#[test]
fn cars_whose_names_differ_only_in_punctuation_keep_their_own_ghosts() {
    let s = temp("ghost-names");
    for (car, x) in [("my car", 1.0), ("my_car", 2.0)] {
        let r = Record {
            car: car.into(),
            car_id: format!("{car}-id"),
            ..record(ModelKind::Arcade, 20.0)
        };
        s.save(r, &[[x, 0.0, 0.0]]).unwrap();
    }
    for (car, x) in [("my car", 1.0), ("my_car", 2.0)] {
        let (best, _) = s
            .best("00ff", ModelKind::Arcade, &format!("{car}-id"))
            .unwrap();
        assert_eq!(
            best.into_iter().next().unwrap().1.ghost,
            [[x, 0.0, 0.0]],
            "{car}"
        );
    }
}

#[test]
fn a_ghost_saved_before_names_were_hashed_is_still_found() {
    let s = temp("legacy-ghost");
    let r = record(ModelKind::Arcade, 20.0);
    s.save(r.clone(), &[[3.0, 4.0, 0.5]]).unwrap();
    let ghosts = s.dir.join("ghosts");
    fs::rename(
        ghosts.join(r.ghost_file()),
        ghosts.join(r.legacy_ghost_file()),
    )
    .unwrap();
    let (best, _) = s.best("00ff", ModelKind::Arcade, "hatch-id").unwrap();
    assert_eq!(best.into_iter().next().unwrap().1.ghost, [[3.0, 4.0, 0.5]]);
}

#[test]
fn a_better_lap_replaces_the_record_and_a_worse_one_does_not() {
    let s = temp("better");
    let ghost = [[1.0, 2.0, 0.5], [1.5, 2.0, 0.5]];
    assert!(s.save(record(ModelKind::Arcade, 20.0), &ghost).unwrap().0);
    assert!(!s.save(record(ModelKind::Arcade, 21.0), &ghost).unwrap().0);
    assert!(s.save(record(ModelKind::Arcade, 19.5), &ghost).unwrap().0);
    let (best, _) = s.best("00ff", ModelKind::Arcade, "hatch-id").unwrap();
    let (r, lap) = best.into_iter().next().unwrap();
    assert_eq!(r.time, 19.5);
    assert_eq!(lap.ghost, ghost);
    assert_eq!(
        s.best("00ff", ModelKind::Tire, "hatch-id").unwrap().0,
        [],
        "another model: no record"
    );
}

/// The record's times and boards for the test's key, unaided first,
/// with their ghosts' first x.
fn kept(s: &Store) -> Vec<(f64, bool, Option<f64>)> {
    let (best, _) = s.best("00ff", ModelKind::Arcade, "hatch-id").unwrap();
    (best.iter())
        .map(|(r, lap)| (r.time, r.aided, lap.ghost.first().map(|g| g[0])))
        .collect()
}

#[test]
fn an_aided_lap_never_replaces_an_unaided_record_and_each_keeps_its_ghost() {
    let s = temp("boards");
    let aided = |time| Record {
        aided: true,
        ..record(ModelKind::Arcade, time)
    };
    assert!(
        s.save(record(ModelKind::Arcade, 30.0), &[[1.0; 3]])
            .unwrap()
            .0
    );
    // Faster, aided: a record of its own board, beside the other.
    assert!(s.save(aided(20.0), &[[2.0; 3]]).unwrap().0);
    assert_eq!(
        kept(&s),
        [(30.0, false, Some(1.0)), (20.0, true, Some(2.0))]
    );
    // Each board is beaten only on its own.
    assert!(!s.save(aided(25.0), &[[3.0; 3]]).unwrap().0);
    assert!(
        s.save(record(ModelKind::Arcade, 28.0), &[[4.0; 3]])
            .unwrap()
            .0
    );
    assert_eq!(
        kept(&s),
        [(28.0, false, Some(4.0)), (20.0, true, Some(2.0))]
    );
    assert_eq!(s.load().unwrap().records.len(), 2);
}

#[test]
fn an_aided_record_kept_before_the_boards_keeps_its_ghost() {
    // As a version that kept one record a key left it: an aided record,
    // its ghost under the one name there was.
    let s = temp("old-aided");
    let old = Record {
        aided: true,
        ..record(ModelKind::Arcade, 20.0)
    };
    s.save(old.clone(), &[[2.0; 3]]).unwrap();
    let ghosts = s.dir.join("ghosts");
    fs::rename(
        ghosts.join(old.ghost_file()),
        ghosts.join(old.shared_ghost_file()),
    )
    .unwrap();
    assert_eq!(kept(&s), [(20.0, true, Some(2.0))], "read where it is");
    // An unaided record takes that name; the aided ghost moves first.
    s.save(record(ModelKind::Arcade, 30.0), &[[1.0; 3]])
        .unwrap();
    assert_eq!(
        kept(&s),
        [(30.0, false, Some(1.0)), (20.0, true, Some(2.0))]
    );
}

#[test]
fn a_damaged_table_is_moved_aside_and_reported() {
    let s = temp("damaged");
    fs::create_dir_all(&s.dir).unwrap();
    fs::write(
        s.dir.join("records.toml"),
        "[[record]]\ntrack = \"x\"\ntime = \"fast\"\n",
    )
    .unwrap();
    fs::write(s.dir.join("records.toml.damaged-1"), "an older casualty").unwrap();
    let loaded = s.load().unwrap();
    assert_eq!(loaded.records, vec![]);
    let aside = loaded.moved_aside.unwrap();
    assert_eq!(
        aside,
        s.dir.join("records.toml.damaged-2"),
        "the older one is not overwritten"
    );
    assert!(fs::read_to_string(aside).unwrap().contains("fast"));
    assert_eq!(
        fs::read_to_string(s.dir.join("records.toml.damaged-1")).unwrap(),
        "an older casualty"
    );
    // And saving goes on.
    assert!(s.save(record(ModelKind::Dynamic, 30.0), &[]).unwrap().0);
}

#[test]
fn an_interrupted_write_leaves_the_old_table_intact() {
    let s = temp("interrupted");
    s.save(record(ModelKind::Arcade, 20.0), &[]).unwrap();
    let before = fs::read(s.dir.join("records.toml")).unwrap();
    let crash = s.save_with(record(ModelKind::Arcade, 10.0), &[], || {
        Err(io::Error::other("power cut"))
    });
    assert!(crash.is_err());
    assert_eq!(fs::read(s.dir.join("records.toml")).unwrap(), before);
    assert_eq!(s.load().unwrap().records[0].time, 20.0);
    let leftovers: Vec<_> = fs::read_dir(&s.dir)
        .unwrap()
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary file left behind");
}
