//! The load benches' SSH clients (`serve`, `relay`): headless russh
//! clients with a pty that count the frames they get (each ends with the
//! synchronized-output end, `CSI ? 2026 l`) and their bytes, as the
//! session reads them; and the readings of a process's CPU and memory.
#![allow(dead_code)]

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::ChannelId;
use russh::client;

#[path = "../../tests/common/ssh.rs"]
mod ssh;

/// What one client saw: when each frame ended, the bytes, and (until the
/// race, so that measuring costs the clients little) the screen.
pub struct Seen {
    pub frames: Vec<Instant>,
    pub bytes: usize,
    pub screen: Option<vt100::Parser>,
    /// The last bytes of the data before, where a frame's end may begin
    /// (a relay passes frames on in pieces of its own).
    tail: Vec<u8>,
    /// Whether frames and bytes are counted (not after the client's
    /// time driving).
    pub counting: bool,
}

impl Seen {
    /// Counting starts again from now, and the screen is no longer kept.
    pub fn forget(&mut self) {
        self.frames.clear();
        self.bytes = 0;
        self.screen = None;
    }
}

/// A bench client's side of its connection: what the server sends is
/// counted as the session reads it (no channel or task between: the
/// clients share the server's cores, and what they spend is not the
/// server's to show).
pub struct Counting {
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
        let mut seen = std::mem::take(&mut s.tail);
        seen.extend_from_slice(data);
        let ends = seen.windows(8).filter(|w| w == b"\x1b[?2026l").count();
        s.frames.extend(std::iter::repeat_n(now, ends));
        s.tail = seen[seen.len().saturating_sub(7)..].to_vec();
        if let Some(p) = &mut s.screen {
            p.process(data);
        }
        Ok(())
    }
}

pub struct Client {
    pub handle: client::Handle<Counting>,
    pub channel: ChannelId,
    pub seen: Arc<Mutex<Seen>>,
}

impl Client {
    /// Sends `b` as one packet, as a terminal sends a key.
    pub async fn send(&self, b: &'static [u8]) {
        let _ = self.handle.data(self.channel, b).await;
    }

    pub async fn wait_for(&self, what: &str) {
        let end = Instant::now() + Duration::from_secs(20);
        while !(self.seen.lock().unwrap().screen.as_ref())
            .is_some_and(|p| p.screen().contents().contains(what))
        {
            assert!(Instant::now() < end, "waited for {what:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

pub async fn connect(
    server: SocketAddr,
    from: Option<IpAddr>,
    user: &str,
    size: (u32, u32),
) -> Client {
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
        tail: Vec::new(),
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

pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The process's CPU seconds (user + system), peak and current resident
/// memory (KB).
pub fn usage(pid: u32) -> (f64, u64, u64) {
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

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Over how long the rooms' drivers set off, one room after another: on
/// a real server rooms start at their own moments, and no two drivers
/// steer in step. Set off together (as they were until 2026-11-27),
/// every identical driver's camera moved in the same turns, and those
/// turns were the p99.
pub const STAGGER: Duration = Duration::from_secs(2);

/// Every client drives for `secs`, room by room from `t0` over
/// [`STAGGER`]: the throttle held by autorepeat, a steering tap every two
/// seconds (which ends the throttle's repeat, as a terminal's newest key
/// does), then throttle again. What a client saw counts from when its
/// room set off. One task drives a room (its drivers press alike, each
/// from their own connection).
pub async fn drive(clients: &Arc<Vec<Client>>, room: usize, t0: Instant, secs: u64) {
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

/// Prints under `title` what the clients saw over `elapsed` seconds each and what the
/// server spent (`server`: a share of one core and KB at peak; none for
/// a server elsewhere, measured there), and the clients' CPU (`ours`: on
/// the same machine, not the server's).
pub fn report(
    title: &str,
    clients: &[&Client],
    room: usize,
    elapsed: f64,
    server: Option<(f64, u64)>,
    ours: f64,
) {
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
        "{title}: {players} players, {} rooms, {elapsed:.1} s driving",
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
