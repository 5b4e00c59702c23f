//! The computer cars a race puts on the grid: the race's model and car,
//! driven at the pace of the medal they are matched to.

use super::seat::Seat;
use super::{GRID_GAP, Race};
use crate::ai::Driver;
use crate::physics::Car;
use crate::race::medals::Medal;
use crate::race::world::Source;

impl Race {
    /// Puts up to `n` computer cars of the player's model and car, lapping
    /// in about the time of the medal `rivals`, on the start slots after
    /// the player's, skipping any slot where a car would
    /// come within [`GRID_GAP`] metres of one already placed; returns how
    /// many were placed.
    pub fn add_opponents(&mut self, n: usize, rivals: Medal) -> usize {
        self.rivals = rivals;
        let track = &self.world.track;
        let (kind, spec) = &self.started_with;
        let pace = self.rival_pace();
        let driver = Driver::along(&self.line, track, spec, *kind, 1.0).paced(pace);
        let mut rivals = Vec::new();
        let body = &spec.body;
        let room = |pos, heading| {
            crate::track::Obb::new(pos, heading, body.length + GRID_GAP, body.width + GRID_GAP)
        };
        // Clear of every car already in (the seats' cars).
        let mut placed: Vec<_> = (self.world.cars.iter())
            .map(|e| room(e.car.state.body.pos, e.car.state.body.heading))
            .collect();
        for slot in 1..track.starts.len() {
            if rivals.len() == n {
                break;
            }
            let (pos, heading) = track.start_pose(slot);
            let here = room(pos, heading);
            if placed.iter().any(|p| p.overlap(&here).is_some()) {
                continue;
            }
            placed.push(here);
            rivals.push(Car::new(spec.clone(), *kind, pos, heading));
        }
        let placed = rivals.len();
        for car in rivals {
            let id = self
                .world
                .enter(car, Source::Driver(Box::new(driver.clone())));
            self.seats.insert(id, Seat::computer(id));
        }
        placed
    }
}
