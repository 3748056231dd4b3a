//! Running a verb: build its Command, send it, print the answer.

use super::format;
use super::printer::print;
use crate::autostart::{self, ServerAddr};
use crate::connection::Connection;
use fugue_protocol::cmd;
use fugue_protocol::message::ClientKind;
use fugue_protocol::{CommandError, Response};
use fugue_verbs::{Caller, Printer, Verb, command_for};
use std::io::Write;

/// What a verb asks of the caller after it ran.
pub enum Outcome {
    /// Exit with this code.
    Exit(i32),
    /// Attach a terminal client to the session the verb just created (which may have
    /// ended already, if its program exited at once).
    AttachNew(fugue_protocol::SessionId),
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Set when fugue runs as `tmux`: errors are printed in tmux's words, which name the
/// command's own words (`can't find window: 9` for `-t a:9`), so the words of the
/// command running are kept here.
static TMUX_WORDS: std::sync::Mutex<Option<Vec<String>>> = std::sync::Mutex::new(None);

/// As `tmux`, the words of the command about to run.
pub fn set_tmux_words(argv: Vec<String>) {
    if let Ok(mut w) = TMUX_WORDS.lock() {
        *w = Some(argv);
    }
}

/// Control mode (`tmux -C`) keeps what a command prints, to write it inside the
/// command's `%begin`/`%end` block; None: print to the terminal.
static CAPTURE: std::sync::Mutex<Option<Vec<u8>>> = std::sync::Mutex::new(None);

/// From now on what verbs print (answers and errors) is kept, until [`take_capture`].
pub fn start_capture() {
    if let Ok(mut c) = CAPTURE.lock() {
        *c = Some(Vec::new());
    }
}

/// What was printed since [`start_capture`]; printing goes to the terminal again.
pub fn take_capture() -> Vec<u8> {
    CAPTURE
        .lock()
        .ok()
        .and_then(|mut c| c.take())
        .unwrap_or_default()
}

/// Runs `f` with where a verb's output goes: the capture, or `std` (standard output
/// or standard error, locked).
pub fn with_out<R>(err: bool, f: impl FnOnce(&mut dyn Write) -> R) -> R {
    if let Ok(mut c) = CAPTURE.lock()
        && let Some(buf) = c.as_mut()
    {
        return f(buf);
    }
    if err {
        f(&mut std::io::stderr().lock())
    } else {
        f(&mut std::io::stdout().lock())
    }
}

/// Prints a command error the way every verb does, and returns the exit code. As
/// `tmux`, the first line is tmux's (`can't find session: x`), with no `fugue:`; the
/// suggestion still follows, which tools reading the first line do not mind.
pub fn report(e: &CommandError) -> i32 {
    let tmux = TMUX_WORDS.lock().ok().and_then(|w| w.clone());
    let capturing = CAPTURE.lock().ok().is_some_and(|c| c.is_some());
    with_out(true, |err| {
        if let Some(argv) = tmux {
            let _ = writeln!(err, "{}", crate::tmux_mode::error_words(&argv, e));
        } else {
            let _ = writeln!(err, "fugue: {}", e.message);
        }
        // A control client reads tmux's one line; the suggestion is for people.
        if let Some(s) = e.suggestion.as_ref().filter(|_| !capturing) {
            let _ = writeln!(err, "  {s}");
        }
    });
    1
}

/// Runs a verb against the server at `addr`.
pub async fn run(addr: &ServerAddr, verb: Verb) -> anyhow::Result<Outcome> {
    let starts_server = matches!(
        verb,
        Verb::NewSession { .. } | Verb::Restore(_) | Verb::StartServer
    );
    let (command, printer) = command_for(verb, &Caller::process())?;
    printer.validate()?;
    // A session that is to be attached needs a terminal: refused before it is made, as
    // tmux does, so a script without one does not leave a session behind.
    if matches!(printer, Printer::Created { attach: true, .. })
        && !std::io::IsTerminal::is_terminal(&std::io::stdin())
    {
        anyhow::bail!("open terminal failed: not a terminal (add -d to create it detached)");
    }
    let mut conn: Connection = if starts_server {
        autostart::connect_or_start(addr, ClientKind::Cli).await?
    } else {
        autostart::connect(addr, ClientKind::Cli).await?
    };
    let tmux_hooks = matches!(command, fugue_protocol::Command::ShowHooks(_))
        && TMUX_WORDS.lock().ok().is_some_and(|w| w.is_some());
    let mut result = conn.call(command).await?;
    if let (true, Ok(Response::Options(lines))) = (tmux_hooks, &mut result) {
        // tmux's list, without fugue's own hooks while they are unset.
        lines.retain(|l| {
            l.value.is_some()
                || !fugue_protocol::hooks::FUGUE_OWN_HOOKS
                    .iter()
                    .any(|n| l.name.split('[').next() == Some(*n))
        });
    }
    match result {
        Ok(resp) => {
            let created = match (&printer, &resp) {
                (
                    Printer::Created {
                        print: true,
                        format,
                        ..
                    },
                    Response::Created(c),
                ) => Some(format::created_line(&mut conn, c, format.as_deref()).await?),
                _ => None,
            };
            // A client's line is in its session's scope, a session's in its active
            // pane's: the sessions and panes are asked for only when the format
            // names one of their variables.
            let scoped = |text: &str| {
                ["session_", "window_", "pane_", "#{S", "#{W", "#{P"]
                    .iter()
                    .any(|s| text.contains(s))
            };
            let lines = match (&printer, &resp) {
                (Printer::Clients { format, filter }, Response::Clients(list)) => {
                    let text = format!("{format}{}", filter.as_deref().unwrap_or(""));
                    let (sessions, panes) = if scoped(&text) {
                        (
                            list_sessions(&mut conn).await?,
                            list_panes(&mut conn).await?,
                        )
                    } else {
                        (Vec::new(), Vec::new())
                    };
                    Some(fugue_verbs::render::client_lines(
                        format,
                        filter.as_deref(),
                        list,
                        sessions,
                        panes,
                    ))
                }
                (
                    Printer::Sessions {
                        format,
                        filter,
                        json: false,
                    },
                    Response::Sessions(list),
                ) if [Some(format.as_str()), filter.as_deref()]
                    .into_iter()
                    .flatten()
                    .any(|f| f.contains("window_") || f.contains("pane_")) =>
                {
                    let panes = list_panes(&mut conn).await?;
                    Some(fugue_verbs::render::session_lines_with(
                        format,
                        filter.as_deref(),
                        list,
                        panes,
                    ))
                }
                _ => None,
            };
            if let Some(lines) = lines {
                // Through `with_out`: in control mode the lines belong inside the
                // command's block (they once came out before its `%begin`).
                let written = with_out(false, |out| {
                    lines
                        .iter()
                        .try_for_each(|line| writeln!(out, "{line}"))
                        .and_then(|()| out.flush())
                });
                return match written {
                    Ok(()) => Ok(Outcome::Exit(0)),
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Outcome::Exit(0)),
                    Err(e) => Err(e.into()),
                };
            }
            // Pane and window formats see the sessions' variables too, asked for
            // only when the format names one the pane listing lacks.
            let wants = |f: &str| f.contains("session_") || f.contains("#{S:");
            // A `-f` filter is expanded in the same scope as the format.
            let filter = match &printer {
                Printer::Panes { filter, .. } | Printer::Windows { filter, .. } => {
                    filter.as_deref()
                }
                _ => None,
            };
            let sessions = match (&printer, created.is_some()) {
                (Printer::Pane(f), false)
                | (
                    Printer::Panes {
                        format: f,
                        json: false,
                        ..
                    },
                    false,
                )
                | (
                    Printer::Windows {
                        format: f,
                        json: false,
                        ..
                    },
                    false,
                ) if wants(f) || filter.is_some_and(wants) => {
                    match conn.call(fugue_protocol::Command::ListSessions).await? {
                        Ok(Response::Sessions(s)) => s,
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            };
            let printed = with_out(false, |mut out| {
                let printed = match created {
                    Some(line) => writeln!(out, "{line}").map_err(anyhow::Error::from),
                    None => print(&mut out, &printer, &resp, &sessions),
                };
                printed.and_then(|_| Ok(out.flush()?))
            });
            match printed {
                Ok(()) => {}
                // A reader that stopped reading (`| head`) is not an error.
                Err(e) if is_broken_pipe(&e) => return Ok(Outcome::Exit(0)),
                Err(e) => return Err(e),
            }
            if let Response::Ran(r) = &resp {
                return Ok(Outcome::Exit(r.exit_status.clamp(0, 255)));
            }
            if let Printer::Agent(_) = &printer {
                return Ok(Outcome::Exit(super::agent::exit_code(&resp)));
            }
            if let (Printer::Created { attach: true, .. }, Response::Created(c)) = (&printer, &resp)
            {
                return Ok(Outcome::AttachNew(c.session));
            }
            Ok(Outcome::Exit(0))
        }
        // has-session: quiet for fugue's scripts; as tmux, tmux's one line
        // (`can't find session: x`), which tools show.
        Err(e) if matches!(printer, Printer::Quiet) => {
            if TMUX_WORDS.lock().ok().is_some_and(|w| w.is_some()) {
                report(&e);
            }
            Ok(Outcome::Exit(1))
        }
        Err(e) => Ok(Outcome::Exit(report(&e))),
    }
}

async fn list_sessions(conn: &mut Connection) -> anyhow::Result<Vec<fugue_protocol::SessionInfo>> {
    Ok(
        match conn.call(fugue_protocol::Command::ListSessions).await? {
            Ok(Response::Sessions(s)) => s,
            _ => Vec::new(),
        },
    )
}

async fn list_panes(conn: &mut Connection) -> anyhow::Result<Vec<fugue_protocol::PaneInfo>> {
    let all = fugue_protocol::Command::ListPanes(cmd::ListPanes {
        target: None,
        scope: fugue_protocol::PaneScope::All,
        values: Vec::new(),
    });
    Ok(match conn.call(all).await? {
        Ok(Response::Panes(p)) => p,
        _ => Vec::new(),
    })
}
