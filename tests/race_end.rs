//! How a race ends, as a player meets it: once the first car finishes, a
//! countdown (30 s) shown to everyone ends the race; a car that has not
//! finished by then did not finish (DNF); a player who finished keeps
//! seeing the order change as the others come in; a computer car that
//! finished pulls over and never backs up; a player who finished follows
//! any car still racing (v).

mod common;

use skid::app::{App, Command, Options, Screen};
use skid::physics::ModelKind;
use skid::race::FINISH_WINDOW;
use skid::race::script::Script;
use skid::track::bundled;
use skid::ui;

/// The screen as text, at the app's size.
fn screen(app: &App) -> String {
    ui::buffer_text(&common::drawn(app))
}

/// A race of one lap of `pocket` in `model` against `opponents` computer
/// cars, the player replaying `replay` (none: the player touches
/// nothing), at 80x24.
fn race(model: ModelKind, opponents: usize, skill: f64, replay: Option<Script>) -> App {
    let mut app = App::new(Options {
        track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
        model: Some(model),
        laps: Some(1),
        hz: 120,
        opponents,
        skill,
        // Full skill is the computer's own pace; half, a bronze's.
        rivals: if skill >= 1.0 {
            skid::race::medals::Medal::Author
        } else {
            skid::race::medals::Medal::Bronze
        },
        replay,
        ..Options::default()
    });
    app.resize(80, 24);
    app.start_race();
    app
}

/// A one-lap race in `kinematic` the player has just finished first
/// (replaying the computer's own fastest lap) while `rivals` at half
/// skill race on; and the tick it is at.
fn finished_first(rivals: usize) -> (App, u64) {
    let lap = common::computer_run("pocket", ModelKind::Kinematic, Some(1));
    let mut app = race(ModelKind::Kinematic, rivals, 0.5, Some(lap));
    let mut k = 0;
    while app.screen == Screen::Race {
        tick(&mut app, &mut k);
        assert!(k < 120 * 120, "the player's lap ends");
    }
    (app, k)
}

/// One tick at tick `k`'s time.
fn tick(app: &mut App, k: &mut u64) {
    *k += 1;
    app.tick(*k as f64 / 120.0);
}

#[test]
fn the_race_ends_30_seconds_after_the_first_finish_and_the_rest_did_not_finish() {
    let mut app = race(ModelKind::Kinematic, 1, 1.0, None);
    let mut k = 0;
    while app.race.as_ref().unwrap().finishers.is_empty() {
        tick(&mut app, &mut k);
        assert!(k < 120 * 120, "the computer car finishes its lap");
    }
    let race = app.race.as_ref().unwrap();
    let end = race.ends_at().expect("a countdown once a car finished");
    assert_eq!(end, race.world.tick + (FINISH_WINDOW * 120.0) as u64);
    assert!(!race.over());
    assert_eq!(app.screen, Screen::Race);
    let text = screen(&app);
    assert!(
        text.contains("ENDS IN 30 s"),
        "shown to the player still racing:\n{text}"
    );
    // Ten seconds on, the countdown has moved.
    for _ in 0..1200 {
        tick(&mut app, &mut k);
    }
    assert!(screen(&app).contains("ENDS IN 20 s"));
    while app.screen == Screen::Race {
        tick(&mut app, &mut k);
        assert!(k < 120 * 200, "the race ends");
    }
    let race = app.race.as_ref().unwrap();
    assert!(race.over());
    assert_eq!(race.world.tick, end, "it ends at the countdown, not later");
    let text = screen(&app);
    assert!(text.contains("DID NOT FINISH"), "{text}");
    let line = |start: &str| {
        let found = text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(start));
        found
            .unwrap_or_else(|| panic!("no {start} line:\n{text}"))
            .to_string()
    };
    assert!(line("P1 CPU 1").contains("FIN"), "{text}");
    assert!(line("P2 YOU").contains("DNF"), "{text}");
    assert!(!text.contains("ENDS IN"), "over: no countdown\n{text}");
    // Nothing moves after the end.
    let before = race.world.tick;
    for _ in 0..120 {
        tick(&mut app, &mut k);
    }
    assert_eq!(app.race.as_ref().unwrap().world.tick, before);
}

#[test]
fn a_player_who_finished_sees_the_order_change_as_the_others_come_in() {
    let (mut app, mut k) = finished_first(3);
    let first = screen(&app);
    assert!(first.contains("FINISHED 1st OF 4"), "{first}");
    assert!(first.contains("ENDS IN"), "{first}");
    let racing = |s: &str| s.lines().filter(|l| l.contains(" L1")).count();
    assert_eq!(racing(&first), 3, "three still racing:\n{first}");
    let mut seen = vec![first.clone()];
    while !app.race.as_ref().unwrap().over() {
        for _ in 0..120 {
            tick(&mut app, &mut k);
            // The player's car, done, pulls over and stops; it never
            // backs up (a brake held at a standstill would).
            let body = &app.race.as_ref().unwrap().world.cars[0].car.state.body;
            assert!(body.vel.dot(body.axes().0) > -0.1, "backing up at tick {k}");
        }
        seen.push(screen(&app));
    }
    let body = &app.race.as_ref().unwrap().world.cars[0].car.state.body;
    assert!(body.vel.length() < 0.5, "stopped: {}", body.vel.length());
    let last = seen.last().unwrap();
    assert!(
        seen.windows(2).filter(|w| w[0] != w[1]).count() >= 3,
        "the results change as the race goes on"
    );
    assert!(
        last.lines().filter(|l| l.contains("FIN")).count() >= 2,
        "{last}"
    );
    assert!(!last.contains("ENDS IN"), "{last}");
    assert_eq!(app.screen, Screen::Results);
}

#[test]
fn a_player_who_finished_follows_each_car_still_racing_with_v() {
    let (mut app, mut k) = finished_first(2);
    assert!(screen(&app).contains("v watch the others race"));
    for cpu in ["CPU 1", "CPU 2"] {
        app.command(Command::NextCar);
        let text = screen(&app);
        assert!(text.contains(&format!("watching {cpu}")), "{text}");
        // Its race, live: its lap, and the player as YOU, finished.
        assert!(text.contains("LAP   1/1"), "{text}");
        let you = text.lines().find(|l| l.contains(" YOU "));
        assert!(you.is_some_and(|l| l.contains("FIN")), "{text}");
        let before = car_at(&app, cpu);
        for _ in 0..120 {
            tick(&mut app, &mut k);
        }
        let after = car_at(&app, cpu);
        assert!(before.distance(after) > 1.0, "{cpu} drives on");
    }
    // After the last car, the results again.
    app.command(Command::NextCar);
    assert!(screen(&app).contains("FINISHED 1st OF 3"));
    // Watching when the race ends: the results, final.
    app.command(Command::NextCar);
    while !app.race.as_ref().unwrap().over() {
        tick(&mut app, &mut k);
    }
    let text = screen(&app);
    assert!(
        text.contains("FINISHED 1st OF 3") && !text.contains("watching"),
        "{text}"
    );
    app.command(Command::NextCar);
    assert!(!screen(&app).contains("watching"));
}

/// Where the car the screen calls `name` (`CPU n`) is.
fn car_at(app: &App, name: &str) -> glam::DVec2 {
    let race = app.race.as_ref().unwrap();
    let e = (race.world.cars.iter())
        .find(|e| race.name(e.id, Some(skid::app::LOCAL)) == name)
        .unwrap();
    e.car.state.body.pos
}

/// Over SSH, a racer's results at 80x24 show their keys whole beside the
/// chart (issue 27: the results drawn over by the chart).
#[test]
fn results_at_80x24_show_every_key_beside_the_chart() {
    let (mut app, _) = finished_first(0);
    assert_eq!(app.screen, Screen::Results);
    app.race.as_mut().unwrap().door = skid::race::session::Door::Served;
    let text = screen(&app);
    assert!(
        text.contains("r again") && text.contains("q leave"),
        "{text}"
    );
}

/// The results on the smallest screen the game draws, after a race with
/// seven rivals the player never drove in: the first places, the
/// player's own line and the keys (at 60x16 the list of eight ran off
/// the bottom, and the keys with it).
#[test]
fn the_smallest_screen_shows_your_place_and_the_keys() {
    // Oval: eight start slots, room for all seven.
    let mut app = App::new(Options {
        track: Some(("oval".into(), bundled::load_raceable("oval").unwrap())),
        model: Some(ModelKind::Arcade),
        laps: Some(1),
        hz: 120,
        opponents: 7,
        skill: 1.0,
        ..Options::default()
    });
    app.resize(80, 24);
    app.start_race();
    let mut k = 0;
    while app.screen == Screen::Race {
        tick(&mut app, &mut k);
        assert!(k < 120 * 200, "the race ends");
    }
    for (w, h) in [(60, 16), (60, 17), (70, 20), (80, 24)] {
        app.resize(w, h);
        let text = screen(&app);
        assert!(
            text.contains("OF 8") || text.contains("P8"),
            "{w}x{h}:\n{text}"
        );
        assert!(text.contains("P1 CPU"), "{w}x{h}:\n{text}");
        let you = text.lines().find(|l| l.contains(" YOU "));
        assert!(you.is_some_and(|l| l.contains("DNF")), "{w}x{h}:\n{text}");
        assert!(text.contains("Enter menu"), "{w}x{h}:\n{text}");
    }
}

/// Issue 51: a race nobody finishes ends. The player alone touches
/// nothing on a one-lap race of `pocket`: after 15 minutes (ten times
/// the author's 17 s lap is less) the race is over, the panel having
/// counted down its last 30 s, and the results show, no lap completed;
/// the lap's ghost kept no more than that time's samples.
#[test]
fn a_race_nobody_finishes_ends_after_fifteen_minutes() {
    let mut app = race(ModelKind::Kinematic, 0, 1.0, None);
    let limit = (skid::race::LONGEST_RACE * 120.0) as u64;
    let mut k = 0;
    let mut counted_down = false;
    while app.screen == Screen::Race {
        tick(&mut app, &mut k);
        // The start lights (3 s) come before the race's own ticks.
        assert!(k <= limit + 120 * 5, "still racing at tick {k}");
        if k == limit - 120 * 5 {
            counted_down = screen(&app).contains("ENDS IN");
        }
    }
    assert!(counted_down, "the last 30 s counted down");
    let race = app.race.as_ref().unwrap();
    assert!(race.over());
    assert_eq!(race.world.tick, limit, "over at its limit");
    let ghost = race.seats[&skid::race::world::FIRST].log.ghost.len() as u64;
    assert!(
        ghost <= limit / skid::race::timing::GHOST_EVERY + 1,
        "{ghost} samples"
    );
    let text = screen(&app);
    assert!(
        text.contains("RESULTS") && text.contains("no lap completed"),
        "{text}"
    );
}

/// Issue 50: at 80x24 `grandprix` (larger than the view) showed its
/// minimap alone, and none with three rivals: their standings took its
/// rows. Now the standings give way to it, down to the player's line.
#[test]
fn the_minimap_shows_with_rivals_at_80x24() {
    let minimap_rows = |opponents: usize| {
        let mut app = App::new(Options {
            track: Some((
                "grandprix".into(),
                bundled::load_raceable("grandprix").unwrap(),
            )),
            model: Some(ModelKind::Arcade),
            hz: 120,
            opponents,
            ..Options::default()
        });
        app.resize(80, 24);
        app.start_race();
        let mut k = 0;
        for _ in 0..120 {
            tick(&mut app, &mut k);
        }
        // Braille in the panel, below its figures: the minimap.
        let text = screen(&app);
        let rows = text.lines().skip(14).filter(|l| {
            l.chars()
                .skip(57)
                .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c))
        });
        (rows.count(), text)
    };
    let (alone, text) = minimap_rows(0);
    assert!(alone >= 2, "no minimap alone:\n{text}");
    let (with_rivals, text) = minimap_rows(3);
    assert!(with_rivals >= 2, "no minimap with rivals:\n{text}");
    assert!(text.contains("YOU"), "the player's standing:\n{text}");
}
