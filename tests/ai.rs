// The courses below that once defeated the driver are kept digit for
// digit as proptest printed them.
#![allow(clippy::unreadable_literal)]
//! The computer driver finishes every bundled track with every model, in a
//! simulated-time limit, never inside a wall; and `skid sim --driver ai`
//! runs it from the command line.

mod common;

use common::courses::{Shape, course, course_surface};
use common::maps::field;
use proptest::prelude::*;
use skid::ai::{Driver, Line};
use skid::physics::ModelKind;
use skid::physics::car::CarSpec;
use skid::race::world::{Source, World};
use skid::track::{Track, bundled, course, parse};

/// The computer drives `track` with `kind` until its laps are done, in
/// an average of 4 m/s round its racing line plus a minute, never ending a
/// step inside a wall.
fn finishes(name: &str, track: Track, kind: ModelKind) -> Result<(), String> {
    finishes_along(name, track, kind, None, 60.0)
}

/// [`finishes`], on `line` if given (else the track's own racing line),
/// with `spare` seconds beyond the average of 4 m/s.
fn finishes_along(
    name: &str,
    track: Track,
    kind: ModelKind,
    line: Option<&Line>,
    spare: f64,
) -> Result<(), String> {
    let spec = CarSpec::default_for(kind);
    let driver = match line {
        Some(line) => Driver::along(line, &track, &spec, kind, 1.0),
        None => Driver::new(&track, &spec, kind, 1.0),
    };
    let laps = track.laps;
    let limit = f64::from(laps) * driver.line.length() / 4.0 + spare;
    let mut sim = World::new(track, spec, kind, 120);
    sim.cars[0].source = Source::Driver(Box::new(driver));
    while sim.cars[0].laps.lap < laps {
        if sim.time() >= limit {
            return Err(format!(
                "{name}/{kind}: {} of {laps} laps in {limit:.0} s, checkpoint {}, at {:?}",
                sim.cars[0].laps.lap, sim.cars[0].laps.checkpoint, sim.cars[0].car.state.body.pos
            ));
        }
        sim.step();
        if sim.track.box_hits_wall(&sim.cars[0].car.footprint()) {
            return Err(format!("{name}/{kind} in a wall at tick {}", sim.tick));
        }
    }
    Ok(())
}

/// Issue 50: lines drawn across the road only, with grass beside them,
/// on generated rectangles: `arcade`, which turns on one wide radius,
/// drove round such a checkpoint through the grass lap after lap, and
/// its race never ended. Every model finishes each of the maps the
/// first 24 seeds draw (a draw that leaves no room for the lines, or no
/// lap, is skipped; at least 12 are tried), going back for a mark it
/// missed.
#[test]
fn the_computer_finishes_when_it_drives_round_a_line_through_the_grass() {
    let mut tried = 0;
    for seed in 1..=24 {
        let Some(src) = common::maps::grass_ringed(seed) else {
            continue;
        };
        let Ok(track) = course::raceable(parse("ringed", src.as_bytes()).unwrap(), "ringed") else {
            continue;
        };
        tried += 1;
        for kind in ModelKind::ALL {
            // Going back for a mark is slow where the car cannot turn
            // tightly enough for the road (`arcade` on the narrowest):
            // ten minutes more, as long as a race's end waits for nobody.
            let name = format!("ringed {seed}");
            if let Err(e) = finishes_along(&name, track.track().clone(), kind, None, 600.0) {
                panic!("{e}\n{src}");
            }
        }
    }
    assert!(tried >= 12, "only {tried} of 24 draws made a track");
}

#[test]
fn the_computer_finishes_every_track_with_every_model() {
    for (name, _) in bundled::TRACKS {
        for kind in ModelKind::ALL {
            if let Err(e) = finishes(name, bundled::load(name).unwrap(), kind) {
                panic!("{e}");
            }
        }
    }
}

/// Issue 63: generated tracks are raced to the finish by the computer
/// in every model but `strafe` (whose hops make no lap time worth a
/// medal), on seeds of each size.
#[test]
fn the_computer_finishes_generated_tracks() {
    use skid::track::generate::{Size, generate};
    const SEEDS: u64 = 8;
    for seed in 0..SEEDS {
        for size in Size::ALL {
            let name = format!("seed {seed} {}", size.name());
            let track = parse(&name, generate(seed, size).text.as_bytes()).unwrap();
            for kind in ModelKind::ALL
                .into_iter()
                .filter(|k| *k != ModelKind::Strafe)
            {
                if let Err(e) = finishes(&name, track.clone(), kind) {
                    panic!("{e}");
                }
            }
        }
    }
    eprintln!("{SEEDS} seeds of each size: finished in every model but strafe");
}

/// Medium seed 122 leaves the computer in `arcade` in a pocket of
/// run-off, nose against a tooth of wall it cannot turn away from in one
/// backing off: it backs off longer each time it is stuck there again,
/// and finishes (it drove back into the same wall for ever before).
#[test]
fn the_computer_backs_out_of_a_pocket_it_drove_into_twice() {
    use skid::track::generate::{Size, generate};
    let name = "seed 122 medium";
    let track = parse(name, generate(122, Size::Medium).text.as_bytes()).unwrap();
    if let Err(e) = finishes(name, track, ModelKind::Arcade) {
        panic!("{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(8)))]

    /// Where the finish (and a checkpoint) line stops in an open field,
    /// the planner does not draw it on to the walls (that would close the
    /// field): the lap turns round its end in a curve a car can drive.
    /// Before, the line was the start alone, or a loop too tight to
    /// follow, and the car never lapped.
    #[test]
    fn the_computer_laps_open_fields_round_the_ends_of_the_lines(
        w in 50usize..140,
        h in 30usize..70,
        floating in any::<bool>(),
        top in 0.3..0.45f64,
        checkpoint in prop::option::of(0.6..0.75f64),
    ) {
        let end = (h as f64 * top) as usize;
        let finish = if floating { end / 3..end } else { 1..end };
        let checkpoint = checkpoint.map(|k| (h as f64 * k) as usize..h - 1);
        let src = field(w, h, finish, checkpoint);
        let track = parse("field", src.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert!(course::no_lap(&track).is_none(), "a lap exists");
        for kind in ModelKind::ALL {
            if let Err(e) = finishes("field", track.clone(), kind) {
                return Err(TestCaseError::fail(format!("{e}\n{src}")));
            }
        }
    }
}

#[test]
fn the_computer_laps_a_field_whose_finish_and_checkpoint_lines_nearly_meet() {
    // 20 m between the end of the finish line and the checkpoint line
    // below it: drawn on to each other for planning, they closed the field
    // in two and the lap was a tight loop round the gap that `dynamic`
    // could not follow. The gap stays open now and the lap goes round it.
    let src = field(50, 30, 1..13, Some(18..29));
    let track = parse("field", src.as_bytes()).expect("the field is valid");
    for kind in ModelKind::ALL {
        if let Err(e) = finishes("field", track.clone(), kind) {
            panic!("{e}\n{src}");
        }
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    let unit = || 0.0..=1.0f64;
    (
        prop::collection::vec(unit(), 3..9),
        prop::collection::vec(unit(), 3..9),
        prop::collection::vec([unit(), unit(), unit(), unit()], 0..8),
        prop::collection::vec([unit(), unit(), unit()], 1..5),
        [unit(), unit()],
        [unit(), unit()],
    )
        .prop_map(
            |(radii, widths, patches, checkpoints, finish, size)| Shape {
                radii,
                widths,
                patches,
                checkpoints,
                finish,
                size,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(8)))]

    /// On random closed courses with grass, gravel and ice, and checkpoint
    /// and finish lines across only part of the road, the computer crosses
    /// every line and finishes its laps with every model.
    #[test]
    fn the_computer_finishes_random_courses(s in shape()) {
        let src = course(&s, 2);
        let track = parse("course", src.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e:?}\n{src}")))?;
        // A line with a wall right behind it, say: `skid check` refuses
        // the course, and that is tested elsewhere.
        let track = course::raceable(track, "course");
        prop_assume!(track.is_ok());
        let track = track.expect("raceable");
        for kind in ModelKind::ALL {
            if let Err(e) = finishes("course", track.track().clone(), kind) {
                return Err(TestCaseError::fail(format!("{e}\n{src}")));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(8)))]

    /// On the largest tracks the racing line is searched in blocks of
    /// cells (`Line::new`, over 4 million cells a car can reach), then
    /// smoothed and gated over the cells themselves. On random courses
    /// searched in blocks of two cells, the computer crosses every line
    /// and finishes its laps with every model. Courses whose blocks hold
    /// no lap (a road too narrow in places) are drawn again, and patches
    /// of ice are grass: where blocks close the asphalt beside a patch of
    /// ice, the line crosses the ice, where `dynamic` crawls.
    #[test]
    fn the_computer_finishes_random_courses_on_lines_searched_in_blocks(mut s in shape()) {
        for patch in &mut s.patches {
            if course_surface(patch[3]) == '~' {
                patch[3] = 0.0;
            }
        }
        let src = course(&s, 2);
        let track = parse("course", src.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e:?}\n{src}")))?;
        let track = course::raceable(track, "course");
        prop_assume!(track.is_ok());
        let track = track.expect("raceable");
        let line = Line::in_blocks(&track, 2, 8.0, 6.0, 60.0);
        prop_assume!(line.is_some());
        let line = line.expect("a line");
        for kind in ModelKind::ALL {
            if let Err(e) = finishes_along("course", track.track().clone(), kind, Some(&line), 60.0) {
                return Err(TestCaseError::fail(format!("{e}\n{src}")));
            }
        }
    }
}

/// Courses that once defeated a computer driver, and why.
// A table of courses, one entry each with its story: data, not steps.
#[allow(clippy::too_many_lines)]
fn defeats() -> Vec<(&'static str, Shape)> {
    vec![
        (
            // Checkpoint 1 runs diagonally across the outside of a corner,
            // grass on to its inner tip. The path goes to the tip and back,
            // and the smoothed line keeps a kink through the tip cell:
            // copies shifted by each point's own normal swept across the
            // mark at the kink, so it got no gate and `arcade` cut inside
            // the tip lap after lap. The copies shift as one now.
            "a checkpoint the line only touches at its tip",
            Shape {
                radii: vec![0.0, 0.8765653831937463, 0.0],
                widths: vec![0.1290090546290006, 0.5593500123171588, 0.0, 0.0, 0.0],
                patches: vec![],
                checkpoints: vec![
                    [0.817901886084746, 0.885293699000796, 0.23865213962162993],
                    [0.0, 0.0, 0.0],
                ],
                finish: [0.0, 0.0],
                size: [0.10687317147369595, 0.60010847308681],
            },
        ),
        (
            // Ice along the bottom and the left: the leg from checkpoint 2
            // to 3 went back up the right, over the finish line backwards
            // and across the top instead, and the corridor it left closed
            // the way from 3 to the finish. Every leg is closed to the
            // finish line now, as a lap is.
            "a leg that crossed the finish line backwards",
            Shape {
                radii: vec![0.5721686014989524, 0.8663596198688601, 0.9666444149303336],
                widths: vec![
                    0.7832741724395429,
                    0.40587524210614334,
                    0.4964606450748932,
                    0.13768410480867943,
                    0.6204900924693906,
                    0.6192496259353193,
                    0.680863696558485,
                ],
                patches: vec![
                    [
                        0.11879194520800895,
                        0.1922113117403449,
                        0.8147057532840776,
                        0.12803114271222238,
                    ],
                    [
                        0.02437271605705449,
                        0.4955034186812918,
                        0.808120285533477,
                        0.5555743143355287,
                    ],
                    [
                        0.6237823036662579,
                        0.5061691508733649,
                        0.10304414609423018,
                        0.11510237648008559,
                    ],
                    [
                        0.5174682032640354,
                        0.4340825745216057,
                        0.15318916191636744,
                        0.18283051058500566,
                    ],
                    [
                        0.7596653641609349,
                        0.6150557988648344,
                        0.9760987297421707,
                        0.6162332261251136,
                    ],
                    [
                        0.6201789949981913,
                        0.15464125155774022,
                        0.8483898687574946,
                        0.11223764300434369,
                    ],
                ],
                checkpoints: vec![
                    [
                        0.8711339355545592,
                        0.20434488469527068,
                        0.019584135307739503,
                    ],
                    [
                        0.0021667842481150057,
                        0.41990400667308114,
                        0.9688676732246584,
                    ],
                    [0.7834651946585444, 0.6894549819456849, 0.994701800087746],
                ],
                finish: [0.17033924633068187, 0.7431802194035446],
                size: [0.3592690220723024, 0.41531692552614974],
            },
        ),
        (
            // Grass over most of the right side: the path keeps to the
            // asphalt beside the inner wall's staircase, and points it left
            // a metre from a wall corner stayed there (smoothing only moves
            // a point to where it has room). `tire` hit the corner and
            // backed into it again and again. Points step clear now.
            "a line left beside a wall's staircase",
            Shape {
                radii: vec![
                    0.49040535423998555,
                    0.5874559338336383,
                    0.05561013202095,
                    0.5683930402047432,
                    0.42781470267180477,
                ],
                widths: vec![
                    0.24680158410790132,
                    0.14827147860877454,
                    0.7610149565783215,
                    0.8058080839492964,
                    0.866980034959251,
                    0.14413192681220754,
                    0.4018582404319553,
                ],
                patches: vec![
                    [
                        0.00898073444797387,
                        0.29854882427401486,
                        0.02492623448939213,
                        0.5292298901740832,
                    ],
                    [
                        0.6380069947869714,
                        0.4979817506866885,
                        0.4361911785862068,
                        0.5363753473177235,
                    ],
                    [
                        0.7502338576852564,
                        0.793136134238187,
                        0.14587817818666693,
                        0.23941226370722535,
                    ],
                    [
                        0.44250154057019353,
                        0.6467903096345284,
                        0.8776735446593888,
                        0.24415578168602314,
                    ],
                    [
                        0.6444939119653362,
                        0.6502582807660687,
                        0.5762736430034835,
                        0.2064782033848911,
                    ],
                    [
                        0.6374441057162474,
                        0.5116923640773914,
                        0.7697229767680832,
                        0.10185230031323422,
                    ],
                    [
                        0.25125234489726256,
                        0.10131568862525608,
                        0.18013023468365752,
                        0.681926394586844,
                    ],
                ],
                checkpoints: vec![[0.222353077510561, 0.5184620656599246, 0.5233722513233272]],
                finish: [0.049180019046263124, 0.07524784520719008],
                size: [0.6849831611400169, 0.3610571570108234],
            },
        ),
    ]
}

#[test]
fn the_computer_finishes_courses_that_once_defeated_it() {
    for (why, s) in defeats() {
        let src = course(&s, 2);
        let track = course::raceable(parse("course", src.as_bytes()).unwrap(), "course").unwrap();
        for kind in ModelKind::ALL {
            if let Err(e) = finishes("course", track.track().clone(), kind) {
                panic!("{why}: {e}\n{src}");
            }
        }
    }
}

#[test]
fn the_same_driver_drives_the_same_race() {
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
            .args([
                "sim", "--track", "eight", "--model", "tire", "--driver", "ai",
            ])
            .output()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.ends_with(",3,0"),
        "the race ends when the laps are done: {last}"
    );
}

#[test]
fn max_ticks_ends_a_computer_race_early() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
        .args([
            "sim",
            "--track",
            "grandprix",
            "--driver",
            "ai",
            "--max-ticks",
            "600",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        1 + 600
    );
}

#[test]
fn inputs_and_the_computer_driver_exclude_each_other() {
    for args in [
        vec!["sim", "--track", "oval"],
        vec![
            "sim",
            "--track",
            "oval",
            "--driver",
            "ai",
            "--inputs",
            "tests/golden/tire.toml",
        ],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skid"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
