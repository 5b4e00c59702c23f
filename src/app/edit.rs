//! The track editor's loop (`skid edit`): a terminal's key presses to the
//! editor ([`Editor::key`]), its screen drawn when something changed (a
//! key, a resize, the checks' answer). There is no clock to keep: the
//! editor waits for keys, and for the thread that checks the drawing. d
//! races the drawing there and then in the game's own loop ([`drive`]),
//! and q comes back to the editor as it was.

use std::io;
use std::time::Duration;

use ratatui::crossterm::event::Event;
use ratatui::layout::Size;

use crate::console::damage::Damage;
use crate::console::{Console, Frames};
use std::path::{Path, PathBuf};

use crate::base::diag::Diagnostics;
use crate::race::TrackChoice;
use crate::race::edit::{Asked, Editor};
use crate::race::session::screen_size;
use crate::track::bundled;
use crate::track::draft::Draft;

/// A new track's size in cells.
const NEW: (usize, usize) = (60, 20);

/// The drawing `arg` names and where it is saved: the file if it exists;
/// else a copy of the bundled track of that name, saved as `NAME.track`;
/// else a new track, saved to `arg` (`untitled.track` without one).
pub fn open(arg: Option<&str>) -> Result<(Draft, PathBuf), Diagnostics> {
    let arg = arg.unwrap_or("untitled.track");
    let path = Path::new(arg);
    if path.exists() {
        let bytes = crate::base::diag::read_file(arg)?;
        let text = crate::base::diag::utf8(arg, &bytes)?;
        return Ok((Draft::read(text), path.to_path_buf()));
    }
    if let Some((name, text)) = bundled::TRACKS.iter().find(|(n, _)| *n == arg) {
        return Ok((Draft::read(text), PathBuf::from(format!("{name}.track"))));
    }
    Ok((Draft::new(NEW.0, NEW.1), path.to_path_buf()))
}

/// The title menu's Build a track: the editor on what `skid edit` with
/// no file opens, run on `console` until the person leaves it; a track
/// saved that races is then among the menu's, selected.
pub fn build<C: Console>(console: &mut C, app: &mut crate::app::App) -> io::Result<()> {
    let (draft, path) = match open(None) {
        Ok(opened) => opened,
        Err(e) => {
            app.notices.push(e.to_string());
            return Ok(());
        }
    };
    let mut editor = Editor::new(draft, path.clone(), true);
    run(console, &mut editor, app.session.color)?;
    let shown = path.display().to_string();
    // Named by its file, as a track given by path is.
    let stem = (path.file_stem()).map_or_else(|| shown.clone(), |s| s.to_string_lossy().into());
    let saved = std::fs::read_to_string(&path).ok();
    let raced = saved.and_then(|text| TrackChoice::from_text(&shown, &text, |_| stem).ok());
    if let Some(choice) = raced {
        app.add_choice(choice);
    }
    Ok(())
}

/// How long the loop waits for a key before it looks for the checks'
/// answer again.
const LOOK: Duration = Duration::from_millis(25);

/// Races `editor`'s drawing, as `text` (from its start, or from the
/// cursor), on `console` (the game's own loop, alone on the track),
/// until the person leaves the race with q. A drawing that does not
/// parse or race is said so.
fn drive<C: Console>(
    console: &mut C,
    editor: &mut Editor,
    text: &str,
    color: bool,
) -> io::Result<()> {
    let path = editor.path.display().to_string();
    let track = match crate::race::TrackChoice::from_text(&path, text, str::to_string) {
        Ok(choice) => choice.track,
        Err(why) => {
            editor.note = Some(why);
            return Ok(());
        }
    };
    let hz = crate::physics::DEFAULT_HZ;
    let name = track.track().name.clone();
    let mut app = crate::app::App::new(crate::app::Options {
        track: Some((name, track)),
        hz,
        color,
        background: true,
        ..crate::app::Options::default()
    });
    app.start_race();
    let settings = crate::app::game::Settings {
        fps: 30,
        hz,
        quit_at_end: false,
    };
    crate::app::game::run(console, &mut app, &settings, None).map(|_| ())
}

/// Runs `editor` on `console` (in colour unless `color` is false) until
/// the person leaves it.
pub fn run<C: Console>(console: &mut C, editor: &mut Editor, color: bool) -> io::Result<()> {
    let size = console.size()?;
    let (mut frames, _) = Frames::new(console.output(), sized(size.width, size.height));
    frames.redraw_all()?;
    let now = sized(size.width, size.height);
    editor.resize(now.width, now.height);
    console.mouse(true)?;
    let left = edit_until_left(console, editor, color, &mut frames);
    console.mouse(false)?;
    left
}

/// A terminal's size as the screen is drawn (clamped as every screen).
fn sized(w: u16, h: u16) -> Size {
    let (w, h) = screen_size(w.into(), h.into());
    Size::new(w, h)
}

/// [`run`]'s loop, on `frames`, until the person leaves the editor.
fn edit_until_left<C: Console>(
    console: &mut C,
    editor: &mut Editor,
    color: bool,
    frames: &mut Frames<C::Out>,
) -> io::Result<()> {
    let mut dirty = true;
    loop {
        let mut next = console.next_event(LOOK)?;
        while let Some(ev) = next {
            match ev {
                Event::Resize(w, h) => {
                    let size = sized(w, h);
                    frames.set_size(size)?;
                    editor.resize(size.width, size.height);
                    dirty = true;
                }
                ev => match editor.event(&ev) {
                    Some(Asked::Leave) => return Ok(()),
                    Some(asked @ (Asked::Drive | Asked::DriveHere(_))) => {
                        let text = match asked {
                            Asked::DriveHere(heading) => editor.text_from_cursor(heading),
                            _ => editor.draft.text(),
                        };
                        // The game reads no mouse.
                        console.mouse(false)?;
                        drive(console, editor, &text, color)?;
                        console.mouse(true)?;
                        frames.redraw_all()?;
                        dirty = true;
                    }
                    // Only a server's editor asks for the others.
                    Some(_) => dirty = true,
                    None => {}
                },
            }
            next = console.next_event(Duration::ZERO)?;
        }
        if console.redraw_wanted() {
            frames.redraw_all()?;
            dirty = true;
        }
        dirty |= editor.poll();
        if dirty {
            frames.frame(|buf, area, _| {
                crate::ui::edit::edit(buf, area, editor);
                crate::ui::theme::finish(buf, color);
                Damage::All
            })?;
            dirty = false;
        }
    }
}
