//! The racing line (`skid::ai::Line::new`), which the game computes once
//! per track on a thread of its own while the menu says so: the largest
//! bundled track, the largest open map the format allows (8192 x 8192, a
//! field with a finish line stopping in the open), and a road winding over
//! a whole 2048 x 2048 map (a 930 km lap) and over the largest map (8192 x
//! 8192, a 15,000 km lap: every cell of it is searched), with no checkpoint
//! and with nine (ten legs, each closed to the corridor of the one before),
//! and the largest open field with nine checkpoints spread over it (ten
//! legs across open ground, each searched from both ends at once: before
//! the searches were aimed, each end settled a disc round itself, and the
//! line took 160 s). Goal: under 2 s and 300 MB. Every 8192 x 8192 map
//! here has more than 4 million cells a car can reach, so its loop is
//! searched in blocks of 4 x 4 cells (`skid::track::Track::in_blocks`).
//!
//! And a car's place on the line (`Line::nearest`, every car every
//! tick): on `grandprix`, from places 12 m off the line (in a wall,
//! across the grass), where the points round the car's last place are
//! all too far and the whole line is looked through.
//!
//! Besides the times, prints the growth of the process's peak resident
//! memory over one computation of each line (`VmHWM`, reset through
//! `/proc/self/clear_refs`; Linux only).

#[path = "../tests/common/maps.rs"]
mod maps;

use criterion::{Criterion, criterion_group, criterion_main};
use skid::ai::Line;
use skid::track::{Track, bundled, parse};
use std::hint::black_box;

fn status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Peak memory the line adds to the process, MB.
fn peak_growth_mb(track: &Track) -> Option<f64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    let before = status_kb("VmHWM:")?;
    black_box(Line::new(track, 8.0, 6.0, 60.0));
    let after = status_kb("VmHWM:")?;
    Some(after.saturating_sub(before) as f64 / 1024.0)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("line");
    g.sample_size(10);
    let cases = [
        ("grandprix (446x130)", bundled::load("grandprix").unwrap()),
        (
            "open field 8192x8192",
            parse("field", maps::field(8192, 8192, 1..4096, None).as_bytes()).unwrap(),
        ),
        (
            "serpentine 2048x2048",
            parse("serpentine", maps::serpentine(2048).as_bytes()).unwrap(),
        ),
        (
            "serpentine 8192x8192",
            parse("serpentine", maps::serpentine(8192).as_bytes()).unwrap(),
        ),
        (
            "open field 8192x8192, 9 checkpoints",
            parse(
                "field",
                maps::field_checkpoints(8192, &maps::spread(8192)).as_bytes(),
            )
            .unwrap(),
        ),
        (
            "serpentine 8192x8192, 9 checkpoints",
            parse(
                "serpentine",
                maps::serpentine_checkpoints(8192, 9).as_bytes(),
            )
            .unwrap(),
        ),
    ];
    for (name, track) in &cases {
        match peak_growth_mb(track) {
            Some(mb) => eprintln!("line {name}: peak memory +{mb:.0} MB"),
            None => eprintln!("line {name}: peak memory not measurable here"),
        }
        g.bench_function(*name, |b| {
            b.iter(|| Line::new(black_box(track), 8.0, 6.0, 60.0));
        });
    }
    g.finish();
}

/// `Line::nearest` from 1,000 places 12 m beside `grandprix`'s line.
fn nearest(c: &mut Criterion) {
    let track = bundled::load("grandprix").unwrap();
    let line = Line::new(&track, 8.0, 6.0, 60.0);
    let n = line.points.len();
    let places: Vec<_> = (0..1000)
        .map(|k| {
            let i = k * n / 1000;
            let along = line.points[(i + 1) % n] - line.points[i];
            line.points[i] + along.perp().normalize_or_zero() * 12.0
        })
        .collect();
    c.bench_function(
        "nearest point, 1,000 places 12 m off grandprix's line",
        |b| {
            b.iter(|| {
                (places.iter().enumerate())
                    .map(|(k, &p)| line.nearest(black_box(p), (k * 7) % n))
                    .sum::<usize>()
            });
        },
    );
}

criterion_group!(benches, bench, nearest);
criterion_main!(benches);
