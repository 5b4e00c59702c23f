//! The steering aid in a server's room is the host's to allow or turn
//! off (issue 60): off, the lobby's room row says `no aid`, a presses-only
//! player's INPUT shows no AID, `t` says the race has it off, the results
//! say so, and every lap is unaided.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use ratatui::crossterm::event::KeyCode;

/// Player `who`'s screen after the frames of tick `tick` (the hub
/// ticked to it).
fn screen(two: &mut hub_sim::TwoOnHub, who: usize, tick: u64) -> String {
    two.hub.tick(two.at(tick));
    two.frames(tick);
    two.screens[who].screen().contents()
}

#[test]
fn a_room_whose_host_turned_the_aid_off_races_without_it() {
    let mut two = hub_sim::TwoOnHub::new();
    // Ann makes a room; from Start, Up is the Aid row; Right turns it off.
    two.press(1, KeyCode::Enter, 0);
    two.press(1, KeyCode::Up, 0);
    two.press(1, KeyCode::Right, 0);
    let text = screen(&mut two, 0, 1);
    assert!(text.contains("Aid    ◀ off ▶"), "{text}");
    let lobby = screen(&mut two, 1, 2);
    assert!(lobby.contains("no aid"), "Ben's lobby:\n{lobby}");
    // She starts it alone and holds W on a keyboard without releases
    // (presses only: the hub's events carry no release).
    two.press(1, KeyCode::Enter, 0);
    let countdown = 3 * 120 + 10;
    let mut tick = 2;
    while tick < countdown + 3 * 120 {
        two.run(tick, tick + 4);
        tick += 4;
        two.press(1, KeyCode::Char('w'), tick);
        let text = screen(&mut two, 0, tick);
        let input = text
            .lines()
            .find(|l| l.contains("INPUT"))
            .unwrap_or_default();
        assert!(!input.contains("AID") && !input.contains("aid"), "{text}");
    }
    two.press(1, KeyCode::Char('t'), tick);
    let text = screen(&mut two, 0, tick + 4);
    assert!(
        text.contains("the steering aid is off in this race"),
        "{text}"
    );
    // Driven to the end by the computer's wishes, pressed as keys: no lap
    // of the race is aided, and the results say the aid was off.
    assert!(two.race(120 * 120), "the race ends");
    let run = two.hub.rooms[&1].running.as_ref().unwrap();
    let seat = run.race.seats.values().next().unwrap();
    let best = seat.log.best().expect("a lap");
    assert!(!best.aided);
    let mut text = String::new();
    for k in 0..30 {
        text = screen(&mut two, 0, 120 * 120 + k * 4);
        if text.contains("RESULTS") {
            break;
        }
    }
    assert!(text.contains("steering aid off in this race"), "{text}");
}
