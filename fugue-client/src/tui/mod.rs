//! The terminal client: attaches to a session and draws what the server sends.
//!
//! - [`state`]: the client's copy of the screens and its modes.
//! - [`input`]: keys to commands (prefix, bindings, prompts, scrolling).
//! - [`render`]: drawing with ratatui.
//! - [`keymap`]: crossterm keys to fugue keys.

mod input;
mod keymap;
mod render;
mod state;

use crate::autostart::{self, ServerAddr};
use crate::cli::report;
use crate::connection::Connection;
use anyhow::Context;
use fugue_protocol::message::{ClientKind, ServerMessage};
use fugue_protocol::{Command, Response, Target};
use futures::FutureExt;
use input::Request;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableBracketedPaste, EnableBracketedPaste, Event};
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};
use state::{App, Mode, Pending};
use std::io::{Stdout, stdout};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Puts the terminal back however the client ends.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> anyhow::Result<TerminalGuard> {
        enable_raw_mode().context("cannot put the terminal in raw mode (is this a terminal?)")?;
        // Clear explicitly: ratatui's clear() asks the terminal for the cursor position,
        // which would race the input thread for the terminal's answer.
        execute!(
            stdout(),
            EnterAlternateScreen,
            EnableBracketedPaste,
            Clear(ClearType::All)
        )?;
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            hook(info);
        }));
        Ok(TerminalGuard)
    }
}

fn restore() {
    let _ = execute!(
        stdout(),
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

/// Attaches a terminal client; returns the process exit code.
pub async fn attach(
    addr: &ServerAddr,
    target: Option<Target>,
    create: bool,
) -> anyhow::Result<i32> {
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
    let (cols, rows) =
        ratatui::crossterm::terminal::size().context("cannot read the terminal size")?;
    conn.outgoing.resize(cols, rows).await?;
    let id = conn
        .outgoing
        .request(Command::AttachSession { target, create })
        .await?;
    // Frames may arrive before the answer; keep them for after.
    let mut early = Vec::new();
    let info = loop {
        match conn.incoming.next().await? {
            Some(ServerMessage::Response { id: got, result }) if got == id => match result {
                Ok(Response::Attached(info)) => break info,
                Ok(other) => anyhow::bail!("unexpected answer to attach: {other:?}"),
                Err(e) => return Ok(report(&e)),
            },
            Some(ServerMessage::Frame(f)) => early.push(f),
            Some(_) => {}
            None => anyhow::bail!("the server closed the connection"),
        }
    };
    let mut app = App::new(info.keys, info.status, info.session_name);
    for f in early {
        app.apply(f);
    }
    let guard = TerminalGuard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    let reason = run(&mut terminal, &mut conn, &mut app).await;
    drop(terminal);
    drop(guard);
    match reason {
        Ok(reason) => {
            println!("[{reason}]");
            Ok(0)
        }
        Err(e) => Err(e),
    }
}

/// Reads terminal events on a thread (crossterm reads block) and forwards them.
fn spawn_input() -> mpsc::Receiver<Event> {
    let (tx, rx) = mpsc::channel(256);
    std::thread::Builder::new()
        .name("tui-input".into())
        .spawn(move || {
            while let Ok(ev) = event::read() {
                if tx.blocking_send(ev).is_err() {
                    return;
                }
            }
        })
        .ok();
    rx
}

async fn send(conn: &mut Connection, app: &mut App, requests: Vec<Request>) -> anyhow::Result<()> {
    for r in requests {
        let id = conn.outgoing.request(r.command).await?;
        app.pending.insert(id, r.pending);
    }
    Ok(())
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

/// How long the client applies messages that are already waiting before it draws
/// again.
const CATCH_UP: Duration = Duration::from_millis(50);

/// The client's loop; returns why it ended.
async fn run(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    conn: &mut Connection,
    app: &mut App,
) -> anyhow::Result<String> {
    let mut events = spawn_input();
    loop {
        terminal.draw(|f| render::draw(f, app))?;
        let step = tokio::select! {
            ev = events.recv() => on_event(terminal, conn, app, ev).await?,
            msg = conn.incoming.next() => on_message(conn, app, msg?).await?,
            _ = sleep_until(app.notice.as_ref().map(|(_, t)| *t)) => {
                app.notice = None;
                None
            }
        };
        if let Some(reason) = step {
            return Ok(reason);
        }
        // Apply everything already waiting before drawing again: a client that fell
        // behind (it was stopped, or its terminal is slow) catches up in one draw rather
        // than one per message, and keys typed meanwhile (a detach) are seen at once.
        let until = Instant::now() + CATCH_UP;
        while Instant::now() < until {
            let step = if let Ok(ev) = events.try_recv() {
                on_event(terminal, conn, app, Some(ev)).await?
            } else if let Some(msg) = conn.incoming.next().now_or_never() {
                on_message(conn, app, msg?).await?
            } else {
                break;
            };
            if let Some(reason) = step {
                return Ok(reason);
            }
        }
    }
}

/// A terminal event; Some(reason) when the client should end.
async fn on_event(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    conn: &mut Connection,
    app: &mut App,
    ev: Option<Event>,
) -> anyhow::Result<Option<String>> {
    let Some(ev) = ev else {
        return Ok(Some("detached".into()));
    };
    let requests = match ev {
        Event::Key(k) => keymap::to_key(&k)
            .map(|k| app.on_key(k))
            .unwrap_or_default(),
        Event::Paste(text) => app.on_paste(text),
        Event::Resize(c, r) => {
            conn.outgoing.resize(c, r).await?;
            terminal.autoresize()?;
            Vec::new()
        }
        _ => Vec::new(),
    };
    send(conn, app, requests).await?;
    Ok(None)
}

/// A message from the server; Some(reason) when the client should end.
async fn on_message(
    conn: &mut Connection,
    app: &mut App,
    msg: Option<ServerMessage>,
) -> anyhow::Result<Option<String>> {
    match msg {
        None => return Ok(Some("lost server".into())),
        Some(ServerMessage::Frame(f)) => app.apply(f),
        Some(ServerMessage::Notice(text)) => app.notice(text),
        Some(ServerMessage::Detached { reason }) => {
            return Ok(Some(if reason == "detached" {
                format!("detached (from session {})", app.session_name)
            } else {
                reason
            }));
        }
        Some(ServerMessage::Response { id, result }) => {
            let pending = app.pending.remove(&id);
            let follow = on_response(app, pending, result);
            send(conn, app, follow).await?;
        }
    }
    Ok(None)
}

fn on_response(
    app: &mut App,
    pending: Option<Pending>,
    result: Result<Response, fugue_protocol::CommandError>,
) -> Vec<Request> {
    match (pending, result) {
        (Some(Pending::Rows(pane)), Ok(Response::Rows(rows))) => {
            if let Mode::Scroll(s) = &mut app.mode
                && s.pane == pane
            {
                s.history = Some(rows.history);
                // The server clamps the start to the history it has.
                s.offset = rows.start.min(0).unsigned_abs();
                s.rows = rows.rows;
            }
            Vec::new()
        }
        (Some(Pending::NewSession), Ok(Response::Created(c))) => vec![Request {
            command: Command::AttachSession {
                target: Some(Target::SessionId(c.session)),
                create: false,
            },
            pending: Pending::Action("attach"),
        }],
        (_, Ok(Response::Attached(info))) => {
            app.session_name = info.session_name;
            Vec::new()
        }
        (Some(p), Err(e)) => {
            let what = match p {
                Pending::Action(w) => w,
                Pending::NewSession => "new-session",
                Pending::Rows(_) => "scroll",
            };
            if let (Pending::Rows(_), Mode::Scroll(_)) = (&p, &app.mode) {
                app.mode = Mode::Normal;
            }
            app.notice(format!("{what}: {}", e.display_with_suggestion()));
            Vec::new()
        }
        _ => Vec::new(),
    }
}
