//! What frames cost on the wire, and that drawing never touches the race.
//! Deterministic: a replayed script, a frame every fourth tick (30 fps at
//! 120 Hz), the real crossterm backend writing into memory.

mod common;

use ratatui::layout::Size;
use skid::app::game::draw_frame;
use skid::app::{App, LOCAL, Options};
use skid::console::Frames;
use skid::console::Sink;
use skid::physics::ModelKind;
use skid::race::script::Script;
use skid::race::world::World;
use skid::track::bundled;

fn script(model: ModelKind) -> Script {
    let path = format!("tests/golden/{}.toml", model.name());
    Script::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn app(track: &str, model: ModelKind, size: (u16, u16), replay: Script) -> App {
    let mut app = App::new(Options {
        track: Some((track.into(), bundled::load_raceable(track).unwrap())),
        model: Some(model),
        hz: 120,
        replay: Some(replay),
        ..Options::default()
    });
    app.resize(size.0, size.1);
    app.start_race();
    app
}

/// Plays the model's golden script, drawing every `every` ticks; returns
/// the bytes of each frame drawn while racing (the countdown's are left
/// out) and the app at the end.
fn play(track: &str, model: ModelKind, size: (u16, u16), every: u64) -> (Vec<Vec<u8>>, App) {
    replay(track, model, size, every, script(model))
}

/// Whether the replay in `app`'s race has run out.
fn replay_done(app: &App) -> bool {
    (app.race.as_ref())
        .and_then(|r| r.view(LOCAL))
        .is_none_or(|v| v.replay_done())
}

/// [`play`] with the script `script`.
fn replay(
    track: &str,
    model: ModelKind,
    size: (u16, u16),
    every: u64,
    script: Script,
) -> (Vec<Vec<u8>>, App) {
    let mut app = app(track, model, size, script);
    let tap = Sink::default();
    let (mut screen, _) = Frames::new(tap.clone(), Size::new(size.0, size.1));
    let mut frames = Vec::new();
    let mut n = 0u64;
    while !replay_done(&app) {
        app.tick(0.0);
        n += 1;
        if n.is_multiple_of(every) {
            draw_frame(&mut screen, &app).unwrap();
            let frame = tap.take();
            if app.race.as_ref().unwrap().world.tick > 0 {
                frames.push(frame);
            }
        }
    }
    (frames, app)
}

/// Bytes a frame, on average.
fn mean_bytes(frames: &[Vec<u8>]) -> f64 {
    frames.iter().map(Vec::len).sum::<usize>() as f64 / frames.len() as f64
}

#[test]
fn frames_at_80x24_cost_under_600_bytes_on_average() {
    for (track, model) in [
        ("pocket", ModelKind::Arcade),
        ("hairpins", ModelKind::Dynamic),
        ("grandprix", ModelKind::Tire),
    ] {
        let (frames, _) = play(track, model, (80, 24), 4);
        let mean = mean_bytes(&frames);
        assert!(mean <= 600.0, "{track}/{model}: {mean:.0} bytes a frame");
        eprintln!(
            "{track}/{model}: {} frames, {mean:.0} bytes a frame",
            frames.len()
        );
    }
}

/// A lap at racing speed, the computer's, on a track the camera follows
/// at 80x24: 30 frames a second of it cost at most 4 KB a second (the
/// server's budget for a player, docs/SERVE.md).
#[test]
fn a_lap_at_racing_speed_costs_at_most_4_kb_a_second() {
    for (track, model) in [
        ("oval", ModelKind::Arcade),
        ("hairpins", ModelKind::Dynamic),
        ("grandprix", ModelKind::Tire),
    ] {
        let lap = common::computer_run(track, model, Some(1));
        let (frames, _) = replay(track, model, (80, 24), 4, lap);
        let per_second = mean_bytes(&frames) * 30.0;
        eprintln!(
            "{track}/{model}: {} frames, {per_second:.0} B/s",
            frames.len()
        );
        assert!(per_second <= 4000.0, "{track}/{model}: {per_second:.0} B/s");
    }
}

/// The panel's figures change ten times a second, not in every frame:
/// a second of the golden `arcade` lap drawn at every tick shows ten
/// lap clocks (and as few readings of the revs), each for 12 ticks.
#[test]
fn the_panels_figures_change_ten_times_a_second() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    let mut app = app(
        "pocket",
        ModelKind::Arcade,
        (80, 24),
        script(ModelKind::Arcade),
    );
    while app.race.as_ref().unwrap().world.tick < 240 {
        app.tick(0.0);
    }
    let line = |text: &str, label: &str| -> String {
        let line = text.lines().find(|l| l.contains(label)).unwrap_or("");
        line[line.find(label).unwrap_or(0)..].to_string()
    };
    let (mut clocks, mut revs) = (Vec::new(), Vec::new());
    for _ in 0..120 {
        app.tick(0.0);
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        t.draw(|f| skid::app::draw(f, &app)).unwrap();
        let text = skid::ui::buffer_text(t.backend().buffer());
        clocks.push(line(&text, "TIME"));
        revs.push(line(&text, "RPM"));
    }
    let changes = |v: &[String]| v.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(changes(&clocks), 10, "{clocks:?}");
    assert!(changes(&revs) <= 10, "{revs:?}");
    assert!(changes(&revs) >= 5, "the revs move: {revs:?}");
}

#[test]
fn each_frame_is_one_synchronized_update() {
    let (frames, _) = play("pocket", ModelKind::Tire, (80, 24), 4);
    for f in &frames {
        let text = String::from_utf8_lossy(f);
        assert!(text.starts_with("\u{1b}[?2026h"), "begins the update");
        assert!(text.ends_with("\u{1b}[?2026l"), "ends it");
        assert_eq!(text.matches("\u{1b}[?2026h").count(), 1);
    }
}

#[test]
fn drawing_size_and_frame_rate_never_enter_the_physics() {
    let model = ModelKind::Dynamic;
    let (_, a) = play("pocket", model, (80, 24), 4);
    let (_, b) = play("pocket", model, (160, 48), 1);
    let (_, c) = play("pocket", model, (61, 17), 13);
    // The same script through the bare step loop of `skid sim`.
    let mut sim = World::new(
        bundled::load("pocket").unwrap(),
        skid::physics::car::CarSpec::default_for(model),
        model,
        120,
    );
    for controls in script(model).controls() {
        sim.drive(&controls);
    }
    for app in [&a, &b, &c] {
        let race = app.race.as_ref().unwrap();
        assert_eq!(race.world.tick, sim.tick);
        assert_eq!(race.world.cars[0].car.state, sim.cars[0].car.state);
    }
}

/// What a terminal shows, a line a row with trailing blanks cut, and
/// what a frame painted from nothing shows, for `paint`.
fn shown_and_fresh(
    term: &vt100::Parser,
    size: (u16, u16),
    paint: impl FnOnce(&mut ratatui::buffer::Buffer, ratatui::layout::Rect),
) -> (String, String) {
    let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
    let mut fresh = ratatui::buffer::Buffer::empty(area);
    paint(&mut fresh, area);
    let lines = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let shown = term.screen().rows(0, size.0).collect::<Vec<_>>().join("\n");
    (lines(&shown), lines(&ui_text(&fresh)))
}

fn ui_text(buf: &ratatui::buffer::Buffer) -> String {
    skid::ui::buffer_text(buf)
}

/// Skid marks are painted once and kept, only those added since the
/// frame before painted again: a terminal fed the frames shows what a
/// frame painted from nothing shows, every frame, through a trail so
/// long that its oldest marks were let go (twice).
#[test]
fn a_terminal_shows_the_skid_marks_a_fresh_frame_shows() {
    let text = "[[hold]]\nticks = 120\nthrottle = 1.0\n\
                [[hold]]\nticks = 5000\nthrottle = 1.0\nsteer = 1.0\nhandbrake = true\n\
                [[hold]]\nticks = 200\nthrottle = 1.0\nsteer = -0.5\n";
    let script = Script::parse("doughnuts", text).unwrap();
    let size = (80, 24);
    let mut app = app("oval", ModelKind::Dynamic, size, script);
    let tap = Sink::default();
    let (mut screen, _) = Frames::new(tap.clone(), Size::new(size.0, size.1));
    let nz = |n| std::num::NonZeroU16::new(n).unwrap();
    let mut term = vt100::Parser::new(nz(size.1), nz(size.0), 0);
    let (mut n, mut stems, mut most) = (0u64, Vec::new(), 0);
    while !replay_done(&app) {
        app.tick(0.0);
        n += 1;
        if !n.is_multiple_of(4) {
            continue;
        }
        draw_frame(&mut screen, &app).unwrap();
        term.process(&tap.take());
        let (shown, fresh) = shown_and_fresh(&term, size, |buf, area| {
            skid::app::paint(buf, area, &app, &skid::console::damage::Damage::All);
        });
        assert_eq!(shown, fresh, "tick {n}");
        let skids = &app.race.as_ref().unwrap().view(LOCAL).unwrap().seat.skids;
        most = most.max(skids.len());
        if stems.last() != Some(&skids.stem()) {
            stems.push(skids.stem());
        }
    }
    assert_eq!(most, skid::race::SKIDS, "the trail filled");
    assert!(stems.len() >= 3, "marks let go twice: {stems:?}");
}

/// Someone watching one car and then another, frame after frame, on the
/// same ground: each car's own skid marks, never the other's left over.
#[test]
fn watching_cars_in_turn_shows_each_ones_own_skid_marks() {
    let size = (80, 24);
    let mut app = App::new(Options {
        track: Some(("oval".into(), bundled::load_raceable("oval").unwrap())),
        model: Some(ModelKind::Dynamic),
        hz: 120,
        opponents: 2,
        ..Options::default()
    });
    app.resize(size.0, size.1);
    app.start_race();
    app.tick(0.0);
    let race = app.race.as_mut().unwrap();
    let cars: Vec<_> = race.seats.keys().copied().collect();
    // Each car's marks along a line of its own across the grid.
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for seat in race.seats.values_mut() {
        let at = race.world.car(seat.car).unwrap().car.state.body.pos;
        let dir = glam::DVec2::new(next() - 0.5, next() - 0.5).normalize_or_zero();
        for k in 0..400 {
            seat.skids.push(at + dir * (f64::from(k) * 0.1));
        }
    }
    let tap = Sink::default();
    let (mut screen, _) = Frames::new(tap.clone(), Size::new(size.0, size.1));
    let nz = |n| std::num::NonZeroU16::new(n).unwrap();
    let mut term = vt100::Parser::new(nz(size.1), nz(size.0), 0);
    let race = app.race.as_ref().unwrap();
    // One camera for all, as a watcher's own: the same ground under each.
    let camera = race.seats[&skid::race::world::FIRST].camera;
    assert!(camera.is_some());
    let paint =
        |buf: &mut ratatui::buffer::Buffer, area, c, before: &skid::console::damage::Damage| {
            let v = race.view(c).unwrap().watched_by(None, camera);
            skid::ui::race_screen(buf, area, v, false, true, before)
        };
    for turn in 0..12 {
        let c = cars[turn % cars.len()];
        screen
            .frame(|buf, area, before| paint(buf, area, c, before))
            .unwrap();
        term.process(&tap.take());
        let (shown, fresh) = shown_and_fresh(&term, size, |buf, area| {
            paint(buf, area, c, &skid::console::damage::Damage::All);
        });
        assert_eq!(shown, fresh, "turn {turn}, car {c:?}");
    }
}

/// A camera that moved repaints and compares the track's view, not the
/// panel beside it, whose lines are what they were.
#[test]
fn a_camera_that_moved_leaves_the_panel_as_it_was() {
    let size = (80, 24);
    let mut app = app(
        "grandprix",
        ModelKind::Dynamic,
        size,
        script(ModelKind::Dynamic),
    );
    for _ in 0..(360 + 200) {
        app.tick(0.0);
    }
    let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
    let (view, panel) = skid::race::layout::race_areas(area);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let paint = |app: &App, buf: &mut ratatui::buffer::Buffer, before| {
        skid::ui::race_screen(
            buf,
            area,
            app.race.as_ref().unwrap().view(LOCAL).unwrap(),
            false,
            true,
            before,
        )
    };
    let first = paint(&app, &mut buf, &skid::console::damage::Damage::All);
    let second = paint(&app, &mut buf, &first);
    let still = paint(&app, &mut buf, &second);
    let mask = still.mask(&second, area).expect("the same screen");
    assert!(mask.iter().filter(|&&m| m).count() < 50, "nothing moved");
    let camera = (app
        .race
        .as_mut()
        .unwrap()
        .seats
        .get_mut(&skid::race::world::FIRST))
    .unwrap()
    .camera
    .as_mut()
    .unwrap();
    camera.origin.0 += 3;
    let moved = paint(&app, &mut buf, &still);
    let mask = moved.mask(&still, area).expect("the same screen");
    let marked = |r: ratatui::layout::Rect| {
        r.positions()
            .filter(|p| mask[usize::from(p.y) * usize::from(size.0) + usize::from(p.x)])
            .count()
    };
    assert_eq!(
        marked(view),
        usize::from(view.width * view.height),
        "the view"
    );
    assert_eq!(marked(panel), 0, "the panel");
    let mut fresh = ratatui::buffer::Buffer::empty(area);
    paint(&app, &mut fresh, &skid::console::damage::Damage::All);
    assert_eq!(buf, fresh);
}
