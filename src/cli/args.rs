//! The command line's words (docs/DESIGN.md, "Command line"): every command,
//! option and default as clap reads them, with the help text they print.

use clap::{Parser, Subcommand};

use crate::physics::DEFAULT_HZ;
use crate::physics::models::ModelKind;
use crate::track::bundled;

#[derive(Parser, Debug)]
#[command(
    name = "skid",
    version,
    about = "A top-down racing game for the terminal",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Verb>,
    /// With no command, the title menu's: where records are kept, the
    /// rivals' skill, the rates.
    #[command(flatten)]
    pub game: Game,
}

/// What a game on this terminal runs with, whichever way it starts (the
/// title menu, or `skid play` straight to a race).
#[derive(clap::Args, Debug)]
pub struct Game {
    /// Frames drawn per second at most.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=240))]
    pub fps: u32,
    /// Physics steps per second.
    #[arg(long, default_value_t = DEFAULT_HZ, value_parser = clap::value_parser!(u32).range(10..=10_000))]
    pub hz: u32,
    /// After the game, print frames, bytes, steps and fps on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Where records and ghosts are kept (default: the user's data
    /// directory).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<String>,
    /// How well the computer drives.
    #[arg(long, value_enum, default_value_t = Difficulty::Medium)]
    pub difficulty: Difficulty,
}

#[derive(Subcommand, Debug)]
pub enum Verb {
    /// Race in the terminal (with no command: the title menu).
    Play(Play),
    /// The exact screen the game would show at a tick of a script, as
    /// plain text.
    Render {
        #[command(flatten)]
        setup: RaceArgs,
        /// The input script (TOML holds).
        #[arg(long, value_name = "FILE")]
        inputs: String,
        /// Terminal size, columns x rows (for example 80x24).
        #[arg(long, value_name = "WxH", value_parser = parse_size)]
        size: (u16, u16),
        /// Race tick to show (default: the script's end).
        #[arg(long, value_name = "N")]
        tick: Option<u64>,
        #[arg(long, default_value_t = DEFAULT_HZ, value_parser = clap::value_parser!(u32).range(10..=10_000))]
        hz: u32,
    },
    /// List the bundled tracks: name, size, laps, surfaces and the medal
    /// times for a model and car; or a server's players' tracks
    /// (--database), one taken back or removed.
    Tracks {
        /// The model the medals are for (default: the car's own, or
        /// arcade).
        #[arg(long, value_name = "M")]
        model: Option<ModelKind>,
        /// The car the medals are for (default: the model's preset).
        #[arg(long, value_name = "C")]
        car: Option<String>,
        /// Where worked-out medals are kept (default: the user's data
        /// directory).
        #[arg(long, value_name = "DIR")]
        data_dir: Option<String>,
        #[cfg(feature = "serve")]
        #[command(flatten)]
        players: PlayersTracks,
    },
    /// Be an SSH server where people race each other: `ssh -p 2222
    /// NAME@host` lands in the lobby (no install, no account).
    #[cfg(feature = "serve")]
    Serve(Serve),
    /// Make a track from a seed: the same seed, the same track, on every
    /// machine. Printed, or written to --out.
    Generate(Generate),
    /// Draw a track in the terminal, checked as you draw: FILE if it
    /// exists, else a copy of the bundled track of that name (saved as
    /// NAME.track), else a new one saved to FILE.
    Edit {
        /// The track file (default: untitled.track).
        file: Option<String>,
    },
    /// Validate track files: `ok` for each valid file, its errors otherwise.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// The best laps kept, per track, model and car.
    Records(Records),
    /// List the car presets, or print one as TOML ready to copy and edit.
    Cars {
        /// A preset's name (or a car file) to print in full.
        #[arg(long, value_name = "NAME")]
        show: Option<String>,
    },
    /// Run an input script (or the computer driver) headless: a CSV trace
    /// on stdout, a row per tick.
    Sim {
        #[command(flatten)]
        setup: RaceArgs,
        /// The input script (TOML holds).
        #[arg(long, value_name = "FILE")]
        inputs: Option<String>,
        /// Who drives: the script given with --inputs, or the computer.
        #[arg(long, value_enum, default_value_t = DriverArg::Script)]
        driver: DriverArg,
        /// The computer driver's skill, 0.5 to 1.
        #[arg(long, default_value_t = 1.0)]
        skill: f64,
        /// With --driver ai: stop after N ticks if the race is not over.
        #[arg(long, value_name = "N", default_value_t = 120 * 3600)]
        max_ticks: u64,
        /// Save the run's best lap to the records, as the game would.
        #[arg(long)]
        save: bool,
        /// Where records and ghosts are kept (default: the user's data
        /// directory).
        #[arg(long, value_name = "DIR")]
        data_dir: Option<String>,
        /// Physics steps per second.
        #[arg(long, default_value_t = DEFAULT_HZ, value_parser = clap::value_parser!(u32).range(10..=10_000))]
        hz: u32,
        /// Print only every Nth tick's row.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        every: u64,
    },
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Difficulty {
    Easy,
    #[default]
    Medium,
    Hard,
}

impl Difficulty {
    /// The computer driver's skill.
    pub fn skill(self) -> f64 {
        match self {
            Difficulty::Easy => 0.6,
            Difficulty::Medium => 0.8,
            Difficulty::Hard => 1.0,
        }
    }

    /// The medal whose time rivals of this difficulty lap in: Easy
    /// bronze, Medium silver, Hard gold.
    pub fn medal(self) -> crate::race::medals::Medal {
        use crate::race::medals::Medal;
        match self {
            Difficulty::Easy => Medal::Bronze,
            Difficulty::Medium => Medal::Silver,
            Difficulty::Hard => Medal::Gold,
        }
    }
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverArg {
    Script,
    Ai,
}

/// `skid play`'s options.
#[derive(clap::Args, Debug)]
pub struct Play {
    #[command(flatten)]
    pub setup: RaceArgs,
    /// Laps in the race (default: the track's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub laps: Option<u32>,
    /// Play an input script back on screen instead of the keyboard.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<String>,
    /// With --replay: quit when the script ends (or the race does).
    #[arg(long)]
    pub quit_at_end: bool,
    /// Save the race's inputs as an input script.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    #[command(flatten)]
    pub game: Game,
    /// Computer cars to race against, 0 to 7.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    pub opponents: u8,
    /// Open the title menu instead of racing at once.
    #[arg(skip)]
    pub menu: bool,
}

/// `skid generate`'s words.
#[derive(clap::Args, Debug)]
pub struct Generate {
    /// The seed (default: one from the clock, named in the file).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// small, medium or large.
    #[arg(long, value_name = "SIZE", default_value = "medium")]
    pub size: String,
    /// Write the track to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// The Track of the Day instead: today's (UTC), or the day given.
    #[arg(long, value_name = "YYYY-MM-DD", num_args = 0..=1, default_missing_value = "today", conflicts_with = "seed")]
    pub daily: Option<String>,
}

/// `skid records`' words.
#[derive(clap::Args, Debug)]
pub struct Records {
    /// Only this track's (a bundled track's name or a track file).
    #[arg(long, value_name = "T")]
    pub track: Option<String>,
    /// Only the Track of the Day's: today's (UTC), or the day given.
    #[arg(long, value_name = "YYYY-MM-DD", num_args = 0..=1, default_missing_value = "today", conflicts_with = "track")]
    pub daily: Option<String>,
    /// Where records are kept (default: the user's data directory).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<String>,
    /// A server's laps' database instead (`postgres://...`, or its
    /// SQLite file): every board, its best laps.
    #[cfg(feature = "serve")]
    #[arg(long, value_name = "URL", conflicts_with = "data_dir")]
    pub database: Option<String>,
}

/// A server's players' tracks, for its operator (`skid tracks
/// --database URL`).
#[cfg(feature = "serve")]
#[derive(Debug, clap::Args)]
pub struct PlayersTracks {
    /// A server's database (`postgres://...`, or its SQLite file): list
    /// the tracks its players keep, with their makers' keys.
    #[arg(long, value_name = "URL", conflicts_with_all = ["model", "car", "data_dir"])]
    pub database: Option<String>,
    /// Take this published track (by name) out of every lobby; its maker
    /// keeps it. With --key.
    #[arg(long, value_name = "NAME", requires_all = ["database", "key"], conflicts_with = "remove")]
    pub unpublish: Option<String>,
    /// Remove this track (by name) from the database. With --key.
    #[arg(long, value_name = "NAME", requires_all = ["database", "key"])]
    pub remove: Option<String>,
    /// Whose track: its maker's key fingerprint (`SHA256:...`), as the
    /// list shows it.
    #[arg(long, value_name = "FINGERPRINT", requires = "database")]
    pub key: Option<String>,
}

/// `WxH` as a terminal size.
fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or("expected WxH, for example 80x24")?;
    let n = |v: &str| {
        v.trim()
            .parse::<u16>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
    };
    match (n(w), n(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err("expected WxH with each side 1 to 1000, for example 80x24".into()),
    }
}

/// What every driving command takes: track, model and car.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RaceArgs {
    /// A bundled track's name or a track file (or `daily`, the Track of
    /// the Day, `daily:YYYY-MM-DD` a past day's).
    #[arg(long, value_name = "T", default_value = bundled::DEFAULT)]
    pub track: String,
    /// The Track of the Day: today's (UTC), or the day given.
    #[arg(long, value_name = "YYYY-MM-DD", num_args = 0..=1, default_missing_value = "today", conflicts_with = "track")]
    pub daily: Option<String>,
    /// The physics model: arcade, dynamic, strafe, kinematic or tire
    /// (default: the car's own, or arcade).
    #[arg(long, value_name = "M")]
    pub model: Option<ModelKind>,
    /// A car preset's name or a car file (default: the model's preset).
    #[arg(long, value_name = "C")]
    pub car: Option<String>,
}

/// `skid serve`'s options (docs/SERVE.md, "Command line").
#[cfg(feature = "serve")]
#[derive(clap::Args, Debug)]
pub struct Serve {
    /// Address and port to listen on (port 0: any free one); a public
    /// server says 0.0.0.0:2222 on purpose.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:2222")]
    pub listen: std::net::SocketAddr,
    /// Where the host key is kept (default: the user's data directory's
    /// `serve` folder).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<String>,
    /// Players connected at once, at the most.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub max_players: u32,
    /// Connections from one address (an IPv6 /64) at once: more for
    /// players behind one NAT (a LAN party, a campus).
    #[arg(long, value_name = "N", default_value_t = crate::serve::PER_ADDRESS as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub per_address: u32,
    /// Seconds without a key before a player is disconnected.
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(5..=86_400))]
    pub idle_timeout: u64,
    /// A track the lobby offers (a bundled track's name, a file, `daily`:
    /// today's Track of the Day, first and turned at 00:00 UTC, or
    /// `daily:YYYY-MM-DD`: that day's); again for more. Default: today's,
    /// then every bundled track.
    #[arg(long = "track", value_name = "T")]
    pub tracks: Vec<String>,
    /// The laps' database: `postgres://USER:PASSWORD@HOST/DB` for one that
    /// several servers share (default: SQLite, `skid.db` in the data
    /// directory).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// Behind a load balancer (haproxy `send-proxy-v2`): every connection
    /// begins with a PROXY protocol header, whose address is the player's
    /// (for --per-address and the log); one without is closed.
    #[arg(long)]
    pub proxy_protocol: bool,
    /// With --database: where the other servers sharing it relay their
    /// players to this one's rooms (an address they reach, such as
    /// 10.0.0.11:2223; the servers must share one host key).
    #[arg(long, value_name = "ADDR:PORT")]
    pub peer: Option<std::net::SocketAddr>,
}
