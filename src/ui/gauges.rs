//! Gauges: the tachometer and the slip gauges, one bar widget for both.
//!
//! A bar is a label line (`RPM  5200`) over a row of cells filled in
//! proportion to the value. The part past the warning mark (the redline,
//! or the slip where tires give up) is drawn in a different character as
//! well as in red, so it reads in monochrome. Whatever the physics hands
//! over (NaN, infinities, out of range), the bar clamps it: a gauge never
//! panics.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;

use super::fg;

/// `x` as a fraction 0..=1, with NaN as 0.
pub fn unit(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// A number for display: NaN and infinities as 0.
pub fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
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
    pub color: bool,
}

impl Widget for Bar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width < 4 {
            return;
        }
        let label = format!("{:<7}{}", self.label, self.text);
        buf.set_stringn(
            area.x,
            area.y,
            &label,
            area.width as usize,
            fg(self.color, Color::White),
        );
        if area.height < 2 {
            return;
        }
        let width = area.width as usize;
        let filled = (unit(self.fill) * width as f64).round() as usize;
        let warn_at = (unit(self.warn) * width as f64).round() as usize;
        for i in 0..width {
            let (symbol, color) = match (i < filled, i >= warn_at) {
                (true, false) => ("█", Color::Green),
                (true, true) => ("▓", Color::Red),
                (false, false) => ("░", Color::DarkGray),
                (false, true) => ("▒", Color::Red),
            };
            buf.set_string(area.x + i as u16, area.y + 1, symbol, fg(self.color, color));
        }
    }
}

/// The tachometer: rpm against the redline, the last tenth before it red.
pub fn tachometer(rpm: f64, redline: f64, color: bool) -> Bar<'static> {
    let scale = finite(redline).max(1.0) * 1.05;
    Bar {
        label: "RPM",
        text: format!("{:>5.0}", finite(rpm).clamp(0.0, 99_999.0)),
        fill: rpm / scale,
        warn: 0.9 * redline / scale,
        color,
    }
}

/// A slip gauge: |slip angle| out of 30 degrees, red past 8 degrees.
pub fn slip(label: &'static str, degrees: f64, color: bool) -> Bar<'static> {
    Bar {
        label,
        text: format!("{:>5.1}°", tenths(degrees).clamp(-999.0, 999.0)),
        fill: degrees.abs() / 30.0,
        warn: 8.0 / 30.0,
        color,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::buffer_text;

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
                    tachometer(a, b, true).render(Rect::new(0, 0, w, h), &mut buf);
                    slip("SLIP F", a, false).render(Rect::new(0, 0, w, h), &mut buf);
                }
            }
        }
    }

    #[test]
    fn the_tachometer_fills_to_the_rpm_and_marks_the_redline() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 2));
        tachometer(3150.0, 6000.0, false).render(Rect::new(0, 0, 20, 2), &mut buf);
        // 3150 of 6300 fills half; the redline zone starts at 90% of 6000.
        assert_eq!(buffer_text(&buf), "RPM     3150\n██████████░░░░░░░▒▒▒\n");
    }

    #[test]
    fn a_tiny_negative_slip_reads_as_zero_not_minus_zero() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 16, 1));
        slip("SLIP R", -0.0004, false).render(Rect::new(0, 0, 16, 1), &mut buf);
        assert_eq!(buffer_text(&buf), "SLIP R   0.0°\n");
    }

    #[test]
    fn a_nan_slip_reads_as_zero() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 16, 2));
        slip("SLIP R", f64::NAN, false).render(Rect::new(0, 0, 16, 2), &mut buf);
        assert_eq!(buffer_text(&buf), "SLIP R   0.0°\n░░░░▒▒▒▒▒▒▒▒▒▒▒▒\n");
    }
}
