//! The real binary in a real terminal: tmux runs `skid`, keys go in with
//! `send-keys`, the screen comes back with `capture-pane`. `.ci/run`
//! installs tmux; in CI (`CI` set) a missing tmux fails these tests, and
//! on a developer's machine without it they say so and pass.

#[path = "common/maps.rs"]
mod maps;
#[path = "common/tmux.rs"]
mod tmux;

use tmux::Tmux;

use std::path::PathBuf;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

fn skid() -> &'static str {
    env!("CARGO_BIN_EXE_skid")
}

#[test]
fn start_drive_pause_and_quit_at_80x24() {
    let Some(t) = Tmux::start("drive", (80, 24), skid()) else {
        return;
    };
    let menu = t.wait_for("Start race");
    assert!(menu.contains("Track") && menu.contains("pocket"), "{menu}");
    assert!(t.alternate_on());
    t.keys(&["Enter"]);
    let race = t.wait_for("LAP");
    assert!(
        race.contains("RPM") && race.contains("GEAR") && race.contains("SLIP"),
        "{race}"
    );
    // The countdown, then throttle held by autorepeat (no releases, as in tmux).
    sleep(Duration::from_millis(3200));
    for _ in 0..40 {
        t.keys(&["Up"]);
        sleep(Duration::from_millis(30));
    }
    t.keys(&["p"]);
    let paused = t.wait_for("PAUSED");
    assert!(paused.contains("PAUSED"), "{paused}");
    let speed: u32 = paused
        .lines()
        .find_map(|l| l.split("SPEED").nth(1))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("a speed on screen");
    assert!(speed > 10, "the car drove: {speed} km/h\n{paused}");
    // q: from a race begun in the menu, back to the menu; q there quits.
    t.keys(&["q"]);
    t.wait_for("Start race");
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
    assert!(!t.alternate_on(), "the terminal is back on its main screen");
}

/// Sends `signal` to skid once its race shows; returns its exit status
/// and whether the terminal was left on the main screen.
fn signalled(name: &str, signal: &str) -> Option<(Option<i32>, bool)> {
    let t = Tmux::start(name, (100, 30), &format!("{} play --track oval", skid()))?;
    t.wait_for("LAP");
    assert!(t.alternate_on());
    let pid = t.skid_pid().expect("skid runs");
    Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    let status = t.exit_status();
    Some((status, !t.alternate_on()))
}

#[test]
fn sigterm_restores_the_terminal_and_exits_143() {
    let Some((status, restored)) = signalled("term", "TERM") else {
        return;
    };
    assert_eq!(status, Some(143));
    assert!(restored);
}

/// Issue 28: SIGUSR1 and the other signals that end a process by default
/// left the alternate screen on and the cursor hidden.
#[test]
fn any_ending_signal_restores_the_terminal() {
    for (signal, number) in [("USR1", 10), ("ALRM", 14), ("XCPU", 24)] {
        let Some((status, restored)) = signalled(&signal.to_lowercase(), signal) else {
            return;
        };
        assert_eq!(status, Some(128 + number), "{signal}");
        assert!(
            restored,
            "{signal}: the terminal is back on its main screen"
        );
    }
}

#[test]
fn sigint_restores_the_terminal_and_exits_130() {
    let Some((status, restored)) = signalled("int", "INT") else {
        return;
    };
    assert_eq!(status, Some(130));
    assert!(restored);
}

#[test]
fn sighup_ends_the_process_at_once_and_restores_a_live_terminal() {
    // `kill -HUP` with the terminal still there: it gets itself back, and
    // the process does not stay (on a dropped connection the same path
    // finds nothing writable and just ends).
    let Some((status, restored)) = signalled("hup", "HUP") else {
        return;
    };
    assert_eq!(status, Some(129));
    assert!(restored, "the terminal is back on its main screen");
}

#[test]
fn sigtstp_gives_the_terminal_back_and_sigcont_takes_it_again() {
    let Some(t) = Tmux::start("tstp", (100, 30), &format!("{} play --track oval", skid())) else {
        return;
    };
    t.wait_for("LAP");
    let pid = t.skid_pid().expect("skid runs").to_string();
    let kill = |sig: &str| {
        Command::new("kill").args([sig, &pid]).status().unwrap();
    };
    kill("-TSTP");
    let start = Instant::now();
    while t.alternate_on() && start.elapsed() < Duration::from_secs(5) {
        sleep(Duration::from_millis(50));
    }
    assert!(
        !t.alternate_on(),
        "stopped: the terminal is the shell's again"
    );
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(state.contains(") T "), "the process is stopped: {state}");
    kill("-CONT");
    let screen = t.wait_for("PAUSED");
    assert!(t.alternate_on(), "continued: the game has its screen again");
    assert!(
        screen.contains("LAP") && screen.contains("PAUSED"),
        "{screen}"
    );
    // Raw mode again: a single key acts at once.
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
    assert!(!t.alternate_on());
}

#[test]
fn a_resize_redraws_at_the_new_size() {
    let Some(t) = Tmux::start(
        "resize",
        (80, 24),
        &format!("{} play --track pocket", skid()),
    ) else {
        return;
    };
    t.wait_for("LAP");
    t.run(&["resize-window", "-t", "e2e", "-x", "160", "-y", "48"]);
    sleep(Duration::from_millis(300));
    let big = t.screen();
    let panel_at = big
        .lines()
        .find(|l| l.contains("LAP"))
        .and_then(|l| l.find("LAP"))
        .unwrap_or(0);
    assert!(
        panel_at > 100,
        "the panel moved to the right edge of 160 columns:\n{big}"
    );
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
}

#[test]
fn a_tiny_terminal_gets_a_message_not_a_panic() {
    let Some(t) = Tmux::start("tiny", (40, 10), &format!("{} play", skid())) else {
        return;
    };
    let s = t.wait_for("too small");
    assert!(
        s.contains("Terminal too small") && s.contains("40x10"),
        "{s}"
    );
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
}

/// Holds `key` as a terminal without key releases sends it: one press,
/// then after 500 ms a repeat every 33 ms, for `secs` seconds in all.
fn hold(t: &Tmux, key: &str, secs: f64) {
    let start = Instant::now();
    t.keys(&[key]);
    sleep(Duration::from_millis(500));
    while start.elapsed().as_secs_f64() < secs {
        t.keys(&[key]);
        sleep(Duration::from_millis(33));
    }
}

/// An arcade race on the oval at 80x24 recorded with `--record`, past its
/// countdown: the tmux server, the data folder and the recording's path.
fn recorded_race(name: &str) -> Option<(Tmux, PathBuf, PathBuf)> {
    let dir = std::env::temp_dir().join(format!("skid-e2e-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("rec.toml");
    let cmd = format!(
        "{} play --track oval --model arcade --record {} --data-dir {}",
        skid(),
        rec.display(),
        dir.display()
    );
    let t = Tmux::start(name, (80, 24), &cmd)?;
    assert!(t.wait_for("LAP").contains("LAP"));
    sleep(Duration::from_millis(3300)); // the countdown
    Some((t, dir, rec))
}

/// The controls of every tick a recording on disk holds.
fn recorded(rec: &std::path::Path) -> Vec<skid::physics::Controls> {
    let text = std::fs::read_to_string(rec).unwrap();
    let script = skid::race::script::Script::parse("rec.toml", &text).unwrap();
    script.into_controls().collect()
}

#[test]
fn without_releases_the_brake_bites_at_once_in_a_real_terminal() {
    let Some((t, dir, rec)) = recorded_race("brake") else {
        return;
    };
    // W held 1.5 s, let go (tmux sends nothing), S at once, held 1 s.
    hold(&t, "w", 1.5);
    hold(&t, "s", 1.0);
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
    // Its first line says what the race was, for whoever replays it.
    let first = std::fs::read_to_string(&rec).unwrap();
    assert!(
        first.starts_with(
            "# recorded by skid: Oval, arcade, hatch, 5 laps, --hz 120, 0 computer cars\n"
        ),
        "{first}"
    );
    // Replayed in another race (here another model), it is refused by that
    // line; in the same one it is taken (and then needs a terminal).
    let replay = |extra: &[&str]| {
        let o = Command::new(skid())
            .args(["play", "--replay", rec.to_str().unwrap(), "--track", "oval"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let other = replay(&["--model", "tire"]);
    assert!(
        other.starts_with(&format!("{}:1:1: recorded in Oval, arcade,", rec.display())),
        "{other}"
    );
    assert!(other.contains("would be Oval, tire,"), "{other}");
    let same = replay(&["--model", "arcade"]);
    assert!(same.contains("needs a terminal"), "{same}");
    let ticks = recorded(&rec);
    let count =
        |f: &dyn Fn(&skid::physics::Controls) -> bool| ticks.iter().filter(|c| f(c)).count();
    let gas = count(&|c| c.throttle > 0.0);
    let brake = count(&|c| c.brake > 0.0);
    assert_eq!(
        count(&|c| c.throttle > 0.0 && c.brake > 0.0),
        0,
        "never both pedals"
    );
    // 120 ticks a second; tmux and the machine's timing allow some slack.
    assert!(
        (150..=210).contains(&gas),
        "throttle for {gas} ticks, W held 1.5 s"
    );
    assert!(
        (100..=150).contains(&brake),
        "brake for {brake} ticks, S held 1 s"
    );
    let first_brake = ticks.iter().position(|c| c.brake > 0.0).unwrap();
    let last_gas = ticks.iter().rposition(|c| c.throttle > 0.0).unwrap();
    assert!(
        first_brake > last_gas,
        "the brake after the throttle, not with it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_recording_is_written_as_the_race_goes_so_a_crash_keeps_it() {
    let Some((t, dir, rec)) = recorded_race("crash") else {
        return;
    };
    hold(&t, "w", 1.5);
    hold(&t, "s", 0.6);
    let pid = t.skid_pid().expect("skid runs");
    Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    sleep(Duration::from_millis(200));
    // The throttle's hold was complete before the crash: it is on disk.
    let gas = recorded(&rec).iter().filter(|c| c.throttle > 0.0).count();
    assert!(gas >= 150, "{gas} ticks of throttle on disk");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_answers_keys_while_a_large_maps_racing_line_is_computed() {
    // Before, the game computed the line before its first frame: nothing
    // on screen and no key taken for as long as it took (12 s on a
    // 4096 x 4096 map).
    let map = std::env::temp_dir().join(format!("skid-serpentine-{}.track", std::process::id()));
    std::fs::write(&map, maps::serpentine(2048)).unwrap();
    let command = format!("{} play --track {}", skid(), map.display());
    let Some(t) = Tmux::start("planning", (80, 24), &command) else {
        return;
    };
    let wait = t.wait_for("Planning the racing line");
    assert!(
        wait.contains("Planning the racing line") && wait.contains("Start race"),
        "{wait}"
    );
    assert!(t.alternate_on());
    t.keys(&["q"]);
    assert_eq!(t.exit_status(), Some(0));
    assert!(!t.alternate_on());
    let _ = std::fs::remove_file(&map);
}
