//! `dynamic` at the keyboard, where it slides: a key's pedals and steering
//! are all or nothing, so the game shapes them (`app::seat`). Driven as a
//! player would, through a terminal's bytes, on a ring of asphalt whose
//! top straight is 260 m long: full throttle from the start, then at
//! 4 s (72 km/h) a flick of the handbrake with D held sets the rear
//! sliding out to the left.

mod common;

use common::keyboard::{Keyboard, Player};
use ratatui::crossterm::event::KeyCode;
use skid::app::Options;
use skid::physics::ModelKind;
use skid::track::course;

const W: KeyCode = KeyCode::Char('w');
const A: KeyCode = KeyCode::Char('a');
const S: KeyCode = KeyCode::Char('s');
const D: KeyCode = KeyCode::Char('d');
const SPACE: KeyCode = KeyCode::Char(' ');

/// When the flick starts and ends, seconds.
const FLICK: (f64, f64) = (4.0, 4.6);

/// A race in `dynamic` on the ring, the throttle held until the flick and
/// the flick planned; the steering aid off (the keys' own reading).
fn flicked(keys: Keyboard) -> Player {
    let track = common::ring(200, 42);
    let mut p = Player::racing(
        Options {
            track: Some(("ring".into(), course::raceable(track, "ring").unwrap())),
            model: Some(ModelKind::Dynamic),
            hz: 120,
            ..Options::default()
        },
        keys,
    )
    .without_aid();
    p.keys.hold(W, 0.0, FLICK.0);
    p.keys.hold(D, FLICK.0, FLICK.1);
    p.keys.hold(SPACE, FLICK.0, FLICK.1);
    p
}

/// A terminal with key releases and one with presses and autorepeat of
/// the newest key only.
fn terminals() -> [(&'static str, Keyboard); 2] {
    [
        ("kitty", Keyboard::kitty(0.5, 0.033)),
        ("tmux", Keyboard::press_only(0.5, 0.033)),
    ]
}

/// The car's speed (km/h) and rear slip angle (degrees, positive when
/// the rear slides out to the right).
fn slide(p: &Player) -> (f64, f64) {
    let tel = p.app.race.as_ref().unwrap().world.cars[0].car.telemetry();
    (tel.speed * 3.6, tel.slip_rear)
}

/// A player who, after the flick, holds the key towards the side the
/// rear slides to while it slides more than 3 degrees, and lets go once
/// it is under 1: the slide's angle read from the panel's SLIP R bar.
fn counter_steer(p: &mut Player, until: f64) -> Vec<(f64, f64)> {
    p.run_to(FLICK.1);
    let mut seen = Vec::new();
    let mut steering = false;
    while p.now() < until {
        let (speed, slip) = slide(p);
        seen.push((speed, slip));
        let t = p.now();
        let (towards, away) = if slip < 0.0 { (A, D) } else { (D, A) };
        if slip.abs() > 3.0 && !p.keys.is_down(towards) {
            p.keys.up(away, t);
            p.keys.down(towards, t);
            steering = true;
        } else if slip.abs() < 1.0 && steering {
            p.keys.up(A, t);
            p.keys.up(D, t);
            steering = false;
        }
        p.step();
    }
    seen
}

#[test]
fn steering_towards_a_slide_catches_it() {
    // The keyboard's lock at 60 km/h is about 6 degrees (it asks for
    // 14 m/s² of cornering); a slide of 30 degrees needs the wheels turned
    // as far as the slide, which the key towards it now gives. Without
    // it the car spun to a standstill. Without releases the handbrake,
    // kept while a steering key repeats (for drifting), lets go when the
    // steering turns the other way.
    for (name, keys) in terminals() {
        let mut p = flicked(keys);
        let seen = counter_steer(&mut p, FLICK.1 + 2.0);
        let worst = seen.iter().map(|s| s.1.abs()).fold(0.0, f64::max);
        assert!(
            worst > 20.0,
            "{name}: the flick sets the rear sliding: {worst:.1} degrees"
        );
        let (speed, slip) = slide(&p);
        assert!(
            slip.abs() < 5.0 && speed > 40.0,
            "{name}: caught within 2 s: {speed:.0} km/h, {slip:.1} degrees ({worst:.1} at worst)"
        );
    }
}

#[test]
fn the_brake_lets_go_while_the_rear_slides() {
    // A key's brake is full braking; in a slide it takes the weight off
    // the rear wheels and turns the slide into a spin. So while the rear
    // slides more than 5 degrees going forwards, S does not brake; once
    // it grips again, S brakes.
    for (name, keys) in terminals() {
        let mut p = flicked(keys);
        p.keys.hold(S, FLICK.1, FLICK.1 + 3.0);
        p.run_to(FLICK.1);
        let (mut sliding, mut gripping) = (0, 0);
        while p.now() < FLICK.1 + 3.0 {
            let (speed, slip) = slide(&p);
            p.step();
            let brake = p.app.race.as_ref().unwrap().seats[&skid::race::world::FIRST]
                .last
                .brake;
            if speed > 5.0 && slip.abs() > 5.0 {
                assert_eq!(
                    brake,
                    0.0,
                    "{name} at {:.2} s, sliding {slip:.1} degrees",
                    p.now()
                );
                sliding += 1;
            } else if speed > 5.0 && slip.abs() < 4.0 {
                gripping += usize::from(brake == 1.0);
            }
        }
        assert!(
            sliding > 0 && gripping > 0,
            "{name}: {sliding} ticks sliding, {gripping} braking"
        );
    }
}

#[test]
fn a_tap_steers_lightly_at_a_crawl_and_firmly_at_speed() {
    // Without releases a tap of D steers for one repeat delay. At low
    // speed, where the keyboard's lock is wide and a long tap would set
    // the car sliding, it eases to 0.3 of a held key within 0.2 s; at
    // speed, where the lock is narrow, it eases only to half by the end
    // of the delay: 0.3 s after the press it still steers 0.8 of a
    // held key (steering here measured against the tap's first tick).
    let share = |throttle: f64| {
        let mut p = Player::racing(
            Options {
                track: Some((
                    "ring".into(),
                    course::raceable(common::ring(200, 42), "ring").unwrap(),
                )),
                model: Some(ModelKind::Dynamic),
                hz: 120,
                ..Options::default()
            },
            Keyboard::press_only(0.5, 0.033),
        )
        .without_aid();
        p.keys.hold(W, 0.0, throttle);
        p.keys.hold(D, throttle + 0.2, throttle + 0.3);
        p.run_to(throttle + 0.2);
        let speed = slide(&p).0;
        p.run_to(throttle + 1.0);
        let c = p.controls();
        let at = |t: f64| c[(t * 120.0).round() as usize].steer;
        let first = at(throttle + 0.21);
        assert!(first > 0.0, "the tap steers");
        (speed, at(throttle + 0.5) / first)
    };
    let (slow, light) = share(1.0);
    let (fast, firm) = share(4.0);
    assert!(slow < 40.0 && fast > 60.0, "{slow:.0} and {fast:.0} km/h");
    assert!(light < 0.35, "{light:.2} of a held key at {slow:.0} km/h");
    assert!(firm > 0.7, "{firm:.2} of a held key at {fast:.0} km/h");
}
