//! How a race on `skid serve` ends, as its players see it: once the first
//! car finishes, every screen counts down 30 s; then the race is over,
//! who had not finished did not (DNF). Who watches follows any car, a
//! computer car too; who races alone restarts at once.
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
        // No race total for a race not finished (not 0:00.00), and the
        // empty lap table says why.
        assert!(t.contains("TOTAL -:--.--"), "player {i}:\n{t}");
        assert!(t.contains("no lap completed"), "player {i}:\n{t}");
        assert!(t.contains("CPU 1") && t.contains("FIN"), "player {i}:\n{t}");
        assert_eq!(t.matches("DNF").count(), 2, "player {i}:\n{t}");
    }
    // Over, nothing moves: v leaves Ben on his results.
    two.press(2, KeyCode::Char('v'), tick);
    two.frames(tick + 8);
    assert!(text(&two, 1).contains("DID NOT FINISH"));
    // The host takes the room back.
    two.press(1, KeyCode::Enter, tick + 16);
    assert!(two.hub.rooms[&1].running.is_none());
}

/// Ticks the hub from `tick` on, a frame every four ticks, until `want`
/// shows on player `i`'s screen (at most 20 s); returns the tick it
/// showed at.
fn until(two: &mut TwoOnHub, i: usize, want: &str, mut tick: u64) -> u64 {
    for _ in 0..2400 {
        tick += 1;
        two.hub.tick(two.at(tick));
        if tick.is_multiple_of(4) {
            two.frames(tick);
            if text(two, i).contains(want) {
                return tick;
            }
        }
    }
    panic!("no {want:?} on player {i}'s screen:\n{}", text(two, i));
}

#[test]
fn a_watcher_follows_each_car_in_turn_computer_cars_too() {
    let mut two = TwoOnHub::new();
    two.alone(1);
    // Ben joins the racing room: he watches Ann, the first car.
    two.press(2, KeyCode::Down, 0);
    two.press(2, KeyCode::Enter, 0);
    let mut tick = until(&mut two, 1, "watching ann", 0);
    // v: Ann (now his choice), then the computer car, then Ann again.
    for (want, live) in [("watching ann", "ann"), ("watching CPU 1", "CPU 1")] {
        two.press(2, KeyCode::Char('v'), tick);
        tick = until(&mut two, 1, want, tick);
        let t = text(&two, 1);
        // The race's own panel, live: the standings name both cars.
        assert!(
            t.contains("LAP") && t.contains("P1") && t.contains(live),
            "{t}"
        );
    }
    // The computer car's panel moves on with it: its clock runs.
    tick = until(&mut two, 1, "TIME  0:01", tick);
    assert!(text(&two, 1).contains("watching CPU 1"));
    two.press(2, KeyCode::Char('v'), tick);
    until(&mut two, 1, "watching ann", tick);
}

#[test]
fn racing_alone_r_restarts_at_once_and_seats_who_watches() {
    let mut two = TwoOnHub::new();
    two.alone(0);
    let mut tick = 0;
    for _ in 0..600 {
        tick += 1;
        two.hub.tick(two.at(tick));
    }
    let ticks = |two: &TwoOnHub| two.hub.rooms[&1].running.as_ref().unwrap().race.world.tick;
    assert!(ticks(&two) > 200, "the race runs");
    two.press(1, KeyCode::Char('r'), tick);
    assert!(ticks(&two) < 2, "a new race, from the grid");
    // With Ben watching, Ann is still the only one racing: r again seats
    // him in the new race.
    two.press(2, KeyCode::Down, tick);
    two.press(2, KeyCode::Enter, tick);
    for _ in 0..600 {
        tick += 1;
        two.hub.tick(two.at(tick));
    }
    two.press(2, KeyCode::Char('r'), tick);
    assert!(ticks(&two) > 200, "a watcher cannot restart the race");
    two.press(1, KeyCode::Char('r'), tick);
    let run = two.hub.rooms[&1].running.as_ref().unwrap();
    assert_eq!(run.race.people(), 2, "both drive the new race");
    assert!(run.race.world.tick < 2);
}
