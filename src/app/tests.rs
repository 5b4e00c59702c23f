//! Scenario tests of the app: menus, races, records, replays.

use super::*;
use crate::input::Action;
use crate::physics::Car;
use crate::physics::car;
use crate::race::records::Record;
use crate::race::timing::Lap;
use crate::race::world::CarId;
use crate::race::world::World;
use crate::race::{Phase, Row};
use crate::track::Track;
use glam::DVec2;

/// A press (or a terminal's repeat) of `key` at `now`, as the game reads
/// one: through [`App::key`], the person's one way in.
fn press(app: &mut App, key: Key, now: f64) {
    app.key(Some(key), false, key as u32, now);
}

mod rivals;

/// A fresh records store in a temporary folder, and the pocket track.
fn stored(name: &str) -> (std::path::PathBuf, Store, Raceable) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::new(&dir);
    (dir, store, bundled::load_raceable("pocket").unwrap())
}

/// A record on `track` for the arcade model's own car, at 120 Hz.
fn arcade_record(track: &Track, time: f64, ticks: u64, splits: Vec<u64>) -> Record {
    Record {
        track: track.name.clone(),
        track_id: track.content_id(),
        model: ModelKind::Arcade,
        car: "hatch".into(),
        car_id: CarSpec::default_for(ModelKind::Arcade).content_id(),
        time,
        ticks,
        hz: 120,
        splits,
        medal: None,
        aided: false,
    }
}

fn race_app(model: ModelKind) -> App {
    let mut app = App::new(Options {
        model: Some(model),
        hz: 120,
        ..Options::default()
    });
    app.start_race();
    app
}

/// Ticks through the countdown.
fn go(app: &mut App, now: &mut f64) {
    for _ in 0..=360 {
        *now += 1.0 / 120.0;
        app.tick(*now);
    }
    assert_eq!(app.race.as_ref().unwrap().phase, Phase::Running);
}

#[test]
fn the_menu_cycles_rows_and_values() {
    let mut app = App::new(Options {
        hz: 120,
        ..Options::default()
    });
    assert_eq!(app.menu.row, Row::Start, "Start is selected");
    // Beside Start, Build a track: Enter asks for the editor, no race.
    app.command(Command::Down);
    assert_eq!(app.menu.row, Row::Build);
    app.command(Command::Enter);
    assert!(app.editor_asked && app.screen == Screen::Menu);
    app.editor_asked = false;
    app.command(Command::Down);
    assert_eq!(app.menu.row, Row::Track);
    app.command(Command::Left);
    assert_eq!(
        app.menu.track,
        app.choices.len() - 1,
        "wraps to the last track"
    );
    app.command(Command::Down);
    app.command(Command::Right);
    assert_eq!(app.menu.model, ModelKind::Dynamic);
    assert_eq!(app.setup().spec.name, "corvette-c5", "the model's own car");
    app.command(Command::Enter);
    assert_eq!(app.screen, Screen::Race);
}

#[test]
fn the_countdown_holds_the_car_then_the_keys_drive_it() {
    let mut app = race_app(ModelKind::Arcade);
    let mut now = 0.0;
    press(&mut app, Key::Up, now);
    for _ in 0..100 {
        now += 1.0 / 120.0;
        app.tick(now);
    }
    assert_eq!(
        app.race.as_ref().unwrap().world.tick,
        0,
        "no physics in the countdown"
    );
    go(&mut app, &mut now);
    let r = w_held_a_second(&mut app, &mut now);
    // A hundred ticks and more of throttle in a row (the steering aid
    // may steer meanwhile: this terminal sends no releases).
    let recording = &r.seats[&LOCAL].recording;
    let longest = (recording.controls())
        .scan(0, |run, c| {
            *run = if c.throttle == 1.0 { *run + 1 } else { 0 };
            Some(*run)
        })
        .max();
    assert!(longest >= Some(100), "{recording:?}");
}

/// A server keeps no script of its players' inputs (nothing reads it,
/// and it grew by kilobytes a second for each of them): the same keys
/// drive the car, and the seat's recording stays empty.
#[test]
fn a_served_race_keeps_no_script_of_its_people() {
    let mut app = race_app(ModelKind::Arcade);
    app.race.as_mut().unwrap().door = Door::Served;
    let mut now = 0.0;
    go(&mut app, &mut now);
    let r = w_held_a_second(&mut app, &mut now);
    assert!(r.seats[&LOCAL].recording.hold.is_empty());
}

/// W held with a terminal's autorepeat for a second from `now`: the race
/// then, its car having driven.
fn w_held_a_second<'a>(app: &'a mut App, now: &mut f64) -> &'a Race {
    for i in 0..120 {
        *now += 1.0 / 120.0;
        if i % 4 == 0 {
            press(app, Key::W, *now);
        }
        app.tick(*now);
    }
    let r = app.race.as_ref().unwrap();
    assert!(
        r.view(LOCAL).unwrap().car().state.body.vel.length() > 3.0,
        "it drove"
    );
    r
}

#[test]
fn pause_stops_the_clock_and_releases_keys() {
    let mut app = race_app(ModelKind::Tire);
    let mut now = 0.0;
    go(&mut app, &mut now);
    app.command(Command::Pause);
    let tick = app.race.as_ref().unwrap().world.tick;
    for _ in 0..50 {
        now += 0.01;
        press(&mut app, Key::Up, now);
        app.tick(now);
    }
    assert_eq!(app.race.as_ref().unwrap().world.tick, tick);
    app.command(Command::Pause);
    app.tick(now);
    assert_eq!(app.race.as_ref().unwrap().world.tick, tick + 1);
    assert!(
        !app.held().is_held(Action::Throttle, now),
        "keys pressed while paused do not count"
    );
}

#[test]
fn driving_against_the_course_warns_after_a_second() {
    let mut app = race_app(ModelKind::Arcade);
    let mut now = 0.0;
    go(&mut app, &mut now);
    // The start straight runs east: drive west at speed.
    let race = app.race.as_mut().unwrap();
    race.world.cars[0].car.state.body.vel = DVec2::new(-12.0, 0.0);
    race.world.cars[0].car.state.body.heading = std::f64::consts::PI;
    for i in 0..130 {
        now += 1.0 / 120.0;
        app.tick(now);
        assert_eq!(
            app.race.as_ref().unwrap().view(LOCAL).unwrap().wrong_way(),
            i >= 119,
            "tick {i}"
        );
    }
}

#[test]
fn the_ghost_of_the_record_drives_with_the_lap_and_g_hides_it() {
    let (dir, store, track) = stored("skid-app-ghost");
    let ghost: Vec<[f64; 3]> = (0..100).map(|i| [50.0 + f64::from(i), 10.0, 0.0]).collect();
    let record = arcade_record(&track, 20.0, 2400, vec![]);
    store.save(record, &ghost).unwrap();
    let mut app = App::new(Options {
        model: Some(ModelKind::Arcade),
        hz: 120,
        records: Some(store),
        ..Options::default()
    });
    app.start_race();
    let mut now = 0.0;
    go(&mut app, &mut now);
    for _ in 0..39 {
        now += 1.0 / 120.0;
        app.tick(now);
    }
    // 40 ticks into the lap: the tenth sample, every four ticks.
    assert_eq!(
        app.race.as_ref().unwrap().view(LOCAL).unwrap().ghost_pose(),
        Some([60.0, 10.0, 0.0])
    );
    app.command(Command::ToggleGhost);
    assert_eq!(
        app.race.as_ref().unwrap().view(LOCAL).unwrap().ghost_pose(),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_menu_shows_the_record_for_its_selection() {
    let (dir, store, track) = stored("skid-app-menu");
    let record = arcade_record(&track, 21.25, 2550, vec![]);
    store.save(record, &[[0.0, 0.0, 0.0]]).unwrap();
    let mut app = App::new(Options {
        track: Some(("pocket".into(), track)),
        model: Some(ModelKind::Arcade),
        hz: 120,
        records: Some(store),
        ..Options::default()
    });
    assert_eq!(app.menu_best, Some(21.25));
    app.menu.row = Row::Model;
    app.command(Command::Right);
    assert_eq!(app.menu.model, ModelKind::Dynamic);
    assert_eq!(app.menu_best, None, "no record for dynamic");
    app.command(Command::Left);
    assert_eq!(app.menu_best, Some(21.25));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_set_at_another_rate_reads_in_time() {
    let (dir, store, track) = stored("skid-app-rate");
    let record = arcade_record(&track, 40.5, 4860, vec![1200, 3000]);
    store.save(record, &[[0.0, 0.0, 0.0]]).unwrap();
    let mut app = App::new(Options {
        track: Some(("pocket".into(), track)),
        model: Some(ModelKind::Arcade),
        hz: 10_000,
        records: Some(store),
        ..Options::default()
    });
    app.start_race();
    let best = app
        .race
        .as_ref()
        .unwrap()
        .view(LOCAL)
        .unwrap()
        .best_time()
        .unwrap();
    assert!((best - 40.5).abs() < 1e-9, "BEST reads {best} s");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_replay_never_saves_a_record() {
    let dir = std::env::temp_dir().join(format!("skid-app-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::new(&dir);
    let script = Script::parse("r.toml", "[[hold]]\nticks = 10\nthrottle = 1.0\n").unwrap();
    let lap = Lap {
        ticks: 1000,
        splits: vec![400, 700],
        ghost: vec![[1.0, 1.0, 0.0]],
        trace: vec![],
        aided: false,
    };
    for replay in [Some(script), None] {
        let mut app = App::new(Options {
            hz: 120,
            replay: replay.clone(),
            records: Some(store.clone()),
            ..Options::default()
        });
        app.start_race();
        let race = app.race.as_mut().unwrap();
        race.seats
            .get_mut(&LOCAL)
            .unwrap()
            .log
            .set_best(lap.clone());
        app.save_record();
        let track = app.race.as_ref().unwrap().world.track.content_id();
        let id = CarSpec::default_for(ModelKind::Arcade).content_id();
        let (best, _) = store.best(&track, ModelKind::Arcade, &id).unwrap();
        assert_eq!(
            !best.is_empty(),
            replay.is_none(),
            "replay: {}",
            replay.is_some()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restart_keeps_the_racing_line() {
    let mut app = race_app(ModelKind::Arcade);
    // Plant a line of one point under this track's id: a restart that
    // computed the line again would not have it.
    let id = app.race.as_ref().unwrap().world.track.content_id();
    let planted = Line::of(vec![DVec2::new(1.0, 2.0)], vec![3.0], Vec::new());
    app.line = Some((id, planted));
    app.command(Command::Restart);
    assert_eq!(app.races, 2);
    assert_eq!(
        app.race.as_ref().unwrap().line.points,
        [DVec2::new(1.0, 2.0)]
    );
    // Another track computes its own.
    app.command(Command::Quit);
    app.quit = false;
    app.menu.track = (app.menu.track + 1) % app.choices.len();
    app.start_race();
    assert!(app.race.as_ref().unwrap().line.points.len() > 20);
}

#[test]
fn a_too_small_terminal_pauses_the_race() {
    let mut app = race_app(ModelKind::Arcade);
    app.resize(40, 10);
    assert!(!app.running());
    app.resize(80, 24);
    assert!(app.running());
}

#[test]
fn a_replayed_recording_drives_the_same_race() {
    let mut app = race_app(ModelKind::Dynamic);
    let mut now = 0.0;
    go(&mut app, &mut now);
    for i in 0..600 {
        now += 1.0 / 120.0;
        let k = if (i / 100) % 2 == 0 { Key::Up } else { Key::D };
        if i % 5 == 0 {
            press(&mut app, k, now);
        }
        if i == 300 {
            app.command(Command::ShiftDown);
        }
        app.tick(now);
    }
    let race = app.race.as_ref().unwrap();
    let script = race.seats[&LOCAL].recording.clone();
    let text = script.to_toml();
    let back = Script::parse("rec.toml", &text).unwrap();
    assert_eq!(back.total_ticks(), race.world.tick);
    let mut replay = App::new(Options {
        model: Some(ModelKind::Dynamic),
        hz: 120,
        replay: Some(back),
        ..Options::default()
    });
    replay.start_race();
    let mut t = 0.0;
    go(&mut replay, &mut t);
    for _ in 0..600 {
        t += 0.5; // any clock: a replay ignores it
        replay.tick(t);
    }
    let again = replay.race.as_ref().unwrap();
    assert_eq!(
        again.view(LOCAL).unwrap().car().state,
        race.view(LOCAL).unwrap().car().state
    );
}

#[test]
fn two_seats_drive_their_own_cars_in_one_race() {
    // One world, two people: each seat's keys drive its own car, each
    // seat records its own controls and sees its own car and the other as
    // a rival.
    let track = bundled::load("oval").unwrap();
    let spec = CarSpec::bundled("hatch").unwrap();
    let world = World::new(track.clone(), spec.clone(), ModelKind::Arcade, 120);
    let mut race = Race::new(world, 1, None, None);
    let (pos, heading) = track.start_pose(1);
    let second = Car::new(spec, ModelKind::Arcade, pos, heading);
    let other = race.add_seat(second, Vec::new());
    assert_eq!(other, CarId(1));
    // Computer cars take the slots the seats left free.
    race.add_opponents(2, crate::race::medals::Medal::Author);
    let starts: Vec<DVec2> = (race.world.cars.iter())
        .map(|e| e.car.state.body.pos)
        .collect();
    assert!(
        starts[2..].iter().all(|p| p.distance(pos) > 1.0),
        "{starts:?}"
    );
    let mut now = 0.0;
    while race.phase != Phase::Running {
        race.tick(now);
    }
    for _ in 0..240 {
        now += 1.0 / 120.0;
        // The second seat holds the throttle (a terminal's autorepeat);
        // the first touches nothing.
        let held = &mut race.seat_mut(other).unwrap().held;
        held.press(Action::Throttle, now);
        race.tick(now);
    }
    let (still, driven) = (race.view(LOCAL).unwrap(), race.view(other).unwrap());
    assert_eq!(still.car().state.body.vel.length(), 0.0);
    assert!(driven.car().state.body.vel.length() > 5.0);
    assert!(driven.car().state.body.pos.distance(pos) > 5.0);
    assert!(
        still
            .seat
            .recording
            .clone()
            .into_controls()
            .all(|c| c.throttle == 0.0)
    );
    assert!(driven.seat.last.throttle == 1.0);
    assert_eq!(driven.rivals().count(), 3);
    assert_eq!(
        driven.rivals().next().unwrap().state.body.pos,
        still.car().state.body.pos
    );
    // Names: each seat is YOU to itself, the cars no person drives are
    // CPU 1, 2... in grid order.
    let (cpu1, cpu2) = (CarId(2), CarId(3));
    assert_eq!(race.name(cpu1, Some(LOCAL)), "CPU 1");
    race.world.car_mut(LOCAL).unwrap().name = Some("ann".into());
    race.world.car_mut(other).unwrap().name = Some("ben".into());
    assert_eq!(
        [
            race.name(LOCAL, Some(LOCAL)),
            race.name(other, Some(LOCAL)),
            race.name(LOCAL, Some(other)),
            race.name(cpu1, Some(LOCAL)),
            race.name(cpu2, Some(other))
        ],
        ["YOU", "ben", "ann", "CPU 1", "CPU 2"].map(String::from)
    );
    // A seat taken out: its car goes, every other car and seat keeps its
    // id and name, and the race goes on.
    race.tick(now);
    let order = race.standings();
    race.leave(LOCAL);
    assert_eq!(race.people(), 1);
    assert!(race.seat(LOCAL).is_none() && race.view(LOCAL).is_none());
    assert_eq!(race.seats.keys().next(), Some(&other), "the first seat now");
    assert!(race.person(other) && !race.person(cpu1));
    assert_eq!(race.world.cars.len(), 3);
    assert_eq!(race.name(other, Some(other)), "YOU");
    assert_eq!(race.name(cpu1, Some(other)), "CPU 1");
    assert_eq!(race.name(cpu2, Some(other)), "CPU 2");
    let after: Vec<CarId> = race.standings().iter().map(|s| s.car).collect();
    let before: Vec<CarId> = (order.iter().map(|s| s.car))
        .filter(|&c| c != LOCAL)
        .collect();
    assert_eq!(after, before, "the others' order, by the same ids");
    race.tick(now + 0.01);
}

/// Issue 27: q in a race started from the title menu quit the program.
/// Now it goes back to the menu (and q there quits); a race started
/// straight from the command line has no menu to go back to, so q quits.
#[test]
fn q_in_a_race_from_the_menu_goes_back_to_it() {
    let opts = || Options {
        track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
        hz: 120,
        ..Options::default()
    };
    let mut app = App::new(opts());
    app.menu.row = Row::Start;
    app.command(Command::Enter);
    assert_eq!(app.screen, Screen::Race);
    app.command(Command::Quit);
    assert_eq!(app.screen, Screen::Menu);
    assert!(app.race.is_none() && !app.quit);
    app.command(Command::Quit);
    assert!(app.quit);

    let mut straight = App::new(opts());
    straight.start_race();
    straight.command(Command::Quit);
    assert!(straight.quit);
}
