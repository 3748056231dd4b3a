//! The client's key path before issue 12, kept for one test: termina's key event made
//! into crossterm's, then into fugue's key (`git show 0e31ed4:fugue-client/src/tui/`
//! `terminal_input.rs` and `keymap.rs`, verbatim but for the function's signature).
//! `legacy_input_gives_the_keys_it_gave_before` checks that the new path gives the
//! same key for every legacy input.

use fugue_protocol::keys::{Key, KeyCode, Mods};
use ratatui::crossterm::event::{
    KeyCode as CtCode, KeyEvent as CtKey, KeyEventKind as CtKind, KeyEventState, KeyModifiers,
};
use termina::event::{KeyCode as TCode, KeyEventKind, Modifiers};

fn to_crossterm(k: &termina::event::KeyEvent) -> Option<CtKey> {
    let code = match k.code {
        TCode::Char(c) => CtCode::Char(c),
        TCode::Enter => CtCode::Enter,
        TCode::Backspace => CtCode::Backspace,
        TCode::Tab => CtCode::Tab,
        TCode::BackTab => CtCode::BackTab,
        TCode::Escape => CtCode::Esc,
        TCode::Left => CtCode::Left,
        TCode::Right => CtCode::Right,
        TCode::Up => CtCode::Up,
        TCode::Down => CtCode::Down,
        TCode::Home => CtCode::Home,
        TCode::End => CtCode::End,
        TCode::PageUp => CtCode::PageUp,
        TCode::PageDown => CtCode::PageDown,
        TCode::Insert => CtCode::Insert,
        TCode::Delete => CtCode::Delete,
        TCode::Function(n) => CtCode::F(n),
        TCode::Null => CtCode::Null,
        _ => return None,
    };
    let mut mods = KeyModifiers::NONE;
    for (from, to) in [
        (Modifiers::SHIFT, KeyModifiers::SHIFT),
        (Modifiers::ALT, KeyModifiers::ALT),
        (Modifiers::CONTROL, KeyModifiers::CONTROL),
        (Modifiers::SUPER, KeyModifiers::SUPER),
        (Modifiers::HYPER, KeyModifiers::HYPER),
        (Modifiers::META, KeyModifiers::META),
    ] {
        if k.modifiers.contains(from) {
            mods |= to;
        }
    }
    let kind = match k.kind {
        KeyEventKind::Press => CtKind::Press,
        KeyEventKind::Repeat => CtKind::Repeat,
        KeyEventKind::Release => CtKind::Release,
    };
    Some(CtKey::new_with_kind_and_state(
        code,
        mods,
        kind,
        KeyEventState::NONE,
    ))
}

/// The fugue key for a key press; None for releases and keys fugue did not model.
pub fn to_key(ev: &termina::event::KeyEvent) -> Option<Key> {
    let ev = to_crossterm(ev)?;
    if ev.kind == CtKind::Release {
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
