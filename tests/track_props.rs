//! Property tests: no input, however broken, makes the track parser panic;
//! it gives a track or positioned errors. Collision queries on whatever
//! parses keep their promises.

mod common;

use glam::DVec2;
use proptest::prelude::*;
use skid::track::{Obb, Track, bundled, parse};

/// A parse result is a valid track or a non-empty list of errors, each with
/// a position.
fn check(bytes: &[u8]) -> Option<Track> {
    match parse("p.track", bytes) {
        Ok(t) => {
            assert!(!t.starts.is_empty() && t.width > 0 && t.height > 0);
            Some(t)
        }
        Err(e) => {
            assert!(!e.is_empty());
            for d in &e {
                assert!(d.pos.is_some(), "unpositioned: {d}");
                assert!(d.to_string().starts_with("p.track:"));
            }
            None
        }
    }
}

const POCKET: &str = bundled::TRACKS[0].1;
const ALPHABET: &[u8] = b"#. ,:~=|123456789><^v+\n\t\"[]=x\xff\xc3";

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop::sample::select(ALPHABET.to_vec());
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

/// The pocket track with `edits` applied.
fn mutated(edits: &[Edit]) -> Vec<u8> {
    let mut bytes = POCKET.as_bytes().to_vec();
    for e in edits {
        let n = bytes.len().max(1);
        match *e {
            Edit::Replace(i, b) if !bytes.is_empty() => bytes[i % n] = b,
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Delete(i) if !bytes.is_empty() => {
                bytes.remove(i % n);
            }
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(400)))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&bytes);
    }

    #[test]
    fn arbitrary_alphabet_soup_never_panics(bytes in prop::collection::vec(prop::sample::select(ALPHABET.to_vec()), 0..400)) {
        check(&bytes);
    }

    #[test]
    fn mutated_valid_tracks_never_panic(edits in prop::collection::vec(edit(), 1..12)) {
        let bytes = mutated(&edits);
        check(&bytes);
    }

    /// Mutated tracks that parse: the lap check answers (with a position
    /// inside the map), the racing line is never empty and never panics,
    /// and a track with a lap gets a real loop.
    #[test]
    fn mutated_tracks_get_a_lap_verdict_and_a_line(edits in prop::collection::vec(edit(), 1..8)) {
        let bytes = mutated(&edits);
        if let Some(t) = check(&bytes) {
            let verdict = skid::track::course::no_lap(&t);
            if let Some(p) = &verdict {
                prop_assert!(p.col < t.width && p.row < t.height);
            }
            let line = skid::ai::Line::new(&t, 8.0, 6.0, 60.0);
            prop_assert!(!line.points.is_empty());
            prop_assert!(line.speeds.iter().all(|v| v.is_finite() && *v >= 0.0));
            if verdict.is_none() {
                prop_assert!(line.points.len() > 4, "a lap, yet a line of {}", line.points.len());
            }
        }
    }

    #[test]
    fn front_matter_values_never_panic(key in "(name|laps|cell|legend|surfaces)", value in "[-+0-9a-z.\"\\[\\]={}, ]{0,12}") {
        let src = format!("+++\n{key} = {value}\n+++\n{}", POCKET.split("+++\n").nth(2).unwrap());
        check(src.as_bytes());
    }

    #[test]
    fn sweeps_end_clear_of_walls(
        x in -10.0..120.0f64, y in -10.0..90.0f64, heading in -4.0..4.0f64,
        dx in -80.0..80.0f64, dy in -80.0..80.0f64,
    ) {
        let t = parse("pocket", POCKET.as_bytes()).unwrap();
        let b = Obb::new(DVec2::new(x, y), heading, 4.5, 1.8);
        if t.box_hits_wall(&b) {
            // A way out, when there is one, really clears the box.
            if let Some((out, _)) = t.depenetrate(&b) {
                prop_assert!(!t.box_hits_wall(&out));
            }
        } else {
            let d = DVec2::new(dx, dy);
            match t.sweep(&b, d) {
                None => prop_assert!(!t.box_hits_wall(&b.moved(d))),
                Some(hit) => {
                    prop_assert!((0.0..=1.0).contains(&hit.t));
                    prop_assert!(!t.box_hits_wall(&b.moved(d * hit.t)));
                    prop_assert!((hit.normal.length() - 1.0).abs() < 1e-9);
                }
            }
        }
    }
}

#[test]
fn every_bundled_track_validates_and_loads_by_name() {
    assert!(bundled::TRACKS.len() >= 6);
    for (name, src) in bundled::TRACKS {
        let t = parse(name, src.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(
            t.checkpoints >= 1,
            "{name}: a lap passes at least one checkpoint"
        );
        assert!(
            t.starts.len() >= 4,
            "{name}: room for the player and opponents"
        );
        assert!(bundled::load(name).is_some());
        // The file in tracks/ is the one the binary embeds.
        let on_disk = std::fs::read_to_string(format!("tracks/{name}.track")).unwrap();
        assert_eq!(&on_disk, src);
    }
}

#[test]
fn the_bundled_tracks_cover_what_the_issue_asks_for() {
    let get = |n| bundled::load(n).unwrap();
    let pocket = get("pocket");
    // At 80x24, the game's track view has at least 56x22 cells.
    assert!(
        pocket.width <= 56 && pocket.height <= 22,
        "pocket fits in 80x24"
    );
    let rally = get("rally");
    for s in ["asphalt", "gravel", "grass", "ice"] {
        assert!(rally.surfaces_used().contains(&s), "rally has {s}");
    }
    let gp = get("grandprix");
    assert!(
        gp.width > 3 * 80 && gp.height > 3 * 24,
        "grand prix spans several screens"
    );
}
