//! What is drawn over the race: the countdown, the pause notice, the help
//! overlay, and the too-small message that replaces everything.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Clear, Widget};

use super::fg;
use super::menu::centred;
use crate::app::{MIN_SIZE, Phase, Race};

/// Lines in a bordered box centred in `area`.
fn boxed(buf: &mut Buffer, area: Rect, title: &str, lines: &[&str]) {
    let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4;
    let r = centred(
        area,
        w.max(title.chars().count() as u16 + 4),
        lines.len() as u16 + 2,
    );
    Clear.render(r, buf);
    Block::bordered().title(format!(" {title} ")).render(r, buf);
    for (i, line) in lines.iter().enumerate() {
        let y = r.y + 1 + i as u16;
        if y + 1 < r.bottom() {
            buf.set_stringn(
                r.x + 2,
                y,
                line,
                r.width.saturating_sub(4) as usize,
                Style::new(),
            );
        }
    }
}

/// Countdown, "GO!" for the first second, the pause notice, or for five
/// seconds after a lap its speed chart against the best lap.
pub fn race(buf: &mut Buffer, view: Rect, race: &Race, paused: bool, color: bool) {
    if let (Some(lap), false) = (race.fresh_lap(), paused) {
        let h = (view.height / 3).max(7).min(view.height);
        let area = Rect::new(view.x, view.bottom() - h, view.width, h);
        let best = race.log.best.as_ref();
        super::charts::draw(
            buf,
            area,
            "lap speed, km/h over m",
            lap,
            best,
            super::charts::Series::Speed,
            color,
        );
    }
    if paused {
        boxed(
            buf,
            view,
            "PAUSED",
            &["p or Esc  resume", "r         restart", "q         quit"],
        );
        return;
    }
    let text = match race.phase {
        Phase::Countdown(n) => ((n as f64 * race.sim.dt).ceil() as u32).max(1).to_string(),
        Phase::Running if race.sim.time() < 1.0 => "GO!".into(),
        Phase::Running => return,
    };
    let r = centred(view, text.len() as u16 + 4, 3);
    Clear.render(r, buf);
    Block::bordered().render(r, buf);
    buf.set_string(
        r.x + 2,
        r.y + 1,
        &text,
        fg(color, Color::Yellow).add_modifier(Modifier::BOLD),
    );
}

/// Every key, in a box over the screen.
pub fn help(buf: &mut Buffer, area: Rect) {
    boxed(
        buf,
        area,
        "HELP",
        &[
            "↑ W   throttle        ↓ S   brake; at a stop, reverse",
            "← A   steer left      → D   steer right",
            "Space handbrake       strafe: jump; held, hop",
            "strafe: A D strafe, ← → turn, f autostrafe",
            "c     manual gears    x z   shift up, down",
            "m     switch model    r     restart",
            "g     ghost on, off   Ctrl-L redraw",
            "p Esc pause           ?     this help",
            "q Ctrl-C quit",
            "",
            "Terminals without key releases (tmux, most SSH):",
            "a key counts while it repeats, and the last key",
            "pressed steers. W or S, then A or D: the pedal is",
            "kept (INPUT shows *) while you steer, and ends",
            "with the steering: press W again after a turn.",
            "strafe: Space hops until pressed again.",
        ],
    );
}

/// Replaces the screen when the terminal is below the minimum size.
pub fn too_small(buf: &mut Buffer, area: Rect, size: (u16, u16)) {
    let lines = [
        "Terminal too small".to_string(),
        format!("{}x{}, needs {}x{}", size.0, size.1, MIN_SIZE.0, MIN_SIZE.1),
        "(race paused; q quits)".to_string(),
    ];
    for (i, line) in lines.iter().enumerate() {
        let w = line.chars().count() as u16;
        let y = area.y + (area.height.saturating_sub(3)) / 2 + i as u16;
        if y < area.bottom() {
            let x = area.x + area.width.saturating_sub(w) / 2;
            buf.set_stringn(x, y, line, area.width as usize, Style::new());
        }
    }
}
