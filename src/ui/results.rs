//! The results screen: each lap with its time and its difference to the
//! best lap, the best lap, and what to do next.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};

use super::column::{self, Piece};
use super::hud::{clock, delta};
use super::menu::centred;
use super::theme::THEME;
use crate::physics::ModelKind;
use crate::race::session::Door;
use crate::race::timing::Lap;
use crate::race::world::CarId;
use crate::race::{SeatView, Standing};

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

/// The results: the lap table, the finishing order with rivals, and the
/// keys (`host`: whether the one looking takes the room back, over SSH);
/// with room, the last lap's speed and slip charts on the right.
pub fn draw(buf: &mut Buffer, area: Rect, v: SeatView<'_>, color: bool, host: bool) {
    let area = match v.seat.log.last.as_ref() {
        Some(lap) if area.width >= 78 && area.height >= 16 => {
            let [table, charts] =
                Layout::horizontal([Constraint::Length(40), Constraint::Min(0)]).areas(area);
            lap_charts(buf, charts, v, lap, color);
            table
        }
        _ => area,
    };
    let times = v.lap_times();
    // Live until the race is over: cars still racing move up the order.
    let order = v.race.standings();
    let order = order.as_slice();
    // While others race on: the time left, and v to watch them.
    let live = order.len() > 1 && !v.race.over();
    let order_rows = if order.len() > 1 {
        2 + 2 * u16::from(live)
    } else {
        0
    };
    let bests = v.seat.log.race_bests(v.race.world.dt);
    let both = matches!(bests, [Some(_), Some(_)]);
    let medal_row =
        u16::from(v.medals().is_some()) + 2 * u16::from(v.seat.unsaved.is_some()) + u16::from(both);
    // A line saying so where no lap was completed.
    let rows = 9 + order_rows + medal_row + u16::from(times.is_empty());
    // The standings in what is left (always the player's own line), then
    // the laps.
    let fit = area.height.saturating_sub(rows) as usize;
    let places = places_shown(order, v.seat.car, fit);
    let rows = rows + places.len() as u16;
    let shown = (times.len()).min(area.height.saturating_sub(rows) as usize);
    let r = centred(area, 40, shown as u16 + rows);
    let mut pieces = lap_table(v, &times, bests, shown);
    pieces.extend(finishing_order(v, order, &places));
    // A race between people (`skid serve`): the host takes the room back
    // to its settings once everyone is done.
    let keys = match v.race.door {
        Door::Local => "Enter menu   r race again   q quit",
        Door::Served if v.race.people() == 1 => "Enter back to the room  r again  q leave",
        Door::Served if host => "Enter back to the room   q leave",
        Door::Served => "host's Enter: back to the room  q leave",
    };
    pieces.extend([Piece::Gap, column::line(keys, THEME.faint)]);
    if live {
        pieces.push(column::line("v watch the others race", THEME.faint));
    }
    column::stack(buf, r, pieces);
}

/// The last lap's speed over the top half of `area`, its slip below,
/// each against the best lap; a model that never slips (`kinematic`)
/// has its speed over all of `area`.
fn lap_charts(buf: &mut Buffer, area: Rect, v: SeatView<'_>, lap: &Lap, color: bool) {
    use super::charts::{self, Series};
    let best = v.seat.log.best_on(lap.aided);
    let title = "speed, km/h";
    if v.car().kind == ModelKind::Kinematic {
        charts::draw(buf, area, title, lap, best, Series::Speed, color);
        return;
    }
    let [top, bottom] =
        Layout::vertical([Constraint::Length(area.height / 2), Constraint::Min(0)]).areas(area);
    charts::draw(buf, top, title, lap, best, Series::Speed, color);
    charts::draw(buf, bottom, "slip, degrees", lap, best, Series::Slip, color);
}

/// RESULTS, the track, model and car, then `shown` of the laps with
/// their deltas to the best on their board (an aided lap marked, and
/// compared only with aided ones: docs/DESIGN.md, "Records"), or that
/// none was completed (`bests`: each board's best of the race); the best
/// time (the best unaided lap's where there
/// is one, and the aided best beside it) and the race's total (dashes for
/// a car that did not finish), and the medal the best unaided lap earned.
fn lap_table(
    v: SeatView<'_>,
    times: &[f64],
    bests: [Option<f64>; 2],
    shown: usize,
) -> Vec<Piece<'static>> {
    let aided = |i: usize| v.seat.log.aided.get(i).copied().unwrap_or(false);
    let car = v.car();
    let bold = |c| Style::new().fg(c).add_modifier(Modifier::BOLD);
    let title = format!(
        "{} · {} · {}",
        v.race.world.track.name,
        car.kind,
        car.spec().name
    );
    let mut pieces = vec![
        Piece::Line("RESULTS".into(), bold(THEME.accent)),
        column::line(title, THEME.dim),
        Piece::Gap,
        Piece::Line("LAP   TIME      DELTA".into(), bold(THEME.text)),
    ];
    pieces.extend(times.iter().take(shown).enumerate().map(|(i, t)| {
        let best = bests[usize::from(aided(i))].unwrap_or(*t);
        let d = if *t == best {
            "best".to_string()
        } else {
            delta(t - best)
        };
        let mark = crate::race::aid::mark(aided(i));
        column::line(
            format!("{:>3}   {:<9} {d}{mark}", i + 1, clock(Some(*t))),
            THEME.text,
        )
    }));
    if times.is_empty() {
        pieces.push(column::line("  no lap completed", THEME.dim));
    }
    // A race's total only for a car that finished it (one that did not
    // showed the sum of its laps, 0:00.00 without one).
    let total = v.finished().then(|| times.iter().sum::<f64>());
    let [unaided, aided_best] = bests;
    let best = match (unaided, aided_best) {
        (None, Some(t)) => format!("{} {}", clock(Some(t)), crate::race::aid::AIDED),
        (t, _) => clock(t),
    };
    let sum = format!("BEST  {best}   TOTAL {}", clock(total));
    pieces.extend([Piece::Gap, Piece::Line(sum, bold(THEME.good))]);
    if let (Some(_), Some(t)) = (unaided, aided_best) {
        let line = format!("BEST AIDED  {}", clock(Some(t)));
        pieces.push(column::line(line, THEME.dim));
    }
    if let Some(m) = v.medals() {
        // Only a lap steered by hand earns one (`Record::aided`).
        let earned = if unaided.is_none() && aided_best.is_some() {
            "NO MEDAL  ·  AIDED".to_string()
        } else {
            super::medals::earned(m, unaided)
        };
        pieces.push(Piece::Line(earned, bold(THEME.accent)));
    }
    if !v.race.aid_allowed {
        pieces.push(column::line("steering aid off in this race", THEME.dim));
    }
    // A record that could not be kept is not shown as kept.
    if let Some(why) = &v.seat.unsaved {
        pieces.push(Piece::Line(
            "NOT SAVED YET: it is tried again".into(),
            bold(THEME.bad),
        ));
        pieces.push(column::line(why.clone(), THEME.dim));
    }
    pieces
}

/// With rivals: the place the player finished in (or that they did not),
/// every car's place, and while others still race, the time left.
/// The places (0-based) of `order` the results list in `fit` lines: all
/// of them if they fit, else the first ones and `car`'s own; none for a
/// race of one car.
fn places_shown(order: &[Standing], car: CarId, fit: usize) -> Vec<usize> {
    if order.len() < 2 {
        return Vec::new();
    }
    let fit = fit.clamp(1, order.len());
    let own = order.iter().position(|s| s.car == car).unwrap_or(0);
    let mut places: Vec<usize> = (0..fit).collect();
    if own >= fit {
        places[fit - 1] = own;
    }
    places
}

fn finishing_order(v: SeatView<'_>, order: &[Standing], places: &[usize]) -> Vec<Piece<'static>> {
    if order.len() < 2 {
        return Vec::new();
    }
    let bold = |c| Style::new().fg(c).add_modifier(Modifier::BOLD);
    let place = 1 + order.iter().position(|s| s.car == v.seat.car).unwrap_or(0);
    let headline = if v.finished() {
        format!("FINISHED {} OF {}", ordinal(place), order.len())
    } else {
        "DID NOT FINISH".to_string()
    };
    let mut pieces = vec![Piece::Gap, Piece::Line(headline, bold(THEME.accent))];
    pieces.extend(super::hud::ends_in(v));
    pieces.extend(places.iter().map(|&i| {
        let s = &order[i];
        let line = super::hud::standing_line(v, i + 1, s);
        if s.car == v.seat.car {
            Piece::Line(line, bold(THEME.text))
        } else {
            column::line(line, THEME.dim)
        }
    }));
    pieces
}
