//! Who each screen follows in a race: a seat's own camera after its
//! car, a person who finished (or only watches) watching the car they
//! chose, the next one at `v`.

use super::Race;
use super::said::Said;
use crate::race::camera::Camera;
use crate::race::session::Session;
use crate::race::world::CarId;

impl Race {
    /// Moves the camera of the seat driving `car` after it, for a track
    /// view of `view` cells (columns, rows).
    pub fn follow(&mut self, car: CarId, view: (u16, u16)) {
        let camera = self.seat(car).and_then(|s| s.camera);
        let camera = self.camera_on(car, camera, view);
        if let Some(seat) = self.seat_mut(car) {
            seat.camera = camera;
        }
    }

    /// The car the person driving `mine` (none: a watcher with no car)
    /// follows, having chosen to watch `watch`: their own while they
    /// race; once they finished, the car they chose if it is still in
    /// the race, else none (their results), and none once the race is
    /// over; with no car, the chosen one or the first seat's.
    pub fn followed(&self, mine: Option<CarId>, watch: Option<CarId>) -> Option<CarId> {
        let watch = watch.filter(|&c| self.seat(c).is_some());
        match mine {
            Some(_) if self.over() => None,
            Some(c) if !self.finished(c) => Some(c),
            Some(_) => watch,
            None => watch.or(self.seats.keys().next().copied()),
        }
    }

    /// `v` from the person at `session`, driving `mine` if any: once they
    /// are done (or if they have no car), the camera follows the next
    /// other car, then their own choice again. Where it cannot, their
    /// seat says why ([`Said`]): they are still racing, or there is no
    /// other car.
    pub fn watch_next(&mut self, mine: Option<CarId>, session: &mut Session) {
        let racing = mine.is_some_and(|c| !self.over() && !self.finished(c));
        let cars: Vec<CarId> = (self.seats.keys().copied())
            .filter(|&c| Some(c) != mine)
            .collect();
        let why = if racing {
            Said::StillRacing
        } else if cars.is_empty() {
            Said::NoOtherCar
        } else {
            session.next_car(&cars);
            return;
        };
        let tick = self.world.tick;
        if let Some(seat) = mine.and_then(|c| self.seats.get_mut(&c)) {
            seat.said.say(why, tick);
        }
    }

    /// Moves the camera of the person at `session` (driving `mine`, if
    /// any) after the car they follow ([`Race::followed`]): their own
    /// seat's camera, or their watching camera.
    pub fn move_camera(&mut self, mine: Option<CarId>, session: &mut Session) {
        let view = crate::race::layout::track_view_size(session.size);
        match self.followed(mine, session.watch) {
            Some(c) if Some(c) == mine => self.follow(c, view),
            Some(c) => session.camera = self.camera_on(c, session.camera, view),
            None => {}
        }
    }

    /// Camera `prev` moved after car `car`, for a track view of `view`
    /// cells: a watcher's own camera ([`crate::race::session::Session::camera`]);
    /// `prev` as it was if the car is gone.
    pub fn camera_on(&self, car: CarId, prev: Option<Camera>, view: (u16, u16)) -> Option<Camera> {
        let Some(e) = self.world.car(car) else {
            return prev;
        };
        let body = &e.car.state.body;
        Some(Camera::follow(
            prev,
            &self.world.track,
            view,
            body.pos,
            body.vel,
        ))
    }
}
