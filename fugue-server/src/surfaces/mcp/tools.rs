//! The MCP tools: each one builds a [`Command`] for the dispatcher.
//!
//! `tools/list` is generated from [`TOOLS`], and every entry names the command (from the
//! protocol's command table) it runs, so no tool can be advertised without being
//! dispatched, and a tool's visibility follows its command's permission tier. A tool's
//! arguments are one struct (`args`): its input schema is generated from it, and a
//! call is deserialized into it.

use super::args::{ToolArgs, target, targets};
use fugue_protocol::cmd;
use fugue_protocol::observe::{
    ReadPane, ReadSource, RunCommand, SearchPanes, WaitCondition, WaitFor,
};
use fugue_protocol::{
    Command, CommandError, Direction, InputPart, Key, NewSession, NewWindow, PaneScope, SendInput,
    Spawn, SplitPane, SplitSize,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

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
    /// The tool's argument struct.
    pub args: Args,
}

/// A tool's argument struct, as the functions its type gives.
pub struct Args {
    /// Its input schema, generated (see [`ToolDef::input`] for the cached one).
    pub schema: fn() -> Value,
    /// Its fields as serde names them.
    pub fields: fn() -> &'static [&'static str],
    /// A call: its arguments checked against the schema, deserialized, made a command.
    pub build: fn(&Map<String, Value>, &Value) -> Result<Command, CommandError>,
}

/// The functions of argument struct `T`.
pub const fn args<T: ToolArgs>() -> Args {
    Args {
        schema: super::args::schema::<T>,
        fields: crate::surfaces::fields::of::<T>,
        build: super::args::build::<T>,
    }
}

/// Every tool's input schema, generated once.
static SCHEMAS: LazyLock<HashMap<&'static str, Value>> =
    LazyLock::new(|| all().map(|t| (t.name, (t.args.schema)())).collect());

impl ToolDef {
    /// The input schema, generated from the argument struct on first use.
    pub fn input(&self) -> &'static Value {
        static NONE: Value = Value::Null;
        // Every tool is in `all()`, so the map has it.
        SCHEMAS.get(self.name).unwrap_or(&NONE)
    }

    /// The command a call with `args` runs.
    pub fn build(&self, args: &Map<String, Value>) -> Result<Command, CommandError> {
        (self.args.build)(args, self.input())
    }
}

/// The arguments that start a program, as `create_pane`, `create_window` and
/// `create_session` take them.
fn spawn(
    command: Option<String>,
    cwd: Option<String>,
    env: Option<BTreeMap<String, String>>,
    title: Option<String>,
    sideband: Option<bool>,
) -> Spawn {
    Spawn {
        command: command.map(|c| vec![c]).unwrap_or_default(),
        cwd,
        env: env.unwrap_or_default().into_iter().collect(),
        title,
        sideband,
        remain: None,
    }
}

/// Every tool: these and the agent tools.
pub fn all() -> impl Iterator<Item = &'static ToolDef> {
    PANE_TOOLS
        .iter()
        .chain(super::agent_tools::AGENT_TOOLS.iter())
        .chain(super::tmux_tool::TMUX_TOOLS.iter())
}

// Fields the command does not take are read off the call by `shape.rs` (filters,
// `detail`, `meta`): declared here so the schema offers them and calls may pass them.

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListPanesArgs {
    session: Option<String>,
    #[allow(dead_code)]
    window: Option<String>,
    #[allow(dead_code)]
    tag: Option<String>,
    #[allow(dead_code)]
    state: Option<String>,
    #[allow(dead_code)]
    parent: Option<String>,
    #[allow(dead_code)]
    detail: Option<bool>,
}

impl ToolArgs for ListPanesArgs {
    fn command(self) -> Result<Command, CommandError> {
        let target = target("session", self.session)?;
        let scope = match target {
            Some(_) => PaneScope::Session,
            None => PaneScope::All,
        };
        Ok(Command::ListPanes(cmd::ListPanes {
            target,
            scope,
            values: Vec::new(),
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum ReadMode {
    Screen,
    Scrollback,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadPaneArgs {
    pane: Option<String>,
    mode: Option<ReadMode>,
    cursor: Option<String>,
    /// Default 200.
    #[schemars(range(min = 1, max = 2000))]
    lines: Option<u32>,
    ansi: Option<bool>,
    /// Always give `screen`.
    #[allow(dead_code)]
    meta: Option<bool>,
}

impl ToolArgs for ReadPaneArgs {
    fn command(self) -> Result<Command, CommandError> {
        let source = match (self.cursor, self.mode) {
            (Some(c), _) => ReadSource::Since(c),
            (None, None | Some(ReadMode::Screen)) => ReadSource::Screen,
            (None, Some(ReadMode::Scrollback)) => ReadSource::Scrollback,
        };
        Ok(Command::ReadPane(ReadPane {
            target: target("pane", self.pane)?,
            source,
            lines: self.lines,
            ansi: self.ansi.unwrap_or(false),
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendInputArgs {
    pane: Option<String>,
    text: Option<String>,
    keys: Option<Vec<String>>,
    submit: Option<bool>,
}

impl ToolArgs for SendInputArgs {
    fn command(self) -> Result<Command, CommandError> {
        let mut parts = Vec::new();
        if let Some(t) = self.text {
            parts.push(InputPart::Paste(t));
        }
        for k in self.keys.unwrap_or_default() {
            let key = Key::parse(&k).ok_or_else(|| {
                CommandError::invalid_argument("keys", format!("`{k}` is not a key name"))
                    .with_suggestion("key names look like Enter, Escape, Tab, C-c, M-x, Up, F5, or a single character; put text in `text`")
            })?;
            parts.push(InputPart::Key(key));
        }
        if self.submit.unwrap_or(false) {
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
            target: target("pane", self.pane)?,
            parts,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitForArgs {
    pane: Option<String>,
    text: Option<String>,
    after_cursor: Option<String>,
    // An hour: longer than any wait the server allows ([waits] max_timeout_ms).
    #[schemars(range(min = 1, max = 3_600_000))]
    idle_ms: Option<u64>,
    exit: Option<bool>,
    state: Option<super::agent_tools::StateArg>,
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
}

impl ToolArgs for WaitForArgs {
    fn command(self) -> Result<Command, CommandError> {
        let condition = match (
            self.text,
            self.idle_ms,
            self.exit.unwrap_or(false),
            self.state,
        ) {
            (Some(pattern), None, false, None) => WaitCondition::Text {
                pattern,
                after: self.after_cursor,
            },
            (None, Some(ms), false, None) => WaitCondition::Idle { ms },
            (None, None, true, None) => WaitCondition::Exit,
            (None, None, false, Some(s)) => WaitCondition::State(s.into()),
            _ => {
                return Err(CommandError::invalid_argument(
                    "text",
                    "give exactly one of text, idle_ms, exit: true, state",
                ));
            }
        };
        Ok(Command::WaitFor(WaitFor {
            target: target("pane", self.pane)?,
            condition,
            timeout_ms: self.timeout_ms,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCommandArgs {
    command: String,
    pane: Option<String>,
    split_from: Option<String>,
    cwd: Option<String>,
    env: Option<BTreeMap<String, String>>,
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
    keep: Option<bool>,
}

impl ToolArgs for RunCommandArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::RunCommand(RunCommand {
            pane: target("pane", self.pane)?,
            split_from: target("split_from", self.split_from)?,
            command: self.command,
            cwd: self.cwd,
            env: self.env.unwrap_or_default().into_iter().collect(),
            timeout_ms: self.timeout_ms,
            keep: self.keep.unwrap_or(false),
        }))
    }
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(super) enum DirectionArg {
    Right,
    Left,
    Down,
    Up,
}

impl From<DirectionArg> for Direction {
    fn from(d: DirectionArg) -> Direction {
        match d {
            DirectionArg::Right => Direction::Right,
            DirectionArg::Left => Direction::Left,
            DirectionArg::Down => Direction::Down,
            DirectionArg::Up => Direction::Up,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePaneArgs {
    target: Option<String>,
    direction: Option<DirectionArg>,
    #[schemars(range(min = 1, max = 99))]
    size_percent: Option<u8>,
    /// Title.
    name: Option<String>,
    focus: Option<bool>,
    /// Typed, then Enter, once it reads.
    input: Option<String>,
    command: Option<String>,
    cwd: Option<String>,
    env: Option<BTreeMap<String, String>>,
    sideband: Option<bool>,
}

impl ToolArgs for CreatePaneArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::SplitPane(SplitPane {
            target: target("target", self.target)?,
            direction: self.direction.map_or(Direction::Right, Direction::from),
            size: self.size_percent.map(SplitSize::Percent),
            select: self.focus.unwrap_or(false),
            zoom: false,
            full: false,
            spawn: spawn(self.command, self.cwd, self.env, self.name, self.sideband),
            task: self.input.filter(|t| !t.is_empty()),
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWindowArgs {
    session: Option<String>,
    name: Option<String>,
    focus: Option<bool>,
    command: Option<String>,
    cwd: Option<String>,
    env: Option<BTreeMap<String, String>>,
    sideband: Option<bool>,
}

impl ToolArgs for CreateWindowArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::NewWindow(NewWindow {
            target: target("session", self.session)?,
            name: self.name,
            select: self.focus.unwrap_or(false),
            spawn: spawn(self.command, self.cwd, self.env, None, self.sideband),
            ..Default::default()
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateSessionArgs {
    /// Session name (default: a number).
    name: Option<String>,
    #[schemars(range(min = 10, max = 1000))]
    width: Option<u16>,
    #[schemars(range(min = 5, max = 1000))]
    height: Option<u16>,
    command: Option<String>,
    cwd: Option<String>,
    env: Option<BTreeMap<String, String>>,
    sideband: Option<bool>,
}

impl ToolArgs for CreateSessionArgs {
    fn command(self) -> Result<Command, CommandError> {
        let size = match (self.width, self.height) {
            (None, None) => None,
            (w, h) => Some((w.unwrap_or(80), h.unwrap_or(24))),
        };
        Ok(Command::NewSession(NewSession {
            name: self.name,
            window_name: None,
            size,
            spawn: spawn(self.command, self.cwd, self.env, None, self.sideband),
            existing: false,
            client_env: None,
            group: None,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClosePaneArgs {
    /// Pane: %N.
    pane: String,
}

impl ToolArgs for ClosePaneArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::KillPane(cmd::KillPane {
            target: target("pane", Some(self.pane))?,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KillSessionArgs {
    session: String,
}

impl ToolArgs for KillSessionArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::KillSession(cmd::KillSession {
            target: target("session", Some(self.session))?,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchPanesArgs {
    pattern: String,
    panes: Option<Vec<String>>,
    /// Default true.
    history: Option<bool>,
    #[schemars(range(min = 0))]
    offset: Option<u32>,
    /// Default 50.
    #[schemars(range(min = 1, max = 500))]
    limit: Option<u32>,
}

impl ToolArgs for SearchPanesArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::SearchPanes(SearchPanes {
            pattern: self.pattern,
            targets: targets("panes", self.panes.unwrap_or_default())?,
            history: self.history.unwrap_or(true),
            offset: self.offset.unwrap_or(0),
            limit: self.limit.unwrap_or(50),
            from_line: None,
            backward: false,
            absolute: false,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyArgs {
    text: String,
    session: Option<String>,
}

impl ToolArgs for NotifyArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::DisplayMessage(cmd::DisplayMessage {
            target: target("session", self.session)?,
            text: self.text,
            delay_ms: None,
        }))
    }
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
        args: args::<ListPanesArgs>(),
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
        args: args::<ReadPaneArgs>(),
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
        args: args::<SendInputArgs>(),
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
        args: args::<WaitForArgs>(),
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
        args: args::<RunCommandArgs>(),
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
        args: args::<CreatePaneArgs>(),
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
        args: args::<CreateWindowArgs>(),
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
        args: args::<CreateSessionArgs>(),
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
        args: args::<ClosePaneArgs>(),
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
        args: args::<KillSessionArgs>(),
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
        args: args::<SearchPanesArgs>(),
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
        args: args::<NotifyArgs>(),
    },
];

pub fn find(name: &str) -> Option<&'static ToolDef> {
    all().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::COMMANDS;
    use serde_json::json;

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
            assert_eq!(t.input()["type"], "object", "{}", t.name);
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
            let cmd = t.build(args).unwrap();
            assert_eq!(cmd.name(), t.command, "{}", t.name);
        }
    }

    #[test]
    fn bad_arguments_name_the_argument() {
        let t = find("read_pane").unwrap();
        let build = |args: Value| t.build(args.as_object().unwrap());
        let err = build(json!({ "lines": "many" })).unwrap_err();
        assert!(err.message.contains("`lines`"), "{}", err.message);
        // The schema says 1 to 2000; so does the call.
        for lines in [0, 2001] {
            let err = build(json!({ "lines": lines })).unwrap_err();
            assert!(err.message.contains("from 1 to 2000"), "{}", err.message);
            assert!(err.suggestion.is_some());
        }
        let err = build(json!({ "colour": true })).unwrap_err();
        assert!(err.message.contains("`colour`") && err.suggestion.unwrap().contains("cursor"));
        let err = build(json!({ "mode": "all" })).unwrap_err();
        assert!(
            err.message.contains("`all`: expected screen or scrollback"),
            "{}",
            err.message
        );
        let t = find("send_input").unwrap();
        let err = t
            .build(json!({ "keys": ["Enter", "Ctrl+C"] }).as_object().unwrap())
            .unwrap_err();
        assert!(err.message.contains("Ctrl+C"));
        let t = find("run_command").unwrap();
        let err = t.build(&Map::new()).unwrap_err();
        assert!(err.message.contains("`command`") && err.message.contains("required"));
        let err = t
            .build(
                json!({ "command": "true", "env": { "A": 1 } })
                    .as_object()
                    .unwrap(),
            )
            .unwrap_err();
        assert!(err.message.contains("`env`"), "{}", err.message);
        let err = t
            .build(
                json!({ "command": "true", "timeout_ms": 0 })
                    .as_object()
                    .unwrap(),
            )
            .unwrap_err();
        assert!(err.suggestion.unwrap().contains("300000"));
    }

    /// Values the schema `p` takes, for the tests: one of each type it allows, the
    /// smallest.
    fn samples(p: &Value) -> Vec<Value> {
        if let Some(choices) = p["enum"].as_array() {
            return choices.clone();
        }
        let types: Vec<&str> = match &p["type"] {
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            t => t.as_str().into_iter().collect(),
        };
        types
            .into_iter()
            .map(|t| match t {
                "string" => json!("%1"),
                "boolean" => json!(true),
                "integer" => p.get("minimum").cloned().unwrap_or(json!(1)),
                "array" => json!([samples(&p["items"])[0]]),
                "object" => json!({ "A": "b" }),
                other => panic!("no sample for type {other}: {p}"),
            })
            .collect()
    }

    /// Issue 26: every tool's input schema is generated from its argument struct, so
    /// each property the schema lists is a field the call deserializes, and each field
    /// is listed. (A hand-written schema, or a field added to one and not the other,
    /// fails here.)
    #[test]
    fn each_schema_lists_exactly_what_its_struct_deserializes() {
        for t in all() {
            let schema = t.input();
            assert_eq!(
                schema,
                &(t.args.schema)(),
                "{}: cached as generated",
                t.name
            );
            let props = schema["properties"].as_object().unwrap();
            let listed: Vec<&str> = props.keys().map(String::as_str).collect();
            let mut fields = (t.args.fields)().to_vec();
            fields.sort_unstable();
            assert_eq!(
                listed, fields,
                "{}: the schema and the struct differ",
                t.name
            );
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for name in &listed {
                assert!(
                    !props[*name].to_string().contains("null"),
                    "{}.{name}: an optional argument is left out, not null",
                    t.name
                );
                for value in samples(&props[*name]) {
                    let mut args: Map<String, Value> = required
                        .iter()
                        .map(|r| (r.to_string(), samples(&props[*r])[0].clone()))
                        .collect();
                    args.insert(name.to_string(), value.clone());
                    // Only the decoding: whether the values make sense together is the
                    // command's business (`each_tool_builds_the_command_it_names`).
                    if let Err(e) = (t.args.build)(&args, schema) {
                        assert_ne!(
                            e.message.split('`').nth(1),
                            Some("arguments"),
                            "{}.{name}: the schema takes {value} but the struct does not: {}",
                            t.name,
                            e.message
                        );
                    }
                }
            }
            // Every field is known to the schema check: none is refused as unknown.
            let args: Map<String, Value> = listed
                .iter()
                .map(|n| (n.to_string(), Value::Null))
                .collect();
            if let Err(e) = (t.args.build)(&args, schema) {
                assert!(!e.message.contains("no such argument"), "{}", e.message);
            }
        }
    }
}
