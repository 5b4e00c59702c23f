//! The track editor's loop (`skid edit`): a terminal's key presses to the
//! editor ([`Editor::key`]), its screen drawn when something changed (a
//! key, a resize, the checks' answer). There is no clock to keep: the
//! editor waits for keys, and for the thread that checks the drawing.

use std::io;
use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyEventKind};
use ratatui::layout::Size;

use crate::console::damage::Damage;
use crate::console::{Console, Frames};
use crate::input::keys::key_name;
use crate::race::edit::{Asked, Editor};
use crate::race::session::screen_size;

/// How long the loop waits for a key before it looks for the checks'
/// answer again.
const LOOK: Duration = Duration::from_millis(25);

/// Runs `editor` on `console` (in colour unless `color` is false) until
/// the person leaves it.
pub fn run<C: Console>(console: &mut C, editor: &mut Editor, color: bool) -> io::Result<()> {
    let size = console.size()?;
    let sized = |w: u16, h: u16| {
        let (w, h) = screen_size(w.into(), h.into());
        Size::new(w, h)
    };
    let (mut frames, _) = Frames::new(console.output(), sized(size.width, size.height));
    frames.redraw_all()?;
    let mut dirty = true;
    loop {
        let mut next = console.next_event(LOOK)?;
        while let Some(ev) = next {
            match ev {
                // A press or a key's repeat (held, an arrow moves on).
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(key) = key_name(&k) {
                        if editor.key(key) == Asked::Leave {
                            return Ok(());
                        }
                        dirty = true;
                    }
                }
                Event::Resize(w, h) => {
                    frames.set_size(sized(w, h))?;
                    dirty = true;
                }
                _ => {}
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
