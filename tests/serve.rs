//! `skid serve` in-process: a server on 127.0.0.1:0 and russh clients with
//! a pty whose screens a terminal emulator reads back (docs/SERVE.md).
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

use hub_sim::{TwoOnHub, guest, hub};
use in_process::{options, server, temp_dir};

use std::time::Duration;

use skid::race::TrackChoice;
use skid::serve::{self, Server};

/// Two players: one makes a room, the other joins it; the first starts.
async fn two_racing(srv: &Server) -> (ssh::Player, ssh::Player) {
    let alice = ssh::in_lobby(srv.addr, "alice").await;
    alice.send(b"\r").await;
    alice.wait_for("room 1", 5.0).await;
    let bob = ssh::join(srv.addr, "bob", (100, 30)).await;
    bob.wait_for("room 1", 5.0).await;
    bob.send(b"\x1b[B").await;
    bob.wait_for("› room 1", 5.0).await;
    bob.send(b"\r").await;
    bob.wait_for("waiting for the host", 5.0).await;
    alice.wait_for("bob", 5.0).await;
    alice.wait_for("› [ Start race ]", 5.0).await;
    alice.send(b"\r").await;
    alice.wait_for("POS", 5.0).await;
    bob.wait_for("POS", 5.0).await;
    (alice, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_race_in_one_room_each_driving_their_own_car() {
    let srv = server("race").await;
    let (alice, bob) = two_racing(&srv).await;
    // Each sees the other by name, and themselves as YOU.
    let a = alice.wait_for("bob", 2.0).await;
    assert!(a.contains("YOU"), "{a}");
    let b = bob.wait_for("alice", 2.0).await;
    assert!(b.contains("YOU"), "{b}");
    // And on the track, beside their car (left of the panel).
    let on_track = |screen: &str, name: &str| {
        screen.lines().any(|l| {
            let chars: Vec<char> = l.chars().collect();
            let n: Vec<char> = name.chars().collect();
            chars
                .windows(n.len())
                .position(|w| w == n.as_slice())
                .is_some_and(|c| c < 50)
        })
    };
    assert!(on_track(&a, "bob"), "{a}");
    assert!(on_track(&b, "alice"), "{b}");
    // The help lists a server race's keys: no pause or model switch, r
    // for one racing alone, q leaves.
    alice.send(b"?").await;
    let help = alice.wait_for("HELP", 2.0).await;
    assert!(
        help.contains("leave the race")
            && help.contains("r     restart, racing alone")
            && !help.contains("pause")
            && !help.contains("switch model"),
        "{help}"
    );
    alice.send(b"?").await;
    alice
        .wait_until(|s| !s.contains("HELP"), 2.0, "help closed")
        .await;
    // After the countdown, bob holds the throttle by autorepeat: his car
    // moves, alice's stays on the grid.
    tokio::time::sleep(Duration::from_secs(3)).await;
    bob.hold(b"w", 1.5).await;
    let b = bob.wait_until(|s| speed(s) > 10, 2.0, "bob moving").await;
    assert!(b.contains("INPUT GAS"), "{b}");
    let a = alice.text();
    assert_eq!(speed(&a), 0, "alice touched nothing:\n{a}");
    // Bob drops out: the race goes on for alice, alone.
    drop(bob);
    alice
        .wait_until(|s| !s.contains("bob") && s.contains("LAP"), 5.0, "bob gone")
        .await;
    srv.shutdown().await;
}

/// The panel's SPEED in km/h.
fn speed(screen: &str) -> u32 {
    let line = screen.lines().find(|l| l.contains("SPEED")).unwrap_or("");
    let after = line.split("SPEED").nth(1).unwrap_or("");
    after
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_redraws_at_the_new_size() {
    let srv = server("resize").await;
    let p = ssh::join(srv.addr, "dana", (80, 24)).await;
    let small = p.wait_for("you are dana", 5.0).await;
    let col = |s: &str| s.lines().find(|l| l.contains("lobby")).map(|l| l.find('┌'));
    p.resize(120, 40).await;
    let big = p
        .wait_until(
            |s| col(s) != col(&small) && s.contains("you are dana"),
            5.0,
            "recentred lobby",
        )
        .await;
    assert_eq!(
        col(&big),
        Some(Some(30)),
        "the box centred in 120 columns:\n{big}"
    );
    // Absurd sizes are clamped, not obeyed: the session goes on.
    p.write.window_change(u32::MAX, 0, 0, 0).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    p.resize(80, 24).await;
    let back = p
        .wait_until(|s| col(s) == col(&small), 5.0, "the lobby at 80x24 again")
        .await;
    assert!(back.contains("you are dana"), "{back}");
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_gives_every_player_their_terminal_back() {
    let srv = server("shutdown").await;
    let p = ssh::in_lobby(srv.addr, "erin").await;
    srv.shutdown().await;
    p.wait_closed(5.0).await;
    let raw = p.raw_text();
    let tail = &raw[raw.rfind("\x1b[?1049l").expect("main screen back")..];
    assert!(tail.contains("server shutting down"), "{tail:?}");
    assert!(raw.contains("\x1b[?25h"), "cursor shown");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_key_is_made_once_and_kept() {
    let dir = temp_dir("hostkey");
    let first = serve::start(options(dir.clone())).await.unwrap();
    let fp = first.fingerprint.clone();
    assert!(fp.starts_with("SHA256:"), "{fp}");
    first.shutdown().await;
    let key = dir.join("host_ed25519");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    let again = serve::start(options(dir)).await.unwrap();
    assert_eq!(again.fingerprint, fp);
    again.shutdown().await;
}

/// Issue 28: two servers started at once on an empty data directory: one
/// failed with `File exists` in 6 runs of 25. Now both get the one key.
#[test]
fn two_servers_starting_at_once_share_one_host_key() {
    for round in 0..25 {
        let dir = temp_dir(&format!("twokeys-{round}"));
        let start = std::sync::Arc::new(std::sync::Barrier::new(2));
        let both: Vec<_> = (0..2)
            .map(|_| {
                let (dir, start) = (dir.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    serve::host_key(&dir).map(|k| {
                        k.public_key()
                            .fingerprint(russh::keys::HashAlg::Sha256)
                            .to_string()
                    })
                })
            })
            .collect();
        let keys: Vec<String> = both
            .into_iter()
            .map(|t| t.join().unwrap().expect("a host key"))
            .collect();
        assert_eq!(keys[0], keys[1], "round {round}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "round {round}: only the key is left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Errors about the host key name its path; a key others can read is
/// warned of.
#[test]
fn host_key_errors_name_the_path_and_a_loose_mode_is_warned_of() {
    let file = temp_dir("keyfile");
    std::fs::write(&file, "not a directory").unwrap();
    let e = serve::host_key(&file).unwrap_err().to_string();
    assert_eq!(e, format!("{}: not a directory", file.display()));
    let dir = temp_dir("garbagekey");
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("host_ed25519");
    std::fs::write(&key, b"\xff\xfe garbage").unwrap();
    let e = serve::host_key(&dir).unwrap_err().to_string();
    assert!(e.contains(key.to_str().unwrap()), "{e}");
    let warning = serve::key_mode_warning(&key, 0o100_644).expect("a warning");
    assert!(warning.contains(key.to_str().unwrap()) && warning.contains("644"));
    assert_eq!(serve::key_mode_warning(&key, 0o100_600), None);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn names_are_printable_short_and_plain() {
    assert_eq!(serve::display_name("alice"), "alice");
    assert_eq!(serve::display_name("\x1b]0;pwned\x07bob"), "]0;pwnedbob");
    assert_eq!(serve::display_name("\u{202E}evil\u{2066}"), "evil");
    assert_eq!(
        serve::display_name("a-very-long-name-indeed"),
        "a-very-long-name"
    );
    assert_eq!(serve::display_name("\x07\x08"), "guest");
}

/// Issue 28: names kept characters that draw nothing (the Hangul
/// filler, the blank braille pattern, tag characters, invisible
/// operators, interlinear annotations, line and paragraph separators,
/// noncharacters), so four players could all show as `alice`, and a name
/// of two fillers was blank. A name is now what it looks like.
#[test]
fn a_name_is_what_it_looks_like() {
    let unseen = [
        '\u{3164}',
        '\u{115F}',
        '\u{1160}',
        '\u{FFA0}',
        '\u{2800}',
        '\u{E0041}',
        '\u{E007F}',
        '\u{2061}',
        '\u{2064}',
        '\u{FFF9}',
        '\u{FFFB}',
        '\u{2028}',
        '\u{2029}',
        '\u{FFFE}',
        '\u{10FFFF}',
        '\u{200B}',
        '\u{200D}',
        '\u{2060}',
        '\u{FEFF}',
        '\u{202E}',
        '\u{00A0}',
        '\u{E000}',
        '\u{0378}',
    ];
    for c in unseen {
        assert_eq!(serve::display_name(&format!("al{c}ice")), "alice", "{c:?}");
        assert_eq!(serve::display_name(&format!("{c}{c}")), "guest", "{c:?}");
    }
    // Marks alone show nothing; on a letter they are part of it.
    assert_eq!(serve::display_name("\u{301}\u{301}"), "guest");
    assert_eq!(serve::display_name("Jose\u{301}"), "Jose\u{301}");
    assert_eq!(serve::display_name("  ann  "), "ann");
    assert_eq!(serve::display_name("李小龍"), "李小龍");
}

proptest::proptest! {
    /// Whatever the user name, the name shown is visible characters only,
    /// 16 at most, untrimmed of nothing, and shows something.
    #[test]
    fn any_user_name_shows_as_visible_characters(user in "\\PC*|.*") {
        let name = serve::display_name(&user);
        proptest::prop_assert!(name.chars().count() <= 16);
        proptest::prop_assert!(name.chars().all(serve::names::visible), "{name:?}");
        proptest::prop_assert_eq!(name.trim(), name.as_str());
        proptest::prop_assert!(!name.is_empty());
    }
}

/// Over a slow link an arrow key's escape sequence can arrive in two
/// packets, its first byte alone reading as Esc: that must not throw a
/// racer out. A lone Esc asks; the rest of the sequence (any key) keeps
/// them racing; two Esc in a row leave for the lobby, and the race goes
/// on for the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_split_escape_sequence_never_throws_a_racer_out() {
    let srv = server("split-esc").await;
    let (alice, bob) = two_racing(&srv).await;
    alice.send(b"\x1b").await;
    alice.wait_for("leave the race?", 2.0).await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    alice.send(b"[A").await;
    alice
        .wait_until(|s| !s.contains("leave the race?"), 2.0, "asked no more")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(alice.text().contains("POS"), "{}", alice.text());
    alice.send(b"\x1b").await;
    alice.wait_for("leave the race?", 2.0).await;
    alice.send(b"\x1b").await;
    alice.wait_for("Make a room", 2.0).await;
    bob.wait_until(
        |s| !s.contains("alice") && s.contains("LAP"),
        5.0,
        "alice gone",
    )
    .await;
    srv.shutdown().await;
}

/// Issue 28: a player on a screen below the race's minimum read "race
/// paused" while their car drove on, and a room on a track of one start
/// slot read "PLAYERS 2/1".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_screen_is_told_the_race_goes_on_and_players_fit_their_slots() {
    let mut opts = options(temp_dir("small"));
    let one_slot =
        "+++\nlaps = 1\n+++\n##########\n#........#\n#.>..=...#\n#........#\n##########\n";
    let track = skid::track::parse("one.track", one_slot.as_bytes()).unwrap();
    opts.tracks = vec![TrackChoice {
        name: "one".into(),
        track: skid::track::course::raceable(track, "one.track").unwrap(),
    }];
    let srv = serve::start(opts).await.unwrap();
    let ann = ssh::in_lobby(srv.addr, "ann").await;
    ann.send(b"\r").await;
    ann.wait_for("room 1", 5.0).await;
    let ben = ssh::in_lobby(srv.addr, "ben").await;
    ben.send(b"\x1b[B").await;
    ben.wait_for("› room 1", 5.0).await;
    ben.send(b"\r").await;
    let room = ann.wait_for("ben", 5.0).await;
    assert!(room.contains("PLAYERS 1/1  +1 watching"), "{room}");
    ann.resize(59, 15).await;
    ann.send(b"\r").await;
    let small = ann.wait_for("too small", 5.0).await;
    assert!(
        small.contains("the race goes on") && !small.contains("paused"),
        "{small}"
    );
    srv.shutdown().await;
}

/// A player whose connection does not take frames: the hub skips theirs
/// (never queues more than one), the other player gets every frame, and
/// when the slow one takes frames again, what they get is diffed against
/// what they last got, so their screen comes out right.
#[test]
fn a_slow_player_is_skipped_and_drawn_on_credit() {
    use ratatui::crossterm::event::KeyCode;
    use serve::hub::{Offered, Out, ToHub};
    use std::time::Instant;
    let start = Instant::now();
    let opts = options(temp_dir("credit"));
    let tracks = opts.tracks.into_iter().map(Offered::new).collect();
    let mut hub = hub(tracks, "credit", start);
    let (fast_out, mut fast) = tokio::sync::mpsc::channel(1);
    let (slow_out, mut slow) = tokio::sync::mpsc::channel(1);
    for (id, name, out) in [(1, "fast", fast_out), (2, "slow", slow_out)] {
        assert!(hub.apply(guest(id, name, out), start));
    }
    let mut fast_screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let mut slow_screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    let frame = |p: &mut vt100::Parser, out: Option<Out>| match out {
        Some(Out::Frame(bytes)) => p.process(&bytes),
        other => panic!("expected a frame, got {other:?}"),
    };
    // Both in one room, racing: every tick changes both screens.
    for (id, code) in [
        (1, KeyCode::Enter),
        (2, KeyCode::Down),
        (2, KeyCode::Enter),
        (1, KeyCode::Enter),
    ] {
        hub_sim::press(&mut hub, id, code, start);
    }
    let mut fast_frames = 0;
    for i in 0..200 {
        hub.tick(start + Duration::from_millis(i * 8));
        hub.frames(start + Duration::from_millis(i * 8));
        if let Ok(out) = fast.try_recv() {
            frame(&mut fast_screen, Some(out));
            fast_frames += 1;
        }
        // The slow one took its first frame, then nothing.
        if i == 0 {
            frame(&mut slow_screen, slow.try_recv().ok());
        }
    }
    assert_eq!(fast_frames, 200, "the fast player got every frame");
    // One frame waits for the slow player, no more.
    frame(&mut slow_screen, slow.try_recv().ok());
    assert!(
        slow.try_recv().is_err(),
        "frames queued for the slow player"
    );
    // Taking frames again, the slow player's screen comes out as a fresh
    // one would: diffed against what it got, not what it missed.
    hub.tick(start + Duration::from_secs(2));
    hub.frames(start + Duration::from_secs(2));
    frame(&mut slow_screen, slow.try_recv().ok());
    let shown = slow_screen.screen().contents();
    assert!(shown.contains("YOU") && shown.contains("fast"), "{shown}");
    hub.apply(
        ToHub::Resize {
            id: 2,
            size: (80, 24),
        },
        start,
    );
    hub.frames(start + Duration::from_secs(2));
    let mut redrawn = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    frame(&mut redrawn, slow.try_recv().ok());
    assert_eq!(
        shown,
        redrawn.screen().contents(),
        "credit diff differs from a full redraw"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_is_an_identity_and_no_key_a_guest() {
    let srv = server("identity").await;
    let keyed = ssh::join_with(srv.addr, "kim", (80, 24), Some(ssh::key(7))).await;
    keyed
        .wait_for("you are kim · laps kept for your key", 5.0)
        .await;
    let guest = ssh::join(srv.addr, "gus", (80, 24)).await;
    guest
        .wait_for("you are gus · a guest: laps not kept", 5.0)
        .await;
    // The same name again is told apart.
    let again = ssh::join(srv.addr, "gus", (80, 24)).await;
    again.wait_for("you are gus~2", 5.0).await;
    srv.shutdown().await;
}

/// A terminal with the kitty keyboard protocol sends releases: once one
/// is seen, a key is held from its press to its release, exactly, with
/// no repeats needed (as in local play).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kitty_releases_hold_a_key_exactly_from_press_to_release() {
    let srv = server("kitty").await;
    let (alice, bob) = two_racing(&srv).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    // A first press and release of w: releases are trusted from here on.
    bob.send(b"\x1b[119u").await;
    bob.send(b"\x1b[119;1:3u").await;
    // W pressed and held with no repeat for 1.5 s: still the throttle.
    bob.send(b"\x1b[119u").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let held = bob.text();
    assert!(held.contains("INPUT GAS"), "{held}");
    // Let go: no throttle at once.
    bob.send(b"\x1b[119;1:3u").await;
    bob.wait_until(|s| !s.contains("GAS"), 1.0, "throttle let go")
        .await;
    drop(alice);
    srv.shutdown().await;
}

/// Who joins a room while its race runs watches it (the first seat's
/// view, said so) and drives the next; when the race is over, Enter takes
/// the room back to its settings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_joins_during_a_race_watches_it() {
    let srv = server("watch").await;
    let (alice, bob) = two_racing(&srv).await;
    let carol = ssh::join(srv.addr, "carol", (80, 24)).await;
    carol.wait_for("racing", 5.0).await;
    carol.send(b"\x1b[B").await;
    carol.wait_for("› room 1", 5.0).await;
    carol.send(b"\r").await;
    let watching = carol
        .wait_for("watching alice  v next car  Esc leave", 5.0)
        .await;
    assert!(watching.contains("LAP"), "{watching}");
    // The note stays over the track: the panel's title is whole.
    let top = watching.lines().next().unwrap_or_default();
    assert!(top.contains("skid · Pocket"), "{watching}");
    // Both drivers leave: the race ends and the room waits for its next.
    drop(alice);
    drop(bob);
    let room = carol.wait_for("PLAYERS 1/4", 5.0).await;
    assert!(
        room.contains("carol  host") && room.contains("Start race"),
        "{room}"
    );
    srv.shutdown().await;
}

/// Two players race a lap of `pocket` to the end, by keys alone (presses
/// and autorepeat, as most SSH terminals send them), in simulated time on
/// the hub: each gets the results screen with both finishing positions,
/// and the host's Enter takes the room back to its settings.
#[test]
fn two_players_race_to_the_results() {
    use ratatui::crossterm::event::KeyCode;
    let mut two = TwoOnHub::new();
    two.one_lap(0);
    let run = two.hub.rooms[&1].running.as_ref().expect("racing");
    assert_eq!(run.race.world.laps, 1);
    let end = 120 * 240;
    if !two.race(end) {
        let run = two.hub.rooms[&1].running.as_ref().unwrap();
        for seat in run.race.seats.values() {
            let e = run.race.world.car(seat.car).unwrap();
            eprintln!(
                "car {:?}: laps {:?} pos {:?} vel {:?} last {:?}",
                seat.car, e.laps.lap, e.car.state.body.pos, e.car.state.body.vel, seat.last
            );
        }
        eprintln!("{}", two.screens[0].screen().contents());
        panic!("a lap of pocket not finished by both in 240 s");
    }
    two.frames(end);
    let (ann, ben) = (
        two.screens[0].screen().contents(),
        two.screens[1].screen().contents(),
    );
    for (me, other, text) in [("ann", "ben", &ann), ("ben", "ann", &ben)] {
        assert!(
            text.contains("FINISHED") && text.contains("OF 2"),
            "{me}:\n{text}"
        );
        assert!(
            text.contains("YOU") && text.contains(other),
            "{me}:\n{text}"
        );
        // Each is told whose Enter takes the room back.
        let keys = match me {
            "ann" => "Enter back to the room   q leave",
            _ => "host's Enter: back to the room  q leave",
        };
        assert!(text.contains(keys), "{me}:\n{text}");
    }
    // Ben's Enter does nothing; Ann's takes the room back.
    two.press(2, KeyCode::Enter, end);
    assert!(two.hub.rooms[&1].running.is_some());
    two.press(1, KeyCode::Enter, end);
    assert!(two.hub.rooms[&1].running.is_none());
}
