//! Scenario tests of the app with computer rivals: the grid they start
//! on, and a computer car after it finished.

use super::*;

#[test]
fn opponents_race_from_the_next_slots_and_never_share_space() {
    let mut app = App::new(Options {
        model: Some(ModelKind::Tire),
        hz: 120,
        opponents: 3,
        skill: 1.0,
        ..Options::default()
    });
    app.start_race();
    let mut now = 0.0;
    go(&mut app, &mut now);
    let track = app.race.as_ref().unwrap().world.track.clone();
    let starts: Vec<DVec2> = (1..=3).map(|i| track.start_pose(i).0).collect();
    let r = app.race.as_ref().unwrap();
    assert_eq!(r.view(LOCAL).unwrap().rivals().count(), 3);
    for (car, s) in r.view(LOCAL).unwrap().rivals().zip(&starts) {
        assert!(car.state.body.pos.distance(*s) < 0.5, "on its slot");
    }
    for _ in 0..(120 * 20) {
        now += 1.0 / 120.0;
        app.tick(now);
        let r = app.race.as_ref().unwrap();
        let mut boxes = vec![r.view(LOCAL).unwrap().car().footprint()];
        boxes.extend(r.view(LOCAL).unwrap().rivals().map(Car::footprint));
        for (i, a) in boxes.iter().enumerate() {
            assert!(!r.world.track.box_hits_wall(a));
            for b in &boxes[i + 1..] {
                assert!(
                    a.overlap(b).is_none_or(|c| c.depth < 0.3),
                    "cars overlap deeply"
                );
            }
        }
    }
    let r = app.race.as_ref().unwrap();
    assert!(
        r.world.cars[1..]
            .iter()
            .all(|e| e.laps.checkpoint >= 1 || e.laps.lap >= 1),
        "they race"
    );
    let place = 1 + r.standings().iter().position(|s| s.car == LOCAL).unwrap();
    assert!((1..=4).contains(&place));
}

#[test]
fn every_bundled_grid_holds_every_preset_without_touching() {
    for (track, _) in bundled::TRACKS {
        let t = bundled::load(track).unwrap();
        for (preset, _) in car::PRESETS {
            let spec = CarSpec::bundled(preset).unwrap();
            let world = World::new(t.clone(), spec.clone(), spec.model, 120);
            let mut race = Race::new(world, 1, None, None);
            let placed = race.add_opponents(7, crate::race::medals::Medal::Author);
            assert_eq!(placed, (t.starts.len() - 1).min(7), "{track} with {preset}");
        }
    }
}

#[test]
fn asking_for_more_opponents_than_the_grid_holds_says_so() {
    let mut app = App::new(Options {
        track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
        hz: 120,
        opponents: 7,
        skill: 1.0,
        ..Options::default()
    });
    app.start_race();
    let race = app.race.as_ref().unwrap();
    assert_eq!(
        race.view(LOCAL).unwrap().rivals().count(),
        3,
        "pocket has four slots"
    );
    assert_eq!(race.short_of, Some((3, 7)));
    assert_eq!(
        app.notices,
        ["pocket: room on the grid for 3 of the 7 opponents asked for"]
    );
}

/// Issue 27: a computer car that finished was given full brake, and at a
/// standstill a held brake is reverse, so it rolled back up the straight
/// and parked where the others race. Now, on pocket with the player
/// touching nothing, each model's computer car finishes its lap, never
/// moves backwards after, and comes to rest off the racing line.
#[test]
fn a_computer_car_that_finished_stops_off_the_line_and_never_reverses() {
    for model in ModelKind::ALL {
        let mut app = App::new(Options {
            track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
            model: Some(model),
            laps: Some(1),
            opponents: 1,
            skill: 1.0,
            hz: 120,
            ..Options::default()
        });
        app.start_race();
        let mut finished = None;
        let mut tick = 0u64;
        while finished.is_none_or(|t| tick < t + 120 * 20) {
            tick += 1;
            assert!(tick < 120 * 240, "{model}: the computer car never finished");
            app.tick(tick as f64 / 120.0);
            let cpu = &app.race.as_ref().unwrap().world.cars[1];
            if cpu.laps.lap >= 1 {
                finished.get_or_insert(tick);
                let b = &cpu.car.state.body;
                let rolling = b.vel.dot(cpu.car.forward());
                assert!(rolling > -0.05, "{model}: backwards at {rolling} m/s");
            }
        }
        let race = app.race.as_ref().unwrap();
        let b = &race.world.cars[1].car.state.body;
        assert!(b.vel.length() < 0.05, "{model}: still moving");
        let off =
            race.line.points[race.line.nearest(b.pos, race.world.cars[1].along)].distance(b.pos);
        assert!(
            off > 2.0,
            "{model}: at rest {off:.1} m from the racing line"
        );
    }
}

/// Issue 50: Easy rivals lap in the bronze time (within 5%) once the
/// medals are known; they start at a guessed pace and take the worked-out
/// one when the medals come.
#[test]
fn easy_rivals_lap_in_the_bronze_time() {
    let mut app = App::new(Options {
        model: Some(ModelKind::Kinematic),
        hz: 120,
        opponents: 1,
        rivals: crate::race::medals::Medal::Bronze,
        ..Options::default()
    });
    app.start_race();
    let medals = app.race.as_ref().unwrap().medals.unwrap();
    let bronze = medals.time(crate::race::medals::Medal::Bronze);
    let mut now = 0.0;
    let mut ends = Vec::new();
    while ends.len() < 2 && now < 300.0 {
        now += 1.0 / 120.0;
        app.tick(now);
        let race = app.race.as_ref().unwrap();
        let rival = &race.world.cars[1];
        if ends.len() < rival.laps.lap as usize {
            ends.push(race.world.tick);
        }
    }
    let flying = (ends[1] - ends[0]) as f64 / 120.0;
    assert!(
        (flying / bronze - 1.0).abs() < 0.05,
        "{flying:.2} s for bronze {bronze:.2} s"
    );
}

/// The menu's Level row sets how hard the rivals drive, from where
/// `--difficulty` put it.
#[test]
fn the_level_row_chooses_how_hard_the_rivals_drive() {
    use crate::input::keys::Command;
    use crate::race::medals::Medal;
    let mut app = App::new(Options {
        hz: 120,
        opponents: 2,
        rivals: Medal::Bronze,
        ..Options::default()
    });
    assert_eq!(app.menu.rivals, Medal::Bronze, "from --difficulty");
    // Up from Start: Aid, then Level; right twice: hard.
    app.command(Command::Up);
    app.command(Command::Up);
    assert_eq!(app.menu.row, crate::race::Row::Level);
    app.command(Command::Right);
    app.command(Command::Right);
    app.start_race();
    assert_eq!(app.race.as_ref().unwrap().rivals, Medal::Gold);
}
