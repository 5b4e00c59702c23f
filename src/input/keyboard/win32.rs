//! Windows Terminal's win32-input-mode, which skid asks for with
//! `CSI ? 9001 h` beside the kitty flags: every key, pressed and let go,
//! as `CSI Vk ; Sc ; Uc ; Kd ; Cs ; Rc _` (Windows Terminal 1.18 and
//! later; it passes over SSH like any input). `Vk` is the Windows
//! virtual-key code, `Sc` the scan code, `Uc` the character typed (0 for
//! none), `Kd` 1 for down and 0 for up, `Cs` the modifier state, `Rc` the
//! repeat count; a parameter left out is 0 (`Rc`: 1).
//!
//! A key held repeats as further downs: a down for a key already down is
//! a repeat. A key's up is reported as the key its down was, whatever the
//! modifiers did meanwhile (W pressed with Shift, Shift let go, then W:
//! the release is of the `W` that was pressed). Keys that are modifiers
//! alone (Shift, Ctrl, Alt, the Windows keys, the locks) are no keys.

use ratatui::crossterm::event::KeyModifiers;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState};

/// The most keys held at once that are remembered (a keyboard has fewer).
const MAX_HELD: usize = 32;

/// Keys down, by virtual-key code, with the key each was pressed as.
#[derive(Debug, Default)]
pub struct Pressed(Vec<(u16, KeyCode)>);

/// Whether `seq` is a whole win32-input-mode record: `ESC [`, at most six
/// numbers separated by `;`, then `_`.
pub fn whole(seq: &[u8]) -> bool {
    match seq {
        [0x1b, b'[', body @ .., b'_'] => {
            body.iter().all(|&b| b.is_ascii_digit() || b == b';')
                && body.split(|&b| b == b';').count() <= 6
        }
        _ => false,
    }
}

/// The key event of a whole record ([`whole`]): none for a modifier key
/// alone, or a record that names no key; `Err` for numbers out of range.
pub fn event(seq: &[u8], held: &mut Pressed) -> Result<Option<Event>, ()> {
    let body = &seq[2..seq.len() - 1];
    let mut p = [0u32, 0, 0, 0, 0, 1];
    for (i, field) in body.split(|&b| b == b';').enumerate() {
        if !field.is_empty() {
            let text = std::str::from_utf8(field).map_err(|_| ())?;
            p[i] = text.parse().map_err(|_| ())?;
        }
    }
    let [vk, _scan, uc, down, state, _repeats] = p;
    let vk = u16::try_from(vk).map_err(|_| ())?;
    if modifier_alone(vk) {
        return Ok(None);
    }
    let modifiers = modifiers(state, uc);
    if down == 0 {
        let Some(i) = held.0.iter().position(|(v, _)| *v == vk) else {
            // Up of a key never seen down (pressed before skid asked).
            return Ok(code(vk, uc, modifiers).map(|c| key(c, modifiers, KeyEventKind::Release)));
        };
        let (_, code) = held.0.remove(i);
        return Ok(Some(key(code, modifiers, KeyEventKind::Release)));
    }
    if let Some((_, code)) = held.0.iter().find(|(v, _)| *v == vk) {
        return Ok(Some(key(*code, modifiers, KeyEventKind::Repeat)));
    }
    let Some(code) = code(vk, uc, modifiers) else {
        return Ok(None);
    };
    if held.0.len() < MAX_HELD {
        held.0.push((vk, code));
    }
    Ok(Some(key(code, modifiers, KeyEventKind::Press)))
}

fn key(code: KeyCode, modifiers: KeyModifiers, kind: KeyEventKind) -> Event {
    Event::Key(KeyEvent {
        code,
        modifiers,
        kind,
        state: KeyEventState::NONE,
    })
}

/// Shift, Ctrl, Alt (each side too), the Windows keys, the lock keys.
fn modifier_alone(vk: u16) -> bool {
    matches!(vk, 0x10..=0x12 | 0x14 | 0x5B | 0x5C | 0x90 | 0x91 | 0xA0..=0xA5)
}

/// The modifiers of a control key state: Shift (0x10), either Ctrl (0x04,
/// 0x08), either Alt (0x01, 0x02). `AltGr`, which Windows reports as right
/// Alt and left Ctrl, typing a character (`uc`), is neither.
fn modifiers(state: u32, uc: u32) -> KeyModifiers {
    let mut m = KeyModifiers::NONE;
    if state & 0x10 != 0 {
        m |= KeyModifiers::SHIFT;
    }
    let ctrl = state & 0x0c != 0;
    let alt = state & 0x03 != 0;
    if ctrl && alt && uc >= 0x20 {
        return m;
    }
    if ctrl {
        m |= KeyModifiers::CONTROL;
    }
    if alt {
        m |= KeyModifiers::ALT;
    }
    m
}

/// The key a virtual-key code and character name: the keys by their code,
/// then the character typed (Ctrl with a letter types a control
/// character: the letter), then letters and digits by their code.
fn code(vk: u16, uc: u32, modifiers: KeyModifiers) -> Option<KeyCode> {
    let by_vk = match vk {
        0x08 => KeyCode::Backspace,
        0x09 if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        0x09 => KeyCode::Tab,
        0x0D => KeyCode::Enter,
        0x1B => KeyCode::Esc,
        0x21 => KeyCode::PageUp,
        0x22 => KeyCode::PageDown,
        0x23 => KeyCode::End,
        0x24 => KeyCode::Home,
        0x25 => KeyCode::Left,
        0x26 => KeyCode::Up,
        0x27 => KeyCode::Right,
        0x28 => KeyCode::Down,
        0x2D => KeyCode::Insert,
        0x2E => KeyCode::Delete,
        0x70..=0x87 => KeyCode::F((vk - 0x6F) as u8),
        _ => {
            if (1..=26).contains(&uc) && modifiers.contains(KeyModifiers::CONTROL) {
                return Some(KeyCode::Char(char::from(b'a' + uc as u8 - 1)));
            }
            if uc >= 0x20 && uc != 0x7f {
                return char::from_u32(uc).map(KeyCode::Char);
            }
            return match vk {
                0x30..=0x39 => Some(KeyCode::Char(char::from(vk as u8))),
                0x41..=0x5A => Some(KeyCode::Char(char::from(vk as u8).to_ascii_lowercase())),
                _ => None,
            };
        }
    };
    Some(by_vk)
}
