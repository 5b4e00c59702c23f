//! The command line (docs/DESIGN.md, "Command line"), built with clap.
//!
//! Each command returns `Err(`[`Diagnostics`]`)` for bad input: `main`
//! prints them one per line on stderr and exits with status 2 (0 on
//! success; nothing exits 1, and a bug's panic exits 101).

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::ai::Driver;
use crate::app::game::{self, Settings};
use crate::app::term;
use crate::app::{App, LOCAL, Options};
use crate::base::diag::{self, Diagnostic, Diagnostics};
use crate::physics::ModelKind;
use crate::physics::car::CarSpec;
use crate::race::records::{self, Record, Store};
use crate::race::script::Script;
use crate::race::timing::LapLog;
use crate::race::world::{FIRST, Source, TRACE_HEADER, World};
use crate::track::{self, Raceable, bundled};
use crate::ui;

mod args;
pub mod edit;
mod generate;
mod listings;
use listings::{cars, tracks};
mod load;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "serve")]
mod shelf;
pub use args::{Cli, Difficulty, DriverArg, Play, RaceArgs, Verb};
pub use load::{load_car, load_raceable, load_track};

/// What a command comes to: done, or the errors to print (exit status 2).
pub type Outcome = Result<(), Diagnostics>;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = match cli.command {
        None => play(Play {
            setup: RaceArgs::default(),
            laps: None,
            replay: None,
            quit_at_end: false,
            record: None,
            game: cli.game,
            opponents: 0,
            menu: true,
        }),
        Some(Verb::Play(p)) => play(p),
        Some(Verb::Render {
            setup,
            inputs,
            size,
            tick,
            hz,
        }) => render(&setup, &inputs, size, tick, hz),
        #[cfg(feature = "serve")]
        Some(Verb::Tracks { players, .. }) if players.database.is_some() => {
            shelf::operate(&players)
        }
        Some(Verb::Tracks {
            model,
            car,
            data_dir,
            ..
        }) => tracks(model, car, data_dir.as_deref()),
        #[cfg(feature = "serve")]
        Some(Verb::Serve(s)) => serve::serve(s),
        Some(Verb::Check { files }) => check(&files),
        Some(Verb::Edit { file }) => edit::edit(file.as_deref(), colour()),
        Some(Verb::Generate(g)) => generate::asked(g),
        Some(Verb::Cars { show }) => cars(show.as_deref()),
        Some(Verb::Records(r)) => listings::asked(r),
        Some(Verb::Sim {
            setup,
            inputs,
            driver,
            skill,
            max_ticks,
            save,
            data_dir,
            hz,
            every,
        }) => match save.then(|| store(data_dir.as_deref())).transpose() {
            Ok(store) => sim(
                &setup,
                inputs.as_deref(),
                driver,
                skill,
                max_ticks,
                store,
                hz,
                every,
            ),
            Err(e) => Err(e),
        },
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(errors) => {
            let _ = writeln!(std::io::stderr().lock(), "{errors}");
            ExitCode::from(2)
        }
    }
}

/// The track `--track` names, or `--daily` stands for.
fn track_or_daily(track: Option<String>, daily: Option<String>) -> Option<String> {
    daily.as_deref().map(daily_track).or(track)
}

/// The track name `--daily` stands for (`daily`, or `daily:DATE`).
fn daily_track(daily: &str) -> String {
    if daily == "today" {
        "daily".to_string()
    } else {
        format!("daily:{daily}")
    }
}

impl RaceArgs {
    /// The track asked for, by `--track` or `--daily`.
    pub fn track_name(&self) -> String {
        self.daily
            .as_deref()
            .map_or_else(|| self.track.clone(), daily_track)
    }

    /// The track, car and model the options name. With no model the car's
    /// own is used; with no car, the model's preset.
    pub fn resolve(&self) -> Result<(Raceable, CarSpec, ModelKind), Diagnostics> {
        let track = load_raceable(&self.track_name());
        let (spec, kind) = match (&self.car, self.model) {
            (Some(c), model) => load_car(c).map(|spec| {
                let kind = model.unwrap_or(spec.model);
                (spec, kind)
            }),
            (None, Some(m)) => Ok((CarSpec::default_for(m), m)),
            (None, None) => Ok((CarSpec::default_for(ModelKind::Arcade), ModelKind::Arcade)),
        }?;
        Ok((track?, spec, kind))
    }
}

/// Reads and validates an input script.
fn load_script(path: &str) -> Result<Script, Diagnostics> {
    load_recording(path).map(|(script, _)| script)
}

/// Reads and validates an input script, with the race its first line
/// says it was recorded in, if it says ([`crate::race::script::recorded_as`]).
fn load_recording(path: &str) -> Result<(Script, Option<String>), Diagnostics> {
    let bytes = diag::read_file(path)?;
    let text = diag::utf8(path, &bytes)?;
    let about = crate::race::script::recorded_as(text).map(str::to_string);
    Ok((Script::parse(path, text)?, about))
}

/// A recording replayed in another race than its first line names drives
/// something else: refused, saying which options to give.
fn same_race(path: &str, recorded: &str, now: &str) -> Result<(), Diagnostics> {
    if recorded == now {
        return Ok(());
    }
    let levels: Vec<String> = Difficulty::value_variants()
        .iter()
        .filter_map(|d| {
            Some(format!(
                "{} {}",
                d.to_possible_value()?.get_name(),
                d.skill()
            ))
        })
        .collect();
    let message = format!(
        "recorded in {recorded}; this replay would be {now}. Give the options it \
         was recorded with (skill: --difficulty {}), or delete this line to replay it anyway",
        levels.join(", ")
    );
    Err(Diagnostics::from(Diagnostic::at(
        path,
        diag::Pos { line: 1, col: 1 },
        message,
    )))
}

/// Whether colour is wanted: not when `NO_COLOR` is set (no-color.org).
fn colour() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The game's options from the command line's.
fn game_options(
    setup: &RaceArgs,
    laps: Option<u32>,
    hz: u32,
    replay: Option<Script>,
) -> Result<Options, Diagnostics> {
    let (track, spec, kind) = setup.resolve()?;
    Ok(Options {
        records: None,
        opponents: 0,
        skill: 1.0,
        rivals: crate::race::medals::Medal::Author,
        track: Some((load::choice_name(&setup.track_name(), &track), track)),
        model: Some(kind),
        car: setup.car.clone().map(|c| (c, spec)),
        laps,
        hz,
        replay,
        color: colour(),
        background: false,
        today: None,
    })
}

/// The game in this terminal, and the editor whenever the title menu
/// asks for it (the game again after it, at the menu), until the player
/// quits; the terminal given back before it returns. The stats are the
/// last game's.
fn in_terminal(
    app: &mut App,
    settings: &Settings,
    mut recorder: Option<&mut crate::race::script::Recorder>,
) -> std::io::Result<game::Stats> {
    let mut console = term::Local::enter()?;
    loop {
        let stats = game::run(&mut console, app, settings, recorder.as_deref_mut())?;
        if !std::mem::take(&mut app.editor_asked) {
            return Ok(stats);
        }
        crate::app::edit::build(&mut console, app)?;
    }
}

fn play(p: Play) -> Outcome {
    use std::io::IsTerminal;
    // The files named are read first, and a replay checked against its
    // race: what is wrong with them is said whether or not there is a
    // terminal.
    let replay = p.replay.as_deref().map(load_recording).transpose()?;
    let (replay, recorded_in) = replay.map_or((None, None), |(s, about)| (Some(s), about));
    let opts = if p.menu {
        Options {
            hz: p.game.hz,
            color: colour(),
            ..Options::default()
        }
    } else {
        let mut setup = p.setup.clone();
        if setup.track.is_empty() {
            setup.track = bundled::DEFAULT.to_string();
        }
        game_options(&setup, p.laps, p.game.hz, replay)?
    };
    let mut opts = opts;
    // Without a data directory of the user's, laps are not kept; one
    // given that cannot keep them is an error.
    opts.records = match store(p.game.data_dir.as_deref()) {
        Ok(store) => Some(store),
        Err(e) if p.game.data_dir.is_some() => return Err(e),
        Err(_) => None,
    };
    opts.opponents = p.opponents as usize;
    opts.skill = p.game.difficulty.skill();
    opts.rivals = p.game.difficulty.medal();
    // A large map's racing line and medals take a while: the game draws
    // and answers keys meanwhile.
    opts.background = true;
    // Today's track (UTC), first in the menu's tracks.
    opts.today = load_raceable("daily")
        .ok()
        .map(|t| (load::choice_name("daily", &t), t));
    let mut app = App::new(opts);
    if let (Some(path), Some(recorded)) = (&p.replay, &recorded_in) {
        same_race(path, recorded, &app.race_about())?;
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Diagnostics::from(Diagnostic::file(
            "skid",
            "the game needs a terminal; for headless runs use `skid sim` or `skid render`",
        )));
    }
    // The recording's file is made now: a path that cannot be written is
    // an error before the game takes the terminal.
    let mut recorder = match &p.record {
        Some(path) => Some(crate::race::script::Recorder::create(path).map_err(|e| {
            Diagnostics::from(Diagnostic::file(
                path,
                format!("cannot write the recording: {e}"),
            ))
        })?),
        None => None,
    };
    if !p.menu {
        app.start_race();
    }
    let settings = Settings {
        fps: p.game.fps,
        hz: p.game.hz,
        quit_at_end: p.quit_at_end,
    };
    // The terminal is given back (the console dropped) before anything
    // more is written.
    let stats = in_terminal(&mut app, &settings, recorder.as_mut())
        .map_err(|e| Diagnostics::from(Diagnostic::file("terminal", e.to_string())))?;
    let seat = app.race.as_ref().and_then(|race| race.seat(LOCAL));
    if let (Some(rec), Some(path), Some(seat)) = (&mut recorder, &p.record, seat) {
        rec.sync(&seat.recording, app.races, true, || app.race_about())
            .map_err(|e| {
                Diagnostics::from(Diagnostic::file(
                    path,
                    format!("cannot write the recording: {e}"),
                ))
            })?;
    }
    for notice in &app.notices {
        eprintln!("skid: {notice}");
    }
    if p.game.stats {
        eprintln!("{}", stats.line());
    }
    Ok(())
}

fn render(setup: &RaceArgs, inputs: &str, size: (u16, u16), tick: Option<u64>, hz: u32) -> Outcome {
    let script = load_script(inputs)?;
    let total = script.total_ticks();
    let target = tick.unwrap_or(total);
    if target > total {
        return Err(Diagnostics::from(Diagnostic::file(
            inputs,
            format!("--tick {target} is past the script's end ({total} ticks)"),
        )));
    }
    let mut app = App::new(game_options(setup, None, hz, Some(script))?);
    app.start_race();
    // As the game draws a terminal of this size: its top-left part, at
    // most `session::MAX_SIZE`, the rest blank.
    let drawn = crate::race::session::screen_size(size.0.into(), size.1.into());
    app.resize(drawn.0, drawn.1);
    while app.running() && app.race.as_ref().is_some_and(|r| r.world.tick < target) {
        app.tick(0.0);
    }
    let mut terminal =
        Terminal::new(TestBackend::new(size.0, size.1)).expect("a test backend never fails");
    let area = ratatui::layout::Rect::new(0, 0, drawn.0, drawn.1);
    terminal
        .draw(|f| {
            crate::app::paint(
                f.buffer_mut(),
                area,
                &app,
                &crate::console::damage::Damage::All,
            );
        })
        .expect("a test backend never fails");
    print!("{}", ui::buffer_text(terminal.backend().buffer()));
    Ok(())
}

/// The records in `--data-dir`, or in the user's data directory.
/// Where records are kept: `dir`, made if it is not there (a place that
/// cannot hold them is an error now, naming it, rather than a notice
/// after a race whose laps were lost); or the user's data directory.
fn store(dir: Option<&str>) -> Result<Store, Diagnostics> {
    if let Some(d) = dir {
        crate::base::files::make_dir(std::path::Path::new(d))
            .map_err(|e| Diagnostic::file(d, format!("cannot keep records here: {e}")))?;
    }
    match dir
        .map(std::path::PathBuf::from)
        .or_else(records::default_dir)
    {
        Some(d) => Ok(Store::new(d)),
        None => Err(Diagnostics::from(Diagnostic::file(
            "skid",
            "no data directory: set HOME or XDG_DATA_HOME, or give --data-dir",
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
fn sim(
    setup: &RaceArgs,
    inputs: Option<&str>,
    driver: DriverArg,
    skill: f64,
    max_ticks: u64,
    store: Option<Store>,
    hz: u32,
    every: u64,
) -> Outcome {
    let bad = |msg: &str| Err(Diagnostics::from(Diagnostic::file("skid sim", msg)));
    if !(0.5..=1.0).contains(&skill) {
        return bad("--skill must be from 0.5 to 1");
    }
    if store.is_some() && !crate::race::timing::standard_rate(1.0 / f64::from(hz)) {
        return bad("--save keeps laps timed as records are, at --hz 120");
    }
    let (track, spec, kind) = setup.resolve()?;
    let source = match (driver, inputs) {
        (DriverArg::Script, Some(path)) => Source::script(&load_script(path)?),
        (DriverArg::Script, None) => return bad("--inputs FILE is needed, or --driver ai"),
        (DriverArg::Ai, None) => Source::Driver(Box::new(Driver::new(&track, &spec, kind, skill))),
        (DriverArg::Ai, Some(_)) => return bad("--inputs and --driver ai exclude each other"),
    };
    let mut sim = World::new(track.into_track(), spec, kind, hz);
    if let Some(me) = sim.car_mut(FIRST) {
        me.source = source;
    }
    // A script's run ends with the script, a computer driver's with the
    // race or at `--max-ticks`.
    let over = |sim: &World| match driver {
        DriverArg::Script => solo(sim).script_done(),
        DriverArg::Ai => solo(sim).laps.lap >= sim.laps || sim.tick >= max_ticks,
    };
    let mut log = LapLog::default();
    if !trace(&mut sim, &mut log, over, every) {
        return Ok(()); // stdout closed (a pipe to `head`): stop quietly
    }
    let laps = sim.track.laps;
    let me = solo(&sim);
    if driver == DriverArg::Ai && me.laps.lap < laps {
        let (car, counter) = (&me.car, &me.laps);
        let p = car.state.body.pos;
        eprintln!(
            "skid sim: stopped at --max-ticks {max_ticks} with the race unfinished: \
             {} of {laps} laps, checkpoint {} of {} passed, the car at x {:.1} m, y {:.1} m",
            counter.lap, counter.checkpoint, sim.track.checkpoints, p.x, p.y
        );
    }
    if store.is_some() && !me.finite {
        eprintln!("skid sim: the car's state went non-finite: no record saved");
    }
    match store {
        Some(store) => keep_record(&store, &sim, &mut log),
        None => Ok(()),
    }
}

/// The one car of a headless run: [`World::new`]'s, which never leaves.
fn solo(sim: &World) -> &crate::race::world::Entrant {
    sim.car(FIRST)
        .expect("a headless run's one car never leaves")
}

/// Steps `sim` until `over`, writing its trace to stdout (a row every
/// `every` ticks, and always the last) and its laps to `log`; false if
/// stdout was closed.
fn trace(sim: &mut World, log: &mut LapLog, over: impl Fn(&World) -> bool, every: u64) -> bool {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut row = String::with_capacity(256);
    let _ = writeln!(out, "{TRACE_HEADER}");
    let mut write = |sim: &World| {
        row.clear();
        sim.trace_row(solo(sim), &mut row);
        row.push('\n');
        out.write_all(row.as_bytes()).is_ok()
    };
    while !over(sim) {
        sim.step();
        let me = solo(sim);
        let b = &me.car.state.body;
        let speed = b.vel.length();
        log.after_step(
            sim.tick,
            &me.last,
            [b.pos.x, b.pos.y, b.heading],
            || (speed, f64::NAN),
            me.event,
        );
        if sim.tick.is_multiple_of(every) && !write(sim) {
            return false;
        }
    }
    // The final state always ends the trace, whatever `--every` skipped.
    if !sim.tick.is_multiple_of(every) {
        write(sim);
    }
    let _ = out.flush();
    true
}

/// Saves the run's best laps in `store` if they are new records (one a
/// board: `Record::new_in`), each with the
/// medal it earns as the game would (the medals worked out now if the
/// data directory does not know them yet).
fn keep_record(store: &Store, sim: &World, log: &mut LapLog) -> Outcome {
    let entrant = solo(sim);
    let (track, car) = (&sim.track, &entrant.car);
    let medals = || {
        let mut book = crate::race::medals::book::Book::open(Some(store.dir.clone()));
        let key = crate::race::medals::book::key(track, car.spec(), car.kind);
        book.ask(key, track, car.spec(), false).medals()
    };
    for (record, ghost) in Record::new_in(log, track, entrant, sim.dt, medals) {
        let where_ = store.dir.display().to_string();
        let (_, loaded) = store.save(record, &ghost).map_err(|e| {
            Diagnostics::from(Diagnostic::file(
                &where_,
                format!("cannot save the record: {e}"),
            ))
        })?;
        if let Some(notice) = loaded.notice() {
            eprintln!("skid: {notice}");
        }
    }
    Ok(())
}

fn check(files: &[String]) -> Outcome {
    let mut all = Vec::new();
    let mut out = std::io::stdout().lock();
    for f in files {
        let checked = || -> Result<Raceable, Diagnostics> {
            let track = track::parse(f, &diag::read_file(f)?)?;
            Ok(track::course::raceable(track, f)?)
        };
        match checked() {
            Ok(t) => {
                for warning in track::course::drive_arounds(&t, f) {
                    eprintln!("{warning}");
                }
                let _ = writeln!(out, "{}: ok", diag::printable(f));
            }
            Err(errors) => all.extend(errors),
        }
    }
    if all.is_empty() {
        Ok(())
    } else {
        Err(all.into())
    }
}
