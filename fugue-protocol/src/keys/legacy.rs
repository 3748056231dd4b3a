//! Legacy (xterm) key encoding, what tmux sends to its panes and what every program
//! understands. `tests/legacy_keys.rs` holds it byte for byte to what it was before
//! keys became lossless.

use super::{Key, KeyCode, KeyModes, KeypadKey, Mods};

/// The xterm modifier parameter: 1 plus shift=1, alt=2, ctrl=4.
fn xterm_param(mods: Mods) -> u8 {
    1 + u8::from(mods.contains(Mods::SHIFT))
        + 2 * u8::from(mods.contains(Mods::ALT))
        + 4 * u8::from(mods.contains(Mods::CTRL))
}

/// Appends the bytes for `key`, which [`Key::legacy`] made: a press or repeat, with
/// only Ctrl, Alt and Shift, keypad keys as the keys they type.
pub(super) fn encode(key: Key, modes: KeyModes, out: &mut Vec<u8>) {
    let Key { code, mut mods, .. } = key;
    let code = match code {
        // xterm sends F13..F24 as shifted F1..F12.
        KeyCode::F(n @ 13..=24) => {
            mods |= Mods::SHIFT;
            KeyCode::F(n - 12)
        }
        other => other,
    };

    // Cursor, editing and function keys carry modifiers in a CSI parameter.
    if let Some(seq) = special_sequence(code) {
        let m = xterm_param(mods);
        let bytes = match seq {
            Special::Letter(l, ss3) if mods.is_empty() => {
                let intro = if ss3 || modes.app_cursor { 'O' } else { '[' };
                format!("\x1b{intro}{l}")
            }
            Special::Letter(l, _) => format!("\x1b[1;{m}{l}"),
            Special::Tilde(n) if mods.is_empty() => format!("\x1b[{n}~"),
            Special::Tilde(n) => format!("\x1b[{n};{m}~"),
        };
        out.extend_from_slice(bytes.as_bytes());
        return;
    }

    let bytes: &[u8] = match code {
        KeyCode::Char(_) => &[],
        KeyCode::Enter => b"\r",
        KeyCode::Tab => b"\t",
        KeyCode::BackTab => b"\x1b[Z",
        KeyCode::Backspace => b"\x7f",
        KeyCode::Escape => b"\x1b",
        // Covered by `special_sequence`, an F number outside 1..=24, or a key xterm has
        // no bytes for (the modifier keys, media keys, Menu...): nothing to send, not
        // even the Alt prefix.
        _ => return,
    };
    if mods.contains(Mods::ALT) {
        out.push(0x1b);
    }
    if let KeyCode::Char(c) = code {
        let c = if mods.contains(Mods::SHIFT) {
            c.to_ascii_uppercase()
        } else {
            c
        };
        match ctrl_byte(c) {
            Some(b) if mods.contains(Mods::CTRL) => out.push(b),
            _ => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    } else {
        out.extend_from_slice(bytes);
    }
}

enum Special {
    /// `ESC [ X` or `ESC O X`; the flag forces `ESC O` (F1..F4 always use SS3 when unmodified).
    Letter(char, bool),
    /// `ESC [ n ~`.
    Tilde(u8),
}

fn special_sequence(code: KeyCode) -> Option<Special> {
    Some(match code {
        KeyCode::Up => Special::Letter('A', false),
        KeyCode::Down => Special::Letter('B', false),
        KeyCode::Right => Special::Letter('C', false),
        KeyCode::Left => Special::Letter('D', false),
        KeyCode::Home => Special::Letter('H', false),
        KeyCode::End => Special::Letter('F', false),
        // xterm's keypad 5 with Num Lock off.
        KeyCode::Keypad(KeypadKey::Begin) => Special::Letter('E', false),
        KeyCode::Insert => Special::Tilde(2),
        KeyCode::Delete => Special::Tilde(3),
        KeyCode::PageUp => Special::Tilde(5),
        KeyCode::PageDown => Special::Tilde(6),
        KeyCode::F(n @ 1..=4) => Special::Letter(['P', 'Q', 'R', 'S'][usize::from(n - 1)], true),
        KeyCode::F(n @ 5..=12) => {
            Special::Tilde([15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)])
        }
        _ => return None,
    })
}

/// The control byte a terminal sends for ctrl plus `c`, where there is one.
pub(super) fn ctrl_byte(c: char) -> Option<u8> {
    Some(match c {
        'a'..='z' | 'A'..='Z' => c as u8 & 0x1f,
        '@' | ' ' | '2' => 0x00,
        '[' | '3' => 0x1b,
        '\\' | '4' => 0x1c,
        ']' | '5' => 0x1d,
        '^' | '6' => 0x1e,
        '_' | '-' | '/' | '7' => 0x1f,
        '?' | '8' => 0x7f,
        _ => return None,
    })
}
