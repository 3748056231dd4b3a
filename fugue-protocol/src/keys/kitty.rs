//! The kitty keyboard protocol's encoding, for a program that asked for it with
//! `CSI > flags u` or `CSI = flags u` (<https://sw.kovidgoyal.net/kitty/keyboard-protocol/>).
//!
//! What fugue knows of a key is what its client's terminal said: a text key that Shift
//! changed arrives as the character it typed (`%`), so fugue reports the character as
//! the key's code where kitty would report the unshifted key (`5`) with Shift; ASCII
//! letters are the exception (`A` is reported as `a` with Shift, as kitty does). The
//! base-layout key of "report alternate keys" is never sent: no terminal tells fugue.

use super::{Key, KeyCode, KeyKind, Mods};

/// Report `Esc`, `alt+key`, `ctrl+key`... and keypad keys as `CSI u` sequences.
pub const DISAMBIGUATE: u8 = 1;
/// Report repeats and releases.
pub const EVENT_TYPES: u8 = 2;
/// Report the shifted key along with the key.
pub const ALTERNATE_KEYS: u8 = 4;
/// Report every key as an escape code, text keys and modifier keys included.
pub const ALL_KEYS: u8 = 8;
/// Report the text a key types inside its escape code.
pub const ASSOCIATED_TEXT: u8 = 16;
/// Every flag the protocol defines; other bits are ignored.
pub const ALL_FLAGS: u8 = 31;

/// The protocol's modifier bits (`1 +` these is the parameter).
fn bits(mods: Mods) -> u16 {
    [
        (Mods::SHIFT, 1),
        (Mods::ALT, 2),
        (Mods::CTRL, 4),
        (Mods::SUPER, 8),
        (Mods::HYPER, 16),
        (Mods::META, 32),
        (Mods::CAPS_LOCK, 64),
        (Mods::NUM_LOCK, 128),
    ]
    .into_iter()
    .filter(|(m, _)| mods.contains(*m))
    .map(|(_, b)| b)
    .sum()
}

/// One `CSI ... trailer` sequence.
struct Csi {
    number: u32,
    shifted: Option<char>,
    mods: Mods,
    /// The event kind, when it is to be reported.
    kind: Option<KeyKind>,
    text: Option<char>,
    trailer: char,
}

impl Csi {
    fn write(&self, out: &mut Vec<u8>) {
        use std::fmt::Write as _;
        let m = bits(self.mods);
        let second = m != 0 || self.kind.is_some();
        let mut s = String::from("\x1b[");
        if self.number != 1 || self.shifted.is_some() || second || self.text.is_some() {
            let _ = write!(s, "{}", self.number);
        }
        if let Some(c) = self.shifted {
            let _ = write!(s, ":{}", u32::from(c));
        }
        if second || self.text.is_some() {
            s.push(';');
            if second {
                let _ = write!(s, "{}", m + 1);
            }
            if let Some(kind) = self.kind {
                let _ = write!(s, ":{}", kind_number(kind));
            }
        }
        if let Some(c) = self.text {
            let _ = write!(s, ";{}", u32::from(c));
        }
        s.push(self.trailer);
        out.extend_from_slice(s.as_bytes());
    }
}

fn kind_number(kind: KeyKind) -> u8 {
    match kind {
        KeyKind::Press => 1,
        KeyKind::Repeat => 2,
        KeyKind::Release => 3,
    }
}

/// Appends the bytes for `key` under `flags` (not 0: that is legacy encoding).
pub(super) fn encode(key: Key, flags: u8, app_cursor: bool, out: &mut Vec<u8>) {
    let key = key.normalized();
    let disambiguate = flags & DISAMBIGUATE != 0;
    let events = flags & EVENT_TYPES != 0;
    let all = flags & ALL_KEYS != 0;
    if key.kind == KeyKind::Release && !events {
        return;
    }
    // Without event types, a repeat is a press.
    let kind = if events { key.kind } else { KeyKind::Press };
    // Lock states are reported only with every key as an escape code, so that a
    // program that asked for less sees keys the same whatever the locks.
    let mods = if all {
        key.mods
    } else {
        key.mods.without(Mods::LOCKS)
    };
    let code = match key.code {
        // Keypad keys are told apart only when disambiguating.
        KeyCode::Keypad(k) if !disambiguate => k.typed(),
        c => c,
    };
    match code {
        KeyCode::Modifier(_) if !all => {}
        // Mouse keys are for bindings; a pane gets mouse reports, not keys.
        KeyCode::Mouse(_) => {}
        KeyCode::Char(c) => text_key(c, mods, kind, flags, out),
        // Shift+Tab is Tab with Shift to this protocol.
        KeyCode::BackTab => functional(
            KeyCode::Tab,
            mods | Mods::SHIFT,
            kind,
            flags,
            app_cursor,
            out,
        ),
        code => functional(code, mods, kind, flags, app_cursor, out),
    }
}

/// A key that types a character.
fn text_key(c: char, mods: Mods, kind: KeyKind, flags: u8, out: &mut Vec<u8>) {
    let disambiguate = flags & DISAMBIGUATE != 0;
    let all = flags & ALL_KEYS != 0;
    // The unshifted key and what Shift made of it. A character that is some other's
    // uppercase came with Shift (fugue's names drop the Shift, `A` not `S-A`).
    let lower = single(c.to_lowercase());
    let (base, shifted, mods) = match lower {
        Some(l) if l != c => (l, Some(c), mods | Mods::SHIFT),
        _ if mods.contains(Mods::SHIFT) => (c, single(c.to_uppercase()).filter(|u| *u != c), mods),
        _ => (c, None, mods),
    };
    // Only keys without modifiers besides Shift (and the locks) type text.
    let text = (mods.without(Mods::SHIFT | Mods::LOCKS).is_empty() && !base.is_control())
        .then(|| shifted.unwrap_or(base));
    if let Some(t) = text
        && kind != KeyKind::Release
        && !all
    {
        let mut buf = [0; 4];
        out.extend_from_slice(t.encode_utf8(&mut buf).as_bytes());
        return;
    }
    let csi = Csi {
        number: u32::from(base),
        shifted: shifted.filter(|_| flags & ALTERNATE_KEYS != 0),
        mods,
        kind: (flags & EVENT_TYPES != 0 && kind != KeyKind::Press).then_some(kind),
        text: text.filter(|_| flags & ASSOCIATED_TEXT != 0 && kind != KeyKind::Release),
        trailer: 'u',
    };
    let simple = csi.kind.is_none() && csi.shifted.is_none() && csi.text.is_none();
    if simple && !disambiguate && !all {
        // The legacy encodings of text keys with Shift, Alt, Ctrl, Shift+Alt, Ctrl+Alt.
        let m = mods.without(Mods::LOCKS);
        let legacy_key =
            base.is_ascii_lowercase() || base.is_ascii_digit() || "`-=[]\\;',./".contains(base);
        // ASCII keys only (checked just above), so the byte is the character.
        let shifted = u8::try_from(shifted.unwrap_or(base)).unwrap_or(b'?');
        let bytes: Option<Vec<u8>> = if legacy_key {
            if m == Mods::SHIFT {
                Some(vec![shifted])
            } else if m == Mods::ALT || m == Mods::ALT | Mods::SHIFT {
                Some(vec![0x1b, shifted])
            } else if m == Mods::CTRL {
                Some(vec![ctrled(base)])
            } else if m == Mods::CTRL | Mods::ALT {
                Some(vec![0x1b, ctrled(base)])
            } else {
                None
            }
        } else if base == ' ' && m == Mods::CTRL {
            Some(vec![0])
        } else {
            None
        };
        if let Some(b) = bytes {
            out.extend_from_slice(&b);
            return;
        }
    }
    csi.write(out);
}

/// `c` if the iterator yields exactly one char.
fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    let c = it.next()?;
    it.next().is_none().then_some(c)
}

/// The protocol's table of what Ctrl makes of an ASCII key.
fn ctrled(c: char) -> u8 {
    match c {
        ' ' | '2' | '@' => 0,
        'a'..='z' => c as u8 & 0x1f,
        '3' | '[' => 27,
        '4' | '\\' => 28,
        '5' | ']' => 29,
        '6' | '^' | '~' => 30,
        '7' | '/' | '_' => 31,
        '8' | '?' => 127,
        // Every other key is left alone; callers pass ASCII only.
        _ => u8::try_from(c).unwrap_or(b'?'),
    }
}

/// A key that types no character.
fn functional(
    code: KeyCode,
    mods: Mods,
    kind: KeyKind,
    flags: u8,
    app_cursor: bool,
    out: &mut Vec<u8>,
) {
    let disambiguate = flags & DISAMBIGUATE != 0;
    let events = flags & EVENT_TYPES != 0;
    let all = flags & ALL_KEYS != 0;
    let plain = kind != KeyKind::Release;
    let legacy: Option<&[u8]> = if !plain {
        None
    } else if app_cursor && !disambiguate && !events && !all && mods.is_empty() {
        match code {
            KeyCode::Up => Some(b"\x1bOA"),
            KeyCode::Down => Some(b"\x1bOB"),
            KeyCode::Right => Some(b"\x1bOC"),
            KeyCode::Left => Some(b"\x1bOD"),
            KeyCode::End => Some(b"\x1bOF"),
            KeyCode::Home => Some(b"\x1bOH"),
            _ => None,
        }
    } else {
        None
    };
    // Enter, Tab and Backspace keep their bytes (so a shell stays usable after a
    // program that set the protocol crashed), and Escape too unless disambiguating.
    let legacy = legacy.or(match (code, plain, all) {
        (_, false, _) | (_, _, true) => None,
        (KeyCode::Escape, _, _) if mods.is_empty() && !disambiguate => Some(b"\x1b"),
        (KeyCode::Enter, _, _) if mods.is_empty() => Some(b"\r"),
        (KeyCode::Backspace, _, _) if mods.is_empty() => Some(b"\x7f"),
        (KeyCode::Tab, _, _) if mods.is_empty() => Some(b"\t"),
        (KeyCode::Tab, _, _) if mods == Mods::ALT && !disambiguate => Some(b"\x1b\t"),
        (KeyCode::Enter, _, _) if mods == Mods::ALT && !disambiguate => Some(b"\x1b\r"),
        (KeyCode::Backspace, _, _) if mods == Mods::ALT && !disambiguate => Some(b"\x1b\x7f"),
        (KeyCode::Tab, _, _) if mods == Mods::SHIFT && !disambiguate => Some(b"\x1b[Z"),
        (KeyCode::Backspace, _, _) if mods == Mods::CTRL && !disambiguate => Some(b"\x08"),
        _ => None,
    });
    if let Some(b) = legacy {
        out.extend_from_slice(b);
        return;
    }
    // Their releases (unmodified, when their presses are plain bytes) are reported
    // only with every key as an escape code.
    if !plain
        && !all
        && mods.is_empty()
        && matches!(code, KeyCode::Enter | KeyCode::Tab | KeyCode::Backspace)
    {
        return;
    }
    let Some((number, trailer)) = number(code) else {
        return;
    };
    Csi {
        number,
        shifted: None,
        mods,
        kind: (events && kind != KeyKind::Press).then_some(kind),
        text: None,
        trailer,
    }
    .write(out);
}

/// The protocol's number and final character for a key that types no character.
fn number(code: KeyCode) -> Option<(u32, char)> {
    Some(match code {
        KeyCode::Escape => (27, 'u'),
        KeyCode::Enter => (13, 'u'),
        KeyCode::Tab => (9, 'u'),
        KeyCode::Backspace => (127, 'u'),
        KeyCode::Insert => (2, '~'),
        KeyCode::Delete => (3, '~'),
        KeyCode::Left => (1, 'D'),
        KeyCode::Right => (1, 'C'),
        KeyCode::Up => (1, 'A'),
        KeyCode::Down => (1, 'B'),
        KeyCode::PageUp => (5, '~'),
        KeyCode::PageDown => (6, '~'),
        KeyCode::Home => (1, 'H'),
        KeyCode::End => (1, 'F'),
        KeyCode::F(1) => (1, 'P'),
        KeyCode::F(2) => (1, 'Q'),
        // Not `CSI 1 R`, which reads as a cursor position report.
        KeyCode::F(3) => (13, '~'),
        KeyCode::F(4) => (1, 'S'),
        KeyCode::F(n @ 5..=12) => ([15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)], '~'),
        KeyCode::F(n @ 13..=35) => (57376 + u32::from(n - 13), 'u'),
        KeyCode::CapsLock => (57358, 'u'),
        KeyCode::ScrollLock => (57359, 'u'),
        KeyCode::NumLock => (57360, 'u'),
        KeyCode::PrintScreen => (57361, 'u'),
        KeyCode::Pause => (57362, 'u'),
        KeyCode::Menu => (57363, 'u'),
        // The enums follow the protocol's tables, in order.
        KeyCode::Keypad(k) => (57399 + k as u32, 'u'),
        KeyCode::Media(m) => (57428 + m as u32, 'u'),
        KeyCode::Modifier(m) => (57441 + m as u32, 'u'),
        KeyCode::F(_) | KeyCode::Char(_) | KeyCode::BackTab | KeyCode::Mouse(_) => return None,
    })
}
