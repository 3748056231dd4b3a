//! The `tmux` tool: tmux command lines, run in the server as the CLI runs them.
//!
//! The typed tools cover what agents do all the time (panes, reading, waiting, agents);
//! everything else the CLI can do is one tool away, written as models already know
//! it: `select-layout tiled`, `rename-window -t @2 logs`, `set -g mouse on ; show -g
//! mouse`. Each command of the line goes through the dispatcher on its own, with the
//! caller's policy, scope and audit (`via: "tmux"`), and only if the command
//! declaration offers it to MCP (`mcp: As(..)` or `Tmux`). Answers are the CLI's text
//! (`fugue_verbs::render`), so `display -p '#{pane_id}'` answers `%3`.

use super::args::ToolArgs;
use super::tools::{ToolDef, args};
use crate::dispatch::dispatch_via;
use crate::origin::Origin;
use crate::server::Server;
use fugue_protocol::cmd;
use fugue_protocol::tmux_cmd::{self, NoEnv};
use fugue_protocol::{
    Command, CommandError, ErrorCode, Exposure, PaneScope, Response, SessionInfo, Target,
};
use fugue_verbs::{Caller, Printer};
use serde_json::{Value, json};
use std::sync::Arc;

pub const NAME: &str = "tmux";

/// The longest command line taken, and the most commands in it.
const MAX_LINE: usize = 16 * 1024;
const MAX_COMMANDS: usize = 32;
/// The most text one call answers (a `show-buffer` of a large buffer, a long list):
/// past it the text is cut and says so.
const MAX_OUTPUT: usize = 1 << 20;

pub static TMUX_TOOLS: &[ToolDef] = &[ToolDef {
    name: NAME,
    title: "tmux commands",
    description: "Run tmux command lines (`;` separates commands) for what no other tool does, e.g. select-pane -T, select-window, rename-window, resize-pane, select-layout, swap-pane, break-pane, respawn-pane, set/show-options, buffers (set-buffer, list-buffers, show-buffer, paste-buffer, capture-pane -b), kill-window, display -p '#{pane_id}'.",
    // Not one command: each command of the line is checked on its own.
    command: "",
    read_only: false,
    destructive: true,
    idempotent: false,
    open_world: false,
    args: args::<TmuxArgs>(),
}];

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TmuxArgs {
    pub command: String,
}

impl ToolArgs for TmuxArgs {
    // Never called for this tool (the handler runs its lines, `run`); an error that
    // names the tool and its argument if it ever is (the mcp_args fuzz target calls it).
    fn command(self) -> Result<Command, CommandError> {
        Err(CommandError::invalid_argument(
            "command",
            "the `tmux` tool runs tmux command lines, each as its own command",
        ))
    }
}

fn refused(name: &str, why: impl Into<String>) -> CommandError {
    CommandError::invalid_argument("command", format!("{name}: {}", why.into()))
}

/// The Command and printer of one tmux argv, if MCP may run it.
fn convert(argv: &[String]) -> Result<(Command, Printer), CommandError> {
    let name = argv.first().map(String::as_str).unwrap_or("");
    match name {
        "run-shell" | "run" | "if-shell" | "if" => {
            return Err(
                refused(name, "runs a shell in the server, which agents may not")
                    .with_suggestion("run_command runs it in a pane and answers its output"),
            );
        }
        _ if fugue_verbs::line::client_command(argv) => {
            return Err(refused(name, "runs in a person's terminal client")
                .with_suggestion("the person can run it; notify asks them"));
        }
        _ => {}
    }
    let (name, verb) = fugue_verbs::line::parse_argv(argv).map_err(|e| {
        CommandError::invalid_argument("command", e).with_suggestion(
            "write it as tmux 3.5 does (`list-commands NAME` shows a command's flags); `;` separates commands",
        )
    })?;
    let name = name.to_string();
    let (command, printer) =
        fugue_verbs::command_for(verb, &Caller::server()).map_err(|e| refused(&name, e.0))?;
    match command.spec().surfaces.mcp {
        Exposure::As(_) | Exposure::Tmux => Ok((command, printer)),
        Exposure::Absent(why) => Err(refused(&name, format!("not offered over MCP: {why}"))),
    }
}

/// `list-commands [-F format] [command]`, answered here (it has no Command): `None`
/// for any other command.
fn list_commands(argv: &[String]) -> Result<Option<String>, CommandError> {
    if !matches!(
        argv.first().map(String::as_str),
        Some("list-commands" | "lscm")
    ) {
        return Ok(None);
    }
    // The verb table keeps it off command lines for a running server (it needs
    // none), so its two arguments are read here.
    let (mut format, mut only) = (None, None);
    let mut words = argv.iter().skip(1);
    while let Some(w) = words.next() {
        match w.as_str() {
            "-F" => format = words.next().map(String::as_str),
            f if f.starts_with("-F") => format = f.get(2..),
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(refused("list-commands", format!("unknown flag {f}"))
                    .with_suggestion("list-commands [-F format] [command]"));
            }
            name => only = Some(name),
        }
    }
    let mut text = fugue_verbs::usage::lines(format, only).join("\n");
    text.push('\n');
    Ok(Some(text))
}

/// Every session, for the session variables of pane and window lines.
async fn sessions(server: &Arc<Server>, origin: &Origin) -> Vec<SessionInfo> {
    match dispatch_via(server, origin, Command::ListSessions, Some(NAME)).await {
        Ok(Response::Sessions(s)) => s,
        _ => Vec::new(),
    }
}

/// The answer's text as the CLI prints it; JSON for answers the CLI shows as tables.
async fn render(
    server: &Arc<Server>,
    origin: &Origin,
    printer: &Printer,
    resp: Response,
) -> Result<String, CommandError> {
    // `-P [-F]`: the new pane, read back in the format.
    if let (
        Printer::Created {
            print: true,
            format,
            ..
        },
        Response::Created(c),
    ) = (printer, &resp)
    {
        let Some(format) = format else {
            return Ok(format!("{}\n", c.pane));
        };
        let pane = Command::ListPanes(cmd::ListPanes {
            target: Some(Target::Pane(c.pane)),
            scope: PaneScope::Pane,
            values: Vec::new(),
        });
        let list = match dispatch_via(server, origin, pane, Some(NAME)).await? {
            Response::Panes(list) => list,
            _ => Vec::new(),
        };
        let sessions = sessions(server, origin).await;
        let mut line = fugue_verbs::render::pane_lines(format, &list, &sessions).join("\n");
        line.push('\n');
        return Ok(line);
    }
    let sessions = if fugue_verbs::render::needs_sessions(printer) {
        sessions(server, origin).await
    } else {
        Vec::new()
    };
    match fugue_verbs::render::text(printer, &resp, &sessions) {
        Some(Ok(text)) => Ok(text),
        Some(Err(e)) => Err(CommandError::new(ErrorCode::UnknownTarget, e)),
        None => Ok(match crate::surfaces::answer::to_json(resp) {
            Value::Object(o) if o.get("ok") == Some(&Value::Bool(true)) && o.len() == 1 => {
                String::new()
            }
            v => format!("{v}\n"),
        }),
    }
}

/// Runs a tool call: each command in order, stopping at the first that fails, as tmux
/// does. The answer is `{output}`; an error names the command that failed.
pub async fn run(server: &Arc<Server>, origin: &Origin, line: &str) -> Result<Value, CommandError> {
    run_line(server, origin, line).await.map_err(|mut e| {
        // A command's argument error says what was wrong; the way forward is the
        // command's own flags (the tool's schema only knows `command` is a string).
        if e.suggestion.is_none() && e.code == ErrorCode::InvalidArgument {
            e.suggestion = Some(
                "check the command's flags as tmux 3.5 has them (`list-commands NAME` shows its usage)"
                    .into(),
            );
        }
        e
    })
}

async fn run_line(
    server: &Arc<Server>,
    origin: &Origin,
    line: &str,
) -> Result<Value, CommandError> {
    if line.len() > MAX_LINE {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "the command line is {} bytes; at most {MAX_LINE}",
                line.len()
            ),
        )
        .with_suggestion("split it over several calls"));
    }
    let argvs = tmux_cmd::parse(line, &NoEnv).map_err(|e| {
        CommandError::invalid_argument("command", e.to_string()).with_suggestion(
            "quote arguments as tmux does: 'single', \"double\", or \\ before a character",
        )
    })?;
    if argvs.is_empty() {
        return Err(
            CommandError::invalid_argument("command", "no command given")
                .with_suggestion("e.g. `select-layout tiled` or `show-options -g`"),
        );
    }
    if argvs.len() > MAX_COMMANDS {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "{} commands in one line; at most {MAX_COMMANDS}",
                argvs.len()
            ),
        )
        .with_suggestion("split them over several calls"));
    }
    let mut output = String::new();
    for argv in argvs {
        // `list-commands [NAME]` needs no server: the usage the errors point to.
        if let Some(text) = list_commands(&argv)? {
            output.push_str(&text);
            continue;
        }
        let (command, printer) = convert(&argv)?;
        let quiet = matches!(printer, Printer::Quiet);
        let resp = match dispatch_via(server, origin, command, Some(NAME)).await {
            Ok(r) => r,
            // `has-session`: fails without a message in tmux; here the error says why.
            Err(e) if quiet => return Err(e),
            Err(mut e) => {
                if let Some(name) = argv.first() {
                    e.message = format!("{name}: {}", e.message);
                }
                return Err(e);
            }
        };
        let text = render(server, origin, &printer, resp).await?;
        if output.len().saturating_add(text.len()) > MAX_OUTPUT {
            let mut end = MAX_OUTPUT.saturating_sub(output.len()).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            output.push_str(&text[..end]);
            output.push_str("\n[cut: the answer passed 1 MiB]\n");
            break;
        }
        output.push_str(&text);
    }
    Ok(json!({ "output": output }))
}
