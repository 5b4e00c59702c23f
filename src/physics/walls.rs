//! Moving a car through the track: integration of pose and wall response,
//! shared by every model.
//!
//! The heading turns first (`heading += yaw_rate * dt`, and the car's
//! carried forward vector by the same angle); a turn that would
//! push the car into a wall is resolved by moving it out through the
//! nearest exposed face, or refused when it is wedged. Then the car sweeps
//! along `vel * dt` ([`Track::sweep`] cannot skip a wall, however thin and
//! however fast the car). On contact with normal `n` it bounces with
//! restitution `e` ([`RESTITUTION`]) on the normal part of its velocity,
//! loses tangential speed to wall friction `mu` ([`WALL_FRICTION`]) in
//! proportion to the impact (Coulomb: `dv_t <= mu * (1 + e) * |v_n|`),
//! half its yaw rate, and slides on with what is left of the step.

use std::f64::consts::{PI, TAU};

use glam::DVec2;

use super::model::Body;
use crate::base::trig;
use crate::track::{Obb, Track};

/// Coefficient of restitution against walls.
pub const RESTITUTION: f64 = 0.3;
/// Friction coefficient of a wall on a sliding car.
pub const WALL_FRICTION: f64 = 0.3;

/// Moves `body` by one step; returns whether it touched a wall. `fwd` is
/// its forward vector, turned along with its heading ([`trig::turn`]).
/// `room` is how far its centre may move with no wall in reach of any
/// corner, at any heading: the track's wall-free radius at its position
/// ([`crate::track::Around::clear`]) less its half-diagonal.
#[inline]
pub fn advance(
    body: &mut Body,
    fwd: &mut DVec2,
    size: DVec2,
    room: f64,
    track: &Track,
    dt: f64,
) -> bool {
    let turn = body.yaw_rate * dt;
    let mut heading = body.heading + turn;
    if heading.abs() > PI {
        heading = (heading + PI).rem_euclid(TAU) - PI;
    }
    let turned = trig::turn(*fwd, turn);
    // In the open nothing can touch: skip the queries.
    if room > 0.0 && body.vel.length_squared() * (dt * dt) < room * room {
        body.heading = heading;
        *fwd = turned;
        body.pos += body.vel * dt;
        return false;
    }
    near_walls(body, fwd, (heading, turned), size, track, dt)
}

/// [`advance`] where a wall may be within reach: the turn is checked, then
/// the motion swept.
fn near_walls(
    body: &mut Body,
    fwd: &mut DVec2,
    (heading, turned): (f64, DVec2),
    size: DVec2,
    track: &Track,
    dt: f64,
) -> bool {
    let mut hit = false;
    let turned_box = Obb::along(body.pos, turned, size.x, size.y);
    if !track.box_hits_wall(&turned_box) {
        body.heading = heading;
        *fwd = turned;
    } else if let Some((out, n)) = track.depenetrate(&turned_box) {
        body.heading = heading;
        *fwd = turned;
        body.pos = out.center;
        bounce(body, n);
        hit = true;
    } else {
        body.yaw_rate = 0.0;
    }

    let mut remaining = body.vel * dt;
    for _ in 0..3 {
        let b = Obb::along(body.pos, *fwd, size.x, size.y);
        match track.sweep(&b, remaining) {
            None => {
                body.pos += remaining;
                break;
            }
            Some(h) => {
                hit = true;
                body.pos += remaining * h.t;
                bounce(body, h.normal);
                // Slide on along the wall with the rest of the motion.
                let rest = remaining * (1.0 - h.t);
                remaining = rest - h.normal * rest.dot(h.normal).min(0.0);
            }
        }
    }
    hit
}

/// Two cars (body, footprint, mass in kg) in contact: pushed apart along
/// the shallowest axis (half each, a push into a wall refused), then an
/// impulse along the normal with the walls' restitution `e`, shared by
/// mass (`j = -(1 + e) v_rel·n / (1/m_a + 1/m_b)`). Returns whether they
/// touched.
pub fn collide_cars(
    (a, box_a, mass_a): (&mut Body, Obb, f64),
    (b, box_b, mass_b): (&mut Body, Obb, f64),
    track: &Track,
) -> bool {
    let Some(c) = box_a.overlap(&box_b) else {
        return false;
    };
    let push = c.normal * (0.5 * c.depth + 1e-6);
    if !track.box_hits_wall(&box_a.moved(push)) {
        a.pos += push;
    }
    if !track.box_hits_wall(&box_b.moved(-push)) {
        b.pos -= push;
    }
    let closing = (a.vel - b.vel).dot(c.normal);
    if closing < 0.0 {
        let j = -(1.0 + RESTITUTION) * closing / (1.0 / mass_a + 1.0 / mass_b);
        a.vel += c.normal * (j / mass_a);
        b.vel -= c.normal * (j / mass_b);
    }
    true
}

/// Velocity response to a wall with outward normal `n`.
fn bounce(body: &mut Body, n: DVec2) {
    let vn = body.vel.dot(n);
    if vn >= 0.0 {
        return;
    }
    let tangent = body.vel - n * vn;
    let t_len = tangent.length();
    let loss = (WALL_FRICTION * (1.0 + RESTITUTION) * -vn).min(t_len);
    let tangent = if t_len > 0.0 {
        tangent * (1.0 - loss / t_len)
    } else {
        tangent
    };
    body.vel = tangent - n * (RESTITUTION * vn);
    body.yaw_rate *= 0.5;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::parse;

    /// 0.5 m cells: a wall one column thick at x = 10..10.5.
    fn thin_wall() -> Track {
        let mut rows = vec!["#".repeat(60)];
        for r in 0..10 {
            let mut row = String::from("#");
            for c in 1..59 {
                row.push(match (r, c) {
                    (5, 10) => '>',
                    (_, 20) => '#',
                    (_, 50) => '=',
                    _ => '.',
                });
            }
            row.push('#');
            rows.push(row);
        }
        rows.push("#".repeat(60));
        parse(
            "thin",
            format!("+++\ncell = 0.5\n+++\n{}\n", rows.join("\n")).as_bytes(),
        )
        .unwrap()
    }

    /// One 1/120 s step of a 2 m by 1 m car.
    fn step(body: &mut Body, t: &Track) -> bool {
        let size = DVec2::new(2.0, 1.0);
        let room = t.around(body.pos).clear - 0.5 * size.length();
        advance(body, &mut body.forward(), size, room, t, 1.0 / 120.0)
    }

    #[test]
    fn a_car_at_60_m_s_does_not_pass_a_half_metre_wall() {
        let t = thin_wall();
        let mut body = Body {
            pos: DVec2::new(5.0, 6.0),
            vel: DVec2::new(60.0, 0.0),
            ..Body::default()
        };
        let mut hits = 0;
        // A quarter second: into the wall and back, short of the far wall.
        for _ in 0..30 {
            hits += usize::from(step(&mut body, &t));
            assert!(
                body.pos.x + 1.0 <= 10.0 + 1e-9,
                "passed through at {:?}",
                body.pos
            );
            assert!(!t.box_hits_wall(&Obb::new(body.pos, body.heading, 2.0, 1.0)));
        }
        assert!(hits >= 1);
        assert!(body.vel.x <= 0.0, "bounced back: {:?}", body.vel);
        assert!(
            body.vel.length() <= 60.0 * RESTITUTION + 1e-9,
            "lost speed: {:?}",
            body.vel
        );
    }

    #[test]
    fn cars_that_meet_are_pushed_apart_and_trade_momentum() {
        let t = thin_wall();
        let mut a = Body {
            pos: DVec2::new(4.0, 6.0),
            vel: DVec2::new(10.0, 0.0),
            ..Body::default()
        };
        let mut b = Body {
            pos: DVec2::new(5.5, 6.0),
            vel: DVec2::ZERO,
            ..Body::default()
        };
        let footprint = |b: &Body| Obb::new(b.pos, b.heading, 2.0, 1.0);
        let (box_a, box_b) = (footprint(&a), footprint(&b));
        assert!(collide_cars(
            (&mut a, box_a, 1000.0),
            (&mut b, box_b, 1000.0),
            &t
        ));
        assert!(
            b.pos.x - a.pos.x >= 2.0 - 1e-9,
            "apart: {:?} {:?}",
            a.pos,
            b.pos
        );
        // Equal masses, restitution 0.3: 10 m/s becomes 3.5 and 6.5.
        assert!(
            (a.vel.x - 3.5).abs() < 1e-9 && (b.vel.x - 6.5).abs() < 1e-9,
            "{:?} {:?}",
            a.vel,
            b.vel
        );
        let momentum = a.vel.x + b.vel.x;
        assert!((momentum - 10.0).abs() < 1e-9, "momentum kept");
    }

    #[test]
    fn a_glancing_hit_slides_along_the_wall_losing_speed() {
        let t = thin_wall();
        let mut body = Body {
            pos: DVec2::new(8.5, 2.0),
            vel: DVec2::new(5.0, 20.0),
            ..Body::default()
        };
        let mut hit = false;
        for _ in 0..30 {
            hit |= step(&mut body, &t);
        }
        assert!(hit);
        // Normal part 5 m/s: bounced to -1.5; tangent 20 less 0.3 * 1.3 * 5.
        assert!((body.vel.x + 1.5).abs() < 1e-9, "{:?}", body.vel);
        assert!((body.vel.y - 18.05).abs() < 1e-9, "{:?}", body.vel);
        assert!(body.pos.y > 6.0, "kept sliding along: {:?}", body.pos);
    }
}
