//! The steering aid for keyboards that send no key releases
//! (docs/TERMINAL.md, "The steering aid").
//!
//! Such a keyboard cannot say how long a key was held: a tap and the
//! first half second of a hold are the same byte, and a key let go under
//! a newer one is silence. A player who corrects with short taps, or who
//! waits before pressing a new key, gets much more or much less steering
//! than they meant, and weaves down every straight. So while a seat's
//! terminal has sent no release, the car steers itself along the race's
//! racing line (pure pursuit, as the computer drivers steer) and the
//! steering keys move it across the road from there: half of what a key
//! steers is added to the aid's own steer. Held against the aid, a key
//! moves the car a few metres beside the line (to pass, to take a corner
//! wider) and no further: the further off, the harder the aid steers
//! back.
//!
//! It also holds the car to the pace the line is planned for: past the
//! line's speed where it aims, the throttle is cut. Braking, and so the
//! corners' speed, stays the player's, and `arcade` and `kinematic`
//! corner at any speed: steered for them, a W held alone still laps
//! `pocket` faster than the author time, which is why an aided lap earns
//! no medal (`Record::aided`).
//!
//! The aid lets go where the line's way is no use: reversing or at a
//! crawl (backing out of a wall is the player's), and where the line's
//! point ahead lies behind the car (spun round, or far off the road);
//! `strafe`'s keys steer the view, not the car, and it has none. A lap
//! driven with the aid is marked on every board it is listed on
//! (`Record::aided`), and the panel says AID while it steers; `t` turns
//! it off and on.

use crate::ai::{Line, look_ahead, steer_towards};
use crate::physics::{Car, ModelKind};

/// How every list and board marks a lap driven with the aid.
pub const AIDED: &str = "aided";

/// `AIDED` after two spaces for an aided lap, nothing for another: the
/// mark as a board's row ends with it.
pub fn mark(aided: bool) -> &'static str {
    if aided { "  aided" } else { "" }
}

/// Of a steering key's steer, the share added to the aid's.
pub const KEYS_SHARE: f64 = 0.5;

/// Below this speed forwards (m/s) the aid lets go.
const CRAWL: f64 = 2.0;

/// The share of the racing line's planned speed the aid lets the
/// throttle drive the car to.
pub const PACE: f64 = 1.0;

/// What the aid does in one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aiding {
    /// Its steer, -1 to 1.
    pub steer: f64,
    /// The car is past [`PACE`] times the line's speed at the point it
    /// aims at: the throttle is cut (the brake is the player's).
    pub lift: bool,
}

/// What the aid does for `car`, nearest point `at` of the race's racing
/// line `line`; none where it lets go (the module's doc).
pub fn of(line: &Line, at: usize, car: &Car) -> Option<Aiding> {
    let body = &car.state.body;
    let (fwd, _) = body.axes();
    let forwards = body.vel.dot(fwd);
    if car.kind == ModelKind::Strafe || car.state.drive.gear < 0 || forwards < CRAWL {
        return None;
    }
    let look = look_ahead(car);
    let to = line.ahead(at, look) - body.pos;
    let n = line.points.len().max(1);
    let aim = (at + (look / crate::ai::line::SPACING).round() as usize) % n;
    let pace = line.speeds.get(aim).map_or(f64::INFINITY, |v| v * PACE);
    (fwd.dot(to) > 0.0).then(|| Aiding {
        steer: steer_towards(car, to),
        lift: forwards > pace,
    })
}

/// The car's steer from the keys' steer `keys` and the aid's `aid`.
pub fn with_keys(keys: f64, aid: f64) -> f64 {
    (KEYS_SHARE * keys + aid).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::car::CarSpec;
    use glam::DVec2;

    /// A straight line along y = 0, eastwards, a point a metre.
    fn straight() -> Line {
        let points: Vec<DVec2> = (0..400).map(|i| DVec2::new(f64::from(i), 0.0)).collect();
        let speeds = vec![20.0; points.len()];
        Line::of(points, speeds, Vec::new())
    }

    /// A car of `kind` at `pos` heading `heading`, moving forwards at
    /// `speed` m/s.
    fn car(kind: ModelKind, pos: DVec2, heading: f64, speed: f64) -> Car {
        let mut car = Car::new(CarSpec::default_for(kind), kind, pos, heading);
        car.state.body.vel = crate::trig::dir(heading) * speed;
        car
    }

    #[test]
    fn steers_back_to_the_line_from_either_side() {
        let line = straight();
        for kind in [ModelKind::Arcade, ModelKind::Kinematic, ModelKind::Tire] {
            // Screen coordinates: y grows downwards, and steering right
            // (positive) turns a car heading east towards +y.
            let above = car(kind, DVec2::new(50.0, -4.0), 0.0, 12.0);
            let below = car(kind, DVec2::new(50.0, 4.0), 0.0, 12.0);
            let on = car(kind, DVec2::new(50.0, 0.0), 0.0, 12.0);
            let at = line.nearest(above.state.body.pos, 0);
            let steer = |car: &Car| of(&line, at, car).unwrap().steer;
            assert!(steer(&above) > 0.0, "{kind}");
            assert!(steer(&below) < 0.0, "{kind}");
            assert!(steer(&on).abs() < 1e-9, "{kind}");
        }
    }

    #[test]
    fn lets_go_at_a_crawl_in_reverse_and_facing_away() {
        let line = straight();
        let pos = DVec2::new(50.0, 2.0);
        let at = line.nearest(pos, 0);
        let slow = car(ModelKind::Tire, pos, 0.0, 1.0);
        assert_eq!(of(&line, at, &slow), None);
        let backwards = car(ModelKind::Tire, pos, 0.0, -5.0);
        assert_eq!(of(&line, at, &backwards), None);
        let mut reverse = car(ModelKind::Tire, pos, 0.0, 5.0);
        reverse.state.drive.gear = -1;
        assert_eq!(of(&line, at, &reverse), None);
        let away = car(ModelKind::Tire, pos, std::f64::consts::PI, 8.0);
        assert_eq!(of(&line, at, &away), None);
        let hover = car(ModelKind::Strafe, pos, 0.0, 8.0);
        assert_eq!(of(&line, at, &hover), None);
    }

    #[test]
    fn the_throttle_is_cut_past_the_lines_speed() {
        // The line's speed is 20 m/s everywhere.
        let line = straight();
        let pos = DVec2::new(50.0, 0.0);
        let at = line.nearest(pos, 0);
        let lift = |speed| {
            of(&line, at, &car(ModelKind::Kinematic, pos, 0.0, speed))
                .unwrap()
                .lift
        };
        assert!(!lift(19.0));
        assert!(lift(21.0));
    }

    #[test]
    fn a_key_moves_the_car_beside_the_line_but_never_wins_outright() {
        // Full right against an aid at full left still turns left: the
        // aid keeps the car off what the line avoids.
        assert!(with_keys(1.0, -1.0) < 0.0);
        // On the line, a key steers at half its share.
        assert!((with_keys(1.0, 0.0) - KEYS_SHARE).abs() < 1e-12);
        assert!((with_keys(-1.0, 0.0) + KEYS_SHARE).abs() < 1e-12);
        assert_eq!(with_keys(1.0, 1.0), 1.0);
    }
}
