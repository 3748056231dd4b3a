//! Commands on panes and the layout of their window.

use super::Exec;
use super::spawn::{prepare_pane, with_new_pane};
use crate::session::Tree;
use crate::session::layout::{Borders, Layout, Rect};
use fugue_protocol::cmd;
use fugue_protocol::{
    CommandError, Created, Direction, ErrorCode, PaneId, PaneScope, PaneSelect, Resize, Response,
    SplitPane, SplitSize, Target,
};

/// The layout `window` gets with `target` split for a new pane `new`, and the new
/// pane's inner size.
fn split_layout(
    tree: &Tree,
    c: &SplitPane,
    target: PaneId,
    new: PaneId,
) -> Result<(Layout, (u16, u16)), CommandError> {
    let (sid, wid) = tree
        .locate(target)
        .ok_or_else(|| CommandError::internal("pane has no window"))?;
    let s = tree
        .session(sid)
        .ok_or_else(|| CommandError::internal("session vanished"))?;
    let w = tree
        .window(wid)
        .ok_or_else(|| CommandError::internal("window vanished"))?;
    let window = w.shown_area(s.area());
    let frame = tree.frame(wid);
    let area = frame.layout_area(window);
    let mut layout = w.layout.clone();
    // A size is the new pane's own, as in tmux; the layout sizes tiles, which add
    // the pane's border. A full split (`-f`) is sized against the whole window.
    let extent = if c.full {
        match c.direction {
            Direction::Left | Direction::Right => area.width,
            Direction::Up | Direction::Down => area.height,
        }
    } else {
        tile_extent(&layout, area, target, c.direction)
    };
    let size = frame.split_size(c.size, extent);
    let split = if c.full {
        layout.split_full(new, c.direction, size, area)
    } else {
        layout.split_or_even(target, new, c.direction, size, area)
    };
    split.map_err(|e| match e {
        crate::session::layout::LayoutError::InvalidSize(_) => {
            CommandError::new(ErrorCode::InvalidArgument, e.to_string()).with_suggestion(
                "give the size as a percentage from 1% to 99% or as a number of cells",
            )
        }
        _ => CommandError::new(ErrorCode::LimitExceeded, e.to_string())
            .with_suggestion("make the window larger, close a pane, or use `select-layout tiled`"),
    })?;
    let rect = layout
        .geometry(area)
        .into_iter()
        .find(|(p, _)| *p == new)
        .map(|(_, r)| r)
        .ok_or_else(|| CommandError::internal("split pane has no geometry"))?;
    Ok((layout, frame.pane_size(rect, window)))
}

/// The cells `pane`'s tile spans along the axis of a split towards `dir`.
pub(super) fn tile_extent(layout: &Layout, area: Rect, pane: PaneId, dir: Direction) -> u16 {
    let tile = layout.geometry(area).into_iter().find(|(p, _)| *p == pane);
    tile.map(|(_, r)| match dir {
        Direction::Left | Direction::Right => r.width,
        Direction::Up | Direction::Down => r.height,
    })
    .unwrap_or(0)
}

pub fn split(exec: &mut Exec<'_>, c: SplitPane) -> Result<Response, CommandError> {
    let created = with_new_pane(
        exec,
        |exec, tree| {
            let target = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
            exec.resolved = Some(target.to_string());
            let (sid, wid) = tree
                .locate(target)
                .ok_or_else(|| CommandError::internal("pane has no window"))?;
            // Tried on a copy first: a pane too small to split must not start a program.
            // (Two splits racing for the last room both pass here; the second finds no
            // room in `finish` and its program is ended.)
            let (_, inner) = split_layout(tree, &c, target, PaneId(u32::MAX))?;
            let cwd = tree.panes.get(&target).and_then(|p| p.current_cwd());
            let launch = prepare_pane(exec, tree, (Some(sid), wid), &c.spawn, inner, cwd)?;
            Ok((target, launch))
        },
        |exec, tree, target, pane| {
            // Split again on the layout as it is now: it may have changed while the
            // program started (and the target may be gone).
            let (sid, wid) = tree.locate(target).ok_or_else(|| {
                CommandError::new(
                    ErrorCode::UnknownTarget,
                    format!("pane {target} was closed while the new pane's program started"),
                )
            })?;
            let (layout, _) = split_layout(tree, &c, target, pane)?;
            let s = tree
                .session(sid)
                .ok_or_else(|| CommandError::internal("session vanished"))?;
            let sname = s.name.clone();
            let w = tree
                .window_mut(wid)
                .ok_or_else(|| CommandError::internal("window vanished"))?;
            w.layout = layout;
            if c.select {
                w.set_active(pane);
            }
            // `-Z`: zoomed on the active pane, as tmux's window_pop_zoom leaves it.
            w.zoomed = c.zoom;
            exec.server.relayout(tree, sid);
            let window_index = tree
                .session(sid)
                .and_then(|s| s.index_of(wid))
                .unwrap_or_default();
            Ok(Created {
                session: sid,
                session_name: sname,
                window: wid,
                window_index,
                pane,
                cursor: None,
            })
        },
    )?;
    exec.server.mux.changed();
    Ok(Response::Created(created))
}

pub fn kill_pane(exec: &mut Exec<'_>, target: Option<&Target>) -> Result<Response, CommandError> {
    let server = exec.server;
    let (pane, closed) = {
        let mut tree = server.mux.tree();
        let id = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(id.to_string());
        let holders = tree.holders_of_pane(id);
        let (pane, removed) = tree
            .remove_pane(id)
            .ok_or_else(|| CommandError::internal("pane vanished"))?;
        server.settle_removed(&mut tree, &holders, &removed);
        (pane, removed.sessions_closed)
    };
    pane.pty.kill();
    server.panes_closed(&[pane.id]);
    for sid in closed {
        server
            .mux
            .attached
            .detach_session(sid, "the session's last pane was killed");
    }
    server.mux.changed();
    server.maybe_exit();
    Ok(Response::Done)
}

pub fn select_pane(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    select: PaneSelect,
    keep_zoom: bool,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let current = tree.resolve_pane(target, &exec.ctx)?;
        let (sid, wid) = tree
            .locate(current)
            .ok_or_else(|| CommandError::internal("pane has no window"))?;
        let area = tree.layout_area(wid);
        let w = tree
            .window(wid)
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        let order = w.layout.panes();
        let pos = order.iter().position(|p| *p == current).unwrap_or(0);
        let n = order.len();
        let chosen = match select {
            PaneSelect::Target => Some(current),
            PaneSelect::Direction(d) => w.layout.neighbor(current, d, area),
            PaneSelect::Next => order.get((pos + 1) % n).copied(),
            PaneSelect::Previous => order.get((pos + n - 1) % n).copied(),
            PaneSelect::Last => w.last_active.filter(|p| w.layout.contains(*p)),
        };
        exec.resolved = Some(current.to_string());
        if let Some(p) = chosen {
            let w = tree
                .window_mut(wid)
                .ok_or_else(|| CommandError::internal("window vanished"))?;
            // `-Z` keeps a zoomed window zoomed, on the pane selected.
            if p != w.active && !keep_zoom {
                w.zoomed = false;
            }
            w.set_active(p);
            if let Some(s) = tree.session_mut(sid) {
                s.set_active(wid);
            }
            exec.server.relayout(&mut tree, sid);
        }
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `select-pane -d` / `-e`: input to the pane off or back on (io.rs drops what is
/// sent to a pane whose input is off).
pub fn pane_input(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    enabled: bool,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let id = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(id.to_string());
        if let Some(p) = tree.panes.get_mut(&id) {
            p.input_off = !enabled;
        }
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// `select-pane -m` / `-M`: the server's one marked pane. `-m` on the marked pane
/// clears the mark, as tmux's does.
pub fn mark_pane(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    clear: bool,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let id = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(id.to_string());
        tree.marked_pane = match clear || tree.marked() == Some(id) {
            true => None,
            false => Some(id),
        };
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

pub fn resize_pane(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    resize: Resize,
) -> Result<Response, CommandError> {
    {
        let mut tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        let (sid, wid) = tree
            .locate(pane)
            .ok_or_else(|| CommandError::internal("pane has no window"))?;
        let (window, frame) = (tree.window_area(wid), tree.frame(wid));
        let area = frame.layout_area(window);
        let w = tree
            .window_mut(wid)
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        match resize {
            Resize::By(dir, amount) => {
                if amount == 0 || amount > 10_000 {
                    return Err(CommandError::invalid_argument(
                        "amount",
                        "expected 1 to 10000 cells",
                    ));
                }
                w.zoomed = false;
                w.layout.resize(pane, dir, amount, area);
            }
            Resize::ToSize { width, height } => {
                // A percentage is of the window, as tmux's `-x 30%`. Both are the
                // pane's own cells, as in tmux (`#{pane_width}` reads back what was
                // asked); the layout sizes tiles, which add the pane's border.
                let cells =
                    |s: Option<SplitSize>, extent: u16| -> Result<Option<u16>, CommandError> {
                        match s {
                            None => Ok(None),
                            Some(SplitSize::Cells(n)) => Ok(Some(n)),
                            Some(SplitSize::Percent(p)) if (1..=100).contains(&p) => {
                                // tmux rounds down (`args_string_percentage`); boxes
                                // round up, as they always have.
                                let of = u32::from(extent) * u32::from(p);
                                let n = match frame.borders {
                                    Borders::Shared => of / 100,
                                    Borders::Boxed => of.div_ceil(100),
                                };
                                Ok(Some(u16::try_from(n).unwrap_or(u16::MAX).max(1)))
                            }
                            Some(SplitSize::Percent(p)) => Err(CommandError::invalid_argument(
                                "size",
                                format!("{p}% is not between 1% and 100%"),
                            )),
                        }
                    };
                let width = cells(width, window.width)?;
                let height = cells(height, window.height)?;
                for (vertical, size) in [(false, width), (true, height)] {
                    if size.is_some_and(|s| s == 0 || s > 10_000) {
                        return Err(CommandError::invalid_argument(
                            if vertical { "height" } else { "width" },
                            "expected 1 to 10000 cells",
                        ));
                    }
                    if let Some(size) = size {
                        w.zoomed = false;
                        w.layout
                            .resize_to(pane, vertical, frame.tile_cells(size), area);
                    }
                }
            }
            Resize::To { width, height } => {
                let sizes = [(false, width), (true, height)];
                for (vertical, size) in sizes {
                    if size.is_some_and(|s| s == 0 || s > 10_000) {
                        return Err(CommandError::invalid_argument(
                            if vertical { "height" } else { "width" },
                            "expected 1 to 10000 cells",
                        ));
                    }
                }
                for (vertical, size) in sizes {
                    if let Some(size) = size {
                        w.zoomed = false;
                        w.layout.resize_to(pane, vertical, size, area);
                    }
                }
            }
            Resize::ZoomToggle => {
                if w.layout.len() > 1 {
                    w.zoomed = !w.zoomed || w.active != pane;
                    w.set_active(pane);
                }
            }
        }
        exec.server.relayout(&mut tree, sid);
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

pub fn set_title(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    title: String,
) -> Result<Response, CommandError> {
    if title.chars().any(char::is_control) || title.len() > 256 {
        return Err(CommandError::invalid_argument(
            "title",
            "expected at most 256 bytes without control characters",
        ));
    }
    let id = {
        let mut tree = exec.server.mux.tree();
        let id = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(id.to_string());
        if let Some(p) = tree.panes.get_mut(&id) {
            p.title = (!title.is_empty()).then_some(title);
        }
        id
    };
    exec.server.hub.publish(crate::hub::Change::Title(id));
    Ok(Response::Done)
}

pub fn list_panes(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    scope: PaneScope,
    values: &[String],
) -> Result<Response, CommandError> {
    let tree = exec.server.mux.tree();
    let mut infos: Vec<fugue_protocol::PaneInfo> = match scope {
        PaneScope::All => tree.all_pane_infos(),
        PaneScope::Session => {
            let sid = tree.resolve_session(target, &exec.ctx)?;
            exec.resolved = tree.session(sid).map(|s| s.name.clone());
            tree.session(sid)
                .map(|s| tree.session_pane_infos(s))
                .unwrap_or_default()
        }
        PaneScope::Pane => {
            let pane = tree.resolve_pane(target, &exec.ctx)?;
            exec.resolved = Some(pane.to_string());
            tree.pane_info(pane).into_iter().collect()
        }
        PaneScope::Window => {
            let (sid, wid, index) = tree.resolve_winlink(target, &exec.ctx)?;
            exec.resolved = Some(wid.to_string());
            tree.session(sid)
                .map(|s| tree.link_pane_infos(s, crate::session::Winlink { index, id: wid }))
                .unwrap_or_default()
        }
    };
    infos.retain(|i| exec.scope.allows(i.id));
    for i in &mut infos {
        i.agent = exec
            .server
            .agents
            .get(i.id)
            .filter(|t| t.is_agent())
            .map(|t| t.info());
    }
    drop(tree);
    let store = exec.server.options.lock();
    super::pane_flags::annotate(exec.server, &store, &mut infos);
    drop(store);
    super::formats::listed_values(exec.server, &mut infos, values);
    Ok(Response::Panes(infos))
}

/// `sideband-mcp`: the calling pane's agent connected over MCP, or its last
/// connection closed (sent by the MCP surface). In `auto` mode such a pane is not
/// scanned for tags.
pub fn sideband_mcp(exec: &mut Exec<'_>, _connected: bool) -> Result<Response, CommandError> {
    let pane = exec
        .origin
        .caller_pane()
        .ok_or_else(|| CommandError::invalid_argument("origin", "the caller runs in no pane"))?;
    exec.resolved = Some(pane.to_string());
    let tree = exec.server.mux.tree();
    let p = tree.panes.get(&pane).ok_or_else(|| {
        CommandError::new(ErrorCode::UnknownTarget, format!("pane {pane} is gone"))
    })?;
    // What is true now, not what the command says: a connect and a disconnect of the
    // same pane may reach here in either order (the flag is for the audit log).
    p.shared.sideband.set_mcp(exec.server.mcp_has_pane(pane));
    Ok(Response::Done)
}

super::handler!(cmd::SidebandMcp, |exec, cmd::SidebandMcp { connected }| {
    sideband_mcp(exec, connected)
});
super::handler!(cmd::KillPane, |exec, cmd::KillPane { target }| kill_pane(
    exec,
    target.as_ref()
));
super::handler!(cmd::SelectPane, |exec,
                                  cmd::SelectPane {
                                      target,
                                      select,
                                      keep_zoom,
                                  }| {
    select_pane(exec, target.as_ref(), select, keep_zoom)
});
super::handler!(
    cmd::PaneInput,
    |exec, cmd::PaneInput { target, enabled }| pane_input(exec, target.as_ref(), enabled)
);
super::handler!(cmd::MarkPane, |exec, cmd::MarkPane { target, clear }| {
    mark_pane(exec, target.as_ref(), clear)
});
super::handler!(
    cmd::ResizePane,
    |exec, cmd::ResizePane { target, resize }| resize_pane(exec, target.as_ref(), resize)
);
super::handler!(
    cmd::SetPaneTitle,
    |exec, cmd::SetPaneTitle { target, title }| set_title(exec, target.as_ref(), title)
);
super::handler!(cmd::ListPanes, |exec,
                                 cmd::ListPanes {
                                     target,
                                     scope,
                                     values,
                                 }| {
    let listed = list_panes(exec, target.as_ref(), scope, &values)?;
    Ok(super::worktree::annotate(exec.server, listed).await)
});
