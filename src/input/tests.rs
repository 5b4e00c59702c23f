use super::*;

const T: Action = Action::Throttle;
const B: Action = Action::Brake;
const L: Action = Action::Left;
const R: Action = Action::Right;

/// A terminal's autorepeat of one action: a press at `from`, then
/// repeats every `rate` seconds after a `delay`, until `until`.
fn hold(h: &mut Held, a: Action, from: f64, delay: f64, rate: f64, until: f64) {
    h.press(a, from);
    let mut t = from + delay;
    while t <= until {
        h.press(a, t);
        t += rate;
    }
}

/// A tracker that has seen a key held on a terminal repeating after
/// `delay`, every `period`, from time 0 (eleven repeats).
fn learned(delay: f64, period: f64) -> Held {
    let mut h = Held::new();
    h.observe(3, 0.0);
    for i in 0..11 {
        h.observe(3, delay + f64::from(i) * period);
    }
    h
}

#[test]
fn a_single_tap_is_held_across_the_assumed_repeat_delay_then_lets_go() {
    let mut h = Held::new();
    h.press(L, 10.0);
    assert!(h.is_held(L, 10.0));
    assert!(h.is_held(L, 10.59), "bridges a 600 ms repeat delay");
    assert!(!h.is_held(L, 10.61));
}

#[test]
fn a_held_key_stays_held_through_its_repeats_and_drops_soon_after() {
    let mut h = Held::new();
    hold(&mut h, R, 0.0, 0.5, 1.0 / 30.0, 3.0);
    for t in [0.2, 0.45, 0.6, 1.5, 2.99] {
        assert!(h.is_held(R, t), "at {t}");
    }
    let last = 0.5 + ((3.0 - 0.5) * 30.0f64).floor() / 30.0;
    assert!(h.is_held(R, last + 0.14));
    assert!(!h.is_held(R, last + 0.16), "let go 150 ms after the last");
}

#[test]
fn the_repeat_is_learned_from_the_first_held_key() {
    let mut l = Learner::default();
    let mut got = None;
    for (i, t) in [
        0.0, 0.25, 0.27, 0.29, 0.31, 0.33, 0.35, 0.37, 0.39, 0.41, 0.43,
    ]
    .into_iter()
    .enumerate()
    {
        let m = l.event(7, t);
        match i.cmp(&9) {
            std::cmp::Ordering::Less => {
                assert_eq!(m, None, "not before {} repeats", Learner::RUN);
            }
            std::cmp::Ordering::Equal => got = m,
            std::cmp::Ordering::Greater => assert_eq!(m, None, "once per run"),
        }
    }
    let r = got.expect("learned");
    assert!((r.delay - 0.25).abs() < 1e-9 && (r.period - 0.02).abs() < 1e-9);
    assert!(r.jitter < 1e-9);
    // Windows: the delay and two periods, each plus 25 ms.
    assert!((r.first_window() - 0.275).abs() < 1e-9);
    assert!((r.after_window() - 0.065).abs() < 1e-9);
}

#[test]
fn typing_and_double_taps_teach_nothing() {
    let mut l = Learner::default();
    // A key tapped at 8 Hz: no pause before a fast run.
    for i in 0..20 {
        assert_eq!(l.event(1, f64::from(i) * 0.125), None);
    }
    // Keys in turn: each a new stream.
    for i in 0..20 {
        assert_eq!(l.event(i % 2, f64::from(i) * 0.03), None);
    }
}

#[test]
fn with_a_learned_repeat_a_tap_steers_for_one_delay() {
    let h = &mut learned(0.2, 0.025);
    let r = h.repeat().expect("learned");
    assert!((r.delay - 0.2).abs() < 1e-9);
    h.press(L, 5.0);
    assert!(h.is_held(L, 5.2));
    assert!(!h.is_held(L, 5.23), "a 200 ms delay: held 225 ms");
}

#[test]
fn a_key_pressed_again_before_its_first_repeat_could_come_is_no_repeat() {
    // A terminal repeating after 500 ms, every 33 ms: learned.
    let h = &mut learned(0.5, 1.0 / 30.0);
    assert!(h.repeat().is_some());
    // D tapped, let go, pressed again 0.3 s later and held: its first
    // repeat comes 0.5 s after the second press.
    h.press(R, 5.0);
    h.press(R, 5.3);
    for t in [5.35, 5.5, 5.7, 5.8] {
        assert!(h.is_held(R, t), "held at {t}, waiting for its repeat");
        assert!(h.share(R, t) == 1.0, "pressed again: full at {t}");
    }
    for i in 0..20 {
        h.press(R, 5.8 + f64::from(i) / 30.0);
    }
    assert!(h.is_held(R, 6.5) && h.share(R, 6.5) == 1.0);
}

#[test]
fn an_opposite_wins_at_once() {
    let mut h = Held::new();
    hold(&mut h, T, 0.0, 0.5, 0.03, 2.0);
    h.press(B, 2.01);
    assert!(h.is_held(B, 2.01) && !h.is_held(T, 2.01));
    hold(&mut h, R, 3.0, 0.5, 0.03, 4.0);
    h.press(L, 4.0);
    assert!(h.is_held(L, 4.0) && !h.is_held(R, 4.0));
}

#[test]
fn the_throttle_is_kept_through_any_keys_until_the_brake() {
    let mut h = Held::new();
    hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
    hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
    assert!(h.is_held(T, 1.5) && h.latched(T, 1.5));
    assert!(h.is_held(T, 2.5) && h.latched(T, 9.0), "steering ended");
    hold(&mut h, R, 5.0, 0.5, 0.03, 6.0);
    h.press(Action::Space, 6.5);
    assert!(h.is_held(T, 7.0), "through steering, either way, and Space");
    h.press(B, 8.0);
    assert!(!h.is_held(T, 8.0) && h.is_held(B, 8.0), "the brake ends it");
    assert!(!h.is_held(T, 30.0), "and it does not come back");
}

#[test]
fn w_pressed_again_and_let_go_ends_a_kept_throttle() {
    let mut h = Held::new();
    hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
    hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
    h.press(T, 3.0);
    assert!(h.is_held(T, 3.2) && !h.latched(T, 3.2), "its own key now");
    assert!(!h.is_held(T, 3.7), "a tap: let go after one repeat delay");
}

#[test]
fn the_brake_ends_a_kept_throttle_at_once() {
    let mut h = Held::new();
    hold(&mut h, T, 0.0, 0.5, 0.03, 1.0);
    hold(&mut h, L, 1.0, 0.5, 0.03, 2.0);
    h.press(B, 1.8);
    assert!(!h.is_held(T, 1.8) && h.is_held(B, 1.8));
    assert!(h.is_held(L, 2.0), "steering pressed before it goes on");
}

#[test]
fn held_steering_survives_a_pedal_while_the_pedal_is_held() {
    let mut h = Held::new();
    hold(&mut h, R, 0.0, 0.5, 0.03, 1.0);
    h.press(T, 1.0);
    assert!(h.is_held(T, 1.0));
    assert!(h.is_held(R, 1.0) && h.share(R, 1.3) == 1.0, "full, as held");
    assert!(h.latched(R, 1.3));
    // W held (its repeats go on): the steering stays with it.
    hold(&mut h, T, 1.0, 0.5, 0.03, 4.0);
    assert!(h.is_held(R, 3.9) && h.share(R, 3.9) == 1.0);
    // W let go at 4.0: nothing repeats. Steering goes on for one delay
    // (0.6 s assumed) more, time to press its key again, then ends.
    assert!(h.is_held(R, 4.5) && h.share(R, 4.5) == 1.0);
    assert!(!h.is_held(R, 4.8));
    // Pressed again, it steers; W's repeats ended by themselves: let go.
    h.press(R, 4.9);
    assert!(h.is_held(R, 5.1) && !h.is_held(T, 5.1));
}

#[test]
fn held_steering_carries_from_a_let_go_brake_to_the_throttle() {
    // D held into a corner, S pressed to brake, let go, then W: the person
    // held D throughout, and the corner goes on without a gap.
    let mut h = Held::new();
    hold(&mut h, R, 0.0, 0.5, 0.03, 1.0);
    hold(&mut h, B, 1.0, 0.5, 0.03, 2.0);
    assert!(h.is_held(R, 2.0) && h.share(R, 2.0) == 1.0);
    // S's repeats ended at 2.0; W pressed 0.3 s later.
    h.press(T, 2.3);
    assert!(h.is_held(R, 2.3) && h.share(R, 2.3) == 1.0, "not lost");
    hold(&mut h, T, 2.3, 0.5, 0.03, 3.5);
    assert!(h.is_held(R, 3.5) && h.is_held(T, 3.5) && !h.is_held(B, 3.5));
}

#[test]
fn a_tap_interrupted_by_a_pedal_steers_one_delay_at_most() {
    let mut h = Held::new();
    h.press(R, 0.0);
    hold(&mut h, T, 0.1, 0.5, 0.03, 3.0);
    assert!(h.is_held(R, 0.55) && h.share(R, 0.55) < 1.0);
    assert!(!h.is_held(R, 0.65), "a tap is not shown to be held");
}

#[test]
fn a_steering_key_pressed_again_soon_steers_fully_at_once() {
    let mut h = Held::new();
    h.press(R, 0.0);
    assert!(h.share(R, 0.3) < 1.0, "a fresh press may be a tap");
    h.press(T, 0.1);
    assert!(!h.is_held(R, 0.7), "its steering ended with its delay");
    h.press(R, 0.8);
    assert!(h.share(R, 1.1) == 1.0, "pressed again: held");
    // With the opposite key between, a press is a fresh one again.
    h.press(L, 1.2);
    h.press(R, 1.4);
    assert!(h.share(R, 1.7) < 1.0);
    // So it is long after.
    h.press(R, 5.0);
    assert!(h.share(R, 5.3) < 1.0);
}

#[test]
fn taps_ease_off_firmly_or_lightly() {
    assert_eq!(Tap::FIRM.share(0.1, 0.55), 1.0);
    assert!((Tap::FIRM.share(0.55, 0.55) - 0.5).abs() < 1e-9);
    assert_eq!(Tap::LIGHT.share(0.04, 0.55), 1.0);
    assert!((Tap::LIGHT.share(0.2, 0.55) - 0.3).abs() < 1e-9);
    assert!((Tap::LIGHT.share(0.5, 0.55) - 0.3).abs() < 1e-9);
    let mut h = Held::new();
    h.set_tap(Tap::LIGHT);
    h.press(L, 0.0);
    assert!((h.share(L, 0.3) - 0.3).abs() < 1e-9);
}

#[test]
fn an_opposite_steering_key_ends_steering_at_once() {
    let mut h = Held::new();
    hold(&mut h, R, 0.0, 0.5, 0.03, 1.0);
    h.press(T, 1.0);
    h.press(L, 1.1);
    assert!(!h.is_held(R, 1.1) && h.is_held(L, 1.1) && h.is_held(T, 1.1));
}

#[test]
fn a_tap_of_w_then_steering_keeps_the_throttle_while_steering() {
    let mut h = Held::new();
    h.press(T, 0.0);
    hold(&mut h, L, 0.1, 0.5, 0.03, 1.0);
    assert!(h.is_held(T, 0.9) && h.latched(T, 0.9));
}

#[test]
fn a_brake_kept_briefly_lasts_one_delay_through_turning_in() {
    let mut h = Held::new();
    h.set_latching(B, Latch::Briefly);
    hold(&mut h, B, 0.0, 0.5, 0.03, 1.0);
    h.press(L, 1.0);
    assert!(
        h.is_held(B, 1.5) && h.latched(B, 1.5),
        "braking into the corner"
    );
    hold(&mut h, L, 1.0, 0.5, 0.03, 3.0);
    assert!(!h.is_held(B, 1.7), "then it ends, steering or not");
    // Down to a crawl in that time, where the brake is reverse kept while
    // steering: the brake kept into the corner is let go, not reversing.
    hold(&mut h, B, 4.0, 0.5, 0.03, 5.0);
    h.press(L, 5.0);
    assert!(h.is_held(B, 5.2));
    h.set_latching(B, Latch::WhileSteering);
    hold(&mut h, L, 5.0, 0.5, 0.03, 7.0);
    assert!(!h.is_held(B, 5.2) && !h.is_held(B, 6.0));
}

#[test]
fn a_brake_not_kept_ends_at_a_turn_but_the_handbrake_is_kept() {
    let mut h = Held::new();
    h.set_latching(B, Latch::No);
    hold(&mut h, B, 0.0, 0.5, 0.03, 1.0);
    h.press(L, 1.0);
    assert!(!h.is_held(B, 1.0), "turning in ends the brake");
    hold(&mut h, Action::Space, 2.0, 0.5, 0.03, 3.0);
    hold(&mut h, R, 3.0, 0.5, 0.03, 4.0);
    assert!(h.is_held(Action::Space, 3.9), "a handbrake drift");
    assert!(!h.is_held(Action::Space, 4.3));
}

#[test]
fn latching_can_be_given_to_other_controls() {
    let mut h = Held::new();
    h.set_latching(Action::Space, Latch::Always);
    hold(&mut h, Action::Space, 0.0, 0.5, 0.03, 1.0);
    hold(&mut h, R, 1.0, 0.5, 0.03, 2.0);
    assert!(h.is_held(Action::Space, 3.0), "hopping survives turning");
    h.set_latching(Action::Space, Latch::No);
    h.press(Action::Space, 4.0);
    h.press(L, 4.1);
    assert!(!h.is_held(Action::Space, 4.1));
}

#[test]
fn releases_switch_to_trusting_the_terminal() {
    let mut h = Held::new();
    h.press(T, 0.0);
    h.press(L, 0.05);
    h.press(R, 0.1);
    h.release(R);
    assert!(h.explicit());
    assert!(!h.is_held(R, 0.1));
    assert!(h.is_held(T, 30.0), "held until released, however long");
    assert!(!h.latched(T, 99.0), "exact: nothing latches");
    h.release(T);
    assert!(!h.is_held(T, 30.0));
    h.press(T, 31.0);
    h.press(B, 31.0);
    assert!(h.is_held(T, 31.0) && h.is_held(B, 31.0), "both pedals");
}

#[test]
fn focus_lost_releases_everything() {
    let mut h = Held::new();
    hold(&mut h, T, 0.0, 0.5, 0.03, 2.0);
    h.press(R, 2.0);
    h.release_all();
    assert!(!h.is_held(T, 2.0) && !h.is_held(R, 2.0));
}

#[test]
fn a_kept_handbrake_lets_go_when_steering_turns_the_other_way() {
    // D and Space at once, held 0.6 s: a flick. The handbrake is kept
    // while a steering key repeats (a drift), but A, turning the other
    // way, catches the slide: the handbrake lets go at once.
    let mut h = learned(0.5, 0.033);
    h.press(R, 1.0);
    hold(&mut h, Action::Space, 1.0, 0.5, 0.033, 1.6);
    hold(&mut h, L, 1.62, 0.5, 0.033, 3.0);
    assert!(!h.is_held(Action::Space, 1.63), "caught by steering left");
    assert!(h.is_held(L, 2.0));
    // Space first, then A: a drift to the left, kept while A repeats;
    // D then turns the other way.
    let mut h = learned(0.5, 0.033);
    hold(&mut h, Action::Space, 10.0, 0.5, 0.033, 10.3);
    hold(&mut h, L, 10.32, 0.5, 0.033, 11.5);
    assert!(h.is_held(Action::Space, 11.4), "a handbrake drift");
    h.press(R, 11.5);
    assert!(!h.is_held(Action::Space, 11.51), "caught by steering right");
}
