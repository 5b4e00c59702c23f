//! The track editor on a server (issue 64): the hub's cost of players
//! drawing, without SSH. N players each in the editor on a 200 x 100
//! track, every one pressing a key each turn (a cursor step and a stroke,
//! in turn), and the hub's turn: the keys applied, a physics tick, the
//! editors' answers polled and every screen drawn and diffed. Printed:
//! the turn's median and p90 on every core, against the 33 ms of a turn
//! at 30 frames a second, and a keystroke's cost in one editor.
//!
//! `cargo bench --bench edit_served` (`SKID_EDIT_TURNS`, 300, sets the
//! turns measured).
#![cfg(feature = "serve")]

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use skid::race::TrackChoice;
use skid::serve::hub::{Hub, Offered, Out, Settings, ToHub};
use skid::serve::keeper::Keeper;
use skid::track::bundled;
use tokio::sync::mpsc::{Receiver, channel};

fn turns() -> usize {
    (std::env::var("SKID_EDIT_TURNS").ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn press(hub: &mut Hub, id: u64, events: Vec<Event>, at: Instant) {
    let input = ToHub::Input {
        id,
        events,
        bytes: Vec::new(),
        at,
    };
    hub.apply(input, at);
}

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::from(code))
}

/// A hub with `n` keyed players at `size`, each in the editor on a new
/// track made 200 x 100 (the server's largest), asphalt on a brush of 2
/// chosen.
fn editing(n: u64, size: (u16, u16), start: Instant) -> (Hub, Vec<Receiver<Out>>) {
    let tracks = vec![Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let settings = Settings {
        hz: 120,
        fps: 30,
        idle: Duration::from_hours(1),
        keys_at_once: true,
    };
    let dir = std::env::temp_dir().join(format!("skid-edit-bench-{}", std::process::id()));
    let mut hub = Hub::new(tracks, settings, Keeper::open(&dir).unwrap(), start);
    let mut outs = Vec::new();
    for id in 1..=n {
        let (out, rx) = channel(1);
        outs.push(rx);
        let join = ToHub::Join {
            id,
            name: format!("p{id}"),
            identity: Some(format!("SHA256:p{id}")),
            size,
            color: true,
            room: None,
            out,
        };
        hub.apply(join, start);
        // The lobby's last row builds; x sets the size.
        press(
            &mut hub,
            id,
            vec![key(KeyCode::Up), key(KeyCode::Enter)],
            start,
        );
        let mut typed = vec![key(KeyCode::Char('x'))];
        typed.extend((0..10).map(|_| key(KeyCode::Backspace)));
        typed.extend("200x100".chars().map(|c| key(KeyCode::Char(c))));
        typed.extend([key(KeyCode::Enter), key(KeyCode::Char('p'))]);
        typed.push(key(KeyCode::Char('a')));
        typed.push(Event::Key(KeyEvent::new(
            KeyCode::Char('+'),
            KeyModifiers::NONE,
        )));
        press(&mut hub, id, typed, start);
        let editor = &hub.players[&id]
            .build
            .as_ref()
            .expect("in the editor")
            .editor;
        assert_eq!(editor.draft.size(), (200, 100));
    }
    (hub, outs)
}

/// Turns of `n` players at `size` each pressing a key: the turn's
/// median and p90, milliseconds.
fn run(n: u64, size: (u16, u16)) -> (f64, f64) {
    let start = Instant::now();
    let (mut hub, mut outs) = editing(n, size, start);
    let mut times = Vec::new();
    for turn in 0..turns() as u64 + 10 {
        let at = start + Duration::from_millis(100 + turn * 33);
        let t0 = Instant::now();
        let step = if turn % 2 == 0 {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        for id in 1..=n {
            press(&mut hub, id, vec![key(step), key(KeyCode::Char(' '))], at);
        }
        hub.tick(at);
        hub.frames(at);
        let took = t0.elapsed().as_secs_f64() * 1000.0;
        for rx in &mut outs {
            while rx.try_recv().is_ok() {}
        }
        if turn >= 10 {
            times.push(took);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    (at(0.5), at(0.9))
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("| players in the editor | screen | turn p50 | turn p90 ({cores} threads) |");
    println!("| --- | --- | --- | --- |");
    for (n, size) in [
        (1, (80, 24)),
        (1, (200, 60)),
        (16, (80, 24)),
        (64, (80, 24)),
    ] {
        let (p50, p90) = run(n, size);
        println!(
            "| {n} | {}x{} | {p50:.2} ms | {p90:.2} ms |",
            size.0, size.1
        );
    }
}
