//! A record the disk will not take is never shown as kept: a person laps
//! `pocket` (`common::person`, through a terminal's bytes) while the data
//! directory cannot hold a ghost (a file stands where its folder goes, as
//! a full disk or a folder gone would refuse it). The lap's banner and the
//! results say NOT SAVED; once the directory can take it again, leaving
//! the results keeps the lap.

mod common;

use common::keyboard::Player;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent};
use skid::app::Screen;
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::records::Store;
use skid::ui::buffer_text;

fn screen(p: &Player) -> String {
    buffer_text(&common::drawn(&p.app))
}

#[test]
fn a_record_the_disk_refuses_says_not_saved_and_is_kept_on_leaving() {
    let dir = std::env::temp_dir().join(format!("skid-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let blocker = dir.join("ghosts");
    std::fs::write(&blocker, "not a folder").unwrap();
    let store = Store::new(&dir);
    let mut p = common::person::one_lap_of_pocket(120, Some(store.clone()));
    assert_eq!(p.app.screen, Screen::Results, "the lap was done");
    let track = p.app.race.as_ref().unwrap().world.track.content_id();
    let car = CarSpec::default_for(ModelKind::Arcade).content_id();
    let kept = || store.best(&track, ModelKind::Arcade, &car).unwrap().0.pop();
    assert!(kept().is_none(), "the directory took nothing");
    let text = screen(&p);
    assert!(text.contains("NOT SAVED YET"), "{text}");
    // The banner of the lap, drawn over the race: back a moment.
    let lap = p.app.race.as_ref().unwrap().seats[&skid::race::world::FIRST]
        .log
        .last
        .clone()
        .unwrap();
    p.app.screen = Screen::Race;
    let text = screen(&p);
    assert!(text.contains("NOT SAVED"), "{text}");
    p.app.screen = Screen::Results;
    // The folder can be made now; leaving the results keeps the lap.
    std::fs::remove_file(&blocker).unwrap();
    let quit = Event::Key(KeyEvent::from(KeyCode::Char('q')));
    let now = p.now();
    skid::app::game::handle(&mut p.app, quit, now);
    assert!(p.app.quit);
    let (record, _) = kept().expect("kept on leaving");
    assert_eq!(record.ticks, lap.ticks);
    let told: Vec<_> = p
        .app
        .notices
        .iter()
        .filter(|n| n.contains("cannot save"))
        .collect();
    assert_eq!(told.len(), 1, "said once: {:?}", p.app.notices);
    let _ = std::fs::remove_dir_all(&dir);
}
