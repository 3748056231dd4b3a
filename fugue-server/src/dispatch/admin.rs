//! tmux's commands about clients and the server's records: `lock-server`,
//! `lock-session`, `lock-client`, `suspend-client`, `server-access`,
//! `show-messages` and the prompt history.

use super::Exec;
use super::clients::target_client;
use crate::attached::Control;
use fugue_protocol::admin::{LockScope, PromptType, ServerAccess, ShowMessages};
use fugue_protocol::cmd;
use fugue_protocol::{ClientKind, CommandError, ErrorCode, Response};

/// Locks terminal clients: each runs its session's `lock-command` and draws again
/// when it exits. Control clients have no terminal and are left alone, as in tmux.
pub fn lock(exec: &mut Exec<'_>, scope: LockScope) -> Result<Response, CommandError> {
    let server = exec.server;
    let (session, client) = match scope {
        LockScope::Server => (None, None),
        LockScope::Session(target) => {
            let sid = server
                .mux
                .tree()
                .resolve_session(target.as_ref(), &exec.ctx)?;
            (Some(sid), None)
        }
        LockScope::Client(name) => (None, Some(target_client(exec, name.as_deref())?)),
    };
    let clients = server.mux.attached.lock();
    for (id, c) in clients.iter() {
        let terminal = c.kind == ClientKind::Tui && !c.control_mode && c.session.is_some();
        if terminal
            && session.is_none_or(|s| c.session == Some(s))
            && client.is_none_or(|only| only == *id)
        {
            c.control.post(Control::Lock);
        }
    }
    Ok(Response::Done)
}

/// `suspend-client`: the client gives its terminal back to its shell and stops, as
/// on `C-z`, until the shell continues it (`fg`). A control client has no terminal
/// to give back: it is left running (tmux would stop the process reading it).
pub fn suspend(exec: &mut Exec<'_>, client: Option<String>) -> Result<Response, CommandError> {
    let id = target_client(exec, client.as_deref())?;
    let clients = exec.server.mux.attached.lock();
    if let Some(c) = clients.get(&id)
        && !c.control_mode
    {
        c.control.post(Control::Suspend);
    }
    Ok(Response::Done)
}

/// `server-access`: fugue serves only the user it runs as (the socket is 0600 and
/// every peer's uid is checked), so the list is tmux's list for a server nobody was
/// added to, and adding or removing users is refused with the reason.
pub fn server_access(exec: &mut Exec<'_>, c: ServerAccess) -> Result<Response, CommandError> {
    let _ = exec;
    if c.list {
        // tmux 3.5 lists its owner unless that is root (root may always connect).
        // SAFETY: getuid cannot fail and touches no memory.
        let uid = unsafe { libc::getuid() };
        let owner = fugue_protocol::format::local::user();
        return Ok(Response::Captured(if uid == 0 {
            String::new()
        } else {
            format!("{owner} (W)\n")
        }));
    }
    let Some(name) = c.name else {
        return Err(CommandError::new(
            ErrorCode::InvalidArgument,
            "missing user or group argument",
        ));
    };
    if c.allow && c.deny {
        return Err(invalid("-a and -d cannot be used together"));
    }
    if c.read_only && c.write {
        return Err(invalid("-r and -w cannot be used together"));
    }
    Err(CommandError::new(
        ErrorCode::Forbidden,
        format!(
            "server-access: {name} cannot be given access: fugue serves only the user it runs as"
        ),
    )
    .with_suggestion(
        "each user runs a server of their own; to share a session, attach as its owner (ssh) or share a pane's output with pipe-pane",
    ))
}

fn invalid(text: &str) -> CommandError {
    CommandError::new(ErrorCode::InvalidArgument, text)
}

/// `show-messages`: the message log, newest first, as tmux's
/// `#{t/p:message_time}: #{message_text}`. Unlike tmux 3.5 it needs no client (as
/// tmux 3.6). `-J` and `-T` (jobs, terminal descriptions) print nothing: fugue keeps
/// neither.
pub fn show_messages(exec: &mut Exec<'_>, c: ShowMessages) -> Result<Response, CommandError> {
    if let Some(name) = &c.client {
        target_client(exec, Some(name))?;
    }
    if c.jobs || c.terminals {
        return Ok(Response::Captured(String::new()));
    }
    use fugue_protocol::format::{local, time};
    let now = local::now();
    let log = exec.server.messages.lock();
    let mut out = String::new();
    for e in log.newest_first() {
        let t = i64::try_from(e.time).unwrap_or(now);
        let when = time::pretty(t, now, local::utc_offset(t), local::utc_offset(now));
        out.push_str(&format!("{when}: {}\n", e.text));
    }
    Ok(Response::Captured(out))
}

pub fn show_prompt_history(
    exec: &mut Exec<'_>,
    kind: Option<PromptType>,
) -> Result<Response, CommandError> {
    Ok(Response::PromptHistory(
        exec.server.prompt_history.lock().show(kind),
    ))
}

pub fn clear_prompt_history(
    exec: &mut Exec<'_>,
    kind: Option<PromptType>,
) -> Result<Response, CommandError> {
    exec.server.prompt_history.lock().clear(kind);
    Ok(Response::Done)
}

pub fn prompt_entered(
    exec: &mut Exec<'_>,
    kind: PromptType,
    line: &str,
) -> Result<Response, CommandError> {
    let limit = exec.server.server_limit("prompt-history-limit");
    exec.server.prompt_history.lock().add(kind, line, limit);
    Ok(Response::Done)
}

/// What the message log says about a command, as tmux's `CLIENT command: LINE`; none
/// for a person's keys and a client's own bookkeeping (the table's `unlogged` and
/// `unlogged_from_client` facts).
pub fn log_line(
    exec: &Exec<'_>,
    command: &fugue_protocol::Command,
    target: Option<&str>,
) -> Option<String> {
    // From the origin, not the client registry: this runs for every key a person
    // types, and must not take a lock to decide to do nothing.
    let attached = match exec.origin {
        crate::origin::Origin::Client {
            id,
            kind: ClientKind::Tui,
            ..
        } => Some(*id),
        _ => None,
    };
    let facts = command.spec().facts;
    if facts.unlogged || (facts.unlogged_from_client && attached.is_some()) {
        return None;
    }
    let who = match attached {
        Some(id) => exec
            .server
            .mux
            .attached
            .name_of(id)
            .unwrap_or_else(|| format!("client-{id}")),
        None => exec.origin.to_string(),
    };
    let target = target.map(|t| format!(" -t {t}")).unwrap_or_default();
    Some(format!("{who} command: {}{target}", command.name()))
}

super::handler!(fugue_protocol::admin::LockScope, |exec, scope| lock(
    exec, scope
));
super::handler!(cmd::SuspendClient, |exec, cmd::SuspendClient { client }| {
    suspend(exec, client)
});
super::handler!(
    fugue_protocol::admin::ServerAccess,
    |exec, c| server_access(exec, c)
);
super::handler!(
    fugue_protocol::admin::ShowMessages,
    |exec, c| show_messages(exec, c)
);
super::handler!(
    cmd::ShowPromptHistory,
    |exec, cmd::ShowPromptHistory { kind }| show_prompt_history(exec, kind)
);
super::handler!(
    cmd::ClearPromptHistory,
    |exec, cmd::ClearPromptHistory { kind }| clear_prompt_history(exec, kind)
);
super::handler!(
    cmd::PromptEntered,
    |exec, cmd::PromptEntered { kind, line }| prompt_entered(exec, kind, &line)
);
