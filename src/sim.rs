//! The step loop the game and the headless runner share: a track, a car,
//! its laps and the tick count. Whoever drives it (a script, the keyboard,
//! a computer driver) hands it one [`Controls`] per tick; nothing else goes
//! in, so the same controls give the same states, bit for bit.

use std::fmt::Write;

use crate::car::CarSpec;
use crate::physics::{Car, Controls, ModelKind};
use crate::race::{Event, Laps};
use crate::track::Track;

/// The trace's header (DESIGN.md, "Trace").
pub const TRACE_HEADER: &str = "tick,t,x,y,heading,speed,vx,vy,yaw_rate,steer,rpm,gear,slip_front,slip_rear,surface,lap,checkpoint";

pub struct Sim {
    pub track: Track,
    pub car: Car,
    pub laps: Laps,
    /// Steps taken.
    pub tick: u64,
    /// Seconds per step.
    pub dt: f64,
}

impl Sim {
    /// A car at rest on the player's start slot.
    pub fn new(track: Track, spec: CarSpec, kind: ModelKind, hz: u32) -> Sim {
        let (pos, heading) = track.start_pose(0);
        Sim {
            car: Car::new(spec, kind, pos, heading),
            laps: Laps::new(&track),
            track,
            tick: 0,
            dt: 1.0 / hz as f64,
        }
    }

    /// One fixed step.
    pub fn step(&mut self, c: &Controls) -> Option<Event> {
        let from = self.car.state.body.pos;
        self.car.step(c, &self.track, self.dt);
        self.tick += 1;
        self.laps.update(&self.track, from, self.car.state.body.pos)
    }

    /// Seconds simulated.
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.dt
    }

    /// Appends the current state as one trace row (no newline).
    pub fn trace_row(&self, out: &mut String) {
        let s = &self.car.state;
        let (b, t) = (&s.body, self.car.telemetry());
        let surface = &self.track.surfaces[self.track.ground_index_at(b.pos)].name;
        let _ = write!(out, "{},", self.tick);
        for (v, decimals) in [
            (self.time(), 5),
            (b.pos.x, 4),
            (b.pos.y, 4),
            (b.heading, 5),
            (t.speed, 4),
            (b.vel.x, 4),
            (b.vel.y, 4),
            (b.yaw_rate, 4),
            (t.steer, 5),
            (t.rpm, 1),
        ] {
            fixed(out, v, decimals);
            out.push(',');
        }
        let _ = write!(out, "{},", t.gear);
        fixed(out, t.slip_front, 3);
        out.push(',');
        fixed(out, t.slip_rear, 3);
        let _ = write!(
            out,
            ",{},{},{}",
            surface, self.laps.lap, self.laps.checkpoint
        );
    }
}

/// Writes `v` with `decimals` places, never as "-0.00".
fn fixed(out: &mut String, v: f64, decimals: usize) {
    let start = out.len();
    let _ = write!(out, "{v:.decimals$}");
    if out[start..].starts_with('-') && out[start + 1..].bytes().all(|c| c == b'0' || c == b'.') {
        out.remove(start);
    }
}

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn fixed_never_prints_negative_zero() {
        let mut s = String::new();
        for v in [-0.00001, -0.0, 0.0, -1.5, 2.25] {
            fixed(&mut s, v, 2);
            s.push(' ');
        }
        assert_eq!(s, "0.00 0.00 0.00 -1.50 2.25 ");
    }
}
