//! A `skid serve` hub of its own, without SSH: players joined as guests
//! at 80x24, their frames read back by a terminal emulator, in simulated
//! time. For tests that follow a race on the server tick by tick.
#![allow(dead_code)]

use std::time::Duration;

use skid::race::TrackChoice;
use skid::serve;
use skid::track::bundled;

use super::ssh;

/// A hub of its own (no SSH) offering `tracks`, at 120 Hz and 30 frames
/// a second, its records under a fresh directory `name`.
pub fn hub(
    tracks: Vec<serve::hub::Offered>,
    name: &str,
    start: std::time::Instant,
) -> serve::hub::Hub {
    let keeper = serve::keeper::Keeper::open(&temp_dir(name)).unwrap();
    serve::hub::Hub::new(tracks, SETTINGS, keeper, start)
}

/// The hubs' settings: 120 Hz, 30 frames a second.
const SETTINGS: serve::hub::Settings = serve::hub::Settings {
    hz: 120,
    fps: 30,
    idle: Duration::from_mins(5),
    keys_at_once: true,
};

/// A hub offering pocket, its records in `dir`, with Ann (a player with
/// a key) in its lobby at 80x24; and the receiver of her frames.
pub fn ann_on_pocket(
    dir: &std::path::Path,
    start: std::time::Instant,
) -> (
    serve::hub::Hub,
    tokio::sync::mpsc::Receiver<serve::hub::Out>,
) {
    let tracks = vec![serve::hub::Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let mut hub = serve::hub::Hub::new(
        tracks,
        SETTINGS,
        serve::keeper::Keeper::open(dir).unwrap(),
        start,
    );
    let (out, rx) = tokio::sync::mpsc::channel(1);
    let join = serve::hub::ToHub::Join {
        id: 1,
        name: "ann".into(),
        identity: Some("SHA256:ann".into()),
        size: (80, 24),
        color: true,
        room: None,
        out,
    };
    hub.apply(join, start);
    (hub, rx)
}

/// A guest at 80x24 joining a hub of its own ([`hub`]).
pub fn guest(
    id: serve::room::PlayerId,
    name: &str,
    out: tokio::sync::mpsc::Sender<serve::hub::Out>,
) -> serve::hub::ToHub {
    serve::hub::ToHub::Join {
        id,
        name: name.into(),
        identity: None,
        size: (80, 24),
        color: true,
        room: None,
        out,
    }
}

/// Player `id` presses `code` on `hub` at `at`, as their connection
/// hands a key on: the one way the tests press a key into a hub.
pub fn press(
    hub: &mut serve::hub::Hub,
    id: u64,
    code: ratatui::crossterm::event::KeyCode,
    at: std::time::Instant,
) {
    use ratatui::crossterm::event::{Event, KeyEvent};
    let input = serve::hub::ToHub::Input {
        id,
        events: vec![Event::Key(KeyEvent::from(code))],
        bytes: Vec::new(),
        at,
    };
    hub.apply(input, at);
}

/// A fresh directory for a hub's records, its own even where tests in one
/// process give the same name.
fn temp_dir(name: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("skid-hub-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `track`, called `name`, as a hub offers it: alone in a list.
fn offer(name: &str, track: skid::track::Raceable) -> Vec<serve::hub::Offered> {
    vec![serve::hub::Offered::new(TrackChoice {
        name: name.into(),
        track,
    })]
}

/// Two guests on a hub of its own (no SSH) offering one track, each with
/// an 80x24 screen read back by a terminal emulator, in simulated time.
pub struct TwoOnHub {
    pub hub: serve::hub::Hub,
    outs: Vec<tokio::sync::mpsc::Receiver<serve::hub::Out>>,
    pub screens: Vec<vt100::Parser>,
    /// Bytes of frames each player got.
    pub bytes: Vec<usize>,
    /// Why the hub closed each player's connection, once it has.
    pub closed: Vec<Option<String>>,
    start: std::time::Instant,
}

impl TwoOnHub {
    pub fn new() -> TwoOnHub {
        TwoOnHub::on("pocket", bundled::load_raceable("pocket").unwrap())
    }

    /// [`TwoOnHub::new`] on `track`, called `name`.
    pub fn on(name: &str, track: skid::track::Raceable) -> TwoOnHub {
        let keeper = serve::keeper::Keeper::open(&temp_dir("results")).unwrap();
        TwoOnHub::joined(offer(name, track), keeper, false)
    }

    /// [`TwoOnHub::keyed_in`] on a server offering `day`'s Track of the
    /// Day first (it is `day` on the server), the day before's, then
    /// pocket.
    pub fn daily_in(dir: &std::path::Path, day: skid::base::day::Day) -> TwoOnHub {
        let mut tracks = serve::daily::first(day).unwrap();
        tracks.extend(offer("pocket", bundled::load_raceable("pocket").unwrap()));
        let keeper = serve::keeper::Keeper::open(dir).unwrap();
        let mut two = TwoOnHub::joined(tracks, keeper, true);
        two.hub.offer_today(day);
        two
    }

    /// [`TwoOnHub::new`] with the records in `dir`, Ann and Ben each with
    /// a key (`SHA256:ann`, `SHA256:ben`), so their laps are kept.
    pub fn keyed_in(dir: &std::path::Path) -> TwoOnHub {
        TwoOnHub::keyed_with(serve::keeper::Keeper::open(dir).unwrap())
    }

    /// [`TwoOnHub::keyed_in`] with the records `keeper` keeps.
    pub fn keyed_with(keeper: serve::keeper::Keeper) -> TwoOnHub {
        let pocket = bundled::load_raceable("pocket").unwrap();
        TwoOnHub::joined(offer("pocket", pocket), keeper, true)
    }

    fn joined(
        tracks: Vec<serve::hub::Offered>,
        keeper: serve::keeper::Keeper,
        keyed: bool,
    ) -> TwoOnHub {
        use serve::hub::Hub;
        let start = std::time::Instant::now();
        let mut two = TwoOnHub {
            hub: Hub::new(tracks, SETTINGS, keeper, start),
            outs: Vec::new(),
            screens: Vec::new(),
            bytes: vec![0; 2],
            closed: vec![None; 2],
            start,
        };
        for (id, name) in [(1, "ann"), (2, "ben")] {
            let (out, rx) = tokio::sync::mpsc::channel(1);
            two.outs.push(rx);
            two.screens
                .push(vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0));
            let mut join = guest(id, name, out);
            if let serve::hub::ToHub::Join { identity, .. } = &mut join {
                *identity = keyed.then(|| format!("SHA256:{name}"));
            }
            two.hub.apply(join, start);
        }
        two
    }

    /// Ann makes a room of one lap with `rivals` computer cars, Ben
    /// joins it, Ann starts the race.
    pub fn one_lap(&mut self, rivals: usize) {
        use ratatui::crossterm::event::KeyCode;
        self.room_of_one_lap(rivals);
        self.press(2, KeyCode::Down, 0);
        self.press(2, KeyCode::Enter, 0);
        self.press(1, KeyCode::Enter, 0);
    }

    /// Ann makes a room of one lap with `rivals` computer cars and
    /// starts it alone; Ben stays in the lobby.
    pub fn alone(&mut self, rivals: usize) {
        self.room_of_one_lap(rivals);
        self.press(1, ratatui::crossterm::event::KeyCode::Enter, 0);
    }

    /// Ann makes a room and sets one lap and `rivals` computer cars.
    fn room_of_one_lap(&mut self, rivals: usize) {
        use ratatui::crossterm::event::KeyCode;
        self.press(1, KeyCode::Enter, 0);
        for _ in 0..4 {
            self.press(1, KeyCode::Down, 0);
        }
        // From the track's own laps down to one.
        for _ in 0..10 {
            self.press(1, KeyCode::Left, 0);
        }
        self.press(1, KeyCode::Down, 0);
        for _ in 0..rivals {
            self.press(1, KeyCode::Right, 0);
        }
    }

    /// The instant of physics tick `tick` at 120 Hz.
    pub fn at(&self, tick: u64) -> std::time::Instant {
        self.start + Duration::from_micros(tick * 1_000_000 / 120)
    }

    /// Runs the hub's ticks `from..to`: one physics step a call, as the
    /// server's loop calls it at the physics rate (a test that ticks only
    /// when it looks never leaves the countdown).
    pub fn run(&mut self, from: u64, to: u64) {
        for tick in from..to {
            self.hub.tick(self.at(tick));
        }
    }

    /// Player `id` presses `code` at tick `tick`.
    pub fn press(&mut self, id: u64, code: ratatui::crossterm::event::KeyCode, tick: u64) {
        let at = self.at(tick);
        press(&mut self.hub, id, code, at);
    }

    /// Draws the frames due at tick `tick` and reads them into the
    /// screens; returns which players got one.
    pub fn frames(&mut self, tick: u64) -> Vec<bool> {
        self.hub.frames(self.at(tick));
        let mut got = Vec::new();
        let players = self.outs.iter_mut().zip(&mut self.screens);
        let players = players.zip(self.bytes.iter_mut().zip(&mut self.closed));
        for ((rx, screen), (count, closed)) in players {
            let frame = rx.try_recv();
            match &frame {
                Ok(serve::hub::Out::Frame(bytes)) => {
                    screen.process(bytes);
                    *count += bytes.len();
                }
                Ok(serve::hub::Out::Close(why)) => *closed = Some(why.clone()),
                Err(_) => {}
            }
            got.push(frame.is_ok());
        }
        got
    }

    /// Player `id` (1 or 2) resizes their terminal to `cols` x `rows`.
    pub fn resize(&mut self, id: u64, cols: u16, rows: u16) {
        let at = self.start;
        self.hub.apply(
            serve::hub::ToHub::Resize {
                id,
                size: (cols, rows),
            },
            at,
        );
        self.screens[id as usize - 1]
            .screen_mut()
            .set_size(ssh::nz(rows), ssh::nz(cols));
    }

    /// Both (or Ann alone) race until the race is over or `ticks` have passed, each
    /// looking every 1/30 s and pressing keys as the computer driver's
    /// wish calls for: A or D while it steers (pressed again at each look,
    /// as a repeating key), after a pedal when the steering starts or
    /// changes side or the pedal wanted changes, and a pedal otherwise: S
    /// when it brakes, else W. Returns whether it is over.
    pub fn race(&mut self, ticks: u64) -> bool {
        self.race_looking(ticks, |_, _| {})
    }

    /// [`TwoOnHub::race`], calling `look` with the screens after each
    /// look's frames (every 1/30 s) and its tick.
    pub fn race_looking(&mut self, ticks: u64, mut look: impl FnMut(&TwoOnHub, u64)) -> bool {
        use ratatui::crossterm::event::KeyCode;
        let mut drivers: Vec<skid::ai::Driver> = {
            let run = self.hub.rooms[&1].running.as_ref().expect("racing");
            // Those of the two who race (Ben may be in the lobby).
            (0..run.drivers.len().min(2))
                .map(|i| {
                    let id = *run.race.seats.keys().nth(i).unwrap();
                    let car = &run.race.world.car(id).unwrap().car;
                    skid::ai::Driver::new(&run.race.world.track, car.spec(), car.kind, 0.8)
                })
                .collect()
        };
        let mut steering: [Option<KeyCode>; 2] = [None; 2];
        let mut pedals: [Option<KeyCode>; 2] = [None; 2];
        for tick in 1..ticks {
            let at = self.at(tick);
            self.hub.tick(at);
            let Some(run) = self.hub.rooms[&1].running.as_ref() else {
                return false;
            };
            if run.over() {
                return true;
            }
            if tick % 4 != 0 {
                continue;
            }
            let mut presses = Vec::new();
            for (i, driver) in drivers.iter_mut().enumerate() {
                let world = &run.race.world;
                let entrant = world.car(*run.race.seats.keys().nth(i).unwrap()).unwrap();
                let next = entrant.laps.wanted(&world.track);
                let want = driver.controls(&entrant.car, world.dt, next);
                let steer = match want.steer {
                    s if s > 0.05 => Some(KeyCode::Char('d')),
                    s if s < -0.05 => Some(KeyCode::Char('a')),
                    _ => None,
                };
                let pedal = KeyCode::Char(if want.brake > 0.25 { 's' } else { 'w' });
                match steer {
                    Some(k) if steering[i] == Some(k) && pedals[i] == Some(pedal) => {
                        presses.push((i, k));
                    }
                    Some(k) => presses.extend([(i, pedal), (i, k)]),
                    None => presses.push((i, pedal)),
                }
                steering[i] = steer;
                pedals[i] = Some(pedal);
            }
            for (i, code) in presses {
                self.press(i as u64 + 1, code, tick);
            }
            self.frames(tick);
            look(self, tick);
        }
        false
    }
}
