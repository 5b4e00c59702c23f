//! The regions a track's marks cut its road into, so that a leg of the
//! racing line ([`super::line`]) is searched only where it can run.
//!
//! A leg runs from one checkpoint's cells to the next's and ends on the
//! first of those it reaches: it never passes its goal, and never crosses
//! the finish line. So where the goal's line spans the road, the road past
//! it is of no use to the leg. A search from both ends ([`super::meet`])
//! does not know that: its end at the goal settled as many cells past the
//! goal as before it, a third of each leg's work (on a road winding over an
//! 8192 x 8192 map with nine checkpoints, its legs' searches took 1.74 s
//! where 1.3 s would do).
//!
//! A *region* is a set of cells a car can reach, none on a mark or closed
//! with the finish line, joined by the search's moves (8-connected, no
//! corner cut past a wall). A leg can use the regions its start lies in or
//! beside, and those beside any checkpoint line (other than its goal) next
//! to a region it can use, and so on; the marks' cells themselves are
//! always open. The search keeps out of every other region: exactly the
//! cells no way from the start reaches without passing the goal or the
//! finish, so the cheapest way is the same.

use super::parts::two_cores;
use super::paths::{Span, indices};
use super::search::written;
use crate::track::{Mark, Track, flood};

/// A cell's column and row.
type Cell = (usize, usize);

/// The region label shared by every region after the first 254: a leg may
/// use all of them (a map cut into that many pieces is searched as if it
/// were not cut).
const MANY: u8 = u8::MAX;

/// A set of region labels, a bit each.
type Set = [u64; 4];

fn has(set: &Set, label: u8) -> bool {
    set[usize::from(label / 64)] >> (label % 64) & 1 != 0
}

fn add(set: &mut Set, label: u8) {
    set[usize::from(label / 64)] |= 1 << (label % 64);
}

/// The regions of a track.
pub struct Regions<'a> {
    track: &'a Track,
    /// Each cell's region, by index `row * width + col`; 0 where it is in
    /// none (a mark, a wall, a closed cell). Written through once when
    /// made ([`written`]): the fill reads a row's labels before it
    /// writes them.
    labels: Vec<u8>,
    /// The region each label belongs to: two labels are one region where
    /// a diagonal move joins them between two marked cells.
    root: [u8; 256],
    /// The regions beside each checkpoint's cells, checkpoint 1 first.
    beside: Vec<Set>,
}

impl<'a> Regions<'a> {
    /// The regions of `track` whose finish line's cells are `finish`, its
    /// checkpoints' `checkpoints` (in order), and the cells `short` (the
    /// finish line drawn on to the walls) in none.
    pub fn new(
        track: &'a Track,
        finish: &[Cell],
        checkpoints: &[Vec<Cell>],
        short: &[Cell],
    ) -> Regions<'a> {
        let (w, h) = (track.width, track.height);
        let mut regions = Regions {
            track,
            labels: written(w * h),
            root: std::array::from_fn(|l| l as u8),
            beside: Vec::new(),
        };
        // Every region but the whole road is beside a mark or a closed
        // cell: those cells' neighbours seed them all.
        let barriers: Vec<Cell> = finish
            .iter()
            .chain(checkpoints.iter().flatten())
            .chain(short)
            .copied()
            .collect();
        regions.label(&barriers, short);
        regions.join_diagonals(&barriers);
        regions.beside = (checkpoints.iter())
            .map(|cells| regions.beside_cells(cells))
            .collect();
        regions
    }

    /// Labels the open cells by region, seeded beside the `barriers`. The
    /// map in two halves, top and bottom, labelled at once where there
    /// are two cores (each half the same either way): labels 1 to 127 in
    /// the top, 128 to 254 in the bottom. A region across the middle is
    /// seeded from the middle rows too, and its labels on either side are
    /// joined.
    fn label(&mut self, barriers: &[Cell], short: &[Cell]) {
        let track = self.track;
        let (w, h) = (track.width, track.height);
        let reach = track.reachable();
        let closed = Span::new(indices(track, short));
        let open = |i: usize| reach[i] && !track.marked(i) && !closed.contains(i);
        let mid = h / 2;
        let (top, bottom) = self.labels.split_at_mut(mid * w);
        let halves = [(top, 0, 1u8, 127u8), (bottom, mid, 128, 254)];
        let seam = [mid.saturating_sub(1), mid];
        let label_half = |(labels, first, mut next, last): (&mut [u8], usize, u8, u8)| {
            let rows = first..first + labels.len() / w.max(1);
            let seeds = barriers
                .iter()
                .flat_map(|&cell| neighbours(track, cell))
                .chain(seam.iter().flat_map(|&r| (0..w).map(move |c| (c, r))))
                .filter(|(_, r)| rows.contains(r));
            let mut stack = Vec::new();
            for (c, r) in seeds {
                let i = r * w + c;
                let at = first * w;
                if labels[i - at] == 0 && open(i) {
                    // The region within these rows.
                    let label = next;
                    flood::fill(
                        &mut *labels,
                        w,
                        rows.clone(),
                        i,
                        &mut stack,
                        |labels, j| labels[j - at] == 0 && open(j),
                        |labels, run| labels[run.start - at..run.end - at].fill(label),
                    );
                    next = if next >= last { MANY } else { next + 1 };
                }
            }
        };
        if two_cores() {
            crate::base::threads::each(halves.into(), label_half);
        } else {
            halves.into_iter().for_each(label_half);
        }
        if mid > 0 {
            for c in 0..w {
                let (a, b) = (self.labels[(mid - 1) * w + c], self.labels[mid * w + c]);
                if a != 0 && b != 0 {
                    self.join(a, b);
                }
            }
        }
    }

    /// A diagonal move between two regions' cells past two marked cells
    /// (both a car can reach) joins them.
    fn join_diagonals(&mut self, barriers: &[Cell]) {
        let (w, h) = (self.track.width, self.track.height);
        let reach = self.track.reachable();
        for &(c, r) in barriers {
            // The four blocks of 2 x 2 cells it is in, by their top left.
            let blocks = [(1, 1), (1, 0), (0, 1), (0, 0)]
                .into_iter()
                .filter_map(|(dc, dr)| Some((c.checked_sub(dc)?, r.checked_sub(dr)?)))
                .filter(|&(c0, r0)| c0 + 1 < w && r0 + 1 < h);
            for (c0, r0) in blocks {
                let i = r0 * w + c0;
                for (a, b, x, y) in [(i, i + w + 1, i + 1, i + w), (i + 1, i + w, i, i + w + 1)] {
                    let label = |i: usize| self.labels[i];
                    let (la, lb) = (label(a), label(b));
                    if la != 0 && lb != 0 && reach[x] && reach[y] && label(x) == 0 && label(y) == 0
                    {
                        self.join(la, lb);
                    }
                }
            }
        }
    }

    /// The regions beside a mark's `cells`.
    fn beside_cells(&self, cells: &[Cell]) -> Set {
        let w = self.track.width;
        let mut set = Set::default();
        for &cell in cells {
            for (nc, nr) in neighbours(self.track, cell) {
                let label = self.labels[nr * w + nc];
                if label != 0 {
                    add(&mut set, self.find(label));
                }
            }
        }
        set
    }

    fn find(&self, mut label: u8) -> u8 {
        while self.root[usize::from(label)] != label {
            label = self.root[usize::from(label)];
        }
        label
    }

    /// Makes the labels `a` and `b` one region ([`MANY`] if either is).
    fn join(&mut self, a: u8, b: u8) {
        let (a, b) = (self.find(a), self.find(b));
        let (keep, other) = if a == MANY || b == MANY {
            (MANY, a.min(b))
        } else {
            (a.min(b), a.max(b))
        };
        self.root[usize::from(other)] = keep;
    }

    /// The cells a leg from the cells `from` to the cells of checkpoint
    /// `goal` (`None`: a goal on no mark, behind the finish) may use.
    pub fn leg(&self, from: &[Cell], goal: Option<u8>) -> Leg<'_> {
        let w = self.track.width;
        let mut usable = Set::default();
        add(&mut usable, 0);
        add(&mut usable, MANY);
        for &(c, r) in from {
            match (self.labels[r * w + c], self.track.mark_of(c, r)) {
                (0, Mark::Checkpoint(n)) => merge(&mut usable, &self.beside[usize::from(n) - 1]),
                // A start closed with the finish: a way leaves it all the
                // same, into the regions round it.
                (0, _) => {
                    for (nc, nr) in neighbours(self.track, (c, r)) {
                        add(&mut usable, self.find(self.labels[nr * w + nc]));
                    }
                }
                (label, _) => add(&mut usable, self.find(label)),
            }
        }
        // Through checkpoint lines other than the goal's.
        loop {
            let before = usable;
            for (n, set) in (1..).zip(&self.beside) {
                if Some(n) != goal && set.iter().zip(&usable).any(|(s, u)| s & u != 0) {
                    merge(&mut usable, set);
                }
            }
            if usable == before {
                break;
            }
        }
        let open = std::array::from_fn(|l| has(&usable, self.find(l as u8)));
        Leg {
            labels: &self.labels,
            open,
        }
    }
}

fn merge(set: &mut Set, other: &Set) {
    for (s, o) in set.iter_mut().zip(other) {
        *s |= o;
    }
}

/// The cells a leg of the line may use ([`Regions::leg`]).
pub struct Leg<'r> {
    labels: &'r [u8],
    /// By label.
    open: [bool; 256],
}

impl Leg<'_> {
    /// Whether the leg may use cell `i` (`row * width + col`).
    pub fn open(&self, i: usize) -> bool {
        self.open[usize::from(self.labels[i])]
    }
}

/// The neighbours of a cell on the map, the eight round it.
fn neighbours(track: &Track, (c, r): Cell) -> impl Iterator<Item = Cell> + '_ {
    (-1..=1isize)
        .flat_map(move |dr| (-1..=1isize).map(move |dc| (dc, dr)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(dc, dr)| {
            let (nc, nr) = (c.checked_add_signed(dc)?, r.checked_add_signed(dr)?);
            (nc < track.width && nr < track.height).then_some((nc, nr))
        })
}

#[cfg(test)]
mod tests {
    use super::super::meet::Tables;
    use super::super::paths::{Prices, Span, indices, lengths, shortest};
    use super::super::random_maps::{cost_of, numbers, random_track};
    use super::Regions;
    use crate::track::course::cells_of_marks;
    use crate::track::{Mark, parse};

    #[test]
    fn a_leg_kept_to_the_regions_it_can_use_finds_as_cheap_a_way() {
        // Random maps with checkpoint lines along rows, columns and
        // diagonals, a few cells closed with the finish, and legs from a
        // checkpoint or a cell to another checkpoint or a few cells: the
        // same cost with the leg kept to its regions as without.
        let mut next = numbers(0x5eed);
        let (mut found, mut none, mut kept_out) = (0, 0, 0);
        for _ in 0..400 {
            let checkpoints = 1 + next(4) as u8;
            let track = random_track(&mut next, checkpoints);
            let w = track.width;
            let mut marks = cells_of_marks(&track);
            for cells in &mut marks {
                cells.retain(|&(c, r)| track.drivable(c, r));
            }
            let open: Vec<(usize, usize)> = (0..w * track.height)
                .map(|i| (i % w, i / w))
                .filter(|&(c, r)| track.drivable(c, r) && track.mark_of(c, r) == Mark::None)
                .collect();
            if open.len() < 4 {
                continue;
            }
            // Closed with the finish: a line of open cells, often a
            // diagonal that a move can cross between two of its cells.
            let (dc, dr) = [(1, 1), (1, -1), (1, 0)][next(3)];
            let (c, r) = open[next(open.len())];
            let short: Vec<(usize, usize)> = (0..next(12) as isize)
                .filter_map(|k| {
                    Some((c.checked_add_signed(k * dc)?, r.checked_add_signed(k * dr)?))
                })
                .filter(|cell| open.contains(cell))
                .collect();
            let regions = Regions::new(&track, &marks[0], &marks[1..], &short);
            let closed = Span::new(indices(&track, &marks[0]).chain(indices(&track, &short)));
            let checkpoints = marks.len() - 1;
            let some = |next: &mut dyn FnMut(usize) -> usize| -> Vec<(usize, usize)> {
                (0..=next(3)).map(|_| open[next(open.len())]).collect()
            };
            let from_mark = 1 + next(checkpoints);
            let from = if next(2) == 0 {
                marks[from_mark].clone()
            } else {
                some(&mut next)
            };
            let goal = (next(3) > 0)
                .then(|| 1 + next(checkpoints))
                .filter(|&g| g != from_mark);
            let to = goal.map_or_else(|| some(&mut next), |g| marks[g].clone());
            let leg = regions.leg(&from, goal.map(|g| g as u8));
            if (0..w * track.height).any(|i| !leg.open(i)) {
                kept_out += 1;
            }
            let prices = Prices::new(&track);
            let cost = |_, cell| prices.of(&track, cell);
            let length = lengths(&track);
            let tables = &mut Tables::new(w * track.height);
            let all = shortest(&track, &prices, tables, &from, &to, |i| closed.contains(i));
            let kept = shortest(&track, &prices, tables, &from, &to, |i| {
                closed.contains(i) || !leg.open(i)
            });
            match (all, kept) {
                (None, None) => none += 1,
                (Some(all), Some(kept)) => {
                    found += 1;
                    let (a, b) = (
                        cost_of(&track, &all, &length, &cost),
                        cost_of(&track, &kept, &length, &cost),
                    );
                    assert_eq!(a, b, "{a} anywhere, {b} kept to the leg's regions");
                }
                (all, kept) => {
                    panic!("{all:?} anywhere, {kept:?} kept to the leg's regions")
                }
            }
        }
        assert!(
            found > 200 && none > 0 && kept_out > 40,
            "{found} ways, {none} none, {kept_out} kept out"
        );
    }

    #[test]
    fn past_254_regions_the_rest_are_open_to_every_leg() {
        // 400 dead ends above a checkpoint line, each a region of its own,
        // and the road below: a leg from the road to the line keeps out
        // of the first dead ends, which are of no use to it, and may use
        // those past the 254th label (where it is told no more).
        let n = 400;
        let mut rows = vec!["#".repeat(2 * n + 1)];
        rows.push(format!("#{}", ".#".repeat(n)));
        rows.push(format!("#{}", "1#".repeat(n)));
        for r in 0..5 {
            let road = ".".repeat(2 * n - 1);
            rows.push(match r {
                2 => format!("#.......>...|{}#", &road[12..]),
                _ => format!("#{road}#"),
            });
        }
        rows.push("#".repeat(2 * n + 1));
        let track = parse("dead ends", rows.join("\n").as_bytes()).unwrap();
        let marks = cells_of_marks(&track);
        let regions = Regions::new(&track, &marks[0], &marks[1..], &[]);
        let w = track.width;
        let road = [(20, 5)];
        let dead_end = |k: usize| 1 + 2 * k + w;
        let to_line = regions.leg(&road, Some(1));
        assert!(to_line.open(20 + 5 * w));
        assert!((0..100).all(|k| !to_line.open(dead_end(k))));
        assert!((300..n).all(|k| to_line.open(dead_end(k))));
        let past_line = regions.leg(&road, None);
        assert!((0..n).all(|k| past_line.open(dead_end(k))));
    }
}
