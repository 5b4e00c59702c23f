//! Frame build time: drawing the race screen (braille track, car, panel)
//! into a buffer at 80x24 and 160x48 (through ratatui's `Terminal`, as
//! `skid render` does), and a whole frame as the game and the server send
//! it (`console::Frames`: diff and escape codes) into memory.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Size;
use skid::app::{App, Options};
use skid::console::Frames;
use skid::game::draw_frame;
use skid::physics::ModelKind;
use skid::script::Script;
use skid::track::bundled;
use skid::ui;

fn racing(size: (u16, u16)) -> App {
    let path = "tests/golden/tire.toml";
    let script = Script::parse(path, &std::fs::read_to_string(path).unwrap()).unwrap();
    let mut app = App::new(Options {
        track: Some((
            "hairpins".into(),
            bundled::load_raceable("hairpins").unwrap(),
        )),
        model: Some(ModelKind::Tire),
        hz: 120,
        replay: Some(script),
        ..Options::default()
    });
    app.resize(size.0, size.1);
    app.start_race();
    for _ in 0..(360 + 400) {
        app.tick(0.0);
    }
    app
}

fn bench(c: &mut Criterion) {
    for size in [(80, 24), (160, 48)] {
        let app = racing(size);
        let mut terminal = Terminal::new(TestBackend::new(size.0, size.1)).unwrap();
        c.bench_function(&format!("build frame {}x{}", size.0, size.1), |b| {
            b.iter(|| terminal.draw(|f| ui::draw(f, &app)).map(|_| ()).unwrap());
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

criterion_group!(benches, bench);
criterion_main!(benches);
