//! Unit tests of the racing line: on every bundled track, in an open
//! field, on a track with no lap, in the race direction.

use super::super::random_maps::walled_field;
use super::*;
use crate::track::bundled;

#[test]
fn a_track_with_no_lap_still_gets_a_line_that_can_be_followed() {
    let map = "#########\n#.......#\n#...>..=#\n#.......#\n#########\n";
    let t = crate::track::parse("t", map.as_bytes()).unwrap();
    let line = Line::new(&t, 8.0, 6.0, 60.0);
    assert!(!line.points.is_empty());
    assert!(line.speeds.iter().all(|v| v.is_finite()));
    let i = line.nearest(DVec2::new(3.0, 3.0), 7);
    assert!(line.ahead(i, 20.0).is_finite());
}

#[test]
fn every_bundled_track_gets_a_closed_line_on_the_road() {
    for (name, _) in bundled::TRACKS {
        let t = bundled::load(name).unwrap();
        let line = Line::new(&t, 8.0, 6.0, 60.0);
        assert!(line.points.len() > 20, "{name}");
        for (i, p) in line.points.iter().enumerate() {
            let (c, r) = t.cell_at(*p).unwrap();
            assert!(
                t.drivable(c, r),
                "{name}: point {i} off the course at {p:?}"
            );
            let next = line.points[(i + 1) % line.points.len()];
            assert!(
                p.distance(next) < 3.0 * SPACING,
                "{name}: a gap after point {i}"
            );
        }
        assert!(line.speeds.iter().all(|v| v.is_finite() && *v > 0.0));
    }
}

#[test]
fn in_an_open_field_the_line_turns_wide_round_the_finish_lines_end() {
    // A 60 x 40 field, walled, a finish line down from the top wall to
    // row 19, the start east of it facing east: the lap leaves east,
    // comes round below the line's end, keeping clear of it, and
    // crosses it from the west.
    let t = walled_field(60, 40, |c, r| match (c, r) {
        (30, r) if r < 20 && r > 0 => Some('|'),
        (34, 10) => Some('>'),
        _ => None,
    });
    let line = Line::new(&t, 8.0, 6.0, 60.0);
    let n = line.points.len();
    // Before, the finish line was drawn on to the bottom wall for
    // planning: no way round it, and the line was the start alone.
    assert!(n > 20, "{n} points: {:?}", line.points);
    let end = t.cell_center(30, 19) + DVec2::new(0.0, 2.0);
    let nearest = line
        .points
        .iter()
        .map(|p| p.distance(end))
        .fold(f64::INFINITY, f64::min);
    assert!(nearest > 6.0, "{nearest} m from the line's end");
    // It crosses the finish line once, eastwards, from its last point
    // to its first.
    let x = t.cell_center(30, 0).x;
    let crossings: Vec<usize> = (0..n)
        .filter(|&i| (line.points[i].x - x).signum() != (line.points[(i + 1) % n].x - x).signum())
        .filter(|&i| line.points[i].y < end.y)
        .collect();
    assert_eq!(crossings, vec![n - 1]);
    assert!(line.points[0].x > x);
}

#[test]
fn only_the_largest_tracks_are_searched_in_blocks() {
    let sizes = |reach| sizes_for(reach).collect::<Vec<_>>();
    assert_eq!(sizes(1000), [0usize; 0]);
    assert_eq!(sizes(CELLS_SEARCHED), [0usize; 0]);
    assert_eq!(sizes(CELLS_SEARCHED + 1), [2]);
    assert_eq!(sizes(4 * CELLS_SEARCHED + 1), [3]);
    // The largest map the format allows, open: blocks of 4, then 2.
    assert_eq!(sizes(8190 * 8190), [4, 2]);
}

#[test]
fn the_line_runs_the_race_direction_from_the_finish() {
    let t = bundled::load("pocket").unwrap();
    let line = Line::new(&t, 8.0, 6.0, 60.0);
    let d = line.points[3] - line.points[0];
    assert!(
        d.dot(t.race_direction()) > 0.0,
        "leaves the finish going east: {d:?}"
    );
}
