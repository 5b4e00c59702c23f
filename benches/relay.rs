//! Players relayed to rooms on another server (docs/SERVE.md, "One lobby
//! across servers"): two `skid serve` processes (the release binary) on
//! one PostgreSQL, sharing a host key, each with a door for relays. Each
//! room is made on server A by a client there; the other members connect
//! to server B and join it through B's relay. Everyone drives as in the
//! `serve` bench. Reports what the relayed clients saw (the interval
//! between frames, frames and bytes a second) beside what A's own saw,
//! and the CPU of each server: B only relays, so its CPU over the
//! players relayed is the relay's cost per player.
//!
//! `cargo bench --bench relay`; `SKID_LOAD_PLAYERS` (32 in all),
//! `SKID_LOAD_ROOM` (8: one on A, seven relayed from B), `SKID_LOAD_SECS`
//! (20). The database: `SKID_TEST_POSTGRES`, or the one `.ci/postgres.sh`
//! starts.
#![cfg(feature = "serve")]

#[path = "load/mod.rs"]
mod load;
#[path = "../tests/common/postgres.rs"]
mod postgres_db;
#[path = "../tests/common/server.rs"]
mod server;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use load::{Client, STAGGER, connect, drive, env, report, usage};

/// A server for `players` on `db`, its data in `dir`, offering `oval`.
fn start(dir: &std::path::Path, db: &str, players: usize) -> (server::Server, SocketAddr) {
    let max = (players + 8).to_string();
    let args = [
        "--track",
        "oval",
        "--max-players",
        &max,
        "--per-address",
        &max,
        "--database",
        db,
        "--peer",
        "127.0.0.1:0",
        "--data-dir",
        dir.to_str().unwrap(),
    ];
    server::serve(env!("CARGO_BIN_EXE_skid"), &args)
}

/// Client `i`'s address: four to an address, as a server allows.
fn from(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        0,
        (i / 4 / 250) as u8,
        2 + (i / 4 % 250) as u8,
    ))
}

fn main() {
    let players = env("SKID_LOAD_PLAYERS", 32) as usize;
    let room = (env("SKID_LOAD_ROOM", 8) as usize).clamp(2, 8);
    let secs = env("SKID_LOAD_SECS", 20);
    let db = postgres_db::database("relay_bench").expect("a PostgreSQL server");
    let dirs = ["a", "b"].map(|s| {
        let d = std::env::temp_dir().join(format!("skid-relay-{s}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    });
    let (a, a_at) = start(&dirs[0], &db.url, players);
    std::fs::copy(dirs[0].join("host_ed25519"), dirs[1].join("host_ed25519")).unwrap();
    let (b, b_at) = start(&dirs[1], &db.url, players);
    let pids = [a.0.id(), b.0.id()];
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        // Room g's host on A, its other members on B, in order.
        let mut clients = Vec::new();
        for i in 0..players {
            let host = i % room == 0;
            let at = if host { a_at } else { b_at };
            clients.push(connect(at, Some(from(i)), &format!("p{i}"), (80, 24)).await);
        }
        fill_rooms(&clients, room).await;
        tokio::time::sleep(Duration::from_secs(3)).await;
        let clients = Arc::new(clients);
        let t0 = Instant::now();
        let driving = {
            let clients = clients.clone();
            tokio::spawn(async move { drive(&clients, room, t0, secs).await })
        };
        let span = (
            t0 + STAGGER.min(Duration::from_secs(secs) / 2),
            t0 + Duration::from_secs(secs),
        );
        tokio::time::sleep_until(span.0.into()).await;
        let before = pids.map(usage);
        let ours0 = usage(std::process::id()).0;
        tokio::time::sleep_until(span.1.into()).await;
        let after = pids.map(usage);
        let ours = (usage(std::process::id()).0 - ours0) / (span.1 - span.0).as_secs_f64();
        let _ = driving.await;
        let cpu = |s: usize| (after[s].0 - before[s].0) / (span.1 - span.0).as_secs_f64();
        let on_a = |want: bool| -> Vec<&Client> {
            (clients.iter().enumerate())
                .filter(|(i, _)| (i % room == 0) == want)
                .map(|(_, c)| c)
                .collect()
        };
        let (hosts, relayed) = (on_a(true), on_a(false));
        report(
            "relayed (on B, racing on A)",
            &relayed,
            room - 1,
            secs as f64,
            Some((cpu(1), after[1].1)),
            ours,
        );
        report(
            "on A itself",
            &hosts,
            1,
            secs as f64,
            Some((cpu(0), after[0].1)),
            ours,
        );
        println!(
            "  relay cost: {:.2}% of one core a relayed player (B's CPU over {} players)",
            100.0 * cpu(1) / relayed.len() as f64,
            relayed.len()
        );
    });
    drop((a, b));
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Room g made on A by client `g * room`; its other members, on B, join
/// it through the relay (B's lobby lists it at row g + 1, A's rooms in
/// the order they were made); then each host starts.
async fn fill_rooms(clients: &[Client], room: usize) {
    for (g, members) in clients.chunks(room).enumerate() {
        members[0].wait_for("Make a room").await;
        members[0].send(b"\r").await;
        members[0].wait_for(&format!("room {}", g + 1)).await;
        for c in &members[1..] {
            c.wait_for(&format!("room {}", g + 1)).await;
            for _ in 0..=g {
                c.send(b"\x1b[B").await;
            }
            c.wait_for(&format!("› room {}", g + 1)).await;
            c.send(b"\r").await;
            c.wait_for("waiting for the host").await;
        }
    }
    for members in clients.chunks(room) {
        members[0].send(b"\r").await;
    }
}
