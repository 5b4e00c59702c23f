//! The steering aid for keyboards without key releases (docs/TERMINAL.md,
//! "The steering aid"), as players meet it:
//!
//! * the screen-reading driver the issue tracker measures presses-only
//!   driving with (`common::screen_driver`, careful as it drives by
//!   default: it waits for a key it let go of to stop counting before it
//!   presses another) laps `pocket` within 15% of its lap with releases
//!   in `arcade`, `kinematic` and `tire`, and laps at all in `dynamic`
//!   (before the aid: 2.7 times as long in `arcade`, no lap in two
//!   minutes in the others);
//! * holding W alone through a terminal without releases, the car keeps
//!   to the road round bundled and generated tracks and the panel says
//!   AID; with releases, or with the aid turned off (`t`), the same W
//!   alone meets a wall;
//! * a lap it steered is saved marked aided, with no medal, and `skid
//!   records` lists it so; a lap with releases is not.

mod common;

use common::keyboard::{Keyboard, Player};
use common::screen_driver::{Reading, best_lap};
use ratatui::crossterm::event::KeyCode;
use skid::app::Options;
use skid::keys::Command;
use skid::physics::ModelKind;
use skid::track::Raceable;
use skid::track::course::raceable;

/// The driver's better lap of two runs (its reading's noise seeded 1
/// and 2) round `pocket`, `secs` seconds each.
fn screen_lap(model: ModelKind, releases: bool, secs: f64) -> Option<f64> {
    (1..=2)
        .filter_map(|seed| {
            let keys = if releases {
                Keyboard::kitty(0.5, 0.033)
            } else {
                Keyboard::press_only(0.5, 0.033)
            };
            let how = Reading {
                noise: 1.0,
                seed,
                careful: true,
            };
            best_lap(model, keys, secs, how)
        })
        .min_by(f64::total_cmp)
}

#[test]
fn the_screen_reading_driver_by_presses_alone_is_within_15_percent() {
    for model in [ModelKind::Arcade, ModelKind::Kinematic, ModelKind::Tire] {
        let with = screen_lap(model, true, 80.0).expect("a lap with releases");
        let without = screen_lap(model, false, 80.0);
        let ratio = without.map_or(f64::INFINITY, |t| t / with);
        eprintln!("{model}: {with:.1} s with releases, {without:?} without");
        assert!(ratio <= 1.15, "{model}: {ratio:.2} times as long");
    }
}

#[test]
fn the_screen_reading_driver_laps_dynamic_by_presses_alone() {
    let without = screen_lap(ModelKind::Dynamic, false, 120.0);
    assert!(without.is_some(), "no lap in two minutes");
}

/// Laps done in `secs` seconds on `track` in `model`, holding W alone
/// from the start on `keys`, with the aid turned off first if `off`;
/// and whether the panel said AID at any frame looked at.
fn on_w_alone(
    track: Raceable,
    model: ModelKind,
    keys: Keyboard,
    off: bool,
    secs: f64,
) -> (usize, bool) {
    let mut keys = keys;
    keys.down(KeyCode::Char('w'), -1.0);
    let mut p = Player::racing(
        Options {
            track: Some((track.track().name.clone(), track)),
            model: Some(model),
            laps: Some(50),
            hz: 120,
            ..Options::default()
        },
        keys,
    );
    p.app.resize(80, 24);
    if off {
        p.app.command(Command::ToggleAid);
    }
    let mut said = false;
    while p.now() < secs {
        p.step();
        if p.tick.is_multiple_of(600) {
            said |= skid::ui::buffer_text(&common::drawn(&p.app)).contains("AID");
        }
    }
    let race = p.app.race.as_ref().unwrap();
    (race.seats[&skid::world::FIRST].log.ends.len(), said)
}

fn bundled(name: &str) -> Raceable {
    skid::track::bundled::load_raceable(name).unwrap()
}

/// (`tire` and `dynamic` at full throttle slide off in the corners: the
/// aid steers, it does not brake.)
#[test]
fn w_alone_keeps_to_the_road_with_the_aid_and_not_without() {
    for model in [ModelKind::Arcade, ModelKind::Kinematic] {
        let tmux = || Keyboard::press_only(0.5, 0.033);
        let (laps, said) = on_w_alone(bundled("pocket"), model, tmux(), false, 60.0);
        assert!(laps >= 1 && said, "{model}: {laps} laps, AID shown: {said}");
        let (laps, said) = on_w_alone(bundled("pocket"), model, tmux(), true, 60.0);
        assert!(
            laps == 0 && !said,
            "{model}, aid off: {laps} laps, AID: {said}"
        );
        let kitty = Keyboard::kitty(0.5, 0.033);
        let (laps, said) = on_w_alone(bundled("pocket"), model, kitty, false, 60.0);
        assert!(
            laps == 0 && !said,
            "{model}, releases: {laps} laps, AID: {said}"
        );
    }
}

/// Generated tracks: rectangles of road ringed by grass, of every size
/// and width the generator draws.
#[test]
fn w_alone_keeps_to_the_road_round_generated_tracks() {
    let mut tried = 0;
    for seed in 0..24 {
        let Some(map) = common::maps::grass_ringed(seed) else {
            continue;
        };
        let Ok(track) = raceable(
            skid::track::parse("ringed", map.as_bytes()).unwrap(),
            "ringed",
        ) else {
            continue;
        };
        let (laps, _) = on_w_alone(
            track,
            ModelKind::Kinematic,
            Keyboard::press_only(0.5, 0.033),
            false,
            60.0,
        );
        assert!(laps >= 1, "seed {seed}: no lap in 60 s\n{map}");
        tried += 1;
    }
    assert!(tried >= 12, "only {tried} tracks drawn");
}

#[test]
fn an_aided_lap_is_saved_and_listed_as_aided() {
    let dir = std::env::temp_dir().join(format!("skid-aid-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = skid::records::Store::new(&dir);
    let mut keys = Keyboard::press_only(0.5, 0.033);
    keys.down(KeyCode::Char('w'), -1.0);
    let mut p = Player::racing(
        Options {
            track: Some(("pocket".into(), bundled("pocket"))),
            model: Some(ModelKind::Kinematic),
            laps: Some(1),
            hz: 120,
            records: Some(store.clone()),
            ..Options::default()
        },
        keys,
    );
    while p.app.screen == skid::app::Screen::Race && p.now() < 120.0 {
        p.step();
    }
    // The results say so too, where a medal would be.
    let results = skid::ui::buffer_text(&common::drawn(&p.app));
    assert!(results.contains("NO MEDAL  ·  AIDED"), "{results}");
    let loaded = store.load().unwrap();
    assert_eq!(loaded.records.len(), 1, "one lap, one record");
    assert!(loaded.records[0].aided);
    // Medal times are for laps steered by hand: an aided lap earns none.
    assert_eq!(loaded.records[0].medal, None);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args(["records", "--data-dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().nth(1).unwrap_or_default();
    assert!(row.contains("Pocket") && row.ends_with("aided"), "{text}");
    // The person's lap with releases is not.
    let plain = dir.join("plain");
    let store = skid::records::Store::new(&plain);
    let _ = common::person::one_lap_of_pocket(120, Some(store.clone()));
    let loaded = store.load().unwrap();
    assert!(
        loaded.records.iter().all(|r| !r.aided),
        "{:?}",
        loaded.records
    );
    let _ = std::fs::remove_dir_all(&dir);
}
