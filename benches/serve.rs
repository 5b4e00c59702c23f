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

#[path = "load/mod.rs"]
mod load;
#[path = "../tests/common/server.rs"]
mod server;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use load::{Client, STAGGER, connect, drive, env, report, usage};

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

/// What the `watchers` saw over `elapsed` seconds, and the server's
/// memory (process `pid`, if here) 3 s after they left.
async fn watched(watchers: Vec<Client>, elapsed: f64, pid: Option<u32>) {
    let watching = watchers.len();
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
        let all: Vec<&Client> = clients.iter().collect();
        report(
            "serve load",
            &all,
            room,
            secs as f64,
            server,
            (ours1 - ours0) / span,
        );
        if watching > 0 {
            watched(watchers, elapsed, pid).await;
        }
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
