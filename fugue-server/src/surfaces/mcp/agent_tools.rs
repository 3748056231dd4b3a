//! The MCP tools for agents: spawn one, message them, read and report results.

use super::args::{ToolArgs, target, targets};
use super::tools::{DirectionArg, ToolDef, args};
use fugue_protocol::cmd;
use fugue_protocol::{
    AgentState, AgentWorktree, Command, CommandError, Delivery, MessageTo, Placement, Report,
    SendMessage, SpawnAgent, WorktreeAction, WorktreeSpec,
};
use schemars::JsonSchema;
use serde::Deserialize;

// An agent's states as a call names them: all of them for `wait_for`.
#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum StateArg {
    Starting,
    Busy,
    Idle,
    AwaitingInput,
    Exited,
}

impl From<StateArg> for AgentState {
    fn from(s: StateArg) -> AgentState {
        match s {
            StateArg::Starting => AgentState::Starting,
            StateArg::Busy => AgentState::Busy,
            StateArg::Idle => AgentState::Idle,
            StateArg::AwaitingInput => AgentState::AwaitingInput,
            StateArg::Exited => AgentState::Exited,
        }
    }
}

// The states an agent may report of itself (the server sees starting and exited).
#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ReportState {
    Idle,
    Busy,
    AwaitingInput,
}

impl From<ReportState> for AgentState {
    fn from(s: ReportState) -> AgentState {
        match s {
            ReportState::Idle => AgentState::Idle,
            ReportState::Busy => AgentState::Busy,
            ReportState::AwaitingInput => AgentState::AwaitingInput,
        }
    }
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum PlacementArg {
    Auto,
    Right,
    Left,
    Down,
    Up,
    Window,
    Session,
}

// `worktree`: true (a new branch), false, or a branch name.
#[derive(Deserialize)]
#[serde(untagged)]
enum WorktreeArg {
    On(bool),
    Branch(String),
}

/// `{"type": ["boolean", "string"]}`, as a model reads it most easily.
fn bool_or_string(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": ["boolean", "string"] })
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpawnAgentArgs {
    // Its choices, the configured presets, are added when the tools are listed.
    agent: String,
    task: Option<String>,
    placement: Option<PlacementArg>,
    target: Option<String>,
    #[schemars(range(min = 1, max = 99))]
    size_percent: Option<u8>,
    cwd: Option<String>,
    name: Option<String>,
    tags: Option<Vec<String>>,
    depends_on: Option<Vec<String>>,
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
    /// true or a branch: start in a new git worktree of your repository.
    // `default`: a schema of its own does not tell schemars the argument is optional.
    #[serde(default)]
    #[schemars(schema_with = "bool_or_string")]
    worktree: Option<WorktreeArg>,
}

impl SpawnAgentArgs {
    fn placement(&self) -> Result<Placement, CommandError> {
        let target = target("target", self.target.clone())?;
        let size = self.size_percent;
        let split = |direction: DirectionArg| Placement::Split {
            target: target.clone(),
            direction: direction.into(),
            size,
        };
        Ok(match self.placement {
            None | Some(PlacementArg::Auto) if target.is_none() && size.is_none() => {
                Placement::Auto
            }
            None | Some(PlacementArg::Auto) | Some(PlacementArg::Right) => {
                split(DirectionArg::Right)
            }
            Some(PlacementArg::Left) => split(DirectionArg::Left),
            Some(PlacementArg::Down) => split(DirectionArg::Down),
            Some(PlacementArg::Up) => split(DirectionArg::Up),
            Some(PlacementArg::Window) => Placement::Window { session: target },
            Some(PlacementArg::Session) => Placement::Session { name: None },
        })
    }
}

impl ToolArgs for SpawnAgentArgs {
    fn command(self) -> Result<Command, CommandError> {
        let placement = self.placement()?;
        Ok(Command::SpawnAgent(SpawnAgent {
            agent: self.agent,
            task: self.task,
            placement,
            cwd: self.cwd,
            name: self.name,
            tags: self.tags.unwrap_or_default(),
            depends_on: targets("depends_on", self.depends_on.unwrap_or_default())?,
            timeout_ms: self.timeout_ms,
            worktree: match self.worktree {
                None | Some(WorktreeArg::On(false)) => None,
                Some(WorktreeArg::On(true)) => Some(WorktreeSpec::Auto),
                Some(WorktreeArg::Branch(b)) => Some(WorktreeSpec::Branch(b)),
            },
        }))
    }
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ActionArg {
    Show,
    Keep,
    Merge,
    Remove,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinishWorktreeArgs {
    /// The agent's pane %N (may be closed).
    pane: String,
    action: Option<ActionArg>,
}

impl ToolArgs for FinishWorktreeArgs {
    fn command(self) -> Result<Command, CommandError> {
        let action = match self.action {
            None | Some(ActionArg::Show) => WorktreeAction::Show,
            Some(ActionArg::Keep) => WorktreeAction::Keep,
            Some(ActionArg::Merge) => WorktreeAction::Merge,
            Some(ActionArg::Remove) => WorktreeAction::Remove,
        };
        Ok(Command::AgentWorktree(AgentWorktree {
            target: target("pane", Some(self.pane))?,
            action,
        }))
    }
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum DeliveryArg {
    Async,
    Sync,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendMessageArgs {
    to: String,
    text: String,
    delivery: Option<DeliveryArg>,
    #[schemars(range(min = 0, max = 600_000))]
    quiescence_ms: Option<u64>,
    plain: Option<bool>,
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
}

impl ToolArgs for SendMessageArgs {
    fn command(self) -> Result<Command, CommandError> {
        let to = MessageTo::parse(&self.to).map_err(|e| CommandError::invalid_argument("to", e))?;
        Ok(Command::SendMessage(SendMessage {
            to,
            text: self.text,
            delivery: match self.delivery {
                None | Some(DeliveryArg::Async) => Delivery::Async,
                Some(DeliveryArg::Sync) => Delivery::Sync,
            },
            quiescence_ms: self.quiescence_ms,
            timeout_ms: self.timeout_ms,
            plain: self.plain.unwrap_or(false),
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetResultArgs {
    pane: Option<String>,
}

impl ToolArgs for GetResultArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::GetResult(cmd::GetResult {
            target: target("pane", self.pane)?,
        }))
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportArgs {
    state: Option<ReportState>,
    result: Option<String>,
}

impl ToolArgs for ReportArgs {
    fn command(self) -> Result<Command, CommandError> {
        Ok(Command::Report(Report {
            target: None,
            state: self.state.map(AgentState::from),
            result: self.result,
        }))
    }
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
        args: args::<SpawnAgentArgs>(),
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
        args: args::<FinishWorktreeArgs>(),
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
        args: args::<SendMessageArgs>(),
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
        args: args::<GetResultArgs>(),
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
        args: args::<ReportArgs>(),
    },
];
