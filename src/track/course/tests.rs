//! Unit tests of the lap check: generated maps and the bundled tracks.

use super::*;
use crate::track::{bundled, parse};

fn problem(map: &str) -> Option<String> {
    let t = parse("t", map.as_bytes()).expect("parses");
    no_lap(&t).map(|p| format!("{}:{}: {}", p.row + t.map_line, p.col + 1, p.message))
}

#[test]
fn a_mark_is_driven_around_when_a_plain_walk_reaches_every_cell_beside_it() {
    // Random maps (a finish line of one cell, checkpoint lines along
    // rows, columns and diagonals): the walk, which stops walking on
    // from cells too far from the cells left to reach, says what the
    // distances of a plain breadth-first walk say.
    let mut next = crate::track::random::numbers(0x51ab_cafe);
    let (mut around, mut not) = (0, 0);
    for _ in 0..300 {
        let checkpoints = 1 + next(3) as u8;
        let t = crate::track::random::random_track(&mut next, checkpoints);
        let (w, h) = (t.width, t.height);
        for (n, cells) in cells_of_marks(&t).into_iter().enumerate() {
            let mark = if n == 0 {
                Mark::Finish
            } else {
                Mark::Checkpoint(n as u8)
            };
            let open = |i: usize| t.reachable()[i] && t.mark_of_cell(i) != mark;
            let mut beside: Vec<usize> = Vec::new();
            for &(c, r) in &cells {
                each_neighbour(r * w + c, w, h, |i| {
                    if open(i) {
                        beside.push(i);
                    }
                });
            }
            let Some(&first) = beside.iter().min() else {
                assert!(!driven_around(&t, mark, &cells));
                continue;
            };
            let mut depth = vec![usize::MAX; w * h];
            depth[first] = 0;
            let mut queue = std::collections::VecDeque::from([first]);
            while let Some(i) = queue.pop_front() {
                each_neighbour(i, w, h, |j| {
                    if open(j) && depth[j] == usize::MAX {
                        depth[j] = depth[i] + 1;
                        queue.push_back(j);
                    }
                });
            }
            let expected = beside.iter().all(|&i| depth[i] <= 2 * cells.len() + 6);
            assert_eq!(driven_around(&t, mark, &cells), expected, "{mark:?}");
            if expected { around += 1 } else { not += 1 }
        }
    }
    assert!(
        around > 100 && not > 50,
        "{around} driven around, {not} not"
    );
}

#[test]
fn a_checkpoint_with_grass_beside_it_can_be_driven_around() {
    // A ring: the finish and checkpoint 2 span the whole road, but
    // checkpoint 1 only the asphalt, with grass between it and the
    // island.
    let map = "\
##############
#.....|......#
#.>...|......#
#.#########1 #
#.#########..#
#............#
##############
";
    let t = parse("ring.track", map.as_bytes()).unwrap();
    assert_eq!(no_lap(&t), None);
    let warnings: Vec<String> = drive_arounds(&t, "ring.track")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        warnings,
        [
            "ring.track:4:12: warning: checkpoint 1 can be driven around (drivable ground beside it): easy to miss"
        ]
    );
    // Spanning the road to the island, it cannot.
    let t = parse("ring.track", map.replace("#1 #", "#11#").as_bytes()).unwrap();
    assert!(drive_arounds(&t, "ring.track").is_empty());
    // A finish line with ground beside it (the top road widened over
    // it by a row it does not span): driven around.
    let wide = map.replace("##############\n#.....|", "#####.........\n#.....|");
    let t = parse("ring.track", wide.replace("#1 #", "#11#").as_bytes()).unwrap();
    let warnings: Vec<String> = drive_arounds(&t, "ring.track")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        warnings,
        [
            "ring.track:2:7: warning: the finish line can be driven around (drivable ground beside it): easy to miss"
        ]
    );
}

#[test]
fn pieces_reach_what_a_flood_reaches() {
    // On every bundled track and a field cut by a finish line with a
    // gap, from and to sets of a few cells each, drawn by a fixed
    // generator: the pieces say what a fill from the start cells says.
    let mut state = 0x9e37_79b9_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let cut = "##############\n#.....|......#\n#.....|......#\n#..>..|..#...#\n#.....|..#...#\n#........#...#\n##############\n";
    let mut tracks: Vec<Track> = bundled::TRACKS
        .iter()
        .map(|(name, _)| bundled::load(name).unwrap())
        .collect();
    tracks.push(parse("cut", cut.as_bytes()).unwrap());
    for t in &tracks {
        let mut pieces = Pieces::new(t);
        let (w, h) = (t.width, t.height);
        for _ in 0..50 {
            let mut some =
                || -> Vec<(usize, usize)> { (0..=next(3)).map(|_| (next(w), next(h))).collect() };
            let (from, to) = (some(), some());
            let from: Vec<_> = from
                .into_iter()
                .filter(|&(c, r)| off(t, Mark::Finish, r * w + c))
                .collect();
            let seen = flood(t, &from);
            let flooded = to.iter().any(|&(c, r)| seen[r * w + c]);
            assert_eq!(
                pieces.reach(&from, &to),
                Some(flooded),
                "{} {from:?} {to:?}",
                t.name
            );
        }
    }
}

#[test]
fn past_the_pieces_that_can_be_told_apart_a_fill_answers() {
    // Checkpoint cells each boxed in by finish cells (along rows and
    // columns): 70,000 pieces, more than are labelled.
    let (w, h) = (530, 530);
    let mut rows = vec!["#".repeat(w)];
    for r in 1..h - 1 {
        let row: String = (1..w - 1)
            .map(|c| match (c, r) {
                (3, 2) => '>',
                (1..=5, 1..=3) => '.',
                _ if (c + r) % 2 == 0 => '1',
                _ => '|',
            })
            .collect();
        rows.push(format!("#{row}#"));
    }
    rows.push("#".repeat(w));
    let t = parse("boxes", rows.join("\n").as_bytes()).unwrap();
    let marks = cells_of_marks(&t);
    let checkpoint: Vec<_> = marks[1]
        .iter()
        .copied()
        .filter(|&(c, r)| t.drivable(c, r))
        .collect();
    assert!(checkpoint.len() > 70_000);
    let mut pieces = Pieces::new(&t);
    assert_eq!(pieces.reach(&checkpoint, &checkpoint[..1]), None);
    let (last, first) = (checkpoint[checkpoint.len() - 1], checkpoint[0]);
    assert!(reaches(&mut pieces, &checkpoint, &[first]));
    assert!(!reaches(&mut Pieces::new(&t), &[last], &[first]));
}

#[test]
fn every_bundled_track_has_a_lap() {
    for (name, _) in bundled::TRACKS {
        assert_eq!(no_lap(&bundled::load(name).unwrap()), None, "{name}");
    }
}

#[test]
fn a_straight_with_a_wall_after_the_finish_has_no_lap() {
    let map = "#########\n#.......#\n#...>..=#\n#.......#\n#########\n";
    assert_eq!(
        problem(map).as_deref(),
        Some("3:8: no way on past the finish line in the race direction (a wall right after it)")
    );
}

#[test]
fn a_straight_with_room_after_the_finish_still_has_no_loop() {
    let map = "###########\n#.........#\n#...>..=..#\n#.........#\n###########\n";
    // The finish spans only its row, so the car can get round it:
    // that is a loop. Walled off above and below, it is not.
    assert_eq!(problem(map), None);
    let map = "###########\n###########\n#...>..=..#\n###########\n";
    assert_eq!(
        problem(map).as_deref(),
        Some("3:8: no way back to the finish line from the finish line in the race direction")
    );
}

#[test]
fn a_walled_off_checkpoint_is_named_with_its_position() {
    let map = "\
##############
#............#
#.>=.....#####
#........#.2.#
#.....1..#####
#............#
##############
";
    assert_eq!(
        problem(map).as_deref(),
        Some("4:12: checkpoint 2 cannot be reached from the start")
    );
}

#[test]
fn a_checkpoint_only_reachable_backwards_over_the_finish_has_no_lap() {
    let map = "\
##########
#1.>.=...#
#1...=...#
##########
";
    assert_eq!(
        problem(map).as_deref(),
        Some("2:2: checkpoint 1 cannot be reached from the finish line in the race direction")
    );
}

#[test]
fn an_enclosed_start_cannot_reach_the_finish() {
    let map = "\
##############
#.......#....#
#...>...#.=..#
#.......#....#
##############
";
    assert_eq!(
        problem(map).as_deref(),
        Some("3:11: the finish line cannot be reached from the start")
    );
}
