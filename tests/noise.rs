//! Anything a terminal can hand local play: generated events (any key
//! with any modifiers, pressed, repeated or released; pastes, mouse,
//! focus; resizes from nothing to 65535 x 65535) at any moment, in
//! the title menu, the countdown, a race with a rival, its pause, help
//! and results. Each frame goes through the real frame diff into bytes.
//! Nothing panics, and whatever the noise left, the game still draws a
//! whole screen at 80x24.

use proptest::prelude::*;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MediaKeyCode,
    ModifierKeyCode, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Size;
use skid::app::game;
use skid::app::{App, Options, Screen};
use skid::console::{Frames, Sink};
use skid::track::bundled;

fn code() -> impl Strategy<Value = KeyCode> {
    let named = prop::sample::select(vec![
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Delete,
        KeyCode::Insert,
        KeyCode::Null,
        KeyCode::CapsLock,
        KeyCode::Pause,
        KeyCode::Menu,
        KeyCode::KeypadBegin,
        KeyCode::Media(MediaKeyCode::Play),
        KeyCode::Modifier(ModifierKeyCode::LeftShift),
    ]);
    // The game's own letters often (a person at its keyboard), any
    // character and function key too.
    let letters = prop::sample::select(
        "wasdWASD ?pPgvbcxzfyYnN0123456789qQ"
            .chars()
            .collect::<Vec<_>>(),
    )
    .prop_map(KeyCode::Char);
    prop_oneof![
        3 => named,
        5 => letters,
        2 => any::<char>().prop_map(KeyCode::Char),
        1 => any::<u8>().prop_map(KeyCode::F),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    let kind = prop::sample::select(vec![
        KeyEventKind::Press,
        KeyEventKind::Press,
        KeyEventKind::Repeat,
        KeyEventKind::Release,
    ]);
    let key = (code(), any::<u8>(), kind).prop_map(|(code, mods, kind)| {
        // Mostly no modifier, sometimes any mix of them.
        let modifiers = if mods < 192 {
            KeyModifiers::NONE
        } else {
            KeyModifiers::from_bits_truncate(mods)
        };
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind,
            state: KeyEventState::NONE,
        })
    });
    let side = || prop_oneof![0u16..4, 4u16..300, 300u16..700, Just(u16::MAX)];
    let resize = (side(), side()).prop_map(|(w, h)| Event::Resize(w, h));
    let mouse = (any::<u16>(), any::<u16>()).prop_map(|(column, row)| {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    });
    prop_oneof![
        20 => key,
        2 => resize,
        1 => mouse,
        1 => Just(Event::FocusLost),
        1 => Just(Event::FocusGained),
        1 => ".{0,30}".prop_map(Event::Paste),
    ]
}

/// A game on `pocket` with a rival, one lap, from its title menu.
fn game(color: bool) -> App {
    let mut app = App::new(Options {
        track: Some(("pocket".into(), bundled::load_raceable("pocket").unwrap())),
        laps: Some(1),
        opponents: 1,
        hz: 120,
        color,
        ..Options::default()
    });
    app.resize(80, 24);
    app
}

/// Runs the race, the player's car standing, until the rival has
/// finished and the window after it has closed.
fn to_results(app: &mut App) {
    let mut t = 0.0;
    while app.screen != Screen::Results {
        assert!(t < 300.0, "the race ends");
        app.poll();
        app.tick(t);
        t += 1.0 / 120.0;
    }
}

/// Runs the game loop's steps in simulated time: each event after `gap`
/// ticks (the race's steps while it runs), the frame after it drawn as
/// the loop draws (a resize resizes the frame diff, a redraw clears it).
/// Stops when the game quits.
fn play(app: &mut App, acts: &[(u16, Event)]) -> Result<(), TestCaseError> {
    let tap = Sink::default();
    let (mut frames, _) = Frames::new(tap.clone(), Size::new(80, 24));
    let mut t = 0.0;
    for (gap, ev) in acts {
        for _ in 0..*gap {
            app.poll();
            if app.running() {
                app.tick(t);
                t += 1.0 / 120.0;
            }
        }
        if game::handle(app, ev.clone(), t) {
            if matches!(ev, Event::Resize(..)) {
                // The size the game draws, as the loop takes it.
                let (w, h) = app.session.size;
                frames.set_size(Size::new(w, h))?;
            } else {
                frames.redraw_all()?;
            }
        }
        if app.quit {
            return Ok(());
        }
        game::draw_frame(&mut frames, app)?;
        tap.take();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// From the title menu, a race's start, or its results.
    #[test]
    fn any_terminal_events_leave_a_game_that_draws(
        color in any::<bool>(),
        from in 0..3,
        acts in prop::collection::vec((prop_oneof![3 => 0u16..40, 1 => 40u16..600], event()), 1..150),
    ) {
        let mut app = game(color);
        if from > 0 {
            app.start_race();
        }
        if from > 1 {
            to_results(&mut app);
        }
        play(&mut app, &acts)?;
        if !app.quit {
            game::handle(&mut app, Event::Resize(80, 24), 0.0);
            let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
            t.draw(|f| skid::app::draw(f, &app)).unwrap();
            let text = skid::ui::buffer_text(t.backend().buffer());
            let drawn = text.chars().filter(|c| !c.is_whitespace()).count();
            prop_assert!(drawn > 40 && !text.contains("too small"), "at 80x24 after the noise:\n{text}");
        }
    }
}
