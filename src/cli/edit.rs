//! `skid edit [FILE]` on the command line: the file opened (a new one if
//! there is none, a copy of a bundled track by its name), then the
//! editor run in the terminal until the person leaves it.

use std::path::{Path, PathBuf};

use crate::base::diag::{Diagnostic, Diagnostics};
use crate::race::edit::Editor;
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

/// `skid edit`: the editor in the terminal.
pub fn edit(file: Option<&str>, color: bool) -> Result<(), Diagnostics> {
    use std::io::IsTerminal;
    let (draft, path) = open(file)?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Diagnostics::from(Diagnostic::file(
            "skid",
            "the editor needs a terminal",
        )));
    }
    let mut editor = Editor::new(draft, path, true);
    crate::app::term::Local::enter()
        .and_then(|mut console| crate::app::edit::run(&mut console, &mut editor, color))
        .map_err(|e| Diagnostics::from(Diagnostic::file("terminal", e.to_string())))
}
