//! The computer driver finishes every bundled track with every model, in a
//! simulated-time limit, never inside a wall; and `skid sim --driver ai`
//! runs it from the command line.

use skid::ai::Driver;
use skid::car::CarSpec;
use skid::physics::ModelKind;
use skid::sim::Sim;
use skid::track::bundled;

#[test]
fn the_computer_finishes_every_track_with_every_model() {
    for (name, _) in bundled::TRACKS {
        for kind in ModelKind::ALL {
            let track = bundled::load(name).unwrap();
            let spec = CarSpec::default_for(kind);
            let mut driver = Driver::new(&track, &spec, kind, 1.0);
            let laps = track.laps;
            // An average of 4 m/s round the racing line, plus a minute.
            let limit = laps as f64 * driver.line.length() / 4.0 + 60.0;
            let mut sim = Sim::new(track, spec, kind, 120);
            while sim.laps.lap < laps {
                assert!(
                    sim.time() < limit,
                    "{name}/{kind}: {} of {laps} laps in {limit:.0} s",
                    sim.laps.lap
                );
                let c = driver.controls(&sim.car, sim.dt);
                sim.step(&c);
                assert!(
                    !sim.track.box_hits_wall(&sim.car.footprint()),
                    "{name}/{kind} in a wall at tick {}",
                    sim.tick
                );
            }
        }
    }
}

#[test]
fn the_same_driver_drives_the_same_race() {
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
            .args([
                "sim", "--track", "eight", "--model", "tire", "--driver", "ai",
            ])
            .output()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.ends_with(",3,0"),
        "the race ends when the laps are done: {last}"
    );
}

#[test]
fn max_ticks_ends_a_computer_race_early() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args([
            "sim",
            "--track",
            "grandprix",
            "--driver",
            "ai",
            "--max-ticks",
            "600",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        1 + 600
    );
}

#[test]
fn inputs_and_the_computer_driver_exclude_each_other() {
    for args in [
        vec!["sim", "--track", "oval"],
        vec![
            "sim",
            "--track",
            "oval",
            "--driver",
            "ai",
            "--inputs",
            "tests/golden/tire.toml",
        ],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
