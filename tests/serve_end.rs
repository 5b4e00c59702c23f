//! How a race on `skid serve` ends, as its players see it: once the first
//! car finishes, every screen counts down 30 s; then the race is over,
//! who had not finished did not (DNF), and a player who is done can watch
//! each other person's car in turn, then their results again.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use hub_sim::TwoOnHub;
use ratatui::crossterm::event::KeyCode;

/// Ann makes a room of one lap with one computer car; Ben joins; Ann
/// starts. Nobody touches a key after that.
fn one_lap_with_a_rival() -> TwoOnHub {
    let mut two = TwoOnHub::new();
    two.one_lap(1);
    let run = two.hub.rooms[&1].running.as_ref().expect("racing");
    assert_eq!(run.race.world.laps, 1);
    assert_eq!(
        run.race.world.cars.len(),
        3,
        "two people and a computer car"
    );
    two
}

fn text(two: &TwoOnHub, i: usize) -> String {
    two.screens[i].screen().contents()
}

#[test]
fn the_race_ends_for_everyone_30_s_after_the_first_finish() {
    let mut two = one_lap_with_a_rival();
    let mut tick = 0;
    loop {
        tick += 1;
        two.hub.tick(two.at(tick));
        let run = two.hub.rooms[&1].running.as_ref().unwrap();
        if !run.race.finishers.is_empty() {
            break;
        }
        assert!(tick < 120 * 120, "the computer car finishes its lap");
    }
    let end = two.hub.rooms[&1]
        .running
        .as_ref()
        .unwrap()
        .race
        .ends_at()
        .unwrap();
    two.frames(tick);
    for i in 0..2 {
        let t = text(&two, i);
        assert!(t.contains("ENDS IN 30 s"), "player {i}:\n{t}");
    }
    // Enter does nothing before the end: the race is not over.
    two.press(1, KeyCode::Enter, tick);
    assert!(two.hub.rooms[&1].running.is_some());
    // 30 s on (the race's ticks count from the start, after the
    // countdown), and a second more.
    let until = tick + (end - two.hub.rooms[&1].running.as_ref().unwrap().race.world.tick) + 120;
    while tick < until {
        tick += 1;
        two.hub.tick(two.at(tick));
    }
    let run = two.hub.rooms[&1].running.as_ref().unwrap();
    assert!(run.over(), "tick {} end {end}", run.race.world.tick);
    assert_eq!(run.race.world.tick, end, "over at the countdown's end");
    two.frames(tick);
    for i in 0..2 {
        let t = text(&two, i);
        assert!(t.contains("DID NOT FINISH"), "player {i}:\n{t}");
        assert!(t.contains("CPU 1") && t.contains("FIN"), "player {i}:\n{t}");
        assert_eq!(t.matches("DNF").count(), 2, "player {i}:\n{t}");
    }
    // Ben watches Ann's car, then his results again.
    two.press(2, KeyCode::Char('v'), tick);
    two.frames(tick + 8);
    let t = text(&two, 1);
    assert!(t.contains("watching ann"), "{t}");
    assert!(!t.contains("DID NOT FINISH"), "{t}");
    two.press(2, KeyCode::Char('v'), tick + 8);
    two.frames(tick + 16);
    assert!(text(&two, 1).contains("DID NOT FINISH"));
    // The host takes the room back.
    two.press(1, KeyCode::Enter, tick + 16);
    assert!(two.hub.rooms[&1].running.is_none());
}
