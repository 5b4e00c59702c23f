//! `m` switches the physics model to the next one with that model's own
//! car, keeping where the car is and how it moves; where that car would
//! stand in a wall, the model changes and the car stays.

mod common;

use glam::DVec2;
use skid::app::{App, Command, LOCAL, Options};
use skid::car::CarSpec;
use skid::physics::{Car, ModelKind};

#[test]
fn m_takes_the_next_models_own_car_keeping_the_motion() {
    let mut app = App::new(Options {
        model: Some(ModelKind::Strafe),
        hz: 120,
        ..Options::default()
    });
    app.start_race();
    for k in 0..=480 {
        app.tick(f64::from(k) / 120.0);
    }
    let before = app.race.as_ref().unwrap().view(LOCAL).car().state.body;
    app.command(Command::SwitchModel);
    let car = app.race.as_ref().unwrap().view(LOCAL).car();
    let next = ModelKind::Strafe.next();
    assert_eq!(car.kind, next);
    assert_eq!(
        car.spec().name,
        CarSpec::default_for(next).name,
        "the model's own car"
    );
    assert_eq!(car.state.body, before, "where it was, as it moved");
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
