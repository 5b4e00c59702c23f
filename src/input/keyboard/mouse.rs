//! SGR mouse reports (`ESC [ < b ; x ; y M`, `m` on release) to mouse
//! events, read here rather than by terminput, which panics on a column
//! or row of 0 (no terminal sends one; any client can). Only the left
//! button's presses, drags and releases, and the others' presses, are
//! events; anything else in a report is dropped.

use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

/// The event of the whole report `seq`, if it is an SGR report of one.
pub fn event(seq: &[u8]) -> Option<Event> {
    let body = seq.strip_prefix(b"\x1b[<")?;
    let (last, body) = body.split_last()?;
    let numbers: Vec<u16> = std::str::from_utf8(body)
        .ok()?
        .split(';')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let [b, x, y] = numbers[..] else {
        return None;
    };
    let (column, row) = (x.checked_sub(1)?, y.checked_sub(1)?);
    let button = match b & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        2 => MouseButton::Right,
        _ => return None,
    };
    let kind = match (last, b & 32 != 0) {
        (b'm', _) => MouseEventKind::Up(button),
        (b'M', true) => MouseEventKind::Drag(button),
        (b'M', false) if b < 64 => MouseEventKind::Down(button),
        _ => return None,
    };
    Some(Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(seq: &[u8]) -> Option<(MouseEventKind, u16, u16)> {
        match event(seq)? {
            Event::Mouse(m) => Some((m.kind, m.column, m.row)),
            _ => None,
        }
    }

    #[test]
    fn presses_drags_and_releases_are_read_where_they_are() {
        let left = MouseButton::Left;
        assert_eq!(
            kind(b"\x1b[<0;5;3M"),
            Some((MouseEventKind::Down(left), 4, 2))
        );
        assert_eq!(
            kind(b"\x1b[<32;6;3M"),
            Some((MouseEventKind::Drag(left), 5, 2))
        );
        assert_eq!(
            kind(b"\x1b[<0;6;3m"),
            Some((MouseEventKind::Up(left), 5, 2))
        );
    }

    #[test]
    fn what_no_terminal_sends_is_no_event() {
        for bad in [
            &b"\x1b[<0;0;3M"[..],
            b"\x1b[<0;5;0M",
            b"\x1b[<0;5M",
            b"\x1b[<0;99999;3M",
            b"\x1b[<64;5;3M",
            b"\x1b[<x;5;3M",
            b"\x1b[<0;5;3;1M",
        ] {
            assert_eq!(kind(bad), None, "{bad:?}");
        }
    }
}
