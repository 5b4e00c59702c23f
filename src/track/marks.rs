//! Where a car stands when it goes back to a mark (the finish line or a
//! checkpoint): the middle of the mark's cells, facing across the mark.
//! Found from the track alone (which way round is the car's: the way it
//! crossed), so that a respawn in a recording replays the same in
//! `skid sim` and in the game.

use glam::DVec2;

use super::{Mark, Track};

#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    sum: DVec2,
    xx: f64,
    xy: f64,
    yy: f64,
}

impl Track {
    /// Each mark's middle and the unit normal to the line its cells lie
    /// along, the finish line's first, then checkpoint 1, 2, ...: a car
    /// standing there facing along the normal (one way or the other)
    /// faces along the road. The finish line's normal points the start's
    /// way; a mark of one cell takes the start's direction.
    pub fn mark_lines(&self) -> Vec<(DVec2, DVec2)> {
        let n = self.checkpoints as usize + 1;
        let mut m = vec![Moments::default(); n];
        for row in 0..self.height {
            for col in 0..self.width {
                let i = match self.mark_of(col, row) {
                    Mark::None => continue,
                    Mark::Finish => 0,
                    Mark::Checkpoint(k) => k as usize,
                };
                let Some(s) = m.get_mut(i) else { continue };
                let p = self.cell_center(col, row);
                s.n += 1.0;
                s.sum += p;
                s.xx += p.x * p.x;
                s.xy += p.x * p.y;
                s.yy += p.y * p.y;
            }
        }
        let start = self.race_direction();
        (m.iter())
            .map(|s| {
                let centre = if s.n > 0.0 { s.sum / s.n } else { s.sum };
                let normal = line_normal(s).unwrap_or(start);
                let normal = if normal.dot(start) < 0.0 {
                    -normal
                } else {
                    normal
                };
                (centre, normal)
            })
            .collect()
    }
}

/// The normal of the line a mark's cells lie along (their principal
/// axis), if they spread along one.
fn line_normal(s: &Moments) -> Option<DVec2> {
    if s.n < 2.0 {
        return None;
    }
    let c = s.sum / s.n;
    let (xx, xy, yy) = (
        s.xx / s.n - c.x * c.x,
        s.xy / s.n - c.x * c.y,
        s.yy / s.n - c.y * c.y,
    );
    // The principal axis's angle; the normal is a quarter turn from it.
    let axis = 0.5 * crate::base::trig::atan2(2.0 * xy, xx - yy);
    let along = crate::base::trig::dir(axis);
    (xx + yy > 1e-9).then_some(along.perp())
}

#[cfg(test)]
mod tests {
    use crate::track::bundled;

    #[test]
    fn every_bundled_mark_line_stands_on_its_mark_across_the_road() {
        for &(name, _) in bundled::TRACKS {
            let t = bundled::load(name).unwrap();
            let lines = t.mark_lines();
            assert_eq!(lines.len(), t.checkpoints as usize + 1, "{name}");
            assert!(
                lines[0].1.dot(t.race_direction()) > 0.5,
                "{name}: the finish faces the start's way"
            );
            for (i, &(p, normal)) in lines.iter().enumerate() {
                assert_ne!(t.mark_at(p), super::Mark::None, "{name}: mark {i} at {p}");
                assert!((normal.length() - 1.0).abs() < 1e-9);
                // A few metres along the normal either way: off the mark,
                // on the road (across the mark, not along it).
                for side in [-1.0, 1.0] {
                    let q = p + normal * side * 4.0 * t.cell;
                    assert_eq!(t.mark_at(q), super::Mark::None, "{name}: mark {i}, {q}");
                }
            }
        }
    }
}
