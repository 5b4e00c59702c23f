//! Finding your own car over `skid serve`: two people race at 80x24 on
//! tracks larger than the screen (the bundled `grandprix` and generated
//! courses), and on every frame each one's screen shows exactly one
//! reverse-video arrow, theirs, wherever their car has gone: the view
//! follows the car each of them drives, not the other's, not the start.
#![cfg(feature = "serve")]

#[path = "common/courses.rs"]
mod courses;
#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use std::collections::BTreeSet;

use hub_sim::TwoOnHub;
use skid::track::course::raceable;
use skid::track::{Raceable, bundled, parse};

const ARROWS: [char; 8] = ['→', '↘', '↓', '↙', '←', '↖', '↑', '↗'];

/// Where `screen` shows an arrow in reverse video (row, column).
fn own_arrows(screen: &vt100::Screen) -> Vec<(u16, u16)> {
    let (rows, cols) = screen.size();
    let mut at = Vec::new();
    for row in 0..rows.get() {
        for col in 0..cols.get() {
            let Some(cell) = screen.cell(row, col) else {
                continue;
            };
            let c = cell.contents().chars().next();
            if cell.inverse() && c.is_some_and(|c| ARROWS.contains(&c)) {
                at.push((row, col));
            }
        }
    }
    at
}

/// A large generated course: numbers from `seed` by a small LCG, the
/// map at least 130 columns by 58 rows.
fn course(seed: u64) -> Raceable {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let shape = courses::Shape {
        radii: (0..8).map(|_| next()).collect(),
        widths: (0..8).map(|_| next()).collect(),
        patches: Vec::new(),
        checkpoints: (0..2)
            .map(|_| [next(), next() * 0.3, 0.7 + next() * 0.3])
            .collect(),
        finish: [0.0, 1.0],
        size: [0.75 + next() * 0.25, 0.8 + next() * 0.2],
    };
    // A second start slot beside the course's one, for Ben.
    let mut rows: Vec<Vec<char>> = (courses::course(&shape, 1).lines())
        .map(|l| l.chars().collect())
        .collect();
    let (r, c) = (rows.iter().enumerate())
        .find_map(|(r, l)| Some((r, l.iter().position(|&ch| ch == '>')?)))
        .expect("a start");
    let beside = [r + 1, r - 1].into_iter().find(|&r| rows[r][c] == '.');
    rows[beside.expect("road beside the start")][c] = '>';
    let src: String = rows
        .into_iter()
        .map(|l| l.into_iter().collect::<String>() + "\n")
        .collect();
    let path = format!("course-{seed}.track");
    let track = parse(&path, src.as_bytes()).expect("a generated course parses");
    raceable(track, &path).expect("a generated course has a lap")
}

/// Ann and Ben race on `track` for 25 s, pressing keys as a driver
/// wants them; each look, each screen has one own arrow, and over the
/// race it moved about the screen as the car went round; and the camera
/// stays put while it can: past the countdown their frames cost at most
/// 6 KB a second (two cars side by side with their names and skid marks,
/// pressed by keys: 4.3 to 4.8 KB/s; a camera moved with every frame
/// rewrites the ground each time: 9 to 11 KB/s).
fn both_see_their_own_car(name: &str, track: Raceable) {
    let mut two = TwoOnHub::on(name, track);
    two.one_lap(0);
    let mut looks = 0;
    let mut seen: [BTreeSet<(u16, u16)>; 2] = Default::default();
    // Bytes sent before the look at 4 s (the lobby, the room, the
    // countdown's whole screens).
    let mut before = Vec::new();
    two.race_looking(120 * 25, |two, tick| {
        // Past the countdown's first frames (which may show the lobby).
        if tick < 120 * 4 {
            before.clone_from(&two.bytes);
            return;
        }
        looks += 1;
        for (i, set) in seen.iter_mut().enumerate() {
            let screen = two.screens[i].screen();
            let at = own_arrows(screen);
            assert_eq!(
                at.len(),
                1,
                "{name}: player {} at tick {tick}: own arrows at {at:?}\n{}",
                i + 1,
                screen.contents()
            );
            set.insert(at[0]);
        }
    });
    assert!(looks > 500, "{name}: {looks} looks");
    for (i, (bytes, before)) in two.bytes.iter().zip(&before).enumerate() {
        let per_second = (bytes - before) as f64 / 21.0;
        eprintln!("{name}: player {}: {per_second:.0} B/s", i + 1);
        assert!(
            per_second <= 6000.0,
            "{name}: player {}: {per_second:.0} B/s",
            i + 1
        );
    }
    for (i, set) in seen.iter().enumerate() {
        assert!(
            set.len() > 3,
            "{name}: player {}: the arrow only at {set:?}",
            i + 1
        );
    }
}

#[test]
fn each_racer_sees_their_own_car_on_grandprix() {
    both_see_their_own_car("grandprix", bundled::load_raceable("grandprix").unwrap());
}

#[test]
fn each_racer_sees_their_own_car_on_generated_courses() {
    for seed in [1, 7] {
        both_see_their_own_car(&format!("course {seed}"), course(seed));
    }
}
