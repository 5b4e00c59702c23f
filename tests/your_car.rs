//! Finding your own car at a glance (issue 27): on every bundled track at
//! 80x24, with and without colour, the screen shows exactly one of the
//! eight arrows, on your car, pointing within an eighth of a turn of its
//! heading, in reverse video; rivals and other people's names show none.

use std::f64::consts::{FRAC_PI_4, TAU};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use skid::app::{App, LOCAL, Options};
use skid::physics::ModelKind;
use skid::track::bundled;

const ARROWS: [char; 8] = ['→', '↘', '↓', '↙', '←', '↖', '↑', '↗'];

/// The screen of `app` at its size.
fn screen(app: &App) -> Buffer {
    let (w, h) = app.session.size;
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| skid::app::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

/// Every arrow on the screen: where, which way (radians, as a heading)
/// and whether it is drawn in reverse video.
fn arrows(buf: &Buffer) -> Vec<((u16, u16), f64, bool)> {
    let mut found = Vec::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            let Some(c) = cell.symbol().chars().next() else {
                continue;
            };
            if let Some(k) = ARROWS.iter().position(|&a| a == c) {
                let reversed = cell.modifier.contains(Modifier::REVERSED);
                found.push(((x, y), k as f64 * FRAC_PI_4, reversed));
            }
        }
    }
    found
}

/// The angle between two headings, 0 to pi.
fn apart(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

#[test]
fn your_car_alone_carries_an_arrow_along_its_heading() {
    let headings = [0.0, 0.5, 1.3, 2.2, 3.0, -2.6, -1.7, -0.8];
    for (name, _) in bundled::TRACKS {
        for color in [true, false] {
            let mut app = App::new(Options {
                track: Some((name.to_string(), bundled::load_raceable(name).unwrap())),
                model: Some(ModelKind::Arcade),
                hz: 120,
                color,
                opponents: 3,
                skill: 1.0,
                rivals: skid::race::medals::Medal::Author,
                ..Options::default()
            });
            app.resize(80, 24);
            app.start_race();
            // Into the race: the rivals drive off, the camera follows.
            for tick in 0..600 {
                app.tick(f64::from(tick) / 120.0);
            }
            for &h in &headings {
                let race = app.race.as_mut().unwrap();
                race.world.car_mut(LOCAL).unwrap().car.state.body.heading = h;
                let found = arrows(&screen(&app));
                let what = format!("{name}, heading {h}, colour {color}");
                assert_eq!(found.len(), 1, "{what}: {found:?}");
                let (_, pointing, reversed) = found[0];
                assert!(apart(pointing, h) <= FRAC_PI_4, "{what}: {found:?}");
                assert!(reversed, "{what}: not in reverse video");
            }
        }
    }
}

#[test]
fn the_arrow_stands_on_your_cars_cell() {
    let mut app = App::new(Options {
        track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
        model: Some(ModelKind::Tire),
        hz: 120,
        ..Options::default()
    });
    app.resize(80, 24);
    app.start_race();
    let before = arrows(&screen(&app));
    // Drive a few metres east: the arrow moves with the car.
    let race = app.race.as_mut().unwrap();
    race.world.car_mut(LOCAL).unwrap().car.state.body.pos.x += 8.0;
    let after = arrows(&screen(&app));
    assert_eq!((before.len(), after.len()), (1, 1));
    let ((x0, y0), ..) = before[0];
    let ((x1, y1), ..) = after[0];
    // Pocket is drawn a cell per 2 m: 8 m east is 4 columns.
    assert_eq!((x1 - x0, y1), (4, y0));
}
