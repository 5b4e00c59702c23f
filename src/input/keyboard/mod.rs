//! A terminal's bytes to key events, for both front doors: the process's
//! own terminal (`crate::app::term`) and each `skid serve` session.
//!
//! terminput parses the bytes (the legacy xterm encodings and the kitty
//! keyboard protocol, releases included) into crossterm's events, and
//! [`win32`] Windows Terminal's win32-input-mode (releases too), so one
//! key handling serves every terminal and both doors. Bytes are
//! fed one at a time, as crossterm reads a tty: a sequence is complete
//! when the parser says so. A lone Esc is the Esc key when nothing follows
//! it in the same packet (terminals send a whole escape sequence at once),
//! not the start of a sequence lost on the way.
//!
//! Garbage (bytes that start no known sequence) is counted, so that a
//! client sending it can be cut off rather than obeyed. Mouse reports
//! are read only where they were asked for (the editor's, [`mouse`]),
//! else dropped unparsed; so are the
//! marks around a bracketed paste, which skid never asks for either:
//! what comes between them is read as keys, never held back waiting for
//! an end that may not come (q and Ctrl-C work at once after a lone
//! start mark).

use ratatui::crossterm::event::Event;

/// The longest sequence kept while waiting for its end: the longest a
/// terminal sends (kitty's key reports) is under 40 bytes.
const PENDING_CAP: usize = 64;

/// Parses one terminal's input.
#[derive(Debug, Default)]
pub struct Keyboard {
    pending: Vec<u8>,
    /// Bytes that were not part of any event, since the start.
    pub garbage: usize,
    /// The keys down in win32-input-mode.
    held: win32::Pressed,
    /// Whether [`releases_come`] was said.
    said_releases: bool,
    /// Whether mouse reports are read (the editor asked for them), not
    /// dropped.
    pub mouse: bool,
}

/// The event that says the terminal reports every key's release: the
/// release of a key that is none (`KeyCode::Null`), which lets nothing
/// go but tells the input layer to trust releases from now on, before
/// the first key let go. Said before the first win32-input-mode record,
/// whose every key is let go with a record of its own.
pub fn releases_come() -> Event {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
    Event::Key(KeyEvent {
        code: KeyCode::Null,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    })
}

impl Keyboard {
    /// A parser that reads mouse reports too ([`Keyboard::mouse`]).
    pub fn with_mouse() -> Keyboard {
        Keyboard {
            mouse: true,
            ..Keyboard::default()
        }
    }
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
        if mouse_report(&self.pending) || paste_mark(&self.pending) {
            if self.mouse {
                events.extend(mouse::event(&self.pending));
            }
            self.pending.clear();
            return;
        }
        if let [0x1b, b'[', rest @ ..] = self.pending.as_slice()
            && rest.iter().all(|&b| b.is_ascii_digit() || b == b';')
            && self.pending.len() < PENDING_CAP
        {
            // A CSI sequence's parameters so far: its final byte says
            // what it is.
            return;
        }
        if win32::whole(&self.pending) {
            if !self.said_releases {
                self.said_releases = true;
                events.push(releases_come());
            }
            match win32::event(&self.pending, &mut self.held) {
                Ok(ev) => events.extend(ev),
                Err(()) => self.garbage += self.pending.len(),
            }
            self.pending.clear();
            return;
        }
        match terminput::Event::parse_from(&self.pending) {
            Ok(Some(ev)) => {
                let kitty = kitty_report(&self.pending);
                self.pending.clear();
                if let Ok(ev) = terminput_crossterm::to_crossterm(ev) {
                    if kitty && !self.said_releases && is_char_key(&ev) {
                        self.said_releases = true;
                        events.push(releases_come());
                    }
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

/// Whether `seq` is a kitty keyboard protocol key report, `CSI ... u`.
fn kitty_report(seq: &[u8]) -> bool {
    matches!(seq, [0x1b, b'[', .., b'u'])
}

/// Whether `ev` is a key that types a character (a letter, a digit,
/// Space). Reported as `CSI ... u` only where the terminal honours the
/// kitty flag that reports every key so, which skid pushes together with
/// the one that reports releases: from such a report on, releases come
/// (said before the first key is let go, as for Windows Terminal).
/// Esc alone is reported so with the first flag only, and tells nothing.
fn is_char_key(ev: &Event) -> bool {
    use ratatui::crossterm::event::KeyCode;
    matches!(ev, Event::Key(k) if matches!(k.code, KeyCode::Char(c) if !c.is_control()))
}

/// Whether `seq` is the start or the end mark of a bracketed paste
/// (`ESC [ 200 ~`, `ESC [ 201 ~`).
fn paste_mark(seq: &[u8]) -> bool {
    matches!(seq, b"\x1b[200~" | b"\x1b[201~")
}

/// Whether `seq` is a whole SGR (`ESC [ < b ; x ; y M`) or rxvt
/// (`ESC [ b ; x ; y M`) mouse report. Only the editor asks for mouse
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

mod mouse;
mod win32;

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEventKind};

    fn keys(k: &mut Keyboard, bytes: &[u8]) -> Vec<(KeyCode, KeyEventKind)> {
        k.feed(bytes)
            .into_iter()
            .filter_map(|e| match e {
                Event::Key(k) if k.code != KeyCode::Null => Some((k.code, k.kind)),
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
    fn a_paste_mark_with_no_end_holds_no_key_back() {
        let mut k = Keyboard::default();
        assert_eq!(
            keys(&mut k, b"\x1b[200~q"),
            vec![(KeyCode::Char('q'), KeyEventKind::Press)]
        );
        // Ctrl-C at once after another start mark, in its own packet.
        assert!(keys(&mut k, b"\x1b[200~").is_empty());
        let ctrl_c = k.feed(b"\x03");
        assert!(
            matches!(&ctrl_c[..], [Event::Key(e)] if e.code == KeyCode::Char('c')),
            "{ctrl_c:?}"
        );
        // A whole paste: its text read as keys, its marks dropped.
        assert_eq!(
            keys(&mut k, b"\x1b[200~ab\x1b[201~"),
            vec![
                (KeyCode::Char('a'), KeyEventKind::Press),
                (KeyCode::Char('b'), KeyEventKind::Press)
            ]
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

    /// A letter reported in the kitty protocol's own form is sent only
    /// by a terminal that reports every key so, and releases with them:
    /// the first says so before it (nothing kept from the first press);
    /// a legacy letter, or Esc in that form (sent with the first flag
    /// alone), says nothing.
    #[test]
    fn a_kitty_letter_says_first_that_releases_come() {
        let mut k = Keyboard::default();
        assert!(!k.feed(b"w\x1b[27u").contains(&releases_come()));
        let events = k.feed(b"\x1b[119u\x1b[97u");
        assert_eq!(events.first(), Some(&releases_come()));
        assert_eq!(events.iter().filter(|e| **e == releases_come()).count(), 1);
        assert_eq!(
            keys(&mut k, b"\x1b[119;1:3u"),
            vec![(KeyCode::Char('w'), KeyEventKind::Release)]
        );
    }

    /// Windows Terminal's own records (win32-input-mode): W pressed,
    /// repeated as it is held, D pressed and let go meanwhile, Shift
    /// alone (no key), then W let go; arrows (an enhanced key, 0x100);
    /// Ctrl-C; a record split across packets.
    #[test]
    fn windows_terminal_presses_repeats_and_releases() {
        let mut k = Keyboard::default();
        // The first record says first that releases come.
        assert_eq!(k.feed(b"\x1b[16;42;0;1;16;1_"), vec![releases_come()]);
        let w_down = b"\x1b[87;17;119;1;0;1_";
        let mut bytes = w_down.to_vec();
        bytes.extend_from_slice(w_down);
        bytes.extend_from_slice(b"\x1b[68;32;100;1;0;1_\x1b[68;32;100;0;0;1_");
        bytes.extend_from_slice(b"\x1b[16;42;0;1;16;1_\x1b[16;42;0;0;0;1_");
        bytes.extend_from_slice(b"\x1b[87;17;119;0;0;1_");
        assert_eq!(
            keys(&mut k, &bytes),
            vec![
                (KeyCode::Char('w'), KeyEventKind::Press),
                (KeyCode::Char('w'), KeyEventKind::Repeat),
                (KeyCode::Char('d'), KeyEventKind::Press),
                (KeyCode::Char('d'), KeyEventKind::Release),
                (KeyCode::Char('w'), KeyEventKind::Release),
            ]
        );
        assert_eq!(
            keys(&mut k, b"\x1b[38;72;0;1;256;1_\x1b[38;72;0;0;256;1_"),
            vec![
                (KeyCode::Up, KeyEventKind::Press),
                (KeyCode::Up, KeyEventKind::Release),
            ]
        );
        let ctrl_c = k.feed(b"\x1b[17;29;0;1;8;1_\x1b[67;46;3;1;8;1_");
        assert!(!ctrl_c.contains(&releases_come()), "said once");
        let ctrl = ratatui::crossterm::event::KeyModifiers::CONTROL;
        assert!(
            matches!(&ctrl_c[..], [Event::Key(e)] if e.code == KeyCode::Char('c') && e.modifiers == ctrl),
            "{ctrl_c:?}"
        );
        assert!(keys(&mut k, b"\x1b[69;18;1").is_empty());
        assert_eq!(
            keys(&mut k, b"01;1;0;1_"),
            vec![(KeyCode::Char('e'), KeyEventKind::Press)]
        );
        assert_eq!(k.garbage, 0);
    }

    /// A key pressed with Shift and let go after it is released as the
    /// key that was pressed; a release never seen pressed is still one;
    /// numbers out of range are garbage.
    #[test]
    fn a_windows_release_is_of_the_key_pressed() {
        let mut k = Keyboard::default();
        let bytes = b"\x1b[87;17;87;1;16;1_\x1b[16;42;0;0;0;1_\x1b[87;17;119;0;0;1_";
        assert_eq!(
            keys(&mut k, bytes),
            vec![
                (KeyCode::Char('W'), KeyEventKind::Press),
                (KeyCode::Char('W'), KeyEventKind::Release),
            ]
        );
        assert_eq!(
            keys(&mut k, b"\x1b[65;30;97;0;0;1_"),
            vec![(KeyCode::Char('a'), KeyEventKind::Release)]
        );
        assert!(keys(&mut k, b"\x1b[99999999999;1;1;1;0;1_").is_empty());
        assert!(k.garbage > 0);
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

    /// Asked for (the editor), mouse reports are events, split across
    /// packets too; a report no terminal sends is still none.
    #[test]
    fn mouse_reports_asked_for_are_events() {
        let mut k = Keyboard {
            mouse: true,
            ..Keyboard::default()
        };
        let mut got = k.feed(b"\x1b[<0;3;");
        got.extend(k.feed(b"4Mw\x1b[<0;0;0M"));
        let mouse = |e: &Event| matches!(e, Event::Mouse(m) if (m.column, m.row) == (2, 3));
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(mouse(&got[0]), "{got:?}");
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
