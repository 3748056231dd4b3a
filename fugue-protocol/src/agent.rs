//! Agents: panes running a coding agent (or any program) from a preset, their states,
//! the results they report, and messages between them.

use crate::command::Direction;
use crate::ids::PaneId;
use crate::target::Target;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest result an agent may report, in bytes. Results are kept in the server's
/// memory and substituted into other agents' tasks.
pub const RESULT_BYTES_MAX: usize = 256 * 1024;

/// What an agent pane is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentState {
    /// The program has not yet shown that it is ready for work (or its task waits for
    /// the results of the agents it depends on).
    Starting,
    /// Working: printing, or told to work and not yet done.
    Busy,
    /// Done and waiting for its next task.
    Idle,
    /// Asking a person something (a permission prompt, a question).
    AwaitingInput,
    /// The program ended; its exit code is beside the state.
    Exited,
}

impl AgentState {
    pub const ALL: [AgentState; 5] = [
        AgentState::Starting,
        AgentState::Busy,
        AgentState::Idle,
        AgentState::AwaitingInput,
        AgentState::Exited,
    ];

    /// The states an agent may report about itself.
    pub const REPORTABLE: [AgentState; 3] = [
        AgentState::Idle,
        AgentState::Busy,
        AgentState::AwaitingInput,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AgentState::Starting => "starting",
            AgentState::Busy => "busy",
            AgentState::Idle => "idle",
            AgentState::AwaitingInput => "awaiting_input",
            AgentState::Exited => "exited",
        }
    }

    /// Accepts the names above (and `awaiting-input`).
    pub fn parse(s: &str) -> Option<AgentState> {
        let s = s.trim().to_ascii_lowercase().replace('-', "_");
        AgentState::ALL.into_iter().find(|st| st.name() == s)
    }
}

impl fmt::Display for AgentState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateSource {
    /// The agent said so (`fugue report`, the `report` tool or tag).
    Report,
    /// fugue inferred it (output, prompt, foreground process, input delivered).
    Heuristic,
}

/// One state change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateChange {
    pub state: AgentState,
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
    pub by: StateSource,
}

/// What became of the task given at spawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// There was no task.
    None,
    /// Given to the agent (typed after it was ready, or on its command line).
    Delivered,
    /// Waiting for the results of the agents in `depends_on`.
    Waiting,
    /// Could not be given (a dependency ended without a result, the pane closed).
    Failed,
}

/// An agent pane as `list-panes` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentInfo {
    /// The preset it was started from; None for a pane that became an agent by
    /// reporting, or is watched because someone asked about its state.
    pub preset: Option<String>,
    pub state: AgentState,
    /// The exit code, when the state is `exited`.
    pub exit_status: Option<i32>,
    pub by: StateSource,
    /// When the state was entered (ms since the Unix epoch).
    pub since_ms: u64,
    pub tags: Vec<String>,
    /// When the agent last reported a result (ms since the Unix epoch).
    pub result_at_ms: Option<u64>,
    pub task: TaskStatus,
    /// Agents whose results the task still waits for.
    pub waiting_for: Vec<PaneId>,
    /// Messages queued for it and not yet typed.
    pub pending_messages: u32,
    /// The latest state changes, oldest first (at most 8).
    pub history: Vec<StateChange>,
    /// The git worktree it was started in (`spawn-agent` with `worktree`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<WorktreeInfo>,
    /// Set when a restarted server restored this agent's pane from its journal (ms
    /// since the Unix epoch): `fugue agent list` shows it as `restored`.
    #[serde(default)]
    pub restored_at_ms: Option<u64>,
}

/// Where `spawn-agent` opens its pane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// Split the caller's pane (to the right); a caller outside any pane gets a new
    /// window in the current session, or a new session when it may not use that one.
    Auto,
    /// Split a pane (default: the caller's, else the current one).
    Split {
        target: Option<Target>,
        direction: Direction,
        /// Percent of the split pane.
        size: Option<u8>,
    },
    /// A new window in a session (default: the caller's, else the current one).
    Window { session: Option<Target> },
    /// A new detached session.
    Session { name: Option<String> },
}

/// `spawn-agent`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnAgent {
    /// A preset name from the config (`[agents.NAME]`).
    pub agent: String,
    /// What to ask the agent. `{{%N.result}}` is replaced by the result of pane %N,
    /// which must be in `depends_on`.
    pub task: Option<String>,
    pub placement: Placement,
    pub cwd: Option<String>,
    /// The pane's title (default: the preset's name).
    pub name: Option<String>,
    /// Labels for addressing messages (`tag:NAME`).
    pub tags: Vec<String>,
    /// Agents whose results the task needs.
    pub depends_on: Vec<Target>,
    /// How long to wait for the agent to be ready (and, for presets that take the task
    /// as an argument, for the results it depends on).
    pub timeout_ms: Option<u64>,
    /// Start the agent in a new git worktree of the caller's repository (last, and
    /// skipped when absent: older peers' messages still decode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<WorktreeSpec>,
}

/// `spawn-agent`'s worktree: on a new branch named by the server, or on this branch
/// (made from the repository's HEAD when it does not exist).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WorktreeSpec {
    Auto,
    Branch(String),
}

/// An agent's git worktree and what it holds beyond the commit it started from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorktreeInfo {
    pub path: String,
    pub branch: String,
    /// The repository's main folder, where a merge lands.
    pub repo: String,
    /// The commit it was made from.
    pub base: String,
    /// Files `git status` lists in the worktree (uncommitted work).
    pub dirty_files: u32,
    /// Commits on the branch since `base`.
    pub commits: u32,
    /// Whether the agent's pane is still open.
    pub pane_open: bool,
}

impl WorktreeInfo {
    /// Anything that removing the worktree without merging would lose sight of.
    pub fn has_changes(&self) -> bool {
        self.dirty_files > 0 || self.commits > 0
    }
}

/// What to do with an agent's worktree once its work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorktreeAction {
    /// Only say what it holds and the choices.
    Show,
    /// Leave the worktree and its branch; fugue forgets them.
    Keep,
    /// Merge the branch into the repository's checked-out branch, then remove both.
    Merge,
    /// Remove the worktree (never with uncommitted work); the branch stays unless merged.
    Remove,
}

/// `agent-worktree`: finish an agent's worktree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentWorktree {
    /// The agent's pane (it may be closed already).
    pub target: Option<Target>,
    pub action: WorktreeAction,
}

/// `agent-worktree`'s answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorktreeOutcome {
    pub pane: PaneId,
    pub worktree: WorktreeInfo,
    /// What was done (`shown`, `kept`, `merged`, `removed`) and what is left.
    pub done: String,
    /// What may be done next.
    pub choices: Vec<WorktreeAction>,
}

/// What `spawn-agent` made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSpawned {
    pub pane: PaneId,
    pub session: crate::ids::SessionId,
    pub session_name: String,
    pub window: crate::ids::WindowId,
    pub window_index: u32,
    pub agent: String,
    pub state: AgentState,
    pub task: TaskStatus,
    /// Dependencies whose results the task still waits for.
    pub waiting_for: Vec<PaneId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<WorktreeInfo>,
    /// Where the task typed before this answer begins: a text wait from it sees the
    /// agent's answer. None when the task is delivered later (held, or for a wrapper).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Who a message is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageTo {
    Pane(Target),
    /// Every agent pane carrying this tag.
    Tag(String),
    /// The live agent panes the caller created.
    Children,
}

impl MessageTo {
    /// `children`, `tag:NAME`, or a pane target.
    pub fn parse(s: &str) -> Result<MessageTo, String> {
        let s = s.trim();
        if s == "children" {
            return Ok(MessageTo::Children);
        }
        if let Some(tag) = s.strip_prefix("tag:") {
            return Ok(MessageTo::Tag(tag.to_string()));
        }
        s.parse::<Target>()
            .map(MessageTo::Pane)
            .map_err(|e| format!("{e}; or use `children` or `tag:NAME`"))
    }
}

impl fmt::Display for MessageTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageTo::Pane(t) => write!(f, "{t}"),
            MessageTo::Tag(t) => write!(f, "tag:{t}"),
            MessageTo::Children => f.write_str("children"),
        }
    }
}

/// Whether `send-message` waits for delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Queue the message and answer at once.
    Async,
    /// Answer once each target got it, timed out, or failed.
    Sync,
}

/// `send-message`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendMessage {
    pub to: MessageTo,
    pub text: String,
    pub delivery: Delivery,
    /// How long the target must have printed nothing before the message is typed.
    pub quiescence_ms: Option<u64>,
    /// How long to try (sync: how long the call waits).
    pub timeout_ms: Option<u64>,
    /// Type into a named pane even if it runs no agent (a shell would run the text).
    /// Without it such a pane is refused: plain panes take `send-keys`.
    pub plain: bool,
}

/// What happened to a message for one pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageStatus {
    /// Queued (async): it will be typed when the pane is ready for it.
    Queued,
    Delivered,
    Timeout,
    Failed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageOutcome {
    pub pane: PaneId,
    pub status: MessageStatus,
    /// Why it timed out or failed (or what it waited for).
    pub reason: Option<String>,
    pub waited_ms: u64,
    /// Delivered: the cursor of the line the message was typed on, where a wait for
    /// the answer starts (`wait_for --after`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// `report`: an agent tells fugue its state and/or its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Default: the pane the caller runs in.
    pub target: Option<Target>,
    pub state: Option<AgentState>,
    pub result: Option<String>,
}

/// What an agent reported as its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentResult {
    pub pane: PaneId,
    pub agent: Option<String>,
    pub result: String,
    /// When it was reported (ms since the Unix epoch).
    pub reported_at_ms: u64,
    /// The pane's state now (`exited` for a pane that is gone).
    pub state: AgentState,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_parse_by_name() {
        for s in AgentState::ALL {
            assert_eq!(AgentState::parse(s.name()), Some(s));
        }
        assert_eq!(
            AgentState::parse("Awaiting-Input"),
            Some(AgentState::AwaitingInput)
        );
        assert_eq!(AgentState::parse("done"), None);
    }

    #[test]
    fn message_targets_parse() {
        assert_eq!(MessageTo::parse("children"), Ok(MessageTo::Children));
        assert_eq!(
            MessageTo::parse("tag:review"),
            Ok(MessageTo::Tag("review".into()))
        );
        assert_eq!(
            MessageTo::parse("%3"),
            Ok(MessageTo::Pane(Target::Pane(PaneId(3))))
        );
    }
}
