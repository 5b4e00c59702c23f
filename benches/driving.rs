//! Lap times, not speed: the tables docs/BENCHMARKS.md keeps for
//! "Driving by presses alone" and "Rivals".
//!
//! * A person who knows nothing of skid's key rules (the test suite's
//!   `common::person`) drives each model on `pocket` and `grandprix`
//!   through a terminal's bytes, with key releases (kitty) and with
//!   presses and autorepeat only (500 ms, then every 33 ms), the
//!   steering aid off (the keys' own rules; the aid holds a lap to about
//!   the silver time: `--bench aid`): their best lap of 5 (`pocket`) or
//!   2 (`grandprix`). `strafe` is left out: its
//!   keys turn the view, which this person does not drive.
//!   Then the mean ratio over four orderings of the person's presses
//!   at three repeat delays, the measure a rule is kept by.
//! * The screen-reading driver the issue tracker measures presses-only
//!   driving with, ported to simulated time (`common::screen_driver`):
//!   its best lap in 120 s round `pocket` with releases and with presses
//!   only, careful (as it drives by default) and prompt, over seven pairs
//!   of runs with its reading's noise seeded, the median of each pair's
//!   better lap.
//! * The computer driver at full skill, alone: each lap's time.
//!
//! `cargo bench --bench driving` prints them as Markdown tables
//! (`-- presses` the presses-only ones, `-- screen` the screen driver's,
//! `-- medals` the medals'). Every
//! run is deterministic, so the figures do not depend on the machine.

#[path = "../tests/common/keyboard.rs"]
pub mod keyboard;
#[path = "../tests/common/person.rs"]
pub mod person;
#[path = "../tests/common/screen_driver.rs"]
pub mod screen_driver;

use skid::ai::Driver;
use skid::physics::ModelKind;
use skid::race::world::World;
use skid::track::bundled;

const TRACKS: [(&str, usize); 2] = [("pocket", 5), ("grandprix", 2)];

fn secs(t: Option<f64>) -> String {
    t.map_or_else(|| "not done".into(), |t| format!("{t:.1} s"))
}

fn presses_alone() {
    println!("| track | model | with releases | presses only | ratio |");
    println!("| --- | --- | --- | --- | --- |");
    for (track, laps) in TRACKS {
        for model in ModelKind::ALL {
            if model == ModelKind::Strafe {
                continue;
            }
            let exact = person::best_lap(
                track,
                laps,
                model,
                keyboard::Keyboard::kitty(0.5, 0.033),
                1,
                true,
            );
            let tmux = person::best_lap(
                track,
                laps,
                model,
                keyboard::Keyboard::press_only(0.5, 0.033),
                1,
                false,
            );
            let ratio = match (exact, tmux) {
                (Some(e), Some(t)) => format!("{:.2}", t / e),
                _ => "-".into(),
            };
            println!(
                "| {track} | {model} | {} | {} | {ratio} |",
                secs(exact),
                secs(tmux)
            );
        }
    }
}

/// The screen driver's median best-of-two lap round `pocket` (`careful`
/// or prompt), over seven pairs of seeds; None when most pairs did not
/// lap.
fn screen_lap(model: ModelKind, releases: bool, careful: bool) -> Option<f64> {
    use screen_driver::{Reading, best_lap};
    let mut pairs: Vec<f64> = (0..7)
        .map(|pair| {
            let lap = |seed| {
                let keys = if releases {
                    keyboard::Keyboard::kitty(0.5, 0.033)
                } else {
                    keyboard::Keyboard::press_only(0.5, 0.033)
                };
                let how = Reading {
                    noise: 1.0,
                    seed,
                    careful,
                };
                best_lap(model, keys, 120.0, how).unwrap_or(f64::INFINITY)
            };
            lap(2 * pair + 1).min(lap(2 * pair + 2))
        })
        .collect();
    pairs.sort_by(f64::total_cmp);
    Some(pairs[3]).filter(|t| t.is_finite())
}

/// The screen driver's table: with releases, presses only (careful and
/// prompt), and the ratios.
fn screen_driver() {
    println!("\n| model | with releases | presses, careful | ratio | presses, prompt | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for model in [
        ModelKind::Arcade,
        ModelKind::Kinematic,
        ModelKind::Tire,
        ModelKind::Dynamic,
    ] {
        let exact = screen_lap(model, true, true);
        let ratio = |t: Option<f64>| match (exact, t) {
            (Some(e), Some(t)) => format!("{:.2}", t / e),
            _ => "-".into(),
        };
        let careful = screen_lap(model, false, true);
        let prompt = screen_lap(model, false, false);
        println!(
            "| {model} | {} | {} | {} | {} | {} |",
            secs(exact),
            secs(careful),
            ratio(careful),
            secs(prompt),
            ratio(prompt)
        );
    }
}

/// The computer driver alone at full skill: each of the track's laps.
fn rivals() {
    println!("\n| track | model | laps (computer, skill 1) |");
    println!("| --- | --- | --- |");
    for (track, _) in TRACKS {
        for model in ModelKind::ALL {
            let t = bundled::load_raceable(track).unwrap();
            let spec = skid::physics::car::CarSpec::default_for(model);
            let driver = Driver::new(&t, &spec, model, 1.0);
            let mut world = World::new(t.into_track(), spec, model, 120);
            world.cars[0].source = skid::race::world::Source::Driver(Box::new(driver));
            let mut ends = Vec::new();
            while world.cars[0].laps.lap < world.laps && world.tick < 120 * 900 {
                let before = world.cars[0].laps.lap;
                world.step();
                if world.cars[0].laps.lap > before {
                    ends.push(world.tick);
                }
            }
            let mut prev = 0;
            let laps: Vec<String> = ends
                .iter()
                .map(|&e| {
                    let lap = (e - prev) as f64 / 120.0;
                    prev = e;
                    format!("{lap:.1}")
                })
                .collect();
            println!("| {track} | {model} | {} |", laps.join(", "));
        }
    }
}

/// One ordering at one repeat delay is a sample of a chaotic lap: a
/// tenth of a second early into a corner can mean a wall. The mean ratio
/// over the person's four orderings of presses at three repeat delays
/// (0.3, 0.5, 0.66 s) is the measure a rule is kept by.
fn presses_alone_mean() {
    const DELAYS: [f64; 3] = [0.3, 0.5, 0.66];
    println!("| track | model | mean ratio at 0.3 / 0.5 / 0.66 s (four orderings each) |");
    println!("| --- | --- | --- |");
    for (track, laps) in TRACKS {
        for model in ModelKind::ALL {
            if model == ModelKind::Strafe {
                continue;
            }
            let means: Vec<String> = (DELAYS.iter())
                .map(|&delay| {
                    let ratios: Option<Vec<f64>> = (1..=4)
                        .map(|seed| {
                            let kitty = keyboard::Keyboard::kitty(delay, 0.033);
                            let tmux = keyboard::Keyboard::press_only(delay, 0.033);
                            let e = person::best_lap(track, laps, model, kitty, seed, true)?;
                            let t = person::best_lap(track, laps, model, tmux, seed, false)?;
                            Some(t / e)
                        })
                        .collect();
                    ratios.map_or("-".into(), |r| {
                        format!("{:.2}", r.iter().sum::<f64>() / 4.0)
                    })
                })
                .collect();
            println!("| {track} | {model} | {} |", means.join(" / "));
        }
    }
}

/// Rivals against the medals: on every bundled track with every model,
/// the computer's flying lap at each difficulty's pace beside the medal
/// time it is meant to match (Easy bronze, Medium silver, Hard gold), and
/// their ratio; the author time is the computer's at full pace.
fn rivals_against_medals() {
    use skid::cli::Difficulty;
    use skid::race::medals::{flying_lap, work_out};
    println!("\n| track | model | author | easy / bronze | medium / silver | hard / gold |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (track, _) in bundled::TRACKS {
        let t = bundled::load_raceable(track).unwrap();
        let line = skid::ai::race_line(&t);
        for model in ModelKind::ALL {
            let spec = skid::physics::car::CarSpec::default_for(model);
            let Some(medals) = work_out(&t, &line, &spec, model) else {
                println!("| {track} | {model} | none | | | |");
                continue;
            };
            let author = medals.author;
            let cells: Vec<String> = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
                .into_iter()
                .map(|d| {
                    let want = medals.time(d.medal());
                    let pace = medals.pace(d.medal());
                    flying_lap(&t, &line, &spec, model, pace).map_or("-".into(), |lap| {
                        format!("{lap:.1} / {want:.1} ({:+.1}%)", 100.0 * (lap / want - 1.0))
                    })
                })
                .collect();
            println!(
                "| {track} | {model} | {author:.2} | {} |",
                cells.join(" | ")
            );
        }
    }
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to
    // time, and the tables take a while.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    if std::env::args().any(|a| a == "medals") {
        rivals_against_medals();
        return;
    }
    let presses = || {
        presses_alone();
        screen_driver();
        presses_alone_mean();
    };
    if std::env::args().any(|a| a == "screen") {
        screen_driver();
        return;
    }
    if std::env::args().any(|a| a == "presses") {
        presses();
        return;
    }
    presses();
    rivals();
    rivals_against_medals();
}
