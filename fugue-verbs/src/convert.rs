//! A verb's Command: the flags clap parsed, checked and turned into the protocol's
//! types. Nothing here talks to a server or prints.

use crate::Caller;
use crate::args::Verb;
use crate::convert_args::*;
use crate::printer::Printer;
use anyhow::bail;
use fugue_protocol::cmd;
use fugue_protocol::{
    Command, Direction, NewSession, NewWindow, PaneScope, Resize, SendInput, SplitPane,
};

/// The Command for a verb, and how its answer is shown.
/// What `-P` prints without `-F`, as tmux: the new pane as `session:window.pane`.
/// What `display-message` shows with no message and no -F (tmux's template).
const DISPLAY_TEMPLATE: &str = "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index} - (%H:%M %d-%b-%y)";

const PANE_TEMPLATE: &str = "#{session_name}:#{window_index}.#{pane_index}";

pub fn command_for(verb: Verb, caller: &Caller) -> Result<crate::Converted, crate::VerbError> {
    Ok(convert(verb, caller)?)
}

/// The most `fugue sideband -` reads from standard input (the server refuses tags
/// over `[sideband] max_tag_bytes`, 64 KiB by default).
const STDIN_TAGS_MAX: u64 = 1 << 20;

/// How a declared command's answer prints: as its text, but for the flags that are the
/// printer's and not the command's (`list-clients -F -f`).
fn declared_printer(d: &crate::declared::Declared) -> anyhow::Result<Printer> {
    Ok(match d.0 {
        Command::ListClients(_) => {
            let f: fugue_protocol::flags::ListClients = d.flags().map_err(anyhow::Error::msg)?;
            Printer::Clients {
                format: f
                    .format
                    .unwrap_or_else(|| fugue_protocol::format::defaults::LIST_CLIENTS.to_string()),
                filter: f.filter,
            }
        }
        _ => Printer::Answer,
    })
}

/// `fugue sideband -` takes its tags from standard input: some agents refuse command
/// substitution in the commands they run (Gemini CLI blocks `$(...)`), and a pipe from
/// `printf '...key="%s"...' "$FUGUE_SIDEBAND_KEY"` needs none.
fn stdin_tags(command: Command, caller: &Caller) -> anyhow::Result<Command> {
    match command {
        Command::SidebandTags(mut c) if c.text == "-" => {
            let bytes = caller.read("-".as_ref(), STDIN_TAGS_MAX + 1)?;
            if bytes.len() as u64 > STDIN_TAGS_MAX {
                bail!("the tags on standard input are over {STDIN_TAGS_MAX} bytes");
            }
            c.text = String::from_utf8_lossy(&bytes).into_owned();
            Ok(Command::SidebandTags(c))
        }
        other => Ok(other),
    }
}

fn convert(verb: Verb, caller: &Caller) -> anyhow::Result<crate::Converted> {
    Ok(match verb {
        Verb::NewSession {
            name,
            window_name,
            detached,
            attach_existing,
            detach_others: _,
            exit_others: _,
            client_flags: _,
            width,
            height,
            print,
            format,
            no_update_env,
            group,
            spawn: s,
        } => {
            let size = match (width, height) {
                (None, None) => None,
                (w, h) => Some((w.unwrap_or(80), h.unwrap_or(24))),
            };
            (
                Command::NewSession(NewSession {
                    name,
                    window_name,
                    size,
                    spawn: spawn(s, true, caller)?,
                    existing: attach_existing,
                    client_env: caller.env.clone().filter(|_| !no_update_env),
                    group: target(group)?,
                }),
                Printer::Created {
                    print,
                    // tmux's NEW_SESSION_TEMPLATE.
                    format: format.or_else(|| Some("#{session_name}:".to_string())),
                    attach: !detached,
                },
            )
        }
        Verb::AttachSession { .. }
        | Verb::Mcp { .. }
        | Verb::ResetTerminal
        | Verb::InstallTmuxShim { .. }
        | Verb::Setup(_)
        | Verb::Completions { .. }
        | Verb::Man { .. }
        | Verb::ListCommands { .. }
        | Verb::SourceFile { .. }
        | Verb::RunShell { .. }
        | Verb::IfShell { .. } => {
            bail!("handled before command_for")
        }
        Verb::Agent { verb } => {
            let (command, p) = crate::agent::command_for(verb)?;
            (command, Printer::Agent(p))
        }
        Verb::Option(v) => {
            let (command, p) = crate::options::command_for(v)?;
            (command, Printer::Options(p))
        }
        Verb::Manage(v) => crate::manage::command_for(v, caller)?,
        Verb::Declared(d) => {
            let printer = declared_printer(&d)?;
            (stdin_tags(d.0, caller)?, printer)
        }
        Verb::Admin(v) => crate::admin::command_for(v)?,
        Verb::Hook(v) => {
            let command = crate::hooks::command_for(v)?;
            let printer = match &command {
                Command::ShowHooks(_) => {
                    Printer::Options(crate::OptionPrinter::Lines { value_only: false })
                }
                _ => Printer::Nothing,
            };
            (command, printer)
        }
        Verb::Restore(a) => {
            let (command, p) = crate::restore::command_for(a)?;
            (command, Printer::Restore(p))
        }
        Verb::Buffer(v) => {
            let (command, p) = crate::buffers::command_for(v, caller)?;
            (command, Printer::Buffers(p))
        }
        Verb::Report(r) => {
            let (command, p) = crate::agent::report_command(r, caller)?;
            (command, Printer::Agent(p))
        }
        Verb::ListSessions {
            format,
            filter,
            json,
        } => {
            let format = format
                .unwrap_or_else(|| fugue_protocol::format::defaults::LIST_SESSIONS.to_string());
            (
                Command::ListSessions,
                Printer::Sessions {
                    format,
                    filter,
                    json,
                },
            )
        }
        Verb::DisplayMessage {
            target: t,
            print,
            delay,
            message,
            format,
            all,
            literal,
            verbose,
            ..
        } => {
            use fugue_protocol::format::FormatMode;
            let text = match (format, message) {
                (Some(_), Some(_)) => bail!("only one of -F or argument must be given"),
                (Some(f), None) | (None, Some(f)) => f,
                (None, None) => DISPLAY_TEMPLATE.to_string(),
            };
            let mode = match (all, literal, verbose) {
                (true, _, _) => FormatMode::List,
                (false, true, _) => FormatMode::Literal,
                (false, false, true) => FormatMode::Verbose,
                (false, false, false) => FormatMode::Expand,
            };
            if print || mode == FormatMode::List {
                // The server expands it: it sees every pane of the window and session
                // (`#{window_panes}`, `#{W:...}`) and the options (`#{@user}`). -a
                // prints even without -p, as tmux's does.
                (
                    Command::FormatText(cmd::FormatText {
                        target: target(t)?,
                        text,
                        mode,
                    }),
                    Printer::Captured,
                )
            } else {
                // On the status line, where it is expanded (not through strftime, so
                // an agent's `50% done` stays): -l escapes what the expansion takes,
                // and tmux's template goes without its clock.
                let text = if literal {
                    text.replace('#', "##")
                } else if text == DISPLAY_TEMPLATE {
                    DISPLAY_TEMPLATE
                        .split_once(" - (")
                        .map_or(DISPLAY_TEMPLATE, |(head, _)| head)
                        .to_string()
                } else {
                    text
                };
                (
                    Command::DisplayMessage(cmd::DisplayMessage {
                        target: target(t)?,
                        text,
                        delay_ms: delay,
                    }),
                    Printer::Nothing,
                )
            }
        }
        Verb::DisplayPopup(a) => (a.command(caller)?, Printer::Nothing),
        // Resolving the session is the whole question: an unknown one is an error.
        Verb::HasSession { target: t } => (
            Command::ListPanes(cmd::ListPanes {
                target: target(t)?,
                scope: PaneScope::Session,
                values: Vec::new(),
            }),
            Printer::Quiet,
        ),
        Verb::NewWindow {
            target: t,
            name,
            detached,
            after,
            before,
            kill,
            select_existing,
            print,
            format,
            spawn: s,
        } => (
            Command::NewWindow(NewWindow {
                kill,
                select_existing,
                target: target(t)?,
                name,
                select: !detached,
                spawn: spawn(s, false, caller)?,
                place: match (after, before) {
                    (true, _) => fugue_protocol::WindowPlace::After,
                    (_, true) => fugue_protocol::WindowPlace::Before,
                    _ => fugue_protocol::WindowPlace::Index,
                },
            }),
            Printer::Created {
                print,
                // tmux's NEW_WINDOW_TEMPLATE.
                format: format.or_else(|| Some(PANE_TEMPLATE.to_string())),
                attach: false,
            },
        ),
        Verb::SplitWindow {
            target: t,
            horizontal,
            vertical: _,
            before,
            size,
            percent,
            detached,
            zoom,
            full,
            print,
            format,
            spawn: s,
            help: _,
        } => {
            let direction = match (horizontal, before) {
                (true, false) => Direction::Right,
                (true, true) => Direction::Left,
                (false, false) => Direction::Down,
                (false, true) => Direction::Up,
            };
            (
                Command::SplitPane(SplitPane {
                    target: target(t)?,
                    direction,
                    size: split_size(size, percent)?,
                    select: !detached,
                    zoom,
                    full,
                    spawn: spawn(s, false, caller)?,
                    task: None,
                }),
                Printer::Created {
                    print,
                    // tmux's SPLIT_WINDOW_TEMPLATE.
                    format: format.or_else(|| Some(PANE_TEMPLATE.to_string())),
                    attach: false,
                },
            )
        }
        Verb::ResizePane {
            target: t,
            left,
            right,
            up,
            down,
            zoom,
            width,
            height,
            mouse,
            trim,
            amount,
        } => {
            if trim {
                return Ok((
                    Command::ClearHistory(cmd::ClearHistory {
                        target: target(t)?,
                        hyperlinks: false,
                    }),
                    Printer::Nothing,
                ));
            }
            if mouse {
                // tmux's border drag; fugue's client drags borders itself. The target
                // is still resolved, so a bad one is an error as in tmux.
                return Ok((
                    Command::ListPanes(cmd::ListPanes {
                        target: target(t)?,
                        scope: PaneScope::Pane,
                        values: Vec::new(),
                    }),
                    Printer::Nothing,
                ));
            }
            let resize = match (zoom, direction(left, right, up, down)?) {
                (zoom, dir) if width.is_some() || height.is_some() => {
                    if zoom || dir.is_some() || amount.is_some() {
                        bail!("give either -x/-y or a direction or -Z, not several");
                    }
                    Resize::ToSize {
                        width: resize_size(width, "-x")?,
                        height: resize_size(height, "-y")?,
                    }
                }
                (true, None) => Resize::ZoomToggle,
                (false, Some(d)) => Resize::By(d, amount.unwrap_or(1)),
                (true, Some(_)) => bail!("give either -Z or a direction, not both"),
                (false, None) => bail!("give a direction (-L, -R, -U, -D) or -Z"),
            };
            (
                Command::ResizePane(cmd::ResizePane {
                    target: target(t)?,
                    resize,
                }),
                Printer::Nothing,
            )
        }
        // Another command's verb with its choice made: its flags struct's conversion.
        Verb::NextWindow(f) => declared(f)?,
        Verb::PreviousWindow(f) => declared(f)?,
        Verb::LastWindow(f) => declared(f)?,
        Verb::NextLayout(f) => declared(f)?,
        Verb::PreviousLayout(f) => declared(f)?,
        // Connecting started the server; the command then asks for nothing it prints.
        Verb::StartServer => (Command::ListSessions, Printer::Nothing),
        Verb::SendKeys {
            target: t,
            literal,
            format: _,
            hex,
            reset,
            repeat,
            copy_mode,
            client_keys,
            mouse,
            client,
            print,
            keys,
        } => {
            if client_keys && !mouse {
                // Key names as tmux takes them; the client checks them as it types.
                if literal || hex {
                    bail!("-K presses keys by name: -l and -H do not go with it");
                }
                return Ok((
                    Command::ClientKeys(cmd::ClientKeys { client, keys }),
                    Printer::Nothing,
                ));
            }
            if copy_mode {
                // tmux's: the first word names the command, the rest are its arguments
                // (copy-pipe's command, a search's text).
                if keys.is_empty() {
                    bail!("send-keys -X needs a copy-mode command (cancel, begin-selection, ...)");
                }
                let mut argv = vec!["send-keys".to_string(), "-X".to_string()];
                if let Some(n) = repeat {
                    argv.extend(["-N".to_string(), n.to_string()]);
                }
                argv.extend(keys);
                let line = crate::convert_args::client_line(None, argv)?;
                return Ok((
                    Command::CopyModeCommand(fugue_protocol::cmd::CopyModeCommand {
                        target: target(t)?,
                        client: line.client,
                        argv: line.argv,
                    }),
                    Printer::Nothing,
                ));
            }
            if client_keys || mouse {
                bail!(
                    "-{} acts on an attached client's keys or mouse, which a command line has none of: run the bound command itself",
                    if mouse { 'M' } else { 'K' }
                );
            }
            let parts = send_keys_parts(keys, literal, hex, reset, repeat)?;
            (
                Command::SendInput(SendInput {
                    target: target(t)?,
                    parts,
                }),
                if print {
                    Printer::Json(false)
                } else {
                    Printer::Nothing
                },
            )
        }
        Verb::Observe(v) => crate::observe::command_for(v, caller)?,
        Verb::ListWindows {
            all,
            target: t,
            format,
            filter,
            json,
        } => {
            let scope = if all {
                PaneScope::All
            } else {
                PaneScope::Session
            };
            let format = format.unwrap_or_else(|| {
                let f = if all {
                    fugue_protocol::format::defaults::LIST_WINDOWS_ALL
                } else {
                    fugue_protocol::format::defaults::LIST_WINDOWS
                };
                f.to_string()
            });
            let command = Command::ListPanes(cmd::ListPanes {
                target: target(t)?,
                scope,
                values: fugue_protocol::format::value_names(
                    [&format].into_iter().chain(&filter).map(|s| s.as_str()),
                ),
            });
            (
                command,
                Printer::Windows {
                    format,
                    filter,
                    json,
                    all,
                },
            )
        }
        Verb::ListPanes {
            all,
            session,
            target: t,
            format,
            filter,
            json,
        } => {
            let scope = if all {
                PaneScope::All
            } else if session {
                PaneScope::Session
            } else {
                PaneScope::Window
            };
            let format = format
                .unwrap_or_else(|| fugue_protocol::format::defaults::list_panes(session, all));
            let values = fugue_protocol::format::value_names(
                [&format].into_iter().chain(&filter).map(|s| s.as_str()),
            );
            (
                Command::ListPanes(cmd::ListPanes {
                    target: target(t)?,
                    scope,
                    values,
                }),
                Printer::Panes {
                    format,
                    filter,
                    json,
                },
            )
        }
    })
}

/// A verb whose flags struct is in the table's flags module: its conversion.
fn declared<F>(f: F) -> anyhow::Result<crate::Converted>
where
    Command: TryFrom<F, Error = String>,
{
    Ok((
        Command::try_from(f).map_err(anyhow::Error::msg)?,
        Printer::Nothing,
    ))
}
