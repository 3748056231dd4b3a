//! `display-popup`: a pane of its own (its PTY and screen on the server, like any
//! pane) floating over a session's window, in no layout, so `list-panes` does not
//! show it (tmux lists no popup either). Attached clients draw it over the panes and
//! give it the keyboard while it is open. And `confirm-before` / `display-menu` from
//! the CLI: the person at the session's clients answers, so the command line goes to
//! them.

use super::Exec;
use super::spawn::{prepare_pane, with_new_pane};
use crate::attached::Control;
use crate::session::tree::Popup;
use fugue_protocol::popup::{ClientCommandLine, DisplayPopup, MAX_CLIENT_LINE, PopupSize};
use fugue_protocol::{CommandError, ErrorCode, Response};

/// The smallest popup, border included: a border and one cell inside.
const MIN_SIDE: u16 = 3;

/// `confirm-before` / `display-menu` from the CLI: handed to the clients attached to
/// the target session, which ask their person.
pub fn client_line(exec: &mut Exec<'_>, c: ClientCommandLine) -> Result<Response, CommandError> {
    let size: usize = c.argv.iter().map(String::len).sum();
    if size > MAX_CLIENT_LINE {
        return Err(CommandError::invalid_argument(
            "argv",
            format!("longer than {MAX_CLIENT_LINE} bytes"),
        ));
    }
    let sid = {
        let tree = exec.server.mux.tree();
        let sid = tree.resolve_session(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = tree.session(sid).map(|s| s.name.clone());
        sid
    };
    let attached = exec
        .server
        .mux
        .attached
        .lock()
        .values()
        .any(|e| e.session == Some(sid) && !e.control_mode);
    if !attached {
        // A control client (tmux -C) draws nothing: it cannot show a chooser.
        return Err(CommandError::new(
            ErrorCode::InvalidArgument,
            "no terminal client is attached to the session to ask (tmux: no current client)",
        ));
    }
    exec.server
        .mux
        .attached
        .tell(Some(sid), Control::Run(c.argv));
    Ok(Response::Done)
}

pub async fn display_popup(exec: &mut Exec<'_>, c: DisplayPopup) -> Result<Response, CommandError> {
    let server = std::sync::Arc::clone(exec.server);
    if c.close {
        let closed = {
            let mut tree = server.mux.tree();
            let sid = tree.resolve_session(c.target.as_ref(), &exec.ctx)?;
            exec.resolved = tree.session(sid).map(|s| s.name.clone());
            close(&mut tree, sid)
        };
        if let Some(pane) = closed {
            pane.pty.kill();
            server.panes_closed(&[pane.id]);
        }
        server.mux.changed();
        return Ok(Response::Done);
    }
    with_new_pane(
        exec,
        |exec, tree| {
            let sid = tree.resolve_session(c.target.as_ref(), &exec.ctx)?;
            exec.resolved = tree.session(sid).map(|s| s.name.clone());
            let s = tree
                .session(sid)
                .ok_or_else(|| CommandError::internal("session vanished"))?;
            let w = s
                .active_window()
                .ok_or_else(|| CommandError::internal("the session has no window"))?;
            let area = w.area(s.area());
            let (wid, active) = (w.id, w.active);
            if tree
                .popups
                .get(&sid)
                .is_some_and(|p| tree.panes.contains_key(&p.pane))
            {
                // tmux does nothing when the client shows a popup already.
                return Err(CommandError::new(
                    ErrorCode::InvalidArgument,
                    "the session shows a popup already (close it with display-popup -C)",
                ));
            }
            let width = c
                .width
                .unwrap_or(PopupSize::Percent(50))
                .cells(area.width)
                .max(MIN_SIDE.min(area.width));
            let height = c
                .height
                .unwrap_or(PopupSize::Percent(50))
                .cells(area.height)
                .max(MIN_SIDE.min(area.height));
            let border = if c.no_border { 0 } else { 2 };
            let inner = (
                width.saturating_sub(border).max(1),
                height.saturating_sub(border).max(1),
            );
            let popup = Popup {
                pane: fugue_protocol::PaneId(0),
                x: c.x.place(width, area.width),
                y: c.y.place(height, area.height),
                width,
                height,
                title: c.title.clone().unwrap_or_default(),
                border: !c.no_border,
                close_on_exit: c.close_on_exit,
                exited: false,
            };
            // tmux starts it in the active pane's directory unless -d says.
            let cwd = tree.panes.get(&active).and_then(|p| p.current_cwd());
            let launch = prepare_pane(exec, tree, (Some(sid), wid), &c.spawn, inner, cwd)?;
            Ok(((sid, popup), launch))
        },
        |_, tree, (sid, mut popup), pane| {
            if tree.session(sid).is_none() {
                return Err(CommandError::new(
                    ErrorCode::UnknownTarget,
                    "the session closed while the popup's program started",
                ));
            }
            popup.pane = pane;
            tree.popups.insert(sid, popup);
            Ok(())
        },
    )?;
    server.mux.changed();
    Ok(Response::Done)
}

/// Takes the session's popup away; its pane, for the caller to end.
pub fn close(
    tree: &mut crate::session::tree::Tree,
    sid: fugue_protocol::SessionId,
) -> Option<crate::session::tree::Pane> {
    let popup = tree.popups.remove(&sid)?;
    tree.panes.remove(&popup.pane)
}
