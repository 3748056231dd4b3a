//! `new-window`, with tmux's `-k` (replace the window at the index) and `-S` (select
//! the window of that name instead).

use super::sessions::inner_size;
use super::spawn::{prepare_pane, with_new_pane};
use super::windows::{named_index, target_session};
use super::{Exec, validate_name};
use crate::session::Tree;
use crate::session::tree::{Window, program_name};
use fugue_protocol::{CommandError, Created, ErrorCode, NewWindow, Response, SessionId, Target};

pub fn new_window(exec: &mut Exec<'_>, c: NewWindow) -> Result<Response, CommandError> {
    let server = exec.server;
    if let Some(name) = &c.name {
        validate_name("name", name)?;
    }
    if let Some(found) = select_named(exec, &c)? {
        return Ok(found);
    }
    // `-k`: the window the new one replaces, taken out once its program started.
    let mut replaced = Vec::new();
    let created = with_new_pane(
        exec,
        |exec, tree| {
            let sid = target_session(tree, c.target.as_ref(), exec)?;
            // Checked before the program starts: a taken index is an error (with
            // `-k` the window there goes instead).
            if !c.kill {
                super::windows::place(
                    exec.server,
                    tree,
                    exec,
                    sid,
                    c.target.as_ref(),
                    c.place,
                    false,
                )?;
            }
            let (area, cwd) = {
                let s = tree
                    .session(sid)
                    .ok_or_else(|| CommandError::internal("session vanished"))?;
                let cwd = tree
                    .window(s.active)
                    .and_then(|w| tree.panes.get(&w.active))
                    .and_then(|p| p.current_cwd());
                (s.area(), cwd)
            };
            let wid = tree.new_window_id();
            let launch = prepare_pane(
                exec,
                tree,
                (Some(sid), wid),
                &c.spawn,
                inner_size(tree, wid, area),
                cwd,
            )?;
            Ok(((sid, wid), launch))
        },
        |exec, tree, (sid, wid), pane| {
            let argv = tree
                .panes
                .get(&pane)
                .map(|p| p.argv.clone())
                .unwrap_or_default();
            if tree.session(sid).is_none() {
                return Err(CommandError::new(
                    ErrorCode::UnknownTarget,
                    "the session was closed while the window's program started",
                ));
            }
            let mut select = c.select;
            let mut was_current = false;
            if c.kill
                && c.place == fugue_protocol::WindowPlace::Index
                && let Some((panes, current)) = unlink_at(tree, sid, c.target.as_ref())
            {
                replaced = panes;
                // The replaced window was current: the new one is, as in tmux.
                select |= current;
                was_current = current;
            }
            // Taken now, not before the program started: another window may have
            // taken the free index meanwhile.
            let index = super::windows::place(
                exec.server,
                tree,
                exec,
                sid,
                c.target.as_ref(),
                c.place,
                true,
            )?;
            tree.add_window(
                sid,
                index,
                Window::of_pane(
                    wid,
                    pane,
                    c.name.clone().unwrap_or_else(|| program_name(&argv)),
                    c.name.is_none() && super::auto_rename::by_default(exec.server),
                ),
            );
            if c.name.is_some() {
                super::auto_rename::name_given(exec.server, wid);
            }
            // A grouped session's members take the new window (and lose one `-k`
            // replaced) now, from this session.
            tree.sync_group_from(sid);
            let s = tree
                .session_mut(sid)
                .ok_or_else(|| CommandError::internal("session vanished"))?;
            let sname = s.name.clone();
            if select {
                let last = s.last_window;
                s.set_active(wid);
                // The window it replaced is gone, not the last one used.
                if was_current {
                    s.last_window = last;
                }
            }
            exec.resolved = Some(format!("{sname}:{index}"));
            // The session may have been resized while the program started.
            exec.server.relayout(tree, sid);
            Ok(Created {
                session: sid,
                session_name: sname,
                window: wid,
                window_index: index,
                pane,
                cursor: None,
            })
        },
    );
    if !replaced.is_empty() {
        for p in &replaced {
            p.pty.kill();
        }
        server.panes_closed(&replaced.iter().map(|p| p.id).collect::<Vec<_>>());
    }
    let created = created?;
    server.mux.changed();
    Ok(Response::Created(created))
}

/// `new-window -S -n NAME` with a `-t` that names no index: the window of that name
/// in the target session is selected (unless `-d`) instead of a new one made. None
/// when there is none (a new one is made); two of that name are an error, as in tmux.
pub fn select_named(
    exec: &mut Exec<'_>,
    c: &fugue_protocol::NewWindow,
) -> Result<Option<Response>, CommandError> {
    let Some(name) = c.name.as_deref().filter(|_| c.select_existing) else {
        return Ok(None);
    };
    if named_index(c.target.as_ref()).is_some() {
        return Ok(None);
    }
    {
        let mut tree = exec.server.mux.tree();
        let sid = target_session(&tree, c.target.as_ref(), exec)?;
        let found: Vec<(fugue_protocol::WindowId, u32)> = tree
            .session(sid)
            .map(|s| {
                s.windows
                    .iter()
                    .filter(|w| {
                        tree.window(w.id)
                            .is_some_and(|w| tree.window_name(w) == name)
                    })
                    .map(|w| (w.id, w.index))
                    .collect()
            })
            .unwrap_or_default();
        let (wid, index) = match found.as_slice() {
            [] => return Ok(None),
            [one] => *one,
            _ => {
                return Err(CommandError::invalid_argument(
                    "name",
                    format!("multiple windows named {name}"),
                ));
            }
        };
        let Some(s) = tree.session_mut(sid) else {
            return Ok(None);
        };
        exec.resolved = Some(format!("{}:{index}", s.name));
        if c.select {
            s.set_active(wid);
        }
    }
    exec.server.mux.changed();
    Ok(Some(Response::Done))
}

/// `new-window -k`: takes the window at the index `target` names out of session
/// `sid`, with its panes for the caller to end. The session stays, even with no
/// window left, for the new window (tmux's spawn.c unlinks it so, not through
/// session_detach). Whether it was the session's current window.
pub fn unlink_at(
    tree: &mut Tree,
    sid: SessionId,
    target: Option<&Target>,
) -> Option<(Vec<crate::session::tree::Pane>, bool)> {
    let index = named_index(target)?;
    let s = tree.session_mut(sid)?;
    let pos = s.windows.iter().position(|w| w.index == index)?;
    let old = s.windows.remove(pos);
    let was_active = s.active == old.id;
    if s.last_window == Some(old.id) {
        s.last_window = None;
    }
    // A window still linked elsewhere lives on there (not in the group's other
    // members: their windows become this session's).
    if tree.held_outside_group(old.id, sid) {
        return Some((Vec::new(), was_active));
    }
    let panes = tree
        .windows
        .remove(&old.id)
        .map(|w| w.layout.panes())
        .unwrap_or_default()
        .iter()
        .filter_map(|p| tree.panes.remove(p))
        .collect();
    Some((panes, was_active))
}

super::handler!(fugue_protocol::NewWindow, |exec, c| new_window(exec, c));
