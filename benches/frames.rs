//! Frame build time: drawing the race screen (braille track, car, panel)
//! into a buffer at 80x24 and 160x48, and a whole frame through the
//! crossterm backend (diff and escape codes) into memory.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::backend::{CrosstermBackend, TestBackend};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use skid::app::{App, Options};
use skid::game::{FrameWriter, draw_frame};
use skid::physics::ModelKind;
use skid::script::Script;
use skid::track::bundled;
use skid::ui;

fn racing(size: (u16, u16)) -> App {
    let path = "tests/golden/tire.toml";
    let script = Script::parse(path, &std::fs::read_to_string(path).unwrap()).unwrap();
    let mut app = App::new(Options {
        track: Some(("hairpins".into(), bundled::load("hairpins").unwrap())),
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
            b.iter(|| terminal.draw(|f| ui::draw(f, &app)).map(|_| ()).unwrap())
        });
        let (writer, wire) = FrameWriter::new(std::io::sink());
        // A fixed viewport: no terminal to ask for its size.
        let viewport = Viewport::Fixed(Rect::new(0, 0, size.0, size.1));
        let mut terminal =
            Terminal::with_options(CrosstermBackend::new(writer), TerminalOptions { viewport })
                .unwrap();
        let mut app = app;
        c.bench_function(&format!("frame to the wire {}x{}", size.0, size.1), |b| {
            b.iter(|| {
                app.tick(0.0);
                draw_frame(&mut terminal, &wire, &app).unwrap()
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
