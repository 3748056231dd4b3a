//! Key bindings in the config file, merged over tmux-like defaults.

use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::{Direction, KeyAction, KeyTable, LayoutPreset};
use serde::Deserialize;
use std::collections::HashMap;

/// A binding's value: an action, or `"none"` to remove a default binding.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Binding {
    Action(KeyAction),
    Unbound,
}

impl TryFrom<String> for Binding {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if s == "none" {
            return Ok(Binding::Unbound);
        }
        s.parse()
            .map(Binding::Action)
            .map_err(|e: fugue_protocol::bindings::ActionParseError| {
                format!("{e}, or \"none\" to unbind")
            })
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KeysSection {
    /// The prefix key.
    pub prefix: Key,
    /// Keys after the prefix, merged over the defaults.
    pub prefix_bindings: HashMap<Key, Binding>,
    /// Keys without the prefix.
    pub root_bindings: HashMap<Key, Binding>,
    /// How long after a repeatable key (resize, focus) another one acts without the
    /// prefix, in milliseconds; 0 turns repeating off.
    pub repeat_time_ms: u32,
    /// The multiplexer's own use of the mouse in the client (tmux's `mouse` option):
    /// click to focus, drag borders, the wheel, the status bar. Off, programs that
    /// ask for the mouse still get it, as with tmux's `mouse off`.
    pub mouse: bool,
}

impl Default for KeysSection {
    fn default() -> Self {
        KeysSection {
            prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
            prefix_bindings: HashMap::new(),
            root_bindings: HashMap::new(),
            repeat_time_ms: fugue_protocol::bindings::DEFAULT_REPEAT_TIME_MS,
            mouse: true,
        }
    }
}

fn key(s: &str) -> Option<Key> {
    Key::parse(s)
}

/// The built-in bindings after the prefix, as tmux has them.
pub fn default_prefix_bindings() -> Vec<(Key, KeyAction)> {
    use KeyAction as A;
    let mut v: Vec<(&str, KeyAction)> = vec![
        ("c", A::NewWindow),
        ("n", A::NextWindow),
        ("p", A::PreviousWindow),
        ("l", A::LastWindow),
        ("%", A::Split(Direction::Right)),
        ("\"", A::Split(Direction::Down)),
        ("Left", A::Focus(Direction::Left)),
        ("Right", A::Focus(Direction::Right)),
        ("Up", A::Focus(Direction::Up)),
        ("Down", A::Focus(Direction::Down)),
        ("o", A::NextPane),
        (";", A::LastPane),
        ("x", A::KillPane),
        ("&", A::KillWindow),
        ("z", A::Zoom),
        ("d", A::Detach),
        (",", A::RenameWindow),
        ("$", A::RenameSession),
        ("[", A::ScrollMode),
        ("PPage", A::ScrollPageUp),
        ("Space", A::NextLayout),
        ("M-1", A::Layout(LayoutPreset::EvenHorizontal)),
        ("M-2", A::Layout(LayoutPreset::EvenVertical)),
        ("M-3", A::Layout(LayoutPreset::MainHorizontal)),
        ("M-4", A::Layout(LayoutPreset::MainVertical)),
        ("M-5", A::Layout(LayoutPreset::Tiled)),
        ("C-Left", A::Resize(Direction::Left, 1)),
        ("C-Right", A::Resize(Direction::Right, 1)),
        ("C-Up", A::Resize(Direction::Up, 1)),
        ("C-Down", A::Resize(Direction::Down, 1)),
        ("M-Left", A::Resize(Direction::Left, 5)),
        ("M-Right", A::Resize(Direction::Right, 5)),
        ("M-Up", A::Resize(Direction::Up, 5)),
        ("M-Down", A::Resize(Direction::Down, 5)),
        ("?", A::ListKeys),
        ("C-c", A::NewSession),
        (")", A::SwitchSession(true)),
        ("(", A::SwitchSession(false)),
        ("r", A::Refresh),
        ("C-z", A::Suspend),
        ("~", A::ShowMessages),
        ("]", A::PasteBuffer),
        ("#", A::ListBuffers),
        ("=", A::ChooseBuffer),
        (":", A::CommandPrompt),
        ("q", A::DisplayPanes),
        ("s", A::ChooseTree(true)),
        ("w", A::ChooseTree(false)),
        ("f", A::FindWindow),
        ("t", A::ClockMode),
        ("D", A::ChooseClient),
        ("C", A::CustomizeMode),
    ];
    let digits: Vec<(String, KeyAction)> = (0..10)
        .map(|i| (i.to_string(), A::SelectWindow(i)))
        .collect();
    let mut out: Vec<(Key, KeyAction)> = v
        .drain(..)
        .filter_map(|(k, a)| key(k).map(|k| (k, a)))
        .collect();
    out.extend(
        digits
            .into_iter()
            .filter_map(|(k, a)| key(&k).map(|k| (k, a))),
    );
    out
}

fn merge(
    defaults: Vec<(Key, KeyAction)>,
    overrides: &HashMap<Key, Binding>,
) -> Vec<(Key, KeyAction)> {
    let mut out: Vec<(Key, KeyAction)> = defaults
        .into_iter()
        .filter(|(k, _)| !overrides.contains_key(k))
        .collect();
    let mut extra: Vec<(Key, KeyAction)> = overrides
        .iter()
        .filter_map(|(k, b)| match b {
            Binding::Action(a) => Some((*k, a.clone())),
            Binding::Unbound => None,
        })
        .collect();
    extra.sort_by_key(|(k, _)| k.to_string());
    out.extend(extra);
    out
}

impl KeysSection {
    /// The table an attached client uses.
    pub fn table(&self) -> KeyTable {
        let mut prefix_bindings = merge(default_prefix_bindings(), &self.prefix_bindings);
        // Pressing the prefix twice sends it, whatever the prefix is.
        if !self.prefix_bindings.contains_key(&self.prefix) {
            prefix_bindings.retain(|(k, _)| *k != self.prefix);
            prefix_bindings.push((self.prefix, KeyAction::SendPrefix));
        }
        let bindings = |table: &str, list: Vec<(Key, KeyAction)>| {
            list.into_iter()
                .map(|(key, action)| fugue_protocol::key_tables::Binding {
                    table: table.to_string(),
                    key,
                    repeat: action.repeats(),
                    note: None,
                    commands: vec![action.tmux_argv()],
                })
                .collect::<Vec<_>>()
        };
        let mut all = bindings("prefix", prefix_bindings);
        all.extend(bindings("root", merge(Vec::new(), &self.root_bindings)));
        // Copy mode's tables, which the terminal client's copy mode runs.
        all.extend(fugue_protocol::copy_tables::default_bindings());
        KeyTable {
            prefix: self.prefix,
            bindings: all,
            repeat_time_ms: self.repeat_time_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_tmux_like_and_prefix_twice_sends_it() {
        let t = KeysSection::default().table();
        assert_eq!(t.prefix.to_string(), "C-b");
        assert_eq!(
            t.prefix_action(&Key::char('%')),
            Some(KeyAction::Split(Direction::Right))
        );
        assert_eq!(
            t.prefix_action(&Key::char('"')),
            Some(KeyAction::Split(Direction::Down))
        );
        assert_eq!(
            t.prefix_action(&Key::char('7')),
            Some(KeyAction::SelectWindow(7))
        );
        assert_eq!(t.prefix_action(&t.prefix), Some(KeyAction::SendPrefix));
    }

    #[test]
    fn overrides_replace_and_unbind() {
        let mut k = KeysSection {
            prefix: Key::new(KeyCode::Char('a'), Mods::CTRL),
            ..Default::default()
        };
        k.prefix_bindings.insert(Key::char('%'), Binding::Unbound);
        k.prefix_bindings.insert(
            Key::char('|'),
            Binding::Action(KeyAction::Split(Direction::Right)),
        );
        let t = k.table();
        assert_eq!(t.prefix_action(&Key::char('%')), None);
        assert_eq!(
            t.prefix_action(&Key::char('|')),
            Some(KeyAction::Split(Direction::Right))
        );
        assert_eq!(
            t.prefix_action(&Key::new(KeyCode::Char('a'), Mods::CTRL)),
            Some(KeyAction::SendPrefix)
        );
        assert_eq!(
            t.prefix_action(&Key::new(KeyCode::Char('b'), Mods::CTRL)),
            None
        );
    }
}
