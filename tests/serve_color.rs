//! `NO_COLOR` over SSH: a player whose client sends it (`ssh -o
//! SetEnv=NO_COLOR=1`) before the shell gets every screen without
//! colour, their car still marked in reverse video; another on the same
//! server keeps theirs; an empty `NO_COLOR` (no-color.org) changes
//! nothing, and no other variable is taken.
#![cfg(feature = "serve")]

#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

/// The colours the SGR sequences in `raw` set (parameters 30 to 38, 40
/// to 48, 90 to 97, 100 to 107; the defaults 39 and 49 are no colour).
fn colours(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut found = Vec::new();
    for part in text.split("\u{1b}[").skip(1) {
        let Some(end) = part.find(|c: char| !(c.is_ascii_digit() || c == ';')) else {
            continue;
        };
        if !part[end..].starts_with('m') {
            continue;
        }
        let colour = (part[..end].split(';').filter_map(|p| p.parse::<u32>().ok()))
            .any(|p| matches!(p, 30..=38 | 40..=48 | 90..=97 | 100..=107));
        if colour {
            found.push(part[..end].to_string());
        }
    }
    found
}

/// Whether the screen shows a reverse-video cell: the player's own car.
fn own_car_marked(p: &ssh::Player) -> bool {
    let parser = p.screen.lock().unwrap();
    let screen = parser.screen();
    (0..24).any(|row| (0..52).any(|col| screen.cell(row, col).is_some_and(vt100::Cell::inverse)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_color_sent_over_ssh_takes_colour_off_that_players_screens() {
    let srv = in_process::server("nocolor").await;
    let env = [("NO_COLOR", "1"), ("LANG", "C.UTF-8")];
    let ann = ssh::join_as(srv.addr, "ann", (80, 24), None, &env).await;
    let ben = ssh::join_as(srv.addr, "ben", (80, 24), None, &[("NO_COLOR", "")]).await;
    let cat = ssh::join(srv.addr, "cat", (80, 24)).await;
    for (p, name) in [(&ann, "ann"), (&ben, "ben"), (&cat, "cat")] {
        p.wait_for(&format!("you are {name}"), 5.0).await;
        // A room of their own, and its race started.
        p.send(b"\r").await;
        p.wait_for("Start race", 5.0).await;
        p.send(b"\r").await;
        p.wait_for("LAP", 5.0).await;
    }
    // Into the race, driving.
    for p in [&ann, &ben, &cat] {
        p.hold(b"w", 1.0).await;
    }
    // NO_COLOR taken, LANG refused; then the pty and the shell.
    assert_eq!(*ann.replies.lock().unwrap(), [true, false, true, true]);
    assert_eq!(*ben.replies.lock().unwrap(), [true, true, true]);
    let plain = colours(&ann.raw.lock().unwrap());
    assert!(plain.is_empty(), "ann asked for no colour: {plain:?}");
    assert!(own_car_marked(&ann), "{}", ann.text());
    for p in [&ben, &cat] {
        let coloured = colours(&p.raw.lock().unwrap());
        assert!(coloured.len() > 10, "{coloured:?}");
        assert!(own_car_marked(p), "{}", p.text());
    }
    srv.shutdown().await;
}
