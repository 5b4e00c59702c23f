use super::super::aim::{Aim, Bounds};
use super::super::cost::{Cost, units};
use super::super::meet::{Tables, meet};
use super::super::random_maps::{cost_of, numbers, random_track, walled_field};
use super::super::search::Search;
use super::Span;
use crate::track::Track;

/// The plain Dijkstra the searches are checked against: the cheapest
/// path from any of the cells `from` to the first of `to` it settles.
fn one_way(track: &Track, from: &[usize], to: &[usize], cost: &impl Cost) -> Option<Vec<u32>> {
    let length = super::lengths(track);
    let mut came = vec![0; track.width * track.height];
    let mut search = Search::new(
        track,
        from.iter().copied(),
        &length,
        false,
        &Aim::NONE,
        &mut came,
    );
    let mut goal = None;
    search.run(cost, |i, _, _| {
        let reached = to.contains(&i);
        goal = reached.then_some(i);
        !reached
    });
    Some(search.path_to(goal?))
}

#[test]
fn a_span_holds_its_cells_and_no_other() {
    let span = Span::new([70_000, 5, 9, 70_000]);
    let held: Vec<usize> = (0..80_000).filter(|&i| span.contains(i)).collect();
    assert_eq!(held, [5, 9, 70_000]);
    assert!(!span.contains(usize::MAX));
    let empty = Span::new([]);
    assert!((0..10).all(|i| !empty.contains(i)));
}

#[test]
fn a_search_from_both_ends_finds_as_cheap_a_way_as_one_from_the_start() {
    // Random maps, prices, closed cells, starts and goals: the same
    // cost to the unit, or no way for all, aimed or not, on one
    // thread or two.
    let mut next = numbers(0x2545_f491_4f6c_dd1d);
    let (mut found, mut none) = (0, 0);
    for _ in 0..300 {
        let track = random_track(&mut next, 0);
        let cells = track.width * track.height;
        let open: Vec<usize> = (0..cells)
            .filter(|&i| track.drivable(i % track.width, i / track.width))
            .collect();
        if open.len() < 2 {
            continue;
        }
        let (nf, nt) = (1 + next(3), 1 + next(3));
        let from: Vec<usize> = (0..nf).map(|_| open[next(open.len())]).collect();
        let mut to: Vec<usize> = (0..nt).map(|_| open[next(open.len())]).collect();
        to.retain(|i| !from.contains(i));
        if to.is_empty() {
            continue;
        }
        let price: Vec<f64> = (0..cells)
            .map(|_| 1.0 + next(1000) as f64 / 250.0)
            .collect();
        let closed: Vec<bool> = (0..cells).map(|_| next(10) == 0).collect();
        let goals = Span::new(to.iter().copied());
        let cost = |j: usize, _| (!closed[j] || goals.contains(j)).then_some(price[j]);
        let length = super::lengths(&track);
        let bounds = |cells: &[usize]| Bounds::of(&track, cells.iter().copied()).unwrap();
        let aim = Aim::new(
            &track,
            bounds(&from),
            bounds(&to),
            &units(&track, &length),
            1.0,
        );
        let ends = || (from.iter().copied(), to.iter().copied());
        let one = one_way(&track, &from, &to, &cost);
        // The tables are zeroed after each search, for the next.
        let tables = &mut Tables::new(cells);
        let both = meet(&track, ends(), &length, &aim, &cost, false, tables);
        assert_eq!(
            both,
            meet(&track, ends(), &length, &aim, &cost, true, tables)
        );
        // Asked for two threads where none can be had: the ends take
        // turns on this one.
        let refused = crate::base::threads::without_threads(|| {
            meet(&track, ends(), &length, &aim, &cost, true, tables)
        });
        assert_eq!(both, refused);
        let plain = meet(&track, ends(), &length, &Aim::NONE, &cost, false, tables);
        match (one, both, plain) {
            (None, None, None) => none += 1,
            (Some(one), Some(both), Some(plain)) => {
                found += 1;
                assert!(from.contains(&(both[0] as usize)));
                assert!(to.contains(&(*both.last().unwrap() as usize)));
                let cost_of = |path: &[u32]| cost_of(&track, path, &length, &cost);
                assert_eq!(cost_of(&one), cost_of(&both), "one way, from both ends");
                assert_eq!(cost_of(&one), cost_of(&plain), "one way, not aimed");
            }
            (one, both, plain) => {
                panic!("{one:?} one way, {both:?} from both ends, {plain:?} not aimed")
            }
        }
    }
    assert!(found > 200 && none > 0, "{found} ways, {none} none");
}

#[test]
fn a_settled_cell_s_key_adds_up_along_its_path() {
    let mut next = numbers(77);
    for backward in [false, true] {
        for aimed in [false, true] {
            for _ in 0..20 {
                let track = random_track(&mut next, 0);
                let cells = track.width * track.height;
                let price: Vec<f64> = (0..cells).map(|_| 1.0 + next(1000) as f64 / 97.0).collect();
                let cost = |j: usize, _| (next_free(j)).then_some(price[j]);
                let length = [1.0, 1.0, 2.0, 2.0, 2.5, 2.5, 2.5, 2.5];
                // The start and the cells round it, aimed at a corner.
                let start = track.starts[0];
                let from: Vec<usize> = (0..cells)
                    .filter(|&i| {
                        let (c, r) = (i % track.width, i / track.width);
                        next_free(i) && c.abs_diff(start.col) <= 1 && r.abs_diff(start.row) <= 1
                    })
                    .collect();
                let aim = if aimed {
                    Aim::new(
                        &track,
                        Bounds::of(&track, from.iter().copied()).unwrap(),
                        Bounds::of(&track, [cells - 1]).unwrap(),
                        &units(&track, &length),
                        1.0,
                    )
                } else {
                    Aim::NONE
                };
                let mut came = vec![0; cells];
                let mut search = Search::new(
                    &track,
                    from.iter().copied(),
                    &length,
                    backward,
                    &aim,
                    &mut came,
                );
                let mut settled = Vec::new();
                search.run(&cost, |i, _, key| {
                    settled.push((i, key));
                    true
                });
                assert!(settled.len() > 10);
                // In the order of their keys: the aim is consistent.
                assert!(settled.windows(2).all(|p| p[0].1 <= p[1].1));
                // Worked out from the sources, or from cells worked
                // out before (on another cell's way).
                let mut known = std::collections::HashMap::new();
                for (i, key) in settled {
                    assert_eq!(search.key(i, &cost, &mut known), key);
                }
            }
        }
    }
}

#[test]
fn across_an_open_field_an_aimed_search_settles_little_more_than_its_way() {
    // A 900 x 600 field, across its middle, where every cell is 255
    // cells or more from a wall and costs the same: every staircase of
    // diagonals and moves along a row costs the same, and the search
    // follows one of them rather than filling the space between (or,
    // not aimed, a disc round the start).
    let (w, h) = (900, 600);
    let track = walled_field(w, h, |c, r| match (c, r) {
        (5, 5) => Some('>'),
        (7, 5) => Some('|'),
        _ => None,
    });
    let prices = super::Prices::new(&track);
    let (from, to) = ([(270, 270)], [(630, 330), (630, 331)]);
    let tables = &mut Tables::new(w * h);
    let path = super::shortest(&track, &prices, tables, &from, &to, |_| false).unwrap();
    assert!(path.len() > 350);
    // How many cells' prices a search from both ends asks, aimed and
    // not: about those it reaches.
    let length = super::lengths(&track);
    let asked = std::sync::atomic::AtomicUsize::new(0);
    let cost = |_, cell| {
        asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        prices.of(&track, cell)
    };
    let aim = Aim::new(
        &track,
        Bounds::of(&track, super::indices(&track, &from)).unwrap(),
        Bounds::of(&track, super::indices(&track, &to)).unwrap(),
        &units(&track, &length),
        prices.cheapest,
    );
    let mut asked_by = |aim: &Aim| {
        asked.store(0, std::sync::atomic::Ordering::Relaxed);
        let ends = (super::indices(&track, &from), super::indices(&track, &to));
        let way = meet(&track, ends, &length, aim, &cost, false, tables).unwrap();
        let price = |_, cell| prices.of(&track, cell);
        let cost_of = |way: &[u32]| cost_of(&track, way, &length, &price);
        assert_eq!(cost_of(&way), cost_of(&path), "as cheap a way");
        asked.load(std::sync::atomic::Ordering::Relaxed)
    };
    let (aimed, plain) = (asked_by(&aim), asked_by(&Aim::NONE));
    assert!(
        aimed < 10 * path.len(),
        "{aimed} cells for a way of {}",
        path.len()
    );
    assert!(plain > 100 * path.len(), "{plain} cells, not aimed");
}

#[test]
fn widening_reaches_the_cells_a_search_finds_within_reach() {
    // On random maps from a few cells, along rows and columns: the
    // cells a search with a queue settles within the distance.
    let mut next = numbers(4242);
    for _ in 0..60 {
        let track = random_track(&mut next, 0);
        let cells = track.width * track.height;
        let from: Vec<usize> = (0..=next(4)).map(|_| next(cells)).collect();
        let reach = [0.0, 1.9, 2.0, 6.0, 14.0, 20.0][next(6)];
        let cs = track.cell_size();
        let length = [cs.x, cs.x, cs.y, cs.y];
        let mut came = vec![0; cells];
        let mut search = Search::new(
            &track,
            from.iter().copied(),
            &length,
            false,
            &Aim::NONE,
            &mut came,
        );
        // A key is twice the cost, a cell's width costing 2^16 at a
        // price of 1.
        let most = 2 * 65_536 * (reach / track.cell).floor() as u64;
        let mut within = vec![false; cells];
        search.run(&|_, _| Some(1.0), |i, _, key| {
            within[i] = key <= most;
            key <= most
        });
        let near = super::widen(&track, from.iter().copied(), reach);
        let near: Vec<bool> = (0..cells).map(|i| near.contains(i)).collect();
        assert_eq!(near, within, "within {reach} m of {from:?}");
    }
}

/// Every seventh cell closed.
fn next_free(j: usize) -> bool {
    j % 7 != 3
}
