//! The MCP tools: each one builds a [`Command`] for the dispatcher.
//!
//! `tools/list` is generated from [`TOOLS`], and every entry names the command (from the
//! protocol's command table) it runs, so no tool can be advertised without being
//! dispatched, and a tool's visibility follows its command's permission tier.

use super::args::Args;
use fugue_protocol::cmd;
use fugue_protocol::observe::{
    ReadPane, ReadSource, RunCommand, SearchPanes, WaitCondition, WaitFor,
};
use fugue_protocol::{
    Command, CommandError, InputPart, Key, NewSession, NewWindow, PaneScope, SendInput, Spawn,
    SplitPane, SplitSize,
};
use serde_json::{Value, json};

pub struct ToolDef {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The entry of the command table this tool runs.
    pub command: &'static str,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    pub input: fn() -> Value,
    pub build: fn(&Args<'_>) -> Result<Command, CommandError>,
}

pub(super) fn schema(props: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
}

fn spawn(a: &Args<'_>) -> Result<Spawn, CommandError> {
    Ok(Spawn {
        command: a.string("command")?.map(|c| vec![c]).unwrap_or_default(),
        cwd: a.string("cwd")?,
        env: a.env("env")?,
        title: a.string("name")?,
        sideband: a.bool("sideband")?,
        remain: None,
    })
}

fn spawn_props() -> Value {
    json!({
        "command": { "type": "string" },
        "cwd": { "type": "string" },
        "env": { "type": "object" },
        "sideband": { "type": "boolean" }
    })
}

fn merge(mut a: Value, b: Value) -> Value {
    if let (Some(a), Value::Object(b)) = (a.as_object_mut(), b) {
        a.extend(b);
    }
    a
}

/// Every tool: these and the agent tools.
pub fn all() -> impl Iterator<Item = &'static ToolDef> {
    PANE_TOOLS
        .iter()
        .chain(super::agent_tools::AGENT_TOOLS.iter())
        .chain(super::tmux_tool::TMUX_TOOLS.iter())
}

static PANE_TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "list_panes",
        title: "List panes",
        description: "Panes, compact (id, window, title, command, size, active, agent state); detail: true for every field. Filters: session, window, tag, state, parent.",
        command: "list-panes",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "session": { "type": "string" },
                    "window": { "type": "string" },
                    "tag": { "type": "string" },
                    "state": { "type": "string" },
                    "parent": { "type": "string" },
                    "detail": { "type": "boolean" }
                }),
                &[],
            )
        },
        build: |a| {
            Ok(match a.target("session")? {
                Some(t) => Command::ListPanes(cmd::ListPanes {
                    target: Some(t),
                    scope: PaneScope::Session,
                    values: Vec::new(),
                }),
                None => Command::ListPanes(cmd::ListPanes {
                    target: None,
                    scope: PaneScope::All,
                    values: Vec::new(),
                }),
            })
        },
    },
    ToolDef {
        name: "read_pane",
        title: "Read a pane",
        description: "A pane's screen, mode=scrollback, or with `cursor` what came since. Answers a `cursor` for the next read; next_cursor pages through lines it left out (lines_skipped; lines_missed were dropped). `screen` comes when it changed.",
        command: "read-pane",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "pane": { "type": "string" },
                    "mode": { "type": "string", "enum": ["screen", "scrollback"] },
                    "cursor": { "type": "string" },
                    "lines": { "type": "integer", "minimum": 1, "maximum": 2000, "description": "Default 200." },
                    "ansi": { "type": "boolean" },
                    "meta": { "type": "boolean", "description": "Always give `screen`." }
                }),
                &[],
            )
        },
        build: |a| {
            let source = match (a.string("cursor")?, a.string("mode")?.as_deref()) {
                (Some(c), _) => ReadSource::Since(c),
                (None, None | Some("screen")) => ReadSource::Screen,
                (None, Some("scrollback")) => ReadSource::Scrollback,
                (None, Some(m)) => {
                    return Err(CommandError::invalid_argument(
                        "mode",
                        format!("`{m}`: expected screen or scrollback"),
                    ));
                }
            };
            Ok(Command::ReadPane(ReadPane {
                target: a.target("pane")?,
                source,
                lines: a.uint("lines", 1..=2000)?.map(|n| n as u32),
                ansi: a.bool("ansi")?.unwrap_or(false),
            }))
        },
    },
    ToolDef {
        name: "send_input",
        title: "Type into a pane",
        description: "Type `text` (as a paste if enabled), then `keys` (Enter, C-c, Up, M-x...), then Enter if `submit`. Answers the cursor before the input; wait_for text on the pane starts there.",
        command: "send-keys",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "pane": { "type": "string" },
                    "text": { "type": "string" },
                    "keys": { "type": "array", "items": { "type": "string" } },
                    "submit": { "type": "boolean" }
                }),
                &[],
            )
        },
        build: |a| {
            let mut parts = Vec::new();
            if let Some(t) = a.string("text")? {
                parts.push(InputPart::Paste(t));
            }
            parts.extend(a.keys("keys")?.into_iter().map(InputPart::Key));
            if a.bool("submit")?.unwrap_or(false) {
                parts.push(InputPart::Key(Key::new(
                    fugue_protocol::keys::KeyCode::Enter,
                    fugue_protocol::keys::Mods::NONE,
                )));
            }
            if parts.is_empty() {
                return Err(CommandError::invalid_argument("text", "nothing to send")
                    .with_suggestion("give text, keys, or submit: true"));
            }
            Ok(Command::SendInput(SendInput {
                target: a.target("pane")?,
                parts,
            }))
        },
    },
    ToolDef {
        name: "wait_for",
        title: "Wait for a pane",
        description: "Wait (event-driven) for one of: `text` regex per line (anchor ^...$: typed commands echo), after your last send_input or `after_cursor`; `idle_ms`; `exit`; agent `state`. timeout_ms default 30000.",
        command: "wait-for",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "pane": { "type": "string" },
                    "text": { "type": "string" },
                    "after_cursor": { "type": "string" },
                    "idle_ms": { "type": "integer", "minimum": 1 },
                    "exit": { "type": "boolean" },
                    "state": { "type": "string", "enum": ["starting", "busy", "idle", "awaiting_input", "exited"] },
                    "timeout_ms": { "type": "integer", "minimum": 1 }
                }),
                &[],
            )
        },
        build: |a| {
            let condition = match (
                a.string("text")?,
                a.uint("idle_ms", 1..=3_600_000)?,
                a.bool("exit")?.unwrap_or(false),
                super::agent_tools::state_arg(a)?,
            ) {
                (Some(pattern), None, false, None) => WaitCondition::Text {
                    pattern,
                    after: a.string("after_cursor")?,
                },
                (None, Some(ms), false, None) => WaitCondition::Idle { ms },
                (None, None, true, None) => WaitCondition::Exit,
                (None, None, false, Some(s)) => WaitCondition::State(s),
                _ => {
                    return Err(CommandError::invalid_argument(
                        "text",
                        "give exactly one of text, idle_ms, exit: true, state",
                    ));
                }
            };
            Ok(Command::WaitFor(WaitFor {
                target: a.target("pane")?,
                condition,
                timeout_ms: a.millis("timeout_ms")?,
            }))
        },
    },
    ToolDef {
        name: "run_command",
        title: "Run a command",
        description: "Run a shell command to completion: exit status and output tail. In a new pane off yours (closed after unless keep), or typed into `pane`'s shell.",
        command: "run-command",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "command": { "type": "string" },
                    "pane": { "type": "string" },
                    "split_from": { "type": "string" },
                    "cwd": { "type": "string" },
                    "env": { "type": "object" },
                    "timeout_ms": { "type": "integer", "minimum": 1 },
                    "keep": { "type": "boolean" }
                }),
                &["command"],
            )
        },
        build: |a| {
            Ok(Command::RunCommand(RunCommand {
                pane: a.target("pane")?,
                split_from: a.target("split_from")?,
                command: a.required_string("command")?,
                cwd: a.string("cwd")?,
                env: a.env("env")?,
                timeout_ms: a.millis("timeout_ms")?,
                keep: a.bool("keep")?.unwrap_or(false),
            }))
        },
    },
    ToolDef {
        name: "create_pane",
        title: "Split a pane",
        description: "Split a pane to run a command (default: a shell); makes a session if none exists.",
        command: "split-window",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                merge(
                    json!({
                        "target": { "type": "string" },
                        "direction": { "type": "string", "enum": ["right", "left", "down", "up"] },
                        "size_percent": { "type": "integer", "minimum": 1, "maximum": 99 },
                        "name": { "type": "string", "description": "Title." },
                        "focus": { "type": "boolean" },
                        "input": { "type": "string", "description": "Typed, then Enter, once it reads." }
                    }),
                    spawn_props(),
                ),
                &[],
            )
        },
        build: |a| {
            Ok(Command::SplitPane(SplitPane {
                target: a.target("target")?,
                direction: a
                    .direction("direction")?
                    .unwrap_or(fugue_protocol::Direction::Right),
                size: a
                    .uint("size_percent", 1..=99)?
                    .map(|p| SplitSize::Percent(p as u8)),
                select: a.bool("focus")?.unwrap_or(false),
                zoom: false,
                full: false,
                spawn: spawn(a)?,
                task: a.string("input")?.filter(|t| !t.is_empty()),
            }))
        },
    },
    ToolDef {
        name: "create_window",
        title: "Create a window",
        description: "A new window in a session, running a command (default: a shell).",
        command: "new-window",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                merge(
                    json!({
                        "session": { "type": "string" },
                        "name": { "type": "string" },
                        "focus": { "type": "boolean" }
                    }),
                    spawn_props(),
                ),
                &[],
            )
        },
        build: |a| {
            let mut spawn = spawn(a)?;
            let name = spawn.title.take();
            Ok(Command::NewWindow(NewWindow {
                target: a.target("session")?,
                name,
                select: a.bool("focus")?.unwrap_or(false),
                spawn,
                ..Default::default()
            }))
        },
    },
    ToolDef {
        name: "create_session",
        title: "Create a session",
        description: "A new detached session.",
        command: "new-session",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                merge(
                    json!({
                        "name": { "type": "string", "description": "Session name (default: a number)." },
                        "width": { "type": "integer", "minimum": 10, "maximum": 1000 },
                        "height": { "type": "integer", "minimum": 5, "maximum": 1000 }
                    }),
                    spawn_props(),
                ),
                &[],
            )
        },
        build: |a| {
            let mut spawn = spawn(a)?;
            let name = spawn.title.take();
            let size = match (a.uint("width", 10..=1000)?, a.uint("height", 5..=1000)?) {
                (None, None) => None,
                (w, h) => Some((w.unwrap_or(80) as u16, h.unwrap_or(24) as u16)),
            };
            Ok(Command::NewSession(NewSession {
                name,
                window_name: None,
                size,
                spawn,
                existing: false,
                client_env: None,
                group: None,
            }))
        },
    },
    ToolDef {
        name: "close_pane",
        title: "Close a pane",
        description: "Close a pane, ending its program (not your own; by default only panes you made).",
        command: "kill-pane",
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({ "pane": { "type": "string", "description": "Pane: %N." } }),
                &["pane"],
            )
        },
        build: |a| {
            Ok(Command::KillPane(cmd::KillPane {
                target: Some(a.required_target("pane")?),
            }))
        },
    },
    ToolDef {
        name: "kill_session",
        title: "Kill a session",
        description: "End a session and its programs (not your own).",
        command: "kill-session",
        read_only: false,
        destructive: true,
        idempotent: true,
        open_world: false,
        input: || schema(json!({ "session": { "type": "string" } }), &["session"]),
        build: |a| {
            Ok(Command::KillSession(cmd::KillSession {
                target: Some(a.required_target("session")?),
            }))
        },
    },
    ToolDef {
        name: "search_panes",
        title: "Search panes",
        description: "Regex search of panes' screens and history; offset pages.",
        command: "search-panes",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "pattern": { "type": "string" },
                    "panes": { "type": "array", "items": { "type": "string" } },
                    "history": { "type": "boolean", "description": "Default true." },
                    "offset": { "type": "integer", "minimum": 0 },
                    "limit": { "type": "integer", "minimum": 1, "maximum": 500, "description": "Default 50." }
                }),
                &["pattern"],
            )
        },
        build: |a| {
            Ok(Command::SearchPanes(SearchPanes {
                pattern: a.required_string("pattern")?,
                targets: a.targets("panes")?,
                history: a.bool("history")?.unwrap_or(true),
                offset: a.uint("offset", 0..=u64::from(u32::MAX))?.unwrap_or(0) as u32,
                limit: a.uint("limit", 1..=500)?.unwrap_or(50) as u32,
                from_line: None,
                backward: false,
                absolute: false,
            }))
        },
    },
    ToolDef {
        name: "notify",
        title: "Notify the user",
        description: "A status-bar message to a session's viewers.",
        command: "display-message",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                json!({
                    "text": { "type": "string" },
                    "session": { "type": "string" }
                }),
                &["text"],
            )
        },
        build: |a| {
            Ok(Command::DisplayMessage(cmd::DisplayMessage {
                target: a.target("session")?,
                text: a.required_string("text")?,
                delay_ms: None,
            }))
        },
    },
];

pub fn find(name: &str) -> Option<&'static ToolDef> {
    all().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::COMMANDS;

    #[test]
    fn every_tool_runs_a_command_of_the_table() {
        for t in all().filter(|t| t.name != super::super::tmux_tool::NAME) {
            assert!(
                COMMANDS.iter().any(|c| c.name == t.command),
                "{} names unknown command {}",
                t.name,
                t.command
            );
            assert!(
                !(t.read_only && t.destructive),
                "{} cannot be both read-only and destructive",
                t.name
            );
            let schema = (t.input)();
            assert_eq!(schema["type"], "object", "{}", t.name);
        }
        // A short list keeps a model's context small (fugue's is a tenth of
        // libtmux-mcp's): new tools must earn their place. Issue 14 added five for
        // paste buffers (copy a region, list, show, paste, delete); issue 15 two for
        // options (show, set: one read-only, one not); issue 18 one to finish an
        // agent's git worktree (keep, merge, remove). Issue 18 then folded fifteen
        // (buffers, options, renames, focus, layout, resize, close_window) into one
        // `tmux` tool that runs any command MCP is offered as a tmux command line.
        assert!(all().count() <= 20);
    }

    /// Issue 12: the MCP tools are exactly the commands the declaration exposes on MCP,
    /// each under its declared name.
    #[test]
    fn the_tools_are_what_the_command_declaration_says() {
        for spec in COMMANDS {
            match spec.surfaces.mcp {
                fugue_protocol::Exposure::As(tool) => {
                    let t = find(tool).unwrap_or_else(|| {
                        panic!(
                            "{} declares MCP tool {tool}, which does not exist",
                            spec.name
                        )
                    });
                    assert_eq!(t.command, spec.name, "{tool}");
                }
                // Reached through the `tmux` tool; no tool of its own.
                fugue_protocol::Exposure::Tmux => assert!(
                    all().all(|t| t.command != spec.name),
                    "{} is declared as reached through `tmux` but a tool runs it",
                    spec.name
                ),
                fugue_protocol::Exposure::Absent(why) => {
                    assert!(!why.is_empty(), "{}", spec.name);
                    assert!(
                        all().all(|t| t.command != spec.name),
                        "{} is declared absent from MCP but a tool runs it",
                        spec.name
                    );
                }
            }
        }
        for t in all().filter(|t| t.name != super::super::tmux_tool::NAME) {
            let spec = COMMANDS.iter().find(|c| c.name == t.command).unwrap();
            assert_eq!(
                spec.surfaces.mcp.name(),
                Some(t.name),
                "tool {} runs {} but the declaration names another tool",
                t.name,
                t.command
            );
        }
    }

    #[test]
    fn each_tool_builds_the_command_it_names() {
        let samples = json!({
            "list_panes": {}, "read_pane": {}, "send_input": { "text": "x" }, "wait_for": { "exit": true },
            "run_command": { "command": "true" }, "create_pane": {}, "create_window": {}, "create_session": {},
            "close_pane": { "pane": "%1" }, "kill_session": { "session": "s" },
            "search_panes": { "pattern": "x" },
            "notify": { "text": "hi" }, "spawn_agent": { "agent": "claude" },
            "send_message": { "to": "tag:x", "text": "hi" }, "get_result": {},
            "report": { "state": "idle" },
            "finish_worktree": { "pane": "%1", "action": "merge" }
        });
        for t in all().filter(|t| t.name != super::super::tmux_tool::NAME) {
            let args = samples[t.name]
                .as_object()
                .unwrap_or_else(|| panic!("no sample for {}", t.name));
            let schema = (t.input)();
            let cmd = (t.build)(&Args::new(args, &schema).unwrap()).unwrap();
            assert_eq!(cmd.name(), t.command, "{}", t.name);
        }
    }

    #[test]
    fn bad_arguments_name_the_argument() {
        let t = find("read_pane").unwrap();
        let schema = (t.input)();
        let args = json!({ "lines": "many" });
        let err = (t.build)(&Args::new(args.as_object().unwrap(), &schema).unwrap()).unwrap_err();
        assert!(err.message.contains("`lines`"), "{}", err.message);
        // The schema says 1 to 2000; so does the call.
        for lines in [0, 2001] {
            let args = json!({ "lines": lines });
            let err =
                (t.build)(&Args::new(args.as_object().unwrap(), &schema).unwrap()).unwrap_err();
            assert!(err.message.contains("from 1 to 2000"), "{}", err.message);
            assert!(err.suggestion.is_some());
        }
        let args = json!({ "colour": true });
        let err = Args::new(args.as_object().unwrap(), &schema).err().unwrap();
        assert!(err.message.contains("`colour`") && err.suggestion.unwrap().contains("cursor"));
        let t = find("send_input").unwrap();
        let args = json!({ "keys": ["Enter", "Ctrl+C"] });
        let err =
            (t.build)(&Args::new(args.as_object().unwrap(), &(t.input)()).unwrap()).unwrap_err();
        assert!(err.message.contains("Ctrl+C"));
    }
}
