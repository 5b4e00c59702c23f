//! The real binary in a real terminal: tmux on a socket of its own.
//! `.ci/run` installs tmux; in CI (`CI` set) a missing tmux fails the
//! tests that need it, and on a developer's machine without it they say
//! so and pass.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of this test's own (its own socket), killed on drop.
pub struct Tmux {
    pub socket: String,
    pub dir: PathBuf,
}

impl Tmux {
    pub fn start(name: &str, size: (u16, u16), command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is not installed, and CI needs these tests (.ci/run installs it)"
            );
            eprintln!("skipped: tmux is not installed");
            return None;
        }
        let socket = format!("skid-{name}-{}", std::process::id());
        let dir = std::env::temp_dir().join(&socket);
        std::fs::create_dir_all(&dir).unwrap();
        let t = Tmux { socket, dir };
        let status = t.dir.join("status");
        let script = format!("{command}; echo $? > {}; sleep 60", status.display());
        t.run(&[
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            &size.0.to_string(),
            "-y",
            &size.1.to_string(),
            &script,
        ]);
        Some(t)
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap()
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "e2e"]).stdout).into_owned()
    }

    pub fn alternate_on(&self) -> bool {
        let out = self.run(&["display", "-p", "-t", "e2e", "#{alternate_on}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// Waits up to 5 s for the screen to show `text`.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) || start.elapsed() > Duration::from_secs(5) {
                return s;
            }
            sleep(Duration::from_millis(50));
        }
    }

    /// The exit status of skid, once it has exited (up to 5 s).
    pub fn exit_status(&self) -> Option<i32> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            // The shell creates the file before it writes the status:
            // wait for something that parses.
            let read = std::fs::read_to_string(self.dir.join("status"));
            if let Some(status) = read.ok().and_then(|s| s.trim().parse().ok()) {
                return Some(status);
            }
            sleep(Duration::from_millis(50));
        }
        None
    }

    pub fn skid_pid(&self) -> Option<u32> {
        let out = self.run(&["display", "-p", "-t", "e2e", "#{pane_pid}"]);
        let shell = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let out = Command::new("pgrep")
            .args(["-P", &shell, "skid"])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
