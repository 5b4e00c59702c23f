//! Collision queries against the track's wall grid.
//!
//! A car is an oriented box ([`Obb`]). Three questions cover what the
//! physics needs: does a box touch a wall ([`Track::box_hits_wall`], by the
//! separating axis theorem against each wall cell), how does it get out
//! ([`Track::contact`]: the shallowest way out through a face that is not
//! shared with another wall cell, so a car sliding along a wall made of many
//! cells never catches on the seams), and how far can it move before it
//! touches one ([`Track::sweep`]). The sweep samples the motion at intervals
//! no longer than a quarter of the car's width or a cell: a box whose extent
//! along its motion is at least that long overlaps any wall it would cross
//! at one sample or more, however thin the wall and fast the car.

use glam::DVec2;

use super::{Track, WALL};

/// An oriented box: a car's footprint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb {
    pub center: DVec2,
    /// Unit vector along the box's length (the car's forward).
    pub axis: DVec2,
    /// Half length and half width.
    pub half: DVec2,
}

impl Obb {
    pub fn new(center: DVec2, heading: f64, length: f64, width: f64) -> Self {
        Obb::along(center, crate::base::trig::dir(heading), length, width)
    }

    /// A box whose length runs along the unit vector `axis`.
    pub fn along(center: DVec2, axis: DVec2, length: f64, width: f64) -> Self {
        Obb {
            center,
            axis,
            half: DVec2::new(length, width) * 0.5,
        }
    }

    /// The four corners, going round: front left, front right, rear right,
    /// rear left.
    pub fn corners(&self) -> [DVec2; 4] {
        let (f, r) = (self.axis * self.half.x, self.axis.perp() * self.half.y);
        [f - r, f + r, -f + r, -f - r].map(|c| self.center + c)
    }

    /// Half the box's extent along unit vector `n`.
    fn radius_along(&self, n: DVec2) -> f64 {
        self.half.x * self.axis.dot(n).abs() + self.half.y * self.axis.perp().dot(n).abs()
    }

    /// The axis-aligned bounding box, attained at the box's corners.
    pub fn aabb(&self) -> (DVec2, DVec2) {
        let r = DVec2::new(self.radius_along(DVec2::X), self.radius_along(DVec2::Y));
        (self.center - r, self.center + r)
    }

    pub fn moved(&self, by: DVec2) -> Self {
        Obb {
            center: self.center + by,
            ..*self
        }
    }

    /// How two boxes overlap, if they do: the shallowest way to push
    /// `self` out of `other` (separating axis theorem over both boxes'
    /// axes), as a unit normal pointing from `other` to `self` and a depth.
    pub fn overlap(&self, other: &Obb) -> Option<Penetration> {
        let d = self.center - other.center;
        let mut best: Option<Penetration> = None;
        for n in [self.axis, self.axis.perp(), other.axis, other.axis.perp()] {
            let depth = self.radius_along(n) + other.radius_along(n) - d.dot(n).abs();
            if depth <= 0.0 {
                return None;
            }
            if best.is_none_or(|b| depth < b.depth) {
                let normal = if d.dot(n) >= 0.0 { n } else { -n };
                best = Some(Penetration { normal, depth });
            }
        }
        best
    }

    /// The separating-axis test of this box against rectangles of one
    /// size, `half` each way: what depends on the box alone, once.
    fn against_rects(&self, half: DVec2) -> RectTest {
        let side = self.axis.perp();
        RectTest {
            center: self.center,
            axis: self.axis,
            side,
            reach: [
                self.radius_along(DVec2::X) + half.x,
                self.radius_along(DVec2::Y) + half.y,
                self.half.x + half.x * self.axis.x.abs() + half.y * self.axis.y.abs(),
                self.half.y + half.x * side.x.abs() + half.y * side.y.abs(),
            ],
        }
    }
}

/// A box tested against many rectangles of one size ([`Obb::against_rects`]):
/// they overlap unless the centres are at least `reach` apart along one of
/// the four axes (x, y, the box's axis and its side).
struct RectTest {
    center: DVec2,
    axis: DVec2,
    side: DVec2,
    reach: [f64; 4],
}

impl RectTest {
    /// Whether the box overlaps the open rectangle around `center`.
    fn overlaps(&self, center: DVec2) -> bool {
        let d = self.center - center;
        d.x.abs() < self.reach[0]
            && d.y.abs() < self.reach[1]
            && d.dot(self.axis).abs() < self.reach[2]
            && d.dot(self.side).abs() < self.reach[3]
    }
}

/// How a box overlapping a wall gets out: move it `depth` metres along
/// `normal` (a unit vector pointing out of the wall).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penetration {
    pub normal: DVec2,
    pub depth: f64,
}

/// The first wall contact along a sweep: the box moves freely for a fraction
/// `t` of the motion, then touches a wall facing `normal`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub t: f64,
    pub normal: DVec2,
}

/// The most wall cells [`Track::sweep`] gathers before it tests boxes
/// against the map itself.
const NEAR_WALLS: usize = 32;

/// Wall cell centres gathered by [`Track::walls_within`].
struct NearWalls {
    centers: [DVec2; NEAR_WALLS],
    len: usize,
}

impl Track {
    /// Cell ranges (inclusive) under an AABB, clamped to the map, and
    /// whether the AABB reaches outside the map (which is all wall).
    fn cells_under(&self, min: DVec2, max: DVec2) -> (bool, [usize; 4]) {
        let size = self.size_m();
        let outside = min.x <= 0.0 || min.y <= 0.0 || max.x >= size.x || max.y >= size.y;
        let cs = self.cell_size();
        let c = |v: f64, n: usize| (v.max(0.0) as usize).min(n - 1);
        (
            outside,
            [
                c(min.x / cs.x, self.width),
                c(max.x / cs.x, self.width),
                c(min.y / cs.y, self.height),
                c(max.y / cs.y, self.height),
            ],
        )
    }

    /// Whether the box overlaps a wall cell or reaches off the map.
    pub fn box_hits_wall(&self, b: &Obb) -> bool {
        let (min, max) = b.aabb();
        if !(min.is_finite() && max.is_finite()) {
            return true;
        }
        let (outside, [c0, c1, r0, r1]) = self.cells_under(min, max);
        if outside {
            return true;
        }
        let test = b.against_rects(self.cell_size() * 0.5);
        (r0..=r1).any(|r| {
            let row = &self.cells[r * self.width..][c0..=c1];
            row.iter()
                .zip(c0..)
                .any(|(&cell, c)| cell == WALL && test.overlaps(self.cell_center(c, r)))
        })
    }

    /// The deepest wall contact of a box, if it overlaps any wall: for each
    /// wall cell it overlaps, the shallowest way out through an exposed face
    /// (one whose neighbour is not a wall); the map's border counts as a
    /// face of the wall beyond it.
    pub fn contact(&self, b: &Obb) -> Option<Penetration> {
        let (min, max) = b.aabb();
        if !(min.is_finite() && max.is_finite()) {
            return None;
        }
        let mut best: Option<Penetration> = None;
        let mut consider = |c: Penetration| {
            if c.depth > 0.0 && best.is_none_or(|b| c.depth > b.depth) {
                best = Some(c);
            }
        };
        let size = self.size_m();
        for (out, normal) in [
            (-min.x, DVec2::X),
            (-min.y, DVec2::Y),
            (max.x - size.x, -DVec2::X),
            (max.y - size.y, -DVec2::Y),
        ] {
            consider(Penetration { normal, depth: out });
        }
        let (_, [c0, c1, r0, r1]) = self.cells_under(min, max);
        let half = self.cell_size() * 0.5;
        let test = b.against_rects(half);
        for r in r0..=r1 {
            let row = &self.cells[r * self.width..][c0..=c1];
            for (_, c) in row.iter().zip(c0..).filter(|(cell, _)| **cell == WALL) {
                let center = self.cell_center(c, r);
                if !test.overlaps(center) {
                    continue;
                }
                // Through each exposed face, how far the box reaches into
                // the cell (the box's extent along the face's normal is its
                // bounding box's).
                let (ci, ri) = (c as isize, r as isize);
                let mut way_out: Option<Penetration> = None;
                for (dc, dr, normal, depth) in [
                    (1, 0, DVec2::X, (center.x + half.x) - min.x),
                    (-1, 0, -DVec2::X, max.x - (center.x - half.x)),
                    (0, 1, DVec2::Y, (center.y + half.y) - min.y),
                    (0, -1, -DVec2::Y, max.y - (center.y - half.y)),
                ] {
                    if self.is_wall(ci + dc, ri + dr) {
                        continue;
                    }
                    if way_out.is_none_or(|w| depth < w.depth) {
                        way_out = Some(Penetration { normal, depth });
                    }
                }
                if let Some(w) = way_out {
                    consider(w);
                }
            }
        }
        best
    }

    /// Moves a box out of the walls it overlaps, face by face. Returns the
    /// cleared box and the normal of the last wall it was pushed from, or
    /// `None` when it is clear already or wedged in a gap narrower than
    /// itself (the caller then keeps its last clear pose).
    pub fn depenetrate(&self, b: &Obb) -> Option<(Obb, DVec2)> {
        const SKIN: f64 = 1e-6;
        let mut out = *b;
        let mut normal = None;
        for _ in 0..8 {
            match self.contact(&out) {
                Some(c) => {
                    out.center += c.normal * (c.depth + SKIN);
                    normal = Some(c.normal);
                }
                // No face left to push through: clear, or buried in a wall
                // mass whose cells have no exposed face.
                None if self.box_hits_wall(&out) => return None,
                None => return normal.map(|n| (out, n)),
            }
        }
        None
    }

    /// The centres of the wall cells under an axis-aligned box, if it is
    /// inside the map and they are few (at most [`NEAR_WALLS`]): testing a
    /// box within it against these alone is [`Track::box_hits_wall`].
    fn walls_within(&self, min: DVec2, max: DVec2) -> Option<NearWalls> {
        if !(min.is_finite() && max.is_finite()) {
            return None;
        }
        let (outside, [c0, c1, r0, r1]) = self.cells_under(min, max);
        if outside {
            return None;
        }
        let mut walls = NearWalls {
            centers: [DVec2::ZERO; NEAR_WALLS],
            len: 0,
        };
        for r in r0..=r1 {
            let row = &self.cells[r * self.width..][c0..=c1];
            for (_, c) in row.iter().zip(c0..).filter(|(cell, _)| **cell == WALL) {
                *walls.centers.get_mut(walls.len)? = self.cell_center(c, r);
                walls.len += 1;
            }
        }
        Some(walls)
    }

    /// How far a clear box can move by `delta` before it touches a wall.
    /// `None`: the whole motion is clear. `Some(hit)`: the box at
    /// `b.center + delta * hit.t` is clear and touches a wall facing
    /// `hit.normal` a little further on.
    pub fn sweep(&self, b: &Obb, delta: DVec2) -> Option<Hit> {
        let len = delta.length();
        if !(len.is_finite()) || len == 0.0 {
            return None;
        }
        let step = 0.25 * (2.0 * b.half.y).min(self.cell).max(1e-3);
        let n = ((len / step).ceil() as usize).clamp(1, 1 << 20);
        // Every sample lies within the two ends' bounding boxes: gather the
        // wall cells there once, unless there are too many.
        let (min0, max0) = b.aabb();
        let (min1, max1) = b.moved(delta).aabb();
        let near = self.walls_within(min0.min(min1), max0.max(max1));
        let half = self.cell_size() * 0.5;
        let hits = |t: f64| {
            let moved = b.moved(delta * t);
            match &near {
                Some(walls) => {
                    let test = moved.against_rects(half);
                    walls.centers[..walls.len].iter().any(|&c| test.overlaps(c))
                }
                None => self.box_hits_wall(&moved),
            }
        };
        let mut prev = 0.0;
        for i in 1..=n {
            let t = i as f64 / n as f64;
            if !hits(t) {
                prev = t;
                continue;
            }
            // Bisect between the last clear sample and this one, to 0.1 mm
            // (a car pressed against a wall moves less than that a step,
            // and needs no halving at all).
            let (mut lo, mut hi) = (prev, t);
            while (hi - lo) * len > 1e-4 {
                let mid = 0.5 * (lo + hi);
                if hits(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let normal = self
                .contact(&b.moved(delta * hi))
                .map_or(-delta / len, |c| c.normal);
            return Some(Hit { t: lo, normal });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::parse;
    use std::f64::consts::FRAC_PI_4;

    /// 1 m cells: columns are 1 m wide, rows 2 m tall.
    fn arena() -> Track {
        let src = "+++\ncell = 1.0\n+++\n\
            ####################\n\
            #..................#\n\
            #..>.......#.....=.#\n\
            #..........#.......#\n\
            #..................#\n\
            ####################\n";
        parse("arena.track", src.as_bytes()).unwrap()
    }

    #[test]
    fn two_boxes_overlap_along_their_shallowest_axis() {
        let a = Obb::new(DVec2::new(0.0, 0.0), 0.0, 4.0, 2.0);
        let b = Obb::new(DVec2::new(3.5, 0.2), 0.0, 4.0, 2.0);
        let c = b.overlap(&a).unwrap();
        assert_eq!(c.normal, DVec2::X, "b is pushed on along +x");
        assert!((c.depth - 0.5).abs() < 1e-12);
        assert_eq!(
            Obb::new(DVec2::new(4.5, 0.0), 0.0, 4.0, 2.0).overlap(&a),
            None
        );
        // Rotated: a box diagonal to another, clear by its true shape.
        let d = Obb::new(DVec2::new(3.3, 2.3), FRAC_PI_4, 2.0, 0.5);
        assert_eq!(d.overlap(&a), None);
    }

    #[test]
    fn a_box_in_the_open_touches_nothing() {
        let t = arena();
        let b = Obb::new(DVec2::new(5.0, 5.0), 0.0, 2.0, 1.0);
        assert!(!t.box_hits_wall(&b));
        assert_eq!(t.contact(&b), None);
    }

    #[test]
    fn a_box_over_a_wall_cell_hits_and_is_pushed_out_the_near_face() {
        let t = arena();
        // The wall cell at column 11 spans x 11..12, rows 2..3 (y 4..8).
        let b = Obb::new(DVec2::new(10.3, 6.0), 0.0, 2.0, 1.0);
        assert!(t.box_hits_wall(&b));
        let c = t.contact(&b).unwrap();
        assert_eq!(c.normal, -DVec2::X);
        assert!((c.depth - 0.3).abs() < 1e-12, "{c:?}");
    }

    #[test]
    fn a_rotated_box_near_a_corner_is_tested_by_its_true_shape() {
        let t = arena();
        // Diagonal box whose AABB overlaps the wall cell but whose body does not.
        // It lies along the line x - y = 2, 0.71 m from the cell's corner (11, 8).
        let b = Obb::new(DVec2::new(10.6, 8.6), FRAC_PI_4, 2.0, 0.4);
        let (min, max) = b.aabb();
        assert!(max.x > 11.0 && min.y < 8.0, "AABB reaches the cell");
        assert!(!t.box_hits_wall(&b));
    }

    #[test]
    fn sliding_along_a_wall_made_of_many_cells_never_reports_a_seam() {
        let t = arena();
        // Pressed 0.1 m into the top wall (y < 2 is wall), anywhere along it.
        for i in 0..100 {
            let b = Obb::new(DVec2::new(3.0 + f64::from(i) * 0.13, 2.4), 0.0, 2.0, 1.0);
            let c = t.contact(&b).unwrap();
            assert_eq!(c.normal, DVec2::Y, "at step {i}");
            assert!((c.depth - 0.1).abs() < 1e-9);
        }
    }

    #[test]
    fn the_sweep_stops_before_a_thin_wall_at_any_speed() {
        let t = arena();
        let b = Obb::new(DVec2::new(5.0, 6.0), 0.0, 2.0, 1.0);
        // One step of 50 m would jump clean over the 1 m wall at x = 11..12.
        let hit = t.sweep(&b, DVec2::new(50.0, 0.0)).unwrap();
        assert_eq!(hit.normal, -DVec2::X);
        let stop = b.moved(DVec2::new(50.0 * hit.t, 0.0));
        assert!(!t.box_hits_wall(&stop));
        assert!(
            (stop.center.x + 1.0 - 11.0).abs() < 1e-4,
            "{:?}",
            stop.center
        );
    }

    #[test]
    fn a_clear_motion_has_no_hit() {
        let t = arena();
        let b = Obb::new(DVec2::new(5.0, 6.0), 0.0, 2.0, 1.0);
        assert_eq!(t.sweep(&b, DVec2::new(3.0, 0.5)), None);
    }

    #[test]
    fn off_the_map_is_wall() {
        let t = parse("open.track", b"..........\n..>.....=.\n..........\n").unwrap();
        let b = Obb::new(DVec2::new(0.5, 6.0), 0.0, 2.0, 1.0);
        assert!(t.box_hits_wall(&b));
        let c = t.contact(&b).unwrap();
        assert_eq!(c.normal, DVec2::X);
        assert!((c.depth - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_box_buried_in_the_border_walls_is_pushed_out_on_to_the_map() {
        let t = arena();
        // Straddling the map's left edge at (0, 5): the border cells it
        // overlaps are walls on every side but one, the map's.
        let b = Obb::new(DVec2::new(0.0, 5.0), -1.55, 2.0, 1.0);
        assert!(t.box_hits_wall(&b), "the box starts in the walls");
        let (out, normal) = t.depenetrate(&b).expect("a way out on to the map");
        assert_eq!(normal, DVec2::X);
        assert!(out.center.x > b.center.x);
        assert!(!t.box_hits_wall(&out));
    }

    #[test]
    fn depenetration_leaves_the_box_clear() {
        let t = arena();
        let b = Obb::new(DVec2::new(10.5, 6.0), 0.3, 2.0, 1.0);
        let (out, normal) = t.depenetrate(&b).unwrap();
        assert_eq!(normal, -DVec2::X);
        assert!(out.center.x < b.center.x);
        assert!(!t.box_hits_wall(&out));
        assert_eq!(t.depenetrate(&out), None, "a clear box stays put");
    }
}
