//! The side panel: lap, lap time, best lap and split delta, then the
//! tachometer, gear and speed, the slip gauges, and the keys to know.
//! Every figure reads the car's telemetry, which is the same for every
//! model.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

use super::gauges::{self, finite};
use super::theme::THEME;
use crate::app::SeatView;
use crate::physics::ModelKind;

/// `m:ss.cc`, or dashes for no time.
pub fn clock(t: Option<f64>) -> String {
    match t.filter(|t| t.is_finite() && *t >= 0.0) {
        Some(t) => {
            let cs = (t * 100.0).round() as u64;
            format!("{}:{:02}.{:02}", cs / 6000, cs / 100 % 60, cs % 100)
        }
        None => "-:--.--".into(),
    }
}

/// A signed delta, `+0.21` or `-1.05`.
pub fn delta(d: f64) -> String {
    format!("{:+.2}", finite(d))
}

/// One car's line in the standings: place, name, gap to the leader,
/// the lap it is on. `P1 YOU          L2`, `P2 CPU 1  +12 m L2`.
pub fn standing_line(place: usize, s: &crate::app::Standing, laps: u32, name: &str) -> String {
    let gap = if s.gap >= 1.0 {
        format!("+{:.0} m", s.gap.min(99_999.0))
    } else {
        String::new()
    };
    format!("P{place} {name:<6}{gap:>8} L{}", (s.laps + 1).min(laps))
}

/// What the game read on the latest tick, as the player's keys: `GAS`,
/// `BRK`, `<` or `>` to steer, `HB` (or `HOP` in `strafe`, with `S<` and
/// `S>` to strafe); a `*` marks a control kept on by steering, not by its
/// key (`crate::input`).
pub fn input_line(v: SeatView<'_>) -> String {
    let c = &v.seat.last;
    let k = &v.seat.kept;
    let mark = |on: bool| if on { "*" } else { "" };
    let mut parts: Vec<String> = Vec::new();
    if c.throttle > 0.0 {
        parts.push(format!("GAS{}", mark(k.throttle)));
    }
    if c.brake > 0.0 {
        parts.push(format!("BRK{}", mark(k.brake)));
    }
    if c.steer < 0.0 {
        parts.push("<".into());
    } else if c.steer > 0.0 {
        parts.push(">".into());
    }
    if c.strafe < 0.0 {
        parts.push("S<".into());
    } else if c.strafe > 0.0 {
        parts.push("S>".into());
    }
    if c.handbrake || c.jump {
        let name = if c.jump { "HOP" } else { "HB" };
        parts.push(format!("{name}{}", mark(k.space)));
    }
    format!("INPUT {}", parts.join(" "))
}

/// Draws the panel; returns the first row below what it drew.
pub fn draw(buf: &mut Buffer, area: Rect, v: SeatView<'_>) -> u16 {
    if area.width < 8 || area.height == 0 {
        return area.bottom();
    }
    let x = area.x + 1;
    let w = area.width.saturating_sub(1) as usize;
    let bottom = area.y + area.height;
    let mut y = area.y;
    let line = |buf: &mut Buffer, y: &mut u16, text: &str, c: Color| {
        if *y < bottom {
            buf.set_stringn(x, *y, text, w, Style::new().fg(c));
        }
        *y += 1;
    };
    let car = &v.car();
    let tel = car.telemetry();
    let track = &v.race.world.track;

    let title = format!("skid · {}", track.name);
    line(buf, &mut y, &title, THEME.text);
    line(
        buf,
        &mut y,
        &format!("{} · {}", car.kind, car.spec().name),
        THEME.dim,
    );
    y += 1;
    let lap = (v.seat.log.ends.len() as u32 + 1).min(v.laps());
    // The standings once a frame: POS here, the list further down.
    let standings = if v.rivals().next().is_none() {
        Vec::new()
    } else {
        v.race.standings()
    };
    let me = standings
        .iter()
        .position(|s| s.car == v.seat.car)
        .unwrap_or(0);
    let lap_line = if standings.is_empty() {
        format!("LAP   {lap}/{}", v.laps())
    } else {
        format!(
            "LAP   {lap}/{}  POS {}/{}",
            v.laps(),
            me + 1,
            standings.len()
        )
    };
    line(buf, &mut y, &lap_line, THEME.text);
    line(
        buf,
        &mut y,
        &format!("TIME  {}", clock(Some(v.lap_time()))),
        THEME.text,
    );
    line(
        buf,
        &mut y,
        &format!("BEST  {}", clock(v.best_time())),
        THEME.text,
    );
    let (split, split_color) = match v.split_delta() {
        Some(d) if d <= 0.0 => (delta(d), THEME.good),
        Some(d) => (delta(d), THEME.bad),
        None => ("--".into(), THEME.dim),
    };
    line(buf, &mut y, &format!("SPLIT {split}"), split_color);
    y += 1;

    let bar_area = |y: u16| Rect::new(x, y, w as u16, 2).intersection(area);
    let kmh = (finite(tel.speed) * 3.6).clamp(0.0, 9999.0);
    let spec = car.spec();
    if car.kind == ModelKind::Strafe {
        // Quake movement has no engine, gears or tire slip: its speed
        // against the ground cap, and the hop.
        let ups = finite(tel.speed) * crate::physics::strafe::UNITS;
        if y + 2 <= bottom {
            gauges::strafe_speed(ups, spec.strafe.maxspeed).render(bar_area(y), buf);
        }
        y += 2;
        line(buf, &mut y, &format!("      {kmh:>3.0} km/h"), THEME.text);
        let hop = if v.seat.last.jump { "on " } else { "off" };
        let air = if car.airborne() { "AIR" } else { "GROUND" };
        line(buf, &mut y, &format!("HOP   {hop} {air}"), THEME.text);
    } else {
        let e = &spec.engine;
        let rpm = gauges::shown_rpm(
            tel.rpm,
            v.seat.last.throttle,
            tel.speed,
            tel.gear,
            e.idle_rpm,
            e.redline_rpm,
        );
        if y + 2 <= bottom {
            gauges::tachometer(rpm, e.redline_rpm).render(bar_area(y), buf);
        }
        y += 2;
        let gear = match tel.gear {
            g if g < 0 => "R".to_string(),
            0 => "N".to_string(),
            g => g.to_string(),
        };
        let mode = if car.state.drive.manual {
            "manual"
        } else {
            "auto"
        };
        if y < bottom {
            buf.set_stringn(
                x,
                y,
                format!("GEAR  {gear:<2} {mode}"),
                w,
                Style::new().fg(THEME.text).add_modifier(Modifier::BOLD),
            );
        }
        y += 1;
        line(buf, &mut y, &format!("SPEED {kmh:>3.0} km/h"), THEME.text);
        if car.kind == ModelKind::Kinematic {
            // Bicycle geometry never slips: where the wheels point, and the
            // circle they drive (`R = L / tan(delta)`).
            let deg = gauges::tenths(tel.steer.to_degrees());
            let side = match deg {
                d if d < 0.0 => "◀",
                d if d > 0.0 => "▶",
                _ => "",
            };
            line(
                buf,
                &mut y,
                &format!("STEER {:>4.1}° {side}", deg.abs()),
                THEME.text,
            );
            let radius = spec.body.wheelbase / tel.steer.abs().tan();
            let turn = if radius.is_finite() && radius < 1000.0 {
                format!("TURN  {radius:>4.0} m")
            } else {
                "TURN  straight".into()
            };
            line(buf, &mut y, &turn, THEME.text);
        } else {
            line(buf, &mut y, "SLIP  ◀ left│right ▶", THEME.dim);
            let s = tel.sliding;
            for (label, slip, sliding) in [
                ("SLIP F", tel.slip_front, s[0] || s[1]),
                ("SLIP R", tel.slip_rear, s[2] || s[3]),
            ] {
                if y + 2 <= bottom {
                    let bar = gauges::SlipBar {
                        label,
                        degrees: slip,
                        sliding,
                    };
                    bar.render(bar_area(y), buf);
                }
                y += 2;
            }
        }
    }
    if y + 1 < bottom {
        line(buf, &mut y, &input_line(v), THEME.dim);
    }
    if !standings.is_empty() {
        // As many standings as fit above the key line, the player's always.
        let room = bottom.saturating_sub(y + 1) as usize;
        let all = &standings;
        let shown: Vec<usize> = if me < room {
            (0..all.len().min(room)).collect()
        } else {
            (0..room.saturating_sub(1)).chain([me]).collect()
        };
        for i in shown {
            let s = &all[i];
            let c = if s.car == v.seat.car {
                THEME.text
            } else {
                THEME.dim
            };
            line(
                buf,
                &mut y,
                &standing_line(i + 1, s, v.laps(), &v.race.name(s.car, v.seat.car)),
                c,
            );
        }
    }
    let below = y;
    if bottom > area.y + 1 {
        let mut y = bottom - 1;
        // A race between people (`skid serve`) has no pause; q leaves it.
        let keys = if v.race.door.pauses() {
            "? help  p pause  q quit"
        } else {
            "? help  q leave"
        };
        line(buf, &mut y, keys, THEME.faint);
    }
    below.min(bottom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_formats_and_guards() {
        assert_eq!(clock(Some(83.456)), "1:23.46");
        assert_eq!(clock(Some(0.0)), "0:00.00");
        assert_eq!(clock(None), "-:--.--");
        assert_eq!(clock(Some(f64::NAN)), "-:--.--");
        assert_eq!(delta(-0.214), "-0.21");
        assert_eq!(delta(f64::INFINITY), "+0.00");
    }
}
