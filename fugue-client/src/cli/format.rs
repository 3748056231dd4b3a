//! `-F` formats with `#{variable}` substitution, as tmux has them.

use crate::connection::Connection;
use anyhow::bail;
use fugue_protocol::{Command, Created, PaneInfo, PaneScope, Response, SessionInfo, Target};

fn flag(b: bool) -> String {
    if b { "1".into() } else { "0".into() }
}

/// The value of a pane variable, or None if the name is unknown.
pub fn pane_var(p: &PaneInfo, name: &str) -> Option<String> {
    Some(match name {
        "pane_id" => p.id.to_string(),
        "pane_index" => p.index.to_string(),
        "pane_width" => p.width.to_string(),
        "pane_height" => p.height.to_string(),
        "pane_title" => p.title.clone(),
        "pane_current_command" => p.command.clone(),
        "pane_current_path" => p.cwd.clone().unwrap_or_default(),
        "pane_pid" => p.pid.map(|p| p.to_string()).unwrap_or_default(),
        "pane_active" => flag(p.active),
        "pane_dead" => flag(!p.alive),
        "pane_dead_status" => p.exit_status.map(|s| s.to_string()).unwrap_or_default(),
        "pane_sideband" => flag(p.sideband),
        "cursor_x" => p.cursor_col.to_string(),
        "cursor_y" => p.cursor_row.to_string(),
        "alternate_on" => flag(p.alternate_screen),
        "session_name" => p.session.clone(),
        "session_id" => p.session_id.to_string(),
        "window_index" => p.window_index.to_string(),
        "window_name" => p.window_name.clone(),
        "window_id" => p.window_id.to_string(),
        "window_active" => flag(p.window_active),
        "pane_created_by" => p.created_by.clone(),
        "pane_parent" => p.parent.map(|p| p.to_string()).unwrap_or_default(),
        "agent" => p
            .agent
            .as_ref()
            .and_then(|a| a.preset.clone())
            .unwrap_or_default(),
        "agent_state" => p
            .agent
            .as_ref()
            .map(|a| a.state.to_string())
            .unwrap_or_default(),
        "agent_tags" => p
            .agent
            .as_ref()
            .map(|a| a.tags.join(","))
            .unwrap_or_default(),
        _ => return None,
    })
}

/// Every name [`pane_var`] answers: `list-panes -F`, `display-message -p` and the `-P -F`
/// of the verbs that create panes all take these.
pub const PANE_VARS: &[&str] = &[
    "pane_id",
    "pane_index",
    "pane_width",
    "pane_height",
    "pane_title",
    "pane_current_command",
    "pane_current_path",
    "pane_pid",
    "pane_active",
    "pane_dead",
    "pane_dead_status",
    "pane_sideband",
    "cursor_x",
    "cursor_y",
    "alternate_on",
    "session_name",
    "session_id",
    "window_index",
    "window_name",
    "window_id",
    "window_active",
    "pane_created_by",
    "pane_parent",
    "agent",
    "agent_state",
    "agent_tags",
];

pub fn session_var(s: &SessionInfo, name: &str) -> Option<String> {
    Some(match name {
        "session_name" => s.name.clone(),
        "session_id" => s.id.to_string(),
        "session_windows" => s.windows.to_string(),
        "session_created" => s.created.to_string(),
        "session_attached" => s.attached.to_string(),
        "session_width" => s.width.to_string(),
        "session_height" => s.height.to_string(),
        _ => return None,
    })
}

pub const SESSION_VARS: &[&str] = &[
    "session_name",
    "session_id",
    "session_windows",
    "session_created",
    "session_attached",
    "session_width",
    "session_height",
];

/// Checks that `format` is well formed and names only `known` variables, so a verb can
/// refuse a bad format before it changes anything.
pub fn validate(format: &str, known: &[&str]) -> anyhow::Result<()> {
    expand(format, |n| known.contains(&n).then(String::new), known).map(drop)
}

/// Expands `#{name}` in `format` with `lookup`, and tmux's short names (`#S` is
/// `#{session_name}`, see [`fugue_protocol::passthrough::FORMAT_ALIASES`]); `##` is
/// `#`, and `#` before anything else stays as it is. An unknown name is an error that
/// lists the known ones.
pub fn expand(
    format: &str,
    lookup: impl Fn(&str) -> Option<String>,
    known: &[&str],
) -> anyhow::Result<String> {
    let mut out = String::with_capacity(format.len());
    let mut rest = format;
    let var = |name: &str, out: &mut String| match lookup(name) {
        Some(v) => {
            out.push_str(&v);
            Ok(())
        }
        None => Err(anyhow::anyhow!(
            "unknown format variable `#{{{name}}}`; known variables: {}",
            known.join(", ")
        )),
    };
    while let Some(start) = rest.find('#') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let next = after.chars().next();
        let alias = next.and_then(fugue_protocol::passthrough::format_alias);
        rest = match (next, alias) {
            (Some('{'), _) => {
                let Some(end) = after.find('}') else {
                    bail!("unterminated `#{{` in format `{format}`");
                };
                var(&after[1..end], &mut out)?;
                &after[end + 1..]
            }
            (Some('#'), _) => {
                out.push('#');
                &after[1..]
            }
            (Some(c), Some(name)) => {
                var(name, &mut out)?;
                &after[c.len_utf8()..]
            }
            _ => {
                out.push('#');
                after
            }
        };
    }
    out.push_str(rest);
    Ok(out)
}

/// Prints what `-P` asks for: the new pane in `-F` (the list-panes variables; validated
/// before the verb ran), read back from the server since the answer holds only ids.
pub async fn created_line(
    conn: &mut Connection,
    c: &Created,
    fmt: Option<&str>,
) -> anyhow::Result<String> {
    let Some(fmt) = fmt else {
        return Ok(c.pane.to_string());
    };
    let list = match conn
        .call(Command::ListPanes {
            target: Some(Target::Pane(c.pane)),
            scope: PaneScope::Pane,
        })
        .await?
    {
        Ok(Response::Panes(list)) => list,
        Ok(other) => bail!("unexpected answer to list-panes: {other:?}"),
        Err(e) => bail!(
            "{} was created, but -F could not read it back: {}",
            c.pane,
            e.display_with_suggestion()
        ),
    };
    let Some(p) = list.first() else {
        bail!("{} was created, but it is gone already", c.pane);
    };
    expand(fmt, |n| pane_var(p, n), PANE_VARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_and_rejects_unknown_names() {
        let look = |n: &str| (n == "a").then(|| "1".to_string());
        assert_eq!(expand("x#{a}y#{a}", look, &["a"]).unwrap(), "x1y1");
        assert!(
            expand("#{b}", look, &["a"])
                .unwrap_err()
                .to_string()
                .contains("known variables: a")
        );
        assert!(expand("#{a", look, &["a"]).is_err());
        assert_eq!(expand("plain", look, &["a"]).unwrap(), "plain");
    }

    /// tmux's short names stand for their variables; `##` is a `#`, and a `#` before
    /// anything else is kept.
    #[test]
    fn short_names_expand_as_in_tmux() {
        let look = |n: &str| match n {
            "session_name" => Some("s".to_string()),
            "window_index" => Some("2".to_string()),
            _ => None,
        };
        let known = &["session_name", "window_index"];
        assert_eq!(expand("#S:#I ## #x #", look, known).unwrap(), "s:2 # #x #");
        assert!(
            expand("#T", look, known)
                .unwrap_err()
                .to_string()
                .contains("pane_title")
        );
    }

    #[test]
    fn validate_refuses_what_expand_would() {
        assert!(validate("#{pane_index} #{window_name}", PANE_VARS).is_ok());
        assert!(validate("#{nope}", PANE_VARS).is_err());
        assert!(validate("#{pane_id", PANE_VARS).is_err());
    }

    /// The list the formats are validated against is the list `pane_var` answers.
    #[test]
    fn every_listed_pane_variable_has_a_value() {
        use fugue_protocol::{PaneId, SessionId, WindowId};
        let p = PaneInfo {
            id: PaneId(1),
            session: "s".into(),
            session_id: SessionId(1),
            window_index: 0,
            window_name: "w".into(),
            window_id: WindowId(1),
            window_active: true,
            index: 0,
            title: String::new(),
            command: "sh".into(),
            pid: None,
            cwd: None,
            width: 80,
            height: 24,
            active: true,
            alive: true,
            exit_status: None,
            alternate_screen: false,
            cursor_row: 0,
            cursor_col: 0,
            sideband: false,
            created_by: "person".into(),
            parent: None,
            agent: None,
        };
        for name in PANE_VARS {
            assert!(pane_var(&p, name).is_some(), "{name} has no value");
        }
    }
}
