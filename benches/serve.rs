//! Load on `skid serve` (docs/SERVE.md, "Capacity and bandwidth"): the release
//! binary as the server, N headless SSH clients (russh, a pty of 80x24)
//! in rooms on `oval`, every one holding the throttle as a terminal
//! without releases does and tapping the steering, for a while, the
//! rooms setting off one after another over two seconds; and
//! optionally watchers at 500x200 who join the first room's race and
//! send nothing. Reports per racer the interval between frames (p50,
//! p99) and the bytes a second, the server's CPU and peak memory (and
//! the clients' own CPU: they share the machine with it), and its memory
//! after the watchers left.
//!
//! `cargo bench --bench serve`; the load: `SKID_LOAD_PLAYERS` (64),
//! `SKID_LOAD_ROOM` (players a room, 8; 1 for one a room),
//! `SKID_LOAD_WATCHERS` (0), `SKID_LOAD_SECS` (30); `SKID_LOAD_SERVER`
//! runs another build of skid as the server (to compare before and after
//! in one run); `SKID_LOAD_CPUS` (a list, `0` or `0,1`) pins the server
//! to those CPUs and the clients to the others, as `taskset` would (on a
//! machine of two cores, the server's share of one core alone, without
//! its clients'; Linux only). Clients connect from 127.0.0.2, 127.0.0.3, ... four to
//! an address, as the server allows.
//!
//! `SKID_LOAD_CONNECT=HOST:PORT` loads a server already running on
//! another machine instead, so that the clients do not share its cores
//! (docs/BENCHMARKS.md, "The server under load"): a fresh one, started there
//! as `skid serve --listen 0.0.0.0:PORT --track oval --max-players N
//! --per-address N` (every client comes from this machine's address);
//! its CPU and memory are read there.
#![cfg(feature = "serve")]

#[path = "../tests/common/server.rs"]
mod server;
#[path = "../tests/common/ssh.rs"]
mod ssh;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::ChannelId;
use russh::client;

/// What one client saw: when each frame ended, the bytes, and (until the
/// race, so that measuring costs the clients little) the screen.
struct Seen {
    frames: Vec<Instant>,
    bytes: usize,
    screen: Option<vt100::Parser>,
    /// Whether frames and bytes are counted (not after the client's
    /// time driving).
    counting: bool,
}

impl Seen {
    /// Counting starts again from now, and the screen is no longer kept.
    fn forget(&mut self) {
        self.frames.clear();
        self.bytes = 0;
        self.screen = None;
    }
}

/// A bench client's side of its connection: what the server sends is
/// counted as the session reads it (no channel or task between: the
/// clients share the server's cores, and what they spend is not the
/// server's to show).
struct Counting {
    seen: Arc<Mutex<Seen>>,
}

impl client::Handler for Counting {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut client::Session,
    ) -> Result<(), Self::Error> {
        let now = Instant::now();
        let mut s = self.seen.lock().unwrap();
        if !s.counting {
            return Ok(());
        }
        s.bytes += data.len();
        let ends = data.windows(8).filter(|w| w == b"\x1b[?2026l").count();
        s.frames.extend(std::iter::repeat_n(now, ends));
        if let Some(p) = &mut s.screen {
            p.process(data);
        }
        Ok(())
    }
}

struct Client {
    handle: client::Handle<Counting>,
    channel: ChannelId,
    seen: Arc<Mutex<Seen>>,
}

impl Client {
    /// Sends `b` as one packet, as a terminal sends a key.
    async fn send(&self, b: &'static [u8]) {
        let _ = self.handle.data(self.channel, b).await;
    }

    async fn wait_for(&self, what: &str) {
        let end = Instant::now() + Duration::from_secs(20);
        while !(self.seen.lock().unwrap().screen.as_ref())
            .is_some_and(|p| p.screen().contents().contains(what))
        {
            assert!(Instant::now() < end, "waited for {what:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn connect(server: SocketAddr, from: Option<IpAddr>, user: &str, size: (u32, u32)) -> Client {
    let socket = if server.is_ipv4() {
        tokio::net::TcpSocket::new_v4()
    } else {
        tokio::net::TcpSocket::new_v6()
    }
    .unwrap();
    if let Some(from) = from {
        socket.bind(SocketAddr::new(from, 0)).unwrap();
    }
    let stream = socket.connect(server).await.unwrap();
    let config = Arc::new(client::Config::default());
    let seen = Arc::new(Mutex::new(Seen {
        frames: Vec::new(),
        bytes: 0,
        counting: true,
        screen: Some(vt100::Parser::new(
            ssh::nz(size.1 as u16),
            ssh::nz(size.0 as u16),
            0,
        )),
    }));
    let counting = Counting { seen: seen.clone() };
    // Read through a buffer, as the server reads: a frame is one read.
    let stream = tokio::io::BufReader::with_capacity(4096, stream);
    let mut h = client::connect_stream(config, stream, counting)
        .await
        .unwrap();
    let ok = h
        .authenticate_keyboard_interactive_start(user, None)
        .await
        .unwrap();
    assert!(matches!(
        ok,
        client::KeyboardInteractiveAuthResponse::Success
    ));
    let ch = h.channel_open_session().await.unwrap();
    ch.request_pty(true, "xterm", size.0, size.1, 0, 0, &[])
        .await
        .unwrap();
    ch.request_shell(true).await.unwrap();
    // The channel itself is not read (the handler counts the data) or
    // written (keys go through the handle): dropped, so russh's copy of
    // each packet fails at once.
    let channel = ch.id();
    drop(ch);
    Client {
        handle: h,
        channel,
        seen,
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The process's CPU seconds (user + system), peak and current resident
/// memory (KB).
fn usage(pid: u32) -> (f64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of stat, counted from the state (field 3) here.
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        (status.lines())
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (cpu, kb("VmHWM:"), kb("VmRSS:"))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The release binary (or `SKID_LOAD_SERVER`) serving `oval` to
/// `players` on a free port, its data in `dir`; and the address it
/// listens on.
fn start_server(players: usize, dir: &std::path::Path) -> (server::Server, SocketAddr) {
    let bin = std::env::var("SKID_LOAD_SERVER").unwrap_or(env!("CARGO_BIN_EXE_skid").into());
    let max = (players + 8).to_string();
    let args = [
        "--track".as_ref(),
        "oval".as_ref(),
        "--max-players".as_ref(),
        max.as_ref(),
    ];
    let args: Vec<&std::ffi::OsStr> = args
        .into_iter()
        .chain(["--data-dir".as_ref(), dir.as_os_str()])
        .collect();
    server::serve(&bin, &args)
}

/// Rooms of `size`, made one after another so that room g is the
/// lobby's row g + 1; then each room's host starts its race.
async fn fill_rooms(clients: &[Client], size: usize) {
    for (g, room) in clients.chunks(size).enumerate() {
        room[0].wait_for("Make a room").await;
        room[0].send(b"\r").await;
        room[0].wait_for(&format!("room {}", g + 1)).await;
        for c in &room[1..] {
            c.wait_for("Make a room").await;
            for _ in 0..=g {
                c.send(b"\x1b[B").await;
            }
            c.wait_for(&format!("› room {}", g + 1)).await;
            c.send(b"\r").await;
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    for room in clients.chunks(size) {
        room[0].send(b"\r").await;
    }
}

/// Over how long the rooms' drivers set off, one room after another: on
/// a real server rooms start at their own moments, and no two drivers
/// steer in step. Set off together (as they were until 2026-11-27),
/// every identical driver's camera moved in the same turns, and those
/// turns were the p99.
const STAGGER: Duration = Duration::from_secs(2);

/// Every client drives for `secs`, room by room from `t0` over
/// [`STAGGER`]: the throttle held by autorepeat, a steering tap every two
/// seconds (which ends the throttle's repeat, as a terminal's newest key
/// does), then throttle again. What a client saw counts from when its
/// room set off. One task drives a room (its drivers press alike, each
/// from their own connection).
async fn drive(clients: &Arc<Vec<Client>>, room: usize, t0: Instant, secs: u64) {
    let rooms = clients.len().div_ceil(room).max(1);
    let mut drivers = Vec::new();
    for g in 0..rooms {
        let clients = clients.clone();
        let start = t0 + STAGGER * g as u32 / rooms as u32;
        drivers.push(tokio::spawn(async move {
            let members = &clients[g * room..((g + 1) * room).min(clients.len())];
            tokio::time::sleep_until(start.into()).await;
            for c in members {
                c.seen.lock().unwrap().forget();
            }
            let end = start + Duration::from_secs(secs);
            let mut n = 0u64;
            while Instant::now() < end {
                let key: &'static [u8] = match n % 60 {
                    0 => b"d",
                    30 => b"a",
                    _ => b"w",
                };
                for c in members {
                    c.send(key).await;
                }
                n += 1;
                tokio::time::sleep(Duration::from_millis(33)).await;
            }
            for c in members {
                c.seen.lock().unwrap().counting = false;
            }
        }));
    }
    for d in drivers {
        let _ = d.await;
    }
}

/// Prints what the clients saw over `elapsed` seconds each and what the
/// server spent (`server`: a share of one core and KB at peak; none for
/// a server elsewhere, measured there), and the clients' CPU (`ours`: on
/// the same machine, not the server's).
fn report(clients: &[Client], room: usize, elapsed: f64, server: Option<(f64, u64)>, ours: f64) {
    let players = clients.len();
    let mut p50s = Vec::new();
    let mut p99s = Vec::new();
    let mut rates = Vec::new();
    for c in clients {
        let seen = c.seen.lock().unwrap();
        let mut gaps: Vec<f64> = (seen.frames.windows(2))
            .map(|w| (w[1] - w[0]).as_secs_f64() * 1000.0)
            .collect();
        gaps.sort_by(f64::total_cmp);
        p50s.push(percentile(&gaps, 0.5));
        p99s.push(percentile(&gaps, 0.99));
        rates.push(seen.bytes as f64 / elapsed);
    }
    for v in [&mut p50s, &mut p99s, &mut rates] {
        v.sort_by(f64::total_cmp);
    }
    let frames: usize = clients
        .iter()
        .map(|c| c.seen.lock().unwrap().frames.len())
        .sum();
    println!(
        "serve load: {players} players, {} rooms, {elapsed:.1} s driving",
        players.div_ceil(room)
    );
    println!(
        "  frame interval p50: median {:.1} ms, worst {:.1} ms; p99: median {:.1} ms, worst {:.1} ms",
        percentile(&p50s, 0.5),
        p50s.last().unwrap_or(&f64::NAN),
        percentile(&p99s, 0.5),
        p99s.last().unwrap_or(&f64::NAN)
    );
    println!(
        "  frames a second a player: {:.1}",
        frames as f64 / elapsed / players as f64
    );
    println!(
        "  bytes a second a player: median {:.0}, worst {:.0}",
        percentile(&rates, 0.5),
        rates.last().unwrap_or(&f64::NAN)
    );
    match server {
        Some((cpu, hwm)) => println!(
            "  server: CPU {:.0}% of one core, peak memory {:.0} MB (the clients: {:.0}%)",
            100.0 * cpu,
            hwm as f64 / 1024.0,
            100.0 * ours
        ),
        None => println!(
            "  server: elsewhere, measured there (the clients: {:.0}%)",
            100.0 * ours
        ),
    }
}

/// Watchers at 500x200, sending nothing, who join room 1 (its race
/// running) from addresses of their own.
async fn watchers(addr: SocketAddr, n: usize, local: bool) -> Vec<Client> {
    let mut out = Vec::new();
    for i in 0..n {
        let from = IpAddr::V4(Ipv4Addr::new(127, 1, (i / 4) as u8, 2 + (i % 4) as u8));
        let from = local.then_some(from);
        let c = connect(addr, from, &format!("w{i}"), (500, 200)).await;
        c.wait_for("Make a room").await;
        c.send(b"\x1b[B").await;
        c.wait_for("› room 1").await;
        c.send(b"\r").await;
        out.push(c);
    }
    out
}

/// Pins the calling thread, and the processes and threads it starts from
/// now on, to `cpus` (none: every one of `all`).
fn pin(cpus: &[usize], all: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: a zeroed cpu_set_t is an empty set, CPU_SET writes within
    // it, and sched_setaffinity only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        if cpus.is_empty() {
            (0..all).for_each(|c| libc::CPU_SET(c, &mut set));
        }
        let size = std::mem::size_of::<libc::cpu_set_t>();
        assert_eq!(
            libc::sched_setaffinity(0, size, &raw const set),
            0,
            "CPUs {cpus:?}"
        );
    }
    #[cfg(not(target_os = "linux"))]
    panic!("SKID_LOAD_CPUS pins CPUs on Linux only ({cpus:?} of {all})");
}

/// `SKID_LOAD_CPUS`: the server's CPUs, if it is to be pinned.
fn server_cpus() -> Option<Vec<usize>> {
    let list = std::env::var("SKID_LOAD_CPUS").ok()?;
    let cpus = (list.split(','))
        .map(|c| c.trim().parse().ok())
        .collect::<Option<Vec<usize>>>();
    Some(cpus.unwrap_or_else(|| panic!("SKID_LOAD_CPUS={list:?}: a list of CPU numbers")))
}

/// The server to load: `SKID_LOAD_CONNECT` (`HOST:PORT`), one already
/// running elsewhere (none returned: it is not this machine's to
/// measure); else the release binary started here for `players`, its
/// data in `dir`, on `SKID_LOAD_CPUS` if given (the clients' threads
/// then made on the other CPUs).
fn target(players: usize, dir: &std::path::Path) -> (Option<server::Server>, SocketAddr) {
    if let Ok(at) = std::env::var("SKID_LOAD_CONNECT") {
        use std::net::ToSocketAddrs;
        let addr = (at.to_socket_addrs().ok().and_then(|mut a| a.next()))
            .unwrap_or_else(|| panic!("SKID_LOAD_CONNECT={at:?}: HOST:PORT"));
        return (None, addr);
    }
    let pinned = server_cpus();
    let all = std::thread::available_parallelism().map_or(1, usize::from);
    if let Some(cpus) = &pinned {
        pin(cpus, all);
    }
    let (server, addr) = start_server(players, dir);
    if let Some(cpus) = &pinned {
        let others: Vec<usize> = (0..all).filter(|c| !cpus.contains(c)).collect();
        pin(&others, all);
    }
    (Some(server), addr)
}

fn main() {
    // `cargo bench` passes --bench; nothing else is read from the line.
    let players = env("SKID_LOAD_PLAYERS", 64) as usize;
    let room = (env("SKID_LOAD_ROOM", 8) as usize).clamp(1, 8);
    let watching = env("SKID_LOAD_WATCHERS", 0) as usize;
    let secs = env("SKID_LOAD_SECS", 30);
    let dir = std::env::temp_dir().join(format!("skid-load-{}", std::process::id()));
    let (server, addr) = target(players + watching, &dir);
    // Clients from addresses of their own on this machine; from this
    // machine's own address to a server elsewhere.
    let local = server.is_some();
    let pid = server.as_ref().map(|s| s.0.id());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let mut clients = Vec::new();
        for i in 0..players {
            let from = IpAddr::V4(Ipv4Addr::new(
                127,
                0,
                (i / 4 / 250) as u8,
                2 + (i / 4 % 250) as u8,
            ));
            let from = local.then_some(from);
            clients.push(connect(addr, from, &format!("p{i}"), (80, 24)).await);
        }
        fill_rooms(&clients, room).await;
        // The countdown, then the watchers, then driving.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let watchers = watchers(addr, watching, local).await;
        let clients = Arc::new(clients);
        let t0 = Instant::now();
        for c in &watchers {
            c.seen.lock().unwrap().forget();
        }
        // On stderr, for whoever profiles the server while it races.
        eprintln!("serve load: driving for {secs} s from now");
        let driving = {
            let clients = clients.clone();
            tokio::spawn(async move { drive(&clients, room, t0, secs).await })
        };
        // The server's CPU while every room drives.
        let all = (
            t0 + STAGGER.min(Duration::from_secs(secs) / 2),
            t0 + Duration::from_secs(secs),
        );
        tokio::time::sleep_until(all.0.into()).await;
        let (cpu0, _, _) = pid.map_or((0.0, 0, 0), usage);
        let (ours0, _, _) = usage(std::process::id());
        tokio::time::sleep_until(all.1.into()).await;
        let (cpu1, _, _) = pid.map_or((0.0, 0, 0), usage);
        let (ours1, _, _) = usage(std::process::id());
        let _ = driving.await;
        let (_, hwm, _) = pid.map_or((0.0, 0, 0), usage);
        let span = (all.1 - all.0).as_secs_f64();
        let elapsed = t0.elapsed().as_secs_f64();
        let server = pid.map(|_| ((cpu1 - cpu0) / span, hwm));
        report(&clients, room, secs as f64, server, (ours1 - ours0) / span);
        if watching > 0 {
            let seen: usize = (watchers.iter())
                .map(|w| w.seen.lock().unwrap().frames.len())
                .sum();
            println!(
                "  {watching} watchers at 500x200: {:.1} frames a second each",
                seen as f64 / (watching as f64 * elapsed)
            );
            drop(watchers);
            tokio::time::sleep(Duration::from_secs(3)).await;
            if let Some(pid) = pid {
                let (_, _, rss) = usage(pid);
                println!(
                    "  server memory 3 s after the watchers left: {:.0} MB",
                    rss as f64 / 1024.0
                );
            }
        }
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
