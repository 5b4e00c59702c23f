//! The title menu as a player reads it, on every bundled track and on
//! generated ones of any shape: the track's outline beside the menu's
//! words, never under them.

mod common;

use skid::app::{App, Options};
use skid::physics::ModelKind;
use skid::track::course::raceable;
use skid::track::{Raceable, bundled, parse};

/// Braille, the outline's characters.
fn braille(c: char) -> bool {
    ('\u{2801}'..='\u{28FF}').contains(&c)
}

/// Rows of the screen on which the outline touches words: a dot right
/// after a letter, or a letter after a dot (the words written over it).
fn tangled(app: &App) -> Vec<String> {
    let buf = common::drawn(app);
    let mut bad = Vec::new();
    for y in 0..buf.area.height {
        let row: Vec<char> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().chars().next().unwrap_or(' '))
            .collect();
        let Some(first) = row.iter().position(|&c| braille(c)) else {
            continue;
        };
        let before = first.checked_sub(1).map_or(' ', |i| row[i]);
        let after = row[first..].iter().any(|&c| c.is_alphanumeric());
        if before.is_alphanumeric() || after {
            bad.push(row.iter().collect::<String>().trim_end().to_string());
        }
    }
    bad
}

fn title(name: &str, track: Raceable, model: ModelKind, size: (u16, u16)) -> App {
    let mut app = App::new(Options {
        track: Some((name.into(), track)),
        model: Some(model),
        hz: 120,
        ..Options::default()
    });
    app.resize(size.0, size.1);
    app
}

#[test]
fn the_outline_never_runs_under_the_menus_words() {
    let mut courses: Vec<(String, Raceable)> = (bundled::TRACKS.iter())
        .map(|(n, _)| (n.to_string(), bundled::load_raceable(n).unwrap()))
        .collect();
    // Fields from 8 times as wide as tall (in metres) to 10 times as tall.
    for (w, h) in [(160, 10), (60, 20), (30, 30), (20, 60), (20, 100)] {
        let src = common::maps::field(w, h, 1..h / 2, None);
        let track = parse("field.track", src.as_bytes()).unwrap();
        courses.push((
            format!("field{w}x{h}"),
            raceable(track, "field.track").unwrap(),
        ));
    }
    for (name, track) in courses {
        for model in ModelKind::ALL {
            for size in [(80, 24), (160, 48)] {
                let app = title(&name, track.clone(), model, size);
                let bad = tangled(&app);
                assert!(
                    bad.is_empty(),
                    "{name} in {} at {size:?}: the outline touches words:\n{}",
                    model.name(),
                    bad.join("\n")
                );
            }
        }
    }
}

/// The menu whole, Start and the keys in sight, on every screen the game
/// draws (from 60x16 up): a short one goes without the title (at 60x16
/// the box once ran off the bottom, Start and the keys with it).
#[test]
fn the_menu_is_whole_on_every_screen_the_game_draws() {
    let track = bundled::load_raceable("grandprix").unwrap();
    for h in 16..=30 {
        for w in [60, 80, 200] {
            let app = title("grandprix", track.clone(), ModelKind::Tire, (w, h));
            let text = skid::ui::buffer_text(&common::drawn(&app));
            let rows = ["Track", "Rivals", "Level", "Aid", "[ Start race ]"];
            for want in rows.iter().chain(&["↑↓ choose", "┘"]) {
                assert!(text.contains(want), "{w}x{h}: no {want:?}\n{text}");
            }
            assert_eq!(text.contains("racing game"), h >= 21, "{w}x{h}\n{text}");
        }
    }
}

/// Below the smallest screen the game draws, the menu says so (it cut
/// its rows before, Start among them, at 30x8).
#[test]
fn a_screen_too_small_for_the_menu_says_so() {
    let track = bundled::load_raceable("pocket").unwrap();
    for size in [(59, 24), (80, 15), (30, 8), (1, 1)] {
        let app = title("pocket", track.clone(), ModelKind::Arcade, size);
        let text = skid::ui::buffer_text(&common::drawn(&app));
        if size.0 >= 30 {
            assert!(text.contains("Terminal too small"), "{size:?}\n{text}");
            assert!(text.contains("(q quits)"), "{size:?}\n{text}");
        }
        assert!(!text.contains("Track"), "{size:?}: the menu cut\n{text}");
    }
}
