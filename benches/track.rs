//! Parsing speed: the largest bundled track, and a generated 8000-column
//! map (the format allows 8192). Goal: under 20 ms each. And the largest
//! map the format allows, a road winding over 8192 x 8192 cells, whose
//! tables (distances to walls and surfaces, reachable cells) are most of
//! the time it takes.
//!
//! And the lap checks `skid check` runs after parsing (`course::no_lap`, then
//! `course::drive_arounds`) on the largest open map the format allows, an
//! 8192 x 8192 field whose finish line stops in its middle, so the walk
//! round the line's end covers most of the map.

#[path = "../tests/common/maps.rs"]
mod maps;

use std::fmt::Write;

use criterion::{Criterion, criterion_group, criterion_main};
use skid::track::{bundled, course, parse};
use std::hint::black_box;

/// An 8000 x 60 map: a long straight with walls, grass, gravel and ice.
fn wide_map() -> String {
    let w = 8000;
    let mut s = String::from("+++\nname = \"Wide\"\n+++\n");
    s.push_str(&"#".repeat(w));
    s.push('\n');
    for r in 1..59 {
        s.push('#');
        for c in 1..w - 1 {
            s.push(match (r, c) {
                (30, 10) => '>',
                (_, 40) => '=',
                (_, c) if c % 97 == 0 => ':',
                (_, c) if c % 89 == 0 => '~',
                (r, _) if !(10..50).contains(&r) => ' ',
                _ => '.',
            });
        }
        s.push_str("#\n");
    }
    s.push_str(&"#".repeat(w));
    s.push('\n');
    s
}

fn bench(c: &mut Criterion) {
    let gp = bundled::TRACKS
        .iter()
        .find(|(n, _)| *n == "grandprix")
        .unwrap()
        .1;
    c.bench_function("parse grandprix (446x130)", |b| {
        b.iter(|| parse("grandprix", black_box(gp.as_bytes())).unwrap());
    });
    let wide = wide_map();
    c.bench_function("parse 8000x60 generated", |b| {
        b.iter(|| parse("wide", black_box(wide.as_bytes())).unwrap());
    });
    // A front matter of 32,000 wrong legend keys: errors stop at the cap,
    // and finding each one's position costs nothing past it.
    let mut keys = String::new();
    for i in 0..32_000 {
        let _ = writeln!(keys, "\"k{i}\" = \"ice\"");
    }
    let flood = format!("+++\n[legend]\n{keys}+++\n#####\n#>=.#\n#####\n");
    c.bench_function("32,000 wrong legend keys", |b| {
        b.iter(|| parse("flood", black_box(flood.as_bytes())).unwrap_err());
    });
    let field = parse("field", maps::field(8192, 8192, 1..4096, None).as_bytes()).unwrap();
    let serpentine = maps::serpentine(8192);
    let mut g = c.benchmark_group("parse largest");
    g.sample_size(10);
    g.bench_function("serpentine 8192x8192", |b| {
        b.iter(|| parse("serpentine", black_box(serpentine.as_bytes())).unwrap());
    });
    g.finish();
    let mut g = c.benchmark_group("lap checks");
    g.sample_size(10);
    g.bench_function("open field 8192x8192", |b| {
        b.iter(|| {
            assert!(course::no_lap(black_box(&field)).is_none());
            course::drive_arounds(&field, "field")
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
