//! `skid serve` in this process: a server on 127.0.0.1:0 offering
//! `pocket` and `oval`, its data in a fresh directory.
#![allow(dead_code)] // each user takes what it needs

use std::path::PathBuf;
use std::time::Duration;

use skid::race::TrackChoice;
use skid::serve::{self, Options, Server};
use skid::track::bundled;

/// A fresh directory `name` for a server's data.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The server's options: every limit at its default but 64 players.
pub fn options(dir: PathBuf) -> Options {
    Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir,
        database: None,
        max_players: 64,
        per_address: skid::serve::PER_ADDRESS,
        idle: Duration::from_mins(5),
        login: Duration::from_secs(30),
        tracks: ["pocket", "oval"]
            .iter()
            .map(|n| TrackChoice {
                name: (*n).to_string(),
                track: bundled::load_raceable(n).unwrap(),
            })
            .collect(),
        daily: None,
        proxy_protocol: false,
        hz: 120,
        fps: 30,
        keys_at_once: true,
        peer: None,
    }
}

/// A server started with [`options`] in [`temp_dir`] `name`.
pub async fn server(name: &str) -> Server {
    serve::start(options(temp_dir(name)))
        .await
        .expect("server starts")
}

/// Whether the server closes the connection `s` within `secs` (whatever
/// it sends first is read and dropped).
pub async fn closed_within(s: &mut tokio::net::TcpStream, secs: f64) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 4096];
    let until_closed = async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs_f64(secs), until_closed)
        .await
        .is_ok()
}
