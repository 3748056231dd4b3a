//! The terminal client: attaches to a session and draws what the server sends.
//!
//! - [`state`]: the client's copy of the screens and its modes.
//! - [`input`]: keys to commands (prefix, bindings, prompts).
//! - [`copy`]: copy mode (tmux's: motions, selections, search, copies).
//! - [`render`]: drawing with ratatui.
//! - [`terminal_input`]: reading the terminal; [`keymap`]: termina's keys as fugue's.
//! - [`passthrough`]: cursor look, title, bells, clipboard and synchronized output for
//!   the person's terminal.

mod borders;
mod bound;
mod buffers;
mod client_chooser;
mod clock;
mod command_prompt;
mod compositor;
mod copy;
mod customize;
mod customize_draw;
mod customize_keys;
mod display_panes;
mod input;
mod keymap;
mod lock;
mod menu;
mod mode_report;
mod mouse;
mod mouse_actions;
mod mouse_keys;
mod outer;
mod paint;
mod passthrough;
mod popup;
mod prompt;
mod render;
mod restore_prompt;
mod shell_cmds;
mod state;
mod status;
mod status_fmt;
mod status_layout;
mod status_lines;
mod switch;
mod template_prompt;
mod terminal_input;
mod tree;
mod tree_draw;
mod tree_keys;

use crate::autostart::{self, ServerAddr};
use crate::cli::report;
use crate::connection::Connection;
use anyhow::Context;
use compositor::Compositor;
use fugue_protocol::InputPart;
use fugue_protocol::cmd;
use fugue_protocol::message::{ClientKind, ServerMessage};
use fugue_protocol::{Command, ErrorCode, Response, Target};
use input::Request;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use ratatui::crossterm::style::Print;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use state::{App, Mode, Pending, PromptKind};
use std::io::{Stdout, stdout};
use std::time::Instant;
use terminal_input::Input;

/// Puts the terminal back however the client ends.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> anyhow::Result<TerminalGuard> {
        set_up()?;
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            hook(info);
        }));
        Ok(TerminalGuard)
    }
}

/// Raw mode, the alternate screen, bracketed paste, after switching off what a client
/// killed earlier (or any program) may have left on: mouse, focus, keyboard protocols.
/// Also after SIGCONT: the shell may have reset the terminal while the client was
/// stopped.
pub(super) fn set_up() -> anyhow::Result<()> {
    enable_raw_mode().context("cannot put the terminal in raw mode (is this a terminal?)")?;
    // Clear explicitly: ratatui's clear() asks the terminal for the cursor position,
    // which would race the input thread for the terminal's answer.
    execute!(
        stdout(),
        Print(crate::reset::MODES_OFF),
        EnterAlternateScreen,
        EnableBracketedPaste,
        Clear(ClearType::All)
    )?;
    Ok(())
}

pub(super) fn restore() {
    let _ = execute!(
        stdout(),
        Print(crate::reset::MODES_OFF),
        Print(passthrough::restore_sequence()),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Where the session to attach to comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum AttachHow {
    /// It must exist.
    Existing,
    /// Create one when the server has none (plain `fugue`).
    CreateIfNone,
    /// `new-session` just made it: if it is gone, its program exited at once, which is
    /// how the session ended and not an error (tmux prints `[exited]`).
    JustCreated,
}

/// Attaches a terminal client; returns the process exit code.
pub async fn attach(
    addr: &ServerAddr,
    target: Option<Target>,
    how: AttachHow,
) -> anyhow::Result<i32> {
    let create = how == AttachHow::CreateIfNone;
    if std::env::var_os("FUGUE_PANE_ID").is_some()
        && std::env::var_os("FUGUE_SOCKET").is_some_and(|s| std::path::Path::new(&s) == addr.socket)
    {
        eprintln!(
            "fugue: refusing to attach from inside one of this server's own panes (it would draw itself); unset FUGUE_PANE_ID to force"
        );
        return Ok(1);
    }
    let mut conn = if create {
        autostart::connect_or_start(addr, ClientKind::Tui).await?
    } else {
        autostart::connect(addr, ClientKind::Tui).await?
    };
    if create {
        restore_prompt::ask(&mut conn).await?;
    }
    let (cols, rows) =
        ratatui::crossterm::terminal::size().context("cannot read the terminal size")?;
    conn.outgoing.resize(cols, rows).await?;
    let id = conn
        .outgoing
        .request(Command::AttachSession(cmd::AttachSession {
            target,
            create,
            client_env: update_env(),
            tty: own_tty(),
            others: Others::leave(),
        }))
        .await?;
    // Frames may arrive before the answer; keep them for after.
    let mut early = Vec::new();
    // The session may end between the attach and its answer (a program that exits at
    // once): the frame task can then send the detach first, and a client that let it
    // go by waited for ever on a session that is gone.
    let mut detached_early = None;
    // A command line for this client sent with the attach (a mode its pane kept).
    let mut early_runs = Vec::new();
    let info = loop {
        match conn.incoming.next().await? {
            Some(ServerMessage::Response { id: got, result }) if got == id => match result {
                Ok(Response::Attached(info)) => break info,
                Ok(other) => anyhow::bail!("unexpected answer to attach: {other:?}"),
                Err(e) if how == AttachHow::JustCreated && e.code == ErrorCode::UnknownTarget => {
                    println!("[exited]");
                    return Ok(0);
                }
                Err(e) => return Ok(report(&e)),
            },
            Some(ServerMessage::Frame(f)) => early.push(f),
            Some(ServerMessage::Run(argv)) if early_runs.len() < 8 => early_runs.push(argv),
            Some(ServerMessage::Detached { reason, leave }) => {
                detached_early = Some((reason, leave))
            }
            Some(_) => {}
            None => anyhow::bail!("the server closed the connection"),
        }
    };
    if let Some((reason, leave)) = detached_early {
        println!("[{reason}]");
        return leave_as_asked(&leave, 0);
    }
    // Attached, the client must read while it writes (see `Outgoing::queue`).
    conn.outgoing.queue();
    let mut app = App::new(info.keys, info.status, info.session_name);
    app.read_only = READ_ONLY.load(std::sync::atomic::Ordering::Relaxed);
    app.term_size = (cols, rows);
    app.mouse.enabled = info.mouse;
    app.copy_options = info.copy;
    app.option_names = info.option_names;
    app.set_status_options(*info.status_line);
    for f in early {
        app.apply(f);
    }
    if app.layout.is_none() {
        // The mode is opened over its pane once the first frame has shown it.
        app.pending_mode = early_runs.pop();
    } else if !early_runs.is_empty() {
        let requests = app.run_bound(early_runs);
        app.outbox.extend(requests);
    }
    let guard = TerminalGuard::enter()?;
    // Asked once; the answer arrives as input whenever it does (see passthrough.rs).
    execute!(stdout(), Print(passthrough::SYNC_QUERY))?;
    let outer = passthrough::Outer::new(info.titles.clone());
    let mut screen = Compositor::new(CrosstermBackend::new(stdout()), outer)?;
    let reason = run(&mut screen, &mut conn, &mut app).await;
    drop(screen);
    drop(guard);
    match reason {
        Ok(reason) if reason == LOST_SERVER => {
            // tmux exits 1 here too: the session may be gone with the server, and a
            // script (or a shell loop reattaching) must be able to tell.
            println!("[{reason}]");
            eprintln!(
                "fugue: the connection to the server at {} ended without a word; it may have crashed (see its log in {})",
                addr.socket.display(),
                autostart::log_path(addr).display()
            );
            Ok(1)
        }
        Ok(reason) => {
            println!("[{reason}]");
            leave_as_asked(&app.leave, 0)
        }
        Err(e) => Err(e),
    }
}

/// Leaves as the detach asked, once the terminal is given back: `detach-client -P`
/// (and `attach -x` for the others) sends SIGHUP to the client's parent, the shell
/// it runs in, as tmux's client does; `-E` replaces the client with a shell command
/// run by `$SHELL` (or /bin/sh).
fn leave_as_asked(leave: &fugue_protocol::Leave, code: i32) -> anyhow::Result<i32> {
    if leave.hangup_parent {
        // SAFETY: getppid and kill take no pointers; a parent that has gone is
        // init's child now, and kill's error is of no use to a client leaving.
        unsafe {
            libc::kill(libc::getppid(), libc::SIGHUP);
        }
    }
    if let Some(command) = &leave.exec {
        use std::os::unix::process::CommandExt;
        let shell = std::env::var_os("SHELL").unwrap_or_else(|| "/bin/sh".into());
        let err = std::process::Command::new(shell)
            .arg("-c")
            .arg(command)
            .exec();
        anyhow::bail!("cannot run `{command}`: {err}");
    }
    Ok(code)
}

/// Why a client ends when the server closed the connection without detaching it.
const LOST_SERVER: &str = "lost server";

/// Queues requests; [`flush`] sends them once everything ready has been handled.
fn send(app: &mut App, requests: Vec<Request>) {
    app.outbox.extend(requests);
}

/// Keys for a pane sent in one request at most, far below the server's input limit.
const KEYS_PER_REQUEST: usize = 4096;

/// Sends the queued requests in order, keys typed one after another into the same
/// pane as one request: an unbracketed paste of a few MiB is then a few hundred
/// requests (and answers), not one per byte.
async fn flush(conn: &mut Connection, app: &mut App) -> anyhow::Result<()> {
    if let Some(r) = app.mode_report() {
        app.outbox.push(r);
    }
    let keys_only = |r: &Request| match &r.command {
        Command::SendInput(s) => {
            s.target.is_none()
                && matches!(r.pending, Pending::Action("send-keys"))
                && s.parts.iter().all(|p| matches!(p, InputPart::Key(_)))
        }
        _ => false,
    };
    // Each request with whether it is only keys for the active pane.
    let mut merged: Vec<(Request, bool)> = Vec::with_capacity(app.outbox.len());
    for r in app.outbox.drain(..) {
        let keys = keys_only(&r);
        if let Some((last, true)) = merged.last_mut()
            && keys
            && let (Command::SendInput(prev), Command::SendInput(next)) =
                (&mut last.command, &r.command)
            && prev.parts.len() + next.parts.len() <= KEYS_PER_REQUEST
        {
            prev.parts.extend(next.parts.iter().cloned());
            continue;
        }
        merged.push((r, keys));
    }
    for (r, _) in merged {
        if app.read_only && !read_only_allows(&r.command) {
            app.notice("client is read-only");
            continue;
        }
        let id = conn.outgoing.request(r.command).await?;
        app.pending.insert(id, r.pending);
    }
    Ok(())
}

/// What a read-only client (`attach -r`) may send, as tmux's CMD_READONLY: commands
/// that change nothing, and detaching or switching sessions. Keys for panes are
/// `send-keys`, a change, and are dropped with the rest.
fn read_only_allows(command: &Command) -> bool {
    matches!(
        command,
        Command::DetachClient(_)
            | Command::AttachSession(_)
            | Command::SwitchClient(_)
            // The client's own plumbing: its size, focus and the mode it shows.
            | Command::ResizeClient(_)
            | Command::ClientFocus(_)
            | Command::ClientMode(_)
    ) || command.tier() == fugue_protocol::Tier::Read
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

/// Lines a command's output view keeps (more are cut: a view is for reading).
const MAX_VIEW_LINES: usize = 10_000;

/// The longest the client handles ready messages before drawing.
const MAX_DRAW_DELAY: std::time::Duration = std::time::Duration::from_millis(10);

/// What woke the client's loop.
enum Wake {
    Input(Option<Input>),
    Server(anyhow::Result<Option<ServerMessage>>),
    NoticeExpired,
    /// A double or triple click's selection is due to be copied.
    ClickCopyDue,
    /// A bound `DoubleClick` is due: no third press came.
    DoubleClickDue,
    /// display-panes' numbers have shown their time.
    DisplayPanesOver,
    /// A notice from a task off the loop (a failed copy command).
    Notice(String),
    /// Commands decided off the loop (an `if-shell` branch).
    Bound(Vec<Vec<String>>),
    /// The status line's clock is due, or a `#()` command finished: draw it again.
    StatusLine,
    /// `lock-after-time` passed without a key.
    LockDue,
}

/// The client's loop; returns why it ended.
///
/// Everything that is ready is handled before the screen is drawn once: a busy pane's
/// frames and a key's echo arriving together cost one draw, not one each, so typing
/// never waits behind drawing states nobody will see.
async fn run(screen: &mut Screen, conn: &mut Connection, app: &mut App) -> anyhow::Result<String> {
    use futures::FutureExt;
    let mut events = terminal_input::TerminalInput::new().context("cannot watch the terminal")?;
    // Killed or hung up, the client still gives the terminal back (raw mode off, main
    // screen, cursor shown) as tmux's does; the server keeps the session.
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).context("cannot watch SIGTERM")?;
    let mut hup = signal(SignalKind::hangup()).context("cannot watch SIGHUP")?;
    // Stopped (SIGTSTP, as tmux's suspend-client) the client gives the terminal to the
    // shell; continued (SIGCONT, also after a SIGSTOP it could not see) it takes the
    // terminal back and draws everything, since the shell has reset it meanwhile.
    let mut tstp = signal(SignalKind::from_raw(libc::SIGTSTP)).context("cannot watch SIGTSTP")?;
    let mut cont = signal(SignalKind::from_raw(libc::SIGCONT)).context("cannot watch SIGCONT")?;
    app.outer.set_up(Instant::now());
    loop {
        if std::mem::take(&mut app.redraw) {
            screen.redraw_all();
            app.damage_all();
        }
        let mouse = app.mouse.tracking(app.active_input().mouse);
        app.outer.want_mouse(mouse);
        write_outer(app)?;
        // Nothing is drawn before the first layout: a status line over an empty
        // window would be a flash of nothing, and a click on it would find no pane.
        if app.layout.is_some() || !matches!(app.mode, Mode::Normal) {
            screen.draw(app)?;
        }
        let status_tick = app.next_status_tick();
        let lock_due = lock::due(app);
        let mut wake = tokio::select! {
            ev = events.next() => Wake::Input(ev),
            msg = conn.incoming.next() => Wake::Server(msg),
            _ = sleep_until(app.notice.as_ref().and_then(|(_, t)| *t)) => Wake::NoticeExpired,
            _ = sleep_until(app.mouse.copy_at) => Wake::ClickCopyDue,
            _ = sleep_until(app.mouse_keys.double_at) => Wake::DoubleClickDue,
            _ = sleep_until(app.display_panes.as_ref().and_then(|d| d.until)) => Wake::DisplayPanesOver,
            _ = sleep_until(clock::next_tick(app)) => Wake::StatusLine,
            Some(text) = app.notices_in.recv() => Wake::Notice(text),
            Some(commands) = app.bound_in.recv() => Wake::Bound(commands),
            Some(()) = app.status_jobs_in.recv() => Wake::StatusLine,
            _ = sleep_until(lock_due) => Wake::LockDue,
            _ = sleep_until(status_tick) => {
                app.status_tick = None;
                Wake::StatusLine
            }
            _ = term.recv() => return Ok("terminated".into()),
            _ = hup.recv() => return Ok("hung up".into()),
            _ = tstp.recv() => {
                restore();
                // SAFETY: stops this process, as the default SIGTSTP action would have.
                unsafe { libc::raise(libc::SIGSTOP) };
                continue;
            }
            _ = cont.recv() => {
                set_up()?;
                app.outer.set_up(Instant::now());
                resumed(screen, conn, app).await?;
                continue;
            }
        };
        // Drawing is put off for what is ready now, but never for long: a server that
        // always has more must not keep the screen from being drawn.
        let started = Instant::now();
        loop {
            if let Some(reason) = handle(wake, screen, conn, app).await? {
                return Ok(reason);
            }
            if started.elapsed() > MAX_DRAW_DELAY {
                break;
            }
            // Both futures are cancel-safe: nothing is lost when they are not ready.
            wake = if let Some(ev) = events.try_next() {
                Wake::Input(Some(ev))
            } else if let Some(msg) = conn.incoming.next().now_or_never() {
                Wake::Server(msg)
            } else {
                break;
            };
        }
        flush(conn, app).await?;
    }
}

pub(super) type Screen = Compositor<CrosstermBackend<Stdout>>;

/// Writes what the outer terminal's modes need (between frames, never inside one).
fn write_outer(app: &mut App) -> anyhow::Result<()> {
    let mut bytes = app.outer.take();
    bytes.append(&mut app.terminal_out);
    if !bytes.is_empty() {
        use std::io::Write;
        let mut out = stdout().lock();
        out.write_all(&bytes)?;
        out.flush()?;
    }
    Ok(())
}

/// After SIGCONT: the terminal may have changed size while the client was stopped (no
/// SIGWINCH reaches a stopped process's handler in time to matter), and its contents
/// are unknown.
pub(super) async fn resumed(
    screen: &mut Screen,
    conn: &mut Connection,
    app: &mut App,
) -> anyhow::Result<()> {
    if let Ok((c, r)) = ratatui::crossterm::terminal::size() {
        flush(conn, app).await?;
        conn.outgoing.resize(c, r).await?;
        screen.resize(c, r);
    }
    app.redraw = true;
    Ok(())
}

/// Handles one wake-up, recording in `app.damage` what must be drawn again (nothing,
/// for a key passed to a pane or a request acknowledged: drawing then would cost time
/// the key's echo may be waiting for). Returns why the client ends, if it does.
async fn handle(
    wake: Wake,
    screen: &mut Screen,
    conn: &mut Connection,
    app: &mut App,
) -> anyhow::Result<Option<String>> {
    match wake {
        Wake::Input(None) => return Ok(Some("detached".into())),
        Wake::Input(Some(Input::SyncOutput(known))) => screen.outer.sync_answer(known),
        Wake::Input(Some(ev)) => {
            app.last_input = Instant::now();
            // Typing into a pane changes nothing here; its echo comes as a frame.
            let typing = matches!(app.mode, Mode::Normal) && matches!(ev, Input::Key(_));
            let requests = match ev {
                Input::Key(k) => app.on_key(k),
                Input::Paste(text) => app.on_paste(text),
                Input::Resize(c, r) => {
                    // Keys typed before the resize go before it.
                    flush(conn, app).await?;
                    conn.outgoing.resize(c, r).await?;
                    screen.resize(c, r);
                    app.term_size = (c, r);
                    Vec::new()
                }
                Input::FocusIn => app.on_focus(true),
                Input::FocusOut => app.on_focus(false),
                Input::Mouse(m) => app.on_mouse(m, screen.area()),
                Input::Reply(reply) => {
                    app.outer.on_reply(reply, Instant::now());
                    Vec::new()
                }
                Input::SyncOutput(_) => Vec::new(),
                Input::Color { background, rgb } => app.on_terminal_color(background, rgb),
            };
            send(app, requests);
            if !(typing && matches!(app.mode, Mode::Normal)) {
                app.damage_all();
            }
        }
        Wake::Server(msg) => match msg? {
            None => return Ok(Some(LOST_SERVER.into())),
            Some(ServerMessage::Frame(mut f)) => {
                screen.outer.events(std::mem::take(&mut f.outer));
                // Output in the pane copy mode shows: how far it moved on, for `[n/m]`.
                let moved =
                    matches!(&app.mode, Mode::Copy(c) if f.panes.iter().any(|u| u.pane == c.pane));
                // The tree's preview follows the output of the panes it shows.
                let changed: Vec<_> = if matches!(app.mode, Mode::Tree(_)) {
                    f.panes.iter().map(|u| u.pane).collect()
                } else {
                    Vec::new()
                };
                app.apply(f);
                // A mode handed over before this client had the pane.
                if let Some(argv) = app.pending_mode.take() {
                    let requests = app.run_bound(vec![argv]);
                    send(app, requests);
                }
                if !changed.is_empty() {
                    let again = tree::panes_changed(app, &changed);
                    send(app, again);
                }
                if moved {
                    let status = app.copy_status();
                    send(app, status);
                }
            }
            Some(ServerMessage::Notice(text)) => app.notice(text),
            Some(ServerMessage::NoticeFor { text, ms }) => app.notice_for(text, ms),
            // `confirm-before` / `display-menu` sent from the CLI: asked here.
            Some(ServerMessage::Run(argv)) => {
                let requests = app.run_bound(vec![argv]);
                send(app, requests);
                app.damage_all();
            }
            Some(ServerMessage::Redraw) => app.redraw = true,
            Some(ServerMessage::Lock) => lock::lock(screen, conn, app).await?,
            // `send-keys -K`: as if typed here, through the same handling.
            Some(ServerMessage::TypeKeys(keys)) => {
                for key in keys
                    .iter()
                    .filter_map(|k| fugue_protocol::keys::Key::parse(k))
                {
                    let requests = app.on_key(key);
                    send(app, requests);
                }
                app.damage_all();
            }
            // As C-z: the SIGCONT that continues it takes the terminal back.
            Some(ServerMessage::Suspend) => {
                restore();
                // SAFETY: stops this process, as the default SIGTSTP action would have.
                unsafe { libc::raise(libc::SIGSTOP) };
            }
            // Only a control client (`tmux -C`) asks for these.
            Some(ServerMessage::Control(_)) => {}
            Some(ServerMessage::Keys(keys)) => app.keys = keys,
            // `set-option` changed what the client does itself: the mouse (the next
            // loop turns the terminal's reporting on or off), the status bar, keys,
            // copy mode, the title. Everything is drawn again with them.
            Some(ServerMessage::Options(o)) => {
                app.keys = o.keys;
                app.status = o.status;
                app.mouse.enabled = o.mouse;
                app.copy_options = o.copy;
                if !o.option_names.is_empty() {
                    app.option_names = o.option_names;
                }
                app.set_status_options(*o.status_line);
                screen.outer.set_title_format(o.titles);
                app.redraw = true;
            }
            Some(ServerMessage::Detached { reason, leave }) => {
                app.leave = leave;
                return Ok(Some(if reason == "detached" {
                    format!("detached (from session {})", app.session_name)
                } else {
                    reason
                }));
            }
            Some(ServerMessage::Response { id, result }) => {
                let pending = app.pending.remove(&id);
                let quiet = matches!(
                    (&pending, &result),
                    (Some(Pending::Action(_)) | None, Ok(r)) if !matches!(r, Response::Attached(_))
                );
                let follow = on_response(app, pending, result);
                send(app, follow);
                if !quiet {
                    app.damage_all();
                }
            }
        },
        Wake::NoticeExpired => {
            app.notice = None;
            app.damage_all();
        }
        Wake::Notice(text) => app.notice(text),
        Wake::Bound(commands) => {
            let requests = app.run_bound(commands);
            send(app, requests);
            app.damage_all();
        }
        Wake::StatusLine => app.damage_all(),
        Wake::LockDue => lock::lock(screen, conn, app).await?,
        Wake::DisplayPanesOver => {
            app.display_panes = None;
            app.damage_all();
        }
        Wake::DoubleClickDue => {
            let requests = app.double_click_due();
            send(app, requests);
            app.damage_all();
        }
        Wake::ClickCopyDue => {
            let requests = app.copy_due();
            send(app, requests);
            app.damage_all();
        }
    }
    Ok(None)
}

fn on_response(
    app: &mut App,
    pending: Option<Pending>,
    result: Result<Response, fugue_protocol::CommandError>,
) -> Vec<Request> {
    if let Some(Pending::Then(inner, then)) = pending {
        let ok = result.is_ok();
        let mut out = on_response(app, Some(*inner), result);
        if ok {
            out.extend(then);
        }
        return out;
    }
    match (pending, result) {
        (Some(Pending::Copy(pane, fetch)), result) => app.copy_reply(pane, fetch, result),
        (Some(Pending::Tree(fetch)), result) => tree::reply(app, fetch, result),
        (Some(Pending::NewSession), Ok(Response::Created(c))) => vec![Request {
            command: Command::AttachSession(cmd::AttachSession {
                target: Some(Target::SessionId(c.session)),
                create: false,
                client_env: update_env(),
                tty: own_tty(),
                others: None,
            }),
            pending: Pending::Action("attach"),
        }],
        (Some(Pending::SwitchSession(next)), Ok(Response::Sessions(mut list))) => {
            // By name, as tmux orders them; wrapping round at either end.
            list.sort_by(|a, b| a.name.cmp(&b.name));
            let here = list.iter().position(|s| s.name == app.session_name);
            let n = list.len();
            let to = match (here, next) {
                (_, _) if n < 2 => None,
                (Some(i), true) => Some((i + 1) % n),
                (Some(i), false) => Some((i + n - 1) % n),
                (None, _) => Some(0),
            };
            match to.and_then(|i| list.get(i)) {
                Some(s) => vec![Request {
                    command: Command::AttachSession(cmd::AttachSession {
                        target: Some(Target::SessionId(s.id)),
                        create: false,
                        client_env: update_env(),
                        tty: own_tty(),
                        others: None,
                    }),
                    pending: Pending::Action("switch session"),
                }],
                None => {
                    app.notice("no other session".to_string());
                    Vec::new()
                }
            }
        }
        // For the prompt that asked: one already closed has pushed a line the answer
        // may predate.
        (Some(Pending::Action(command_prompt::HISTORY)), Ok(Response::PromptHistory(h))) => {
            if matches!(
                app.mode,
                Mode::Prompt {
                    kind: PromptKind::Command,
                    ..
                }
            ) {
                app.history.replace(h);
            }
            Vec::new()
        }
        (Some(Pending::Output(what, printer)), Ok(resp)) => {
            match fugue_verbs::render::text(&printer, &resp, &[]) {
                Some(Ok(text)) if !text.trim().is_empty() => {
                    app.mode = Mode::View {
                        title: what.clone(),
                        lines: text
                            .lines()
                            .take(MAX_VIEW_LINES)
                            .map(String::from)
                            .collect(),
                        scroll: 0,
                    };
                }
                Some(Err(e)) => app.notice(format!("{what}: {e}")),
                _ => {}
            }
            Vec::new()
        }
        (Some(Pending::Action(buffers::LIST)), Ok(Response::Buffers(list))) => {
            buffers::listed(app, list);
            Vec::new()
        }
        (
            Some(Pending::Action(
                which @ (customize::SERVER
                | customize::SESSION
                | customize::WINDOW
                | customize::PANE),
            )),
            Ok(Response::Options(lines)),
        ) => {
            customize::answered(app, which, lines);
            Vec::new()
        }
        (Some(Pending::Action(client_chooser::LIST)), Ok(Response::Clients(list))) => {
            client_chooser::listed(app, list);
            Vec::new()
        }
        (_, Ok(Response::Attached(info))) => {
            app.set_session_name(info.session_name);
            Vec::new()
        }
        (Some(p), Err(e)) => {
            let what = match &p {
                Pending::Action(w) => w,
                Pending::NewSession => "new-session",
                Pending::Copy(..) => "copy mode",
                Pending::Tree(_) => "choose-tree",
                Pending::SwitchSession(_) => "switch session",
                Pending::Then(..) => "command",
                // A command whose answer would have been shown: named as typed.
                Pending::Output(title, _) => title.as_str(),
            };
            app.notice(format!("{what}: {}", e.display_with_suggestion()));
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// This client's terminal (`/dev/pts/3`), its name in `list-clients` as in tmux: what
/// standard input is (Linux's /proc; None elsewhere, and the client is `client-N`).
pub(crate) fn own_tty() -> Option<String> {
    std::fs::read_link("/proc/self/fd/0")
        .ok()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p.starts_with("/dev/"))
}

/// `attach-session -E`: this client gives the server none of its environment, so
/// the session keeps its own (tmux's update-environment skipped).
pub static NO_UPDATE_ENV: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `attach-session -r` (or `-f read-only`): see [`App::read_only`].
pub static READ_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `attach-session -d` / `-x`, as an [`Others`].
pub static DETACH_OTHERS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// What `attach-session` does to the session's other clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Others {
    Stay = 0,
    /// `-d`: they are detached.
    Detach = 1,
    /// `-x`: detached, and their parent shells get SIGHUP.
    HangUp = 2,
}

impl Others {
    pub fn from_flags(detach: bool, hang_up: bool) -> Others {
        match (detach, hang_up) {
            (_, true) => Others::HangUp,
            (true, false) => Others::Detach,
            (false, false) => Others::Stay,
        }
    }

    /// What the attach asks of the server for them, from [`DETACH_OTHERS`].
    fn leave() -> Option<fugue_protocol::Leave> {
        match DETACH_OTHERS.load(std::sync::atomic::Ordering::Relaxed) {
            1 => Some(fugue_protocol::Leave::default()),
            2 => Some(fugue_protocol::Leave {
                hangup_parent: true,
                exec: None,
            }),
            _ => None,
        }
    }
}

/// The environment sent with an attach for `update-environment`, unless `-E`.
pub(crate) fn update_env() -> Option<Vec<(String, String)>> {
    (!NO_UPDATE_ENV.load(std::sync::atomic::Ordering::Relaxed)).then(fugue_verbs::client_env)
}
