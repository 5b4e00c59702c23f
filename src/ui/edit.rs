//! The track editor's screen: the map as its file draws it, one screen
//! cell a track cell, coloured by surface and scrolled to keep the cursor
//! in sight; beside it the palette (each brush and tool with its key),
//! where the cursor is, and what the checks say, the cells they are
//! about marked on the map. It reads the editor and changes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use crate::race::edit::brush::{BRUSHES, Brush, TOOLS};
use crate::race::edit::keys::{self, Act, KEYS};
use crate::race::edit::{self, Editor};

use super::column::{self, Piece};
use super::theme::THEME;

/// The key table's short words ([`KEYS`]), as many to a line as fit in
/// `cols`: the brush's size with its keys; publishing only on a server.
fn key_lines(editor: &Editor, cols: usize) -> impl Iterator<Item = String> {
    let shown = (KEYS.iter())
        .filter(|k| !k.short.is_empty())
        .filter(|k| k.act != Act::Publish || editor.served.is_some())
        .map(|k| match k.act {
            Act::Bigger => format!("{} {}", k.short, editor.size),
            _ => k.short.to_string(),
        });
    let mut lines: Vec<String> = Vec::new();
    for word in shown {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 2 + word.chars().count() <= cols => {
                line.push_str("  ");
                line.push_str(&word);
            }
            _ => lines.push(word),
        }
    }
    lines.into_iter()
}

/// The help over the editor: every key of the table in words, the
/// brushes and tools, the mouse.
fn help(buf: &mut Buffer, area: Rect) {
    let mut lines: Vec<String> = KEYS.iter().map(keys::entry).collect();
    let brushes: Vec<String> = (BRUSHES.iter())
        .map(|(k, _, name)| format!("{} {name}", k.label().to_lowercase()))
        .collect();
    let tools: Vec<String> = (TOOLS.iter())
        .map(|(k, t)| format!("{} {}", k.label().to_lowercase(), t.name()))
        .collect();
    let (first, rest) = brushes.split_at(4);
    lines.extend([
        format!("brushes: {}", first.join(", ")),
        format!("  {}, 1-9 checkpoints", rest.join(", ")),
        format!("tools: {}", tools.join(", ")),
        "mouse: press puts, drag paints, release ends a line or box".into(),
    ]);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    super::overlay::boxed(buf, area, "EDITOR KEYS · any key closes", &lines);
}

/// Draws `editor` on `buf` in `area`.
pub fn edit(buf: &mut Buffer, area: Rect, editor: &Editor) {
    buf.reset();
    let (cols, _) = edit::canvas((area.width, area.height));
    let canvas = Rect::new(area.x, area.y, cols as u16, area.height);
    let panel = Rect::new(
        canvas.right(),
        area.y,
        area.width - canvas.width,
        area.height,
    );
    map(buf, canvas, editor);
    let inner = panel.inner(ratatui::layout::Margin::new(1, 0));
    column::stack(buf, inner, pieces(editor, usize::from(inner.width)));
    if editor.awaiting == edit::Awaiting::Help {
        help(buf, area);
    }
}

/// The map, a cell each, the cursor reversed, the problems' cells
/// reversed in the bad colour (the warnings' in the accent), the first point of a line or rectangle underlined.
fn map(buf: &mut Buffer, area: Rect, editor: &Editor) {
    let (w, h) = editor.draft.size();
    let (cols, rows) = (usize::from(area.width), usize::from(area.height));
    let (x0, y0) = editor.view;
    let last = &editor.checker.last;
    let bad: Vec<_> = (last.problems.iter()).filter_map(|p| p.cell).collect();
    let warned: Vec<_> = (last.warnings.iter()).filter_map(|p| p.cell).collect();
    let line: std::collections::HashSet<_> = editor.overlay.cells.iter().copied().collect();
    for sy in 0..rows.min(h - y0.min(h)) {
        for sx in 0..cols.min(w - x0.min(w)) {
            let (x, y) = (x0 + sx, y0 + sy);
            let c = editor.draft.get(x, y).unwrap_or(' ');
            let mut style = Style::new().fg(colour(c));
            if bad.contains(&(x, y)) {
                style = style.fg(THEME.bad).add_modifier(Modifier::REVERSED);
            } else if warned.contains(&(x, y)) {
                style = style.fg(THEME.accent).add_modifier(Modifier::REVERSED);
            }
            if editor.anchor == Some((x, y)) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            if editor.cursor == (x, y) {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            let on_line = line.contains(&(x, y)) && matches!(c, ' ' | ',' | '.' | ':' | '~');
            if on_line {
                style = style.fg(THEME.accent);
            }
            let glyph = match c {
                '#' => '█',
                _ if on_line => '•',
                c => c,
            };
            let (px, py) = (area.x + sx as u16, area.y + sy as u16);
            buf[(px, py)].set_char(glyph).set_style(style);
        }
    }
}

/// A cell's colour by what its character is.
fn colour(c: char) -> Color {
    match c {
        '#' => THEME.faint,
        '.' => THEME.text,
        ':' => THEME.gravel,
        '~' => THEME.ice,
        '=' | '|' => THEME.finish,
        '1'..='9' => THEME.checkpoint,
        '>' | '<' | '^' | 'v' => THEME.you,
        _ => THEME.grass,
    }
}

/// The panel: the file (on a server, where it is kept); what the checks say and the note, first (what
/// is drawn is for them); the palette of brushes and tools, two to a line,
/// each with its key; the other keys; where the cursor is.
fn pieces(editor: &Editor, cols: usize) -> Vec<Piece<'static>> {
    let name = editor.kept_as();
    let changed = if editor.changed { " *" } else { "" };
    let mut out = vec![column::line(format!("EDIT {name}{changed}"), THEME.accent)];
    let called = editor.name().unwrap_or_else(|| "(no name)".into());
    out.push(column::line(
        format!("{called} · {} laps", editor.laps()),
        THEME.text,
    ));
    if let Some(p) = &editor.prompt {
        let what = match p.setting {
            edit::Setting::Name => "name",
            edit::Setting::Size => "size",
        };
        out.push(column::line(format!("{what}: {}_", p.text), THEME.accent));
        out.push(column::line("Enter sets it  Esc leaves it", THEME.faint));
    }
    out.extend(checks(editor, cols));
    if let Some((_, lookup)) = editor.medals {
        let said = format!("arcade: {}", super::medals::targets(lookup));
        out.extend(wrapped(&said, cols).map(|l| column::line(l, THEME.accent)));
    }
    if let Some(note) = &editor.note {
        out.extend(wrapped(note, cols).map(|l| column::line(l, THEME.accent)));
    }
    out.push(Piece::Gap);
    let same = |b: Brush| std::mem::discriminant(&editor.brush) == std::mem::discriminant(&b);
    let mut brushes: Vec<(bool, String)> = (BRUSHES.iter())
        .map(|(k, b, name)| {
            (
                same(*b),
                format!("{} {} {name}", k.label().to_lowercase(), shown(b.glyph())),
            )
        })
        .collect();
    brushes.push((same(Brush::Checkpoint(1)), "1-9 ckpt".to_string()));
    let tools = (TOOLS.iter()).map(|(k, t)| {
        (
            *t == editor.tool,
            format!("{} {}", k.label().to_lowercase(), t.name()),
        )
    });
    for pair in brushes.chunks(2).chain(tools.collect::<Vec<_>>().chunks(2)) {
        let line: Vec<String> = pair
            .iter()
            .map(|(on, t)| format!("{}{t:<11}", if *on { "›" } else { " " }))
            .collect();
        out.push(column::line(line.join(" "), THEME.dim));
    }
    out.extend(key_lines(editor, cols).map(|k| column::line(k, THEME.faint)));
    let (x, y) = editor.cursor;
    let (w, h) = editor.draft.size();
    let at = format!("{x},{y} of {w}x{h}  {}", editor.brush.name());
    out.push(column::line(at, THEME.text));
    if let Some(a) = editor.anchor {
        out.push(column::line(
            format!("from {},{}: Space ends it", a.0, a.1),
            THEME.accent,
        ));
    }
    out
}

/// A glyph as the palette shows it: grass, a blank in the file, as `·`.
fn shown(glyph: char) -> char {
    if glyph == ' ' { '·' } else { glyph }
}

/// What the checks say: raceable, checking, or each problem where it is.
fn checks(editor: &Editor, cols: usize) -> Vec<Piece<'static>> {
    let last = &editor.checker.last;
    if !editor.checker.current() && last.problems.is_empty() {
        return vec![column::line("checking…", THEME.dim)];
    }
    if last.raceable() {
        let said = wrapped("RACEABLE: a lap can be driven", cols);
        let mut out: Vec<Piece> = said.map(|l| column::line(l, THEME.good)).collect();
        for w in &last.warnings {
            let at = w.cell.map_or(String::new(), |(x, y)| format!("{x},{y}: "));
            let said = format!("{at}{}", w.message);
            out.extend(wrapped(&said, cols).map(|l| column::line(l, THEME.accent)));
        }
        return out;
    }
    let mut out = vec![column::line(
        format!("NOT RACEABLE ({})", last.problems.len()),
        THEME.bad,
    )];
    for p in &last.problems {
        let at = p.cell.map_or(String::new(), |(x, y)| format!("{x},{y}: "));
        let said = format!("{at}{}", p.message);
        out.extend(wrapped(&said, cols).map(|l| column::line(l, THEME.bad)));
    }
    out
}

/// `text` in lines of at most `cols` characters, broken between words
/// (a word longer than a line is cut).
fn wrapped(text: &str, cols: usize) -> impl Iterator<Item = String> {
    let cols = cols.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let (len, wlen) = (line.chars().count(), word.chars().count());
        if !line.is_empty() && len + 1 + wlen > cols {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_said_in_lines_that_fit() {
        let lines: Vec<String> = wrapped("no lap possible: the finish is walled off", 16).collect();
        assert_eq!(lines, ["no lap possible:", "the finish is", "walled off"]);
    }
}
