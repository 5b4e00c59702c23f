//! Gauges: the tachometer, `strafe`'s speed and the slip gauges.
//!
//! A [`Bar`] is a label line (`RPM  5200`) over a row of cells filled in
//! proportion to the value. The part past the warning mark (the redline,
//! or `strafe`'s ground speed cap) is drawn in a different character as
//! well as in red, so it reads in monochrome. A [`SlipBar`] fills from a
//! centre mark towards the side the axle slides to, compressed so that it
//! never saturates (`|a| / (|a| + 8°)` of the half: 8 degrees fill half of
//! it), and turns red, `▓` instead of `█`, while that axle's tires
//! actually slide. Whatever the physics hands over (NaN, infinities, out
//! of range), the gauges clamp it: a gauge never panics.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::Widget;

use super::theme::THEME;

/// `x` as a fraction 0..=1, with NaN as 0.
pub fn unit(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// A number for display: NaN and infinities as 0.
pub fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// `x` rounded to a whole number for display, clamped to 0..=99,999 (NaN
/// and infinities as 0): the figure `{:.0}` prints for it, ties to even,
/// to be written as an integer (a float's fixed precision takes a slow,
/// exact path, for every figure of every player's frame).
pub fn whole(x: f64) -> u32 {
    finite(x).clamp(0.0, 99_999.0).round_ties_even() as u32
}

/// `x` rounded to one decimal for display, never as "-0.0".
pub fn tenths(x: f64) -> f64 {
    (finite(x) * 10.0).round() / 10.0 + 0.0
}

pub struct Bar<'a> {
    pub label: &'a str,
    /// The value as printed after the label.
    pub text: String,
    /// Fill, 0..=1 (clamped, NaN empty).
    pub fill: f64,
    /// Where the warning zone starts, 0..=1.
    pub warn: f64,
}

impl Widget for Bar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width < 4 {
            return;
        }
        let label = format!("{:<7}{}", self.label, self.text);
        let style = Style::new().fg(THEME.text);
        super::text::put_str(buf, area.x, area.y, &label, area.width, style);
        if area.height < 2 {
            return;
        }
        let width = area.width as usize;
        let filled = (unit(self.fill) * width as f64).round() as usize;
        let warn_at = (unit(self.warn) * width as f64).round() as usize;
        for i in 0..width {
            let (symbol, color) = match (i < filled, i >= warn_at) {
                (true, false) => ("█", THEME.good),
                (true, true) => ("▓", THEME.bad),
                (false, false) => ("░", THEME.faint),
                (false, true) => ("▒", THEME.bad),
            };
            put(buf, area.x + i as u16, area.y + 1, symbol, color);
        }
    }
}

/// The tachometer: rpm against the redline, the last tenth before it red.
pub fn tachometer(rpm: f64, redline: f64) -> Bar<'static> {
    let scale = finite(redline).max(1.0) * 1.05;
    Bar {
        label: "RPM",
        text: format!("{:>5}", whole(rpm)),
        fill: rpm / scale,
        warn: 0.9 * redline / scale,
    }
}

/// The tachometer's reading: the engine's rpm, or while the car is under
/// 3 m/s in a forward gear the rpm the throttle revs it to against the
/// clutch (`idle + throttle 0.8 (redline - idle)`, the drivetrain's free
/// revving), whichever is higher; so a launch, and the grid, show the
/// engine rising.
pub fn shown_rpm(rpm: f64, throttle: f64, speed: f64, gear: i32, idle: f64, redline: f64) -> f64 {
    let revving = idle + unit(throttle) * 0.8 * (redline - idle);
    if gear >= 1 && finite(speed) < 3.0 {
        finite(rpm).max(revving)
    } else {
        rpm
    }
}

/// `strafe`'s speed: Quake units a second against twice the ground speed
/// cap, the part past the cap (reached only by air strafing) red.
pub fn strafe_speed(ups: f64, cap: f64) -> Bar<'static> {
    let scale = 2.0 * finite(cap).max(1.0);
    Bar {
        label: "SPEED",
        text: format!("{:>4} u/s", whole(ups)),
        fill: ups / scale,
        warn: 0.5,
    }
}

/// Degrees of slip that fill half of a slip gauge's half.
const SLIP_HALF: f64 = 8.0;

/// A slip gauge (see the module doc): `degrees` of slip of one axle,
/// positive when it slides to the car's right, and whether its tires slide.
pub struct SlipBar<'a> {
    pub label: &'a str,
    pub degrees: f64,
    pub sliding: bool,
}

impl Widget for SlipBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width < 4 {
            return;
        }
        let d = tenths(self.degrees).clamp(-999.0, 999.0);
        let side = match d {
            d if d < 0.0 => " ◀",
            d if d > 0.0 => " ▶",
            _ => "",
        };
        let label = format!("{:<7}{:>5.1}°{side}", self.label, d.abs());
        let style = Style::new().fg(THEME.text);
        super::text::put_str(buf, area.x, area.y, &label, area.width, style);
        if area.height < 2 {
            return;
        }
        let half = (area.width as usize - 1) / 2;
        let mid = area.x + half as u16;
        let a = finite(self.degrees).abs();
        let filled = (a / (a + SLIP_HALF) * half as f64).round() as usize;
        let (full, full_color) = if self.sliding {
            ("▓", THEME.bad)
        } else {
            ("█", THEME.good)
        };
        for i in 0..half {
            // The i-th cell out from the centre, on each side.
            let on = i < filled;
            for (x, toward) in [(mid - 1 - i as u16, -1.0), (mid + 1 + i as u16, 1.0)] {
                let lit = on && self.degrees.signum() == toward && a > 0.0;
                let (symbol, color) = if lit {
                    (full, full_color)
                } else {
                    ("░", THEME.faint)
                };
                put(buf, x, area.y + 1, symbol, color);
            }
        }
        put(buf, mid, area.y + 1, "│", THEME.dim);
    }
}

/// One cell of a gauge: `symbol` (one column wide) in `color`, if the
/// cell is on the buffer. A cell at a time, without `set_string`'s
/// splitting of text into graphemes: a gauge is drawn cell by cell in
/// every frame of every player.
fn put(buf: &mut Buffer, x: u16, y: u16, symbol: &str, color: Color) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(symbol).set_fg(color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::buffer_text;

    proptest::proptest! {
        /// The whole figure is what `{:.0}` prints for the clamped value:
        /// halves as they fall (ties to even), and any float at all.
        #[test]
        fn whole_figures_print_as_a_float_to_no_places(
            n in -200_000i64..200_000,
            frac in proptest::sample::select(vec![0.0, 0.5, 0.499_999_999_999, 0.500_000_000_001, 0.25]),
            any in proptest::num::f64::ANY,
        ) {
            for x in [n as f64 + frac, any] {
                let shown = if x.is_finite() { x.clamp(0.0, 99_999.0) + 0.0 } else { 0.0 };
                proptest::prop_assert_eq!(whole(x).to_string(), format!("{shown:.0}"), "{}", x);
            }
        }
    }

    #[test]
    fn gauges_never_panic_whatever_they_are_fed() {
        let weird = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1e300,
            1e300,
            -5.0,
            0.0,
            7000.0,
        ];
        for &a in &weird {
            for &b in &weird {
                for (w, h) in [(0, 0), (3, 1), (20, 2), (1, 5)] {
                    let mut buf = Buffer::empty(Rect::new(0, 0, 20, 3));
                    tachometer(a, b).render(Rect::new(0, 0, w, h), &mut buf);
                    strafe_speed(a, b).render(Rect::new(0, 0, w, h), &mut buf);
                    let _ = shown_rpm(a, b, a, 1, b, a);
                    for sliding in [false, true] {
                        let bar = SlipBar {
                            label: "SLIP F",
                            degrees: a,
                            sliding,
                        };
                        bar.render(Rect::new(0, 0, w, h), &mut buf);
                    }
                }
            }
        }
    }

    #[test]
    fn the_tachometer_fills_to_the_rpm_and_marks_the_redline() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 2));
        tachometer(3150.0, 6000.0).render(Rect::new(0, 0, 20, 2), &mut buf);
        // 3150 of 6300 fills half; the redline zone starts at 90% of 6000.
        assert_eq!(buffer_text(&buf), "RPM     3150\n██████████░░░░░░░▒▒▒\n");
    }

    fn slip_text(degrees: f64, sliding: bool) -> String {
        let mut buf = Buffer::empty(Rect::new(0, 0, 17, 2));
        let bar = SlipBar {
            label: "SLIP R",
            degrees,
            sliding,
        };
        bar.render(Rect::new(0, 0, 17, 2), &mut buf);
        buffer_text(&buf)
    }

    #[test]
    fn a_tiny_negative_or_nan_slip_reads_as_zero_with_no_side() {
        assert_eq!(
            slip_text(-0.0004, false),
            "SLIP R   0.0°\n░░░░░░░░│░░░░░░░░\n"
        );
        assert_eq!(
            slip_text(f64::NAN, false),
            "SLIP R   0.0°\n░░░░░░░░│░░░░░░░░\n"
        );
    }

    #[test]
    fn the_slip_gauge_shows_the_side_and_never_saturates() {
        // 8 degrees to the right fill half the right half; 24 three quarters.
        assert_eq!(
            slip_text(8.0, false),
            "SLIP R   8.0° ▶\n░░░░░░░░│████░░░░\n"
        );
        assert_eq!(
            slip_text(-24.0, false),
            "SLIP R  24.0° ◀\n░░██████│░░░░░░░░\n"
        );
        // 80 degrees still leaves a cell: the gauge does not saturate.
        assert_eq!(
            slip_text(80.0, true),
            "SLIP R  80.0° ▶\n░░░░░░░░│▓▓▓▓▓▓▓░\n"
        );
    }

    #[test]
    fn the_tachometer_revs_at_a_standstill_with_the_throttle() {
        // 900 idle, 6000 redline: full throttle revs to 900 + 0.8 * 5100.
        assert_eq!(shown_rpm(900.0, 1.0, 0.0, 1, 900.0, 6000.0), 4980.0);
        assert_eq!(shown_rpm(900.0, 0.0, 0.0, 1, 900.0, 6000.0), 900.0);
        assert_eq!(
            shown_rpm(2000.0, 1.0, 10.0, 1, 900.0, 6000.0),
            2000.0,
            "moving"
        );
        assert_eq!(
            shown_rpm(900.0, 1.0, 0.0, -1, 900.0, 6000.0),
            900.0,
            "reverse"
        );
    }
}
