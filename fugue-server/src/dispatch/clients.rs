//! `list-clients` and `detach-client`: the attached clients (terminal and control
//! mode), named and chosen as tmux names and chooses them.

use super::Exec;
use crate::attached::{ClientEntry, Control};
use fugue_protocol::cmd;
use fugue_protocol::{ClientInfo, CommandError, ErrorCode, Response, Target};

use fugue_protocol::ClientKind;

/// A client tmux would list: attached to a session, a terminal or control client.
fn listed(c: &ClientEntry) -> bool {
    c.session.is_some() && (c.kind == ClientKind::Tui || c.control_mode)
}

/// tmux's target client: the one `name` names (as `list-clients` shows it), else
/// the calling client if it is an attached one, else the most recently active one.
pub(super) fn find_client(exec: &Exec<'_>, name: Option<&str>) -> Option<u64> {
    let clients = exec.server.mux.attached.lock();
    match name {
        Some(name) => clients
            .iter()
            .find(|(id, c)| listed(c) && c.name(**id) == name)
            .map(|(id, _)| *id),
        None => exec
            .origin
            .client_id()
            .filter(|me| clients.get(me).is_some_and(listed))
            .or_else(|| {
                clients
                    .iter()
                    .filter(|(_, c)| listed(c))
                    .max_by_key(|(_, c)| c.active_at)
                    .map(|(id, _)| *id)
            }),
    }
}

/// [`find_client`], or tmux's error when there is none.
pub(super) fn target_client(exec: &Exec<'_>, name: Option<&str>) -> Result<u64, CommandError> {
    find_client(exec, name).ok_or_else(|| match name {
        Some(name) => CommandError::new(
            ErrorCode::UnknownTarget,
            format!("can't find client: {name}"),
        )
        .with_suggestion("`list-clients -F '#{client_name}'` lists them"),
        None => CommandError::new(
            ErrorCode::UnknownTarget,
            "no current client: no client is attached",
        ),
    })
}

/// The terminal clients attached to a session (`-t`), or to any.
pub fn list_clients(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let server = exec.server;
    let tree = server.mux.tree();
    let only = match target {
        Some(_) => {
            let sid = tree.resolve_session(target, &exec.ctx)?;
            exec.resolved = tree.session(sid).map(|s| s.name.clone());
            Some(sid)
        }
        None => None,
    };
    let clients = server.mux.attached.lock();
    let mut out: Vec<(u64, ClientInfo)> = clients
        .iter()
        .filter(|(_, c)| listed(c))
        .filter_map(|(id, c)| {
            let sid = c.session?;
            if only.is_some_and(|o| o != sid) {
                return None;
            }
            // A control client with no size is 80 columns by no rows, as in tmux.
            let (cols, rows) = c
                .size
                .unwrap_or(if c.control_mode { (80, 0) } else { (80, 24) });
            let tty = c.tty.clone().unwrap_or_default();
            Some((
                *id,
                ClientInfo {
                    name: c.name(*id),
                    tty,
                    pid: c.pid,
                    session: Some(sid),
                    session_name: tree.session(sid).map(|s| s.name.clone()),
                    width: cols,
                    height: rows,
                    termname: c.termname.clone().unwrap_or_default(),
                    created: c.created,
                    activity: c.activity,
                    focused: c.focused,
                    control_mode: c.control_mode,
                },
            ))
        })
        .collect();
    // tmux lists clients in the order they connected.
    out.sort_by_key(|(id, _)| *id);
    Ok(Response::Clients(out.into_iter().map(|(_, c)| c).collect()))
}

/// `detach-client`: `-s` every client of `session`; else the client named by `-t`
/// (default the calling client, else the most recently active one, as tmux's
/// current client), or with `-a` every client but that one. A `-t` no client has
/// that names a session detaches its clients (fugue's older `detach -t SESSION`).
pub fn detach(
    exec: &mut Exec<'_>,
    session: Option<&Target>,
    client: Option<String>,
    all_others: bool,
    leave: fugue_protocol::Leave,
) -> Result<Response, CommandError> {
    let server = exec.server;
    if let Some(t) = session {
        let sid = server.mux.tree().resolve_session(Some(t), &exec.ctx)?;
        return detach_where(exec, &leave, |_, c| c.session == Some(sid));
    }
    let named = find_client(exec, client.as_deref());
    let chosen = match (named, client) {
        (Some(id), _) => id,
        (None, Some(name)) => {
            let target = name.parse::<Target>().ok();
            let Some(sid) =
                target.and_then(|t| server.mux.tree().resolve_session(Some(&t), &exec.ctx).ok())
            else {
                return Err(CommandError::new(
                    ErrorCode::UnknownTarget,
                    format!("can't find client: {name}"),
                )
                .with_suggestion("`list-clients -F '#{client_name}'` lists them"));
            };
            return detach_where(exec, &leave, |_, c| c.session == Some(sid));
        }
        (None, None) => {
            return Err(CommandError::new(
                ErrorCode::UnknownTarget,
                "no client is attached (tmux: no current client)",
            ));
        }
    };
    if all_others {
        detach_where(exec, &leave, |id, _| id != chosen)
    } else {
        detach_where(exec, &leave, |id, _| id == chosen)
    }
}

/// Detaches every listed client `pick` takes: a terminal client is told (it leaves
/// and says why), a control client hears its `client-detached` and ends; each
/// session left gets the size of the clients still on it.
pub(super) fn detach_where(
    exec: &mut Exec<'_>,
    leave: &fugue_protocol::Leave,
    pick: impl Fn(u64, &ClientEntry) -> bool,
) -> Result<Response, CommandError> {
    let server = exec.server;
    let left: Vec<(u64, String, fugue_protocol::SessionId)> = {
        let mut clients = server.mux.attached.lock();
        clients
            .iter_mut()
            .filter(|(id, c)| listed(c) && pick(**id, c))
            .filter_map(|(id, c)| {
                c.control
                    .post(Control::Detached("detached".into(), leave.clone()));
                let name = c.name(*id);
                c.session.take().map(|s| (*id, name, s))
            })
            .collect()
    };
    {
        let mut tree = server.mux.tree();
        for (_, _, sid) in &left {
            server.resize_session_to_clients(&mut tree, *sid);
        }
    }
    for (id, name, sid) in left {
        server.client_detached(id, name, sid);
    }
    server.mux.changed();
    Ok(Response::Done)
}

super::handler!(cmd::ListClients, |exec, cmd::ListClients { target }| {
    list_clients(exec, target.as_ref())
});
super::handler!(cmd::DetachClient, |exec,
                                    cmd::DetachClient {
                                        target,
                                        client,
                                        all_others,
                                        hangup_parent,
                                        exec: command,
                                    }| {
    let leave = fugue_protocol::Leave {
        hangup_parent,
        exec: command,
    };
    detach(exec, target.as_ref(), client, all_others, leave)
});
