//! A session's bytes to key events.
//!
//! terminput parses the bytes (the legacy xterm encodings and the kitty
//! keyboard protocol, releases included) into the same crossterm events
//! the local terminal gives, so one key handling serves both. Bytes are
//! fed one at a time, as crossterm reads a tty: a sequence is complete
//! when the parser says so. A lone Esc is the Esc key when nothing follows
//! it in the same packet (terminals send a whole escape sequence at once),
//! not the start of a sequence lost on the way.
//!
//! Garbage (bytes that start no known sequence) is counted, so that a
//! client sending it can be cut off rather than obeyed. Mouse reports,
//! which the server never asks for, are dropped unparsed.

use ratatui::crossterm::event::Event;

/// The longest sequence kept while waiting for its end: the longest a
/// terminal sends (kitty's key reports) is under 40 bytes.
const PENDING_CAP: usize = 64;

/// Parses one session's input.
#[derive(Debug, Default)]
pub struct Keyboard {
    pending: Vec<u8>,
    /// Bytes that were not part of any event, since the start.
    pub garbage: usize,
}

impl Keyboard {
    /// The events in one packet of input, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        for (i, &b) in bytes.iter().enumerate() {
            self.pending.push(b);
            let more = i + 1 < bytes.len();
            if self.pending == [0x1b] && more {
                // Esc followed in the same packet: a sequence's start.
                continue;
            }
            self.parse(&mut events);
        }
        if self.pending == [0x1b] {
            // A packet that ends in a lone Esc: the Esc key.
            self.parse(&mut events);
        }
        events
    }

    fn parse(&mut self, events: &mut Vec<Event>) {
        if mouse_report(&self.pending) {
            self.pending.clear();
            return;
        }
        match terminput::Event::parse_from(&self.pending) {
            Ok(Some(ev)) => {
                self.pending.clear();
                if let Ok(ev) = terminput_crossterm::to_crossterm(ev) {
                    events.push(ev);
                }
            }
            Ok(None) if self.pending.len() < PENDING_CAP => {}
            Ok(None) | Err(_) => {
                self.garbage += self.pending.len();
                self.pending.clear();
            }
        }
    }
}

/// Whether `seq` is a whole SGR (`ESC [ < b ; x ; y M`) or rxvt
/// (`ESC [ b ; x ; y M`) mouse report. The server never asks for mouse
/// reports, so they are no keys; and terminput, given a column or row of
/// 0 (which no terminal sends, but any client can), subtracts 1 from it
/// and panics where overflow is checked. Dropped before it parses them.
/// (X10 reports, `ESC [ M` and three bytes, it parses safely.)
fn mouse_report(seq: &[u8]) -> bool {
    match seq {
        [0x1b, b'[', b'<', .., b'M' | b'm'] => true,
        [0x1b, b'[', first, .., b'M'] => first.is_ascii_digit(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEventKind};

    fn keys(k: &mut Keyboard, bytes: &[u8]) -> Vec<(KeyCode, KeyEventKind)> {
        k.feed(bytes)
            .into_iter()
            .filter_map(|e| match e {
                Event::Key(k) => Some((k.code, k.kind)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn letters_arrows_and_a_lone_esc() {
        let mut k = Keyboard::default();
        assert_eq!(
            keys(&mut k, b"w\x1b[Aa"),
            vec![
                (KeyCode::Char('w'), KeyEventKind::Press),
                (KeyCode::Up, KeyEventKind::Press),
                (KeyCode::Char('a'), KeyEventKind::Press),
            ]
        );
        assert_eq!(
            keys(&mut k, b"\x1b"),
            vec![(KeyCode::Esc, KeyEventKind::Press)]
        );
        assert_eq!(k.garbage, 0);
    }

    #[test]
    fn a_sequence_split_across_packets_is_one_key() {
        let mut k = Keyboard::default();
        assert!(keys(&mut k, b"\x1b[").is_empty());
        assert_eq!(
            keys(&mut k, b"B"),
            vec![(KeyCode::Down, KeyEventKind::Press)]
        );
    }

    #[test]
    fn kitty_releases_are_understood() {
        let mut k = Keyboard::default();
        // 'w' (119) pressed, repeated, released, with event types reported.
        assert_eq!(
            keys(&mut k, b"\x1b[119u\x1b[119;1:2u\x1b[119;1:3u"),
            vec![
                (KeyCode::Char('w'), KeyEventKind::Press),
                (KeyCode::Char('w'), KeyEventKind::Repeat),
                (KeyCode::Char('w'), KeyEventKind::Release),
            ]
        );
    }

    #[test]
    fn mouse_reports_are_no_keys_even_at_column_zero() {
        let mut k = Keyboard::default();
        for report in [
            &b"\x1b[<0;0;0M"[..],
            b"\x1b[<64;0;9m",
            b"\x1b[32;0;0M",
            b"\x1b[M !!",
        ] {
            assert_eq!(keys(&mut k, report), vec![], "{report:?}");
        }
        assert_eq!(
            keys(&mut k, b"\x1b[<0;1;1Mw"),
            vec![(KeyCode::Char('w'), KeyEventKind::Press)]
        );
        assert_eq!(k.garbage, 0);
    }

    #[test]
    fn garbage_is_counted_not_obeyed() {
        let mut k = Keyboard::default();
        // A sequence that never ends: dropped, whole, at the cap.
        let mut junk = b"\x1b[".to_vec();
        junk.extend(std::iter::repeat_n(b'9', PENDING_CAP - 2));
        assert!(keys(&mut k, &junk).is_empty());
        assert_eq!(k.garbage, PENDING_CAP);
        // And it recovers.
        assert_eq!(
            keys(&mut k, b"q"),
            vec![(KeyCode::Char('q'), KeyEventKind::Press)]
        );
    }
}
