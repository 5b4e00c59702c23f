//! The track editor's state (`skid edit`): a track file being drawn
//! ([`Draft`]), a cursor and the view of the map around it, the brush (of
//! a size) and tool chosen, every stroke undone and redone without limit,
//! what the checks say of the drawing as it is now ([`check`]), and the
//! medals of the track saved (timed on a medal book's thread). Keys come
//! in as [`KeyName`]s and mouse reports as cells of the screen, from
//! whichever door the person came through, which races the drawing when
//! asked ([`Asked::Drive`]); the screen is the UI's, which reads this and
//! never changes it.

pub mod brush;
pub mod check;
mod events;
pub mod keep;
pub mod keys;
pub mod line;
mod settings;
pub mod shapes;
mod trial;

pub use settings::{Prompt, Setting};

use std::path::PathBuf;

use ratatui::crossterm::event::{MouseButton, MouseEventKind};

use crate::input::keys::KeyName;
use crate::race::medals::book::{Book, LapKey, Lookup};
use crate::track::draft::Draft;

use brush::{Brush, TOOLS, Tool};
use check::Checker;
use keys::Act;
use shapes::Cell;

/// The largest brush: a square of 9 x 9 cells.
pub const MAX_SIZE: usize = 9;

/// The columns of the panel beside the map on the editor's screen.
pub const PANEL: u16 = 28;

/// The map's part of a screen of `w` x `h` (the panel has the rest, on
/// the right): columns and rows.
pub fn canvas((w, h): (u16, u16)) -> (usize, usize) {
    (usize::from(w - PANEL.min(w / 2)), usize::from(h))
}

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
    /// To race it from the cursor, facing `>` `v` `<` or `^`
    /// ([`Editor::text_from_cursor`]).
    DriveHere(char),
    /// To keep the drawing where its door keeps tracks (a server's
    /// database): [`Editor::kept`] says what came of it.
    Save,
    /// To publish the track saved, or (published) take it back.
    Publish,
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
    /// The brush's size: a square this many cells a side where a point
    /// or line puts it down (1 to [`MAX_SIZE`]).
    pub size: usize,
    undo: Vec<Stroke>,
    redo: Vec<Stroke>,
    /// The checks of the drawing.
    pub checker: Checker,
    /// Whether the drawing differs from the file saved.
    pub changed: bool,
    /// A line for the person: saved where, or why not.
    pub note: Option<String>,
    /// The screen's size, columns and rows ([`Editor::resize`]).
    pub screen: (u16, u16),
    /// The map's cell at the canvas's top left: moved only to keep the
    /// cursor in sight, so what is under the mouse stays put.
    pub view: Cell,
    /// While the mouse draws with the point tool, where in the undo
    /// history its stroke is (or is to be): each cell it is dragged over
    /// joins the stroke its press began.
    dragging: Option<usize>,
    /// The setting being typed, if one is.
    pub prompt: Option<Prompt>,
    /// The computer's racing line over the drawing, when asked for.
    pub overlay: line::Overlay,
    /// Whether slow work (checks, the line, medals) is done on threads
    /// of its own.
    background: bool,
    /// The medal book that times the computer on a saved track, off the
    /// keys' loop (none where the checks are made at once: tests).
    book: Option<Book>,
    /// The medals of the track saved last, in `arcade` with its own car:
    /// their key, and what the book knows of them.
    pub medals: Option<(LapKey, Lookup)>,
    /// Whether a key that needs saying twice (leave with changes unsaved,
    /// save an unraceable track) was said once.
    pub asked_once: Option<KeyName>,
    /// Where the editor is a server's, what the server knows of the
    /// track kept (none: `path` is the file it is saved to).
    pub served: Option<keep::Served>,
    /// The largest map the editor makes, columns and rows.
    pub largest: (usize, usize),
    /// What the next key answers before the key table does.
    pub awaiting: Awaiting,
}

/// What the editor's next key answers, before its key table does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Awaiting {
    /// Nothing: the key does what the table says.
    #[default]
    Nothing,
    /// The help is open: any key closes it.
    Help,
    /// An arrow: the way to race from the cursor.
    Heading,
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
            size: 1,
            undo: Vec::new(),
            redo: Vec::new(),
            checker: Checker::new(background),
            prompt: None,
            overlay: line::Overlay::default(),
            background,
            book: background.then(|| Book::open(None)),
            medals: None,
            changed: false,
            note: None,
            asked_once: None,
            served: None,
            largest: (settings::SIDE_MAX, settings::SIDE_MAX),
            awaiting: Awaiting::Nothing,
            screen: (80, 24),
            view: (0, 0),
            dragging: None,
        };
        editor.follow();
        editor.check();
        editor
    }

    /// The drawing's text, to be checked.
    fn check(&mut self) {
        let map_line = self.draft.map_line();
        self.checker.ask(self.draft.text(), map_line);
    }

    /// Applies the key `key`: to the setting being typed, if one is;
    /// else closing the help, or the heading to race from the cursor
    /// with; else what the key table ([`keys::KEYS`]) or the palette
    /// says it does.
    pub fn key(&mut self, key: KeyName) -> Asked {
        if self.prompt.is_some() {
            self.prompted(key);
            return Asked::Nothing;
        }
        match std::mem::take(&mut self.awaiting) {
            Awaiting::Help => return Asked::Nothing,
            Awaiting::Heading => return self.drive_facing(key),
            Awaiting::Nothing => {}
        }
        let twice = self.asked_once.take() == Some(key);
        self.note = None;
        if key == KeyName::Esc && self.anchor.is_some() {
            self.anchor = None;
            return Asked::Nothing;
        }
        let Some(act) = keys::act(key) else {
            self.choose(key);
            return Asked::Nothing;
        };
        match act {
            Act::Move => {
                let (dx, dy) = arrow(key);
                self.step(dx, dy);
            }
            Act::Put => self.put(),
            Act::Undo => self.undo(),
            Act::Redo => self.redo(),
            Act::Save => return self.save(twice),
            Act::Publish => return self.publish(twice),
            Act::Drive => return self.drive(),
            Act::DriveHere => {
                self.awaiting = Awaiting::Heading;
                self.note = Some("race from here: an arrow faces the car".into());
            }
            Act::RacingLine => self.toggle_line(),
            Act::Name => self.ask(Setting::Name),
            Act::Size => self.ask(Setting::Size),
            Act::FewerLaps => self.add_laps(-1),
            Act::MoreLaps => self.add_laps(1),
            Act::Smaller => self.size = (self.size - 1).max(1),
            Act::Bigger => self.size = (self.size + 1).min(MAX_SIZE),
            Act::Help => self.awaiting = Awaiting::Help,
            Act::Leave => {
                if !self.changed || twice {
                    return Asked::Leave;
                }
                self.asked_once = Some(key);
                self.note = Some("changes not saved: again to leave, Ctrl-S saves".into());
            }
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

    /// Moves the cursor, kept on the map (and in sight).
    fn step(&mut self, dx: isize, dy: isize) {
        let (w, h) = self.draft.size();
        let (x, y) = self.cursor;
        self.cursor = (
            x.saturating_add_signed(dx).min(w.saturating_sub(1)),
            y.saturating_add_signed(dy).min(h.saturating_sub(1)),
        );
        self.follow();
    }

    /// The screen is `w` x `h` now.
    pub fn resize(&mut self, w: u16, h: u16) {
        self.screen = (w, h);
        self.follow();
    }

    /// The view moved, if it must be, to keep the cursor in sight with a
    /// quarter of the canvas to spare before its edge.
    fn follow(&mut self) {
        let (cols, rows) = canvas(self.screen);
        let (w, h) = self.draft.size();
        self.view = (
            follow(self.view.0, self.cursor.0, cols, w),
            follow(self.view.1, self.cursor.1, rows, h),
        );
    }

    /// A mouse report at column `col`, row `row` of the screen: on the
    /// map, the cursor goes there; a press puts the tool down there (a
    /// line's or rectangle's first corner), a drag with the point tool
    /// paints on through the cells it crosses (one stroke, press to
    /// release), and a release ends a line or rectangle there.
    pub fn mouse(&mut self, kind: MouseEventKind, col: u16, row: u16) {
        let (cols, rows) = canvas(self.screen);
        let (w, h) = self.draft.size();
        let (x, y) = (
            self.view.0 + usize::from(col),
            self.view.1 + usize::from(row),
        );
        if usize::from(col) >= cols || usize::from(row) >= rows || x >= w || y >= h {
            return;
        }
        let (from, at) = (self.cursor, (x, y));
        self.cursor = at;
        self.note = None;
        match kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.anchor = None;
                self.dragging = (self.tool == Tool::Point).then_some(self.undo.len());
                self.put();
            }
            MouseEventKind::Drag(MouseButton::Left) if self.dragging.is_some() => {
                self.paint(&shapes::thick(&shapes::line(from, at), self.size));
            }
            MouseEventKind::Up(MouseButton::Left) => {
                self.dragging = None;
                if self.tool.two_points() && self.anchor.is_some_and(|a| a != at) {
                    self.put();
                }
            }
            _ => {}
        }
    }

    /// The tool put down at the cursor: a point or a fill at once; a
    /// line or rectangle's first point marked, then drawn at its second.
    fn put(&mut self) {
        let at = self.cursor;
        let cells = match (self.tool, self.anchor) {
            (Tool::Point, _) => shapes::thick(&[at], self.size),
            (Tool::Fill, _) => shapes::fill(&self.draft, at),
            (_, None) => {
                self.anchor = Some(at);
                return;
            }
            (Tool::Line, Some(a)) => shapes::thick(&shapes::line(a, at), self.size),
            (tool, Some(a)) => shapes::rect(a, at, tool == Tool::Filled),
        };
        self.anchor = None;
        self.paint(&cells);
    }

    /// Puts the brush on `cells`: a stroke undone at once, or more of
    /// the one the mouse's press began (`dragging`).
    fn paint(&mut self, cells: &[Cell]) {
        let glyph = self.brush.glyph();
        let changed: Vec<_> = (cells.iter())
            .filter_map(|&(x, y)| {
                let was = self.draft.set(x, y, glyph)?;
                (was != glyph).then_some(((x, y), was, glyph))
            })
            .collect();
        if changed.is_empty() {
            return;
        }
        match self.dragging {
            Some(i) if i < self.undo.len() => self.undo[i].0.extend(changed),
            _ => self.undo.push(Stroke(changed)),
        }
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

    /// The drawing changed: checked again; the racing line shown is
    /// no longer its own, and goes.
    fn drawn(&mut self) {
        self.changed = true;
        self.overlay = line::Overlay::default();
        self.check();
    }

    /// Takes the checker's newest answer and the medals timed; returns
    /// whether anything changed.
    pub fn poll(&mut self) -> bool {
        let checked = self.checker.poll() | self.line_came();
        let timed = self.book.as_mut().is_some_and(Book::poll);
        if timed && let (Some(book), Some((key, lookup))) = (&self.book, &mut self.medals) {
            *lookup = book.get(key);
        }
        checked || timed
    }

    /// How many strokes can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }
}

/// The step an arrow key takes the cursor.
fn arrow(key: KeyName) -> (isize, isize) {
    match key {
        KeyName::Up => (0, -1),
        KeyName::Down => (0, 1),
        KeyName::Left => (-1, 0),
        KeyName::Right => (1, 0),
        _ => (0, 0),
    }
}

/// Where a view of `room` cells along a map `len` long begins, from
/// `view`, so that `at` is in sight with a quarter of the room to spare
/// from either edge (where the map allows): the view moves only when it
/// must.
fn follow(view: usize, at: usize, room: usize, len: usize) -> usize {
    if len <= room {
        return 0;
    }
    let spare = room / 4;
    let view = if at < view + spare {
        at.saturating_sub(spare)
    } else if at + spare >= view + room {
        (at + spare + 1).saturating_sub(room)
    } else {
        view
    };
    view.min(len - room)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `+` grows the brush, `-` shrinks it, never past its limits; a
    /// point puts a square of its size down, one stroke.
    #[test]
    fn a_larger_brush_puts_a_square_down() {
        let dir = std::env::temp_dir();
        let mut e = Editor::new(Draft::new(20, 10), dir.join("never-saved.track"), false);
        for key in ['+', '=', 'a'] {
            e.key(KeyName::Char(key));
        }
        e.key(KeyName::Space);
        let (x, y) = e.cursor;
        let painted = (0..20)
            .flat_map(|cx| (0..10).map(move |cy| (cx, cy)))
            .filter(|&(cx, cy)| e.draft.get(cx, cy) == Some('.'))
            .count();
        assert_eq!(painted, 9);
        assert_eq!(
            (e.draft.get(x - 1, y - 1), e.draft.get(x + 1, y + 1)),
            (Some('.'), Some('.'))
        );
        assert_eq!(e.history(), (1, 0));
        for _ in 0..20 {
            e.key(KeyName::Char('+'));
        }
        assert_eq!(e.size, MAX_SIZE);
        for _ in 0..20 {
            e.key(KeyName::Char('-'));
        }
        assert_eq!(e.size, 1);
    }

    #[test]
    fn the_view_moves_only_to_keep_the_cursor_in_sight() {
        // A map that fits: always from its start.
        assert_eq!(follow(0, 40, 80, 50), 0);
        // Inside the middle half: the view stays.
        assert_eq!(follow(10, 40, 50, 200), 10);
        // Near the right edge: moved on so a quarter is to spare.
        assert_eq!(follow(10, 50, 50, 200), 13);
        // Near the left edge, and at the map's ends.
        assert_eq!(follow(100, 105, 50, 200), 93);
        assert_eq!(follow(100, 0, 50, 200), 0);
        assert_eq!(follow(0, 199, 50, 200), 150);
    }
}
