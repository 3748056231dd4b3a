//! Options (tmux's `set-option` and `show-options`): the commands' arguments, their
//! answers, and what attached clients are told when an option they act on changes.
//!
//! The option table itself (names, scopes, types, defaults) lives on the server
//! (`fugue-server/src/options/`); the wire carries names and values as text, as tmux's
//! command line does.

use crate::bindings::KeyTable;
use crate::response::CopyOptions;
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// Which table of options a command addresses when it names no option (tmux's `-s`,
/// `-w`, `-p`; none of them: session options). With an option name the option's own
/// scope counts, as in tmux.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionScope {
    Server,
    #[default]
    Session,
    Window,
    Pane,
}

impl OptionScope {
    pub fn name(self) -> &'static str {
        match self {
            OptionScope::Server => "server",
            OptionScope::Session => "session",
            OptionScope::Window => "window",
            OptionScope::Pane => "pane",
        }
    }
}

/// `set-option` (`set`, and `set-window-option` / `setw`, which is `-w`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetOption {
    /// The session, window or pane whose value is set (`-t`); default the caller's.
    pub target: Option<Target>,
    /// `-s`, `-w`, `-p`: which table, when the name alone does not say (user options,
    /// `@name`).
    pub scope: Option<OptionScope>,
    /// `-g`: the global value, which objects without their own inherit.
    pub global: bool,
    /// `-u`: remove the value, so the object inherits again (the global value returns
    /// to the default).
    pub unset: bool,
    /// `-U`: as `-u`, and for a window option also unset it on every pane of the
    /// window.
    pub unset_panes: bool,
    /// `-a`: append to a string (or add an element to an array).
    pub append: bool,
    /// `-o`: fail if the option already has a value here.
    pub only_if_unset: bool,
    /// `-q`: no error for an unknown or ambiguous option.
    pub quiet: bool,
    /// `-F`: expand the value as a format first.
    pub format: bool,
    /// The option's name (a unique prefix of one, as tmux takes, or `@user`).
    pub name: String,
    /// The value; none toggles a flag (and is an error for other types).
    pub value: Option<String>,
}

/// `show-options` (`show`, and `show-window-options` / `showw`, which is `-w`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowOptions {
    pub target: Option<Target>,
    pub scope: Option<OptionScope>,
    /// `-g`: the global values.
    pub global: bool,
    /// `-A`: also the values an object inherits, marked with `*`.
    pub inherited: bool,
    /// `-q`: no error for an unknown option.
    pub quiet: bool,
    /// One option (or a unique prefix of one); none shows the whole table.
    pub name: Option<String>,
}

/// One line of `show-options`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionLine {
    /// The option's name, with `[N]` for an element of an array option.
    pub name: String,
    /// The value as tmux's `show-options -v` prints it; none for an empty array (tmux
    /// prints the bare name).
    pub value: Option<String>,
    /// The value is a string (tmux quotes strings when it prints name and value).
    pub string: bool,
    /// Inherited from the parent scope (`show -A` marks it with `*`).
    pub inherited: bool,
}

impl OptionLine {
    /// The line as tmux 3.3a prints it: `name value`, the value of a string option
    /// quoted (`args_escape`), `*` after the name of an inherited one.
    pub fn line(&self) -> String {
        let star = if self.inherited { "*" } else { "" };
        match &self.value {
            None => format!("{}{star}", self.name),
            Some(v) if self.string => format!("{}{star} {}", self.name, escape(v)),
            Some(v) => format!("{}{star} {v}", self.name),
        }
    }
}

/// tmux's `args_escape`: how `show-options` quotes a string value so that it reads back
/// as the same value on a tmux command line.
pub fn escape(s: &str) -> String {
    if s.is_empty() {
        return "''".into();
    }
    const DQUOTED: &[char] = &[' ', '#', '\'', ';', '$', '{', '}', '%'];
    const SQUOTED: &[char] = &[' ', '"'];
    let quote = if s.contains(DQUOTED) {
        Some('"')
    } else if s.contains(SQUOTED) {
        Some('\'')
    } else {
        None
    };
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c != ' '
        && (quote.is_some() || c == '~')
    {
        return format!("\\{c}");
    }
    let mut escaped = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '"' if quote == Some('"') => escaped.push_str("\\\""),
            '\n' => escaped.push_str("\\n"),
            '\t' => escaped.push_str("\\t"),
            '\r' => escaped.push_str("\\r"),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    escaped.push_str(&format!("\\{b:03o}"));
                }
            }
            c => escaped.push(c),
        }
    }
    let tilde = if escaped.starts_with('~') { "\\" } else { "" };
    match quote {
        Some('\'') => format!("'{escaped}'"),
        Some(_) => format!("\"{tilde}{escaped}\""),
        None => format!("{tilde}{escaped}"),
    }
}

/// What [`getopt`] found: the flags, `-t`'s value, the operands.
type Parsed<'a> = (Vec<char>, Option<&'a str>, Vec<&'a str>);

/// tmux's getopt for the option commands: flags (`-gq`, combined or not), `-t TARGET`
/// (`-tX` or `-t X`), then the operands. `--` ends the flags.
fn getopt<'a>(args: &'a [String], flags: &str) -> Result<Parsed<'a>, String> {
    let mut seen = Vec::new();
    let mut target = None;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else {
            break;
        };
        for (at, c) in letters.char_indices() {
            if c == 't' {
                let rest = &letters[at + c.len_utf8()..];
                target = Some(if rest.is_empty() {
                    i += 1;
                    args.get(i).map(String::as_str).ok_or("-t needs a target")?
                } else {
                    rest
                });
                break;
            }
            if !flags.contains(c) {
                return Err(format!("unknown flag -{c}"));
            }
            seen.push(c);
        }
        i += 1;
    }
    Ok((
        seen,
        target,
        args[i.min(args.len())..]
            .iter()
            .map(String::as_str)
            .collect(),
    ))
}

fn scope_flag(seen: &[char], window: bool) -> Option<OptionScope> {
    // As tmux, the last of -s, -w, -p given wins.
    let last = seen.iter().rev().find(|c| matches!(c, 's' | 'w' | 'p'));
    match last {
        Some('s') => Some(OptionScope::Server),
        Some('p') => Some(OptionScope::Pane),
        Some(_) => Some(OptionScope::Window),
        None if window => Some(OptionScope::Window),
        None => None,
    }
}

impl SetOption {
    /// `set-option`'s arguments after the command name, as a tmux command line gives
    /// them (`-g status-left "[#S] "`); `window` for `set-window-option` / `setw`.
    /// For `source-file`, the command prompt and bindings.
    pub fn from_args(args: &[String], window: bool) -> Result<SetOption, String> {
        let (seen, target, operands) = getopt(args, "aFgopqsuUw")?;
        let (name, value) = match operands.as_slice() {
            [name] => (*name, None),
            [name, value] => (*name, Some((*value).to_string())),
            [] => return Err("set-option: give an option".into()),
            _ => return Err("set-option: too many arguments (need at most 2)".into()),
        };
        let target = target
            .map(|t| t.parse::<Target>().map_err(|e| e.to_string()))
            .transpose()?;
        Ok(SetOption {
            target,
            scope: scope_flag(&seen, window),
            global: seen.contains(&'g'),
            unset: seen.contains(&'u'),
            unset_panes: seen.contains(&'U'),
            append: seen.contains(&'a'),
            only_if_unset: seen.contains(&'o'),
            quiet: seen.contains(&'q'),
            format: seen.contains(&'F'),
            name: name.to_string(),
            value,
        })
    }
}

impl ShowOptions {
    /// `show-options`' arguments after the command name (`-gv history-limit`), with
    /// whether `-v` asked for values only (a printing choice, not part of the
    /// command); `window` for `show-window-options` / `showw`.
    pub fn from_args(args: &[String], window: bool) -> Result<(ShowOptions, bool), String> {
        let (seen, target, operands) = getopt(args, "AgHpqsvw")?;
        let name = match operands.as_slice() {
            [] => None,
            [name] => Some((*name).to_string()),
            _ => return Err("show-options: too many arguments (need at most 1)".into()),
        };
        let target = target
            .map(|t| t.parse::<Target>().map_err(|e| e.to_string()))
            .transpose()?;
        Ok((
            ShowOptions {
                target,
                scope: scope_flag(&seen, window),
                global: seen.contains(&'g'),
                inherited: seen.contains(&'A'),
                quiet: seen.contains(&'q'),
                name,
            },
            seen.contains(&'v'),
        ))
    }
}

/// What an attached client acts on itself, sent when it attaches
/// ([`crate::AttachInfo`]) and again whenever one of these options changes
/// ([`crate::ServerMessage::Options`]), so `set -g mouse off` reaches a client without
/// reattaching.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientOptions {
    pub keys: KeyTable,
    /// tmux's `status`.
    pub status: bool,
    /// tmux's `set-titles-string` when `set-titles` is on.
    pub titles: Option<String>,
    /// tmux's `mouse`.
    pub mouse: bool,
    /// tmux's `mode-keys`, `set-clipboard` and fugue's copy-mode options.
    pub copy: CopyOptions,
    /// The status line's formats and styles (tmux's defaults from a server without).
    #[serde(default)]
    pub status_line: Box<crate::status_line::StatusOptions>,
    /// Every option name the server knows, for the command prompt's completion.
    #[serde(default)]
    pub option_names: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values as tmux 3.3a's `show-options` prints them (copied from its output).
    #[test]
    fn escape_matches_tmux() {
        for (value, shown) in [
            ("", "''"),
            ("lock -np", "\"lock -np\""),
            ("bg=green,fg=black", "bg=green,fg=black"),
            (
                "#{?pane_in_mode,fg=yellow,fg=green}",
                "\"#{?pane_in_mode,fg=yellow,fg=green}\"",
            ),
            (" ", "\" \""),
            (
                "#S:#I:#W - \"#T\" #{session_alerts}",
                "\"#S:#I:#W - \\\"#T\\\" #{session_alerts}\"",
            ),
            (
                "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~",
                "\"!\\\"#$%&'()*+,-./:;<=>?@[\\\\]^`{|}~\"",
            ),
            ("a\"b", "'a\"b'"),
            ("#", "\\#"),
            ("~/x", "\\~/x"),
            ("xterm*:clipboard:title", "xterm*:clipboard:title"),
        ] {
            assert_eq!(escape(value), shown, "{value}");
        }
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn tmux_command_lines_parse() {
        let s = SetOption::from_args(&args("-gq status-left [#S]"), false).unwrap();
        assert!(s.global && s.quiet && !s.append);
        assert_eq!(
            (s.name.as_str(), s.value.as_deref()),
            ("status-left", Some("[#S]"))
        );
        let s = SetOption::from_args(&args("-t%3 -p remain-on-exit failed"), false).unwrap();
        assert_eq!(s.scope, Some(OptionScope::Pane));
        assert_eq!(s.target, Some("%3".parse().unwrap()));
        let s = SetOption::from_args(&args("-g mouse"), false).unwrap();
        assert_eq!(s.value, None);
        let s = SetOption::from_args(&args("mode-keys vi"), true).unwrap();
        assert_eq!(s.scope, Some(OptionScope::Window));
        let s = SetOption::from_args(&args("-g status-left -- -x"), false);
        assert!(s.is_err(), "three operands");
        let s = SetOption::from_args(&args("-g -- status-left -x"), false).unwrap();
        assert_eq!(s.value.as_deref(), Some("-x"));
        assert!(SetOption::from_args(&args("-z mouse"), false).is_err());
        let (s, v) = ShowOptions::from_args(&args("-gv history-limit"), false).unwrap();
        assert!(s.global && v);
        assert_eq!(s.name.as_deref(), Some("history-limit"));
        let (s, v) = ShowOptions::from_args(&args("-A"), true).unwrap();
        assert!(s.inherited && !v && s.name.is_none());
        assert_eq!(s.scope, Some(OptionScope::Window));
    }

    #[test]
    fn lines_mark_inherited_values() {
        let l = OptionLine {
            name: "status-left".into(),
            value: Some("[#S] ".into()),
            string: true,
            inherited: true,
        };
        assert_eq!(l.line(), "status-left* \"[#S] \"");
        let empty = OptionLine {
            name: "user-keys".into(),
            value: None,
            string: true,
            inherited: false,
        };
        assert_eq!(empty.line(), "user-keys");
    }
}
