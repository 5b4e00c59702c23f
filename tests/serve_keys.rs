//! A frame as soon as a key lands (issue 51): a player's key is drawn and
//! sent right after the physics step that applied it, not at the next
//! turn of the 30 frames a second clock; no more than 60 frames a second
//! however fast keys come; the others get nothing extra.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::Duration;

use ratatui::crossterm::event::KeyCode;
use skid::race::TrackChoice;
use skid::serve::hub::{Offered, Out};
use skid::track::bundled;
use tokio::sync::mpsc::Receiver;

/// How many frames `rx` got since last asked.
fn frames(rx: &mut Receiver<Out>) -> usize {
    std::iter::from_fn(|| rx.try_recv().ok())
        .filter(|o| matches!(o, Out::Frame(_)))
        .count()
}

#[test]
fn a_key_is_drawn_after_the_next_step_at_most_sixty_times_a_second() {
    let start = std::time::Instant::now();
    let tracks = vec![Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let mut hub = hub_sim::hub(tracks, "keys", start);
    let mut outs = Vec::new();
    for (id, name) in [(1, "ann"), (2, "ben")] {
        let (out, rx) = tokio::sync::mpsc::channel(1024);
        outs.push(rx);
        hub.apply(hub_sim::guest(id, name, out), start);
    }
    let at = |ms: u64| start + Duration::from_millis(ms);
    hub.frames(at(0));
    assert_eq!((frames(&mut outs[0]), frames(&mut outs[1])), (1, 1));
    // Ann moves the cursor 5 ms into a frame turn: her frame goes after
    // the next step, 8 ms later, not at the next turn (33 ms); Ben, who
    // pressed nothing, gets none.
    let key = |hub: &mut skid::serve::hub::Hub, ms: u64| {
        hub_sim::press(hub, 1, KeyCode::Down, at(ms));
    };
    key(&mut hub, 5);
    hub.tick(at(8));
    hub.urgent_frames(at(8));
    assert_eq!((frames(&mut outs[0]), frames(&mut outs[1])), (1, 0));
    // A key repeating every 4 ms for a second: at most 60 frames.
    let mut sent = 0;
    for ms in (100..1100).step_by(4) {
        key(&mut hub, ms);
        hub.tick(at(ms));
        hub.urgent_frames(at(ms));
        sent += frames(&mut outs[0]);
    }
    // A step every 4 ms: one 20 ms after the last frame is the first
    // past 1/60 s, so 50.
    assert!((40..=60).contains(&sent), "{sent} frames in a second");
}
