//! Idle means away, and is told first (issue 51): with `--idle-timeout
//! 20`, a player who presses nothing is warned on screen, with a bell,
//! for the last third of it, counting down; any key keeps them; then they
//! are cut off. People waiting in a room are not idle while anyone in it
//! presses keys.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyCode;
use skid::race::TrackChoice;
use skid::serve::hub::{Hub, Offered, Out, Settings};
use skid::serve::keeper::Keeper;
use skid::track::bundled;
use tokio::sync::mpsc::Receiver;

/// A hub offering pocket whose players are cut off after 20 s idle,
/// with `names` in its lobby; their frames' receivers.
fn hub_of(names: &[&str], start: Instant) -> (Hub, Vec<Receiver<Out>>) {
    let dir =
        std::env::temp_dir().join(format!("skid-idle-{}-{}", names.len(), std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tracks = vec![Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let settings = Settings {
        hz: 120,
        fps: 30,
        idle: Duration::from_secs(20),
        keys_at_once: true,
    };
    let mut hub = Hub::new(tracks, settings, Keeper::open(&dir).unwrap(), start);
    let mut outs = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let (out, rx) = tokio::sync::mpsc::channel(1024);
        outs.push(rx);
        hub.apply(hub_sim::guest(i as u64 + 1, name, out), start);
    }
    (hub, outs)
}

use hub_sim::press;

/// What player `rx` got: the screen read back, whether a bell rang, and
/// why they were cut off, if they were.
fn read(rx: &mut Receiver<Out>, screen: &mut vt100::Parser) -> (String, bool, Option<String>) {
    let (mut bell, mut closed) = (false, None);
    while let Ok(out) = rx.try_recv() {
        match out {
            Out::Frame(bytes) => {
                bell |= bytes.contains(&0x07);
                screen.process(&bytes);
            }
            Out::Close(why) => closed = Some(why),
        }
    }
    (screen.screen().contents(), bell, closed)
}

#[test]
fn an_idle_player_is_warned_with_a_bell_and_a_key_keeps_them() {
    let start = Instant::now();
    let (mut hub, mut outs) = hub_of(&["ann"], start);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let at = |s: f64| start + Duration::from_secs_f64(s);
    hub.frames(at(0.0));
    hub.frames(at(13.0));
    let (text, bell, _) = read(&mut outs[0], &mut screen);
    assert!(!text.contains("idle") && !bell, "{text}");
    hub.frames(at(14.5));
    let (text, bell, _) = read(&mut outs[0], &mut screen);
    assert!(text.contains("disconnected in 6 s"), "{text}");
    assert!(bell, "a bell as the warning starts");
    hub.frames(at(16.5));
    let (text, bell, _) = read(&mut outs[0], &mut screen);
    assert!(text.contains("disconnected in 4 s") && !bell, "{text}");
    // Any key keeps her: the warning goes.
    press(&mut hub, 1, KeyCode::Down, at(17.0));
    hub.frames(at(17.0));
    let (text, _, closed) = read(&mut outs[0], &mut screen);
    assert!(!text.contains("idle") && closed.is_none(), "{text}");
    // Twenty seconds after that key, she is cut off, saying why.
    hub.frames(at(36.9));
    assert!(read(&mut outs[0], &mut screen).2.is_none());
    hub.frames(at(37.1));
    let (_, _, closed) = read(&mut outs[0], &mut screen);
    assert_eq!(closed.as_deref(), Some("idle too long: disconnected"));
}

#[test]
fn a_player_waiting_in_a_room_is_kept_while_the_room_changes() {
    let start = Instant::now();
    let (mut hub, mut outs) = hub_of(&["ann", "ben"], start);
    let at = |s: f64| start + Duration::from_secs_f64(s);
    // Ann makes a room; Ben joins it and then touches nothing.
    press(&mut hub, 1, KeyCode::Enter, at(0.0));
    press(&mut hub, 2, KeyCode::Down, at(0.0));
    press(&mut hub, 2, KeyCode::Enter, at(0.0));
    // Ann changes the settings every 10 s, for a minute.
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    for k in 1..=6 {
        let t = f64::from(k) * 10.0;
        let key = if k % 2 == 0 {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        press(&mut hub, 1, KeyCode::Down, at(t));
        press(&mut hub, 1, KeyCode::Up, at(t));
        press(&mut hub, 1, key, at(t));
        hub.frames(at(t + 9.0));
        let (text, _, closed) = read(&mut outs[1], &mut screen);
        assert!(closed.is_none(), "Ben cut off at {t} s");
        assert!(!text.contains("idle"), "{text}");
    }
    // Ann leaves him alone: warned, then cut off.
    hub.frames(at(70.0 + 5.0));
    let (text, _, _) = read(&mut outs[1], &mut screen);
    assert!(text.contains("disconnected in 5 s"), "{text}");
    hub.frames(at(80.1));
    let (_, _, closed) = read(&mut outs[1], &mut screen);
    assert_eq!(closed.as_deref(), Some("idle too long: disconnected"));
}
