//! Physics speed: one step of each model, an hour of driving (432,000
//! steps at 120 Hz) on the grand prix track, laps counted, and an hour
//! pinned against the oval's wall.
//! Goals: every model under 0.1 µs a step; an hour well under 0.25 s.

use criterion::{Criterion, criterion_group, criterion_main};
use skid::physics::car::CarSpec;
use skid::physics::{Car, Controls, ModelKind};
use skid::race::world::World;
use skid::track::{bundled, parse};
use std::hint::black_box;

const DT: f64 = 1.0 / 120.0;

/// A 1 km square of asphalt, walled: room to drive circles forever.
fn open_field() -> skid::track::Track {
    let (cols, rows) = (500, 250);
    let mut s = "#".repeat(cols) + "\n";
    for r in 1..rows - 1 {
        let row: String = (0..cols)
            .map(|c| match (r, c) {
                (_, 0) => '#',
                (_, c) if c == cols - 1 => '#',
                (125, 250) => '>',
                (_, 240) => '|',
                _ => '.',
            })
            .collect();
        s.push_str(&row);
        s.push('\n');
    }
    s.push_str(&"#".repeat(cols));
    s.push('\n');
    parse("field", s.as_bytes()).unwrap()
}

fn bench_steps(c: &mut Criterion) {
    let track = open_field();
    let circle = Controls {
        throttle: 0.6,
        steer: 0.35,
        ..Controls::default()
    };
    let mut group = c.benchmark_group("step");
    for kind in ModelKind::ALL {
        let (pos, heading) = track.start_pose(0);
        let mut car = Car::new(CarSpec::default_for(kind), kind, pos, heading);
        for _ in 0..1200 {
            car.step(&circle, &track, DT);
        }
        group.bench_function(kind.name(), |b| {
            b.iter(|| car.step(black_box(&circle), &track, DT));
        });
    }
    group.finish();
}

fn bench_hour(c: &mut Criterion) {
    let mut group = c.benchmark_group("hour of driving");
    group.sample_size(10);
    // Ten seconds of varied driving, over and over.
    let pattern: Vec<Controls> = (0..1200)
        .map(|i| {
            let t = f64::from(i) / 120.0;
            Controls {
                throttle: if (t as u32) % 5 == 4 { 0.0 } else { 0.8 },
                brake: if (t as u32) % 5 == 4 { 0.6 } else { 0.0 },
                steer: (t * 0.9).sin() * 0.6,
                ..Controls::default()
            }
        })
        .collect();
    for kind in ModelKind::ALL {
        group.bench_function(kind.name(), |b| {
            b.iter(|| {
                let track = bundled::load("grandprix").unwrap();
                let mut sim = World::new(track, CarSpec::default_for(kind), kind, 120);
                for c in pattern.iter().cycle().take(432_000) {
                    sim.drive(c);
                }
                black_box(sim.cars[0].car.state.body.pos)
            });
        });
    }
    group.finish();
}

/// `benches/hour.toml` in-process: an hour of full circles on the oval,
/// most of it pinned against the outer wall, where every step sweeps (the
/// slowest case; `skid sim --every 432000` runs the same).
fn bench_hour_at_the_wall(c: &mut Criterion) {
    let mut group = c.benchmark_group("hour against a wall");
    group.sample_size(10);
    let circle = Controls {
        throttle: 0.6,
        steer: 0.35,
        ..Controls::default()
    };
    for kind in ModelKind::ALL {
        group.bench_function(kind.name(), |b| {
            b.iter(|| {
                let track = bundled::load("oval").unwrap();
                let mut sim = World::new(track, CarSpec::default_for(kind), kind, 120);
                for _ in 0..432_000 {
                    sim.drive(black_box(&circle));
                }
                black_box(sim.cars[0].car.state.body.pos)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_steps, bench_hour, bench_hour_at_the_wall);
criterion_main!(benches);
