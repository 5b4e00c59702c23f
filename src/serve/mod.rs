//! `skid serve`: skid as an SSH server of its own, where people race each
//! other with no install (docs/SERVE.md).
//!
//! Three parts, one way round: the accept loop here (limits on players,
//! on sessions from one address and on the time to log in, enforced
//! before russh sees a connection), one [`ssh::Connection`] per client on
//! tokio (authentication, the pty, bytes to key events, frames out), and
//! the [`hub`]: one synchronous thread with a fixed-step clock that owns
//! every player and room and steps their races, fed by a channel. The
//! simulation never waits on the network.

mod accept;
pub mod admission;
pub mod daily;
pub mod db;
pub mod hub;
pub mod keeper;
pub mod listing;
pub mod messages;
pub mod names;
pub mod offered;
mod proxy;
pub mod relay;
pub mod room;
pub mod rows;
mod screen;
mod ssh;

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use russh::keys::{HashAlg, PrivateKey};
use russh::{MethodKind, MethodSet};
use tokio::net::TcpListener;
use tokio::sync::watch;

pub use crate::input::keyboard::Keyboard;
pub use admission::PER_ADDRESS;
pub use names::display_name;
pub use ssh::{GARBAGE_CAP, INPUT_PER_SECOND, NEEDS_PTY, RESIZES_PER_SECOND};

use crate::base::day::Day;
use crate::race::TrackChoice;
use accept::Doors;
use admission::Admission;
use hub::{Hub, Offered, Settings};

/// Seconds a connection has from connecting to joining the lobby.
pub const AUTH_SECONDS: u64 = 30;

/// How the server runs.
pub struct Options {
    pub listen: SocketAddr,
    /// Where the host key lives (and the laps' SQLite database).
    pub data_dir: PathBuf,
    /// The laps' database shared with other servers (`postgres://...`);
    /// none: SQLite in `data_dir`.
    pub database: Option<String>,
    pub max_players: usize,
    /// Connections from one address (or IPv6 /64) at once.
    pub per_address: usize,
    pub idle: Duration,
    /// How long a connection has from connecting to joining the lobby
    /// (logged in, a pty and a shell: [`AUTH_SECONDS`] on the command
    /// line).
    pub login: Duration,
    /// The tracks the lobby offers (every bundled one by default).
    pub tracks: Vec<TrackChoice>,
    /// Today's track (the Track of the Day) offered first, by this
    /// clock's date and turned at its midnight (`daily`); none: `tracks`
    /// only.
    pub daily: Option<daily::Wall>,
    /// Whether every connection begins with a PROXY protocol header (a
    /// load balancer's), whose address then counts as the client's.
    pub proxy_protocol: bool,
    pub hz: u32,
    pub fps: u32,
    /// Whether a player's key is drawn at once (`hub::Settings`).
    pub keys_at_once: bool,
    /// Where the other servers sharing the database relay their players
    /// to this one's rooms (`--peer`): listened on and published with the
    /// rooms; none: its rooms are listed elsewhere but cannot be joined
    /// from there.
    pub peer: Option<SocketAddr>,
}

/// A running server.
pub struct Server {
    /// The address bound (port 0 asked for any free one).
    pub addr: SocketAddr,
    /// The address bound for other servers' relays, if any.
    pub peer: Option<SocketAddr>,
    /// The host key's SHA256 fingerprint: the same at every start.
    pub fingerprint: String,
    /// What the log says, after its first line, of a database that did
    /// not answer at the start.
    pub database_down: Option<String>,
    stop: watch::Sender<bool>,
    hub: Option<std::thread::JoinHandle<()>>,
    accept: tokio::task::JoinHandle<()>,
    relays: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Tells every player the server is shutting down, gives them their
    /// terminals back and stops.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(relays) = self.relays.take() {
            let _ = relays.await;
        }
        let _ = (&mut self.accept).await;
        if let Some(hub) = self.hub.take() {
            let _ = tokio::task::spawn_blocking(move || hub.join()).await;
        }
        // Let the connections write their last words.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The host key in `dir`: read, or made on the first start (ed25519, mode
/// 0600). A new key is written whole to a file of its own and
/// then linked into place, which fails if a key is there already: two
/// servers starting at once on an empty directory both end up with the
/// one key that was linked first. Every error names the path.
pub fn host_key(dir: &Path) -> io::Result<PrivateKey> {
    let named = |path: &Path, e: &dyn std::fmt::Display| {
        io::Error::other(format!("{}: {e}", path.display()))
    };
    crate::base::files::make_dir(dir).map_err(|e| named(dir, &e))?;
    let path = dir.join("host_ed25519");
    for _ in 0..3 {
        match read_key(&path) {
            Ok(key) => return Ok(key),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let mut seed = [0u8; 32];
        let random = Path::new("/dev/urandom");
        fs::File::open(random)
            .and_then(|mut f| f.read_exact(&mut seed))
            .map_err(|e| named(random, &e))?;
        let pair = russh::keys::ssh_key::private::Ed25519Keypair::from_seed(&seed);
        let key = PrivateKey::from(pair);
        let text = key
            .to_openssh(russh::keys::ssh_key::LineEnding::LF)
            .map_err(|e| named(&path, &e))?;
        // Named by the process and by random bytes (not the key's), so
        // that no two starters, even in one process, write one file.
        let mut tag = [0u8; 8];
        fs::File::open(random)
            .and_then(|mut f| f.read_exact(&mut tag))
            .map_err(|e| named(random, &e))?;
        let tag = u64::from_le_bytes(tag);
        let own = dir.join(format!(".host_ed25519.{}.{tag:016x}", std::process::id()));
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&own)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_all()
            });
        let linked = written.and_then(|()| fs::hard_link(&own, &path));
        let _ = fs::remove_file(&own);
        match linked {
            Ok(()) => return Ok(key),
            // Another server linked its key first: read that one.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(named(&path, &e)),
        }
    }
    Err(named(&path, &"no key could be read or made"))
}

/// The key at `path`: a regular file of OpenSSH text, read without
/// following a link or waiting on a FIFO. A missing file is `NotFound`
/// as it is; any other error names the path.
fn read_key(path: &Path) -> io::Result<PrivateKey> {
    let bad = |e: String| io::Error::other(format!("{}: {e}", path.display()));
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => e,
            _ => bad(e.to_string()),
        })?;
    let meta = f.metadata().map_err(|e| bad(e.to_string()))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".into()));
    }
    if let Some(warning) = key_mode_warning(path, meta.permissions().mode()) {
        eprintln!("skid serve: {warning}");
    }
    let mut text = String::new();
    (&f).take(64 * 1024)
        .read_to_string(&mut text)
        .map_err(|e| bad(e.to_string()))?;
    PrivateKey::from_openssh(&text).map_err(|e| bad(e.to_string()))
}

/// A warning when the host key at `path`, of file mode `mode`, can be
/// read or written by anyone but its owner: whoever reads it can pose as
/// the server.
pub fn key_mode_warning(path: &Path, mode: u32) -> Option<String> {
    (mode & 0o077 != 0).then(|| {
        format!(
            "warning: {} is open to others (mode {:o}): chmod 600 it",
            path.display(),
            mode & 0o777
        )
    })
}

/// russh's settings: the host key, the two ways in (for other servers'
/// relays, a key alone), and timeouts set on purpose.
fn config(key: PrivateKey, relays: bool) -> russh::server::Config {
    let mut methods = MethodSet::empty();
    methods.push(MethodKind::PublicKey);
    if !relays {
        methods.push(MethodKind::KeyboardInteractive);
    }
    russh::server::Config {
        keys: vec![key],
        methods,
        // Nobody is refused for a wrong secret: no need to slow refusals.
        auth_rejection_time: Duration::from_millis(10),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        // A dead link is found by keepalives (15 s, three missed); the
        // idle player is the hub's to disconnect, with a message.
        inactivity_timeout: None,
        keepalive_interval: Some(Duration::from_secs(15)),
        keepalive_max: 3,
        // Frames are small and wanted now.
        nodelay: true,
        // Flow control per channel: a frame is at most some kilobytes.
        window_size: 256 * 1024,
        ..Default::default()
    }
}

/// The players' records kept in `database`, else in `dir`: opened on a
/// thread of its own, as PostgreSQL's client blocks on a runtime of its
/// own, which cannot run inside the server's.
fn open_keeper(database: Option<String>, dir: PathBuf) -> io::Result<keeper::Keeper> {
    std::thread::spawn(move || keeper::Keeper::on(database.as_deref(), &dir))
        .join()
        .map_err(|_| io::Error::other("the records' database failed to open"))?
        .map_err(io::Error::other)
}

/// The tracks a server offers, each with its racing line: `tracks`,
/// after today's and yesterday's by `daily`'s date if that is given
/// (then with the date).
fn offer(tracks: Vec<TrackChoice>, daily: Option<daily::Wall>) -> io::Result<Offers> {
    let today = daily.map(|wall| Day::from_secs(wall()));
    let days = today
        .map(daily::first)
        .transpose()
        .map_err(io::Error::other)?;
    let all = days.into_iter().flatten();
    Ok((
        all.chain(tracks.into_iter().map(Offered::new)).collect(),
        today,
    ))
}

/// The tracks offered, and the day if the first are the days'.
type Offers = (Vec<Offered>, Option<Day>);

/// Starts the server on the current tokio runtime: binds, then accepts
/// until [`Server::shutdown`].
pub async fn start(opts: Options) -> io::Result<Server> {
    if opts.tracks.is_empty() {
        return Err(io::Error::other("no tracks to offer"));
    }
    let key = host_key(&opts.data_dir)?;
    let fingerprint = key.public_key().fingerprint(HashAlg::Sha256).to_string();
    let listener = (TcpListener::bind(opts.listen).await)
        .map_err(|e| io::Error::other(format!("{}: {e}", opts.listen)))?;
    let addr = listener.local_addr()?;
    let peers = match opts.peer {
        Some(at) => Some(
            (TcpListener::bind(at).await)
                .map_err(|e| io::Error::other(format!("--peer {at}: {e}")))?,
        ),
        None => None,
    };
    let peer = peers.as_ref().map(TcpListener::local_addr).transpose()?;
    let (tracks, today) = offer(opts.tracks, opts.daily)?;
    let settings = Settings {
        hz: opts.hz,
        fps: opts.fps,
        idle: opts.idle,
        keys_at_once: opts.keys_at_once,
    };
    let (to_hub, from_conns) = mpsc::channel();
    let mut keeper = open_keeper(opts.database.clone(), opts.data_dir.clone())?;
    let database_down = keeper.down_at_start.take();
    // Sharing a database, this server's rooms are published under its
    // host's name and address, for the others' lobbies.
    let server = (opts.database.is_some()).then(|| listing::Published {
        name: format!("{}/{addr}", host_name()),
        peer: peer.map(|p| p.to_string()),
    });
    // Relays to the other servers' rooms, logged in with the key they
    // share.
    let relays = relay::Relays {
        runtime: tokio::runtime::Handle::current(),
        key: Arc::new(key.clone()),
        hub: to_hub.clone(),
    };
    let public = key.public_key().clone();
    let hub = std::thread::Builder::new()
        .name("skid-hub".into())
        .spawn(move || {
            let mut hub = Hub::new(tracks, settings, keeper, Instant::now());
            if let Some(today) = today {
                hub.offer_today(today);
            }
            hub.relays = server.is_some().then_some(relays);
            hub.listing = listing::Listing::new(server);
            hub::run(&from_conns, hub);
        })?;
    if let Some(wall) = opts.daily {
        daily::spawn(wall, to_hub.clone())?;
    }
    let (stop, stopped) = watch::channel(false);
    let admission = Admission::new(opts.max_players, opts.per_address);
    let doors = Doors::new(
        Arc::new(config(key.clone(), false)),
        to_hub,
        admission.clone(),
        opts.login,
        opts.proxy_protocol,
    );
    let relays = peers.map(|listener| {
        // Every relay comes from a few servers' addresses: counted by
        // the players they carry only, who are the server's players.
        let admission = admission.for_relays();
        let door = doors.for_relays(Arc::new(config(key, true)), admission, public);
        tokio::spawn(accept::accept_loop(listener, door, stopped.clone()))
    });
    let accept = tokio::spawn(accept::accept_loop(listener, doors, stopped));
    Ok(Server {
        addr,
        peer,
        fingerprint,
        database_down,
        stop,
        hub: Some(hub),
        accept,
        relays,
    })
}

/// `skid serve`: runs until a signal that would end the process
/// (`crate::base::signals::ENDING`), then gives every player their terminal
/// back and returns the exit status: 0 for SIGINT and SIGTERM, the ways
/// to stop a server, else 128 + the signal, as a shell reports a process
/// a signal ended (a hang-up, SIGQUIT, SIGUSR1...: the players' terminals
/// come back all the same).
pub fn run(opts: Options) -> io::Result<i32> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = start(opts).await?;
        eprintln!(
            "skid serve: listening on {}, host key {}",
            server.addr, server.fingerprint
        );
        if let Some(peer) = server.peer {
            eprintln!("skid serve: relays from other servers on {peer}");
        }
        if let Some(down) = &server.database_down {
            eprintln!("skid serve: {down}");
        }
        let signal = first_signal()?.await;
        eprintln!("skid serve: shutting down");
        server.shutdown().await;
        Ok(match signal {
            libc::SIGINT | libc::SIGTERM => 0,
            s => 128 + s,
        })
    })
}

/// Waits for the first of the signals that would end the process.
fn first_signal() -> io::Result<impl std::future::Future<Output = i32>> {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, mut rx) = tokio::sync::mpsc::channel(1);
    for number in crate::base::signals::ENDING {
        let mut caught = signal(SignalKind::from_raw(number))?;
        let tx = tx.clone();
        tokio::spawn(async move {
            if caught.recv().await.is_some() {
                let _ = tx.send(number).await;
            }
        });
    }
    Ok(async move { rx.recv().await.unwrap_or(libc::SIGTERM) })
}

/// This machine's host name (`gethostname`), or `skid` where it has none.
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at
    // most that many bytes.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match std::str::from_utf8(&buf[..end]) {
        Ok(name) if ok && !name.is_empty() => name.to_string(),
        _ => "skid".to_string(),
    }
}
