//! Medals and boards on `skid serve`: a room's settings show the medals
//! of the track, model and car (worked out off the hub's thread); a keyed
//! player's lap goes on the room's board within a second, and their
//! record keeps the medal it earned.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyCode;
use skid::race::medals::Medal;
use skid::race::medals::book::Lookup;
use skid::race::timing::Lap;
use skid::serve::db::{Database, Sqlite};
use skid::serve::hub::{Hub, Out};

#[test]
fn a_room_shows_its_medals_and_a_record_keeps_the_one_it_earned() {
    let dir = std::env::temp_dir().join(format!("skid-serve-medals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    let key = |hub: &mut Hub, code| hub_sim::press(hub, 1, code, start);
    key(&mut hub, KeyCode::Enter); // a new room, at its settings
    let at = |tick: u64| start + Duration::from_micros(tick * 1_000_000 / 120);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let mut tick = 0;
    // The medals are worked out on a thread of their own: the hub goes on.
    while hub.rooms[&1].medals == Lookup::Working {
        tick += 1;
        assert!(tick < 3000, "the medals were never worked out");
        hub.tick(at(tick));
        std::thread::sleep(Duration::from_millis(5));
    }
    hub.frames(at(tick));
    if let Ok(Out::Frame(bytes)) = rx.try_recv() {
        screen.process(&bytes);
    }
    let medals = hub.rooms[&1].medals.medals().expect("pocket has medals");
    let text = screen.screen().contents();
    let gold = skid::ui::hud::clock(Some(medals.time(Medal::Gold)));
    assert!(text.contains(&format!("gold {gold}")), "{text}");
    // A race, and a lap of it just under silver.
    key(&mut hub, KeyCode::Enter);
    let run = hub.rooms.get_mut(&1).unwrap().running.as_mut().unwrap();
    let silver = medals.time(Medal::Silver);
    let seat = run.race.seats.get_mut(&skid::race::world::FIRST).unwrap();
    seat.log.set_best(Lap {
        ticks: (silver * 120.0).floor() as u64,
        ..Lap::default()
    });
    hub.tick(at(tick + 1));
    // The room's board has it within a second (the records' thread reads
    // the database's changes every quarter second).
    let key = hub.rooms[&1].board.clone().expect("the room's board");
    let saved = Instant::now();
    let mut tick = tick + 1;
    while hub
        .keeper
        .boards
        .get(&key)
        .is_none_or(|b| b.unaided.top.is_empty())
    {
        assert!(
            saved.elapsed() < Duration::from_secs(1),
            "the board did not change"
        );
        tick += 1;
        hub.tick(at(tick));
        std::thread::sleep(Duration::from_millis(5));
    }
    let board = &hub.keeper.boards[&key].unaided;
    assert_eq!(board.top[0].name, "ann");
    assert_eq!(board.top[0].medal, Some(Medal::Silver));
    assert_eq!(board.places[0].0, 1, "ann's own place");
    drop(hub); // the records' thread writes what it was given, then ends
    let mut db = Sqlite::open(&dir.join("skid.db")).unwrap();
    let (record, _) = db
        .best("SHA256:ann", &key, false)
        .unwrap()
        .expect("ann's record");
    assert_eq!(record.medal, Some(Medal::Silver));
    let _ = std::fs::remove_dir_all(&dir);
}
