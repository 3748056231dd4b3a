//! Window indexes as tmux keeps them: `base-index`, `new-window -t s:N` / `-a` / `-b`,
//! `renumber-windows`, `move-window` and `swap-window` (tmux 3.5's cmd-move-window.c,
//! cmd-swap-window.c and session.c's winlink_shuffle_up).

use super::Exec;
use crate::options::Level;
use crate::server::Server;
use crate::session::Tree;
use crate::session::Winlink;
use fugue_protocol::cmd;
use fugue_protocol::{
    CommandError, MoveWindow, Response, SessionId, SwapWindow, Target, WindowPlace, WindowSpec,
};

/// tmux's window indexes stop at INT_MAX; fugue's at this, far beyond any session.
const MAX_INDEX: u32 = 1 << 20;

fn option_number(server: &Server, level: Level, name: &str) -> i64 {
    server
        .options
        .lock()
        .effective(level, name)
        .map(|(v, _)| v.number())
        .unwrap_or(0)
}

/// The session's `base-index` (the global one for a session still being made).
pub fn base_index(server: &Server, session: Option<SessionId>) -> u32 {
    let level = session.map_or(Level::GlobalSession, Level::Session);
    u32::try_from(option_number(server, level, "base-index"))
        .unwrap_or(0)
        .min(MAX_INDEX)
}

fn taken(tree: &Tree, sid: SessionId, index: u32) -> bool {
    tree.session(sid)
        .is_some_and(|s| s.windows.iter().any(|w| w.index == index))
}

/// The first free index from `base-index`.
pub fn free_index(server: &Server, tree: &Tree, sid: SessionId) -> u32 {
    let base = base_index(server, Some(sid));
    (base..MAX_INDEX)
        .find(|i| !taken(tree, sid, *i))
        .unwrap_or(MAX_INDEX)
}

/// The index a target names (`s:3`), if it names one.
pub(super) fn named_index(target: Option<&Target>) -> Option<u32> {
    match target {
        Some(Target::Path {
            window: Some(WindowSpec::Index(i)),
            pane: None,
            ..
        }) => Some(*i),
        _ => None,
    }
}

/// The session a window-creating `-t` names: `s:3` names session `s` even while it
/// has no window 3.
pub fn target_session(
    tree: &Tree,
    target: Option<&Target>,
    exec: &Exec<'_>,
) -> Result<SessionId, CommandError> {
    match (target, named_index(target)) {
        (Some(Target::Path { session, .. }), Some(_)) => match session {
            Some(name) => tree.resolve_session(Some(&Target::session(name.clone())), &exec.ctx),
            None => tree.resolve_session(None, &exec.ctx),
        },
        _ => tree.resolve_session(target, &exec.ctx),
    }
}

/// Where a new window goes in `sid`, as tmux places it. With `apply`, windows are
/// moved up to make room for `-a`/`-b` (do it only when the window is placed).
pub fn place(
    server: &Server,
    tree: &mut Tree,
    exec: &Exec<'_>,
    sid: SessionId,
    target: Option<&Target>,
    place: WindowPlace,
    apply: bool,
) -> Result<u32, CommandError> {
    if place == WindowPlace::Index {
        return match named_index(target) {
            Some(i) if taken(tree, sid, i) => Err(CommandError::invalid_argument(
                "target",
                format!("index in use: {i}"),
            )),
            Some(i) if i >= MAX_INDEX => Err(CommandError::invalid_argument(
                "target",
                format!("index too large: {i}"),
            )),
            Some(i) => Ok(i),
            None => Ok(free_index(server, tree, sid)),
        };
    }
    // The reference window: the target's, or the session's current one.
    let reference = match named_index(target) {
        Some(i) => i,
        None => {
            let index = match target {
                Some(Target::Path { window: None, .. }) | None => {
                    tree.session(sid).and_then(|s| s.current()).map(|l| l.index)
                }
                Some(t) => tree
                    .resolve_winlink(Some(t), &exec.ctx)
                    .ok()
                    .map(|(_, _, i)| i),
            };
            index.unwrap_or_else(|| base_index(server, Some(sid)))
        }
    };
    let idx = reference
        .saturating_add(u32::from(place == WindowPlace::After))
        .min(MAX_INDEX);
    if apply {
        shuffle_up(tree, sid, idx);
    }
    Ok(idx)
}

/// tmux's winlink_shuffle_up: the windows from `idx` up to the first gap move up one.
fn shuffle_up(tree: &mut Tree, sid: SessionId, idx: u32) {
    let Some(last) = (idx..MAX_INDEX).find(|i| !taken(tree, sid, *i)) else {
        return;
    };
    if let Some(s) = tree.session_mut(sid) {
        for w in s.windows.iter_mut() {
            if (idx..last).contains(&w.index) {
                w.index += 1;
            }
        }
        s.windows.sort_by_key(|w| w.index);
    }
}

/// Puts a window's link into a session, in index order.
pub fn insert(tree: &mut Tree, sid: SessionId, w: Winlink) -> Result<(), CommandError> {
    let s = tree.session_mut(sid).ok_or_else(|| {
        CommandError::unknown_target("the target session closed when its last window moved")
    })?;
    s.insert_link(w);
    Ok(())
}

/// Two sessions of one group (their windows are the same: moving or swapping one
/// between them would change both).
fn grouped_together(tree: &Tree, a: SessionId, b: SessionId) -> bool {
    a != b
        && matches!(
            (tree.session(a), tree.session(b)),
            (Some(x), Some(y)) if x.group.is_some() && x.group == y.group
        )
}

/// A refusal in tmux's exact words (tools match them).
fn tmux_words(text: impl Into<String>) -> CommandError {
    CommandError::new(fugue_protocol::ErrorCode::InvalidArgument, text)
}

/// `move-window`: the window leaves its index (or session) for another; with `-r`
/// the target session's windows are renumbered instead. `link-window` (`c.link`)
/// links it at the new place and leaves it where it was too.
pub fn move_window(exec: &mut Exec<'_>, c: MoveWindow) -> Result<Response, CommandError> {
    let server = std::sync::Arc::clone(exec.server);
    let mut killed = Vec::new();
    let mut closed = None;
    let mut select = false;
    {
        let mut tree = server.mux.tree();
        if c.renumber {
            let sid = tree.resolve_session(c.target.as_ref(), &exec.ctx)?;
            exec.resolved = tree.session(sid).map(|s| s.name.clone());
            server.renumber_windows(&mut tree, sid);
            drop(tree);
            server.mux.changed();
            return Ok(Response::Done);
        }
        let (ssid, wid, src_index) = tree.resolve_winlink(c.source.as_ref(), &exec.ctx)?;
        exec.resolved = Some(wid.to_string());
        // The source link by its place in the session's list: `-a`/`-b` may move
        // indexes up below, which keeps links in order.
        let mut src_pos = tree
            .session(ssid)
            .and_then(|s| s.windows.iter().position(|l| l.index == src_index))
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        let dsid = target_session(&tree, c.target.as_ref(), exec)?;
        if grouped_together(&tree, ssid, dsid) {
            // tmux's words: the sessions already share their windows.
            return Err(tmux_words("sessions are grouped"));
        }
        let mut index = match (c.place, named_index(c.target.as_ref())) {
            (WindowPlace::Index, Some(i)) => i,
            (WindowPlace::Index, None) => free_index(&server, &tree, dsid),
            (p, _) => place(&server, &mut tree, exec, dsid, c.target.as_ref(), p, true)?,
        };
        if let Some(existing) = tree
            .session(dsid)
            .and_then(|s| s.link_at(index))
            .map(|w| w.id)
        {
            if existing == wid {
                return Err(tmux_words(format!("same index: {index}")));
            }
            if !c.kill {
                return Err(tmux_words(format!("index in use: {index}")));
            }
            // Taken out by hand: closing it the usual way would close a session it
            // is the last window of, which the moved window is about to join.
            if let Some(s) = tree.session_mut(dsid) {
                if let Some(at) = s.windows.iter().position(|w| w.index == index) {
                    s.windows.remove(at);
                    if ssid == dsid && at < src_pos {
                        src_pos -= 1;
                    }
                }
                if s.last_window == Some(existing) && !s.holds(existing) {
                    s.last_window = None;
                }
                if s.active == existing {
                    // As tmux: the window that takes its index becomes current.
                    s.active = wid;
                    s.active_index = Some(index);
                    select = true;
                }
            }
            // A window linked elsewhere too lives on there (not in the group's other
            // members: their windows become this session's).
            if !tree.held_outside_group(existing, dsid) {
                let panes = tree
                    .windows
                    .remove(&existing)
                    .map(|w| w.layout.panes())
                    .unwrap_or_default();
                killed.extend(panes.iter().filter_map(|p| tree.panes.remove(p)));
            }
        }
        if index >= MAX_INDEX {
            index = free_index(&server, &tree, dsid);
        }
        if !c.link {
            let s = tree
                .session_mut(ssid)
                .ok_or_else(|| CommandError::internal("session vanished"))?;
            // tmux links the window at its new place and unlinks the old one: a
            // current window that moves with -d (or to another session) leaves its
            // session on another current window.
            let src_index = s
                .windows
                .get(src_pos)
                .filter(|l| l.id == wid)
                .map(|l| l.index)
                .ok_or_else(|| CommandError::internal("window vanished"))?;
            let was_current = s.current().is_some_and(|l| l.index == src_index);
            let successor = s.successor(wid, src_index);
            s.windows.remove(src_pos);
            if was_current && (c.detached || ssid != dsid) {
                if let Some(next) = successor {
                    s.active = next;
                }
                s.active_index = None;
                s.last_window = None;
            }
            if ssid != dsid {
                if s.last_window == Some(wid) && !s.holds(wid) {
                    s.last_window = None;
                }
                if s.windows.is_empty() {
                    tree.sessions.retain(|s| s.id != ssid);
                    closed = Some(ssid);
                }
            }
        }
        insert(&mut tree, dsid, Winlink { index, id: wid })?;
        // The group takes up this session's windows as they are now.
        tree.sync_group_from(dsid);
        if (select || !c.detached)
            && let Some(s) = tree.session_mut(dsid)
        {
            s.select_index(index);
        }
        if closed.is_none() && ssid != dsid && !c.link {
            server.window_closed(&mut tree, ssid);
            server.relayout(&mut tree, ssid);
        }
        server.relayout(&mut tree, dsid);
    }
    let ids: Vec<_> = killed.iter().map(|p| p.id).collect();
    for p in &killed {
        p.pty.kill();
    }
    if !ids.is_empty() {
        server.panes_closed(&ids);
    }
    if let Some(sid) = closed {
        server
            .mux
            .attached
            .detach_session(sid, "the session's last window moved away");
    }
    server.mux.changed();
    Ok(Response::Done)
}

/// `unlink-window`: the window leaves one session; with `-k` it is killed if that
/// was its last link. Without `-k` tmux refuses to unlink a window's only link, and
/// so does fugue (the window would be lost).
pub fn unlink_window(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    kill: bool,
) -> Result<Response, CommandError> {
    let server = std::sync::Arc::clone(exec.server);
    let (orphan, closed) = {
        let mut tree = server.mux.tree();
        let (sid, wid, index) = tree.resolve_winlink(target, &exec.ctx)?;
        exec.resolved = tree.session(sid).map(|s| format!("{}:{index}", s.name));
        let links = tree
            .sessions
            .iter()
            .flat_map(|s| s.windows.iter())
            .filter(|l| l.id == wid)
            .count();
        let group = tree.session(sid).and_then(|s| s.group.clone());
        let members: Vec<_> = match &group {
            Some(g) => tree
                .sessions
                .iter()
                .filter(|s| s.group.as_ref() == Some(g))
                .map(|s| s.id)
                .collect(),
            None => vec![sid],
        };
        // tmux's session_is_linked: a grouped session's windows are its group's, so
        // a window is linked elsewhere when it has more links than the group has
        // members (one link each).
        if !kill && links <= members.len() {
            return Err(tmux_words("window only linked to one session")
                .with_suggestion("kill-window closes it, or unlink-window -k"));
        }
        // Every member first, alike, and only then renumbering and layout (which
        // synchronize the group): a member synchronized in between would have lost
        // the link already, and a renumbered one another window at `index`.
        let mut orphan = None;
        let mut closed = Vec::new();
        for member in &members {
            let (gone, session_closed) = tree.unlink_window(*member, index);
            orphan = orphan.or(gone);
            if session_closed {
                closed.push(*member);
            }
        }
        if let Some(g) = &group {
            // Every member changed alike: nothing for the next sync to copy.
            if let Some(links) = tree
                .sessions
                .iter()
                .find(|s| s.group.as_ref() == Some(g))
                .map(|s| s.windows.clone())
            {
                tree.group_links.insert(g.clone(), links);
            }
        }
        for member in members.iter().filter(|m| !closed.contains(m)) {
            server.window_closed(&mut tree, *member);
            server.relayout(&mut tree, *member);
        }
        if orphan.is_none()
            && let Some(best) = tree.session_of_window(wid).map(|s| s.id)
        {
            server.relayout(&mut tree, best);
        }
        let panes: Vec<_> = orphan
            .map(|w| w.layout.panes())
            .unwrap_or_default()
            .iter()
            .filter_map(|p| tree.panes.remove(p))
            .collect();
        (panes, closed)
    };
    for p in &orphan {
        p.pty.kill();
    }
    if !orphan.is_empty() {
        server.panes_closed(&orphan.iter().map(|p| p.id).collect::<Vec<_>>());
    }
    for sid in closed {
        server
            .mux
            .attached
            .detach_session(sid, "the session's last window was unlinked");
    }
    server.mux.changed();
    server.maybe_exit();
    Ok(Response::Done)
}

/// `swap-window`: the two windows trade indexes (and sessions). As in tmux a
/// session's current index stays current, so its current window changes; with `-d`
/// the target's index (holding the source window now) is selected.
pub fn swap_window(exec: &mut Exec<'_>, c: SwapWindow) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let (ssid, swid) = tree.resolve_window(c.source.as_ref(), &exec.ctx)?;
        let (dsid, dwid) = tree.resolve_window(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = Some(swid.to_string());
        if grouped_together(&tree, ssid, dsid) {
            return Err(tmux_words("can't move window, sessions are grouped"));
        }
        if swid == dwid {
            return Ok(Response::Done);
        }
        let current_index =
            |tree: &Tree, sid| tree.session(sid).and_then(|s| s.current()).map(|l| l.index);
        let (s_cur, d_cur) = (current_index(&tree, ssid), current_index(&tree, dsid));
        let (_, _, s_at) = tree.resolve_winlink(c.source.as_ref(), &exec.ctx)?;
        let (_, _, d_at) = tree.resolve_winlink(c.target.as_ref(), &exec.ctx)?;
        let take = |tree: &mut Tree, sid, index: u32| -> Result<Winlink, CommandError> {
            let s = tree
                .session_mut(sid)
                .ok_or_else(|| CommandError::internal("session vanished"))?;
            let pos = s
                .windows
                .iter()
                .position(|w| w.index == index)
                .ok_or_else(|| CommandError::internal("window vanished"))?;
            Ok(s.windows.remove(pos))
        };
        let mut a = take(&mut tree, ssid, s_at)?;
        let mut b = take(&mut tree, dsid, d_at)?;
        std::mem::swap(&mut a.index, &mut b.index);
        let (s_index, d_index) = (b.index, a.index);
        insert(&mut tree, dsid, a)?;
        insert(&mut tree, ssid, b)?;
        let select = |tree: &mut Tree, sid, index: Option<u32>| {
            if let Some(s) = tree.session_mut(sid)
                && let Some(w) = index.and_then(|i| s.link_at(i)).copied()
            {
                // The index stays current: not a change of window for `last-window`.
                s.active = w.id;
                s.active_index = Some(w.index);
            }
        };
        select(&mut tree, ssid, s_cur);
        select(&mut tree, dsid, d_cur);
        if c.detached {
            select(&mut tree, dsid, Some(d_index));
            if ssid != dsid {
                select(&mut tree, ssid, Some(s_index));
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

super::handler!(fugue_protocol::manage::MoveWindow, |exec, c| move_window(
    exec, c
));
super::handler!(
    cmd::UnlinkWindow,
    |exec, cmd::UnlinkWindow { target, kill }| unlink_window(exec, target.as_ref(), kill)
);
super::handler!(fugue_protocol::manage::SwapWindow, |exec, c| swap_window(
    exec, c
));
