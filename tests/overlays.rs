//! Overlays keep off the road ahead: for the five seconds after a lap
//! (but the last, which the results follow), when the lap chart and the
//! lap banner are up, no overlay character is drawn on the car or on the
//! racing line the car will drive in the next two seconds, on every
//! bundled track at 80x24 and at 160x48.

mod common;

use ratatui::layout::Rect;
use skid::app::{App, LOCAL, Options};
use skid::physics::ModelKind;
use skid::track::bundled;
use skid::ui;

/// The screen's characters, row by row.
fn cells(app: &App) -> Vec<Vec<char>> {
    let buf = common::drawn(app);
    let (w, h) = app.session.size;
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().chars().next().unwrap_or(' '))
                .collect()
        })
        .collect()
}

/// Whether an overlay could have drawn `c`: a box's frame or a letter.
fn overlay_char(c: char) -> bool {
    "─│┌┐└┘".contains(c) || c.is_ascii_alphabetic()
}

#[test]
fn no_overlay_covers_the_road_two_seconds_ahead() {
    for &(name, _) in bundled::TRACKS {
        let laps = 2;
        let script = common::computer_run(name, ModelKind::Kinematic, Some(laps));
        for size in [(80, 24), (160, 48)] {
            let mut app = App::new(Options {
                track: Some((name.into(), bundled::load_raceable(name).unwrap())),
                model: Some(ModelKind::Kinematic),
                laps: Some(laps),
                hz: 120,
                replay: Some(script.clone()),
                ..Options::default()
            });
            app.resize(size.0, size.1);
            app.start_race();
            let mut k = 0u64;
            let mut checked = 0;
            while app.screen == skid::app::Screen::Race {
                k += 1;
                app.tick(k as f64 / 120.0);
                let Some(race) = app.race.as_ref() else { break };
                let v = race.view(LOCAL).unwrap();
                // Once the car has finished, the results are up: no road
                // is ahead of it any more.
                let fresh = v.fresh_lap().is_some() && !v.finished();
                if !fresh || !k.is_multiple_of(15) {
                    continue;
                }
                let (view, _) = skid::race::layout::race_areas(Rect::new(0, 0, size.0, size.1));
                let cam = ui::track::camera(v, view);
                let track = &race.world.track;
                let e = race.world.car(LOCAL).unwrap();
                let body = &e.car.state.body;
                let metres = (body.vel.length() * 2.0).max(10.0);
                let n = race.line.points.len();
                let steps = (metres / skid::ai::line::SPACING) as usize;
                let screen = cells(&app);
                let points = std::iter::once(body.pos)
                    .chain((0..=steps).map(|s| race.line.points[(e.along + s) % n]));
                for p in points {
                    let (x, y) = (cam.col_of(track, p), cam.row_of(track, p));
                    if x < 0 || y < 0 || x >= i64::from(view.width) || y >= i64::from(view.height) {
                        continue;
                    }
                    let c =
                        screen[(y + i64::from(view.y)) as usize][(x + i64::from(view.x)) as usize];
                    assert!(
                        !overlay_char(c),
                        "{name} at {size:?}, tick {k}: {c:?} over the road ahead at ({x}, {y})\n{}",
                        screen
                            .iter()
                            .map(|r| r.iter().collect::<String>())
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                }
                checked += 1;
            }
            assert!(checked > 0, "{name} {size:?}: a lap's overlays were seen");
        }
    }
}
