//! Key bindings in the config file, merged over tmux's defaults.

use fugue_protocol::KeyTable;
use fugue_protocol::key_tables::{self, Binding as TableBinding};
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::tmux_cmd::Argv;
use serde::Deserialize;
use std::collections::HashMap;

/// A binding's value: one of fugue's names for a command line (`"split-right"`), a
/// tmux command line, or `"none"` to remove a default binding.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Binding {
    Line {
        commands: Vec<Argv>,
        repeat: bool,
        note: Option<String>,
    },
    Unbound,
}

impl TryFrom<String> for Binding {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if s == "none" {
            return Ok(Binding::Unbound);
        }
        let (commands, repeat, note) = fugue_protocol::bindings::config_line(&s)
            .map_err(|e| format!("{e}, or \"none\" to unbind"))?;
        // A typo is an error when the file is read, not a silent key later.
        fugue_verbs::line::check_commands(&commands).map_err(|e| {
            format!(
                "`{s}`: {e}; give a tmux command line, one of: {}, or \"none\" to unbind",
                fugue_protocol::bindings::names()
            )
        })?;
        Ok(Binding::Line {
            commands,
            repeat,
            note,
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

/// `defaults` with the config's keys of one table laid over them: a key the config
/// binds replaces its default, `"none"` removes it.
fn merge(
    table: &str,
    defaults: Vec<TableBinding>,
    overrides: &HashMap<Key, Binding>,
) -> Vec<TableBinding> {
    let mut out: Vec<TableBinding> = defaults
        .into_iter()
        .filter(|b| !overrides.contains_key(&b.key))
        .collect();
    let mut extra: Vec<TableBinding> = overrides
        .iter()
        .filter_map(|(key, b)| match b {
            Binding::Line {
                commands,
                repeat,
                note,
            } => Some(TableBinding {
                table: table.to_string(),
                key: *key,
                repeat: *repeat,
                note: note.clone(),
                commands: commands.clone(),
            }),
            Binding::Unbound => None,
        })
        .collect();
    extra.sort_by_key(|b| b.key.to_string());
    out.extend(extra);
    out
}

impl KeysSection {
    /// The table an attached client uses.
    pub fn table(&self) -> KeyTable {
        let mut all = merge(
            "prefix",
            key_tables::default_prefix(),
            &self.prefix_bindings,
        );
        // Pressing the prefix twice sends it, whatever the prefix is.
        if !self.prefix_bindings.contains_key(&self.prefix) {
            all.retain(|b| b.key != self.prefix);
            all.push(TableBinding {
                table: "prefix".into(),
                key: self.prefix,
                repeat: false,
                note: fugue_protocol::bindings::named_line("send-prefix").map(|n| n.note),
                commands: vec![vec!["send-prefix".into()]],
            });
        }
        all.extend(merge("root", Vec::new(), &self.root_bindings));
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

    fn line(t: &KeyTable, key: Key) -> Option<String> {
        let b = t.lookup("prefix", &key)?;
        Some(fugue_protocol::tmux_cmd::print_sequence(&b.commands))
    }

    #[test]
    fn defaults_are_tmux_like_and_prefix_twice_sends_it() {
        let t = KeysSection::default().table();
        assert_eq!(t.prefix.to_string(), "C-b");
        assert_eq!(line(&t, Key::char('%')).as_deref(), Some("split-window -h"));
        assert_eq!(line(&t, Key::char('"')).as_deref(), Some("split-window -v"));
        assert_eq!(
            line(&t, Key::char('7')).as_deref(),
            Some("select-window -t :=7")
        );
        assert_eq!(line(&t, t.prefix).as_deref(), Some("send-prefix"));
        assert!(
            t.lookup("prefix", &Key::parse("C-Up").unwrap())
                .unwrap()
                .repeat
        );
    }

    #[test]
    fn overrides_replace_and_unbind_by_name_or_line() {
        let mut k = KeysSection {
            prefix: Key::new(KeyCode::Char('a'), Mods::CTRL),
            ..Default::default()
        };
        let bind = |s: &str| Binding::try_from(s.to_string()).unwrap();
        k.prefix_bindings.insert(Key::char('%'), bind("none"));
        k.prefix_bindings
            .insert(Key::char('|'), bind("split-right"));
        k.prefix_bindings.insert(
            Key::char('-'),
            bind("split-window -v -c '#{pane_current_path}'"),
        );
        let t = k.table();
        assert_eq!(line(&t, Key::char('%')), None);
        assert_eq!(line(&t, Key::char('|')).as_deref(), Some("split-window -h"));
        assert_eq!(
            line(&t, Key::char('-')).as_deref(),
            Some("split-window -v -c \"#{pane_current_path}\"")
        );
        assert_eq!(
            line(&t, Key::new(KeyCode::Char('a'), Mods::CTRL)).as_deref(),
            Some("send-prefix")
        );
        assert_eq!(line(&t, Key::new(KeyCode::Char('b'), Mods::CTRL)), None);
    }

    #[test]
    fn a_typo_is_refused_when_the_file_is_read() {
        let e = Binding::try_from("split-sideways".to_string()).unwrap_err();
        assert!(e.contains("split-right") && e.contains("none"), "{e}");
        assert!(Binding::try_from("resize left".to_string()).is_err());
    }
}
