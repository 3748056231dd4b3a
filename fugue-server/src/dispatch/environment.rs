//! `set-environment` and `show-environment`, as tmux (the store is
//! `crate::environment`; new programs get it in `spawn.rs`).

use super::Exec;
use crate::environment::Variable;
use fugue_protocol::{CommandError, Response, SessionId, SetEnvironment, ShowEnvironment};

fn session(
    exec: &mut Exec<'_>,
    global: bool,
    target: Option<&fugue_protocol::Target>,
) -> Result<Option<SessionId>, CommandError> {
    if global {
        return Ok(None);
    }
    let tree = exec.server.mux.tree();
    let sid = tree.resolve_session(target, &exec.ctx)?;
    exec.resolved = tree.session(sid).map(|s| s.name.clone());
    Ok(Some(sid))
}

pub fn set(exec: &mut Exec<'_>, mut c: SetEnvironment) -> Result<Response, CommandError> {
    if c.format
        && let Some(v) = &c.value
    {
        // As tmux's format_single_from_target: in the target's scope (with -g too),
        // else the caller's.
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx).ok();
        c.value = Some(super::formats::expand(
            exec.server,
            &tree,
            pane,
            v,
            exec.origin,
        ));
    }
    let sid = session(exec, c.global, c.target.as_ref())?;
    let live: Vec<SessionId> = exec
        .server
        .mux
        .tree()
        .sessions
        .iter()
        .map(|s| s.id)
        .collect();
    let mut env = exec.server.environment.lock();
    env.retain_sessions(&live);
    if c.unset {
        env.unset(sid, &c.name);
        return Ok(Response::Done);
    }
    let value = match (c.remove, c.value) {
        (true, _) => None,
        (false, Some(v)) => Some(v),
        (false, None) => {
            return Err(CommandError::invalid_argument(
                "value",
                "no value specified",
            ));
        }
    };
    env.set(
        sid,
        &c.name,
        Variable {
            value,
            hidden: c.hidden,
        },
    )
    .map_err(|e| CommandError::invalid_argument("name", e))?;
    Ok(Response::Done)
}

/// tmux's quoting for `show-environment -s`.
fn shell_quote(v: &str) -> String {
    let mut out = String::from("\"");
    for c in v.chars() {
        if matches!(c, '$' | '`' | '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

pub fn show(exec: &mut Exec<'_>, c: ShowEnvironment) -> Result<Response, CommandError> {
    let sid = session(exec, c.global, c.target.as_ref())?;
    let table = exec.server.environment.lock().show(sid);
    let line = |name: &str, var: &Variable| match (&var.value, c.shell) {
        (Some(v), false) => format!("{name}={v}\n"),
        (None, false) => format!("-{name}\n"),
        (Some(v), true) => format!("{name}={}; export {name};\n", shell_quote(v)),
        (None, true) => format!("unset {name};\n"),
    };
    let text = match &c.name {
        Some(name) => match table.get(name) {
            Some(var) => line(name, var),
            None => {
                // tmux's words, which scripts match.
                return Err(CommandError::new(
                    fugue_protocol::ErrorCode::InvalidArgument,
                    format!("unknown variable: {name}"),
                ));
            }
        },
        None => table
            .iter()
            .filter(|(_, v)| v.hidden == c.hidden)
            .map(|(k, v)| line(k, v))
            .collect(),
    };
    Ok(Response::Captured(text))
}

/// tmux's `update-environment` (environ_update): for each pattern of the option (at
/// `level`: the global one for a new session, the session's own on attach), every
/// variable of the client's environment it matches, with its value; a pattern that
/// matches none is marked removed by name, so new programs do not inherit the
/// server's stale value (a re-attach over a new SSH connection gets its new
/// `SSH_AUTH_SOCK`, and one without an agent none).
pub fn updates(
    server: &crate::server::Server,
    level: crate::options::Level,
    client_env: &[(String, String)],
) -> Vec<(String, Option<String>)> {
    let patterns = match server.options.lock().effective(level, "update-environment") {
        Some((crate::options::Value::Array(a), _)) => a.clone(),
        _ => Vec::new(),
    };
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for pattern in &patterns {
        let mut found = false;
        for (k, v) in client_env {
            if fugue_protocol::format::fnmatch(pattern, k) {
                out.push((k.clone(), Some(v.clone())));
                found = true;
            }
        }
        if !found {
            out.push((pattern.clone(), None));
        }
    }
    out
}

/// [`updates`] written into `session`'s environment (a bad name, which tmux could
/// not have in an environment either, is skipped).
pub fn apply_updates(
    server: &crate::server::Server,
    session: SessionId,
    updates: &[(String, Option<String>)],
) {
    if updates.is_empty() {
        return;
    }
    let mut env = server.environment.lock();
    for (name, value) in updates {
        let _ = env.set(
            Some(session),
            name,
            Variable {
                value: value.clone(),
                hidden: false,
            },
        );
    }
}

super::handler!(fugue_protocol::manage::SetEnvironment, |exec, c| set(
    exec, c
));
super::handler!(fugue_protocol::manage::ShowEnvironment, |exec, c| show(
    exec, c
));
