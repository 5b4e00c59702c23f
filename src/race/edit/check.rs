//! Whether what is drawn works, checked as it is drawn: the same checks
//! as `skid check` (the file parsed, a lap possible), their problems in
//! words with the cell each is at. A large track takes milliseconds to
//! check, so the editor asks a thread of its own (the newest drawing
//! wins; older ones are skipped) and never makes a keystroke wait; tests
//! and headless runs check at once.

use std::sync::mpsc::{Receiver, SendError, Sender, channel};

use crate::base::diag::Diagnostic;
use crate::track::{self, course};

use super::shapes::Cell;

/// One thing wrong with the drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The map's cell it is at (none: the file's front matter, or the
    /// track as a whole).
    pub cell: Option<Cell>,
    pub message: String,
}

/// What the last check found, and of which drawing (its number).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    pub drawing: u64,
    /// What keeps a lap from being raced.
    pub problems: Vec<Problem>,
    /// What `skid check` warns of in a raceable track: lines that can be
    /// driven around.
    pub warnings: Vec<Problem>,
}

impl Checked {
    /// Whether a lap of the drawing can be raced.
    pub fn raceable(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What is wrong with a track file's `text`, whose map begins on line
/// `map_line`: its problems, then (a raceable track's) its warnings.
pub fn check(text: &str, map_line: usize) -> (Vec<Problem>, Vec<Problem>) {
    let said = |d: &Diagnostic| Problem {
        cell: (d.pos)
            .filter(|p| p.line >= map_line && !of_the_whole(&d.message))
            .map(|p| (p.col.saturating_sub(1), p.line - map_line)),
        message: d
            .message
            .strip_prefix("warning: ")
            .unwrap_or(&d.message)
            .to_string(),
    };
    match track::parse("track", text.as_bytes()) {
        Err(ds) => (ds.iter().map(said).collect(), Vec::new()),
        Ok(t) => match course::raceable(t, "track") {
            Ok(t) => (
                Vec::new(),
                course::drive_arounds(&t, "track")
                    .iter()
                    .map(said)
                    .collect(),
            ),
            Err(d) => (vec![said(&d)], Vec::new()),
        },
    }
}

/// Whether the parser's `message` is about the whole map, not the cell
/// it is placed at (the map's first): nothing to mark on the canvas.
fn of_the_whole(message: &str) -> bool {
    ["no start slot", "no finish line", "empty map"]
        .iter()
        .any(|m| message.starts_with(m))
}

/// Checks drawings on a thread of its own (or at once).
pub struct Checker {
    /// Drawings to check, to the thread (none: checked at once).
    ask: Option<Sender<(u64, String, usize)>>,
    answers: Option<Receiver<Checked>>,
    /// The drawings asked about so far.
    asked: u64,
    /// The newest answer.
    pub last: Checked,
}

impl Checker {
    /// A checker on a thread of its own (`background`), else one that
    /// checks at once.
    pub fn new(background: bool) -> Checker {
        let mut checker = Checker {
            ask: None,
            answers: None,
            asked: 0,
            last: Checked::default(),
        };
        if background {
            let (ask, asked) = channel::<(u64, String, usize)>();
            let (tell, answers) = channel();
            let spawned = std::thread::Builder::new()
                .name("skid-check".into())
                .spawn(move || {
                    while let Ok(mut next) = asked.recv() {
                        // Only the newest drawing is worth checking.
                        while let Ok(newer) = asked.try_recv() {
                            next = newer;
                        }
                        let (drawing, text, map_line) = next;
                        let (problems, warnings) = check(&text, map_line);
                        let answer = Checked {
                            drawing,
                            problems,
                            warnings,
                        };
                        if tell.send(answer).is_err() {
                            return;
                        }
                    }
                });
            if spawned.is_ok() {
                checker.ask = Some(ask);
                checker.answers = Some(answers);
            }
        }
        checker
    }

    /// Asks for the drawing `text` (its map from line `map_line`) to be
    /// checked; returns its number.
    pub fn ask(&mut self, text: String, map_line: usize) -> u64 {
        self.asked += 1;
        let drawing = self.asked;
        // Handed to the thread whole; what it cannot take comes back.
        let text = match &self.ask {
            Some(ask) => match ask.send((drawing, text, map_line)) {
                Ok(()) => return drawing,
                Err(SendError((_, text, _))) => text,
            },
            None => text,
        };
        let (problems, warnings) = check(&text, map_line);
        self.last = Checked {
            drawing,
            problems,
            warnings,
        };
        drawing
    }

    /// Takes the thread's newest answer; returns whether there was one.
    pub fn poll(&mut self) -> bool {
        let Some(answers) = &self.answers else {
            return false;
        };
        let mut got = false;
        while let Ok(checked) = answers.try_recv() {
            self.last = checked;
            got = true;
        }
        got
    }

    /// Whether the newest answer is about the newest drawing.
    pub fn current(&self) -> bool {
        self.last.drawing == self.asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "+++\nname = \"x\"\n+++\n";

    #[test]
    fn a_problem_is_at_the_cell_it_is_about() {
        let text = format!("{HEAD}#######\n#>  2 #\n#######\n");
        let found = check(&text, 4).0;
        let at = |cell| {
            found
                .iter()
                .find(|p| p.cell == Some(cell))
                .map(|p| &p.message[..12])
        };
        assert_eq!(at((4, 1)), Some("checkpoint 2"), "{found:?}");
        assert_eq!(at((1, 1)), Some("start slot t"), "{found:?}");
        // A new track wants a start and a finish: nowhere in particular.
        let new = crate::track::draft::Draft::new(12, 6);
        let wants = check(&new.text(), new.map_line()).0;
        assert_eq!(wants.len(), 2, "{wants:?}");
        assert!(wants.iter().all(|p| p.cell.is_none()), "{wants:?}");
        let pocket = crate::track::bundled::TRACKS[0].1;
        let map_line = crate::track::draft::Draft::read(pocket).map_line();
        assert_eq!(check(pocket, map_line).0, []);
    }

    #[test]
    fn the_thread_answers_the_newest_drawing() {
        let mut c = Checker::new(true);
        c.ask(format!("{HEAD}###\n"), 4);
        let last = c.ask(format!("{HEAD}#x#\n"), 4);
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            c.poll();
            if c.current() {
                break;
            }
            assert!(std::time::Instant::now() < until, "no answer");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(c.last.drawing, last);
        assert!(
            c.last.problems.iter().any(|p| p.cell == Some((1, 0))),
            "{:?}",
            c.last
        );
    }
}
