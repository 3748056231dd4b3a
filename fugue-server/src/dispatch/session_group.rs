//! `new-session -t`: a session grouped with another, holding the same windows (tmux's
//! session groups, session.c's session_group_*). The windows are the tree's and
//! each member links them; [`crate::session::Tree::sync_groups`] keeps the members'
//! links alike after a change in any of them.

use super::Exec;
use fugue_protocol::{CommandError, Created, NewSession, Response, Target};

/// Makes session `c.name` (or the next free name) in the group of `with`, sharing its
/// windows, with the first of them current. No program starts.
pub fn new_grouped_session(
    exec: &mut Exec<'_>,
    c: &NewSession,
    with: &Target,
    size: (u16, u16),
) -> Result<Response, CommandError> {
    let server = exec.server;
    let created = {
        let mut tree = server.mux.tree();
        let tid = tree.resolve_session(Some(with), &exec.ctx)?;
        if let Some(name) = &c.name
            && tree.session_by_name(name).is_some()
        {
            // tmux's words.
            return Err(CommandError::invalid_argument(
                "name",
                format!("duplicate session: {name}"),
            ));
        }
        let name = c.name.clone().unwrap_or_else(|| tree.free_session_name());
        let sid = tree.new_session_id();
        let last_used = tree.touch();
        let target = tree
            .session_mut(tid)
            .ok_or_else(|| CommandError::internal("session vanished"))?;
        // tmux names a new group after the session it starts from.
        let group = target
            .group
            .get_or_insert_with(|| target.name.clone())
            .clone();
        let links = target.windows.clone();
        // As tmux: the new session starts on the group's first window.
        let current = links
            .first()
            .copied()
            .ok_or_else(|| CommandError::internal("the session has no window"))?;
        let mut s = crate::session::tree::Session::new(sid, name.clone(), current.id, 0);
        s.windows = links.clone();
        s.active_index = Some(current.index);
        s.last_used = last_used;
        s.size = size;
        s.group = Some(group.clone());
        tree.add_session(s);
        tree.group_links.insert(group, links);
        let pane = tree
            .window(current.id)
            .map(|w| w.active)
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        exec.resolved = Some(name.clone());
        server.relayout(&mut tree, sid);
        Created {
            session: sid,
            session_name: name,
            window: current.id,
            window_index: current.index,
            pane,
            cursor: None,
        }
    };
    server.mark_had_sessions();
    server.mux.changed();
    Ok(Response::Created(created))
}
