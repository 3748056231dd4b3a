//! tmux's pane management verbs: `kill-pane -a` (and `kill-window -a`, `kill-session
//! -a`), `swap-pane`, `rotate-window`,
//! `break-pane`, `join-pane` / `move-pane`, `clear-history`. (`respawn-pane` is in
//! `respawn.rs`.) Semantics follow tmux 3.5's cmd-*.c; where fugue's layout differs
//! (panes draw their own borders) only sizes differ.

use super::Exec;
use crate::session::Tree;
use crate::session::Winlink;
use crate::session::tree::Window;
use fugue_protocol::cmd;
use fugue_protocol::{
    CommandError, Created, JoinPane, PaneId, Response, SessionId, SwapSource, Target, WindowId,
};

fn locate(tree: &Tree, pane: PaneId) -> Result<(SessionId, WindowId), CommandError> {
    tree.locate(pane)
        .ok_or_else(|| CommandError::internal("pane has no window"))
}

fn window_mut(tree: &mut Tree, w: WindowId) -> Result<&mut Window, CommandError> {
    tree.window_mut(w)
        .ok_or_else(|| CommandError::internal("window vanished"))
}

/// Ends the programs of panes already taken out of the tree, and what closed with them.
fn closed(exec: &Exec<'_>, panes: Vec<crate::session::tree::Pane>, sessions: &[SessionId]) {
    let ids: Vec<PaneId> = panes.iter().map(|p| p.id).collect();
    for p in &panes {
        p.pty.kill();
    }
    exec.server.panes_closed(&ids);
    for sid in sessions {
        exec.server
            .mux
            .attached
            .detach_session(*sid, "the session's last pane was moved away");
    }
}

/// `kill-pane -a`: every pane of the target's window but the target.
pub fn kill_other_panes(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let removed = {
        let mut tree = exec.server.mux.tree();
        let keep = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(keep.to_string());
        let (sid, wid) = locate(&tree, keep)?;
        let others: Vec<PaneId> = tree
            .window(wid)
            .map(|w| w.layout.panes())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| *p != keep)
            .collect();
        let removed: Vec<_> = others
            .into_iter()
            .filter_map(|p| tree.remove_pane(p).map(|(pane, _)| pane))
            .collect();
        exec.server.relayout(&mut tree, sid);
        removed
    };
    closed(exec, removed, &[]);
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `kill-window -a`: every window of the target's session but the target, each closed
/// as `kill-window` closes one.
pub fn kill_other_windows(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let (keep, others) = {
        let tree = exec.server.mux.tree();
        let (sid, keep) = tree.resolve_window(target, &exec.ctx)?;
        let others: Vec<WindowId> = tree
            .session(sid)
            .map(|s| s.windows.iter().map(|w| w.id).collect())
            .unwrap_or_default();
        (keep, others)
    };
    for w in others.into_iter().filter(|w| *w != keep) {
        super::sessions::kill_window(exec, Some(&Target::Window(w)))?;
    }
    exec.resolved = Some(keep.to_string());
    Ok(Response::Done)
}

/// `kill-session -a`: every session but the target, each closed as `kill-session`
/// closes one.
pub fn kill_other_sessions(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let (keep, others) = {
        let tree = exec.server.mux.tree();
        let keep = tree.resolve_session(target, &exec.ctx)?;
        let others: Vec<SessionId> = tree.sessions.iter().map(|s| s.id).collect();
        (keep, others)
    };
    for s in others.into_iter().filter(|s| *s != keep) {
        super::sessions::kill_session(exec, Some(&Target::SessionId(s)))?;
    }
    exec.resolved = Some(keep.to_string());
    Ok(Response::Done)
}

/// `swap-pane`: the two panes trade cells (and windows, when in two windows).
pub fn swap_pane(exec: &mut Exec<'_>, c: cmd::SwapPane) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let dst = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = Some(dst.to_string());
        let (dsid, dwid) = locate(&tree, dst)?;
        let order = tree
            .window(dwid)
            .map(|w| w.layout.panes())
            .unwrap_or_default();
        let at = order.iter().position(|p| *p == dst).unwrap_or(0);
        let n = order.len().max(1);
        let src = match &c.source {
            SwapSource::Pane(t) => tree.resolve_pane(Some(t), &exec.ctx)?,
            SwapSource::Current => tree.resolve_pane(None, &exec.ctx)?,
            SwapSource::Previous => order.get((at + n - 1) % n).copied().unwrap_or(dst),
            SwapSource::Next => order.get((at + 1) % n).copied().unwrap_or(dst),
        };
        if src == dst {
            return Ok(Response::Done);
        }
        let (ssid, swid) = locate(&tree, src)?;
        if swid == dwid {
            let w = window_mut(&mut tree, dwid)?;
            w.layout.swap(src, dst);
            w.zoomed = false;
        } else {
            let w = window_mut(&mut tree, swid)?;
            w.layout.replace(src, dst);
            w.zoomed = false;
            let w = window_mut(&mut tree, dwid)?;
            w.layout.replace(dst, src);
            w.zoomed = false;
            for (pane, window) in [(src, dwid), (dst, swid)] {
                if let Some(p) = tree.panes.get_mut(&pane) {
                    p.window = window;
                }
            }
            // tmux forgets the moved panes in each window's last-pane memory.
            for (wid, gone) in [(swid, src), (dwid, dst)] {
                let w = window_mut(&mut tree, wid)?;
                if w.last_active == Some(gone) {
                    w.last_active = None;
                }
            }
        }
        // Which pane is active afterwards, as tmux's cmd-swap-pane.c decides it.
        if !c.detached {
            if swid != dwid {
                window_mut(&mut tree, swid)?.set_active(dst);
                window_mut(&mut tree, dwid)?.set_active(src);
            } else {
                window_mut(&mut tree, swid)?.set_active(dst);
            }
        } else {
            let w = window_mut(&mut tree, swid)?;
            if w.active == src {
                w.active = dst;
            }
            let w = window_mut(&mut tree, dwid)?;
            if w.active == dst {
                w.active = src;
            }
        }
        exec.server.relayout(&mut tree, ssid);
        if dsid != ssid {
            exec.server.relayout(&mut tree, dsid);
        }
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `rotate-window`: the panes move one cell; the active cell stays the active one.
pub fn rotate_window(exec: &mut Exec<'_>, c: cmd::RotateWindow) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let (sid, wid) = tree.resolve_window(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = Some(wid.to_string());
        let w = window_mut(&mut tree, wid)?;
        let cell = w.layout.panes().iter().position(|p| *p == w.active);
        w.layout.rotate(c.down);
        if let Some(p) = cell.and_then(|i| w.layout.panes().get(i).copied()) {
            w.set_active(p);
        }
        exec.server.relayout(&mut tree, sid);
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `break-pane`: the pane leaves its window for a new one (of `-t`'s session).
pub fn break_pane(exec: &mut Exec<'_>, c: cmd::BreakPane) -> Result<Response, CommandError> {
    if let Some(n) = &c.name {
        super::validate_name("name", n)?;
    }
    let mut src_closed = None;
    let created = {
        let mut tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.source.as_ref(), &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        let (ssid, swid) = locate(&tree, pane)?;
        let dsid = super::windows::target_session(&tree, c.target.as_ref(), exec)?;
        // Chosen before the pane leaves, as tmux links the new window first: a lone
        // pane broken out of window 0 lands in window 1.
        let index = super::windows::place(
            exec.server,
            &mut tree,
            exec,
            dsid,
            c.target.as_ref(),
            c.place,
            // `-a`/`-b` move later windows up to make room, as new-window's.
            true,
        )?;
        let alone = tree.window(swid).is_some_and(|w| w.layout.len() == 1);
        let wid = if alone {
            // tmux moves the window itself (its id stays): links it at the new index,
            // then unlinks it from the old one.
            let at = tree
                .session(ssid)
                .and_then(|s| s.index_of(swid))
                .ok_or_else(|| CommandError::internal("window vanished"))?;
            if ssid == dsid {
                let s = tree
                    .session_mut(ssid)
                    .ok_or_else(|| CommandError::internal("session vanished"))?;
                s.windows.retain(|l| l.index != at);
            } else {
                take_window(&mut tree, ssid, at)?;
            }
            if let Some(n) = &c.name {
                let w = window_mut(&mut tree, swid)?;
                w.name = n.clone();
                w.auto_name = false;
                super::auto_rename::name_given(exec.server, swid);
            }
            super::windows::insert(&mut tree, dsid, Winlink { index, id: swid })?;
            src_closed = tree.session(ssid).is_none().then_some(ssid);
            swid
        } else {
            let (mut p, _) = tree
                .remove_pane(pane)
                .ok_or_else(|| CommandError::internal("pane vanished"))?;
            let wid = tree.new_window_id();
            p.window = wid;
            let name = c.name.clone().unwrap_or_else(|| p.current_command());
            tree.panes.insert(pane, p);
            let follows = c.name.is_none() && super::auto_rename::by_default(exec.server);
            let w = Window::of_pane(wid, pane, name, follows);
            tree.add_window(dsid, index, w);
            if c.name.is_some() {
                super::auto_rename::name_given(exec.server, wid);
            }
            wid
        };
        if let Some(s) = tree.session_mut(dsid)
            && !c.detached
        {
            s.set_active(wid);
        }
        if tree.session(ssid).is_some() {
            if alone && ssid != dsid {
                exec.server.window_closed(&mut tree, ssid);
            }
            exec.server.relayout(&mut tree, ssid);
        }
        exec.server.relayout(&mut tree, dsid);
        let s = tree
            .session(dsid)
            .ok_or_else(|| CommandError::internal("session vanished"))?;
        Created {
            session: dsid,
            session_name: s.name.clone(),
            window: wid,
            window_index: s.index_of(wid).unwrap_or_default(),
            pane,
            cursor: None,
        }
    };
    closed(exec, Vec::new(), src_closed.as_slice());
    exec.server.mux.changed();
    Ok(Response::Created(created))
}

/// Takes a window's link at `index` out of session `sid` for another session; a
/// session left with no window closes, as in tmux.
fn take_window(tree: &mut Tree, sid: SessionId, index: u32) -> Result<Winlink, CommandError> {
    let s = tree
        .session_mut(sid)
        .ok_or_else(|| CommandError::internal("session vanished"))?;
    let link = s
        .unlink_at(index)
        .ok_or_else(|| CommandError::internal("window vanished"))?;
    if s.windows.is_empty() {
        tree.sessions.retain(|s| s.id != sid);
    }
    Ok(link)
}

/// `join-pane` / `move-pane`: the pane leaves its window to split `-t`'s pane.
pub fn join_pane(exec: &mut Exec<'_>, c: JoinPane) -> Result<Response, CommandError> {
    let closed_session = {
        let mut tree = exec.server.mux.tree();
        let dst = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        let src = tree.resolve_pane(c.source.as_ref(), &exec.ctx)?;
        exec.resolved = Some(src.to_string());
        if src == dst {
            return Err(CommandError::invalid_argument(
                "source",
                "source and target panes must be different",
            ));
        }
        let holders = tree.holders_of_pane(src);
        let (dsid, dwid) = locate(&tree, dst)?;
        let (area, frame) = (tree.layout_area(dwid), tree.frame(dwid));
        // Tried on a copy first, so a pane too small to split loses nothing.
        let mut layout = tree
            .window(dwid)
            .map(|w| w.layout.clone())
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        let extent = if c.full {
            match c.direction {
                fugue_protocol::Direction::Left | fugue_protocol::Direction::Right => area.width,
                fugue_protocol::Direction::Up | fugue_protocol::Direction::Down => area.height,
            }
        } else {
            super::panes::tile_extent(&layout, area, dst, c.direction)
        };
        let size = frame.split_size(c.size, extent);
        let split = |layout: &mut crate::session::layout::Layout| match c.full {
            true => layout.split_full(src, c.direction, size, area),
            false => layout.split(dst, src, c.direction, size, area),
        };
        split(&mut layout).map_err(|e| {
            CommandError::new(fugue_protocol::ErrorCode::LimitExceeded, e.to_string())
        })?;
        let (mut p, removed) = tree
            .remove_pane(src)
            .ok_or_else(|| CommandError::internal("pane vanished"))?;
        p.window = dwid;
        tree.panes.insert(src, p);
        // The source window lost a pane: the target's layout is recomputed on what
        // it is now (unchanged unless both were one window).
        let mut layout = tree
            .window(dwid)
            .map(|w| w.layout.clone())
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        split(&mut layout).map_err(|e| {
            CommandError::new(fugue_protocol::ErrorCode::LimitExceeded, e.to_string())
        })?;
        let w = window_mut(&mut tree, dwid)?;
        w.layout = layout;
        w.zoomed = false;
        if !c.detached {
            w.set_active(src);
            if let Some(s) = tree.session_mut(dsid) {
                s.set_active(dwid);
            }
        }
        exec.server.settle_removed(&mut tree, &holders, &removed);
        exec.server.relayout(&mut tree, dsid);
        removed.sessions_closed
    };
    closed(exec, Vec::new(), &closed_session);
    exec.server.mux.changed();
    exec.server.maybe_exit();
    Ok(Response::Done)
}

/// `clear-history`: the pane's history goes; its screen stays.
pub fn clear_history(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let tree = exec.server.mux.tree();
    let pane = tree.resolve_pane(target, &exec.ctx)?;
    exec.resolved = Some(pane.to_string());
    if let Some(p) = tree.panes.get(&pane) {
        let seq = {
            let mut st = p.shared.state.lock();
            st.clear_history();
            st.seq()
        };
        p.shared.changed(seq, false);
    }
    Ok(Response::Done)
}

super::handler!(
    cmd::KillOtherPanes,
    |exec, cmd::KillOtherPanes { target }| kill_other_panes(exec, target.as_ref())
);
super::handler!(
    cmd::KillOtherWindows,
    |exec, cmd::KillOtherWindows { target }| kill_other_windows(exec, target.as_ref())
);
super::handler!(
    cmd::KillOtherSessions,
    |exec, cmd::KillOtherSessions { target }| kill_other_sessions(exec, target.as_ref())
);
super::handler!(cmd::SwapPane, |exec, c| swap_pane(exec, c));
super::handler!(cmd::RotateWindow, |exec, c| rotate_window(exec, c));
super::handler!(cmd::BreakPane, |exec, c| break_pane(exec, c));
super::handler!(fugue_protocol::manage::JoinPane, |exec, c| join_pane(
    exec, c
));
super::handler!(cmd::ClearHistory, |exec, c| {
    clear_history(exec, c.target.as_ref())
});
