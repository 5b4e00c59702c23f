//! Frame build time: drawing the race screen (braille track, car, panel)
//! into a buffer at 80x24 and 160x48 (through ratatui's `Terminal`, as
//! `skid render` does), and a whole frame as the game and the server send
//! it (`console::Frames`: diff and escape codes) into memory.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Size;
use skid::app::game::draw_frame;
use skid::app::{App, Options};
use skid::console::Frames;
use skid::physics::ModelKind;
use skid::race::script::Script;
use skid::track::bundled;

/// A race on `track` in `model` at `size`, `script` replayed for
/// `ticks` after the countdown, against `opponents` computer cars.
fn racing_with(
    size: (u16, u16),
    track: &str,
    model: ModelKind,
    script: Script,
    ticks: u64,
    opponents: usize,
) -> App {
    let mut app = App::new(Options {
        track: Some((track.into(), bundled::load_raceable(track).unwrap())),
        model: Some(model),
        hz: 120,
        replay: Some(script),
        opponents,
        skill: 1.0,
        ..Options::default()
    });
    app.resize(size.0, size.1);
    app.start_race();
    for _ in 0..(360 + ticks) {
        app.tick(0.0);
    }
    app
}

/// [`racing_with`] alone.
fn racing(size: (u16, u16), track: &str, model: ModelKind, script: Script, ticks: u64) -> App {
    racing_with(size, track, model, script, ticks, 0)
}

/// The golden `tire` lap on `hairpins`, 400 ticks in.
fn golden(size: (u16, u16)) -> App {
    let path = "tests/golden/tire.toml";
    let script = Script::parse(path, &std::fs::read_to_string(path).unwrap()).unwrap();
    racing(size, "hairpins", ModelKind::Tire, script, 400)
}

/// Doughnuts in `dynamic` on `oval`'s infield side, the handbrake kept:
/// a car sliding all the time, its skid marks as many as a seat keeps.
fn sliding() -> App {
    let text = "[[hold]]\nticks = 120\nthrottle = 1.0\n\
                [[hold]]\nticks = 100000\nthrottle = 1.0\nsteer = 1.0\nhandbrake = true\n";
    let script = Script::parse("doughnuts", text).unwrap();
    racing((80, 24), "oval", ModelKind::Dynamic, script, 1200)
}

fn bench(c: &mut Criterion) {
    for size in [(80, 24), (160, 48)] {
        let app = golden(size);
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        c.bench_function(&format!("build frame {}x{}", size.0, size.1), |b| {
            b.iter(|| {
                terminal.draw(|f| skid::app::draw(f, &app)).unwrap();
            });
        });
        let (mut frames, _) = Frames::new(std::io::sink(), Size::new(size.0, size.1));
        let mut app = app;
        c.bench_function(&format!("frame to the wire {}x{}", size.0, size.1), |b| {
            b.iter(|| {
                app.tick(0.0);
                draw_frame(&mut frames, &app).unwrap();
            });
        });
    }
}

/// A frame of a car sliding with its skid marks, after the frame before
/// (the camera still): what a server draws for a player sliding. The
/// seat's marks are as many as it keeps, spread over the view as a lap's
/// would be, and the car adds more each tick.
fn skid_marks(c: &mut Criterion) {
    let mut app = sliding();
    let race = app.race.as_mut().unwrap();
    let cell = race.world.track.cell_size();
    let seat = race.seats.get_mut(&skid::race::world::FIRST).unwrap();
    let cam = seat.camera.unwrap();
    let z = f64::from(cam.zoom);
    let (x0, y0) = (cam.origin.0 as f64 * cell.x, cam.origin.1 as f64 * cell.y);
    let (w, h) = (
        f64::from(cam.view.0) * cell.x / z,
        f64::from(cam.view.1) * cell.y / z,
    );
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    // Four wheels' trails along a wandering line, 225 m, turned back at
    // the view's edges.
    let (mut at, mut heading) = (glam::DVec2::new(x0 + w / 2.0, y0 + h / 2.0), 0.0f64);
    for _ in 0..750 {
        heading += (next() - 0.5) * 0.1;
        let fwd = glam::DVec2::new(heading.cos(), heading.sin());
        at += fwd * 0.3;
        if at.x < x0 || at.x > x0 + w || at.y < y0 || at.y > y0 + h {
            heading += std::f64::consts::PI;
            at = at.clamp(glam::DVec2::new(x0, y0), glam::DVec2::new(x0 + w, y0 + h));
        }
        let side = fwd.perp() * 0.8;
        for wheel in [
            at + fwd + side,
            at + fwd - side,
            at - fwd + side,
            at - fwd - side,
        ] {
            seat.skids.push(wheel);
        }
    }
    let (mut frames, _) = Frames::new(std::io::sink(), Size::new(80, 24));
    c.bench_function("frame to the wire 80x24 sliding", |b| {
        b.iter(|| {
            app.tick(0.0);
            draw_frame(&mut frames, &app).unwrap();
        });
    });
}

/// A frame after the camera moved (every frame here, a cell left and
/// right in turn): the whole track view painted and compared, as a
/// server does for each player whose camera jumps.
fn camera_moved(c: &mut Criterion) {
    let mut app = golden((80, 24));
    let (mut frames, _) = Frames::new(std::io::sink(), Size::new(80, 24));
    let mut step = 1;
    c.bench_function("frame to the wire 80x24 camera moved", |b| {
        b.iter(|| {
            let seat = app
                .race
                .as_mut()
                .unwrap()
                .seats
                .get_mut(&skid::race::world::FIRST)
                .unwrap();
            if let Some(cam) = seat.camera.as_mut() {
                cam.origin.0 += step;
                step = -step;
            }
            draw_frame(&mut frames, &app).unwrap();
        });
    });
}

/// A frame in a room of eight: seven computer cars in the pack around
/// the player on `oval`, the standings' lines in the panel, what a server
/// draws for each of the room's players. Each frame comes 4 ticks after
/// the one before (30 frames a second at 120 Hz), from 2 s into the race
/// to 12 s, then again from 2 s: only the frames are timed.
fn pack(c: &mut Criterion) {
    let gas = || Script::parse("gas", "[[hold]]\nticks = 100000\nthrottle = 1.0\n").unwrap();
    let start = || racing_with((80, 24), "oval", ModelKind::Arcade, gas(), 240, 7);
    let (mut app, mut ticks) = (start(), 0);
    let (mut frames, _) = Frames::new(std::io::sink(), Size::new(80, 24));
    c.bench_function("frame to the wire 80x24 among 7 rivals", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                if ticks >= 1200 {
                    (app, ticks) = (start(), 0);
                }
                for _ in 0..4 {
                    app.tick(0.0);
                }
                ticks += 4;
                let t0 = Instant::now();
                draw_frame(&mut frames, &app).unwrap();
                spent += t0.elapsed();
            }
            spent
        });
    });
}

criterion_group!(benches, bench, skid_marks, camera_moved, pack);
criterion_main!(benches);
