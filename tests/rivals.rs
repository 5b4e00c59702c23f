//! The computer as a rival: how quickly and how cleanly it laps the
//! bundled tracks at full skill, where a model once defeated it.

use skid::ai::Driver;
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::world::{Source, World};
use skid::track::bundled;

/// The computer's laps of bundled `track` in `kind` at full skill, in
/// seconds, until `laps` are done (or ten minutes have passed).
fn lap_times(track: &str, kind: ModelKind, laps: u32) -> Vec<f64> {
    lap_times_watched(track, kind, laps, |_| {})
}

/// [`lap_times`], with `watch` shown the world after every step.
fn lap_times_watched(
    track: &str,
    kind: ModelKind,
    laps: u32,
    mut watch: impl FnMut(&World),
) -> Vec<f64> {
    let track = bundled::load_raceable(track).unwrap().into_track();
    let spec = CarSpec::default_for(kind);
    let driver = Driver::new(&track, &spec, kind, 1.0);
    let mut sim = World::new(track, spec, kind, 120);
    sim.cars[0].source = Source::Driver(Box::new(driver));
    let mut ends = vec![0];
    while sim.cars[0].laps.lap < laps && sim.time() < 600.0 {
        sim.step();
        watch(&sim);
        if sim.cars[0].laps.lap as usize == ends.len() {
            ends.push(sim.tick);
        }
    }
    ends.windows(2)
        .map(|w| (w[1] - w[0]) as f64 * sim.dt)
        .collect()
}

#[test]
fn the_computer_catches_its_slides_in_dynamic() {
    // A rear-driven car on `grandprix`'s fast corners: a driver who steers
    // only by where the nose points spins (about twenty times a lap, 234 s
    // a flying lap); one who counter-steers laps about as fast as the
    // `kinematic` car, which cannot slide at all (137 s).
    let laps = lap_times("grandprix", ModelKind::Dynamic, 2);
    let kinematic = lap_times("grandprix", ModelKind::Kinematic, 2);
    assert_eq!(
        (laps.len(), kinematic.len()),
        (2, 2),
        "{laps:?} {kinematic:?}"
    );
    assert!(
        laps[1] < kinematic[1] * 1.1,
        "a flying lap of {:.1} s in dynamic, {:.1} s in kinematic",
        laps[1],
        kinematic[1]
    );
}

#[test]
fn the_arcade_rival_is_quick_and_does_not_slide_at_a_crawl() {
    // `arcade` is the default model, the first race most people see. Its
    // rival lapped `pocket` in 40.7 s, at about 30 degrees of front slip
    // at 11 km/h; a person reading the screen lapped it in 28.7 s. At full
    // skill it is now at least as quick, and below 30 km/h its front
    // slides under 15 degrees except just after touching a wall.
    let mut worst: f64 = 0.0;
    let mut since_wall = f64::INFINITY;
    let laps = lap_times_watched("pocket", ModelKind::Arcade, 3, |w| {
        let car = &w.cars[0].car;
        since_wall = if car.state.contact.hit_wall {
            0.0
        } else {
            since_wall + w.dt
        };
        let tel = car.telemetry();
        if tel.speed < 30.0 / 3.6 && since_wall > 1.0 && w.time() > 1.0 {
            worst = worst.max(tel.slip_front.abs());
        }
    });
    assert_eq!(laps.len(), 3, "{laps:?}");
    assert!(laps[1] <= 28.7 * 1.1, "a flying lap of {:.1} s", laps[1]);
    assert!(
        worst < 15.0,
        "{worst:.1} degrees of front slip below 30 km/h"
    );
}
