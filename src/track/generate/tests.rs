use super::*;
use crate::track::{course, fnv1a, parse};

/// The exact output of a few seeds, pinned: a change that moves any of
/// these makes a different track for a seed, which needs a new
/// [`VERSION`] (a day's track never changes once published).
#[test]
fn seeds_give_the_same_bytes_as_ever() {
    let pinned = [
        (1, Size::Small, "Ashen Dunes", 1_348_398_697_902_224_900),
        (2, Size::Medium, "Hollow Bluff", 5_798_859_589_413_316_998),
        (3, Size::Large, "Granite Fen", 3_160_179_790_001_169_405),
        (
            20_261_206,
            Size::Medium,
            "Iron Crossing",
            9_431_459_919_684_672_739,
        ),
    ];
    let got: Vec<(u64, Size, String, u64)> = (pinned.iter())
        .map(|&(seed, size, _, _)| {
            let g = generate(seed, size);
            (seed, size, g.name, fnv1a(g.text.as_bytes()))
        })
        .collect();
    let want: Vec<(u64, Size, String, u64)> = (pinned.iter())
        .map(|&(seed, size, name, hash)| (seed, size, name.to_string(), hash))
        .collect();
    assert_eq!(got, want);
}

/// The day's seed is its date's, pinned as the seeds are.
#[test]
fn a_day_has_its_track() {
    let day = Day::parse("2026-12-06").unwrap();
    let g = daily(day);
    assert_eq!(daily_seed(day), 1_374_456_467_866_946_654);
    let got = (g.name.as_str(), fnv1a(g.text.as_bytes()));
    assert_eq!(got, ("Lost Crossing", 17_524_040_446_520_964_471));
    assert_ne!(daily(day.before()).text, g.text);
}

#[test]
fn a_seed_makes_one_track() {
    for seed in [0, 7, u64::MAX] {
        assert_eq!(
            generate(seed, Size::Medium).text,
            generate(seed, Size::Medium).text
        );
    }
    assert_ne!(
        generate(1, Size::Medium).text,
        generate(2, Size::Medium).text
    );
}

/// Every track made is one a lap can be raced on, with no line that can
/// be driven around, a full grid (or all but one) and a road 4 to 8
/// columns wide; the fallback was never needed.
#[test]
fn every_generated_track_is_raceable() {
    const SEEDS: u64 = 150;
    for size in Size::ALL {
        for seed in 0..SEEDS {
            let g = generate(seed, size);
            let what = format!("seed {seed} {}", size.name());
            assert!(g.discarded < TRIES, "{what}: the fallback");
            let track = parse(&what, g.text.as_bytes()).expect("parses");
            let raceable = course::raceable(track, &what).expect("a lap can be driven");
            assert!(course::drive_arounds(&raceable, &what).is_empty(), "{what}");
            let slots = raceable.track().starts.len();
            assert!((7..=8).contains(&slots), "{what}: {slots} slots");
        }
    }
    eprintln!("{SEEDS} seeds of each size tried: every one raceable");
}

#[test]
fn sizes_are_read_by_name() {
    assert_eq!("large".parse::<Size>(), Ok(Size::Large));
    assert!(
        "huge"
            .parse::<Size>()
            .unwrap_err()
            .contains("small, medium or large")
    );
}

#[test]
fn the_fallback_is_raceable() {
    assert!(raceable(
        &(String::from("+++\nname = \"x\"\n+++\n") + FALLBACK)
    ));
}
