//! The command table's entry types: a command's permission tier, how each surface
//! reaches it (or why not), and the reasons shared by many entries.

use serde::{Deserialize, Serialize};

/// What a command may do, for the permission policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Observe only.
    Read,
    /// Create things, type into panes, rearrange.
    Write,
    /// End programs or sessions.
    Destroy,
}

/// How one surface reaches a command: under a name, or not at all, and why.
///
/// Every command says this for every surface, so a command cannot be reachable from
/// one surface and silently missing from another: leaving a surface out is a decision
/// with its reason written next to the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exposure {
    /// Reached under this name: a CLI verb (with its flags where one verb runs several
    /// commands), an MCP tool, a sideband tag (with its action attribute where one tag
    /// runs several commands), or the config file's name for a key binding's command
    /// line.
    As(&'static str),
    /// Not reached from this surface, and why.
    Absent(&'static str),
    /// MCP only: reached through the `tmux` tool, which runs tmux command lines, under
    /// the CLI's name, instead of a tool of its own (the tool list every model reads
    /// stays small, and every command is still reachable).
    Tmux,
}

impl Exposure {
    /// The name, when the surface reaches the command.
    pub fn name(&self) -> Option<&'static str> {
        match self {
            Exposure::As(n) => Some(n),
            Exposure::Absent(_) | Exposure::Tmux => None,
        }
    }
}

/// Where a command can be reached from.
#[derive(Clone, Copy, Debug)]
pub struct Surfaces {
    /// `fugue VERB` (tmux's names).
    pub cli: Exposure,
    /// An MCP tool of `fugue mcp`.
    pub mcp: Exposure,
    /// A `<fugue:TAG/>` printed in a sideband pane.
    pub sideband: Exposure,
    /// The config file's name for a binding's command line (`[keys]`,
    /// `bindings::NAMED_LINES`); any key can be bound to the command's tmux line.
    pub keys: Exposure,
}

/// What the dispatcher does around a command besides running it. Every entry of the
/// table states its facts (`facts: [...]`, possibly empty), so a new command cannot
/// silently miss the journal or the hooks: these were once `matches!` lists in the
/// dispatcher that a new variant fell through without a word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// May change what the journal keeps: the journal captures the state after it.
    pub journaled: bool,
    /// May change sessions, windows, names, focus or the layout: `after-` hooks and
    /// control clients' notifications compare the tree's shape before and after it.
    pub structural: bool,
    /// May add or remove panes or change monitoring options: the alert monitors look
    /// at the tree again after it.
    pub alerts: bool,
    /// Changes the server's runtime configuration (options, key tables), which the
    /// journal replays at a restart as the command itself.
    pub runtime: bool,
    /// The calling client counts as the latest one for `window-size latest` (it typed,
    /// resized or attached).
    pub client_activity: bool,
    /// A client's own bookkeeping (its focus, size, mode, scrolling, prompt history):
    /// the message log (`show-messages`) leaves it out, as tmux logs only commands.
    pub unlogged: bool,
    /// From an attached terminal client, a person's keys (send-keys, send-prefix) or
    /// the history its prompt fetches as it opens: the message log leaves it out then,
    /// and logs it from anywhere else.
    pub unlogged_from_client: bool,
}

impl Facts {
    /// No facts: a command that changes nothing the dispatcher follows.
    pub const NONE: Facts = Facts {
        journaled: false,
        structural: false,
        alerts: false,
        runtime: false,
        client_activity: false,
        unlogged: false,
        unlogged_from_client: false,
    };
}

/// One entry of the command table.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The name used in the audit log and by the CLI (tmux's name where tmux has one).
    pub name: &'static str,
    pub tier: Tier,
    pub summary: &'static str,
    pub surfaces: Surfaces,
    /// What the dispatcher does around it (journal, hooks, alerts, ...).
    pub facts: Facts,
}

/// Why a surface leaves a command out, where many commands share the reason.
pub(super) mod reasons {
    pub(in crate::command) const PERSON_ONLY_KILL_SERVER: &str =
        "ends every session of every person and agent: only a person, at a terminal or the CLI";
    pub(in crate::command) const CLIENT_ONLY: &str =
        "acts on attached terminal clients, which agents do not have";
    pub(in crate::command) const SCROLLING: &str = "the terminal client's scrolling and search; agents read rows with read_pane / capture-pane";
    pub(in crate::command) const NO_ANSWER: &str = "a tag's answer reaches the agent only as a result file, and this command is all answer: use MCP or the CLI";
    pub(in crate::command) const NO_KEY: &str = "tmux binds no key to it";
    pub(in crate::command) const PROMPT_ENTRY: &str =
        "sent by an attached client when a line is entered at its prompt";
    pub(in crate::command) const PERSON_RESTORE: &str = "what comes back after a crash is a person's call; MCP's list_panes and create_session answers say what can be restored";
    pub(in crate::command) const PERSON_KEYS: &str =
        "key bindings are a person's keyboard in attached clients; agents run commands directly";
    pub(in crate::command) const PERSON_HOOKS: &str = "hooks run commands with a person's rights whenever their event happens: an agent must not plant them (agents react to events with wait_for)";
    pub(in crate::command) const ONE_PANE: &str = "a tag closes single panes (control action=close), never several or a program it did not start";
    pub(in crate::command) const REARRANGE: &str = "a tag must not rearrange a person's windows";
    pub(in crate::command) const PROMPT: &str = "tmux binds no default key to it; the command prompt (C-b :) and bindings to command lines run it";
    pub(in crate::command) const MCP_CONNECTION: &str =
        "sent by the MCP surface itself when an agent's connection opens or its last one closes";
}
