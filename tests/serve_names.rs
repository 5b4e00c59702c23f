//! Names that pass for others, or break others' screens (issue 51): eight
//! players whose SSH user names draw nothing extra, look like another's,
//! or carry emoji that terminals disagree on, join one room on a hub of
//! its own; each shows distinctly or numbered, and the host's room box,
//! read back by a terminal emulator, keeps its right border on every row.
#![cfg(feature = "serve")]

#[path = "common/hub.rs"]
mod hub_sim;
#[path = "common/ssh.rs"]
mod ssh;

use ratatui::crossterm::event::KeyCode;
use skid::race::TrackChoice;
use skid::serve::{self, display_name};
use skid::track::bundled;

/// The user names, as SSH clients send them.
const USERS: [&str; 8] = [
    "alice",
    "ali\u{FE0F}ce",         // a variation selector inside
    "al\u{034F}i\u{180B}ce", // a grapheme joiner, a Mongolian selector
    "\u{0430}lice",          // Cyrillic а
    "aIice",                 // capital I for l
    "\u{263A}\u{FE0F}",      // ☺ with an emoji selector
    "\u{1F44D}\u{1F3FD}",    // 👍 with a skin tone
    "Jose\u{301}",           // a real combining accent
];

#[test]
fn names_that_look_alike_are_numbered_and_the_room_box_stays_whole() {
    let start = std::time::Instant::now();
    let tracks = vec![serve::hub::Offered::new(TrackChoice {
        name: "pocket".into(),
        track: bundled::load_raceable("pocket").unwrap(),
    })];
    let mut hub = hub_sim::hub(tracks, "names", start);
    let mut outs = Vec::new();
    for (i, user) in USERS.iter().enumerate() {
        let (out, rx) = tokio::sync::mpsc::channel(64);
        outs.push(rx);
        hub.apply(
            hub_sim::guest(i as u64 + 1, &display_name(user), out),
            start,
        );
    }
    let press = |hub: &mut serve::hub::Hub, id: u64, code: KeyCode| {
        hub_sim::press(hub, id, code, start);
    };
    press(&mut hub, 1, KeyCode::Enter); // alice makes room 1
    for id in 2..=USERS.len() as u64 {
        press(&mut hub, id, KeyCode::Down);
        press(&mut hub, id, KeyCode::Enter);
    }
    hub.frames(start);
    let mut screen = vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0);
    while let Ok(out) = outs[0].try_recv() {
        if let serve::hub::Out::Frame(bytes) = out {
            screen.process(&bytes);
        }
    }
    let text = screen.screen().contents();
    // Each shows as itself or numbered: seven that look like `alice` are
    // `alice` and six numbered; the emoji bare; the accent kept.
    for shown in [
        "alice~2",
        "alice~3",
        "\u{0430}lice~4",
        "aIice~5",
        "Jose\u{301}",
    ] {
        assert!(text.contains(shown), "{shown:?} not in\n{text}");
    }
    assert!(
        text.contains("\u{263A} ") && text.contains("\u{1F44D} "),
        "{text}"
    );
    assert!(
        !text.contains('\u{FE0F}') && !text.contains('\u{1F3FD}'),
        "{text}"
    );
    // The box: its right border in one column from top to bottom.
    let s = screen.screen();
    let at = |row: u16, col: u16| {
        s.cell(row, col)
            .map(vt100::Cell::contents)
            .unwrap_or_default()
    };
    let top = (0..24)
        .find(|&r| (0..80).any(|c| at(r, c) == "┌"))
        .expect("a box");
    let right = (0..80)
        .rev()
        .find(|&c| at(top, c) == "┐")
        .expect("its corner");
    let bottom = (top..24)
        .find(|&r| at(r, right) == "┘")
        .expect("its bottom");
    for row in top + 1..bottom {
        assert_eq!(at(row, right), "│", "row {row} of\n{text}");
    }
}
