//! The track generator (issue 63): how long one track takes to make (goal:
//! under 20 ms for a medium one), and a survey printed before the timings:
//! 10,000 seeds of each size, every one raceable (none needing the
//! fallback), what came out (length, corners, width, checkpoints, ice),
//! and the computer driving 300 medium seeds to the finish in every model
//! but `strafe`; and today's track with its racing line, as a server
//! makes it before midnight.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use skid::ai::Driver;
use skid::base::day::Day;
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::TrackChoice;
use skid::race::world::{Source, World};
use skid::track::generate::{Shape, Size, generate};
use skid::track::{Track, course, parse};

const SEEDS: u64 = 10_000;
const DRIVEN: u64 = 300;

/// Smallest, mean and largest of `v`.
fn spread(v: &[f64]) -> String {
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    format!("{min:.0} / {mean:.1} / {max:.0}")
}

/// Every seed of `size` made and checked; a row of the table.
fn survey(size: Size) {
    let start = Instant::now();
    let (mut fallback, mut discarded) = (0, 0u64);
    let mut shapes: Vec<Shape> = Vec::new();
    for seed in 0..SEEDS {
        let g = generate(seed, size);
        let what = format!("seed {seed}");
        let track = parse(&what, g.text.as_bytes()).expect("parses");
        let raceable = course::raceable(track, &what).expect("raceable");
        assert!(course::drive_arounds(&raceable, &what).is_empty(), "{what}");
        fallback += usize::from(g.discarded >= 200);
        discarded += u64::from(g.discarded);
        shapes.push(g.shape);
    }
    let of = |f: fn(&Shape) -> f64| shapes.iter().map(f).collect::<Vec<_>>();
    let ice = shapes.iter().filter(|s| s.ice).count();
    println!(
        "| {} | {SEEDS} | {} | {:.2} | {} | {} | {} | {} | {:.0}% | {:.2} ms |",
        size.name(),
        SEEDS - fallback as u64,
        discarded as f64 / SEEDS as f64,
        spread(&of(|s| s.length)),
        spread(&of(|s| s.corners as f64)),
        spread(&of(|s| s.width)),
        spread(&of(|s| s.checkpoints as f64)),
        ice as f64 * 100.0 / SEEDS as f64,
        start.elapsed().as_secs_f64() * 1000.0 / SEEDS as f64,
    );
}

/// Whether the computer drives `track` to its finish with `kind` within
/// an average of 4 m/s round its line plus a minute.
fn finishes(track: Track, kind: ModelKind) -> bool {
    let spec = CarSpec::default_for(kind);
    let driver = Driver::new(&track, &spec, kind, 1.0);
    let laps = track.laps;
    let limit = f64::from(laps) * driver.line.length() / 4.0 + 60.0;
    let mut sim = World::new(track, spec, kind, 120);
    sim.cars[0].source = Source::Driver(Box::new(driver));
    while sim.cars[0].laps.lap < laps {
        if sim.time() >= limit {
            return false;
        }
        sim.step();
    }
    true
}

fn driven() {
    let kinds: Vec<ModelKind> = (ModelKind::ALL.into_iter())
        .filter(|k| *k != ModelKind::Strafe)
        .collect();
    let mut failed = Vec::new();
    for seed in 0..DRIVEN {
        let track = parse("g", generate(seed, Size::Medium).text.as_bytes()).unwrap();
        for &kind in &kinds {
            if !finishes(track.clone(), kind) {
                failed.push(format!("{seed}/{kind}"));
            }
        }
    }
    println!(
        "computer: {} of {} races finished on {DRIVEN} medium seeds ({:?} failed)",
        DRIVEN as usize * kinds.len() - failed.len(),
        DRIVEN as usize * kinds.len(),
        failed
    );
}

fn bench(c: &mut Criterion) {
    println!(
        "| size | seeds | raceable | tries thrown away | length m (min / mean / max) | corners | width m | checkpoints | ice | time a track |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for size in Size::ALL {
        survey(size);
    }
    driven();
    let mut g = c.benchmark_group("generate");
    for size in Size::ALL {
        g.bench_function(size.name(), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                generate(black_box(seed), size)
            });
        });
    }
    g.finish();
    // Today's track as a server makes it ahead of midnight, on a thread
    // of its own (`serve::daily`): the track and its racing line.
    let mut g = c.benchmark_group("daily");
    g.bench_function("track and racing line", |b| {
        let mut day = Day::parse("2026-12-07").unwrap();
        b.iter(|| {
            day = day.after();
            let today = TrackChoice::daily(black_box(day), day).unwrap();
            skid::ai::race_line(&today.track)
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
