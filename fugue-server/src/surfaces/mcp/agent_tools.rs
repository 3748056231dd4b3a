//! The MCP tools for agents: spawn one, message them, read and report results.

use super::args::Args;
use super::tools::{PANE, ToolDef, schema};
use fugue_protocol::{
    AgentState, Command, CommandError, Delivery, Direction, MessageTo, Placement, Report,
    SendMessage, SpawnAgent,
};
use serde_json::json;

const STATES: &str = "starting, busy, idle, awaiting_input, exited";

fn placement(a: &Args<'_>) -> Result<Placement, CommandError> {
    let target = a.target("target")?;
    let size = a.uint("size_percent", 1..=99)?.map(|p| p as u8);
    let kind = a.string("placement")?;
    Ok(match kind.as_deref() {
        None | Some("auto") if target.is_none() && size.is_none() => Placement::Auto,
        None | Some("auto") => Placement::Split {
            target,
            direction: Direction::Right,
            size,
        },
        Some("window") => Placement::Window { session: target },
        Some("session") => Placement::Session { name: None },
        Some(d) => match Direction::parse(d) {
            Some(direction) => Placement::Split {
                target,
                direction,
                size,
            },
            None => {
                return Err(CommandError::invalid_argument(
                    "placement",
                    format!("`{d}`: expected auto, right, left, down, up, window or session"),
                ));
            }
        },
    })
}

fn state(a: &Args<'_>, name: &str) -> Result<Option<AgentState>, CommandError> {
    a.string(name)?
        .map(|s| {
            AgentState::parse(&s).ok_or_else(|| {
                CommandError::invalid_argument(name, format!("`{s}`: expected one of {STATES}"))
            })
        })
        .transpose()
}

pub static AGENT_TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "spawn_agent",
        title: "Start an agent",
        description: "Start a coding agent from a preset (see the `agent` enum) in a new pane and give it a task. Returns once the agent is ready and has its task, with its pane id; then wait_for {pane, state: \"idle\"} and get_result. `depends_on`: pane ids of agents whose results the task needs; write {{%N.result}} in the task to insert pane %N's result. If they have not reported yet, the call returns once the agent is ready (at once for presets that take the task as an argument) with task: \"waiting\", state starting, and the task is given the moment they have. A task with results put in is at most 1 MiB (128 KiB for presets that take it on the command line).",
        command: "spawn-agent",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "agent": { "type": "string", "description": "Preset name." },
                    "task": { "type": "string", "description": "What to ask the agent. May contain {{%N.result}}." },
                    "placement": { "type": "string", "enum": ["auto", "right", "left", "down", "up", "window", "session"], "description": "auto (default): split your pane, else a new window. right/left/down/up: split `target`. window: a new window in session `target`. session: a new session." },
                    "target": { "type": "string", "description": "Pane to split, or session for placement window. Default: yours." },
                    "size_percent": { "type": "integer", "minimum": 1, "maximum": 99 },
                    "cwd": { "type": "string", "description": "Absolute working directory." },
                    "name": { "type": "string", "description": "Pane title (default: the preset)." },
                    "tags": { "type": "array", "items": { "type": "string" }, "description": "Labels to address it with send_message to \"tag:NAME\"." },
                    "depends_on": { "type": "array", "items": { "type": "string" }, "description": "Panes (%N) whose results the task waits for." },
                    "timeout_ms": { "type": "integer", "minimum": 1, "description": "How long to wait for the agent to be ready." }
                }),
                &["agent"],
            )
        },
        build: |a| {
            Ok(Command::SpawnAgent(SpawnAgent {
                agent: a.required_string("agent")?,
                task: a.string("task")?,
                placement: placement(a)?,
                cwd: a.string("cwd")?,
                name: a.string("name")?,
                tags: a.strings("tags")?,
                depends_on: a.targets("depends_on")?,
                timeout_ms: a.millis("timeout_ms")?,
            }))
        },
    },
    ToolDef {
        name: "send_message",
        title: "Message agents",
        description: "Type a message into agent panes at the right moment: only when the agent is idle, has printed nothing for `quiescence_ms` (default 500), no person has typed there for 2 s, and no person has an unsent draft there (a person always wins). Control characters other than newline and tab are removed. The text goes as a paste, then Enter. `to`: a pane (%N), \"tag:NAME\" (every agent with that tag), or \"children\" (the agents you made directly). `delivery`: \"async\" (default) queues and returns at once; \"sync\" waits and answers per pane delivered, timeout or failed, with a reason.",
        command: "send-message",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "to": { "type": "string", "description": "%N, tag:NAME, or children." },
                    "text": { "type": "string" },
                    "delivery": { "type": "string", "enum": ["async", "sync"] },
                    "quiescence_ms": { "type": "integer", "minimum": 0, "maximum": 600000 },
                    "plain": { "type": "boolean", "description": "Also type into a pane that runs no agent (a shell runs the text)." },
                    "timeout_ms": { "type": "integer", "minimum": 1 }
                }),
                &["to", "text"],
            )
        },
        build: |a| {
            let to = a.required_string("to")?;
            let to = MessageTo::parse(&to).map_err(|e| CommandError::invalid_argument("to", e))?;
            let delivery = match a.string("delivery")?.as_deref() {
                None | Some("async") => Delivery::Async,
                Some("sync") => Delivery::Sync,
                Some(d) => {
                    return Err(CommandError::invalid_argument(
                        "delivery",
                        format!("`{d}`: expected async or sync"),
                    ));
                }
            };
            Ok(Command::SendMessage(SendMessage {
                to,
                text: a.required_string("text")?,
                delivery,
                quiescence_ms: a.uint("quiescence_ms", 0..=600_000)?,
                timeout_ms: a.millis("timeout_ms")?,
                plain: a.bool("plain")?.unwrap_or(false),
            }))
        },
    },
    ToolDef {
        name: "get_result",
        title: "Read an agent's result",
        description: "What an agent reported as its result, and when. Fails with code `not_ready` while it has reported none: wait_for {pane, state: \"idle\"} first. Results of closed panes are kept for a while.",
        command: "get-result",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({ "pane": { "type": "string", "description": PANE } }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::GetResult {
                target: a.target("pane")?,
            })
        },
    },
    ToolDef {
        name: "report",
        title: "Report your state",
        description: "Report, for the pane you run in, your state (idle when done, busy, awaiting_input when you need a person) and/or your result (the answer other agents and people read with get_result, and that depends_on waits for).",
        command: "report",
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "state": { "type": "string", "enum": ["idle", "busy", "awaiting_input"] },
                    "result": { "type": "string" }
                }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::Report(Report {
                target: None,
                state: state(a, "state")?,
                result: a.string("result")?,
            }))
        },
    },
];

/// A `state` argument (for `wait_for`).
pub fn state_arg(a: &Args<'_>) -> Result<Option<AgentState>, CommandError> {
    state(a, "state")
}
