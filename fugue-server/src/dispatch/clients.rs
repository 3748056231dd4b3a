//! `list-clients`: the attached terminal clients, as tmux lists them.

use super::Exec;
use fugue_protocol::{ClientInfo, CommandError, Response, Target};

use fugue_protocol::ClientKind;

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
        .filter(|(_, c)| c.kind == ClientKind::Tui || c.control_mode)
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
            // tmux names a client by its terminal, else by its pid (`client-PID`).
            let name = match (tty.is_empty(), c.pid) {
                (false, _) => tty.clone(),
                (true, Some(pid)) if c.control_mode => format!("client-{pid}"),
                (true, _) => format!("client-{id}"),
            };
            Some((
                *id,
                ClientInfo {
                    name,
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
