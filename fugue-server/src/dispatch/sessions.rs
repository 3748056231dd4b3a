//! Commands on sessions and windows.

use super::spawn::{prepare_pane, with_new_pane};
use super::{Exec, validate_name};
use crate::attached::Control;
use crate::session::layout::Rect;
use crate::session::tree::{Session, Window, program_name};
use fugue_protocol::cmd;
use fugue_protocol::limits;
use fugue_protocol::{
    AttachInfo, ClientKind, CommandError, Created, NewSession, PaneId, Response, SessionId, Target,
    WindowId, WindowSelect,
};

/// Where it was before `-k`/`-S` made it a file of its own; callers still name it so.
pub(super) use super::new_window::new_window;

/// The size of the one pane of a new window `wid` of `area`.
pub(super) fn inner_size(tree: &crate::session::Tree, wid: WindowId, area: Rect) -> (u16, u16) {
    let frame = tree.frame(wid);
    frame.pane_size(frame.layout_area(area), area)
}

pub fn new_session(exec: &mut Exec<'_>, mut c: NewSession) -> Result<Response, CommandError> {
    let server = exec.server;
    let config = server.config();
    if let Some(name) = &c.name {
        c.name = Some(super::session_name("name", name)?);
    }
    let client_env = c.client_env.take();
    if c.existing
        && let Some(name) = &c.name
    {
        // tmux's `new-session -A`: the session there is the answer, and is attached
        // to, so it takes the client's variables as attach-session does.
        let tree = server.mux.tree();
        if let Some(s) = tree.session_by_name(name) {
            if let Some(env) = &client_env {
                let updates =
                    super::environment::updates(server, crate::options::Level::Session(s.id), env);
                super::environment::apply_updates(server, s.id, &updates);
            }
            let w = tree
                .window(s.active)
                .ok_or_else(|| CommandError::internal("session has no window"))?;
            exec.resolved = Some(s.name.clone());
            return Ok(Response::Created(Created {
                session: s.id,
                session_name: s.name.clone(),
                window: w.id,
                window_index: s.current().map(|l| l.index).unwrap_or_default(),
                pane: w.active,
                cursor: None,
            }));
        }
    }
    if let Some(name) = &c.window_name {
        validate_name("window_name", name)?;
    }
    let size = match c.size {
        Some((w, h))
            if !(limits::MIN_SESSION_COLS..=limits::MAX_COLS).contains(&w)
                || !(limits::MIN_SESSION_ROWS..=limits::MAX_ROWS).contains(&h) =>
        {
            return Err(CommandError::invalid_argument(
                "size",
                format!(
                    "{w}x{h} is out of range: expected from {}x{} to {}x{}",
                    limits::MIN_SESSION_COLS,
                    limits::MIN_SESSION_ROWS,
                    limits::MAX_COLS,
                    limits::MAX_ROWS
                ),
            )
            .with_suggestion(format!(
                "ask for at most {}x{} (a larger terminal sees the window at that size)",
                limits::MAX_COLS,
                limits::MAX_ROWS
            )));
        }
        Some(s) => s,
        None => (config.server.default_width, config.server.default_height),
    };
    if let Some(with) = &c.group {
        return super::session_group::new_grouped_session(exec, &c, with, size);
    }
    let name_taken = |tree: &crate::session::Tree, name: &str| {
        if tree.session_by_name(name).is_some() {
            return Err(CommandError::invalid_argument(
                "name",
                format!("a session named `{name}` already exists"),
            )
            .with_suggestion("pick another name, or attach to it with `fugue attach -t NAME`"));
        }
        Ok(())
    };
    let area = Rect {
        x: 0,
        y: 0,
        width: size.0,
        height: size.1,
    };
    // tmux's update-environment: the client's variables for the session's
    // environment (the global option: the session has none of its own yet). The
    // first program gets them through its own environment, ahead of the caller's
    // `-e`, which wins as in tmux.
    let updates = client_env.map_or_else(Vec::new, |env| {
        super::environment::updates(server, crate::options::Level::GlobalSession, &env)
    });
    // tmux's `new-session -e`: the variables go into the session's environment too
    // (`show-environment -t` lists them, later windows get them), after the client's.
    let given: Vec<(String, Option<String>)> = c
        .spawn
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    if !updates.is_empty() {
        let valid = |k: &String| !(k.is_empty() || k.contains('=') || k.contains('\0'));
        let first: Vec<(String, String)> = updates
            .iter()
            .filter(|(k, _)| valid(k))
            .map(|(k, v)| {
                let v = v.clone();
                (
                    k.clone(),
                    v.unwrap_or_else(|| crate::pane::child::REMOVED.to_string()),
                )
            })
            .collect();
        c.spawn.env = first.into_iter().chain(c.spawn.env).collect();
    }
    let created = with_new_pane(
        exec,
        |exec, tree| {
            if let Some(name) = &c.name {
                name_taken(tree, name)?;
            }
            let wid = tree.new_window_id();
            let launch = prepare_pane(
                exec,
                tree,
                (None, wid),
                &c.spawn,
                inner_size(tree, wid, area),
                None,
            )?;
            Ok((wid, launch))
        },
        |exec, tree, wid, pane| {
            // Checked again: another session may have taken the name meanwhile.
            if let Some(name) = &c.name {
                name_taken(tree, name)?;
            }
            let name = c.name.clone().unwrap_or_else(|| tree.free_session_name());
            let argv = tree
                .panes
                .get(&pane)
                .map(|p| p.argv.clone())
                .unwrap_or_default();
            let sid = tree.new_session_id();
            super::environment::apply_updates(exec.server, sid, &updates);
            super::environment::apply_updates(exec.server, sid, &given);
            // The global base-index: the session has no options of its own yet.
            let first_index = super::windows::base_index(exec.server, None);
            let last_used = tree.touch();
            let first_pane = tree
                .panes
                .get(&pane)
                .filter(|p| p.creator.is_person())
                .map(|p| p.id);
            tree.windows.insert(
                wid,
                Window::of_pane(
                    wid,
                    pane,
                    c.window_name.clone().unwrap_or_else(|| program_name(&argv)),
                    c.window_name.is_none() && super::auto_rename::by_default(exec.server),
                ),
            );
            if c.window_name.is_some() {
                super::auto_rename::name_given(exec.server, wid);
            }
            tree.sessions.push(Session {
                last_used,
                size,
                first_pane,
                ..Session::new(sid, name.clone(), wid, first_index)
            });
            exec.resolved = Some(name.clone());
            Ok(Created {
                session: sid,
                session_name: name,
                window: wid,
                window_index: first_index,
                pane,
                cursor: None,
            })
        },
    )?;
    server.mark_had_sessions();
    server.mux.changed();
    Ok(Response::Created(created))
}

pub fn kill_session(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    let server = exec.server;
    let (sid, panes) = {
        let mut tree = server.mux.tree();
        let sid = tree.resolve_session(target, &exec.ctx)?;
        let windows: Vec<_> = tree
            .session(sid)
            .map(|s| s.windows.iter().map(|l| l.id).collect())
            .unwrap_or_default();
        exec.resolved = tree.session(sid).map(|s| s.name.clone());
        tree.sessions.retain(|s| s.id != sid);
        // A window another session links lives on there, as in tmux.
        let mut ids = Vec::new();
        for wid in windows {
            if tree.sessions_of_window(wid).next().is_none()
                && let Some(w) = tree.windows.remove(&wid)
            {
                ids.extend(w.layout.panes());
            }
        }
        let panes: Vec<_> = ids.iter().filter_map(|p| tree.panes.remove(p)).collect();
        (sid, panes)
    };
    for p in &panes {
        p.pty.kill();
    }
    server.panes_closed(&panes.iter().map(|p| p.id).collect::<Vec<_>>());
    server
        .mux
        .attached
        .detach_session(sid, "the session was killed");
    server.mux.changed();
    server.maybe_exit();
    Ok(Response::Done)
}

pub fn kill_window(exec: &mut Exec<'_>, target: Option<&Target>) -> Result<Response, CommandError> {
    let server = exec.server;
    let (closed, panes) = {
        let mut tree = server.mux.tree();
        let (sid, wid, index) = tree.resolve_winlink(target, &exec.ctx)?;
        let ids = tree
            .window(wid)
            .map(|w| w.layout.panes())
            .unwrap_or_default();
        exec.resolved = tree.session(sid).map(|s| format!("{}:{index}", s.name));
        // Killed in every session linking it, as tmux's kill-window.
        let holders: Vec<_> = tree.sessions_of_window(wid).map(|s| s.id).collect();
        let panes: Vec<_> = ids.iter().filter_map(|p| tree.panes.remove(p)).collect();
        let closed = tree.remove_window(wid);
        for s in holders.iter().filter(|s| !closed.contains(s)) {
            server.window_closed(&mut tree, *s);
            server.relayout(&mut tree, *s);
        }
        (closed, panes)
    };
    for p in &panes {
        p.pty.kill();
    }
    server.panes_closed(&panes.iter().map(|p| p.id).collect::<Vec<_>>());
    for sid in closed {
        server
            .mux
            .attached
            .detach_session(sid, "the session's last window was killed");
    }
    server.mux.changed();
    server.maybe_exit();
    Ok(Response::Done)
}

pub fn kill_server(exec: &mut Exec<'_>) -> Result<Response, CommandError> {
    // On purpose: nothing is left to restore (as kill-session forgets its session).
    exec.server.persist.restorable.lock().items.clear();
    exec.server
        .begin_shutdown("kill-server", crate::journal::Stop::Forget);
    Ok(Response::Done)
}

pub fn rename_session(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    name: String,
) -> Result<Response, CommandError> {
    let name = super::session_name("name", &name)?;
    {
        let mut tree = exec.server.mux.tree();
        let sid = tree.resolve_session(target, &exec.ctx)?;
        if tree.session_by_name(&name).is_some_and(|s| s.id != sid) {
            return Err(CommandError::invalid_argument(
                "name",
                format!("a session named `{name}` already exists"),
            ));
        }
        let s = tree
            .session_mut(sid)
            .ok_or_else(|| CommandError::internal("session vanished"))?;
        exec.resolved = Some(s.name.clone());
        s.name = name;
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

pub fn rename_window(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    name: String,
) -> Result<Response, CommandError> {
    let name = super::escaped_name("name", &name)?;
    {
        let mut tree = exec.server.mux.tree();
        let (_, wid) = tree.resolve_window(target, &exec.ctx)?;
        let w = tree
            .window_mut(wid)
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        exec.resolved = Some(wid.to_string());
        w.name = name;
        w.auto_name = false;
        super::auto_rename::name_given(exec.server, wid);
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

pub fn select_window(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    select: WindowSelect,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let (sid, index) = match select {
            WindowSelect::Target | WindowSelect::TargetOrLast => {
                let (sid, _, index) = tree.resolve_winlink(target, &exec.ctx)?;
                let s = tree
                    .session(sid)
                    .ok_or_else(|| CommandError::internal("session vanished"))?;
                // `-T` on the current window toggles to the last one, as tmux's.
                let current = s.current().map(|c| c.index);
                if select == WindowSelect::TargetOrLast && current == Some(index) {
                    (sid, last_index(s)?)
                } else {
                    (sid, index)
                }
            }
            _ => {
                let sid = tree.resolve_session(target, &exec.ctx)?;
                let s = tree
                    .session(sid)
                    .ok_or_else(|| CommandError::internal("session vanished"))?;
                let current = s.current().copied();
                let pos = s
                    .windows
                    .iter()
                    .position(|w| Some(*w) == current)
                    .unwrap_or(0);
                let n = s.windows.len().max(1);
                let at = |i: usize| s.windows.get(i).map_or(0, |w| w.index);
                let index = match select {
                    WindowSelect::Index(i) => s
                        .windows
                        .iter()
                        .find(|w| w.index == i)
                        .map(|w| w.index)
                        .ok_or_else(|| {
                            CommandError::unknown_target(format!(
                                "session `{}` has no window {i}",
                                s.name
                            ))
                            .with_suggestion(format!(
                                "windows: {}",
                                s.windows
                                    .iter()
                                    .map(|w| w.index.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                        })?,
                    WindowSelect::Next => at((pos + 1) % n),
                    WindowSelect::Previous => at((pos + n - 1) % n),
                    WindowSelect::Last => last_index(s)?,
                    WindowSelect::NextAlert | WindowSelect::PreviousAlert => {
                        let forward = select == WindowSelect::NextAlert;
                        alerted_index(&tree, s, pos, forward)?
                    }
                    WindowSelect::Target | WindowSelect::TargetOrLast => {
                        current.map_or(0, |c| c.index)
                    }
                };
                (sid, index)
            }
        };
        let s = tree
            .session_mut(sid)
            .ok_or_else(|| CommandError::internal("session vanished"))?;
        s.select_index(index);
        exec.resolved = Some(format!("{}:{index}", s.name));
        // A window made current has its alerts seen, attached or not, as tmux's
        // session_set_current clears its winlink's flags (`next-window -a` moves on).
        let window = s.current().map(|l| l.id);
        if let Some(w) = window {
            tree.bells.remove(&w);
            tree.activity.remove(&w);
            tree.silence.remove(&w);
        }
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `kill-session -C`: every window of the session loses its bell, activity and
/// silence flags (tmux clears its winlinks' alert flags), so its clients' status
/// lines drop them.
pub fn clear_alerts(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let sid = tree.resolve_session(target, &exec.ctx)?;
        let s = tree
            .session(sid)
            .ok_or_else(|| CommandError::internal("session vanished"))?;
        exec.resolved = Some(s.name.clone());
        let windows: Vec<_> = s.windows.iter().map(|l| l.id).collect();
        for w in windows {
            tree.bells.remove(&w);
            tree.activity.remove(&w);
            tree.silence.remove(&w);
        }
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// The session's last window's index, or tmux's error.
fn last_index(s: &crate::session::Session) -> Result<u32, CommandError> {
    s.last_window.and_then(|l| s.index_of(l)).ok_or_else(|| {
        CommandError::new(
            fugue_protocol::ErrorCode::InvalidArgument,
            // tmux's words: libtmux matches the whole line.
            "no last window",
        )
    })
}

/// `next-window -a` / `previous-window -a`: the index of the first window after (or
/// before) position `pos` that has an alert (a bell, activity or silence flag),
/// wrapping round as tmux's session_next_alert; the current window does not count.
fn alerted_index(
    tree: &crate::session::Tree,
    s: &crate::session::Session,
    pos: usize,
    forward: bool,
) -> Result<u32, CommandError> {
    let n = s.windows.len();
    let alerted = |w: fugue_protocol::WindowId| {
        tree.bells.contains(&w) || tree.activity.contains(&w) || tree.silence.contains(&w)
    };
    (1..n)
        .map(|step| match forward {
            true => (pos + step) % n,
            false => (pos + n - step) % n,
        })
        .filter_map(|i| s.windows.get(i))
        .find(|l| alerted(l.id))
        .map(|l| l.index)
        .ok_or_else(|| {
            let which = if forward { "next" } else { "previous" };
            // tmux's words.
            CommandError::new(
                fugue_protocol::ErrorCode::InvalidArgument,
                format!("no {which} window"),
            )
        })
}

pub fn list_sessions(exec: &mut Exec<'_>) -> Result<Response, CommandError> {
    let counts = attached_counts(exec);
    let tree = exec.server.mux.tree();
    let mut list: Vec<_> = tree
        .sessions
        .iter()
        .filter(|s| {
            super::scope::session_panes(&tree, s.id)
                .iter()
                .any(|p| exec.scope.allows(*p))
        })
        .map(|s| tree.session_info(s, counts.iter().filter(|c| **c == s.id).count() as u32))
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Response::Sessions(list))
}

fn attached_counts(exec: &Exec<'_>) -> Vec<SessionId> {
    exec.server
        .mux
        .attached
        .lock()
        .values()
        .filter_map(|c| c.session)
        .collect()
}

pub fn attach(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    create: bool,
    client_env: Option<Vec<(String, String)>>,
    tty: Option<String>,
) -> Result<Response, CommandError> {
    let server = exec.server;
    let Some(client) = exec.origin.client_id().filter(|_| {
        matches!(
            exec.origin,
            crate::origin::Origin::Client {
                kind: ClientKind::Tui,
                ..
            }
        )
    }) else {
        return Err(CommandError::invalid_argument(
            "client",
            "only a terminal client can attach; run `fugue attach` in a terminal",
        ));
    };
    {
        // What list-clients shows of it: its terminal and TERM.
        let term = client_env
            .as_ref()
            .and_then(|env| env.iter().find(|(k, _)| k == "TERM"))
            .map(|(_, v)| v.clone());
        if let Some(c) = server.mux.attached.lock().get_mut(&client) {
            c.tty = tty.or(c.tty.take());
            c.termname = term.or(c.termname.take());
        }
    }
    let existing = {
        let tree = server.mux.tree();
        match target {
            Some(_) => Some(tree.resolve_session(target, &exec.ctx)?),
            None => tree.most_recent_session().map(|s| s.id),
        }
    };
    let sid = match existing {
        Some(s) => s,
        None if create => {
            let status_rows = server.config().status.rows();
            let size = server
                .mux
                .attached
                .lock()
                .get(&client)
                .and_then(|c| c.size)
                .map(|(c, r)| (c.max(10), r.saturating_sub(status_rows).max(5)));
            match new_session(
                exec,
                NewSession {
                    size,
                    client_env,
                    ..NewSession::default()
                },
            )? {
                // Made with the client's variables: nothing more to copy.
                Response::Created(c) => return attached(exec, client, c.session, None),
                _ => return Err(CommandError::internal("new-session answered unexpectedly")),
            }
        }
        None => {
            return Err(CommandError::unknown_target("no sessions exist")
                .with_suggestion("create one with `fugue new-session` or just `fugue`"));
        }
    };
    attached(exec, client, sid, client_env)
}

/// The attach itself, to session `sid` (which takes `client_env`'s variables by
/// tmux's update-environment first).
fn attached(
    exec: &mut Exec<'_>,
    client: u64,
    sid: fugue_protocol::SessionId,
    client_env: Option<Vec<(String, String)>>,
) -> Result<Response, CommandError> {
    let server = exec.server;
    if let Some(env) = &client_env {
        let updates = super::environment::updates(server, crate::options::Level::Session(sid), env);
        super::environment::apply_updates(server, sid, &updates);
    }
    // A client switching sessions leaves one behind, which may have been held at this
    // client's size: it gets the size of the clients still on it (tmux does the same).
    let left = {
        let mut clients = server.mux.attached.lock();
        clients
            .get_mut(&client)
            .and_then(|c| c.session.replace(sid))
            .filter(|old| *old != sid)
    };
    let info = {
        let mut tree = server.mux.tree();
        if let Some(old) = left {
            server.resize_session_to_clients(&mut tree, old);
        }
        let stamp = tree.touch();
        // A session whose program exited at once can end between its resolution
        // and here (the tree is unlocked between): that is an unknown target, as if it
        // had ended a moment sooner, which a client that just made it reports as
        // `[exited]` (acceptance test D); an internal error made it fail under load.
        let s = tree
            .session_mut(sid)
            .ok_or_else(|| CommandError::unknown_target("the session has ended"))?;
        s.last_used = stamp;
        let name = s.name.clone();
        server.resize_session_to_clients(&mut tree, sid);
        exec.resolved = Some(name.clone());
        let config = server.config();
        AttachInfo {
            session: sid,
            session_name: name,
            client_id: client,
            keys: server.keys.lock().clone(),
            status: config.status.enabled,
            titles: config.passthrough.titles(),
            mouse: config.keys.mouse,
            copy: config.copy.options(config.passthrough.set_clipboard),
            status_line: Box::new(crate::options::apply::status_options(
                &server.options.lock(),
                Some(sid),
            )),
            option_names: crate::options::apply::option_names(),
        }
    };
    server.mux.changed();
    server.client_attached(client, sid);
    super::held_modes::hand_off(server, client, sid);
    Ok(Response::Attached(info))
}

/// `refresh-client`: the calling attached client with no target (as tmux), else
/// every client attached to the target's session.
pub fn refresh(exec: &mut Exec<'_>, target: Option<&Target>) -> Result<Response, CommandError> {
    let server = exec.server;
    if let (None, Some(me)) = (target, exec.origin.client_id())
        && exec.ctx.client_session.is_some()
    {
        if let Some(c) = server.mux.attached.lock().get(&me) {
            c.control.post(Control::Redraw);
        }
        return Ok(Response::Done);
    }
    let sid = {
        let tree = server.mux.tree();
        let sid = tree.resolve_session(target, &exec.ctx)?;
        exec.resolved = tree.session(sid).map(|s| s.name.clone());
        sid
    };
    server.mux.attached.tell(Some(sid), Control::Redraw);
    Ok(Response::Done)
}

/// The calling attached client's terminal has a new size: its session's windows follow
/// the sizes of the clients attached to it. Only a client has a size, so only a
/// client may say so.
/// `client-focus`: the calling client's terminal gained or lost focus.
pub fn client_focus(exec: &mut Exec<'_>, focused: bool) -> Result<Response, CommandError> {
    let server = exec.server;
    let me = exec.origin.client_id().ok_or_else(|| {
        CommandError::invalid_argument("client", "only an attached terminal client has focus")
    })?;
    match server.mux.attached.lock().get_mut(&me) {
        Some(c) => c.focused = focused,
        None => {
            return Err(CommandError::invalid_argument(
                "client",
                "this client is gone",
            ));
        }
    }
    exec.resolved = Some(if focused { "in" } else { "out" }.into());
    server.update_focus();
    Ok(Response::Done)
}

/// The colours the calling terminal client's terminal answered: panes' programs
/// read them when they ask (OSC 10/11/12) and set none of their own.
pub fn client_colors(
    exec: &mut Exec<'_>,
    fg: Option<[u16; 3]>,
    bg: Option<[u16; 3]>,
) -> Result<Response, CommandError> {
    exec.origin.client_id().ok_or_else(|| {
        CommandError::invalid_argument("client", "only an attached terminal client has colours")
    })?;
    exec.server.outer_colors.set(fg, bg);
    Ok(Response::Done)
}

/// The pane mode the calling terminal client now shows (or none), for
/// `#{pane_in_mode}` / `#{pane_mode}`.
pub fn client_mode(
    exec: &mut Exec<'_>,
    pane: Option<PaneId>,
    mode: Option<String>,
) -> Result<Response, CommandError> {
    let me = exec.origin.client_id().ok_or_else(|| {
        CommandError::invalid_argument("client", "only an attached terminal client shows a mode")
    })?;
    // What it showed before is over, whether or not this report is taken.
    exec.server.mux.tree().shown_modes.remove(&me);
    let shown = match (pane, mode.as_deref()) {
        (Some(p), Some(m)) => {
            let Some(name) = fugue_verbs::pane_modes::MODE_NAMES
                .iter()
                .find(|n| **n == m)
            else {
                return Err(CommandError::invalid_argument(
                    "mode",
                    format!("unknown pane mode {m:?}"),
                )
                .with_suggestion(format!(
                    "one of {}",
                    fugue_verbs::pane_modes::MODE_NAMES.join(", ")
                )));
            };
            Some((p, *name))
        }
        (None, None) => None,
        _ => {
            return Err(CommandError::invalid_argument(
                "mode",
                "a mode needs its pane, and a pane its mode",
            ));
        }
    };
    let mut tree = exec.server.mux.tree();
    match shown {
        Some((p, name)) => {
            if !tree.panes.contains_key(&p) {
                return Err(CommandError::unknown_target(format!("no pane {p}")));
            }
            exec.resolved = Some(format!("{p} {name}"));
            tree.shown_modes.insert(me, (p, name));
        }
        None => {
            exec.resolved = Some("none".into());
            tree.shown_modes.remove(&me);
        }
    }
    Ok(Response::Done)
}

pub fn resize_client(exec: &mut Exec<'_>, cols: u16, rows: u16) -> Result<Response, CommandError> {
    let server = exec.server;
    let Some(me) = exec.origin.client_id() else {
        return Err(CommandError::invalid_argument(
            "client",
            "only an attached terminal client has a size to set",
        )
        .with_suggestion("size a session with new-session -x COLS -y ROWS"));
    };
    let session = {
        let mut clients = server.mux.attached.lock();
        let Some(c) = clients.get_mut(&me) else {
            return Err(CommandError::invalid_argument(
                "client",
                "this client is gone",
            ));
        };
        c.size = Some(limits::clamp_size(cols, rows));
        c.session
    };
    exec.resolved = Some(format!("{cols}x{rows}"));
    if let Some(sid) = session {
        let mut tree = server.mux.tree();
        server.resize_session_to_clients(&mut tree, sid);
    }
    server.mux.changed();
    Ok(Response::Done)
}

/// Longest status-bar message.
const MESSAGE_MAX: usize = 500;

pub fn display_message(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    text: String,
    delay_ms: Option<u32>,
) -> Result<Response, CommandError> {
    let text: String = text.chars().filter(|c| !c.is_control()).collect();
    let text = text.trim();
    if text.is_empty() {
        return Err(CommandError::invalid_argument(
            "text",
            "the message is empty",
        ));
    }
    if text.len() > MESSAGE_MAX {
        return Err(CommandError::invalid_argument(
            "text",
            format!("longer than {MESSAGE_MAX} bytes"),
        ));
    }
    let (sid, text) = {
        let tree = exec.server.mux.tree();
        let sid = tree.resolve_session(target, &exec.ctx)?;
        exec.resolved = tree.session(sid).map(|s| s.name.clone());
        // A format, as tmux's display-message (`#S #{window_index}`), in the target's
        // scope. Not strftime: `50% done` from an agent stays as written.
        let pane = tree.resolve_pane(target, &exec.ctx).ok();
        let shown = super::formats::expand(exec.server, &tree, pane, text, exec.origin);
        (sid, shown.chars().take(MESSAGE_MAX).collect::<String>())
    };
    exec.server.log_message(&format!("message: {text}"));
    let message = match delay_ms {
        Some(ms) => Control::NoticeFor(text, ms),
        None => Control::Notice(text),
    };
    exec.server.mux.attached.tell(Some(sid), message);
    Ok(Response::Done)
}

super::handler!(fugue_protocol::NewSession, |exec, c| new_session(exec, c));
super::handler!(cmd::ClearAlerts, |exec, cmd::ClearAlerts { target }| {
    clear_alerts(exec, target.as_ref())
});
super::handler!(cmd::KillSession, |exec, cmd::KillSession { target }| {
    kill_session(exec, target.as_ref())
});
super::handler!(cmd::KillWindow, |exec, cmd::KillWindow { target }| {
    kill_window(exec, target.as_ref())
});
super::handler!(cmd::KillServer, |exec, _| kill_server(exec));
super::handler!(
    cmd::RenameSession,
    |exec, cmd::RenameSession { target, name }| rename_session(exec, target.as_ref(), name)
);
super::handler!(
    cmd::RenameWindow,
    |exec, cmd::RenameWindow { target, name }| rename_window(exec, target.as_ref(), name)
);
super::handler!(
    cmd::SelectWindow,
    |exec, cmd::SelectWindow { target, select }| select_window(exec, target.as_ref(), select)
);
super::handler!(cmd::ListSessions, |exec, _| list_sessions(exec));
super::handler!(cmd::AttachSession, |exec,
                                     cmd::AttachSession {
                                         target,
                                         create,
                                         client_env,
                                         tty,
                                         others,
                                     }| {
    let answer = attach(exec, target.as_ref(), create, client_env, tty)?;
    // `-d` / `-x`: the session's other clients leave once this one is on it.
    if let (Some(leave), Response::Attached(info)) = (others, &answer) {
        let me = exec.origin.client_id();
        let sid = info.session;
        super::clients::detach_where(exec, &leave, |id, c| {
            c.session == Some(sid) && Some(id) != me
        })?;
    }
    Ok(answer)
});
super::handler!(cmd::RefreshClient, |exec, cmd::RefreshClient { target }| {
    refresh(exec, target.as_ref())
});
super::handler!(
    cmd::ResizeClient,
    |exec, cmd::ResizeClient { cols, rows }| resize_client(exec, cols, rows)
);
super::handler!(cmd::ClientFocus, |exec, cmd::ClientFocus { focused }| {
    client_focus(exec, focused)
});
super::handler!(cmd::ClientColors, |exec, cmd::ClientColors { fg, bg }| {
    client_colors(exec, fg, bg)
});
super::handler!(cmd::ClientMode, |exec, cmd::ClientMode { pane, mode }| {
    client_mode(exec, pane, mode)
});
super::handler!(
    cmd::DisplayMessage,
    |exec,
     cmd::DisplayMessage {
         target,
         text,
         delay_ms,
     }| display_message(exec, target.as_ref(), text, delay_ms)
);
