//! The centre line of a generated circuit, in metres: random points,
//! their convex hull (a loop that never crosses itself), each side's
//! middle pushed in or out (corners of every kind: sweepers where it
//! moves little, hairpins and chicanes where it moves much), points
//! pushed apart and sharp angles eased, then a closed Catmull-Rom
//! spline through them, sampled every metre or so. A line is kept only
//! if it stays inside the map, never comes near another part of itself
//! and has no corner tighter than [`MIN_RADIUS`]. Only `+ - * /` and
//! square roots: the same bits on every machine.

use glam::DVec2;

use super::rng::Rng;

/// The tightest corner a generated road has, at its centre line: a
/// hairpin every model takes at a crawl (m).
pub const MIN_RADIUS: f64 = 12.0;

/// What a line must keep clear of: the map's edge and other parts of
/// itself.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The map's size (m).
    pub size: DVec2,
    /// From the centre line to the outside of its wall (m): the line
    /// stays this far inside the map, and two parts of it twice this far
    /// apart.
    pub clear: f64,
    /// The least distance between two parts of the line side by side
    /// (m): the road and run-off of each and one wall between.
    pub beside: f64,
}

/// A sampled closed centre line: points about a metre apart (the last
/// joins the first), with the arc length at each.
#[derive(Debug, Clone)]
pub struct CentreLine {
    pub points: Vec<DVec2>,
    pub s: Vec<f64>,
    pub length: f64,
}

impl CentreLine {
    fn new(points: Vec<DVec2>) -> CentreLine {
        let mut s = Vec::with_capacity(points.len());
        let mut at = 0.0;
        for i in 0..points.len() {
            s.push(at);
            at += points[i].distance(points[(i + 1) % points.len()]);
        }
        CentreLine {
            points,
            s,
            length: at,
        }
    }

    /// The point `i` steps on, round the loop.
    pub fn at(&self, i: isize) -> DVec2 {
        let n = self.points.len() as isize;
        self.points[i.rem_euclid(n) as usize]
    }

    /// The unit direction of travel at point `i`.
    pub fn tangent(&self, i: usize) -> DVec2 {
        let i = i as isize;
        (self.at(i + 1) - self.at(i - 1)).normalize_or_zero()
    }

    /// The signed curvature at point `i` (1/m; positive turning towards
    /// +y from +x, as headings do), over a span of `k` points each way.
    pub fn curvature(&self, i: usize, k: isize) -> f64 {
        curvature(&self.points, i, k)
    }

    /// The index of the point nearest arc length `s` (taken round the
    /// loop).
    pub fn index_at(&self, s: f64) -> usize {
        let s = s.rem_euclid(self.length);
        match self.s.binary_search_by(|x| x.total_cmp(&s)) {
            Ok(i) => i,
            Err(i) => i.min(self.points.len()) % self.points.len(),
        }
    }

    /// The line the other way round.
    pub fn reversed(&self) -> CentreLine {
        let mut p = self.points.clone();
        p.reverse();
        CentreLine::new(p)
    }
}

/// The signed curvature of the closed line `points` at point `i`, over
/// `k` points each way: one over the radius of the circle through the
/// three.
fn curvature(points: &[DVec2], i: usize, k: isize) -> f64 {
    let n = points.len() as isize;
    let at = |j: isize| points[j.rem_euclid(n) as usize];
    let i = i as isize;
    let (a, b, c) = (at(i - k), at(i), at(i + k));
    let cross = (b - a).perp_dot(c - b);
    let d = a.distance(b) * b.distance(c) * a.distance(c);
    if d == 0.0 { 0.0 } else { 2.0 * cross / d }
}

/// Whether a corner of the closed line `points` is tighter than
/// [`MIN_RADIUS`].
fn too_tight(points: &[DVec2]) -> bool {
    (0..points.len()).any(|i| curvature(points, i, 3).abs() > 1.0 / MIN_RADIUS)
}

/// A centre line made from `stream`'s next numbers, or none if this try
/// breaks a rule of [`Bounds`] or [`MIN_RADIUS`].
pub fn centre_line(stream: &mut Rng, room: Bounds) -> Option<CentreLine> {
    let lo = DVec2::splat(room.clear);
    let hi = room.size - lo;
    if hi.x <= lo.x || hi.y <= lo.y {
        return None;
    }
    let n = 8 + stream.below(10) as usize;
    // Points well inside: the spline through them swings wider.
    let inset = (hi - lo) * 0.1;
    let (plo, phi) = (lo + inset, hi - inset);
    let points: Vec<DVec2> = (0..n)
        .map(|_| DVec2::new(stream.range(plo.x, phi.x), stream.range(plo.y, phi.y)))
        .collect();
    let hull = hull(points);
    if hull.len() < 3 {
        return None;
    }
    let mut ring = displaced(&hull, stream, plo, phi);
    let apart = room.clear * 1.2;
    for _ in 0..6 {
        push_apart(&mut ring, apart, plo, phi);
        ease_angles(&mut ring);
    }
    let mut points = spline(&ring);
    // Smoothed until no corner is too tight (or it is given up on).
    for _ in 0..30 {
        smooth(&mut points, 20);
        if !too_tight(&points) {
            break;
        }
    }
    fit(&mut points, lo, hi);
    let line = CentreLine::new(points);
    kept(&line, room).then_some(line)
}

/// The convex hull of `points`, counter-clockwise from the lowest
/// (Andrew's monotone chain).
fn hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let turn = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<DVec2> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && turn(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<DVec2> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && turn(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The hull with a point added in the middle of each side, pushed in or
/// out across it by up to half the side's length, kept within `lo..hi`.
fn displaced(hull: &[DVec2], stream: &mut Rng, lo: DVec2, hi: DVec2) -> Vec<DVec2> {
    let mut ring = Vec::with_capacity(hull.len() * 2);
    for (i, &a) in hull.iter().enumerate() {
        let b = hull[(i + 1) % hull.len()];
        ring.push(a);
        let side = b - a;
        let normal = side.perp().normalize_or_zero();
        let push = stream.range(-0.5, 0.5) * side.length();
        let mid = (a + b) * 0.5 + normal * push;
        ring.push(mid.clamp(lo, hi));
    }
    ring
}

/// Moves every two points nearer than `apart` away from each other,
/// half each, within `lo..hi`.
fn push_apart(ring: &mut [DVec2], apart: f64, lo: DVec2, hi: DVec2) {
    for i in 0..ring.len() {
        for j in i + 1..ring.len() {
            let d = ring[j] - ring[i];
            let len = d.length();
            if len < apart && len > 0.0 {
                let shift = d / len * ((apart - len) * 0.5);
                ring[i] = (ring[i] - shift).clamp(lo, hi);
                ring[j] = (ring[j] + shift).clamp(lo, hi);
            }
        }
    }
}

/// Eases every corner sharper than about 80 degrees (the two sides
/// meeting at under 100 degrees), moving its point a third of the way
/// towards the middle of its neighbours.
fn ease_angles(ring: &mut [DVec2]) {
    let n = ring.len();
    for i in 0..n {
        let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        let (u, v) = ((a - b).normalize_or_zero(), (c - b).normalize_or_zero());
        // cos of the angle between the sides: over cos(100 deg) is sharp.
        if u.dot(v) > -0.17 {
            ring[i] = b + ((a + c) * 0.5 - b) / 3.0;
        }
    }
}

/// A closed centralised Catmull-Rom-like spline (uniform) through
/// `ring`, sampled about every metre.
fn spline(ring: &[DVec2]) -> Vec<DVec2> {
    let n = ring.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (p0, p1, p2, p3) = (
            ring[(i + n - 1) % n],
            ring[i],
            ring[(i + 1) % n],
            ring[(i + 2) % n],
        );
        let steps = (p1.distance(p2).ceil() as usize).max(1);
        for k in 0..steps {
            let t = k as f64 / steps as f64;
            let (t2, t3) = (t * t, t * t * t);
            let p = (p1 * 2.0
                + (p2 - p0) * t
                + (p0 * 2.0 - p1 * 5.0 + p2 * 4.0 - p3) * t2
                + (p1 * 3.0 - p0 - p2 * 3.0 + p3) * t3)
                * 0.5;
            out.push(p);
        }
    }
    out
}

/// Smooths a closed line of points `times` over, each point moved to
/// half itself and a quarter of each neighbour: kinks where the spline's
/// pieces meet unevenly are ironed out over a few metres.
fn smooth(points: &mut [DVec2], times: usize) {
    let n = points.len();
    let mut next = points.to_vec();
    for _ in 0..times {
        for i in 0..n {
            let (a, b) = (points[(i + n - 1) % n], points[(i + 1) % n]);
            next[i] = points[i] * 0.5 + (a + b) * 0.25;
        }
        points.copy_from_slice(&next);
    }
}

/// Shrinks `points` (each axis on its own, never growing) and moves them
/// to lie within `lo..hi`.
fn fit(points: &mut [DVec2], lo: DVec2, hi: DVec2) {
    let (min, max) =
        (points.iter()).fold((DVec2::MAX, DVec2::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
    let span = (max - min).max(DVec2::splat(1e-9));
    let scale = ((hi - lo) / span).min(DVec2::ONE);
    let offset = lo + ((hi - lo) - span * scale) * 0.5;
    for p in points.iter_mut() {
        *p = offset + (*p - min) * scale;
    }
}

/// Whether `line` keeps to `room` and to [`MIN_RADIUS`].
fn kept(line: &CentreLine, room: Bounds) -> bool {
    let n = line.points.len();
    if n < 16 || line.length < 150.0 {
        return false;
    }
    let inside = (line.points.iter())
        .all(|p| p.cmpge(DVec2::splat(room.clear)).all() && p.cmple(room.size - room.clear).all());
    if !inside {
        return false;
    }
    if too_tight(&line.points) {
        return false;
    }
    // Two parts of the loop further apart along it than a half circle
    // of their clearance must be twice it apart in the map; two that are
    // not one bend (further along the loop than a hairpin takes to bring
    // them that near) must have room between them for a wall.
    let along = std::f64::consts::PI * room.clear * 1.5;
    for i in 0..n {
        for j in i + 1..n {
            let ds = (line.s[j] - line.s[i]).min(line.length - (line.s[j] - line.s[i]));
            let d = line.points[i].distance(line.points[j]);
            if (ds > along && d < room.clear * 2.0) || (ds > 1.4 * d && d < room.beside) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hull_is_the_outside_of_the_points() {
        let pts = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0), (2.0, 2.0)];
        let h = hull(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect());
        assert_eq!(h.len(), 4);
        assert!(!h.contains(&DVec2::new(2.0, 2.0)));
    }

    #[test]
    fn a_circle_has_the_curvature_of_its_radius() {
        let r = 20.0;
        let n = 200;
        let pts: Vec<DVec2> = (0..n)
            .map(|i| {
                let a = f64::from(i) / f64::from(n) * std::f64::consts::TAU;
                DVec2::new(r * a.cos(), r * a.sin())
            })
            .collect();
        let line = CentreLine::new(pts);
        assert!((line.curvature(10, 3) - 1.0 / r).abs() < 1e-3);
        assert!((line.length - std::f64::consts::TAU * r).abs() < 0.1);
        assert!((line.reversed().curvature(10, 3) + 1.0 / r).abs() < 1e-3);
    }
}
