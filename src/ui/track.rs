//! The top-down track in braille ([`super::dots`], as ratatui's braille
//! `Canvas` draws it; the ground painted once per camera).
//!
//! The shapes here paint exact dots of the grid (`0..2 * cols` by
//! `0..4 * rows`): a track cell is one terminal cell
//! (2 x 4 dots) at zoom 1, and dots are square because a track cell is 1:2
//! like a terminal cell. Each surface has its own dot pattern, so the map
//! reads in monochrome too; colour, per terminal cell, only helps.
//!
//! | ground | dots | colour |
//! | --- | --- | --- |
//! | wall facing the course | all eight | white |
//! | scenery out of reach | none | |
//! | asphalt | none | |
//! | grass | one | green |
//! | gravel | two, diagonal | yellow |
//! | ice | two, the other diagonal | cyan |
//! | finish line | a checker of four | white |
//! | checkpoint | a bar | magenta |
//!
//! Over the ground: skid marks (grey dots), the ghost (a grey outline,
//! `g` hides it) and the cars; then the text ([`super::labels`]): names
//! beside others' cars and ghosts, and on your own car's centre cell the
//! arrow nearest its heading in reverse video, which no other car, ghost
//! or name ever shows.

use glam::DVec2;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::dots::{Dots, Trail};
use super::labels::{arrow, label, names};
use super::projection::Projection;
use super::theme::THEME;
use crate::console::damage::Damage;
use crate::physics::ModelKind;
use crate::race::SeatView;
use crate::race::camera::Camera;
use crate::track::{Mark, Obb, Track};

/// (dot x, dot y) offsets within a terminal cell.
type Pattern = &'static [(usize, usize)];

const WALL: Pattern = &[
    (0, 0),
    (1, 0),
    (0, 1),
    (1, 1),
    (0, 2),
    (1, 2),
    (0, 3),
    (1, 3),
];
const GRASS: Pattern = &[(0, 1)];
const GRAVEL: Pattern = &[(0, 0), (1, 2)];
const ICE: Pattern = &[(1, 0), (0, 2)];
const FINISH: Pattern = &[(0, 0), (1, 1), (0, 2), (1, 3)];
const CHECKPOINT: Pattern = &[(0, 0), (0, 1), (0, 2), (0, 3)];

/// The ground: walls, surfaces and race marks, the next one to cross
/// (`next`: a checkpoint's number, 0 for the finish) in green.
struct Ground<'a> {
    track: &'a Track,
    view: Projection,
    next: u8,
}

/// The pattern of a cell: walls only where they face the course, and
/// nothing for scenery a car cannot reach.
fn pattern(track: &Track, col: i64, row: i64, next: u8) -> Option<(Pattern, Color)> {
    let (c, r) = (col as usize, row as usize);
    if !track.drivable(c, r) {
        let (w, h) = (track.width as i64, track.height as i64);
        let faces_course = (-1..=1).any(|dr| {
            (-1..=1).any(|dc| {
                let (x, y) = (col + dc, row + dr);
                x >= 0 && y >= 0 && x < w && y < h && track.drivable(x as usize, y as usize)
            })
        });
        return (faces_course && track.is_wall(col as isize, row as isize))
            .then_some((WALL, THEME.text));
    }
    match track.mark_of(c, r) {
        Mark::Finish if next == 0 => return Some((FINISH, THEME.next_mark)),
        Mark::Finish => return Some((FINISH, THEME.finish)),
        Mark::Checkpoint(n) if n == next => return Some((CHECKPOINT, THEME.next_mark)),
        Mark::Checkpoint(_) => return Some((CHECKPOINT, THEME.checkpoint)),
        Mark::None => {}
    }
    let s = track.surface_of(c, r)?;
    match s.name.as_str() {
        "asphalt" => None,
        "grass" => Some((GRASS, THEME.grass)),
        "gravel" => Some((GRAVEL, THEME.gravel)),
        "ice" => Some((ICE, THEME.ice)),
        _ if s.grip < 0.3 => Some((ICE, THEME.slick)),
        _ if s.grip < 0.9 => Some((GRAVEL, THEME.loose)),
        _ => None,
    }
}

impl Ground<'_> {
    fn draw(&self, painter: &mut Dots) {
        let v = self.view;
        let z = i64::from(v.cam.zoom);
        let (cols, rows) = ((v.dots.0 / 2) as i64, (v.dots.1 / 4) as i64);
        for ty in 0..rows {
            for tx in 0..cols {
                let (col, row) = (
                    v.cam.origin.0 + tx.div_euclid(z),
                    v.cam.origin.1 + ty.div_euclid(z),
                );
                if col < 0
                    || row < 0
                    || col >= self.track.width as i64
                    || row >= self.track.height as i64
                {
                    continue;
                }
                if let Some((dots, color)) = pattern(self.track, col, row, self.next) {
                    for &(px, py) in dots {
                        v.paint(painter, tx * 2 + px as i64, ty * 4 + py as i64, color);
                    }
                }
            }
        }
    }
}

/// Skid marks: where tires slid, after the first `from` added.
struct Skids<'a> {
    skids: &'a crate::race::Skids,
    view: Projection,
}

impl Skids<'_> {
    fn draw(&self, painter: &mut Dots, from: u64) {
        for p in self.skids.since(from) {
            let d = self.view.dot(*p);
            self.view
                .paint(painter, d.x.round() as i64, d.y.round() as i64, THEME.faint);
        }
    }
}

/// A car: an arrowhead from its rear corners to a point a metre ahead of
/// its nose, and a line down its middle to that point, so the heading
/// shows in shape without colour (the line is yellow in colour); for the
/// `tire` model its four tires.
struct CarShape<'a> {
    car: &'a crate::physics::Car,
    color: Color,
    view: Projection,
}

impl CarShape<'_> {
    fn draw(&self, painter: &mut Dots) {
        let car = self.car;
        let b = &car.state.body;
        let (f, r) = b.axes();
        let hl = car.spec().body.length * 0.5;
        let hw = car.spec().body.width * 0.5;
        let tip = b.pos + f * (hl + 1.0);
        let (rear_left, rear_right) = (b.pos - f * hl - r * hw, b.pos - f * hl + r * hw);
        // All in the car's own colour: a braille cell takes the colour
        // drawn in it last, so a line of any other colour would colour
        // most of the car's cells, every car's alike.
        self.view.line(painter, rear_left, rear_right, self.color);
        self.view.line(painter, rear_left, tip, self.color);
        self.view.line(painter, rear_right, tip, self.color);
        self.view.line(painter, b.pos - f * hl, tip, self.color);
        if car.kind == ModelKind::Tire {
            let steer = crate::base::trig::dir(car.state.steer);
            let wheels = crate::physics::wheel_positions(b.pos, (f, r), car.spec());
            for (i, at) in wheels.into_iter().enumerate() {
                let dir = if i < 2 { steer.rotate(f) } else { f };
                self.view
                    .line(painter, at - dir * 0.35, at + dir * 0.35, THEME.dim);
            }
        }
    }
}

/// The ghost (the best lap's, or someone else's picked on the server):
/// the car's outline where that lap was at this moment of the lap,
/// dashed (and dim in colour), so it is never taken for a car or a wall.
struct GhostShape<'a> {
    v: SeatView<'a>,
    view: Projection,
}

impl GhostShape<'_> {
    fn draw(&self, painter: &mut Dots) {
        let Some([x, y, heading]) = self.v.ghost_pose() else {
            return;
        };
        let spec = &self.v.car().spec().body;
        let ghost = Obb::new(DVec2::new(x, y), heading, spec.length, spec.width);
        self.view.outline(painter, &ghost, THEME.faint, true);
    }
}

/// The race's camera for a view of `area` (before the first tick, or
/// the first after a resize, the one that tick will choose).
pub fn camera(v: SeatView<'_>, area: Rect) -> Camera {
    let view = (area.width, area.height);
    v.camera.filter(|c| c.view == view).unwrap_or_else(|| {
        Camera::follow(
            None,
            &v.race.world.track,
            (area.width, area.height),
            v.car().state.body.pos,
            v.car().state.body.vel,
        )
    })
}

/// Where the track view looks from: its camera's view of the track, and
/// what its ground is painted for ([`Framing::key`]).
pub struct Framing {
    area: Rect,
    view: Projection,
    next: u8,
    ground: super::dots::Scene,
    /// The seat's skid marks, kept painted over the ground.
    trail: Trail,
}

impl Framing {
    /// The track view of `v` in `area`; none for an empty area.
    pub fn of(v: SeatView<'_>, area: Rect) -> Option<Framing> {
        if area.width == 0 || area.height == 0 {
            return None;
        }
        let track = &v.race.world.track;
        let cam = camera(v, area);
        let dots = (area.width as usize * 2, area.height as usize * 4);
        let view = Projection {
            cam,
            cell: track.cell_size(),
            dots,
        };
        let next = v.next_mark();
        let (id, w, h) = (track.id, track.width, track.height);
        let ground = (id, w, h, cam.zoom, cam.origin, dots, next);
        let skids = &v.seat.skids;
        let (id, dropped) = skids.stem();
        let trail = Trail {
            id,
            dropped,
            added: skids.added(),
        };
        Some(Framing {
            area,
            view,
            next,
            ground,
            trail,
        })
    }

    /// Whether the camera shows the whole track (no minimap needed).
    pub fn whole_track(&self) -> bool {
        self.view.cam.fixed
    }

    /// What the race screen's cells outside its damage's rectangles and
    /// parts are a function of: the view's place on the screen.
    pub fn key(&self) -> Rect {
        self.area
    }

    /// What the view's backdrop (a part of the damage) is a function
    /// of: the ground under the camera and the skid marks (which trail,
    /// and how many of it were let go: while that stays, marks are only
    /// added, and a frame's damage holds those it adds).
    fn backdrop(&self) -> (super::dots::Scene, u64, u64) {
        (self.ground, self.trail.id, self.trail.dropped)
    }
}

/// Draws the race's track view `at` (see [`Framing`]), and says where it
/// may differ from the view drawn before it: the ground and the skid
/// marks are a backdrop, what the camera's place and the trail paint
/// ([`Damage::backdrop`]); the moving things, the marks added and the
/// labels are rectangles. `kept`: the buffer holds the frame before, of
/// the same key, with the cells of its rectangles blank; with the same
/// backdrop, the ground is painted into those and where things move
/// now, and kept elsewhere; else painted whole (a camera that moved
/// leaves the panel's parts as they were).
pub fn draw(buf: &mut Buffer, at: &Framing, v: SeatView<'_>, kept: Option<&Damage>) -> Damage {
    let (area, view, next) = (at.area, at.view, at.next);
    let track = &v.race.world.track;
    // The ground is the same while the camera stays: painted once; the
    // skid marks over it are kept and only those added since painted.
    let dots = view.dots;
    let ground = |g: &mut Dots| Ground { track, view, next }.draw(g);
    let skids = &v.seat.skids;
    let mut grid = if skids.is_empty() {
        Dots::cached(at.ground, dots, ground)
    } else {
        let marks = |g: &mut Dots, from| Skids { skids, view }.draw(g, from);
        Dots::with_trail(at.ground, dots, ground, at.trail, marks)
    };
    GhostShape { v, view }.draw(&mut grid);
    for car in v.rivals() {
        CarShape {
            car,
            color: THEME.rival,
            view,
        }
        .draw(&mut grid);
    }
    CarShape {
        car: v.car(),
        color: THEME.you,
        view,
    }
    .draw(&mut grid);
    let moved: Vec<Rect> = grid.touched(area).collect();
    let mut damage = Damage::within(at.key(), Vec::new());
    // Always a part of the damage, a frame painted from blank too.
    let held = damage.backdrop(buf, area, at.backdrop(), kept);
    match kept.filter(|_| held) {
        Some(before) => grid.render_within(area, buf, before.rects().iter().chain(&moved).copied()),
        None => grid.render(area, buf),
    }
    grid.give_back();
    damage.extend(moved);
    // The next checkpoint's number on its line, so it reads without colour.
    if let Some(&at) = v.race.marks.get(next as usize).filter(|_| next > 0) {
        let style = Style::new()
            .fg(THEME.next_mark)
            .add_modifier(Modifier::BOLD);
        damage.extend(label(buf, area, view, at, 0, &next.to_string(), style));
    }
    damage.extend(names(buf, area, view, v));
    // Your car, unmistakable at any zoom and without colour: the arrow
    // nearest its heading on its centre cell, in reverse video.
    let you = Style::new()
        .fg(THEME.you)
        .add_modifier(Modifier::REVERSED | Modifier::BOLD);
    let body = &v.car().state.body;
    let arrow = arrow(body.heading).to_string();
    damage.extend(label(buf, area, view, body.pos, 0, &arrow, you));
    damage
}
