//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod courses;
pub mod keyboard;
pub mod laps;
pub mod maps;
pub mod person;
pub mod screen_driver;

use glam::DVec2;
use skid::physics::car::CarSpec;
use skid::physics::{Car, Controls, ModelKind};
use skid::track::{Track, parse};

/// An open arena `cols` x `rows` of one surface character, walled, with
/// the player's start (facing east) near the west end at mid height.
pub fn arena(surface: char, cols: usize, rows: usize) -> Track {
    let mut s = String::new();
    s.push_str(&"#".repeat(cols));
    s.push('\n');
    for r in 1..rows - 1 {
        s.push('#');
        for c in 1..cols - 1 {
            s.push(match (r == rows / 2, c) {
                (true, 5) => '>',
                (_, 3) => '|',
                _ => surface,
            });
        }
        s.push_str("#\n");
    }
    s.push_str(&"#".repeat(cols));
    s.push('\n');
    parse("arena", s.as_bytes()).expect("the arena is valid")
}

/// A ring `cols` x `rows` of asphalt round a walled island, 12 cells
/// from every side: the finish line crosses the top straight at a third
/// of its length, the player's start just past it, facing east.
pub fn ring(cols: usize, rows: usize) -> Track {
    let finish = cols / 3;
    let mut s = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let edge = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
            let island = (12..cols - 12).contains(&c) && (rows / 3..rows - rows / 3).contains(&r);
            s.push(match () {
                () if edge || island => '#',
                () if r < rows / 3 && c == finish => '|',
                () if r == rows / 6 && c == finish + 3 => '>',
                () => '.',
            });
        }
        s.push('\n');
    }
    parse("ring", s.as_bytes()).expect("the ring is valid")
}

/// A car of `kind` with the model's own preset, at the arena's start.
pub fn car_on(track: &Track, kind: ModelKind) -> Car {
    let (pos, heading) = track.start_pose(0);
    Car::new(CarSpec::default_for(kind), kind, pos, heading)
}

/// A car already moving east at `speed` m/s.
pub fn moving(track: &Track, kind: ModelKind, speed: f64) -> Car {
    let mut car = car_on(track, kind);
    car.state.body.vel = DVec2::new(speed, 0.0);
    car
}

pub fn throttle(t: f64) -> Controls {
    Controls {
        throttle: t,
        ..Controls::default()
    }
}

pub fn steer(s: f64) -> Controls {
    Controls {
        steer: s,
        ..Controls::default()
    }
}

/// Property-test cases: `default`, or `PROPTEST_CASES` when set, to
/// explore further than CI does (with `PROPTEST_RNG_SEED` for new ones).
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The computer driver's run of `laps` laps (none: the track's own) of
/// the bundled `track` in `model`, at full skill and 120 Hz, as an input
/// script: a lap driven well, to replay in a player's seat.
pub fn computer_run(
    track: &str,
    model: ModelKind,
    laps: Option<u32>,
) -> skid::race::script::Script {
    use skid::race::world::{Source, World};
    let t = skid::track::bundled::load(track).unwrap();
    let spec = CarSpec::default_for(model);
    let driver = skid::ai::Driver::new(&t, &spec, model, 1.0);
    let mut sim = World::new(t, spec, model, 120);
    if let Some(laps) = laps {
        sim.laps = laps;
    }
    sim.cars[0].source = Source::Driver(Box::new(driver));
    let mut script = skid::race::script::Script::default();
    while sim.cars[0].laps.lap < sim.laps {
        sim.step();
        script.push(&sim.cars[0].last);
    }
    script
}

/// The screen `app` draws at its size, as the terminal would get it.
pub fn drawn(app: &skid::app::App) -> ratatui::buffer::Buffer {
    let (w, h) = app.session.size;
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut t = ratatui::Terminal::new(backend).unwrap();
    t.draw(|f| skid::app::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}
