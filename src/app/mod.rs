//! The game as a state machine, with no terminal in it: screens, the menu,
//! the keys held, records, and the race ([`crate::race::Race`]) with its clock,
//! recording and replay. The game loop feeds it inputs and one
//! [`App::tick`] per physics step; the UI draws it without changing it.
//! The race steps the same [`crate::race::world::World`] as `skid sim`.

pub mod edit;
pub mod game;
mod paint;
pub mod planner;
mod records;
pub mod term;

use crate::ai::Line;
use crate::input::{Held, Key};
use crate::physics::ModelKind;
use crate::physics::car::CarSpec;
use crate::race::medals::book::{Book, Lookup};
use crate::race::medals::{self, Medal};
use crate::race::person::Person;
use crate::race::records::Store;
use crate::race::script::Script;
use crate::race::session::{Door, Session};
use crate::race::world::CarId;
use crate::track::{Raceable, bundled};

use crate::ai::race_line;
pub use crate::input::keys::Command;
use crate::race::setup::Row;
use crate::race::{Entry, Menu, Race, Setup, TrackChoice, presets};
pub use paint::{draw, paint};
use planner::{Planned, Planner};

/// The car of the person at this terminal: local play has one seat, on
/// the first car in the race.
pub const LOCAL: CarId = CarId(0);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Menu,
    Race,
    Results,
}

/// How the game was started.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A bundled track's name or a file (with the track already parsed
    /// and its lap checked).
    pub track: Option<(String, Raceable)>,
    pub model: Option<ModelKind>,
    /// A preset's name or a file, with the preset parsed.
    pub car: Option<(String, CarSpec)>,
    pub laps: Option<u32>,
    pub hz: u32,
    pub replay: Option<Script>,
    pub color: bool,
    /// Where records and ghosts are kept; none: not kept.
    pub records: Option<Store>,
    /// Computer cars in a race, and their skill (0.5 to 1: what a
    /// recording names) and the medal whose time they lap in.
    pub opponents: usize,
    pub skill: f64,
    pub rivals: crate::race::medals::Medal,
    /// Whether slow work (a large track's racing line, a medal table) is
    /// done on a thread while the game goes on (the game) or at once
    /// (headless runs, tests).
    pub background: bool,
    /// The Track of the Day, first of the menu's tracks (the front door
    /// reads the date; none in tests, whose menu is the same every day).
    pub today: Option<(String, Raceable)>,
}

// The game's switches (paused, quit...) are independent of one
// another: no state machine hides among them.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    /// The person at this terminal: help, held keys, screen size.
    pub session: Session,
    pub screen: Screen,
    pub menu: Menu,
    pub choices: Vec<TrackChoice>,
    /// Car presets the menu offers after "the model's own".
    pub cars: Vec<(String, CarSpec)>,
    pub race: Option<Race>,
    pub paused: bool,
    pub quit: bool,
    /// The title menu's Build a track was chosen: the game's loop ends
    /// for its caller to run the editor ([`edit::build`]) and the game
    /// again, back at the menu.
    pub editor_asked: bool,
    /// Whether the race was started from the title menu: q then goes
    /// back to it instead of quitting.
    from_menu: bool,
    /// Physics steps a second of the races it starts.
    pub hz: u32,
    replay: Option<Script>,
    records: Option<Store>,
    skill: f64,
    /// Things to tell the player once the terminal is theirs again.
    pub notices: Vec<String>,
    /// How many races have started: a recording starts over with each.
    pub races: u64,
    /// The racing line of the last track raced, by its content id.
    line: Option<(String, Line)>,
    /// [`Options::background`].
    pub background: bool,
    /// The line being computed for the race the player asked for.
    pub planner: Option<Planner>,
    /// The record lap time for the menu's track, model and car, seconds;
    /// read when the selection changes, not on every frame.
    pub menu_best: Option<f64>,
    /// The record on the aided board (`Record::aided`), shown beside it.
    pub menu_aided: Option<f64>,
    /// The medal tables known and being worked out.
    medal_book: Book,
    /// The medals of the menu's selection, and the medal the record
    /// there earned.
    pub menu_medals: (Lookup, Option<Medal>),
    /// Which medal table the race started with (set on the race when the
    /// book learns it).
    race_medals: Option<medals::book::LapKey>,
}

impl App {
    /// The title menu, preselected from the options.
    pub fn new(opts: Options) -> App {
        let mut choices: Vec<TrackChoice> = bundled::TRACKS
            .iter()
            .filter_map(|(n, _)| {
                bundled::load_raceable(n).map(|track| TrackChoice {
                    name: n.to_string(),
                    track,
                })
            })
            .collect();
        let bundled_first = usize::from(opts.today.is_some());
        choices.splice(
            0..0,
            (opts.today).map(|(name, track)| TrackChoice { name, track }),
        );
        let mut cars = presets();
        let track = match opts.track {
            Some((name, track)) => {
                if let Some(i) = choices.iter().position(|c| c.name == name) {
                    i
                } else {
                    choices.push(TrackChoice { name, track });
                    choices.len() - 1
                }
            }
            None => bundled_first,
        };
        let car_index = match &opts.car {
            Some((name, spec)) => {
                1 + if let Some(i) = cars.iter().position(|(n, _)| n == name) {
                    i
                } else {
                    cars.push((name.clone(), spec.clone()));
                    cars.len() - 1
                }
            }
            None => 0,
        };
        let model = opts
            .model
            .or(opts.car.as_ref().map(|(_, s)| s.model))
            .unwrap_or(ModelKind::Arcade);
        let mut app = App {
            screen: Screen::Menu,
            menu: Menu {
                car: car_index,
                laps: opts.laps.unwrap_or(0),
                opponents: opts.opponents.min(7),
                rivals: opts.rivals,
                build: true,
                ..Menu::new(track, model)
            },
            choices,
            cars,
            race: None,
            session: Session {
                color: opts.color,
                ..Session::new((80, 24))
            },
            paused: false,
            quit: false,
            editor_asked: false,
            from_menu: false,
            hz: opts.hz.max(1),
            replay: opts.replay,
            records: opts.records.clone(),
            skill: opts.skill,
            notices: Vec::new(),
            menu_best: None,
            menu_aided: None,
            races: 0,
            line: None,
            background: opts.background,
            planner: None,
            medal_book: Book::open(opts.records.as_ref().map(|s| s.dir.clone())),
            menu_medals: (Lookup::Working, None),
            race_medals: None,
        };
        app.refresh_best();
        app
    }

    /// What the menu's selection means.
    pub fn setup(&self) -> Setup<'_> {
        self.menu.setup(&self.choices[self.menu.track], &self.cars)
    }

    /// What the race the menu starts is ([`Setup::about`]): a recording's
    /// first line, which a replay must match.
    pub fn race_about(&self) -> String {
        self.setup().about(self.hz, self.skill)
    }

    /// The racing line of the menu's track: kept across restarts (it
    /// depends on the track alone), or worked out now; in the background
    /// mode, on a track whose line is not known yet, none: its planning
    /// starts instead, and [`App::poll`] starts the race when it is done.
    fn line_or_plan(&mut self) -> Option<Line> {
        let choice = &self.choices[self.menu.track];
        let id = choice.track.content_id();
        if let Some((_, line)) = self.line.as_ref().filter(|(c, _)| *c == id) {
            return Some(line.clone());
        }
        if self.background {
            match &mut self.planner {
                Some(p) if p.id == id => p.wanted = true,
                _ => self.planner = Some(Planner::start(&choice.track, &choice.name)),
            }
            self.session.dirty = true;
            return None;
        }
        let line = race_line(&choice.track);
        self.line = Some((id, line.clone()));
        Some(line)
    }

    /// Starts a race with the menu's selection; in the background mode,
    /// on a track whose racing line is not known yet, starts computing the
    /// line instead, and [`App::poll`] starts the race when it is done.
    pub fn start_race(&mut self) {
        let Some(line) = self.line_or_plan() else {
            return;
        };
        // A race left for another: its record kept first, if it is not.
        self.save_record();
        // The keys held (with the terminal's repeat learned) go to the
        // new seat.
        let held = std::mem::take(self.held_mut());
        // The menu's meaning, borrowed from its own fields so that the
        // notices can be written meanwhile.
        let setup = self.menu.setup(&self.choices[self.menu.track], &self.cars);
        let store = self.records.as_ref();
        let records = records::records_for(store, &setup, self.hz, &mut self.notices);
        let you = Entry {
            name: None,
            records,
            held,
        };
        let mut race = Race::start(
            &setup,
            line,
            self.hz,
            Door::Local,
            &[you],
            self.replay.as_ref(),
            setup.rivals,
        );
        let key = medals::book::key(&setup.track.track, &setup.spec, setup.model);
        let lookup = (self.medal_book).ask(
            key.clone(),
            &setup.track.track,
            &setup.spec,
            self.background,
        );
        race.set_medals(lookup.medals());
        self.race_medals = Some(key);
        if let Some((placed, asked)) = race.short_of {
            let note = format!(
                "{}: room on the grid for {placed} of the {asked} opponents asked for",
                setup.track.name
            );
            self.notices.push(note);
        }
        self.race = Some(race);
        self.session.stop_watching();
        self.races += 1;
        self.screen = Screen::Race;
        self.paused = false;
        self.session.dirty = true;
    }

    /// Whether physics ticks advance now: in the race, and on the results
    /// while the others race on (until the race is over).
    pub fn running(&self) -> bool {
        let racing = match self.screen {
            Screen::Race => true,
            Screen::Results => self.race.as_ref().is_some_and(|r| !r.over()),
            Screen::Menu => false,
        };
        racing && !self.paused && !self.session.help && !self.session.too_small()
    }

    /// The terminal is now `w` x `h` (each camera frames its new view on
    /// the next tick: `Camera::view`).
    pub fn resize(&mut self, w: u16, h: u16) {
        self.session.size = (w, h);
        self.session.dirty = true;
    }

    /// The keys the player holds: their seat's while a race is on, else
    /// the session's (where the terminal's repeat is learned meanwhile).
    pub fn held(&self) -> &Held {
        match self.race.as_ref().and_then(|r| r.seat(LOCAL)) {
            Some(seat) => &seat.held,
            None => &self.session.held,
        }
    }

    fn held_mut(&mut self) -> &mut Held {
        match self.race.as_mut().and_then(|r| r.seat_mut(LOCAL)) {
            Some(seat) => &mut seat.held,
            None => &mut self.session.held,
        }
    }

    /// The player, with their seat in the race if there is one.
    fn person(&mut self) -> Person<'_> {
        Person {
            session: &mut self.session,
            seat: self.race.as_mut().map(|r| (r, LOCAL)),
        }
    }

    /// A key event from the terminal (`key` if it drives; `id` tells
    /// keys apart): a press holds its control while the race runs, a
    /// release (terminals with the kitty protocol) lets it go at any time
    /// ([`Person::key`]).
    pub fn key(&mut self, key: Option<Key>, release: bool, id: u32, now: f64) {
        let drives = self.running();
        self.person().key(key, release, id, now, drives);
    }

    pub fn focus_lost(&mut self) {
        self.person().focus_lost();
    }

    /// Starts the race the player is waiting for if its racing line is
    /// done (see [`planner`]); the game calls this every turn of its loop.
    pub fn poll(&mut self) {
        if self.medal_book.poll() {
            self.medals_learnt();
        }
        let Some(planner) = &self.planner else { return };
        match planner.poll() {
            Planned::Waiting => {}
            Planned::Done(line) => {
                let wanted = planner.wanted;
                self.line = Some((planner.id.clone(), line));
                self.planner = None;
                if wanted {
                    self.start_race();
                }
            }
            Planned::Failed => {
                let note = format!("{}: the racing line could not be computed", planner.name);
                self.notices.push(note);
                self.planner = None;
                self.session.dirty = true;
            }
        }
    }

    /// One physics tick, when the race runs.
    pub fn tick(&mut self, now: f64) {
        if !self.running() {
            return;
        }
        let Some(race) = &mut self.race else { return };
        let laps = |race: &Race| race.seat(LOCAL).map_or(0, |s| s.log.ends.len());
        let laps_before = laps(race);
        race.tick(now);
        race.move_camera(Some(LOCAL), &mut self.session);
        let Some(seat) = race.view(LOCAL) else { return };
        if let Some(kind) = seat.seat.last.model {
            // The model switched; its own car where that fits.
            let (own, car) = (CarSpec::default_for(kind).name, &seat.car().spec().name);
            if *car != own {
                let note = format!("the {own} does not fit here: {kind} with the {car}");
                self.notices.push(note);
            }
        }
        let lap_done = laps(race) > laps_before;
        let done = race.finished(LOCAL) || race.over();
        if lap_done {
            self.save_record();
        }
        if done && self.screen == Screen::Race {
            self.screen = Screen::Results;
            self.held_mut().release_all();
        }
        self.session.dirty = true;
    }

    pub fn command(&mut self, cmd: Command) {
        self.session.dirty = true;
        let waiting = self.planner.as_mut().filter(|p| p.wanted);
        if let Some(planner) = waiting.filter(|_| !self.session.help) {
            // Waiting for a racing line: the menu stays still; Esc gives
            // up waiting (the line goes on being computed, and is kept).
            match cmd {
                Command::Quit => self.quit = true,
                Command::Back => planner.wanted = false,
                _ => {}
            }
            return;
        }
        let Some(cmd) = self.session.through_help(cmd) else {
            return;
        };
        match (self.screen, cmd) {
            (Screen::Race | Screen::Results, Command::Quit) if self.from_menu => {
                self.back_to_menu();
            }
            (_, Command::Quit) => {
                self.save_record();
                self.quit = true;
            }
            (Screen::Menu, c) => self.menu_command(c),
            (Screen::Results, Command::Enter | Command::Back) => self.back_to_menu(),
            (Screen::Results, Command::Restart) => self.start_race(),
            (Screen::Results, Command::NextCar) => {
                if let Some(race) = &mut self.race {
                    race.watch_next(Some(LOCAL), &mut self.session);
                }
            }
            (Screen::Results, _) => {}
            (Screen::Race, c) => self.race_command(c),
        }
    }

    /// From a race or its results back to the title menu.
    fn back_to_menu(&mut self) {
        self.screen = Screen::Menu;
        self.paused = false;
        // The keys (and the repeat learned) back to the menu, let go.
        self.session.held = std::mem::take(self.held_mut());
        self.session.held.release_all();
        self.save_record();
        self.race = None;
        self.refresh_best();
    }

    /// `choice` among the menu's tracks (in place of one of its name),
    /// selected: a track just built.
    pub fn add_choice(&mut self, choice: TrackChoice) {
        let at = self.choices.iter().position(|c| c.name == choice.name);
        let at = at.unwrap_or_else(|| {
            self.choices.push(choice.clone());
            self.choices.len() - 1
        });
        self.choices[at] = choice;
        self.menu.track = at;
        self.menu.row = Row::Start;
        self.refresh_best();
    }

    fn menu_command(&mut self, cmd: Command) {
        if cmd == Command::Enter && self.menu.row == Row::Build {
            self.editor_asked = true;
        } else if cmd == Command::Enter {
            self.from_menu = true;
            self.start_race();
        } else {
            let own = (self.choices.get(self.menu.track)).map_or(1, |c| c.track.laps);
            if !self
                .menu
                .apply(cmd, self.choices.len(), self.cars.len() + 1, own)
            {
                return;
            }
            self.refresh_best();
        }
    }

    fn race_command(&mut self, cmd: Command) {
        let Some(race) = &mut self.race else { return };
        if race.seat_command(LOCAL, cmd) {
            return;
        }
        let (Some(seat), Some(e)) = (race.seats.get_mut(&LOCAL), race.world.car(LOCAL)) else {
            return;
        };
        let car = &e.car;
        match cmd {
            Command::Pause | Command::Back => {
                self.paused = !self.paused;
                seat.held.release_all();
            }
            Command::Restart => self.start_race(),
            Command::SwitchModel => seat.switch_model(car),
            Command::NextCar => race.watch_next(Some(LOCAL), &mut self.session),
            Command::Enter if self.paused => self.paused = false,
            _ => {}
        }
    }
}

#[cfg(test)]
mod medal_tests;
#[cfg(test)]
mod tests;
