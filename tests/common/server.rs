//! `skid serve` as a process of its own, for the tests and benchmarks
//! that run the binary: started on a free port of 127.0.0.1, its address
//! read from the first line of its log, killed when dropped.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, ChildStderr, Command, Stdio};

/// A server process, killed (and waited for) when dropped.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Server {
    /// Sends `signal` and waits up to `secs` for the server to exit: its
    /// exit status, or none if it still runs.
    pub fn stop(&mut self, signal: i32, secs: f64) -> Option<std::process::ExitStatus> {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.0.id() as i32, signal) };
        let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
        while std::time::Instant::now() < end {
            if let Some(status) = self.0.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }
}

/// `bin serve --listen 127.0.0.1:0` and `args`: the process and its log.
pub fn spawn<S: AsRef<OsStr>>(bin: &str, args: &[S]) -> (Server, BufReader<ChildStderr>) {
    let mut child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skid serve starts");
    let err = BufReader::new(child.stderr.take().unwrap());
    (Server(child), err)
}

/// [`spawn`], then the address its first log line names; the rest of
/// the log is read and dropped, so the server never blocks on a full
/// pipe.
pub fn serve<S: AsRef<OsStr>>(bin: &str, args: &[S]) -> (Server, SocketAddr) {
    let (server, mut err) = spawn(bin, args);
    let addr = address(&mut err);
    std::thread::spawn(move || for _ in err.lines() {});
    (server, addr)
}

/// `bin serve` ([`serve`]) keeping its laps in `database`, its data in
/// `dir`, offering `tracks`.
pub fn sharing(
    bin: &str,
    dir: &std::path::Path,
    database: &str,
    tracks: &[&str],
) -> (Server, SocketAddr) {
    let dir = dir.to_str().expect("a data directory named in UTF-8");
    let mut args = vec!["--database", database, "--data-dir", dir];
    for track in tracks {
        args.extend(["--track", track]);
    }
    serve(bin, &args)
}

/// [`spawn`], then the address its first log line names, and the rest
/// of its log as it comes.
pub fn logged<S: AsRef<OsStr>>(bin: &str, args: &[S]) -> (Server, SocketAddr, Log) {
    let (server, mut err) = spawn(bin, args);
    let addr = address(&mut err);
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let log = Log {
        lines,
        seen: Vec::new(),
    };
    (server, addr, log)
}

/// The address in a server's first log line.
fn address(err: &mut BufReader<ChildStderr>) -> SocketAddr {
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.contains("host key SHA256:"), "{first}");
    let port: u16 = first
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// A server's log after its first line, as it comes.
pub struct Log {
    lines: std::sync::mpsc::Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Log {
    /// Reads the lines that come until none has for `gap`.
    pub fn read_for(&mut self, gap: std::time::Duration) {
        while let Ok(line) = self.lines.recv_timeout(gap) {
            self.seen.push(line);
        }
    }

    /// Reads lines until the lines seen satisfy `done`; fails the test,
    /// showing them, if they do not within `secs`.
    pub fn wait_until(&mut self, done: impl Fn(&[String]) -> bool, secs: f64) {
        let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
        while !done(&self.seen) {
            assert!(std::time::Instant::now() < end, "{:#?}", self.seen);
            let wait = std::time::Duration::from_millis(100);
            if let Ok(line) = self.lines.recv_timeout(wait) {
                self.seen.push(line);
            }
        }
    }
}
