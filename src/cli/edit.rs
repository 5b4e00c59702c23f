//! `skid edit [FILE]` on the command line: the file opened (a new one if
//! there is none, a copy of a bundled track by its name), then the
//! editor run in the terminal until the person leaves it.

use crate::base::diag::{Diagnostic, Diagnostics};
use crate::race::edit::Editor;

/// `skid edit`: the editor in the terminal.
pub fn edit(file: Option<&str>, color: bool) -> Result<(), Diagnostics> {
    use std::io::IsTerminal;
    let (draft, path) = crate::app::edit::open(file)?;
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
