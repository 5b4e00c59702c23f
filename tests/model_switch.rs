//! `m` switches the physics model to the next one with that model's own
//! car, keeping where the car is and how it moves; where that car would
//! stand in a wall, the model changes and the car stays. A switch is an
//! input like any other: recorded, and replayed the same.

mod common;

use glam::DVec2;
use skid::app::{App, Command, LOCAL, Options};
use skid::physics::car::CarSpec;
use skid::physics::{Car, ModelKind};

/// A race in `model` four seconds after its start (tick 480).
fn four_seconds_in(model: ModelKind) -> App {
    let mut app = App::new(Options {
        model: Some(model),
        hz: 120,
        ..Options::default()
    });
    app.start_race();
    for k in 0..=480 {
        app.tick(f64::from(k) / 120.0);
    }
    app
}

/// Issue 50: a quick burst of m, faster than a physics tick, switched the
/// model once; each press is a switch.
#[test]
fn each_m_of_a_quick_burst_switches_once_more() {
    let mut app = four_seconds_in(ModelKind::Arcade);
    for _ in 0..3 {
        app.command(Command::SwitchModel);
    }
    app.tick(481.0 / 120.0);
    let car = app.race.as_ref().unwrap().view(LOCAL).unwrap().car();
    let third = ModelKind::Arcade.next().next().next();
    assert_eq!(car.kind, third);
}

#[test]
fn m_takes_the_next_models_own_car_keeping_the_motion() {
    let mut app = four_seconds_in(ModelKind::Strafe);
    let before = app
        .race
        .as_ref()
        .unwrap()
        .view(LOCAL)
        .unwrap()
        .car()
        .state
        .body;
    app.command(Command::SwitchModel);
    app.tick(481.0 / 120.0);
    let car = app.race.as_ref().unwrap().view(LOCAL).unwrap().car();
    let next = ModelKind::Strafe.next();
    assert_eq!(car.kind, next);
    assert_eq!(
        car.spec().name,
        CarSpec::default_for(next).name,
        "the model's own car"
    );
    // Where it was, as it moved: one tick on.
    let after = car.state.body;
    let step = before.vel.length() / 120.0;
    assert!(after.pos.distance(before.pos) <= 1.5 * step + 1e-9);
    assert_eq!(after.heading.to_bits(), before.heading.to_bits());
}

#[test]
fn a_switch_is_recorded_and_replays_bit_for_bit() {
    // Drive, press m twice at different moments; the recording replayed
    // ends in the same place, bit for bit, in the same model and car.
    let options = |replay| Options {
        model: Some(ModelKind::Arcade),
        hz: 120,
        replay,
        ..Options::default()
    };
    let mut app = App::new(options(None));
    app.start_race();
    let mut held = skid::input::Held::new();
    for k in 0..=900u32 {
        let now = f64::from(k) / 120.0;
        held.press(skid::input::Action::Throttle, now);
        app.race.as_mut().unwrap().seat_mut(LOCAL).unwrap().held = held.clone();
        if k == 500 || k == 700 {
            app.command(Command::SwitchModel);
        }
        app.tick(now);
    }
    let seat = app.race.as_ref().unwrap().view(LOCAL).unwrap();
    let (body, kind) = (seat.car().state.body, seat.car().kind);
    assert_eq!(kind, ModelKind::Arcade.next().next());
    let script = seat.seat.recording.clone();
    let text = script.to_toml();
    assert_eq!(text.matches("model = ").count(), 2, "{text}");
    let script = skid::race::script::Script::parse("recorded", &text).unwrap();
    let mut replay = App::new(options(Some(script)));
    replay.start_race();
    for k in 0..=900u32 {
        replay.tick(f64::from(k) / 120.0);
    }
    let car = replay.race.as_ref().unwrap().view(LOCAL).unwrap().car();
    assert_eq!(car.kind, kind);
    assert_eq!(car.spec().name, CarSpec::default_for(kind).name);
    assert_eq!(car.state.body.pos.x.to_bits(), body.pos.x.to_bits());
    assert_eq!(car.state.body.pos.y.to_bits(), body.pos.y.to_bits());
    assert_eq!(car.state.body.heading.to_bits(), body.heading.to_bits());
}

#[test]
fn a_car_that_would_stand_in_a_wall_is_kept() {
    let track = common::ring(120, 40);
    let small = CarSpec::default_for(ModelKind::Strafe);
    let big = CarSpec::default_for(ModelKind::Arcade);
    assert!(big.body.length > 2.0 * small.body.length);
    // Nose to the top wall, closer than the big car's half length.
    let top = track.cell_size().y;
    let gap = 0.5 * small.body.length + 0.3;
    assert!(gap < 0.5 * big.body.length);
    let pos = DVec2::new(40.0, top + gap);
    let mut car = Car::new(
        small.clone(),
        ModelKind::Strafe,
        pos,
        -std::f64::consts::FRAC_PI_2,
    );
    car.state.body.vel = DVec2::new(0.0, -1.0);
    assert!(!car.switch_to(ModelKind::Arcade, big.clone(), &track));
    assert_eq!(car.kind, ModelKind::Arcade, "the model changes");
    assert_eq!(car.spec().name, small.name, "the car stays");
    assert_eq!(car.state.body.pos, pos);
    // In the open, the car changes too.
    let open = DVec2::new(40.0, 6.0 * top);
    let mut car = Car::new(small, ModelKind::Strafe, open, 0.0);
    assert!(car.switch_to(ModelKind::Arcade, big.clone(), &track));
    assert_eq!(car.spec().name, big.name);
}
