//! Two `skid serve` processes on one database, each taking the other's
//! relays at a `--peer` address of its own with the host key they share,
//! as docs/SERVE.md sets them up. Used by the tests that relay a player from
//! one server into a room on the other.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::server::{self, Log, Server};

/// A fresh, empty directory for the test `name`.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-relay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server on `db` with its data in `dir`, behind a balancer (`proxied`)
/// or not, taking relays on a port of its own.
pub fn serve(dir: &Path, db: &str, proxied: bool) -> (Server, SocketAddr, Log) {
    let mut args = vec![
        "--data-dir",
        dir.to_str().unwrap(),
        "--database",
        db,
        "--track",
        "pocket",
        "--peer",
        "127.0.0.1:0",
    ];
    if proxied {
        args.push("--proxy-protocol");
    }
    server::logged(env!("CARGO_BIN_EXE_skid"), &args)
}

/// Two servers on `db` sharing a host key, with their data in `dirs`.
pub fn two_on(db: &str, dirs: &[PathBuf; 2], proxied: bool) -> [(Server, SocketAddr, Log); 2] {
    let one = serve(&dirs[0], db, proxied);
    // The servers share one host key, as docs/SERVE.md has them.
    std::fs::copy(dirs[0].join("host_ed25519"), dirs[1].join("host_ed25519")).unwrap();
    [one, serve(&dirs[1], db, proxied)]
}
