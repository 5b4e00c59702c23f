//! The steering aid against the Medium rivals (issue 60): on every
//! bundled track in every model the aid steers, W held alone with the aid
//! (`skid::race::medals::aided_lap`, at the pace worked out for it) against the
//! silver time, the Medium rivals'. Goal: never under it. Also what
//! working out the aid's pace adds to a medal table, which is worked out
//! once per track and car off the game's and the hub's threads: the
//! table before the aid's pace (author time and the rivals' paces) and
//! the aid's pace alone, in the same run.
//!
//! Prints a Markdown table; `cargo bench --bench aid`.

use std::time::Instant;

use skid::ai::race_line;
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::medals::{Medal, Medals, aid_pace, aided_lap, work_out};
use skid::track::bundled;

fn main() {
    let models = [
        ModelKind::Arcade,
        ModelKind::Kinematic,
        ModelKind::Tire,
        ModelKind::Dynamic,
    ];
    println!("| track | model | silver | W alone, aided | ratio | table | aid's pace |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let (mut worst, mut tables, mut aids) = (f64::INFINITY, 0.0, 0.0);
    for (name, _) in bundled::TRACKS {
        let track = bundled::load(name).expect("bundled");
        let line = race_line(&track);
        for kind in models {
            let spec = CarSpec::default_for(kind);
            let start = Instant::now();
            let Some(medals) = work_out(&track, &line, &spec, kind) else {
                println!("| {name} | {kind} | no medals | | | | |");
                continue;
            };
            let all = start.elapsed().as_secs_f64();
            // The table as it was before the aid's pace: without it.
            let before = Medals {
                aid: None,
                ..medals
            };
            let start = Instant::now();
            let pace = aid_pace(&track, &line, &spec, kind, &before);
            let aid = start.elapsed().as_secs_f64();
            let silver = medals.time(Medal::Silver);
            let lap = aided_lap(&track, &line, &spec, kind, pace);
            let ratio = lap.map_or(f64::NAN, |l| l / silver);
            worst = worst.min(ratio);
            tables += all - aid;
            aids += aid;
            let lap = lap.map_or("no lap".into(), |l| format!("{l:.2} s"));
            println!(
                "| {name} | {kind} | {silver:.1} s | {lap} | {ratio:.3} | {:.0} ms | {:.0} ms |",
                (all - aid) * 1e3,
                aid * 1e3
            );
        }
    }
    println!();
    println!(
        "slowest ratio to silver {worst:.3} (goal: at least 1); tables {tables:.2} s, \
         the aid's paces {aids:.2} s more"
    );
}
