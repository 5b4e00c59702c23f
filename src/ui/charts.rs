//! Lap charts (ratatui `Chart`): speed or slip over the distance into the
//! lap, this lap against the best. Which is which is said in the box's
//! title, in each line's colour (without colour, the best lap is drawn in
//! dots and named `best •`), so no legend box covers the lines at any
//! size.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Clear, Dataset, GraphType, Widget};

use super::theme::THEME;
use crate::race::timing::Lap;

/// Which of a lap's traces to chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// km/h.
    Speed,
    /// Degrees.
    Slip,
}

/// (distance, value) points of a lap, dropping what is not finite.
fn points(lap: &Lap, series: Series) -> Vec<(f64, f64)> {
    let i = match series {
        Series::Speed => 1,
        Series::Slip => 2,
    };
    lap.trace
        .iter()
        .map(|t| (t[0], t[i]))
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect()
}

/// A chart of `this` lap against `best` in `area`, boxed under `title`
/// and the two laps' names.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    title: &str,
    this: &Lap,
    best: Option<&Lap>,
    series: Series,
    color: bool,
) {
    if area.width < 12 || area.height < 5 {
        return;
    }
    let now = points(this, series);
    let then = best.map(|b| points(b, series)).unwrap_or_default();
    let all = now.iter().chain(&then);
    let x_max = all.clone().map(|p| p.0).fold(1.0, f64::max);
    let y_max = all.map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let unit = match series {
        Series::Speed => "km/h",
        Series::Slip => "deg",
    };
    // Without colour the two lines differ in shape: the best lap in dots.
    let best_marker = if color { Marker::Braille } else { Marker::Dot };
    let mut sets = vec![
        Dataset::default()
            .name(if color { "best" } else { "best •" })
            .marker(best_marker)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(THEME.faint))
            .data(&then),
        Dataset::default()
            .name("this lap")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(THEME.accent))
            .data(&now),
    ];
    if then.is_empty() {
        sets.remove(0);
    }
    let mut names = vec![
        Span::raw(format!(" {title}: ")),
        Span::styled("this lap", Style::new().fg(THEME.accent)),
    ];
    if !then.is_empty() {
        let best = if color { "best" } else { "best •" };
        names.extend([
            Span::raw(", "),
            Span::styled(best, Style::new().fg(THEME.faint)),
        ]);
    }
    names.push(Span::raw(" "));
    Clear.render(area, buf);
    Chart::new(sets)
        .block(Block::bordered().title(Line::from(names)))
        .legend_position(None)
        .x_axis(
            Axis::default()
                .bounds([0.0, x_max])
                .labels(["0 m".to_string(), format!("{x_max:.0} m")])
                .style(Style::new()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, y_max])
                .labels(["0".to_string(), format!("{y_max:.0} {unit}")])
                .style(Style::new()),
        )
        .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_take_empty_nan_and_tiny_inputs_without_panicking() {
        let lap = Lap {
            trace: vec![
                [0.0, f64::NAN, f64::INFINITY],
                [1.0, 50.0, 3.0],
                [f64::NAN, 1.0, 1.0],
            ],
            ..Lap::default()
        };
        for (w, h) in [(0, 0), (11, 4), (40, 10), (80, 20)] {
            let mut buf = Buffer::empty(Rect::new(0, 0, 80, 20));
            draw(
                &mut buf,
                Rect::new(0, 0, w, h),
                "speed",
                &lap,
                Some(&Lap::default()),
                Series::Speed,
                true,
            );
            draw(
                &mut buf,
                Rect::new(0, 0, w, h),
                "slip",
                &Lap::default(),
                None,
                Series::Slip,
                false,
            );
        }
    }
}
