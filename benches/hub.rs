//! The server's own cost, without SSH: a hub in this process with N
//! players at 80x24, each alone in a room on `oval` (or in rooms of 8),
//! racing with the throttle held by autorepeat, and optionally watchers
//! at 500x200 in the first room, or players in the lobby while one of
//! them makes a room and leaves it every turn (each lobby screen drawn
//! again, as while hundreds join). One turn is what the hub does for 1/30 s:
//! four physics ticks at 120 Hz and a frame for every player whose turn
//! it is. A turn under 33 ms keeps everyone at 30 frames a second.
//!
//! `cargo bench --bench hub` prints, for each load, the turn's median and
//! 99th percentile on one thread and on every core (rayon's threads), and
//! the CPU time a player costs (the one-thread median over the players).
//! `SKID_HUB_PLAYERS=N` runs only the loads of N players, and
//! `SKID_HUB_TURNS` (600) sets the turns measured: twenty seconds of
//! racing, most of them past the first few after the start, when every
//! driver, all alike, moves their camera in the same turns. Where
//! `benches/serve.rs` also pays for SSH and its clients on the same
//! cores, this measures the hub alone.
#![cfg(feature = "serve")]

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};
use skid::race::TrackChoice;
use skid::serve::hub::{Hub, Offered, Out, Settings, ToHub};
use skid::serve::keeper::Keeper;
use skid::track::bundled;
use tokio::sync::mpsc::{Receiver, channel};

/// Frame turns measured, after those of the countdown
/// (`SKID_HUB_TURNS`; 150 until 2026-11-27: five seconds, mostly the
/// start's camera jumps).
fn turns() -> usize {
    (std::env::var("SKID_HUB_TURNS").ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(600)
}

struct Load {
    players: usize,
    room: usize,
    watchers: usize,
    /// Players in the lobby, after the others.
    lobby: usize,
}

fn key(hub: &mut Hub, id: u64, code: KeyCode, at: Instant) {
    let events = vec![Event::Key(KeyEvent::from(code))];
    hub.apply(
        ToHub::Input {
            id,
            events,
            bytes: Vec::new(),
            at,
        },
        at,
    );
}

/// A hub with `load`'s players in their rooms, every race started.
fn hub_with(load: &Load, start: Instant) -> (Hub, Vec<Receiver<Out>>) {
    let tracks = vec![Offered::new(TrackChoice {
        name: "oval".into(),
        track: bundled::load_raceable("oval").unwrap(),
    })];
    let settings = Settings {
        hz: 120,
        fps: 30,
        idle: Duration::from_hours(1),
        keys_at_once: true,
    };
    let dir = std::env::temp_dir().join(format!("skid-hub-bench-{}", std::process::id()));
    let mut hub = Hub::new(tracks, settings, Keeper::open(&dir).unwrap(), start);
    let mut outs = Vec::new();
    let everyone = load.players + load.watchers + load.lobby;
    for i in 0..everyone {
        let (out, rx) = channel(1);
        outs.push(rx);
        let watcher = (load.players..load.players + load.watchers).contains(&i);
        let size = if watcher { (500, 200) } else { (80, 24) };
        let join = ToHub::Join {
            id: i as u64 + 1,
            name: format!("p{i}"),
            identity: None,
            size,
            color: true,
            room: None,
            out,
        };
        hub.apply(join, start);
    }
    for (g, room) in (1..=load.players as u64)
        .collect::<Vec<_>>()
        .chunks(load.room)
        .enumerate()
    {
        key(&mut hub, room[0], KeyCode::Enter, start);
        for &m in &room[1..] {
            for _ in 0..=g {
                key(&mut hub, m, KeyCode::Down, start);
            }
            key(&mut hub, m, KeyCode::Enter, start);
        }
    }
    for room in (1..=load.players as u64)
        .collect::<Vec<_>>()
        .chunks(load.room)
    {
        key(&mut hub, room[0], KeyCode::Enter, start);
    }
    for w in load.players..load.players + load.watchers {
        key(&mut hub, w as u64 + 1, KeyCode::Down, start);
        key(&mut hub, w as u64 + 1, KeyCode::Enter, start);
    }
    (hub, outs)
}

/// The turns' times in ms, median and 99th percentile, and the median
/// of their physics ticks alone.
fn run(load: &Load) -> (f64, f64, f64) {
    let start = Instant::now();
    let (mut hub, mut outs) = hub_with(load, start);
    let at = |tick: u64| start + Duration::from_micros(tick * 1_000_000 / 120);
    let mut times = Vec::new();
    let mut ticks = Vec::new();
    let countdown = 4 * 30;
    for turn in 0..(countdown + turns()) as u64 {
        let t0 = Instant::now();
        for i in 1..=4 {
            hub.tick(at(turn * 4 + i));
        }
        let ticked = t0.elapsed().as_secs_f64() * 1000.0;
        // Every racer's W repeats, as a terminal without releases sends.
        for id in 1..=load.players as u64 {
            key(&mut hub, id, KeyCode::Char('w'), at(turn * 4 + 4));
        }
        // A player in the lobby makes a room and leaves it.
        if load.lobby > 0 {
            let id = (load.players + load.watchers) as u64 + 1 + turn % load.lobby as u64;
            key(&mut hub, id, KeyCode::Enter, at(turn * 4 + 4));
            key(&mut hub, id, KeyCode::Esc, at(turn * 4 + 4));
        }
        hub.frames(at(turn * 4 + 4));
        if turn >= countdown as u64 {
            times.push(t0.elapsed().as_secs_f64() * 1000.0);
            ticks.push(ticked);
        }
        for rx in &mut outs {
            while rx.try_recv().is_ok() {}
        }
    }
    times.sort_by(f64::total_cmp);
    ticks.sort_by(f64::total_cmp);
    let at = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    (at(&times, 0.5), at(&times, 0.99), at(&ticks, 0.5))
}

fn main() {
    // (players, players a room, watchers at 500x200, players in the lobby)
    let loads = [
        (64, 1, 0, 0),
        (256, 1, 0, 0),
        (512, 1, 0, 0),
        (512, 1, 0, 256),
        (1000, 8, 0, 0),
        (16, 8, 16, 0),
    ]
    .map(|(players, room, watchers, lobby)| Load {
        players,
        room,
        watchers,
        lobby,
    });
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "| players | rooms | watchers 500x200 | in the lobby | turn, 1 thread (p50, p99; ticks) | turn, {cores} threads (p50, p99) | CPU a player |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    // SKID_HUB_PLAYERS=N measures only the loads of N players (to profile).
    let only: Option<usize> = std::env::var("SKID_HUB_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok());
    for load in loads.iter().filter(|l| only.is_none_or(|n| n == l.players)) {
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        };
        let one = pool(1).install(|| run(load));
        let all = pool(cores).install(|| run(load));
        println!(
            "| {} | {} | {} | {} | {:.1} ms, {:.1} ms; {:.1} ms | {:.1} ms, {:.1} ms | {:.3}% of a core |",
            load.players,
            load.players.div_ceil(load.room),
            load.watchers,
            load.lobby,
            one.0,
            one.1,
            one.2,
            all.0,
            all.1,
            100.0 * one.0 / 33.3 / load.players as f64,
        );
    }
}
