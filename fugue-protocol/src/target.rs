//! Target strings, as tmux writes them.
//!
//! Parsing is pure; resolving a target against the session tree happens on the server,
//! which is the only place that knows what exists.

use crate::ids::{PaneId, SessionId, WindowId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A window inside a session: by index (`2`) or by name (`editor`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowSpec {
    Index(u32),
    Name(String),
}

/// What a `-t` argument names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// `%N`
    Pane(PaneId),
    /// `@N`
    Window(WindowId),
    /// `$N`
    SessionId(SessionId),
    /// `name`, `name:`, `name:W`, `name:W.P`, `:W`, `:W.P`.
    /// A missing session means the current one; a missing window the session's active window;
    /// a missing pane index the window's active pane.
    Path {
        session: Option<String>,
        window: Option<WindowSpec>,
        pane: Option<u32>,
    },
}

impl Target {
    /// A target naming just a session.
    pub fn session(name: impl Into<String>) -> Self {
        Target::Path {
            session: Some(name.into()),
            window: None,
            pane: None,
        }
    }

    /// tmux's offset at the end of a target string (`:.+`, `:.-` for panes, `:+`, `:-`
    /// for windows): the target before it (None: the current one) and whether it goes
    /// forward; None without one. Only the commands that select take one
    /// (`select-pane`, `select-window`).
    pub fn split_offset(t: &str, pane: bool) -> Option<(Option<&str>, bool)> {
        let (base, sign) = match pane {
            true => t.rsplit_once('.')?,
            false => t.rsplit_once(':').unwrap_or(("", t)),
        };
        let forward = match sign {
            "+" => true,
            "-" => false,
            _ => return None,
        };
        let base = base.trim_end_matches(':');
        Some(((!base.is_empty()).then_some(base), forward))
    }
}

/// Why a target string could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid target `{input}`: {reason}. Targets look like %3, mysession, mysession:1 or mysession:1.0"
)]
pub struct TargetParseError {
    pub input: String,
    pub reason: String,
}

impl FromStr for Target {
    type Err = TargetParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason: &str| TargetParseError {
            input: s.to_string(),
            reason: reason.to_string(),
        };
        if s.is_empty() {
            return Err(err("it is empty"));
        }
        if s.starts_with('%') {
            return s.parse().map(Target::Pane).map_err(|e| err(&e));
        }
        if s.starts_with('@') {
            return s.parse().map(Target::Window).map_err(|e| err(&e));
        }
        // `$1` alone is the session; `$1:` and `$1:2.0` are a path in it (tmux takes
        // an id wherever a session name goes; libtmux's `new-window -t $1:`).
        if s.starts_with('$') && !s.contains(':') {
            return s.parse().map(Target::SessionId).map_err(|e| err(&e));
        }
        let (session, rest) = match s.split_once(':') {
            Some((sess, rest)) => (sess, Some(rest)),
            None => (s, None),
        };
        let session = (!session.is_empty()).then(|| session.to_string());
        let (window, pane) = match rest {
            None | Some("") => (None, None),
            Some(rest) => {
                let (w, p) = match rest.rsplit_once('.') {
                    Some((w, p)) if p.parse::<u32>().is_ok() => (w, Some(p)),
                    _ => (rest, None),
                };
                // tmux: `=` asks for an exact name, and an index is exact already
                // (`:=0`, its default `select-window -t :=0` on `C-b 0`).
                let index = w.strip_prefix('=').unwrap_or(w).parse::<u32>();
                let window = if w.is_empty() {
                    None
                } else if let Ok(i) = index {
                    Some(WindowSpec::Index(i))
                } else {
                    Some(WindowSpec::Name(w.to_string()))
                };
                let pane = match p {
                    Some(p) => Some(
                        p.parse::<u32>()
                            .map_err(|_| err("the pane index is not a number"))?,
                    ),
                    None => None,
                };
                (window, pane)
            }
        };
        if session.is_none() && window.is_none() && pane.is_none() {
            return Err(err("it names nothing"));
        }
        Ok(Target::Path {
            session,
            window,
            pane,
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Pane(p) => write!(f, "{p}"),
            Target::Window(w) => write!(f, "{w}"),
            Target::SessionId(s) => write!(f, "{s}"),
            Target::Path {
                session,
                window,
                pane,
            } => {
                if let Some(s) = session {
                    f.write_str(s)?;
                }
                // `$N:` keeps its colon: bare, `$N` would read back as the session id,
                // not this path (the fuzz target's round trip found `$668:`).
                let id_like = session.as_deref().is_some_and(|s| s.starts_with('$'));
                if window.is_some() || pane.is_some() || id_like {
                    f.write_str(":")?;
                }
                match window {
                    Some(WindowSpec::Index(i)) => write!(f, "{i}")?,
                    Some(WindowSpec::Name(n)) => f.write_str(n)?,
                    None => {}
                }
                if let Some(p) = pane {
                    write!(f, ".{p}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(s: Option<&str>, w: Option<WindowSpec>, p: Option<u32>) -> Target {
        Target::Path {
            session: s.map(String::from),
            window: w,
            pane: p,
        }
    }

    #[test]
    fn parses_the_tmux_forms() {
        assert_eq!("%4".parse(), Ok(Target::Pane(PaneId(4))));
        assert_eq!("@2".parse(), Ok(Target::Window(WindowId(2))));
        assert_eq!("work".parse(), Ok(path(Some("work"), None, None)));
        assert_eq!("work:".parse(), Ok(path(Some("work"), None, None)));
        assert_eq!(
            "work:2".parse(),
            Ok(path(Some("work"), Some(WindowSpec::Index(2)), None))
        );
        assert_eq!(
            "work:2.1".parse(),
            Ok(path(Some("work"), Some(WindowSpec::Index(2)), Some(1)))
        );
        assert_eq!(
            "work:editor".parse(),
            Ok(path(
                Some("work"),
                Some(WindowSpec::Name("editor".into())),
                None
            ))
        );
        assert_eq!(
            ":3".parse(),
            Ok(path(None, Some(WindowSpec::Index(3)), None))
        );
        assert_eq!("w:.1".parse(), Ok(path(Some("w"), None, Some(1))));
        assert_eq!(
            ":=0".parse(),
            Ok(path(None, Some(WindowSpec::Index(0)), None))
        );
        // A session id with a window part (libtmux's `new-window -t $1:`).
        assert_eq!("$1:".parse(), Ok(path(Some("$1"), None, None)));
        assert_eq!(
            "$1:2.0".parse(),
            Ok(path(Some("$1"), Some(WindowSpec::Index(2)), Some(0)))
        );
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        assert!("".parse::<Target>().is_err());
        assert!("%abc".parse::<Target>().is_err());
        assert!(":".parse::<Target>().is_err());
        let e = "%".parse::<Target>().unwrap_err();
        assert!(e.to_string().contains("Targets look like"));
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "%4",
            "@2",
            "$1",
            "work",
            "work:2",
            "work:2.1",
            ":3",
            "work:editor",
        ] {
            let t: Target = s.parse().unwrap();
            assert_eq!(t.to_string().parse::<Target>().unwrap(), t, "{s}");
        }
    }
}
