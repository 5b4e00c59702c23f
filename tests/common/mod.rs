//! Helpers shared by the integration tests.
#![allow(dead_code)]

use glam::DVec2;
use skid::car::CarSpec;
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
