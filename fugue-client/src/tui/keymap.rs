//! Keys as termina reads them, as fugue keys, with nothing termina reports lost: every
//! modifier and lock state, the event kind, keypad keys told apart from the keys they
//! type, and every key code termina has (issue 12).

use fugue_protocol::keys::{Key, KeyCode, KeyKind, KeypadKey, MediaKey, ModifierKey, Mods};
use termina::event::{
    KeyCode as TCode, KeyEvent, KeyEventKind, KeyEventState, MediaKeyCode, ModifierKeyCode,
    Modifiers,
};

/// The fugue key for a key event from termina.
pub fn to_key(ev: &KeyEvent) -> Key {
    let mut mods = Mods::NONE;
    for (from, to) in [
        (Modifiers::SHIFT, Mods::SHIFT),
        (Modifiers::ALT, Mods::ALT),
        (Modifiers::CONTROL, Mods::CTRL),
        (Modifiers::SUPER, Mods::SUPER),
        (Modifiers::HYPER, Mods::HYPER),
        (Modifiers::META, Mods::META),
        (Modifiers::CAPS_LOCK, Mods::CAPS_LOCK),
        (Modifiers::NUM_LOCK, Mods::NUM_LOCK),
    ] {
        if ev.modifiers.contains(from) {
            mods |= to;
        }
    }
    // termina reports the kitty protocol's lock bits as state, not modifiers.
    if ev.state.contains(KeyEventState::CAPS_LOCK) {
        mods |= Mods::CAPS_LOCK;
    }
    if ev.state.contains(KeyEventState::NUM_LOCK) {
        mods |= Mods::NUM_LOCK;
    }
    let kind = match ev.kind {
        KeyEventKind::Press => KeyKind::Press,
        KeyEventKind::Repeat => KeyKind::Repeat,
        KeyEventKind::Release => KeyKind::Release,
    };
    let keypad = ev.state.contains(KeyEventState::KEYPAD);
    let code = match ev.code {
        code if keypad => {
            keypad_key(code).map_or_else(|| plain(code), |k| Some(KeyCode::Keypad(k)))
        }
        code => plain(code),
    };
    // A NUL byte is C-Space (termina says so itself; a platform's Null key too).
    let (code, mods) = match code {
        None => (KeyCode::Char(' '), mods | Mods::CTRL),
        Some(code) => (code, mods),
    };
    Key { code, mods, kind }.normalized()
}

/// The key code for a key not on the keypad; None for termina's Null.
fn plain(code: TCode) -> Option<KeyCode> {
    Some(match code {
        TCode::Char(c) => KeyCode::Char(c),
        TCode::Enter => KeyCode::Enter,
        TCode::Backspace => KeyCode::Backspace,
        TCode::Tab => KeyCode::Tab,
        TCode::Escape => KeyCode::Escape,
        TCode::Left => KeyCode::Left,
        TCode::Right => KeyCode::Right,
        TCode::Up => KeyCode::Up,
        TCode::Down => KeyCode::Down,
        TCode::Home => KeyCode::Home,
        TCode::End => KeyCode::End,
        TCode::BackTab => KeyCode::BackTab,
        TCode::PageUp => KeyCode::PageUp,
        TCode::PageDown => KeyCode::PageDown,
        TCode::Insert => KeyCode::Insert,
        TCode::Delete => KeyCode::Delete,
        TCode::KeypadBegin => KeyCode::Keypad(KeypadKey::Begin),
        TCode::CapsLock => KeyCode::CapsLock,
        TCode::ScrollLock => KeyCode::ScrollLock,
        TCode::NumLock => KeyCode::NumLock,
        TCode::PrintScreen => KeyCode::PrintScreen,
        TCode::Pause => KeyCode::Pause,
        TCode::Menu => KeyCode::Menu,
        TCode::Null => return None,
        TCode::Function(n) => KeyCode::F(n),
        TCode::Modifier(m) => KeyCode::Modifier(modifier_key(m)),
        TCode::Media(m) => KeyCode::Media(media_key(m)),
    })
}

/// A key termina flagged as from the keypad.
fn keypad_key(code: TCode) -> Option<KeypadKey> {
    use KeypadKey as K;
    Some(match code {
        TCode::Char('0') => K::Zero,
        TCode::Char('1') => K::One,
        TCode::Char('2') => K::Two,
        TCode::Char('3') => K::Three,
        TCode::Char('4') => K::Four,
        TCode::Char('5') => K::Five,
        TCode::Char('6') => K::Six,
        TCode::Char('7') => K::Seven,
        TCode::Char('8') => K::Eight,
        TCode::Char('9') => K::Nine,
        TCode::Char('.') => K::Decimal,
        TCode::Char('/') => K::Divide,
        TCode::Char('*') => K::Multiply,
        TCode::Char('-') => K::Subtract,
        TCode::Char('+') => K::Add,
        TCode::Enter => K::Enter,
        TCode::Char('=') => K::Equal,
        TCode::Char(',') => K::Separator,
        TCode::Left => K::Left,
        TCode::Right => K::Right,
        TCode::Up => K::Up,
        TCode::Down => K::Down,
        TCode::PageUp => K::PageUp,
        TCode::PageDown => K::PageDown,
        TCode::Home => K::Home,
        TCode::End => K::End,
        TCode::Insert => K::Insert,
        TCode::Delete => K::Delete,
        TCode::KeypadBegin => K::Begin,
        _ => return None,
    })
}

fn modifier_key(m: ModifierKeyCode) -> ModifierKey {
    use ModifierKey as M;
    use ModifierKeyCode as T;
    match m {
        T::LeftShift => M::LeftShift,
        T::LeftControl => M::LeftControl,
        T::LeftAlt => M::LeftAlt,
        T::LeftSuper => M::LeftSuper,
        T::LeftHyper => M::LeftHyper,
        T::LeftMeta => M::LeftMeta,
        T::RightShift => M::RightShift,
        T::RightControl => M::RightControl,
        T::RightAlt => M::RightAlt,
        T::RightSuper => M::RightSuper,
        T::RightHyper => M::RightHyper,
        T::RightMeta => M::RightMeta,
        T::IsoLevel3Shift => M::IsoLevel3Shift,
        T::IsoLevel5Shift => M::IsoLevel5Shift,
    }
}

fn media_key(m: MediaKeyCode) -> MediaKey {
    use MediaKey as M;
    use MediaKeyCode as T;
    match m {
        T::Play => M::Play,
        T::Pause => M::Pause,
        T::PlayPause => M::PlayPause,
        T::Reverse => M::Reverse,
        T::Stop => M::Stop,
        T::FastForward => M::FastForward,
        T::Rewind => M::Rewind,
        T::TrackNext => M::TrackNext,
        T::TrackPrevious => M::TrackPrevious,
        T::Record => M::Record,
        T::LowerVolume => M::LowerVolume,
        T::RaiseVolume => M::RaiseVolume,
        T::MuteVolume => M::MuteVolume,
    }
}

#[cfg(test)]
#[path = "keymap_old.rs"]
mod old;

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<KeyEvent> {
        let mut p = termina::Parser::default();
        p.parse(bytes, false);
        std::iter::from_fn(|| p.pop())
            .filter_map(|e| match e {
                termina::Event::Key(k) => Some(k),
                _ => None,
            })
            .collect()
    }

    /// Everything a legacy terminal sends for a key: every byte alone and after ESC,
    /// every UTF-8 length, the cursor, editing and function keys in every modifier
    /// combination xterm encodes.
    fn legacy_inputs() -> Vec<Vec<u8>> {
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for b in 0u8..0x80 {
            inputs.push(vec![b]);
            inputs.push(vec![0x1b, b]);
        }
        for s in ["é", "É", "日", "😀", "ß", "Ω"] {
            inputs.push(s.as_bytes().to_vec());
            inputs.push([b"\x1b", s.as_bytes()].concat());
        }
        let letters = "ABCDHFPQRS";
        for l in letters.chars() {
            inputs.push(format!("\x1b[{l}").into_bytes());
            inputs.push(format!("\x1bO{l}").into_bytes());
            for m in 1..=8 {
                inputs.push(format!("\x1b[1;{m}{l}").into_bytes());
            }
        }
        for n in [
            1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24,
        ] {
            inputs.push(format!("\x1b[{n}~").into_bytes());
            for m in 1..=8 {
                inputs.push(format!("\x1b[{n};{m}~").into_bytes());
            }
        }
        inputs.push(b"\x1b[Z".to_vec());
        inputs
    }

    /// Issue 12's promise for legacy terminals: every key they send becomes the key
    /// the client made of it before (through crossterm's type), so bindings and the
    /// bytes a pane gets stay what they were.
    #[test]
    fn legacy_input_gives_the_keys_it_gave_before() {
        let mut checked = 0;
        for input in legacy_inputs() {
            for ev in keys(&input) {
                let before = old::to_key(&ev);
                let now = to_key(&ev);
                match before {
                    Some(before) => assert_eq!(now, before, "{input:?} ({ev:?})"),
                    None => panic!("{input:?} gave no key before: {ev:?}"),
                }
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn keypad_keys_are_told_apart_only_when_reported_as_keypad() {
        let kp = |code| KeyEvent {
            code,
            modifiers: Modifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::KEYPAD,
        };
        assert_eq!(to_key(&kp(TCode::Char('5'))).to_string(), "KP5");
        assert_eq!(to_key(&kp(TCode::Enter)).to_string(), "KPEnter");
        assert_eq!(to_key(&kp(TCode::Up)).to_string(), "KPUp");
        // Not a keypad key whatever the flag says.
        assert_eq!(to_key(&kp(TCode::Char('x'))).to_string(), "x");
        assert_eq!(
            to_key(&KeyEvent::new(TCode::Char('5'), Modifiers::NONE)).to_string(),
            "5"
        );
        assert_eq!(
            to_key(&KeyEvent::new(TCode::Null, Modifiers::NONE)).to_string(),
            "C-Space"
        );
    }
}
