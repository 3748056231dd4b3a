//! Key names: tmux's where tmux has one, fugue's own (kitty's key names in tmux's
//! spelling style) for the keys and modifiers tmux does not name.

use super::{Key, KeyCode, KeyKind, KeypadKey, MediaKey, ModifierKey, Mods, mouse};
use std::fmt;

/// Named keys in canonical spelling first, then accepted aliases; matched without regard
/// to case. `Space` is `Char(' ')`.
const NAMES: &[(&str, KeyCode)] = &[
    ("Enter", KeyCode::Enter),
    ("Tab", KeyCode::Tab),
    ("BTab", KeyCode::BackTab),
    ("BSpace", KeyCode::Backspace),
    ("Escape", KeyCode::Escape),
    ("Space", KeyCode::Char(' ')),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PPage", KeyCode::PageUp),
    ("NPage", KeyCode::PageDown),
    ("IC", KeyCode::Insert),
    ("DC", KeyCode::Delete),
    // fugue's names for keys tmux does not name.
    ("CapsLock", KeyCode::CapsLock),
    ("ScrollLock", KeyCode::ScrollLock),
    ("NumLock", KeyCode::NumLock),
    ("PrintScreen", KeyCode::PrintScreen),
    ("Pause", KeyCode::Pause),
    ("Menu", KeyCode::Menu),
    ("MediaPlay", KeyCode::Media(MediaKey::Play)),
    ("MediaPause", KeyCode::Media(MediaKey::Pause)),
    ("MediaPlayPause", KeyCode::Media(MediaKey::PlayPause)),
    ("MediaReverse", KeyCode::Media(MediaKey::Reverse)),
    ("MediaStop", KeyCode::Media(MediaKey::Stop)),
    ("MediaFastForward", KeyCode::Media(MediaKey::FastForward)),
    ("MediaRewind", KeyCode::Media(MediaKey::Rewind)),
    ("MediaTrackNext", KeyCode::Media(MediaKey::TrackNext)),
    (
        "MediaTrackPrevious",
        KeyCode::Media(MediaKey::TrackPrevious),
    ),
    ("MediaRecord", KeyCode::Media(MediaKey::Record)),
    ("VolumeDown", KeyCode::Media(MediaKey::LowerVolume)),
    ("VolumeUp", KeyCode::Media(MediaKey::RaiseVolume)),
    ("VolumeMute", KeyCode::Media(MediaKey::MuteVolume)),
    ("LeftShift", KeyCode::Modifier(ModifierKey::LeftShift)),
    ("LeftControl", KeyCode::Modifier(ModifierKey::LeftControl)),
    ("LeftAlt", KeyCode::Modifier(ModifierKey::LeftAlt)),
    ("LeftSuper", KeyCode::Modifier(ModifierKey::LeftSuper)),
    ("LeftHyper", KeyCode::Modifier(ModifierKey::LeftHyper)),
    ("LeftMeta", KeyCode::Modifier(ModifierKey::LeftMeta)),
    ("RightShift", KeyCode::Modifier(ModifierKey::RightShift)),
    ("RightControl", KeyCode::Modifier(ModifierKey::RightControl)),
    ("RightAlt", KeyCode::Modifier(ModifierKey::RightAlt)),
    ("RightSuper", KeyCode::Modifier(ModifierKey::RightSuper)),
    ("RightHyper", KeyCode::Modifier(ModifierKey::RightHyper)),
    ("RightMeta", KeyCode::Modifier(ModifierKey::RightMeta)),
    (
        "IsoLevel3Shift",
        KeyCode::Modifier(ModifierKey::IsoLevel3Shift),
    ),
    (
        "IsoLevel5Shift",
        KeyCode::Modifier(ModifierKey::IsoLevel5Shift),
    ),
    // Aliases.
    ("PageUp", KeyCode::PageUp),
    ("PgUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("PgDn", KeyCode::PageDown),
    ("Insert", KeyCode::Insert),
    ("Delete", KeyCode::Delete),
];

/// Keypad keys: tmux's names (`KP0`, `KP/`, `KPEnter`...) and fugue's for the rest.
/// Matched with their case, as tmux does (`kp1` is text).
const KEYPAD: &[(&str, KeypadKey)] = &[
    ("KP0", KeypadKey::Zero),
    ("KP1", KeypadKey::One),
    ("KP2", KeypadKey::Two),
    ("KP3", KeypadKey::Three),
    ("KP4", KeypadKey::Four),
    ("KP5", KeypadKey::Five),
    ("KP6", KeypadKey::Six),
    ("KP7", KeypadKey::Seven),
    ("KP8", KeypadKey::Eight),
    ("KP9", KeypadKey::Nine),
    ("KP.", KeypadKey::Decimal),
    ("KP/", KeypadKey::Divide),
    ("KP*", KeypadKey::Multiply),
    ("KP-", KeypadKey::Subtract),
    ("KP+", KeypadKey::Add),
    ("KPEnter", KeypadKey::Enter),
    ("KP=", KeypadKey::Equal),
    ("KP,", KeypadKey::Separator),
    ("KPLeft", KeypadKey::Left),
    ("KPRight", KeypadKey::Right),
    ("KPUp", KeypadKey::Up),
    ("KPDown", KeypadKey::Down),
    ("KPPageUp", KeypadKey::PageUp),
    ("KPPageDown", KeypadKey::PageDown),
    ("KPHome", KeypadKey::Home),
    ("KPEnd", KeypadKey::End),
    ("KPInsert", KeypadKey::Insert),
    ("KPDelete", KeypadKey::Delete),
    ("KPBegin", KeypadKey::Begin),
];

/// Modifier prefixes of more than one letter, each followed by `-`, matched without
/// regard to case, in the order names print them (after `C-`, `M-`, `S-`).
const WORD_MODS: &[(&str, Mods)] = &[
    ("Super", Mods::SUPER),
    ("Hyper", Mods::HYPER),
    ("Meta", Mods::META),
    ("CapsLock", Mods::CAPS_LOCK),
    ("NumLock", Mods::NUM_LOCK),
];

/// Highest function key number.
pub const MAX_F: u8 = 35;

pub(super) fn parse(s: &str) -> Option<Key> {
    if let Some(hex) = s.strip_prefix("0x") {
        return hex_key(hex);
    }
    let mut mods = Mods::NONE;
    let mut rest = s;
    'prefixes: loop {
        // Byte checks are enough: an ASCII letter followed by `-` makes index 2 a char boundary.
        if let [m, b'-', ..] = rest.as_bytes() {
            let m = match m.to_ascii_uppercase() {
                b'C' => Some(Mods::CTRL),
                b'M' => Some(Mods::ALT),
                b'S' => Some(Mods::SHIFT),
                _ => None,
            };
            if let Some(m) = m {
                mods |= m;
                rest = &rest[2..];
                continue;
            }
        }
        for &(word, m) in WORD_MODS {
            if let Some(head) = rest.get(..word.len())
                && head.eq_ignore_ascii_case(word)
                && rest.as_bytes().get(word.len()) == Some(&b'-')
            {
                mods |= m;
                rest = &rest[word.len() + 1..];
                continue 'prefixes;
            }
        }
        break;
    }

    let mut chars = rest.chars();
    let code = match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) => return None,
        (Some(c), None, _) => KeyCode::Char(c),
        // tmux lowercases caret notation, so `^C` is `C-c` as on a terminal.
        (Some('^'), Some(c), None) => {
            mods |= Mods::CTRL;
            KeyCode::Char(c.to_ascii_lowercase())
        }
        _ => match mouse::MouseKey::parse(rest) {
            Some(m) => KeyCode::Mouse(m),
            None => lookup(rest)?,
        },
    };
    Some(Key::new(code, mods))
}

/// tmux's `0xNN` key: a C0 control as the key that types it, else the character
/// with that code point (iTerm2's control mode sends keys so: `send -t %1 0xd`).
fn hex_key(hex: &str) -> Option<Key> {
    let u = u32::from_str_radix(hex, 16).ok()?;
    let ctrl = |c: char| Some(Key::new(KeyCode::Char(c), Mods::CTRL));
    match u {
        0x00 => ctrl(' '),
        0x09 => Some(Key::new(KeyCode::Tab, Mods::NONE)),
        0x0d => Some(Key::new(KeyCode::Enter, Mods::NONE)),
        0x1b => Some(Key::new(KeyCode::Escape, Mods::NONE)),
        0x7f => Some(Key::new(KeyCode::Backspace, Mods::NONE)),
        0x01..=0x1a => ctrl(char::from(b'a' + u8::try_from(u - 1).ok()?)),
        0x1c..=0x1f => ctrl(char::from(b'\\' + u8::try_from(u - 0x1c).ok()?)),
        _ => char::from_u32(u).map(|c| Key::new(KeyCode::Char(c), Mods::NONE)),
    }
}

fn lookup(name: &str) -> Option<KeyCode> {
    if let Some(&(_, code)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Some(code);
    }
    if let Some(&(_, k)) = KEYPAD.iter().find(|(n, _)| *n == name) {
        return Some(KeyCode::Keypad(k));
    }
    let digits = name.strip_prefix(['F', 'f'])?;
    // One spelling per key: no leading zeros, no signs, so `F05` is typed literally.
    if digits.len() > 2 || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (1..=MAX_F).contains(&n).then_some(KeyCode::F(n))
}

pub(super) fn write(key: Key, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let Key { code, mods, kind } = key.normalized();
    for (m, prefix) in [(Mods::CTRL, "C"), (Mods::ALT, "M"), (Mods::SHIFT, "S")]
        .into_iter()
        .chain(WORD_MODS.iter().copied().map(|(w, m)| (m, w)))
    {
        if mods.contains(m) {
            write!(f, "{prefix}-")?;
        }
    }
    match code {
        KeyCode::Char(' ') => f.write_str("Space")?,
        KeyCode::Char(c) => write!(f, "{c}")?,
        KeyCode::F(n) => write!(f, "F{n}")?,
        KeyCode::Mouse(m) => write!(f, "{m}")?,
        KeyCode::Keypad(k) => {
            // KEYPAD lists every keypad key, so the fallback is never printed.
            let name = KEYPAD.iter().find(|(_, c)| *c == k).map_or("KP?", |e| e.0);
            f.write_str(name)?;
        }
        other => {
            // NAMES lists every other named code, so the fallback is never printed.
            let name = NAMES.iter().find(|(_, c)| *c == other).map_or("?", |e| e.0);
            f.write_str(name)?;
        }
    }
    match kind {
        KeyKind::Press => Ok(()),
        KeyKind::Repeat => f.write_str(":repeat"),
        KeyKind::Release => f.write_str(":release"),
    }
}

/// Every key code that has a name (for tests and docs): the named keys, F1..F35 and
/// the keypad; characters aside.
pub fn named_codes() -> impl Iterator<Item = KeyCode> {
    NAMES
        .iter()
        .map(|e| e.1)
        .chain((1..=MAX_F).map(KeyCode::F))
        .chain(KEYPAD.iter().map(|e| KeyCode::Keypad(e.1)))
}
