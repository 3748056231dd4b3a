//! Keys read by crossterm, as fugue keys.

use fugue_protocol::keys::{Key, KeyCode, Mods};
use ratatui::crossterm::event::{KeyCode as CtCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The fugue key for a key press; None for releases and keys fugue does not model.
pub fn to_key(ev: &KeyEvent) -> Option<Key> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    let mut mods = Mods::NONE;
    if ev.modifiers.contains(KeyModifiers::CONTROL) {
        mods |= Mods::CTRL;
    }
    if ev.modifiers.contains(KeyModifiers::ALT) {
        mods |= Mods::ALT;
    }
    let shift = ev.modifiers.contains(KeyModifiers::SHIFT);
    let code = match ev.code {
        // A shifted character arrives already shifted.
        CtCode::Char(c) => return Some(Key::new(KeyCode::Char(c), mods)),
        CtCode::Null => return Some(Key::new(KeyCode::Char(' '), Mods::CTRL)),
        CtCode::Enter => KeyCode::Enter,
        CtCode::Tab => KeyCode::Tab,
        CtCode::BackTab => return Some(Key::new(KeyCode::BackTab, mods)),
        CtCode::Backspace => KeyCode::Backspace,
        CtCode::Esc => KeyCode::Escape,
        CtCode::Up => KeyCode::Up,
        CtCode::Down => KeyCode::Down,
        CtCode::Left => KeyCode::Left,
        CtCode::Right => KeyCode::Right,
        CtCode::Home => KeyCode::Home,
        CtCode::End => KeyCode::End,
        CtCode::PageUp => KeyCode::PageUp,
        CtCode::PageDown => KeyCode::PageDown,
        CtCode::Insert => KeyCode::Insert,
        CtCode::Delete => KeyCode::Delete,
        CtCode::F(n) => KeyCode::F(n),
        _ => return None,
    };
    if shift {
        mods |= Mods::SHIFT;
    }
    Some(Key::new(code, mods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_shifted_keys() {
        let k = to_key(&KeyEvent::new(CtCode::Char('b'), KeyModifiers::CONTROL)).unwrap();
        assert_eq!(k.to_string(), "C-b");
        let k = to_key(&KeyEvent::new(CtCode::Char('%'), KeyModifiers::SHIFT)).unwrap();
        assert_eq!(k.to_string(), "%");
        let k = to_key(&KeyEvent::new(CtCode::Up, KeyModifiers::CONTROL)).unwrap();
        assert_eq!(k.to_string(), "C-Up");
    }
}
