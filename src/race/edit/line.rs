//! The computer's racing line over the drawing (`o`): worked out for the
//! drawing as it is when asked, on a thread of its own where the editor
//! checks on one (the line of a large map takes milliseconds), and shown
//! until the drawing changes.

use std::sync::mpsc::{Receiver, channel};

use super::Editor;
use super::shapes::Cell;

/// The racing line as the canvas shows it.
#[derive(Debug, Default)]
pub struct Overlay {
    /// The cells the line crosses, each once, in its order; none while it
    /// is worked out or hidden.
    pub cells: Vec<Cell>,
    /// Whether it is asked for.
    pub shown: bool,
    /// The line being worked out on its thread.
    coming: Option<Receiver<Vec<Cell>>>,
}

/// The cells `text`'s racing line crosses, if the track can be raced.
fn line_cells(text: &str) -> Option<Vec<Cell>> {
    let track = crate::track::parse("track", text.as_bytes()).ok()?;
    let track = crate::track::course::raceable(track, "track").ok()?;
    let line = crate::ai::race_line(track.track());
    let mut cells: Vec<Cell> = Vec::new();
    for &p in &line.points {
        if let Some(c) = track.track().cell_at(p)
            && cells.last() != Some(&c)
        {
            cells.push(c);
        }
    }
    Some(cells)
}

impl Editor {
    /// `o`: the racing line shown (worked out now), or hidden.
    pub(super) fn toggle_line(&mut self) {
        if self.overlay.shown {
            self.overlay = Overlay::default();
            return;
        }
        if !(self.checker.current() && self.checker.last.raceable()) {
            self.note = Some("no racing line until a lap can be driven".into());
            return;
        }
        self.overlay.shown = true;
        let text = self.draft.text();
        if !self.background {
            self.overlay.cells = line_cells(&text).unwrap_or_default();
            return;
        }
        let (tell, coming) = channel();
        let spawned = std::thread::Builder::new()
            .name("skid-line".into())
            .spawn(move || {
                let _ = tell.send(line_cells(&text).unwrap_or_default());
            });
        match spawned {
            Ok(_) => self.overlay.coming = Some(coming),
            Err(_) => self.overlay = Overlay::default(),
        }
    }

    /// The line worked out, if it came; returns whether it did.
    pub(super) fn line_came(&mut self) -> bool {
        let Some(coming) = &self.overlay.coming else {
            return false;
        };
        match coming.try_recv() {
            Ok(cells) => {
                self.overlay.cells = cells;
                self.overlay.coming = None;
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::keys::KeyName;
    use crate::track::draft::Draft;

    /// `o` shows the line on pocket: a loop of cells on its road, never
    /// a wall; a stroke takes it away; `o` on a track that cannot be
    /// raced says why not.
    #[test]
    fn the_racing_line_is_shown_over_the_road_until_the_drawing_changes() {
        let pocket = crate::track::bundled::TRACKS[0].1;
        let path = std::env::temp_dir().join("never-saved.track");
        let mut e = Editor::new(Draft::read(pocket), path.clone(), false);
        e.key(KeyName::Char('o'));
        let cells = &e.overlay.cells;
        assert!(e.overlay.shown && cells.len() > 40, "{cells:?}");
        assert!(
            cells
                .iter()
                .all(|&(x, y)| e.draft.get(x, y).is_some_and(|c| c != '#'))
        );
        e.key(KeyName::Char('i'));
        e.key(KeyName::Space);
        assert!(!e.overlay.shown && e.overlay.cells.is_empty());
        let mut blank = Editor::new(Draft::new(10, 5), path, false);
        blank.key(KeyName::Char('o'));
        assert!(!blank.overlay.shown && blank.note.is_some());
    }
}
