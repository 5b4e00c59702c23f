//! Why a player was taken off the server reaches them even while their
//! last frame is still being sent: their connection's channel holds one
//! frame, and the last word waits for room in it (it was dropped, and a
//! relayed player who left a race came back to their own lobby told
//! "disconnected" instead of nothing).
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};
use skid::race::TrackChoice;
use skid::serve::hub::{Hub, Offered, Out, ToHub};
use skid::track::bundled;
use tokio::sync::mpsc::error::TryRecvError;

/// A hub offering pocket with Ann in its lobby, her frames' channel of
/// one frame as a connection's, a frame in it not yet read.
fn ann_with_a_frame_on_its_way(
    name: &str,
    start: Instant,
) -> (Hub, tokio::sync::mpsc::Receiver<Out>) {
    let tracks = vec![Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let mut hub = hub_sim::hub(tracks, name, start);
    let (out, rx) = tokio::sync::mpsc::channel(1);
    hub.apply(hub_sim::guest(1, "ann", out), start);
    hub.frames(start);
    (hub, rx)
}

#[test]
fn the_last_word_waits_for_the_frame_being_sent() {
    let start = Instant::now();
    let (mut hub, mut rx) = ann_with_a_frame_on_its_way("last-word", start);
    // q in the lobby: goodbye, while her frame is still on its way.
    let q = vec![Event::Key(KeyEvent::from(KeyCode::Char('q')))];
    let input = ToHub::Input {
        id: 1,
        events: q,
        bytes: b"q".to_vec(),
        at: start,
    };
    hub.apply(input, start);
    assert!(matches!(rx.try_recv(), Ok(Out::Frame(_))));
    assert!(matches!(rx.try_recv(), Err(TryRecvError::Empty)));
    // The next frame turn says it.
    hub.frames(start + Duration::from_millis(33));
    assert!(matches!(rx.try_recv(), Ok(Out::Close(why)) if why == "bye"));
    // And then the channel is let go.
    assert!(matches!(rx.try_recv(), Err(TryRecvError::Disconnected)));
}

#[test]
fn shutting_down_waits_a_moment_for_the_last_words() {
    let start = Instant::now();
    let (mut hub, mut rx) = ann_with_a_frame_on_its_way("last-word-down", start);
    // Her connection reads her frame a moment after the hub is told to
    // stop.
    let reader = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        let mut got = Vec::new();
        while let Some(out) = rx.blocking_recv() {
            got.push(out);
        }
        got
    });
    assert!(!hub.apply(ToHub::Shutdown, start));
    drop(hub);
    let got = reader.join().unwrap();
    assert!(matches!(got.first(), Some(Out::Frame(_))), "{got:?}");
    assert!(
        matches!(got.last(), Some(Out::Close(why)) if why == "server shutting down"),
        "{got:?}"
    );
}
