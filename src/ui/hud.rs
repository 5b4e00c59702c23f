//! The side panel: lap, lap time, best lap and split delta, then the
//! tachometer, gear and speed, the slip gauges, and the keys to know.
//! Every figure reads the car's telemetry, which is the same for every
//! model, as of the latest tenth of a second (`crate::race::Readout`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::column::{self, Piece};
use super::gauges::{self, finite};
use super::theme::THEME;
use crate::console::damage::Damage;
use crate::input::Action;
use crate::physics::ModelKind;
use crate::race::seat::Aid;
use crate::race::{SeatView, Standing};

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

/// One car's line in the standings, as seat `v` sees it: place, name,
/// then for a car that finished its time (the winner's) or its gap to the
/// winner, `FIN`; for one still racing its gap to the leader of those
/// racing and the lap it is on; once the race is over, `DNF` for a car
/// that did not finish. `P1 YOU     1:02.35 FIN`, `P2 CPU 1   +1.20s
/// FIN`, `P3 ann     +12 m L2`, `P4 CPU 2      DNF`.
pub fn standing_line(v: SeatView<'_>, place: usize, s: &Standing) -> String {
    use std::fmt::Write;
    let name = v.race.name(s.car, v.viewer);
    let winner = v.race.finishers.first().map(|&(car, _)| car);
    let first = winner.and_then(|car| v.race.finish_time(car));
    let on_lap = || (s.laps + 1).min(v.laps());
    // One string a line, the gap written into it and then right-aligned
    // in its eight columns (every racer's line in every frame); a gap in
    // whole metres (the line's points are 2 m apart).
    let mut line = String::with_capacity(32);
    let _ = write!(line, "P{place} {name:<6}");
    let at = line.len();
    let lap = match (s.finish, first) {
        (Some(t), Some(f)) if t > f => {
            let _ = write!(line, "+{:.2}s", (t - f).min(9_999.0));
            None
        }
        (Some(t), _) => {
            line.push_str(&clock(Some(t)));
            None
        }
        (None, _) if v.race.over() => {
            line.push_str("DNF");
            None
        }
        (None, _) if s.gap >= 1.0 => {
            let _ = write!(line, "+{} m", gauges::whole(s.gap));
            Some(on_lap())
        }
        (None, _) => Some(on_lap()),
    };
    let wide = line[at..].chars().count();
    line.insert_str(at, &"        "[..8usize.saturating_sub(wide)]);
    match (s.finish, lap) {
        (Some(_), _) => line.push_str(" FIN"),
        (None, Some(lap)) => {
            let _ = write!(line, " L{lap}");
        }
        (None, None) => {}
    }
    line.truncate(line.trim_end().len());
    line
}

/// What the game read on the latest tick, as the player's keys: `GAS`,
/// `BRK`, `<` or `>` to steer, `HB` (or `HOP` in `strafe`, with `S<` and
/// `S>` to strafe); a `*` marks a control kept on without its key
/// (`crate::input`); where the keyboard sends no releases, the steering
/// aid (`crate::race::aid`): `AID` while it steers, `aid` while it is on
/// and lets go (at a crawl, reversing), `aid off` once `t` turned it off;
/// nothing in a race whose aid is off.
pub fn input_line(v: SeatView<'_>) -> String {
    let c = &v.seat.last;
    let k = &v.seat.kept;
    let mark = |on: bool| if on { "*" } else { "" };
    let mut parts: Vec<String> = Vec::new();
    if c.throttle > 0.0 {
        parts.push(format!("GAS{}", mark(k.has(Action::Throttle))));
    }
    if c.brake > 0.0 {
        parts.push(format!("BRK{}", mark(k.has(Action::Brake))));
    }
    if c.steer < 0.0 {
        parts.push(format!("<{}", mark(k.has(Action::Left))));
    } else if c.steer > 0.0 {
        parts.push(format!(">{}", mark(k.has(Action::Right))));
    }
    if c.strafe < 0.0 {
        parts.push("S<".into());
    } else if c.strafe > 0.0 {
        parts.push("S>".into());
    }
    if c.handbrake || c.jump {
        let name = if c.jump { "HOP" } else { "HB" };
        parts.push(format!("{name}{}", mark(k.has(Action::Space))));
    }
    match v.seat.aid_shown().filter(|_| v.race.aid_allowed) {
        Some(Aid::Steering) => parts.push("AID".into()),
        Some(Aid::On) => parts.push("aid".into()),
        Some(Aid::Off) => parts.push("aid off".into()),
        None => {}
    }
    format!("INPUT {}", parts.join(" "))
}

/// Draws the panel, each line and gauge a part of `damage` (painted
/// unless `kept`: [`column::stack_parts`]); returns the first row below
/// what it drew (where the minimap may go). The standings leave `spare`
/// rows free at the bottom where they can (for the minimap), showing
/// the player's own line at least.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    v: SeatView<'_>,
    damage: &mut Damage,
    kept: Option<&Damage>,
    spare: u16,
) -> u16 {
    if area.width < 8 || area.height == 0 {
        return area.bottom();
    }
    let inner = Rect {
        x: area.x + 1,
        width: area.width - 1,
        ..area
    };
    // The key line on the last row, when there are two (worked out here:
    // a `Layout` looks its split up in a cache, every frame).
    let [body, keys] = if area.height >= 2 {
        let body = Rect {
            height: inner.height - 1,
            ..inner
        };
        [body, Rect::new(inner.x, body.bottom(), inner.width, 1)]
    } else {
        [inner, Rect::default()]
    };
    // The standings once a frame: POS in the times, the list below.
    let standings = if v.rivals().next().is_none() {
        Vec::new()
    } else {
        v.race.standings()
    };
    let me = (standings.iter())
        .position(|s| s.car == v.seat.car)
        .unwrap_or(0);
    let mut pieces = header(v);
    pieces.extend(times(v, me, standings.len()));
    pieces.push(Piece::Gap);
    pieces.extend(gauges(v));
    let y = column::stack_parts(buf, body, pieces, damage, kept);
    let rest = Rect::new(body.x, y, body.width, body.bottom() - y);
    let y = if rest.height >= 1 {
        column::stack_parts(
            buf,
            rest,
            [column::line(input_line(v), THEME.dim)],
            damage,
            kept,
        )
    } else {
        y
    };
    let rest = Rect::new(body.x, y, body.width, body.bottom() - y);
    let room = rest.height.saturating_sub(spare).max(rest.height.min(1));
    let y = column::stack_parts(
        buf,
        rest,
        standings_lines(v, &standings, me, room),
        damage,
        kept,
    );
    // A race between people (`skid serve`) has no pause; q leaves it.
    let hint = if v.race.door.pauses() {
        "? help  p pause  q quit"
    } else {
        "? help  q leave"
    };
    column::stack_parts(buf, keys, [column::line(hint, THEME.faint)], damage, kept);
    y
}

/// The track's name and the car.
fn header(v: SeatView<'_>) -> Vec<Piece<'static>> {
    let car = v.car();
    vec![
        column::line(format!("skid · {}", v.race.world.track.name), THEME.text),
        column::line(format!("{} · {}", car.kind, car.spec().name), THEME.dim),
        Piece::Gap,
    ]
}

/// LAP (and POS, `me` of `cars`, with rivals), TIME, BEST and SPLIT.
fn times(v: SeatView<'_>, me: usize, cars: usize) -> Vec<Piece<'static>> {
    let lap = (v.seat.log.ends.len() as u32 + 1).min(v.laps());
    let lap_line = if cars == 0 {
        format!("LAP   {lap}/{}", v.laps())
    } else {
        format!("LAP   {lap}/{}  POS {}/{cars}", v.laps(), me + 1)
    };
    let (split, split_color) = match v.split_delta() {
        Some(d) if d <= 0.0 => (delta(d), THEME.good),
        Some(d) => (delta(d), THEME.bad),
        None => ("--".into(), THEME.dim),
    };
    let mut lines = vec![
        column::line(lap_line, THEME.text),
        column::line(
            format!("TIME  {}", clock(Some(v.readout().lap_time))),
            THEME.text,
        ),
        column::line(format!("BEST  {}", clock(v.best_time())), THEME.text),
        column::line(format!("SPLIT {split}"), split_color),
    ];
    lines.extend(ends_in(v));
    lines
}

/// Once a car has finished, the seconds left before the race ends, for
/// everyone (`race::FINISH_WINDOW`).
pub fn ends_in(v: SeatView<'_>) -> Option<Piece<'static>> {
    let left = v.race.time_left().filter(|_| !v.race.over())?;
    let line = format!("ENDS IN {:.0} s", left.ceil());
    Some(Piece::Line(
        line,
        Style::new().fg(THEME.bad).add_modifier(Modifier::BOLD),
    ))
}

/// The model's gauges: `strafe`'s speed against the ground cap and its
/// hop; every other model's tachometer, gear and speed, then `kinematic`'s
/// steering or the others' slip.
fn gauges(v: SeatView<'_>) -> Vec<Piece<'static>> {
    let car = v.car();
    let readout = v.readout();
    let tel = readout.telemetry;
    let spec = car.spec();
    let kmh = gauges::whole(tel.speed * 3.6).min(9999);
    if car.kind == ModelKind::Strafe {
        // Quake movement has no engine, gears or tire slip.
        let ups = finite(tel.speed) * crate::physics::strafe::UNITS;
        let hop = if v.seat.last.jump { "on " } else { "off" };
        let air = if car.airborne() { "AIR" } else { "GROUND" };
        return vec![
            Piece::Bar(gauges::strafe_speed(ups, spec.strafe.maxspeed)),
            column::line(format!("      {kmh:>3} km/h"), THEME.text),
            column::line(format!("HOP   {hop} {air}"), THEME.text),
        ];
    }
    let e = &spec.engine;
    let rpm = gauges::shown_rpm(
        tel.rpm,
        readout.throttle,
        tel.speed,
        tel.gear,
        e.idle_rpm,
        e.redline_rpm,
    );
    // The gear as it is now: it changes seldom, and a shift shows at once.
    let gear = match car.state.drive.gear {
        g if g < 0 => "R".to_string(),
        0 => "N".to_string(),
        g => g.to_string(),
    };
    let mode = if car.state.drive.manual {
        "manual"
    } else {
        "auto"
    };
    let bold = Style::new().fg(THEME.text).add_modifier(Modifier::BOLD);
    let mut pieces = vec![
        Piece::Bar(gauges::tachometer(rpm, e.redline_rpm)),
        Piece::Line(format!("GEAR  {gear:<2} {mode}"), bold),
        column::line(format!("SPEED {kmh:>3} km/h"), THEME.text),
    ];
    if car.kind == ModelKind::Kinematic {
        // Bicycle geometry never slips: where the wheels point, and the
        // circle they drive (`R = L / tan(delta)`).
        let deg = gauges::tenths(tel.steer.to_degrees());
        let side = match deg {
            d if d < 0.0 => "◀",
            d if d > 0.0 => "▶",
            _ => "",
        };
        let radius = spec.body.wheelbase / tel.steer.abs().tan();
        let turn = if radius.is_finite() && radius < 1000.0 {
            format!("TURN  {radius:>4.0} m")
        } else {
            "TURN  straight".into()
        };
        pieces.push(column::line(
            format!("STEER {:>4.1}° {side}", deg.abs()),
            THEME.text,
        ));
        pieces.push(column::line(turn, THEME.text));
    } else {
        let s = tel.sliding;
        pieces.push(column::line("SLIP  ◀ left│right ▶", THEME.dim));
        for (label, degrees, sliding) in [
            ("SLIP F", tel.slip_front, s[0] || s[1]),
            ("SLIP R", tel.slip_rear, s[2] || s[3]),
        ] {
            pieces.push(Piece::Slip(gauges::SlipBar {
                label,
                degrees,
                sliding,
            }));
        }
    }
    pieces
}

/// As many of the standings as `room` rows hold, the player's always.
fn standings_lines(v: SeatView<'_>, all: &[Standing], me: usize, room: u16) -> Vec<Piece<'static>> {
    let room = room as usize;
    if all.is_empty() {
        return Vec::new();
    }
    let shown: Vec<usize> = if me < room {
        (0..all.len().min(room)).collect()
    } else {
        (0..room.saturating_sub(1)).chain([me]).collect()
    };
    (shown.into_iter())
        .map(|i| {
            let s = &all[i];
            let c = if s.car == v.seat.car {
                THEME.text
            } else {
                THEME.dim
            };
            column::line(standing_line(v, i + 1, s), c)
        })
        .collect()
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
