//! The track editor's state (`skid edit`): a track file being drawn
//! ([`Draft`]), a cursor, the brush and tool chosen, every stroke undone
//! and redone without limit, and what the checks say of the drawing as
//! it is now ([`check`]). Keys come in as [`KeyName`]s, from whichever
//! door the person came through; the drawing is the UI's, which reads
//! this and never changes it.

pub mod brush;
pub mod check;
pub mod shapes;

use std::path::PathBuf;

use crate::input::keys::KeyName;
use crate::track::draft::Draft;

use brush::{Brush, TOOLS, Tool};
use check::Checker;
use shapes::Cell;

/// One stroke: the cells it changed, each with what was there and what
/// it put.
#[derive(Debug, Clone, Default)]
struct Stroke(Vec<(Cell, char, char)>);

/// What a key asks of the editor's front door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// Nothing beyond the editor.
    Nothing,
    /// To leave the editor.
    Leave,
    /// To race the drawing now, from its start; the editor is as it was
    /// when the race is left.
    Drive,
}

/// A track being edited.
pub struct Editor {
    pub draft: Draft,
    /// Where it is saved.
    pub path: PathBuf,
    pub cursor: Cell,
    pub brush: Brush,
    pub tool: Tool,
    /// A line's or rectangle's first point, once marked.
    pub anchor: Option<Cell>,
    undo: Vec<Stroke>,
    redo: Vec<Stroke>,
    /// The checks of the drawing.
    pub checker: Checker,
    /// Whether the drawing differs from the file saved.
    pub changed: bool,
    /// A line for the person: saved where, or why not.
    pub note: Option<String>,
    /// Whether a key that needs saying twice (leave with changes unsaved,
    /// save an unraceable track) was said once.
    pub asked_once: Option<KeyName>,
}

impl Editor {
    /// An editor on `draft`, saved to `path`, checking on a thread of its
    /// own (`background`) or at once.
    pub fn new(draft: Draft, path: PathBuf, background: bool) -> Editor {
        let (w, h) = draft.size();
        let mut editor = Editor {
            draft,
            path,
            cursor: (w / 2, h / 2),
            brush: Brush::Asphalt,
            tool: Tool::Point,
            anchor: None,
            undo: Vec::new(),
            redo: Vec::new(),
            checker: Checker::new(background),
            changed: false,
            note: None,
            asked_once: None,
        };
        editor.check();
        editor
    }

    /// The drawing's text, to be checked.
    fn check(&mut self) {
        let map_line = self.draft.map_line();
        self.checker.ask(self.draft.text(), map_line);
    }

    /// Applies the key `key`.
    pub fn key(&mut self, key: KeyName) -> Asked {
        let twice = self.asked_once.take() == Some(key);
        self.note = None;
        match key {
            KeyName::Up => self.step(0, -1),
            KeyName::Down => self.step(0, 1),
            KeyName::Left => self.step(-1, 0),
            KeyName::Right => self.step(1, 0),
            KeyName::Space | KeyName::Enter => self.put(),
            KeyName::Char('u') => self.undo(),
            KeyName::Char('y') | KeyName::Ctrl('r') => self.redo(),
            KeyName::Ctrl('s') => self.save(twice),
            KeyName::Char('d') => return self.drive(),
            KeyName::Esc if self.anchor.is_some() => self.anchor = None,
            KeyName::Char('q') | KeyName::Esc | KeyName::Ctrl('c') => {
                if !self.changed || twice {
                    return Asked::Leave;
                }
                self.asked_once = Some(key);
                self.note = Some("changes not saved: again to leave, Ctrl-S saves".into());
            }
            key => self.choose(key),
        }
        Asked::Nothing
    }

    /// A brush or tool key.
    fn choose(&mut self, key: KeyName) {
        if let Some(b) = Brush::picked(key, self.brush) {
            self.brush = b;
        } else if let Some((_, t)) = TOOLS.iter().find(|(k, _)| *k == key) {
            self.tool = *t;
            self.anchor = None;
        }
    }

    /// Moves the cursor, kept on the map.
    fn step(&mut self, dx: isize, dy: isize) {
        let (w, h) = self.draft.size();
        let (x, y) = self.cursor;
        self.cursor = (
            x.saturating_add_signed(dx).min(w.saturating_sub(1)),
            y.saturating_add_signed(dy).min(h.saturating_sub(1)),
        );
    }

    /// The tool put down at the cursor: a point or a fill at once; a
    /// line or rectangle's first point marked, then drawn at its second.
    fn put(&mut self) {
        let at = self.cursor;
        let cells = match (self.tool, self.anchor) {
            (Tool::Point, _) => vec![at],
            (Tool::Fill, _) => shapes::fill(&self.draft, at),
            (_, None) => {
                self.anchor = Some(at);
                return;
            }
            (Tool::Line, Some(a)) => shapes::line(a, at),
            (tool, Some(a)) => shapes::rect(a, at, tool == Tool::Filled),
        };
        self.anchor = None;
        self.paint(&cells);
    }

    /// Puts the brush on `cells`: one stroke, undone at once.
    fn paint(&mut self, cells: &[Cell]) {
        let glyph = self.brush.glyph();
        let mut stroke = Stroke::default();
        for &(x, y) in cells {
            if let Some(was) = self.draft.set(x, y, glyph)
                && was != glyph
            {
                stroke.0.push(((x, y), was, glyph));
            }
        }
        if stroke.0.is_empty() {
            return;
        }
        self.undo.push(stroke);
        self.redo.clear();
        self.drawn();
    }

    /// The last stroke undone.
    fn undo(&mut self) {
        let Some(stroke) = self.undo.pop() else {
            self.note = Some("nothing to undo".into());
            return;
        };
        for &((x, y), was, _) in stroke.0.iter().rev() {
            self.draft.set(x, y, was);
        }
        self.redo.push(stroke);
        self.drawn();
    }

    /// The last stroke undone done again.
    fn redo(&mut self) {
        let Some(stroke) = self.redo.pop() else {
            self.note = Some("nothing to redo".into());
            return;
        };
        for &((x, y), _, now) in &stroke.0 {
            self.draft.set(x, y, now);
        }
        self.undo.push(stroke);
        self.drawn();
    }

    /// The drawing changed: checked again.
    fn drawn(&mut self) {
        self.changed = true;
        self.check();
    }

    /// Saves the drawing; one that cannot be raced is saved as a draft
    /// only when asked twice (`twice`), after a warning.
    fn save(&mut self, twice: bool) {
        let raceable = self.checker.current() && self.checker.last.raceable();
        if !raceable && !twice {
            self.asked_once = Some(KeyName::Ctrl('s'));
            self.note = Some("not raceable yet: Ctrl-S again saves it as a draft".into());
            return;
        }
        let text = self.draft.text();
        match crate::base::files::write_atomic(&self.path, text.as_bytes(), || Ok(())) {
            Ok(()) => {
                self.changed = false;
                let what = if raceable {
                    "saved"
                } else {
                    "saved as a draft"
                };
                self.note = Some(format!("{what}: {}", self.path.display()));
            }
            Err(e) => self.note = Some(format!("not saved: {}: {e}", self.path.display())),
        }
    }

    /// Racing the drawing, if it can be raced; else why not, said.
    fn drive(&mut self) -> Asked {
        let last = &self.checker.last;
        if !self.checker.current() {
            self.note = Some("still checking: d again in a moment".into());
        } else if let Some(p) = last.problems.first() {
            self.note = Some(format!("not raceable yet: {}", p.message));
        } else {
            return Asked::Drive;
        }
        Asked::Nothing
    }

    /// Takes the checker's newest answer; returns whether it changed.
    pub fn poll(&mut self) -> bool {
        self.checker.poll()
    }

    /// How many strokes can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }
}
