//! Players on the real OpenSSH client in tmux, for the tests that run
//! the server as a process: a key of their own, the command that logs
//! them in (with it, or as a guest without one), and what they do.
#![allow(dead_code)]

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

#[path = "tmux.rs"]
mod tmux;
pub use tmux::Tmux;

/// A key of `who`'s own in `dir`, and its fingerprint as the server
/// knows its player by (`SHA256:...`).
pub fn key(dir: &std::path::Path, who: &str) -> (std::path::PathBuf, String) {
    let path = dir.join(who);
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", who, "-f"])
        .arg(&path)
        .status();
    assert!(
        made.is_ok_and(|s| s.success()),
        "ssh-keygen (openssh-client, which .ci/run installs) made no key"
    );
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let print = text.split_whitespace().nth(1).expect("a fingerprint");
    (path, print.to_string())
}

/// The OpenSSH client logging in as `who` with the key at `key`.
pub fn ssh(port: u16, who: &str, key: &std::path::Path) -> String {
    format!(
        "ssh -tt -p {port} -i {} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no \
         -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR {who}@127.0.0.1",
        key.display()
    )
}

/// The OpenSSH client logging in as `who` with no key: a guest.
pub fn ssh_guest(port: u16, who: &str) -> String {
    format!(
        "ssh -tt -p {port} -o PubkeyAuthentication=no -o StrictHostKeyChecking=no \
         -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR {who}@127.0.0.1"
    )
}

/// Waits up to `secs` for the screen to show all of `texts`.
pub fn wait_all(t: &Tmux, texts: &[&str], secs: u64) -> String {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        let s = t.screen();
        if texts.iter().all(|x| s.contains(x)) || Instant::now() > end {
            return s;
        }
        sleep(Duration::from_millis(100));
    }
}

/// The race in `t` started: W held as a terminal does (a press, the
/// repeat delay, repeats every 33 ms) until the results show them.
pub fn w_held_to_the_results(t: &Tmux) -> String {
    t.wait_for("LAP");
    sleep(Duration::from_millis(3200));
    t.keys(&["w"]);
    sleep(Duration::from_millis(500));
    let start = Instant::now();
    let mut n = 0;
    loop {
        t.keys(&["w"]);
        sleep(Duration::from_millis(33));
        n += 1;
        if n % 30 == 0 {
            let s = t.screen();
            if s.contains("RESULTS") {
                return s;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(90), "{}", t.screen());
    }
}
