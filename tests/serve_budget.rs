//! A screen budget on `skid serve`: a huge terminal gets its frames at a
//! rate its size allows, and cannot slow anyone else's; nor can a storm
//! of window changes.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hub_sim::TwoOnHub;
use skid::serve::hub::ToHub;

/// The system's allocator, counting the bytes asked of it: what a hub's
/// work costs in memory, whatever the machine's speed.
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Held by each test, so that none counts another's allocations.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_huge_screen_gets_fewer_frames_and_the_racer_every_one() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
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

/// A client can send window changes by the thousand between two frames
/// (one sent 1.4 million in 3 s, and until each was made the buffers of
/// its size, two of 100,000 cells for 500x200, nobody got a frame). They
/// are noted, not acted on: the buffers are made once, at the size of
/// the last, when the player's next frame is drawn.
#[test]
fn a_storm_of_window_changes_costs_one_frame_at_the_last_size() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut two = TwoOnHub::new();
    two.one_lap(1);
    let start = two.at(0);
    let before = ALLOCATED.load(Ordering::Relaxed);
    for k in 0..2_000u16 {
        let size = if k % 2 == 0 {
            (500, 200)
        } else {
            (80 + k % 7, 24)
        };
        two.hub.apply(ToHub::Resize { id: 2, size }, start);
    }
    two.hub.apply(
        ToHub::Resize {
            id: 2,
            size: (100, 30),
        },
        start,
    );
    let spent = ALLOCATED.load(Ordering::Relaxed) - before;
    assert!(spent < 1 << 20, "2,001 resizes allocated {spent} bytes");
    // The next frame: Ben's whole screen at the last size, Ann's too.
    two.screens[1]
        .screen_mut()
        .set_size(ssh::nz(30), ssh::nz(100));
    for tick in 1..=(120 * 5) {
        two.hub.tick(two.at(tick));
        if tick.is_multiple_of(4) {
            let got = two.frames(tick);
            assert!(got[0] || tick < 8, "Ann got no frame at tick {tick}");
        }
    }
    let text = two.screens[1].screen().contents();
    assert!(text.contains("LAP") && text.contains("P1"), "{text}");
    let wide = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(wide > 80, "Ben's screen is 100 wide: {wide}\n{text}");
}
