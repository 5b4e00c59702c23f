//! A keyed player's record on `skid serve`: read off the hub's thread
//! while the race counts down, and raced against from the start (BEST
//! shows it, its ghost drives).
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};
use skid::car::CarSpec;
use skid::physics::ModelKind;
use skid::records::Record;
use skid::serve::hub::{Out, ToHub};
use skid::serve::laps::Keeper;
use skid::track::bundled;

#[test]
fn a_keyed_players_record_is_raced_against_from_the_start() {
    let dir = std::env::temp_dir().join(format!("skid-serve-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pocket = bundled::load_raceable("pocket").unwrap();
    let track_id = pocket.track().content_id();
    // Ann's record on pocket, from an earlier run of the server.
    {
        let mut keeper = Keeper::open(&dir).unwrap();
        let record = Record {
            track: "pocket".into(),
            track_id: track_id.clone(),
            model: ModelKind::Arcade,
            car: "hatch".into(),
            car_id: CarSpec::default_for(ModelKind::Arcade).content_id(),
            time: 12.34,
            ticks: 1481,
            hz: 120,
            splits: Vec::new(),
            medal: None,
        };
        keeper.save("SHA256:ann", "ann", record, vec![[30.0, 10.0, 0.0]; 371]);
    }
    let start = Instant::now();
    let (mut hub, mut rx) = hub_sim::ann_on_pocket(&dir, start);
    let at = |tick: u64| start + Duration::from_micros(tick * 1_000_000 / 120);
    for code in [KeyCode::Enter, KeyCode::Enter] {
        let events = vec![Event::Key(KeyEvent::from(code))];
        hub.apply(
            ToHub::Input {
                id: 1,
                events,
                at: start,
            },
            start,
        );
    }
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    // Through the countdown (3 s) and a moment of racing.
    for tick in 1..=(120 * 3 + 30) {
        hub.tick(at(tick));
        if tick.is_multiple_of(4) {
            hub.frames(at(tick));
            if let Ok(Out::Frame(bytes)) = rx.try_recv() {
                screen.process(&bytes);
            }
        }
        // The records' thread answers in its own time: give it some.
        if tick == 60 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let text = screen.screen().contents();
    assert!(text.contains("BEST  0:12.34"), "{text}");
    let run = hub.rooms[&1].running.as_ref().unwrap();
    let seat = &run.race.seats[0];
    assert_eq!(seat.log.best.as_ref().map(|b| b.ticks), Some(1481));
    assert!(!seat.log.improved, "the record is not a lap of this race");
    let _ = std::fs::remove_dir_all(&dir);
}
