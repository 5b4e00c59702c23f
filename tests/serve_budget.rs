//! A screen budget on `skid serve`: a huge terminal gets its frames at a
//! rate its size allows, and cannot slow anyone else's.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use hub_sim::TwoOnHub;

#[test]
fn a_huge_screen_gets_fewer_frames_and_the_racer_every_one() {
    let mut two = TwoOnHub::new();
    two.one_lap(1);
    // Ben opens the largest terminal the server takes; Ann stays 80x24.
    two.resize(2, 500, 200);
    let mut got = [0u32; 2];
    // Three seconds of the race at 30 frames a second (a frame turn
    // every fourth tick at 120 Hz), after the countdown.
    for tick in 1..=(120 * 6) {
        two.hub.tick(two.at(tick));
        if tick.is_multiple_of(4) && tick > 120 * 3 {
            for (n, got_one) in got.iter_mut().zip(two.frames(tick)) {
                *n += u32::from(got_one);
            }
        }
    }
    assert_eq!(got[0], 90, "Ann at 80x24: every frame");
    assert!((9..=11).contains(&got[1]), "Ben at 500x200: {}", got[1]);
    // What Ben sees is the race all the same, whole.
    let text = two.screens[1].screen().contents();
    assert!(text.contains("LAP") && text.contains("P1"), "{text}");
    // Back to a small screen: every frame again.
    two.resize(2, 100, 30);
    let mut small = 0;
    for tick in (120 * 6 + 1)..=(120 * 7) {
        two.hub.tick(two.at(tick));
        if tick.is_multiple_of(4) {
            small += u32::from(two.frames(tick)[1]);
        }
    }
    assert!(small >= 29, "{small}");
}
