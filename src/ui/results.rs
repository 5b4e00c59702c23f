//! The results screen: each lap with its time and its difference to the
//! best lap, the best lap, and what to do next.

use crate::session::Door;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::hud::{clock, delta};
use super::menu::centred;
use super::theme::THEME;
use crate::app::SeatView;

/// 1st, 2nd, 3rd, 4th ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub fn draw(buf: &mut Buffer, area: Rect, v: SeatView<'_>, color: bool) {
    use super::charts::{self, Series};
    // Charts of the last lap against the best on the right, room allowing.
    let area = match v.seat.log.last.as_ref() {
        Some(lap) if area.width >= 78 && area.height >= 16 => {
            let w = area.width - 40;
            let half = area.height / 2;
            let right = Rect::new(area.x + 40, area.y, w, half);
            let best = v.seat.log.best.as_ref();
            charts::draw(
                buf,
                right,
                "speed, km/h: last lap, best",
                lap,
                best,
                Series::Speed,
                color,
            );
            let below = Rect::new(area.x + 40, area.y + half, w, area.height - half);
            charts::draw(buf, below, "slip, degrees", lap, best, Series::Slip, color);
            Rect::new(area.x, area.y, 40, area.height)
        }
        _ => area,
    };
    let times = v.lap_times();
    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
    let order = v.seat.final_standings.as_deref().unwrap_or_default();
    let order_rows = if order.len() > 1 {
        order.len() as u16 + 2
    } else {
        0
    };
    let shown = times
        .len()
        .min(area.height.saturating_sub(9 + order_rows) as usize);
    let r = centred(area, 40, shown as u16 + 9 + order_rows);
    let mut y = r.y;
    let mut put = |y: &mut u16, text: &str, c: Color, bold: bool| {
        if *y < r.bottom() {
            let mut style = Style::new().fg(c);
            if bold {
                style = style.add_modifier(Modifier::BOLD);
            }
            buf.set_stringn(r.x, *y, text, r.width as usize, style);
        }
        *y += 1;
    };
    put(&mut y, "RESULTS", THEME.accent, true);
    let car = &v.car();
    put(
        &mut y,
        &format!(
            "{} · {} · {}",
            v.race.world.track.name,
            car.kind,
            car.spec().name
        ),
        THEME.dim,
        false,
    );
    y += 1;
    put(&mut y, "LAP   TIME      DELTA", THEME.text, true);
    for (i, t) in times.iter().enumerate().take(shown) {
        let d = if *t == best {
            "best".to_string()
        } else {
            delta(t - best)
        };
        put(
            &mut y,
            &format!("{:>3}   {:<9} {}", i + 1, clock(Some(*t)), d),
            THEME.text,
            false,
        );
    }
    y += 1;
    let total: f64 = times.iter().sum();
    put(
        &mut y,
        &format!(
            "BEST  {}   TOTAL {}",
            clock(best.is_finite().then_some(best)),
            clock(Some(total))
        ),
        THEME.good,
        true,
    );
    if order.len() > 1 {
        y += 1;
        let place = 1 + order.iter().position(|s| s.car == v.seat.car).unwrap_or(0);
        put(
            &mut y,
            &format!("FINISHED {} OF {}", ordinal(place), order.len()),
            THEME.accent,
            true,
        );
        for (i, s) in order.iter().enumerate() {
            let line =
                super::hud::standing_line(i + 1, s, v.laps(), &v.race.name(s.car, v.seat.car));
            let c = if s.car == v.seat.car {
                THEME.text
            } else {
                THEME.dim
            };
            put(&mut y, &line, c, s.car == v.seat.car);
        }
    }
    y += 1;
    // A race between people (`skid serve`): the host takes the room back
    // to its settings once everyone is done.
    let keys = if v.race.door == Door::Local {
        "Enter menu   r race again   q quit"
    } else {
        "Enter (host) back to the room   q leave"
    };
    put(&mut y, keys, THEME.faint, false);
}
