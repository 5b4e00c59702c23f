//! Lap times, not speed: the tables docs/BENCHMARKS.md keeps for
//! "Driving by presses alone" and "Rivals".
//!
//! * A person who knows nothing of skid's key rules (the test suite's
//!   `common::person`) drives each model on `pocket` and `grandprix`
//!   through a terminal's bytes, with key releases (kitty) and with
//!   presses and autorepeat only (500 ms, then every 33 ms): their best
//!   lap of 5 (`pocket`) or 2 (`grandprix`). `strafe` is left out: its
//!   keys turn the view, which this person does not drive.
//! * The computer driver at full skill, alone: each lap's time.
//!
//! `cargo bench --bench driving` prints both as Markdown tables. Every
//! run is deterministic, so the figures do not depend on the machine.

#[path = "../tests/common/keyboard.rs"]
pub mod keyboard;
#[path = "../tests/common/person.rs"]
pub mod person;

use skid::ai::Driver;
use skid::physics::ModelKind;
use skid::track::bundled;
use skid::world::World;

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
            let exact =
                person::best_lap(track, laps, model, keyboard::Keyboard::kitty(0.5, 0.033), 1);
            let tmux = person::best_lap(
                track,
                laps,
                model,
                keyboard::Keyboard::press_only(0.5, 0.033),
                1,
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

/// The computer driver alone at full skill: each of the track's laps.
fn rivals() {
    println!("\n| track | model | laps (computer, skill 1) |");
    println!("| --- | --- | --- |");
    for (track, _) in TRACKS {
        for model in ModelKind::ALL {
            let t = bundled::load_raceable(track).unwrap();
            let spec = skid::car::CarSpec::default_for(model);
            let driver = Driver::new(&t, &spec, model, 1.0);
            let mut world = World::new(t.into_track(), spec, model, 120);
            world.cars[0].source = skid::world::Source::Driver(Box::new(driver));
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

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to
    // time, and the tables take a while.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    presses_alone();
    rivals();
}
