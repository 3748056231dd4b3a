//! The MCP tools for agents: spawn one, message them, read and report results.

use super::args::Args;
use super::tools::{ToolDef, schema};
use fugue_protocol::cmd;
use fugue_protocol::{
    AgentState, AgentWorktree, Command, CommandError, Delivery, Direction, MessageTo, Placement,
    Report, SendMessage, SpawnAgent, WorktreeAction, WorktreeSpec,
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

/// `worktree`: true (a new branch), false, or a branch name.
fn worktree(a: &Args<'_>) -> Result<Option<WorktreeSpec>, CommandError> {
    if let Ok(b) = a.bool("worktree") {
        return Ok(b.filter(|b| *b).map(|_| WorktreeSpec::Auto));
    }
    match a.string("worktree") {
        Ok(Some(b)) => Ok(Some(WorktreeSpec::Branch(b))),
        Ok(None) => Ok(None),
        Err(_) => Err(CommandError::invalid_argument(
            "worktree",
            "expected true, false or a branch name",
        )),
    }
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
        description: "Start an agent preset in a new pane with a task; then wait_for state idle and get_result. {{%N.result}} in the task inserts %N's result once depends_on have reported.",
        command: "spawn-agent",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "agent": { "type": "string" },
                    "task": { "type": "string" },
                    "placement": { "type": "string", "enum": ["auto", "right", "left", "down", "up", "window", "session"] },
                    "target": { "type": "string" },
                    "size_percent": { "type": "integer", "minimum": 1, "maximum": 99 },
                    "cwd": { "type": "string" },
                    "name": { "type": "string" },
                    "tags": { "type": "array", "items": { "type": "string" } },
                    "depends_on": { "type": "array", "items": { "type": "string" } },
                    "timeout_ms": { "type": "integer", "minimum": 1 },
                    "worktree": { "type": ["boolean", "string"], "description": "true or a branch: start in a new git worktree of your repository." }
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
                worktree: worktree(a)?,
            }))
        },
    },
    ToolDef {
        name: "finish_worktree",
        title: "Finish an agent's worktree",
        description: "An agent's worktree (spawn_agent `worktree`): show (default), keep (stop tracking), merge (into your repository's branch, then remove) or remove (an unmerged branch stays). Merge and remove need its pane closed and refuse uncommitted work.",
        command: "agent-worktree",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                json!({
                    "pane": { "type": "string", "description": "The agent's pane %N (may be closed)." },
                    "action": { "type": "string", "enum": ["show", "keep", "merge", "remove"] }
                }),
                &["pane"],
            )
        },
        build: |a| {
            let action = match a.string("action")?.as_deref() {
                None | Some("show") => WorktreeAction::Show,
                Some("keep") => WorktreeAction::Keep,
                Some("merge") => WorktreeAction::Merge,
                Some("remove") => WorktreeAction::Remove,
                Some(x) => {
                    return Err(CommandError::invalid_argument(
                        "action",
                        format!("`{x}`: expected show, keep, merge or remove"),
                    ));
                }
            };
            Ok(Command::AgentWorktree(AgentWorktree {
                target: a.target("pane")?,
                action,
            }))
        },
    },
    ToolDef {
        name: "send_message",
        title: "Message agents",
        description: "Type a message into agents when idle and no person types. to: %N, tag:NAME, children. delivery async (queued) or sync. Non-agent panes need plain: true.",
        command: "send-message",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "to": { "type": "string" },
                    "text": { "type": "string" },
                    "delivery": { "type": "string", "enum": ["async", "sync"] },
                    "quiescence_ms": { "type": "integer", "minimum": 0, "maximum": 600000 },
                    "plain": { "type": "boolean" },
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
        description: "An agent's reported result (not_ready until it reports).",
        command: "get-result",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || schema(json!({ "pane": { "type": "string" } }), &[]),
        build: |a| {
            Ok(Command::GetResult(cmd::GetResult {
                target: a.target("pane")?,
            }))
        },
    },
    ToolDef {
        name: "report",
        title: "Report your state",
        description: "Report your pane's agent state and/or result.",
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
