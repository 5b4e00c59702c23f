//! Windows Terminal over SSH: `skid serve` asks for win32-input-mode as
//! it asks for the kitty flags, reads its records (presses, repeats and
//! releases) through the same keyboard as any terminal's bytes, holds a
//! key exactly as long as it is down, and turns the mode off on the way
//! out.
#![cfg(feature = "serve")]

#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

use std::time::Duration;

/// Windows Terminal's record for the key `vk` typing `ch`, down or up
/// (its scan code left out, as skid reads none).
fn win32(vk: u8, ch: u8, down: bool) -> Vec<u8> {
    format!("\x1b[{vk};0;{ch};{};0;1_", u8::from(down)).into_bytes()
}

/// The panel's INPUT line.
fn input_line(screen: &str) -> String {
    (screen.lines())
        .find_map(|l| l.find("INPUT").map(|i| l[i..].trim_end().to_string()))
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn windows_terminal_keys_are_held_exactly_over_ssh() {
    let srv = in_process::server("win32").await;
    let p = ssh::join(srv.addr, "wendy", (80, 24)).await;
    p.wait_for("you are wendy", 5.0).await;
    assert!(
        p.raw_text().contains("\x1b[?9001h"),
        "win32-input-mode asked for"
    );
    // Enter (a room), Enter (its race), in Windows Terminal's records.
    for _ in 0..2 {
        p.send(&win32(13, 13, true)).await;
        p.send(&win32(13, 13, false)).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    p.wait_for("LAP", 5.0).await;
    tokio::time::sleep(Duration::from_secs(3)).await; // the start lights
    // W held (repeated downs), D pressed and let go meanwhile.
    let (w, d) = ((87, b'w'), (68, b'd'));
    p.send(&win32(w.0, w.1, true)).await;
    for _ in 0..15 {
        p.send(&win32(w.0, w.1, true)).await;
        tokio::time::sleep(Duration::from_millis(33)).await;
    }
    p.send(&win32(d.0, d.1, true)).await;
    let both = p
        .wait_until(|s| input_line(s).contains('>'), 5.0, "W and D held")
        .await;
    let line = input_line(&both);
    assert!(line.contains("GAS") && !line.contains('*'), "{line}");
    p.send(&win32(d.0, d.1, false)).await;
    let gas = p
        .wait_until(|s| !input_line(s).contains('>'), 5.0, "D let go")
        .await;
    let line = input_line(&gas);
    assert!(line.contains("GAS") && !line.contains('*'), "{line}");
    p.send(&win32(w.0, w.1, false)).await;
    p.wait_until(|s| !input_line(s).contains("GAS"), 5.0, "W let go")
        .await;
    // q twice leaves the race, q in the lobby hangs up: the terminal is
    // given back with win32-input-mode off.
    for (q, text) in [(1, "leave"), (2, "you are wendy"), (3, "")] {
        p.send(&win32(81, b'q', true)).await;
        p.send(&win32(81, b'q', false)).await;
        if q < 3 {
            p.wait_for(text, 5.0).await;
        }
    }
    p.wait_closed(5.0).await;
    let raw = p.raw_text();
    // From where the bytes that give the terminal back begin.
    let back = raw.rfind("\x1b[?1049l").expect("main screen back") + 8;
    let tail = &raw[back - skid::console::RESTORE.len()..];
    assert!(tail.contains("\x1b[?9001l"), "{tail:?}");
    srv.shutdown().await;
}
