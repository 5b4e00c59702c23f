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

/// The steer (-1 to 1) the aid gives `car`, nearest point `at` of the
/// race's racing line `line`; none where it lets go (the module's doc).
pub fn steer(line: &Line, at: usize, car: &Car) -> Option<f64> {
    let body = &car.state.body;
    let (fwd, _) = body.axes();
    let forwards = body.vel.dot(fwd);
    if car.kind == ModelKind::Strafe || car.state.drive.gear < 0 || forwards < CRAWL {
        return None;
    }
    let to = line.ahead(at, look_ahead(car)) - body.pos;
    (fwd.dot(to) > 0.0).then(|| steer_towards(car, to))
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
            assert!(steer(&line, at, &above).unwrap() > 0.0, "{kind}");
            assert!(steer(&line, at, &below).unwrap() < 0.0, "{kind}");
            assert!(steer(&line, at, &on).unwrap().abs() < 1e-9, "{kind}");
        }
    }

    #[test]
    fn lets_go_at_a_crawl_in_reverse_and_facing_away() {
        let line = straight();
        let pos = DVec2::new(50.0, 2.0);
        let at = line.nearest(pos, 0);
        let slow = car(ModelKind::Tire, pos, 0.0, 1.0);
        assert_eq!(steer(&line, at, &slow), None);
        let backwards = car(ModelKind::Tire, pos, 0.0, -5.0);
        assert_eq!(steer(&line, at, &backwards), None);
        let mut reverse = car(ModelKind::Tire, pos, 0.0, 5.0);
        reverse.state.drive.gear = -1;
        assert_eq!(steer(&line, at, &reverse), None);
        let away = car(ModelKind::Tire, pos, std::f64::consts::PI, 8.0);
        assert_eq!(steer(&line, at, &away), None);
        let hover = car(ModelKind::Strafe, pos, 0.0, 8.0);
        assert_eq!(steer(&line, at, &hover), None);
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
