//! The race menu's rows as a selector: the title menu and a server room
//! draw their settings with these lines, so both read the same.

use ratatui::style::{Modifier, Style};

use super::theme::THEME;

/// A setting's row: the cursor mark, its label and, where the one
/// looking can change it, its value between arrows.
pub fn row(label: &str, value: &str, selected: bool, editable: bool) -> (String, Style) {
    let text = if editable {
        let mark = if selected { "›" } else { " " };
        format!("{mark} {label:<6} ◀ {value} ▶")
    } else {
        format!("  {label:<6} {value}")
    };
    let style = if selected {
        Style::new().fg(THEME.accent).add_modifier(Modifier::BOLD)
    } else {
        Style::new().fg(THEME.text)
    };
    (text, style)
}

/// The row that starts the race.
pub fn start(selected: bool) -> (String, Style) {
    button("Start race", selected)
}

/// A row that does `what` at Enter: `› [ what ]` selected.
pub fn button(what: &str, selected: bool) -> (String, Style) {
    if selected {
        let style = Style::new()
            .fg(THEME.accent)
            .add_modifier(Modifier::BOLD | Modifier::REVERSED);
        (format!("› [ {what} ]"), style)
    } else {
        (format!("  [ {what} ]"), Style::new().fg(THEME.text))
    }
}
