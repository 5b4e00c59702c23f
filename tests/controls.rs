//! The controls in both kinds of terminal, as a player meets them: timed
//! key downs and ups, turned into what the terminal sends (presses and
//! autorepeats of the newest key only; releases only with the kitty
//! protocol), fed through the game's real input path, and the controls the
//! game read asserted tick by tick. The first four cases are the ones
//! measured in tmux and over SSH before the controls were redesigned.

mod common;

use common::keyboard::{Keyboard, Player};
use ratatui::crossterm::event::KeyCode;
use skid::app::Options;
use skid::input::Action;
use skid::physics::{Controls, ModelKind};
use skid::track::course;

const W: KeyCode = KeyCode::Char('w');
const A: KeyCode = KeyCode::Char('a');
const S: KeyCode = KeyCode::Char('s');
const D: KeyCode = KeyCode::Char('d');
const SPACE: KeyCode = KeyCode::Char(' ');

/// tmux's autorepeat as the guide sends it: 500 ms, then every 33 ms.
fn tmux() -> Keyboard {
    Keyboard::press_only(0.5, 0.033)
}

/// A race on a ring of asphalt: a top straight 26 m wide and 260 m long
/// ahead of the start, the steering aid off (`t`): these are the keys'
/// own reading, which the aid adds to (tests/aid.rs).
fn race(model: ModelKind, keys: Keyboard) -> Player {
    let track = common::ring(200, 42);
    Player::racing(
        Options {
            track: Some(("ring".into(), course::raceable(track, "ring").unwrap())),
            model: Some(model),
            hz: 120,
            ..Options::default()
        },
        keys,
    )
    .without_aid()
}

/// Asserts `what` of every tick in `from..to` seconds.
fn each(p: &Player, from: f64, to: f64, what: &str, ok: impl Fn(&Controls) -> bool) {
    let c = p.controls();
    let ticks = p.ticks(from, to);
    assert!(ticks.end <= c.len(), "ran to {to}");
    for i in ticks {
        assert!(
            ok(&c[i]),
            "{what} at tick {i} ({:.3} s): {:?}",
            p.time(i as u64),
            c[i]
        );
    }
}

/// How many ticks in `from..to` seconds match.
fn count(p: &Player, from: f64, to: f64, ok: impl Fn(&Controls) -> bool) -> usize {
    let c = p.controls();
    p.ticks(from, to).filter(|&i| ok(&c[i])).count()
}

fn speed(p: &Player) -> f64 {
    p.app.race.as_ref().unwrap().world.cars[0]
        .car
        .telemetry()
        .speed
}

/// Whether the panel marks the throttle as kept by steering.
fn kept(p: &Player) -> bool {
    (p.app.race.as_ref().unwrap().seats[&skid::race::world::FIRST].kept).has(Action::Throttle)
}

#[test]
fn lifting_off_w_and_pressing_s_brakes_at_once() {
    // W held 3 s, let go, S pressed 50 ms later and held 1 s.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.hold(W, 0.0, 3.0);
    p.keys.hold(S, 3.05, 4.05);
    p.run_to(3.05);
    let fast = speed(&p);
    p.run_to(4.05);
    each(&p, 0.0, 3.0, "throttle while W repeats", |c| {
        c.throttle == 1.0
    });
    each(&p, 3.05, 4.05, "brake alone", |c| {
        c.brake == 1.0 && c.throttle == 0.0
    });
    assert!(fast > 10.0, "it got going: {fast} m/s");
    assert!(speed(&p) < fast - 7.0, "{fast} -> {} m/s", speed(&p));
}

#[test]
fn the_throttle_is_kept_through_steering_until_the_brake() {
    // W held, A tapped while it is, W let go, nothing for 3 s, then A held
    // 1.5 s, then S. The game cannot know when W came up (the terminal
    // sends the same bytes either way): the throttle is kept (the panel
    // marks it) until the brake.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.down(W, 0.0);
    p.keys.hold(A, 1.0, 1.2);
    p.keys.up(W, 1.3);
    p.keys.hold(A, 4.2, 5.7);
    p.keys.hold(S, 6.0, 6.2);
    p.run_to(1.1);
    assert!(kept(&p), "marked as kept from the steering key on");
    p.run_to(7.0);
    each(&p, 0.0, 6.0, "throttle through steering and after", |c| {
        c.throttle == 1.0
    });
    // The tap steers for the repeat delay and a margin, until 1.525 s:
    // fully for 0.15 s, then easing off towards half.
    each(&p, 1.0, 1.15, "full steering at first", |c| c.steer == -1.0);
    each(&p, 1.15, 1.52, "easing while the tap may be a hold", |c| {
        (-1.0..=-0.5).contains(&c.steer)
    });
    each(
        &p,
        1.54,
        4.2,
        "no steering between the tap and the hold",
        |c| c.steer == 0.0,
    );
    each(&p, 4.7, 5.7, "full steering while A repeats", |c| {
        c.steer == -1.0
    });
    each(&p, 6.0, 6.5, "the brake", |c| {
        c.brake == 1.0 && c.throttle == 0.0
    });
    each(&p, 6.6, 7.0, "then nothing", |c| c == &Controls::default());
    assert!(!kept(&p));
}

#[test]
fn a_tap_of_w_lets_a_kept_throttle_go() {
    let mut p = race(ModelKind::Kinematic, tmux());
    p.keys.down(W, 0.0);
    p.keys.hold(D, 1.0, 3.0);
    p.keys.up(W, 3.0);
    p.keys.hold(W, 3.5, 3.6);
    p.run_to(5.0);
    each(&p, 0.0, 4.0, "throttle through the turn and the tap", |c| {
        c.throttle == 1.0
    });
    each(&p, 1.0, 3.0, "right", |c| c.steer > 0.0);
    each(&p, 4.1, 5.0, "coasting after the tap", |c| {
        c.throttle == 0.0
    });
}

#[test]
fn held_steering_then_a_pedal_steers_on_while_the_pedal_is_held() {
    // D held 1 s, then W pressed and held 1 s: D, shown to be held by its
    // repeats, steers on while W repeats (the terminal cannot say whether
    // D is still down); W let go, its repeats end, and D steers one
    // repeat delay more (time to press it again, were it still held),
    // then ends. D pressed again steers.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.down(D, 0.0);
    p.keys.down(W, 1.0);
    p.keys.up(D, 1.1);
    p.keys.up(W, 2.0);
    p.keys.hold(D, 3.0, 3.6);
    p.run_to(1.9);
    let kept = p.app.race.as_ref().unwrap().seats[&skid::race::world::FIRST].kept;
    assert!(kept.has(Action::Right), "the panel marks it kept: >*");
    p.run_to(4.6);
    each(&p, 0.5, 1.0, "full steering while D repeats", |c| {
        c.steer == 1.0
    });
    each(&p, 1.0, 1.95, "steering on with the throttle", |c| {
        c.steer == 1.0 && c.throttle == 1.0
    });
    each(&p, 2.2, 2.55, "W let go: steering one delay more", |c| {
        c.steer == 1.0 && c.throttle == 0.0
    });
    each(&p, 2.7, 3.0, "then straight, coasting", |c| {
        c.steer == 0.0 && c.throttle == 0.0
    });
    each(&p, 3.0, 3.6, "D again: steering", |c| c.steer > 0.0);
    each(&p, 4.2, 4.6, "straight after D", |c| c.steer == 0.0);
}

#[test]
fn a_tap_then_a_pedal_steers_one_delay_at_most() {
    // A tap of D, then W held: the tap is not shown to be held, so it
    // steers for its repeat delay at most, the throttle on.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.hold(W, 0.0, 1.5);
    p.keys.hold(D, 2.0, 2.1);
    p.keys.hold(W, 2.2, 4.0);
    p.run_to(4.0);
    each(&p, 2.0, 2.5, "the tap steers", |c| c.steer > 0.0);
    each(&p, 2.6, 4.0, "then straight, the throttle on", |c| {
        c.steer == 0.0 && c.throttle == 1.0
    });
}

#[test]
fn a_tap_steers_for_the_terminals_repeat_delay() {
    // The player's terminal is learned from the first key they hold.
    // A tap shorter than the delay sends one press: it steers for the
    // delay and a 25 ms margin. One longer than the delay repeats, and
    // steers until two repeat periods and the margin after its last repeat.
    for (delay, tap, most) in [(0.5, 0.3, 0.55), (0.25, 0.2, 0.3), (0.25, 0.4, 0.5)] {
        let mut p = race(ModelKind::Arcade, Keyboard::press_only(delay, 0.033));
        p.keys.hold(W, 0.0, 1.5);
        p.keys.hold(S, 1.6, 1.7);
        p.keys.hold(A, 3.0, 3.0 + tap);
        p.run_to(5.0);
        let r = p.app.held().repeat().expect("learned from holding W");
        assert!((r.delay - delay).abs() < 0.01 && (r.period - 0.033).abs() < 0.002);
        let steered = count(&p, 3.0, 5.0, |c| c.steer != 0.0) as f64 / 120.0;
        assert!(
            steered > delay.max(tap) && steered <= most,
            "a {tap} s tap with a {delay} s repeat delay steered {steered} s"
        );
    }
    // Before anything is learned: 600 ms.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.hold(A, 0.0, 0.3);
    p.run_to(2.0);
    let steered = count(&p, 0.0, 2.0, |c| c.steer != 0.0) as f64 / 120.0;
    assert!((0.55..=0.61).contains(&steered), "{steered}");
}

#[test]
fn a_tap_steers_lightly_and_a_hold_fully() {
    // Without releases a tap and the start of a hold look the same until
    // the first repeat: in `arcade`, full steering for 0.15 s, easing
    // linearly to 0.6 at the end of the repeat delay (learned from W:
    // 500 ms, and a 25 ms margin). The tap then ends; the hold's repeats
    // steer fully. A tap is worth 0.45 s of full steering (0.15 + 0.375 x
    // 0.8), not the 0.525 s it lasts, and it ends at 0.6.
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.hold(W, 0.0, 1.5);
    p.keys.hold(S, 1.6, 1.7);
    p.keys.hold(A, 3.0, 3.1);
    p.keys.hold(D, 5.0, 6.0);
    p.run_to(6.5);
    let c = p.controls();
    let at = |t: f64| c[(t * 120.0).round() as usize].steer;
    assert_eq!(at(3.1), -1.0);
    for (t, want) in [(3.2, -0.947), (3.35, -0.787), (3.5, -0.627)] {
        assert!((at(t) - want).abs() < 0.01, "{} at {t} s", at(t));
    }
    each(&p, 3.53, 5.0, "the tap has ended", |c| c.steer == 0.0);
    let worth = -p.ticks(3.0, 4.0).map(|i| c[i].steer).sum::<f64>() / 120.0;
    assert!((0.44..0.46).contains(&worth), "{worth} s of full steering");
    assert!(
        at(5.45) < 0.7 && at(5.45) > 0.6,
        "eased before the first repeat"
    );
    each(&p, 5.5, 6.0, "full while D repeats", |c| c.steer == 1.0);
    // With releases, a tap steers fully for exactly as long as it is down.
    let mut p = race(ModelKind::Arcade, Keyboard::kitty(0.5, 0.033));
    p.keys.hold(W, 0.0, 0.3);
    p.keys.hold(A, 1.0, 1.1);
    p.run_to(2.0);
    each(&p, 1.0, 1.1, "the tap, fully", |c| c.steer == -1.0);
    each(&p, 1.1, 2.0, "nothing after", |c| c.steer == 0.0);
}

#[test]
fn an_opposite_key_wins_at_once() {
    let mut p = race(ModelKind::Kinematic, tmux());
    p.keys.down(W, 0.0);
    p.keys.down(D, 1.0);
    p.keys.down(A, 2.0);
    p.keys.up(D, 2.1);
    p.keys.up(A, 3.0);
    p.keys.down(S, 3.5);
    p.keys.up(W, 3.6);
    p.keys.up(S, 4.0);
    p.run_to(4.0);
    each(&p, 1.0, 2.0, "right", |c| {
        c.steer > 0.0 && c.throttle == 1.0
    });
    each(&p, 2.0, 3.0, "left from A's press on", |c| {
        c.steer < 0.0 && c.throttle == 1.0
    });
    each(&p, 3.5, 4.0, "the brake, and no throttle", |c| {
        c.brake == 1.0 && c.throttle == 0.0
    });
}

#[test]
fn letting_go_of_the_last_key_pressed_lets_go_of_its_control() {
    let mut p = race(ModelKind::Dynamic, tmux());
    p.keys.hold(W, 0.0, 2.0);
    p.keys.hold(A, 3.0, 4.0);
    p.run_to(5.0);
    // W repeats every 33 ms; it is let go within two periods and a margin.
    assert!(count(&p, 2.0, 2.2, |c| c.throttle > 0.0) <= 12);
    each(&p, 2.2, 5.0, "no throttle once W stopped repeating", |c| {
        c.throttle == 0.0
    });
    assert!(count(&p, 4.0, 5.0, |c| c.steer != 0.0) <= 12);
}

#[test]
fn reversing_keeps_the_brake_through_steering() {
    let mut p = race(ModelKind::Dynamic, tmux());
    p.keys.down(S, 0.0);
    p.keys.down(D, 2.0);
    p.keys.up(S, 2.05);
    p.keys.up(D, 3.0);
    p.run_to(3.0);
    let race = p.app.race.as_ref().unwrap();
    assert_eq!(race.world.cars[0].car.state.drive.gear, -1, "in reverse");
    each(&p, 2.0, 3.0, "reversing while steering", |c| {
        c.brake == 1.0 && c.steer > 0.0
    });
    p.keys.hold(W, 3.5, 3.6);
    p.run_to(4.0);
    each(&p, 3.5, 4.0, "W ends it", |c| c.brake == 0.0);
}

#[test]
fn strafe_hopping_survives_turning() {
    let mut p = race(ModelKind::Strafe, tmux());
    p.keys.down(W, 0.0);
    p.keys.down(SPACE, 0.5);
    p.keys.down(KeyCode::Right, 1.5);
    p.keys.up(SPACE, 2.0);
    p.keys.up(KeyCode::Right, 2.5);
    p.keys.down(KeyCode::Left, 2.6);
    p.keys.up(KeyCode::Left, 3.5);
    p.run_to(4.0);
    // Space let go at 2.0 sends nothing: the hop stays latched.
    each(&p, 0.5, 4.0, "hopping", |c| c.jump && c.autostrafe);
    each(&p, 1.5, 2.5, "turning right", |c| {
        c.steer >= 0.5 && c.strafe == 0.0
    });
    each(&p, 2.0, 2.5, "fully once Right repeats", |c| c.steer == 1.0);
    each(&p, 2.6, 3.5, "turning left", |c| c.steer <= -0.5);
    // A and D strafe, apart from the turn keys.
    p.keys.hold(D, 4.1, 4.4);
    p.run_to(4.4);
    each(&p, 4.1, 4.4, "strafing right", |c| {
        c.strafe >= 0.5 && c.steer == 0.0
    });
    // Space pressed and let go again, as the last key, stops the hopping.
    p.keys.hold(SPACE, 5.0, 5.1);
    p.run_to(7.0);
    each(&p, 6.0, 7.0, "no hop after Space was let go", |c| !c.jump);
}

#[test]
fn kitty_terminals_keep_exact_holds() {
    let mut p = race(ModelKind::Tire, Keyboard::kitty(0.5, 0.033));
    p.keys.hold(W, 0.0, 2.0);
    p.keys.hold(D, 0.5, 1.0);
    p.keys.hold(A, 1.5, 1.75);
    p.keys.hold(S, 1.8, 2.5);
    p.run_to(3.0);
    let c = p.controls();
    for (i, c) in c.iter().enumerate() {
        let t = p.time(i as u64);
        let within = |a: f64, b: f64| (a..b).contains(&t);
        assert_eq!(c.throttle > 0.0, within(0.0, 2.0), "throttle at {t}");
        assert_eq!(c.brake > 0.0, within(1.8, 2.5), "brake at {t}");
        assert_eq!(c.steer > 0.0, within(0.5, 1.0), "right at {t}");
        assert_eq!(c.steer < 0.0, within(1.5, 1.75), "left at {t}");
    }
    assert!(p.app.held().explicit());
    assert!(!kept(&p));
}

#[test]
fn focus_lost_and_pause_let_go_of_everything() {
    let mut p = race(ModelKind::Arcade, tmux());
    p.keys.down(W, 0.0);
    p.keys.down(A, 0.5);
    p.run_to(1.0);
    assert!(kept(&p));
    skid::app::game::handle(&mut p.app, ratatui::crossterm::event::Event::FocusLost, 1.0);
    p.run_to(1.5);
    assert!(!kept(&p));
    let c = p.controls();
    assert_eq!(c.last().unwrap().throttle, 0.0);
}
