//! The braille grid's tests: what it draws, what it keeps, what it
//! says was painted.

use super::*;
use ratatui::style::Style;
use ratatui::widgets::Widget;
use ratatui::widgets::canvas::Canvas;

/// Dot for dot what ratatui's braille canvas draws, overlapping dots
/// and colours included, on a buffer that already holds text.
#[test]
fn the_grid_draws_what_the_braille_canvas_draws() {
    let area = Rect::new(2, 1, 7, 3);
    let dots = (14, 12);
    let points: Vec<(usize, usize, Color)> = (0..60)
        .map(|i| {
            let c = [Color::Red, Color::Green, Color::Blue][i % 3];
            ((i * 7) % 14, (i * 5 + i / 3) % 12, c)
        })
        .collect();
    let mut want = Buffer::empty(Rect::new(0, 0, 10, 5));
    want.set_string(0, 2, "under the dots", Style::new().fg(Color::Yellow));
    let mut got = want.clone();
    Canvas::default()
        .marker(ratatui::symbols::Marker::Braille)
        .x_bounds([0.0, 13.0])
        .y_bounds([0.0, 11.0])
        .paint(|ctx| {
            ctx.draw(&Points(&points));
        })
        .render(area, &mut want);
    let mut grid = Dots::new(dots);
    for &(x, y, c) in &points {
        grid.paint(x, y, c);
    }
    grid.render(area, &mut got);
    assert_eq!(got, want);
}

struct Points<'a>(&'a [(usize, usize, Color)]);

impl ratatui::widgets::canvas::Shape for Points<'_> {
    fn draw(&self, painter: &mut ratatui::widgets::canvas::Painter) {
        for &(x, y, c) in self.0 {
            painter.paint(x, y, c);
        }
    }
}

#[test]
fn a_grid_says_which_cells_were_painted_over_the_kept_one() {
    let key = (9, 3, 3, 1, (0, 0), (8, 12), 0);
    let mut grid = Dots::cached(key, (8, 12), |g| g.paint(0, 0, Color::Red));
    let area = Rect::new(10, 5, 4, 3);
    assert_eq!(
        grid.touched(area).count(),
        0,
        "the kept ground is not damage"
    );
    grid.paint(3, 5, Color::Blue);
    grid.paint(6, 4, Color::Blue);
    grid.paint(7, 11, Color::Blue);
    let got: Vec<Rect> = grid.touched(area).collect();
    assert_eq!(got, [Rect::new(11, 6, 3, 1), Rect::new(13, 7, 1, 1)]);
    // Clipped to the area it is drawn in.
    let small = Rect::new(10, 5, 2, 2);
    assert_eq!(
        grid.touched(small).collect::<Vec<_>>(),
        [Rect::new(11, 6, 1, 1)]
    );
}

#[test]
fn a_kept_grid_is_painted_once_per_key() {
    let key = |n| (7, 3, 3, 1, (0, 0), (6, 8), n);
    let mut painted = 0;
    for n in [1, 2, 1, 1, 2] {
        Dots::cached(key(n), (6, 8), |g| {
            painted += 1;
            g.paint(usize::from(n), 0, Color::Red);
        });
    }
    assert_eq!(painted, 2);
    let one = Dots::cached(key(1), (6, 8), |_| unreachable!());
    let mut want = Dots::new((6, 8));
    want.paint(1, 0, Color::Red);
    assert!(one == want);
}

/// A grid given back, of any size and whatever was painted on it,
/// leaves nothing of itself in the next copy of a kept grid: that
/// copy is the kept grid and says nothing of it was painted over.
#[test]
fn a_grid_given_back_leaves_nothing_in_the_next_copy() {
    let key = |n| (8, 3, 3, 1, (0, 0), (6, 8), n);
    let paint = |g: &mut Dots| g.paint(5, 7, Color::Red);
    Dots::cached(key(1), (6, 8), paint);
    for spare in [(2, 4), (6, 8), (40, 40)] {
        let mut used = Dots::new(spare);
        used.paint(1, 3, Color::Blue);
        used.give_back();
        let got = Dots::cached(key(1), (6, 8), |_| unreachable!());
        let mut want = Dots::new((6, 8));
        want.paint(5, 7, Color::Red);
        assert!(got == want, "after a grid of {spare:?}");
        let area = Rect::new(0, 0, 3, 2);
        assert_eq!(got.touched(area).count(), 0, "after {spare:?}");
        got.give_back();
    }
}

#[test]
fn a_lines_steps_run_from_end_to_end() {
    let line: Vec<_> = steps((0, 0), (3, 1)).collect();
    assert_eq!(line, [(0, 0), (1, 0), (2, 1), (3, 1)]);
    assert_eq!(steps((2, 2), (2, 2)).collect::<Vec<_>>(), [(2, 2)]);
    assert_eq!(steps((0, 0), (0, -9000)).count(), 4097);
}

/// The minimap's course is rendered from the kept grid as it is: what a
/// grid painted afresh renders, painted once for its key; and a grid too
/// big to keep is rendered all the same, painted each time.
#[test]
fn a_kept_grid_renders_in_place_what_a_fresh_one_renders() {
    let paint = |g: &mut Dots| {
        g.paint(0, 0, Color::Red);
        g.paint(5, 6, Color::Blue);
    };
    let area = Rect::new(1, 1, 3, 2);
    let mut want = Buffer::empty(Rect::new(0, 0, 6, 4));
    want.set_string(0, 1, "kept", Style::new());
    let mut got = want.clone();
    let mut fresh = Dots::new((6, 8));
    paint(&mut fresh);
    fresh.render(area, &mut want);
    let key = (10, 3, 3, 0, (6, 4), (6, 8), 0);
    let mut painted = 0;
    for _ in 0..3 {
        Dots::render_cached(
            key,
            (6, 8),
            |g| {
                painted += 1;
                paint(g);
            },
            area,
            &mut got,
        );
        assert_eq!(got, want);
    }
    assert_eq!(painted, 1, "painted once for its key");
    // Past the cells a thread keeps: rendered, not kept.
    let huge = (2 * 2001, 4 * 1000);
    let key = (11, 3, 3, 0, (6, 4), huge, 0);
    let mut painted = 0;
    for _ in 0..2 {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 4));
        let draw = |g: &mut Dots| {
            painted += 1;
            g.paint(0, 0, Color::Red);
        };
        Dots::render_cached(key, huge, draw, area, &mut buf);
        assert_eq!(buf[(1, 1)].symbol(), "⠁");
    }
    assert_eq!(painted, 2);
}
