//! Scenario tests of medals in the app: worked out while the menu waits,
//! shown, earned, kept with the record.

use super::*;
use crate::race::medals::Medals;
use crate::race::timing::Lap;

fn temp(name: &str) -> (std::path::PathBuf, Store) {
    let dir = std::env::temp_dir().join(format!("skid-medals-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    (dir.clone(), Store::new(dir))
}

fn menu_text(app: &App) -> String {
    let (w, h) = app.session.size;
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    t.draw(|f| crate::app::draw(f, app)).unwrap();
    crate::ui::buffer_text(t.backend().buffer())
}

/// Polls `app` until its menu's medals are known.
fn wait_for_medals(app: &mut App) {
    for _ in 0..3000 {
        app.poll();
        if app.menu_medals.0 != Lookup::Working {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the medals were never worked out");
}

#[test]
fn the_menu_shows_medals_once_worked_out_and_keeps_them() {
    let (dir, store) = temp("menu");
    let opts = Options {
        model: Some(ModelKind::Kinematic),
        hz: 120,
        records: Some(store),
        background: true,
        ..Options::default()
    };
    let mut app = App::new(opts.clone());
    assert_eq!(app.menu_medals.0, Lookup::Working, "worked out on a thread");
    assert!(menu_text(&app).contains("timing the computer's lap"));
    wait_for_medals(&mut app);
    let medals = app.menu_medals.0.medals().expect("pocket has medals");
    let text = menu_text(&app);
    let gold = crate::ui::hud::clock(Some(medals.time(Medal::Gold)));
    assert!(text.contains(&format!("gold {gold}")), "{text}");
    // Another start of the game knows them at once, from the data dir
    // (written on a thread of the book's, done by the time it is gone).
    drop(app);
    let again = App::new(opts);
    assert_eq!(again.menu_medals.0, Lookup::Known(Some(medals)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_keeps_the_medal_its_lap_earned() {
    let (dir, store) = temp("record");
    let mut app = App::new(Options {
        model: Some(ModelKind::Kinematic),
        hz: 120,
        records: Some(store.clone()),
        ..Options::default()
    });
    app.start_race();
    let race = app.race.as_mut().unwrap();
    let Medals { author, .. } = race
        .view(LOCAL)
        .unwrap()
        .medals()
        .expect("worked out at once");
    // A lap a tenth slower than the computer's: gold, not author.
    let ticks = ((author + 0.1) * 120.0).round() as u64;
    race.seats.get_mut(&LOCAL).unwrap().log.set_best(Lap {
        ticks,
        ..Lap::default()
    });
    app.save_record();
    let track = app.race.as_ref().unwrap().world.track.content_id();
    let car = CarSpec::default_for(ModelKind::Kinematic).content_id();
    let (best, _) = store.best(&track, ModelKind::Kinematic, &car).unwrap();
    assert_eq!(best[0].0.medal, Some(Medal::Gold));
    // The menu says so.
    app.back_to_menu();
    assert_eq!(app.menu_medals.1, Some(Medal::Gold));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_race_learns_its_medals_while_it_runs_and_a_switched_car_has_none() {
    let mut app = App::new(Options {
        model: Some(ModelKind::Tire),
        hz: 120,
        background: true,
        ..Options::default()
    });
    app.start_race();
    if app.race.is_none() {
        // The racing line first, on the planner's thread.
        while app.race.is_none() {
            app.poll();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    for _ in 0..3000 {
        app.poll();
        if app
            .race
            .as_ref()
            .unwrap()
            .view(LOCAL)
            .unwrap()
            .medals()
            .is_some()
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let race = app.race.as_mut().unwrap();
    let medals = race
        .view(LOCAL)
        .unwrap()
        .medals()
        .expect("learnt during the race");
    assert!(medals.author > 10.0);
    // Another model's car: these medals are not its.
    let other = crate::physics::Car::new(
        CarSpec::default_for(ModelKind::Arcade),
        ModelKind::Arcade,
        glam::DVec2::ZERO,
        0.0,
    );
    assert_eq!(race.medals_for(&other), None);
}
