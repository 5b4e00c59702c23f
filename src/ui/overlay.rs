//! What is drawn over the race: the countdown, the pause notice, the help
//! overlay, and the too-small message that replaces everything.

use crate::race::session::Door;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Clear, Widget};

use super::hud::{clock, delta as delta_text};
use super::menu::centred;
use super::theme::THEME;
use crate::race::layout::MIN_SIZE;
use crate::race::said::Said;
use crate::race::{Phase, SeatView};

/// Lines in a bordered box centred in `area`; the box.
pub(super) fn boxed(buf: &mut Buffer, area: Rect, title: &str, lines: &[&str]) -> Rect {
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
    r
}

/// One line of a banner and its style.
type Line = (String, Style);

/// The start lights: one more lit each second of the countdown, all out
/// and GO! for the first second of the race.
fn lights(v: SeatView<'_>) -> Option<Line> {
    let secs = match v.race.phase {
        Phase::Countdown(n) => ((f64::from(n) * v.race.world.dt).ceil() as u32).clamp(1, 3),
        Phase::Running if v.race.world.time() < 1.0 => {
            return Some((
                "○ ○ ○  GO!".into(),
                Style::new().fg(THEME.good).add_modifier(Modifier::BOLD),
            ));
        }
        Phase::Running => return None,
    };
    let lit = 4 - secs as usize;
    let bulbs: Vec<&str> = (0..3).map(|i| if i < lit { "●" } else { "○" }).collect();
    Some((
        format!("{}  {secs}", bulbs.join(" ")),
        Style::new().fg(THEME.bad).add_modifier(Modifier::BOLD),
    ))
}

/// What the race says over the track now: the lights, a lap's time and
/// delta (and NEW RECORD, and the medal it earned; or MODEL SWITCHED, a
/// lap that counts for neither; NOT SAVED on a record the disk refused),
/// a missed checkpoint, WRONG WAY, and what a key just said.
fn banner_lines(v: SeatView<'_>) -> Vec<Line> {
    let mut lines: Vec<Line> = lights(v).into_iter().collect();
    // Before the start, how hard the computer cars drive.
    let countdown = matches!(v.race.phase, Phase::Countdown(_));
    if countdown && v.race.seats.values().any(|s| !s.is_person()) {
        // The Level row's words, the level itself in capitals.
        let level = crate::race::level(v.race.rivals);
        let (word, pace) = level.split_once(' ').unwrap_or((level, ""));
        lines.push((
            format!("RIVALS: {} {pace}", word.to_uppercase()),
            Style::new().fg(THEME.accent),
        ));
    }
    if let (Phase::Countdown(_), Some((placed, asked))) = (v.race.phase, v.race.short_of) {
        lines.push((
            format!("ROOM FOR {placed} OF {asked} RIVALS"),
            Style::new().fg(THEME.accent),
        ));
    }
    if let Some((time, delta)) = v.lap_banner() {
        let n = v.seat.log.ends.len();
        let (text, c) = match delta {
            Some(d) if d < 0.0 => {
                let what = if v.is_replay() || !v.timed_as_records() {
                    "BEST LAP"
                } else {
                    "NEW RECORD"
                };
                (
                    format!("{what}  {}  {}", clock(Some(time)), delta_text(d)),
                    THEME.good,
                )
            }
            Some(d) => (
                format!("LAP {n}  {}  {}", clock(Some(time)), delta_text(d)),
                THEME.bad,
            ),
            // A lap driven in two models is no record (`LapLog`).
            None if v.seat.log.last_mixed => (
                format!("LAP {n}  {}  MODEL SWITCHED", clock(Some(time))),
                THEME.text,
            ),
            None => (format!("LAP {n}  {}", clock(Some(time))), THEME.text),
        };
        // The medal the lap earned, if any: none with the steering aid
        // (`Record::aided`), which the banner says instead.
        let aided = v.seat.log.last.as_ref().is_some_and(|l| l.aided);
        let medal = (v.medals())
            .filter(|_| !v.seat.log.last_mixed && !aided)
            .and_then(|m| m.earned(time));
        let text = match medal {
            Some(m) => format!("{text}  {}", super::medals::shout(m)),
            None if aided => format!("{text}  AIDED"),
            None => text,
        };
        // The lap to keep, which could not be kept yet.
        let kept_lap = delta.is_none_or(|d| d < 0.0) && !v.seat.log.last_mixed;
        let text = if kept_lap && v.seat.unsaved.is_some() {
            format!("{text}  NOT SAVED")
        } else {
            text
        };
        lines.push((text, Style::new().fg(c).add_modifier(Modifier::BOLD)));
    }
    if let Some(n) = v.missed_checkpoint() {
        lines.push((
            format!("MISSED CHECKPOINT {n}"),
            Style::new().fg(THEME.accent).add_modifier(Modifier::BOLD),
        ));
    }
    if v.wrong_way() {
        lines.push((
            "WRONG WAY".into(),
            Style::new().fg(THEME.bad).add_modifier(Modifier::BOLD),
        ));
    }
    let style = Style::new().fg(THEME.accent);
    for said in v.said() {
        lines.extend(said_lines(said).iter().map(|l| (l.to_string(), style)));
    }
    lines
}

/// A seat's answer in words ([`Said`]), a line of at most 36 characters
/// each, to fit beside the car at 80x24.
fn said_lines(said: Said) -> &'static [&'static str] {
    match said {
        Said::AidStarts => &[
            "STEERING AID ON: it steers the line",
            "at the Medium rival's pace",
            "A D move across   t turns it off",
        ],
        Said::AidOff => &["STEERING AID OFF   t turns it on"],
        Said::AidOn => &["STEERING AID ON   t turns it off"],
        Said::AidNotNeeded => &["no aid: your keys send releases"],
        Said::AidNotAllowed => &["the steering aid is off in this race"],
        Said::NoGhost => &["no ghost yet: finish a lap first"],
        Said::StillRacing => &["v follows other cars once you finish"],
        Said::NoOtherCar => &["no other car to follow"],
    }
}

/// Whether the car is in the upper half of the view (overlays then go to
/// the lower half, and the other way round).
fn car_high(view: Rect, v: SeatView<'_>) -> bool {
    let cam = super::track::camera(v, view);
    cam.row_of(&v.race.world.track, v.car().state.body.pos) < i64::from(view.height) / 2
}

/// Everything over the race, never on the road the car will drive in the
/// next two seconds (`placement`), the side away from the car first: for
/// five seconds after a lap its speed chart against the best lap's, then
/// a box with the start lights, the lap's time and delta, a missed
/// checkpoint or WRONG WAY. What finds no clear place is not drawn.
/// Paused, a box in the middle instead. Without `color`, the chart draws
/// its two laps in different dots. What was drawn, box by box.
pub fn race(buf: &mut Buffer, view: Rect, v: SeatView<'_>, paused: bool, color: bool) -> Vec<Rect> {
    use super::placement::{ahead, boxes, first_clear, strips};
    if paused {
        let r = boxed(
            buf,
            view,
            "PAUSED",
            &["p or Esc  resume", "r         restart", "q         quit"],
        );
        return vec![r];
    }
    let (fresh, lines) = (v.fresh_lap(), banner_lines(v));
    if fresh.is_none() && lines.is_empty() {
        return Vec::new(); // most frames: nothing over the road to place
    }
    let low = car_high(view, v);
    let keep = ahead(view, v);
    let mut chart = None;
    if let Some(lap) = fresh {
        let h = (view.height / 3).max(7).min(view.height / 2);
        chart = first_clear(view, &strips(view, h, low), &keep, None);
        if let Some(area) = chart {
            super::charts::draw(
                buf,
                area,
                "lap speed, km/h",
                lap,
                v.seat.log.best_on(lap.aided),
                super::charts::Series::Speed,
                color,
            );
        }
    }
    let mut drawn: Vec<Rect> = chart.into_iter().collect();
    if lines.is_empty() {
        return drawn;
    }
    let w = lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0) as u16
        + 4;
    let h = lines.len() as u16 + 2;
    let Some(r) = first_clear(view, &boxes(view, w, h, low), &keep, chart) else {
        return drawn;
    };
    drawn.push(r);
    Clear.render(r, buf);
    Block::bordered().render(r, buf);
    for (i, (text, style)) in lines.iter().enumerate() {
        let y = r.y + 1 + i as u16;
        if y + 1 < r.bottom() {
            buf.set_stringn(r.x + 2, y, text, r.width.saturating_sub(4) as usize, *style);
        }
    }
    drawn
}

/// Every key, in a box over the screen: the bindings' own words
/// ([`crate::input::keys`]), two to a line, for a person at `door`: on a server
/// (a race between people) no pause or model switch, a restart only for
/// one racing alone, and q leaves.
pub fn help(buf: &mut Buffer, area: Rect, door: crate::race::session::Door) {
    use crate::input::keys::{
        AID, AUTOSTRAFE, BRAKE, Binding, FOLLOW, GHOST, HANDBRAKE, HELP, MANUAL, PAUSE, QUIT,
        REDRAW, RESPAWN, RESTART, SHIFT, STEER_LEFT, STEER_RIGHT, SWITCH_MODEL, THROTTLE,
    };
    let online = door == crate::race::session::Door::Served;
    let two = |a: &str, b: &str| format!("{a:<22}{b}");
    let pair = |a: &Binding, b: &Binding| two(&a.entry(), &b.entry());
    let mut keys = vec![
        pair(&THROTTLE, &BRAKE),
        pair(&STEER_LEFT, &STEER_RIGHT),
        two(&HANDBRAKE.entry(), "strafe: hop on, off"),
        format!(
            "strafe: A D strafe, ← → turn, {} {}",
            AUTOSTRAFE.label(),
            AUTOSTRAFE.help
        ),
        pair(&MANUAL, &SHIFT),
    ];
    if online {
        keys.extend([
            pair(&GHOST, &REDRAW),
            FOLLOW.entry(),
            pair(&HELP, &RESPAWN),
            format!("{:<5} {}, racing alone", RESTART.label(), RESTART.help),
            format!("{:<5} leave the race; in the lobby, hang up", QUIT.label()),
        ]);
    } else {
        keys.extend([
            pair(&SWITCH_MODEL, &RESTART),
            pair(&GHOST, &REDRAW),
            pair(&PAUSE, &HELP),
            pair(&QUIT, &RESPAWN),
            FOLLOW.entry(),
        ]);
    }
    let aid = AID.label();
    let notes = [
        String::new(),
        "Terminals without key releases (tmux, most SSH):".into(),
        "the car steers itself along the racing line (AID),".into(),
        format!("A D move it across, {aid} turns the aid off. A key"),
        "counts while it repeats; the last pressed steers.".into(),
        "W stays on past the keys after it (INPUT shows *)".into(),
        "until S. Held steering goes on through a pedal; if".into(),
        "it stops, press the key again. strafe: Space hops".into(),
        "until pressed again; braking goes on into a turn.".into(),
    ];
    // The same, shorter, where the whole does not fit (60x16, the
    // smallest screen drawn, has room for four lines under the keys).
    let short = [
        format!("No key releases (tmux, most SSH): the aid steers ({aid}:"),
        "off); a key counts while it repeats; the last pressed".into(),
        "steers; W stays on (*) past the keys after it until S;".into(),
        "steering lasts through a pedal; strafe: Space hops.".into(),
    ];
    let fits = keys.len() + notes.len() + 2 <= usize::from(area.height);
    let notes: &[String] = if fits { &notes } else { &short };
    let lines: Vec<&str> = (keys.iter().chain(notes)).map(String::as_str).collect();
    boxed(buf, area, "HELP", &lines);
}

/// Replaces the screen when the terminal is below the minimum size: a
/// race's (`racing`), or local play's title menu.
pub fn too_small(buf: &mut Buffer, area: Rect, size: (u16, u16), door: Door, racing: bool) {
    // Locally the race waits; on a server the others race on, and so
    // does this player's car.
    let what = match (racing, door.pauses()) {
        (false, _) => "(q quits)",
        (true, true) => "(race paused; q quits)",
        (true, false) => "(the race goes on; q leaves)",
    };
    let lines = [
        "Terminal too small".to_string(),
        format!("{}x{}, needs {}x{}", size.0, size.1, MIN_SIZE.0, MIN_SIZE.1),
        what.to_string(),
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

/// A line across the top of `area`, over the race: `text` with a space
/// either side. The line.
pub fn note(buf: &mut Buffer, area: Rect, text: &str) -> Rect {
    let style = Style::new().fg(THEME.accent);
    buf.set_stringn(
        area.x,
        area.y,
        format!(" {text} "),
        area.width as usize,
        style,
    );
    Rect::new(area.x, area.y, area.width, area.height.min(1))
}
