//! What an option means outside the store: its initial value from the configuration
//! file, the configuration field a change writes back to (so the code that reads the
//! configuration follows at once), and what attached clients are told.

use super::store::{Level, SetMode, Store};
use super::table::{self, Lookup, OPTIONS};
use super::value::Value;
use crate::config::Config;
use fugue_protocol::status_line::{StatusJustify, StatusOptions, StatusPosition};
use fugue_protocol::{ClientOptions, Key, SessionId};
use serde::Deserialize;
use serde::de::value::{Error as DeError, StrDeserializer};

/// A configuration enum's value from its option text ("external", "vi"...).
fn from_word<'de, T: Deserialize<'de>>(word: &'de str) -> Result<T, String> {
    T::deserialize(StrDeserializer::<DeError>::new(word)).map_err(|e| e.to_string())
}

/// An enum's configuration word (its variant name, lower case, as the file spells it).
fn word(v: impl std::fmt::Debug) -> Value {
    Value::Text(format!("{v:?}").to_ascii_lowercase())
}

/// An argv as one shell command line (tmux's commands are strings run by the shell).
fn command_line(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A command line as argv: a single element, which fugue runs with the shell when it
/// has spaces (as tmux runs its command options); empty is none.
fn argv(text: &str) -> Vec<String> {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![text.to_string()]
    }
}

fn num<T: TryInto<i64>>(n: T) -> Value {
    Value::Number(n.try_into().unwrap_or(i64::MAX))
}

/// The value the configuration gives an option that has a key in it.
pub fn read(config: &Config, name: &str) -> Option<Value> {
    let s = &config.server;
    let p = &config.passthrough;
    let c = &config.copy;
    Some(match name {
        "buffer-limit" => num(s.buffer_limit),
        "copy-command" => Value::Text(command_line(&c.copy_command)),
        "default-terminal" => Value::Text(s.term.clone()),
        "set-clipboard" => word(p.set_clipboard),
        "allow-title-reports" => Value::Flag(s.allow_title_reports),
        "tmux-compat" => Value::Flag(s.tmux_compat),
        "teammate-placement" => word(s.teammate_placement),
        "pane-borders" => word(s.pane_borders),
        "input-ready-wait" => num(s.input_ready_wait_ms),
        "frame-rate" => num(s.frame_rate),
        "get-clipboard" => word(p.get_clipboard),
        "main-pane-percent" => num(s.main_pane_percent),
        "max-connections" => num(s.max_connections),
        "max-input-bytes" => num(s.max_input_bytes),
        "max-osc-bytes" => num(s.max_osc_bytes),
        "message-human-pause" => num(config.messages.human_pause_ms),
        "message-max-queued" => num(config.messages.max_queued),
        "message-quiescence" => num(config.messages.quiescence_ms),
        "search-incremental" => Value::Flag(c.search_incremental),
        "search-regex" => Value::Flag(c.search_regex),
        "wrap-search" => Value::Flag(c.wrap_search),
        "wait-default-timeout" => num(config.waits.default_timeout_ms),
        "wait-max-timeout" => num(config.waits.max_timeout_ms),
        "bell-action" => word(p.bell_action),
        "default-command" => Value::Text(command_line(&s.default_command)),
        "default-size" => Value::Text(format!("{}x{}", s.default_width, s.default_height)),
        "history-limit" => num(s.history_limit),
        "mouse" => Value::Flag(config.keys.mouse),
        "prefix" => Value::Text(config.keys.prefix.to_string()),
        "repeat-time" => num(config.keys.repeat_time_ms),
        "set-titles" => Value::Flag(p.set_titles),
        "set-titles-string" => Value::Text(p.set_titles_string.clone()),
        "status" => Value::Text(match (config.status.enabled, config.status.lines) {
            (false, _) => "off".into(),
            (true, 0 | 1) => "on".into(),
            (true, n) => n.to_string(),
        }),
        "mode-keys" => word(c.mode_keys),
        "remain-on-exit" => Value::Text(if s.remain_on_exit { "on" } else { "off" }.into()),
        _ => return None,
    })
}

/// Writes a global value back into the configuration the server reads. Options with
/// no field (tmux's options fugue only stores) change nothing here.
pub fn write(config: &mut Config, name: &str, v: &Value) -> Result<(), String> {
    let n = v.number();
    let int = |n: i64| -> Result<usize, String> {
        usize::try_from(n).map_err(|_| format!("value is invalid: {n}"))
    };
    let s = &mut config.server;
    let p = &mut config.passthrough;
    let c = &mut config.copy;
    match name {
        "buffer-limit" => s.buffer_limit = int(n)?,
        "copy-command" => {
            let text = v.text();
            c.copy_command = if text.is_empty() {
                Vec::new()
            } else {
                vec!["/bin/sh".into(), "-c".into(), text]
            };
        }
        "default-terminal" => {
            if v.text().is_empty() {
                return Err("value is invalid: a terminal name such as xterm-256color".into());
            }
            s.term = v.text();
        }
        "set-clipboard" => p.set_clipboard = from_word(&v.text())?,
        "allow-title-reports" => s.allow_title_reports = v.flag(),
        "tmux-compat" => s.tmux_compat = v.flag(),
        "teammate-placement" => s.teammate_placement = from_word(&v.text())?,
        "pane-borders" => s.pane_borders = from_word(&v.text())?,
        "input-ready-wait" => s.input_ready_wait_ms = int(n)? as u64,
        "get-clipboard" => p.get_clipboard = from_word(&v.text())?,
        "main-pane-percent" => s.main_pane_percent = u8::try_from(n).map_err(|e| e.to_string())?,
        "message-human-pause" => config.messages.human_pause_ms = n.unsigned_abs(),
        "message-max-queued" => {
            config.messages.max_queued = u32::try_from(n).map_err(|e| e.to_string())?
        }
        "message-quiescence" => config.messages.quiescence_ms = n.unsigned_abs(),
        "search-incremental" => c.search_incremental = v.flag(),
        "search-regex" => c.search_regex = v.flag(),
        "wrap-search" => c.wrap_search = v.flag(),
        "wait-default-timeout" => config.waits.default_timeout_ms = n.unsigned_abs(),
        "wait-max-timeout" => config.waits.max_timeout_ms = n.unsigned_abs(),
        "bell-action" => p.bell_action = from_word(&v.text())?,
        "default-command" => s.default_command = argv(&v.text()),
        "default-size" => {
            let text = v.text();
            let (w, h) = text
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse::<u16>().ok()?, h.parse::<u16>().ok()?)))
                .ok_or_else(|| format!("value is invalid: {text}"))?;
            use fugue_protocol::limits::{MAX_COLS, MAX_ROWS, MIN_SESSION_COLS, MIN_SESSION_ROWS};
            s.default_width = w.clamp(MIN_SESSION_COLS, MAX_COLS);
            s.default_height = h.clamp(MIN_SESSION_ROWS, MAX_ROWS);
        }
        "history-limit" => s.history_limit = int(n)?,
        "mouse" => config.keys.mouse = v.flag(),
        "prefix" => {
            let text = v.text();
            config.keys.prefix = Key::parse(&text)
                .ok_or_else(|| format!("bad key: {text} (the prefix cannot be None)"))?;
        }
        "repeat-time" => {
            config.keys.repeat_time_ms = u32::try_from(n).map_err(|e| e.to_string())?
        }
        "set-titles" => p.set_titles = v.flag(),
        "set-titles-string" => {
            p.set_titles_string = v.text();
            p.validate()?;
        }
        "status" => {
            let t = v.text();
            config.status.enabled = t != "off";
            config.status.lines = t.parse().unwrap_or(1);
        }
        "mode-keys" => c.mode_keys = from_word(&v.text())?,
        "remain-on-exit" => s.remain_on_exit = v.text() == "on",
        _ => {}
    }
    Ok(())
}

/// The store the configuration describes: every option's default, the values of the
/// configuration's keys, then its `[options]` section.
pub fn from_config(config: &Config) -> Result<Store, String> {
    let mut store = Store::new();
    for o in OPTIONS {
        if let Some(v) = read(config, o.name) {
            let level = global_level(o.scope);
            store
                .set(level, Some(o), o.name, Some(&v.show()), SetMode::default())
                .map_err(|e| format!("{}: {e}", o.toml.unwrap_or(o.name)))?;
        }
    }
    for (key, value) in &config.options {
        let text = |v: &toml::Value| -> Result<String, String> {
            Ok(match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => if *b { "on" } else { "off" }.into(),
                other => {
                    return Err(format!(
                        "options.{key}: expected a string, number or boolean, found {other}"
                    ));
                }
            })
        };
        if key.starts_with('@') {
            store.set(
                Level::GlobalSession,
                None,
                key,
                Some(&text(value)?),
                SetMode::default(),
            )?;
            continue;
        }
        let o = match table::lookup(key) {
            Lookup::Found(o) if o.name == key.replace('_', "-") => o,
            _ => return Err(format!("options.{key}: invalid option: {key}")),
        };
        let level = global_level(o.scope);
        let values: Vec<String> = match value {
            toml::Value::Array(items) => items.iter().map(text).collect::<Result<_, _>>()?,
            v => vec![text(v)?],
        };
        if o.kind == table::Kind::Array {
            store.unset(level, Some(o), o.name, &[]);
            store
                .set(level, Some(o), o.name, Some(""), SetMode::default())
                .map_err(|e| format!("options.{key}: {e}"))?;
        }
        for v in values {
            let mode = SetMode {
                append: o.kind == table::Kind::Array,
                only_if_unset: false,
            };
            store
                .set(level, Some(o), o.name, Some(&v), mode)
                .map_err(|e| format!("options.{key}: {e}"))?;
        }
    }
    Ok(store)
}

/// The configuration with every global value of the store written into it.
pub fn config_from(config: &Config, store: &Store) -> Result<Config, String> {
    let mut c = config.clone();
    for o in OPTIONS {
        if read(config, o.name).is_some()
            && let Some(v) = store.global(o.name)
        {
            write(&mut c, o.name, v)?;
        }
    }
    Ok(c)
}

/// The global table an option of `scope` lives in.
pub fn global_level(scope: table::Scope) -> Level {
    match scope {
        table::Scope::Server => Level::Server,
        table::Scope::Session => Level::GlobalSession,
        table::Scope::Window | table::Scope::WindowPane => Level::GlobalWindow,
    }
}

/// Options that attached clients act on themselves: a change to one of these is sent
/// to them ([`fugue_protocol::ServerMessage::Options`]).
pub const CLIENT_OPTIONS: &[&str] = &[
    "status",
    "status-format",
    "mouse",
    "prefix",
    "repeat-time",
    "set-titles",
    "set-titles-string",
    "set-clipboard",
    "mode-keys",
    "search-incremental",
    "search-regex",
    "wrap-search",
    "copy-command",
    // The status line's (see `status_options`).
    "status-left",
    "status-right",
    "status-style",
    "status-left-style",
    "status-right-style",
    "status-left-length",
    "status-right-length",
    "status-position",
    "status-justify",
    "status-interval",
    "status-fg",
    "status-bg",
    "window-status-format",
    "window-status-current-format",
    "window-status-style",
    "window-status-current-style",
    "window-status-last-style",
    "window-status-activity-style",
    "window-status-bell-style",
    "window-status-separator",
    "message-style",
    "display-time",
    // display-panes' (see `status_options`).
    "display-panes-time",
    "display-panes-colour",
    "display-panes-active-colour",
    // lock-server's and the idle lock's (see `status_options`).
    "lock-command",
    "lock-after-time",
];

/// What an attached client gets, from the configuration (with the options written in).
pub fn client_options(config: &Config) -> ClientOptions {
    ClientOptions {
        keys: config.keys.table(),
        status: config.status.enabled,
        titles: config.passthrough.titles(),
        mouse: config.keys.mouse,
        copy: config.copy.options(config.passthrough.set_clipboard),
        status_line: Default::default(),
        option_names: option_names(),
    }
}

/// Every option's name, sorted, for clients' completion at `C-b :`.
pub fn option_names() -> Vec<String> {
    let mut names: Vec<String> = super::table::OPTIONS
        .iter()
        .map(|o| o.name.to_string())
        .collect();
    names.sort();
    names
}

/// The status line's options for a client of `session` (its own values where it has
/// them, else the global ones, as tmux reads them for the client's session). Window
/// options (`window-status-*`) are the global window values: fugue draws every window
/// of the list with the same formats.
pub fn status_options(store: &Store, session: Option<SessionId>) -> StatusOptions {
    let level = session.map_or(Level::GlobalSession, Level::Session);
    let text = |name: &str| {
        store
            .effective(level, name)
            .or_else(|| store.effective(Level::GlobalWindow, name))
            .map(|(v, _)| v.text())
            .unwrap_or_default()
    };
    let number = |name: &str| {
        store
            .effective(level, name)
            .map(|(v, _)| v.number())
            .unwrap_or(0)
    };
    let mut style = text("status-style");
    // tmux's status-fg / status-bg are applied over status-style when not default.
    for (opt, key) in [("status-fg", "fg"), ("status-bg", "bg")] {
        let v = text(opt);
        if !v.is_empty() && v != "default" {
            style.push_str(&format!(",{key}={v}"));
        }
    }
    let clamp16 = |n: i64| u16::try_from(n.clamp(0, i64::from(u16::MAX))).unwrap_or(u16::MAX);
    let clamp32 = |n: i64| u32::try_from(n.clamp(0, i64::from(u32::MAX))).unwrap_or(u32::MAX);
    StatusOptions {
        left: text("status-left"),
        right: text("status-right"),
        style,
        left_style: text("status-left-style"),
        right_style: text("status-right-style"),
        left_length: clamp16(number("status-left-length")),
        right_length: clamp16(number("status-right-length")),
        position: if text("status-position") == "top" {
            StatusPosition::Top
        } else {
            StatusPosition::Bottom
        },
        justify: StatusJustify::parse(&text("status-justify")),
        interval: clamp32(number("status-interval")),
        window_format: text("window-status-format"),
        window_current_format: text("window-status-current-format"),
        window_style: text("window-status-style"),
        window_current_style: text("window-status-current-style"),
        window_last_style: text("window-status-last-style"),
        window_activity_style: text("window-status-activity-style"),
        window_bell_style: text("window-status-bell-style"),
        window_separator: text("window-status-separator"),
        message_style: text("message-style"),
        display_time_ms: clamp32(number("display-time")),
        lines: match text("status").as_str() {
            "off" | "on" => 1,
            n => n.parse().unwrap_or(1),
        },
        formats: match store.effective(level, "status-format") {
            Some((Value::Array(items), _)) => items.clone(),
            _ => Vec::new(),
        },
        display_panes_time_ms: clamp32(number("display-panes-time")),
        display_panes_colour: text("display-panes-colour"),
        display_panes_active_colour: text("display-panes-active-colour"),
        clock_mode_colour: text("clock-mode-colour"),
        clock_mode_style: text("clock-mode-style"),
        lock_command: text("lock-command"),
        lock_after_secs: clamp32(number("lock-after-time")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_configuration_sets_the_initial_values() {
        let c = Config::parse(
            "[server]\nhistory_limit = 123\n[keys]\nprefix = \"C-a\"\nmouse = false\n\
             [options]\nstatus-left = \"[#S]\"\nrenumber_windows = true\n\
             update-environment = [\"A\", \"B\"]\n\"@theme\" = \"dark\"\n",
            Path::new("c.toml"),
        )
        .unwrap();
        let s = from_config(&c).unwrap();
        assert_eq!(s.global("history-limit"), Some(&Value::Number(123)));
        assert_eq!(s.global("prefix"), Some(&Value::Text("C-a".into())));
        assert_eq!(s.global("mouse"), Some(&Value::Flag(false)));
        assert_eq!(s.global("status-left"), Some(&Value::Text("[#S]".into())));
        assert_eq!(s.global("renumber-windows"), Some(&Value::Flag(true)));
        assert_eq!(
            s.global("update-environment"),
            Some(&Value::Array(vec!["A".into(), "B".into()]))
        );
        assert_eq!(s.global("@theme"), Some(&Value::Text("dark".into())));
        // Written back, nothing changes.
        assert_eq!(config_from(&c, &s).unwrap(), c);
    }

    #[test]
    fn bad_options_in_the_file_are_refused_naming_them() {
        for (text, want) in [
            ("[options]\nfoo = 1\n", "invalid option: foo"),
            ("[options]\nmouse = \"maybe\"\n", "bad value: maybe"),
            ("[options]\nhist = 5\n", "invalid option: hist"),
        ] {
            let e = Config::parse(text, Path::new("c.toml"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn a_change_writes_back_into_the_configuration() {
        let c = Config::default();
        let mut s = from_config(&c).unwrap();
        for (name, v) in [
            ("history-limit", "100"),
            ("mouse", "off"),
            ("status", "off"),
            ("mode-keys", "emacs"),
            ("set-clipboard", "on"),
            ("prefix", "C-a"),
            ("buffer-limit", "3"),
            ("default-size", "100x30"),
        ] {
            let o = table::find(name).unwrap();
            s.set(
                global_level(o.scope),
                Some(o),
                name,
                Some(v),
                SetMode::default(),
            )
            .unwrap();
        }
        let c = config_from(&c, &s).unwrap();
        assert_eq!(c.server.history_limit, 100);
        assert!(!c.keys.mouse && !c.status.enabled);
        assert_eq!(c.copy.mode_keys, fugue_protocol::ModeKeys::Emacs);
        assert_eq!(c.passthrough.set_clipboard, crate::config::SetClipboard::On);
        assert_eq!(c.keys.prefix.to_string(), "C-a");
        assert_eq!(c.server.buffer_limit, 3);
        assert_eq!((c.server.default_width, c.server.default_height), (100, 30));
    }
}
