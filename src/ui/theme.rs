//! The screen's colours by what they mean, in one place (ratatui demo2's
//! `THEME`). Drawing code names a role, never a colour; without colour
//! (`NO_COLOR`) the finished frame loses its colours in one pass
//! ([`finish`]), and only a picture that colour alone would tell apart
//! (the results chart's two laps) draws itself differently.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

/// Every colour the screen uses, by role.
pub struct Theme {
    /// Figures, headings, the walls' edge.
    pub text: Color,
    /// Labels and secondary figures.
    pub dim: Color,
    /// Hints, borders, skid marks, the ghost.
    pub faint: Color,
    /// What the eye should go to: the selection, titles, banners, this lap.
    pub accent: Color,
    /// Faster, go, a gauge within its range.
    pub good: Color,
    /// Slower, stop, a gauge in its red zone, sliding.
    pub bad: Color,
    /// The player's car.
    pub you: Color,
    /// Every other car.
    pub rival: Color,
    /// The mark (finish or checkpoint) to cross next.
    pub next_mark: Color,
    /// The finish line when it is not next.
    pub finish: Color,
    /// A checkpoint line when it is not next.
    pub checkpoint: Color,
    pub grass: Color,
    pub gravel: Color,
    pub ice: Color,
    /// Any other surface with ice's grip or less.
    pub slick: Color,
    /// Any other surface with less grip than asphalt.
    pub loose: Color,
}

pub const THEME: Theme = Theme {
    text: Color::White,
    dim: Color::Gray,
    faint: Color::DarkGray,
    accent: Color::Yellow,
    good: Color::Green,
    bad: Color::Red,
    you: Color::LightRed,
    rival: Color::LightBlue,
    next_mark: Color::LightGreen,
    finish: Color::White,
    checkpoint: Color::Magenta,
    grass: Color::Green,
    gravel: Color::Yellow,
    ice: Color::Cyan,
    slick: Color::LightCyan,
    loose: Color::LightYellow,
};

/// A drawn frame as its person asked for it: in colour if `color`, else
/// with every colour taken out, keeping symbols and bold or reversed
/// text (`NO_COLOR`; both front doors finish their frames with this).
pub fn finish(buf: &mut Buffer, color: bool) {
    if color {
        return;
    }
    for cell in &mut buf.content {
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
    }
}
