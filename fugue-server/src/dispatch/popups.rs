//! `display-popup`: a pane of its own (its PTY and screen on the server, like any
//! pane) floating over a session's window, in no layout, so `list-panes` does not
//! show it (tmux lists no popup either). Attached clients draw it over the panes and
//! give it the keyboard while it is open. And `confirm-before` / `display-menu` from
//! the CLI: the person at the session's clients answers, so the command line goes to
//! them.

use super::Exec;
use super::spawn::{prepare_pane, with_new_pane};
use crate::attached::Control;
use crate::client_prompt::ClientPrompt;
use crate::session::tree::Popup;
use fugue_protocol::popup::{ClientCommandLine, DisplayPopup, MAX_CLIENT_LINE, PopupSize};
use fugue_protocol::{CommandError, ErrorCode, Response, SessionId};

/// The smallest popup, border included: a border and one cell inside.
const MIN_SIDE: u16 = 3;

/// `confirm-before`, `command-prompt`, `display-menu` and the choosers from the
/// CLI: handed to the client `-t` names, else to the clients attached to the target
/// session, which ask their person. A control client has no screen to ask on: its
/// question waits on the server for `send-keys -K` (`client_keys.rs`).
pub fn client_line(exec: &mut Exec<'_>, c: ClientCommandLine) -> Result<Response, CommandError> {
    let size: usize = c.argv.iter().map(String::len).sum();
    if size > MAX_CLIENT_LINE {
        return Err(CommandError::invalid_argument(
            "argv",
            format!("longer than {MAX_CLIENT_LINE} bytes"),
        ));
    }
    if let Some(name) = &c.client
        && let Some(id) = super::clients::find_client(exec, Some(name))
    {
        return one_client(exec, id, c.argv);
    }
    if c.target.is_none()
        && let Some(name) = &c.client
    {
        return Err(CommandError::new(
            ErrorCode::UnknownTarget,
            format!("can't find client: {name}"),
        )
        .with_suggestion("`list-clients -F '#{client_name}'` lists them"));
    }
    if c.argv.first().is_some_and(|a| a == "copy-mode") && c.argv.iter().any(|a| a == "-q") {
        // `copy-mode -q` leaves whatever mode the pane is in: one the server keeps
        // for a client, and the clients' own (below).
        let mut tree = exec.server.mux.tree();
        if let Ok(pane) = tree.resolve_pane(c.target.as_ref(), &exec.ctx) {
            super::held_modes::release(&mut tree, pane);
        }
    }
    let sid = {
        let tree = exec.server.mux.tree();
        let sid = tree.resolve_session(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = tree.session(sid).map(|s| s.name.clone());
        sid
    };
    let (attached, control) = {
        let clients = exec.server.mux.attached.lock();
        let terminal = clients
            .values()
            .any(|e| e.session == Some(sid) && !e.control_mode);
        // The latest active control client, tmux's current client when no terminal
        // client is there.
        let control = clients
            .iter()
            .filter(|(_, e)| e.session == Some(sid) && e.control_mode)
            .max_by_key(|(_, e)| e.active_at)
            .map(|(id, _)| *id);
        (terminal, control)
    };
    if !attached && let Some(id) = control {
        match c.argv.first().map(String::as_str) {
            // Numbers over panes a control client never draws: done, as in tmux.
            Some("display-panes" | "displayp") => return Ok(Response::Done),
            // A question waits on the server for send-keys -K, as with -t CLIENT.
            Some("confirm-before" | "confirm" | "command-prompt") => {
                return one_client(exec, id, c.argv);
            }
            _ => {}
        }
    }
    if !attached
        && c.argv.first().is_some_and(|a| a == "choose-client")
        && !exec
            .server
            .mux
            .attached
            .lock()
            .values()
            .any(|e| e.session.is_some() && !e.control_mode)
    {
        // No client to choose from: nothing to show, as tmux's.
        return Ok(Response::Done);
    }
    if !attached
        && fugue_verbs::pane_modes::mode_name(&c.argv).is_some()
        && let Some(shown) = shown_through_link(exec, &c)
    {
        // The target's session has no terminal client, but another session holding
        // the pane's window has: the mode is the pane's, so whoever shows it sees it.
        let (sessions, argv) = shown;
        for sid in sessions {
            exec.server
                .mux
                .attached
                .tell(Some(sid), Control::Run(argv.clone()));
        }
        return Ok(Response::Done);
    }
    if !attached && let Some(mode) = fugue_verbs::pane_modes::mode_name(&c.argv) {
        // No client shows the pane: it keeps the mode for the next one, as a tmux
        // pane is in its mode whoever looks.
        let mut tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        if c.argv.first().is_some_and(|a| a == "copy-mode") && c.argv.iter().any(|a| a == "-q") {
            // Left above: nothing to keep.
            return Ok(Response::Done);
        }
        super::held_modes::hold(&mut tree, pane, c.argv);
        drop(tree);
        exec.server
            .log_message(&format!("{pane} holds {mode} for the next client"));
        exec.server.mux.changed();
        return Ok(Response::Done);
    }
    if !attached {
        // A control client (tmux -C) draws nothing: it cannot show a chooser.
        return Err(CommandError::new(
            ErrorCode::InvalidArgument,
            "no terminal client is attached to the session to ask (tmux: no current client)",
        )
        .with_suggestion("name a control client with -t to ask it (send-keys -K answers)"));
    }
    exec.server
        .mux
        .attached
        .tell(Some(sid), Control::Run(c.argv));
    Ok(Response::Done)
}

/// For a pane mode whose target session shows on no terminal client: the other
/// sessions whose current window is the pane's and that a terminal client shows,
/// and the line naming the pane by id (the target names it through a session those
/// clients do not show).
fn shown_through_link(
    exec: &mut Exec<'_>,
    c: &ClientCommandLine,
) -> Option<(Vec<SessionId>, Vec<String>)> {
    let (pane, holders) = {
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx).ok()?;
        let window = tree.panes.get(&pane)?.window;
        // Only where the window is the current one: a client elsewhere does not show
        // the pane, and the pane keeps the mode for whoever comes to it.
        let holders: Vec<SessionId> = tree
            .sessions_of_window(window)
            .filter(|s| s.active == window)
            .map(|s| s.id)
            .collect();
        (pane, holders)
    };
    let shown: Vec<SessionId> = {
        let clients = exec.server.mux.attached.lock();
        holders
            .into_iter()
            .filter(|sid| {
                clients
                    .values()
                    .any(|e| e.session == Some(*sid) && !e.control_mode)
            })
            .collect()
    };
    if shown.is_empty() {
        return None;
    }
    exec.resolved = Some(pane.to_string());
    Some((shown, super::held_modes::for_client(&c.argv, pane)))
}

/// The command line for one client: a terminal client asks its person; a control
/// client's question waits for `send-keys -K`.
fn one_client(exec: &mut Exec<'_>, id: u64, argv: Vec<String>) -> Result<Response, CommandError> {
    let control = {
        let clients = exec.server.mux.attached.lock();
        match clients.get(&id) {
            Some(e) if !e.control_mode => {
                e.control.post(Control::Run(argv));
                return Ok(Response::Done);
            }
            Some(_) => true,
            None => false,
        }
    };
    if !control {
        return Err(CommandError::unknown_target("the client went away"));
    }
    let prompt = control_prompt(&argv).map_err(|e| CommandError::invalid_argument("argv", e))?;
    super::client_keys::ask(exec, id, prompt);
    Ok(Response::Done)
}

/// A question a control client can be asked: `confirm-before` or `command-prompt`.
fn control_prompt(argv: &[String]) -> Result<ClientPrompt, String> {
    use fugue_protocol::keys::Key;
    use fugue_protocol::tmux_cmd::{self, NoEnv};
    let (name, verb) = fugue_verbs::line::parse_argv(argv)?;
    let no_screen = || format!("{name}: a control client has no screen to show it on");
    let fugue_verbs::Verb::Declared(d) = verb else {
        return Err(no_screen());
    };
    match &d.0 {
        fugue_protocol::Command::ConfirmBefore(_) => {
            let fugue_protocol::flags::ConfirmBefore {
                yes,
                confirm_key,
                command,
                ..
            } = d.flags()?;
            let commands = match command.as_slice() {
                [one] => tmux_cmd::parse(one, &NoEnv),
                words => tmux_cmd::split_sequence(words, &NoEnv),
            }
            .map_err(|e| e.to_string())?;
            let key = confirm_key.unwrap_or_else(|| "y".into());
            let confirm = Key::parse(&key).ok_or_else(|| format!("unknown key: {key}"))?;
            Ok(ClientPrompt::Confirm {
                commands,
                confirm,
                default_yes: yes,
            })
        }
        fugue_protocol::Command::CommandPrompt(_) => {
            let a: fugue_protocol::flags::CommandPrompt = d.flags()?;
            Ok(ClientPrompt::input(fugue_verbs::command_prompt::spec(&a)?))
        }
        _ => Err(no_screen()),
    }
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
            let w = tree
                .window(s.active)
                .ok_or_else(|| CommandError::internal("the session has no window"))?;
            let area = w.shown_area(s.area());
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

// ConfirmBefore, CommandPrompt, DisplayMenu, DisplayPanes, SwitchClient, ChooseTree, CopyMode, ChooseBuffer, ClockMode, CustomizeMode, ChooseClient, FindWindow: one handler for their shared arguments.
super::handler!(fugue_protocol::popup::ClientCommandLine, |exec, c| {
    client_line(exec, c)
});
super::handler!(fugue_protocol::popup::DisplayPopup, |exec, c| {
    display_popup(exec, c).await
});
