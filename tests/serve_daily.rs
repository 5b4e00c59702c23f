//! Today's track on `skid serve`, across midnight: the lobby's first row
//! is the day's track; Ann races on it alone; the day turns while she
//! races. The lobby then offers the new day's track, her race goes on
//! on the old one, her lap is kept on the old day's board (not the new
//! one's), and her room, back to its settings, is on the new day's. The
//! day before's is always the second track (its board in reach); making
//! a room (the lobby's second row) makes one on the first after them.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use hub_sim::TwoOnHub;
use ratatui::crossterm::event::KeyCode;
use skid::base::day::Day;
use skid::race::TrackChoice;
use skid::serve::db::{Database, Sqlite};
use skid::serve::hub::ToHub;

fn text(two: &TwoOnHub, i: usize) -> String {
    two.screens[i].screen().contents()
}

/// The content id of `day`'s track, as local play knows it.
fn id_of(day: Day) -> String {
    TrackChoice::daily(day, day).unwrap().track.content_id()
}

#[test]
fn a_race_across_midnight_keeps_its_track_and_its_board() {
    let dir = std::env::temp_dir().join(format!("skid-daily-hub-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (sixth, seventh) = (
        Day::parse("2026-12-06").unwrap(),
        Day::parse("2026-12-07").unwrap(),
    );
    let fifth = sixth.before();
    let mut two = TwoOnHub::daily_in(&dir, sixth);
    let names = |two: &TwoOnHub| -> Vec<String> {
        (two.hub.tracks.iter())
            .map(|t| t.choice.name.clone())
            .collect()
    };
    let fifths = TrackChoice::daily(fifth, sixth).unwrap().name;
    assert!(fifths.starts_with("Dec 5 · "), "{fifths}");
    assert_eq!(
        names(&two),
        ["Today · Dec 6 · Lost Crossing", &fifths, "pocket"],
        "today's, yesterday's, the others"
    );
    two.frames(0);
    for i in 0..2 {
        let t = text(&two, i);
        assert!(t.contains("› [ Today · Dec 6 · Lost Crossing ]"), "{t}");
        assert!(t.contains("  [ Make a room ]"), "{t}");
    }
    // Ann's Enter on the first row: a room on today's track; she races
    // one lap of it alone.
    two.alone(0);
    let run = two.hub.rooms[&1].running.as_ref().expect("racing");
    assert_eq!(run.offered.id, id_of(sixth));
    // Midnight: the next day's track, made before, is today's.
    let next = skid::serve::daily::offered(seventh, seventh).unwrap();
    let at = two.at(1);
    two.hub.apply(
        ToHub::Tomorrow {
            day: seventh,
            offered: Box::new(next),
        },
        at,
    );
    two.hub.apply(ToHub::DayTurned { day: seventh }, at);
    two.frames(1);
    let ben = text(&two, 1);
    assert!(ben.contains("› [ Today · Dec 7 · Lost Works ]"), "{ben}");
    assert!(!ben.contains("[ Today · Dec 6"), "{ben}");
    let run = two.hub.rooms[&1].running.as_ref().expect("still racing");
    assert_eq!(run.offered.id, id_of(sixth), "the race keeps its track");
    assert_eq!(
        names(&two),
        [
            "Today · Dec 7 · Lost Works",
            "Dec 6 · Lost Crossing",
            "pocket"
        ]
    );
    assert_eq!(two.hub.tracks[1].id, id_of(sixth), "yesterday's, its board");
    // Ben's Make a room, the second row, makes one on the first track
    // after the days'.
    two.press(2, KeyCode::Down, 1);
    two.press(2, KeyCode::Enter, 1);
    let bens = two.hub.rooms[&2].offered(&two.hub.tracks);
    assert_eq!(bens.choice.name, "pocket");
    assert!(
        two.race(120 * 240),
        "Ann's lap of Dec 6's track ends the race"
    );
    // Her lap is on Dec 6's board, none on Dec 7's.
    let mut db = Sqlite::open(&dir.join("skid.db")).unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    let mut tracks = db.tracks().unwrap();
    while !tracks.contains(&id_of(sixth)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
        tracks = db.tracks().unwrap();
    }
    assert_eq!(tracks, [id_of(sixth)], "her lap, on the day she raced");
    // The host's Enter takes the room back to its settings: today's
    // track, now Dec 7's.
    let after = 120 * 250;
    two.press(1, KeyCode::Enter, after);
    two.frames(after);
    let ann = text(&two, 0);
    assert!(
        ann.contains("Lost Works") && !ann.contains("Lost Crossing"),
        "{ann}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
