//! Back to the checkpoint (b): the car stands on the last mark it passed,
//! facing on round the course, the lap clock running; before the first
//! crossing of the finish, on its grid slot. A recording with a respawn
//! replays the same, so a respawn is an input like any key.

mod common;

use common::keyboard::{Keyboard, Player};
use common::person::Person;
use ratatui::crossterm::event::KeyCode;
use skid::ai::Driver;
use skid::app::Options;
use skid::physics::ModelKind;
use skid::race::script::Script;
use skid::race::world::{Source, World};
use skid::track::bundled;

const B: KeyCode = KeyCode::Char('b');

fn racing() -> Player {
    Player::racing(
        Options {
            track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
            model: Some(ModelKind::Kinematic),
            hz: 120,
            ..Options::default()
        },
        Keyboard::press_only(0.5, 0.033),
    )
}

fn person(p: &Player) -> Person {
    let race = p.app.race.as_ref().unwrap();
    let car = &race.world.cars[0].car;
    Person::new(Driver::new(&race.world.track, car.spec(), car.kind, 0.9), 7)
}

#[test]
fn b_stands_the_car_on_the_last_checkpoint_facing_on_with_the_clock_running() {
    let mut p = racing();
    let mut who = person(&p);
    // Drive until checkpoint 1 is passed, and two seconds on.
    while p.app.race.as_ref().unwrap().world.cars[0].laps.checkpoint < 1 {
        who.drive(&mut p);
        p.step();
        assert!(p.now() < 60.0, "checkpoint 1 reached");
    }
    let passed = p.now();
    while p.now() < passed + 2.0 {
        who.drive(&mut p);
        p.step();
    }
    for code in [
        KeyCode::Char('w'),
        KeyCode::Char('s'),
        KeyCode::Char('a'),
        KeyCode::Char('d'),
    ] {
        p.keys.up(code, p.now());
    }
    let clock = p
        .app
        .race
        .as_ref()
        .unwrap()
        .view(skid::app::LOCAL)
        .unwrap()
        .lap_time();
    p.keys.hold(B, p.now(), p.now() + 0.05);
    p.run_to(p.now() + 0.1);
    let race = p.app.race.as_ref().unwrap();
    let e = &race.world.cars[0];
    let body = &e.car.state.body;
    let (centre, normal) = race.world.track.mark_lines()[1];
    assert!(
        body.pos.distance(centre) < 0.5,
        "on checkpoint 1: {} vs {centre}",
        body.pos
    );
    assert!(body.vel.length() < 0.5, "standing: {}", body.vel.length());
    let along = race.line.ahead(e.along, 4.0) - race.line.points[e.along];
    let facing = skid::base::trig::dir(body.heading);
    assert!(
        facing.dot(along.normalize()) > 0.7,
        "facing on round the course"
    );
    assert!((facing.dot(normal)).abs() > 0.99, "across the mark");
    assert_eq!(
        (e.laps.lap, e.laps.checkpoint),
        (0, 1),
        "the race counts on"
    );
    assert!(
        race.view(skid::app::LOCAL).unwrap().lap_time() > clock,
        "the lap clock runs"
    );
    // And the lap still counts from there.
    let mut who = person(&p);
    while p.app.race.as_ref().unwrap().world.cars[0].laps.lap < 1 {
        who.drive(&mut p);
        p.step();
        assert!(p.now() < passed + 90.0, "a lap after the respawn");
    }
}

#[test]
fn before_the_first_crossing_b_goes_back_to_the_grid() {
    let mut p = racing();
    p.keys.hold(KeyCode::Char('w'), 0.0, 0.8);
    p.run_to(1.0);
    let grid = p.app.race.as_ref().unwrap().world.cars[0].grid;
    let moved = p.app.race.as_ref().unwrap().world.cars[0]
        .car
        .state
        .body
        .pos;
    assert!(moved.distance(grid.0) > 1.0);
    p.keys.hold(B, 1.0, 1.05);
    p.run_to(1.1);
    let body = &p.app.race.as_ref().unwrap().world.cars[0].car.state.body;
    assert!(body.pos.distance(grid.0) < 0.2 && (body.heading - grid.1).abs() < 1e-9);
}

#[test]
fn a_recording_with_a_respawn_replays_the_same() {
    let mut p = racing();
    let mut who = person(&p);
    while p.now() < 12.0 {
        who.drive(&mut p);
        p.step();
    }
    p.keys.hold(B, p.now(), p.now() + 0.05);
    while p.now() < 20.0 {
        who.drive(&mut p);
        p.step();
    }
    let race = p.app.race.as_ref().unwrap();
    let mut script = Script::default();
    for c in p.controls() {
        script.push(&c);
    }
    assert!(
        script.hold.iter().any(|h| h.respawn),
        "the respawn is recorded"
    );
    // Through its text, as `--record` saves it and `--inputs` reads it.
    let text = toml::to_string(&script).unwrap();
    assert!(text.contains("respawn = true"));
    let script = Script::parse("recording.toml", &text).unwrap();
    let t = bundled::load("pocket").unwrap();
    let car = &race.world.cars[0].car;
    let mut sim = World::new(t, car.spec().clone(), car.kind, 120);
    sim.cars[0].source = Source::script(&script);
    for _ in 0..race.world.tick {
        sim.step();
    }
    assert_eq!(
        sim.cars[0].car.state.body,
        race.world.cars[0].car.state.body
    );
}
