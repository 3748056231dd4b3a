//! The one command set.
//!
//! Every surface (keys of an attached client, CLI verbs, MCP tools, sideband tags) turns
//! its input into a [`Command`] and sends it through the server's one dispatcher. The
//! [`COMMANDS`] table is the single list of what exists: its names appear in the audit
//! log, its tiers drive the permission policy, and the other surfaces are checked
//! against it.

use crate::agent::{Report, SendMessage, SpawnAgent};
use crate::keys::Key;
use crate::observe::{ReadPane, RunCommand, SearchPanes, WaitFor};
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// A direction on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        match s.to_ascii_lowercase().as_str() {
            "left" | "l" => Some(Direction::Left),
            "right" | "r" => Some(Direction::Right),
            "up" | "u" | "top" => Some(Direction::Up),
            "down" | "d" | "bottom" => Some(Direction::Down),
            _ => None,
        }
    }
}

/// How much room a new pane takes from the pane it splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitSize {
    /// Percent of the split pane's extent along the split (1..=99).
    Percent(u8),
    /// Cells (columns or rows) of the new pane along the split, borders not counted.
    Cells(u16),
}

/// Preset arrangements of a window's panes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayoutPreset {
    EvenHorizontal,
    EvenVertical,
    MainVertical,
    MainHorizontal,
    Tiled,
}

impl LayoutPreset {
    /// The order `next-layout` cycles through.
    pub const CYCLE: [LayoutPreset; 5] = [
        LayoutPreset::EvenHorizontal,
        LayoutPreset::EvenVertical,
        LayoutPreset::MainHorizontal,
        LayoutPreset::MainVertical,
        LayoutPreset::Tiled,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LayoutPreset::EvenHorizontal => "even-horizontal",
            LayoutPreset::EvenVertical => "even-vertical",
            LayoutPreset::MainVertical => "main-vertical",
            LayoutPreset::MainHorizontal => "main-horizontal",
            LayoutPreset::Tiled => "tiled",
        }
    }

    pub fn parse(s: &str) -> Option<LayoutPreset> {
        LayoutPreset::CYCLE.into_iter().find(|p| p.name() == s)
    }

    pub fn next(self) -> LayoutPreset {
        let i = LayoutPreset::CYCLE
            .iter()
            .position(|p| *p == self)
            .unwrap_or(0);
        LayoutPreset::CYCLE[(i + 1) % LayoutPreset::CYCLE.len()]
    }
}

/// Which layout `select-layout` applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LayoutChoice {
    Preset(LayoutPreset),
    /// The preset after the one last applied to this window.
    Next,
}

/// How a program for a new pane is described.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    /// argv; empty runs the default shell. A single element containing spaces is run
    /// by the default shell with `-c`, as tmux does.
    pub command: Vec<String>,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    /// A title for the pane (the program may change it later).
    pub title: Option<String>,
    /// Scan this pane's output for sideband tags.
    pub sideband: Option<bool>,
    /// Keep the pane, showing its exit status, when the program ends.
    pub remain: Option<bool>,
}

/// `new-session`
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSession {
    pub name: Option<String>,
    pub window_name: Option<String>,
    /// Window size for a session no client is attached to (columns, rows).
    pub size: Option<(u16, u16)>,
    pub spawn: Spawn,
}

/// `new-window`
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWindow {
    /// The session; default the caller's.
    pub target: Option<Target>,
    pub name: Option<String>,
    /// Make the new window the session's current one.
    pub select: bool,
    pub spawn: Spawn,
}

/// `split-window`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitPane {
    pub target: Option<Target>,
    /// Where the new pane goes relative to the target.
    pub direction: Direction,
    pub size: Option<SplitSize>,
    /// Make the new pane the active one.
    pub select: bool,
    pub spawn: Spawn,
}

/// A piece of input for a pane, written in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InputPart {
    /// Text typed as is.
    Text(String),
    /// Text delivered as a bracketed paste when the program enabled bracketed paste.
    Paste(String),
    /// A key, encoded for the pane's current keyboard modes.
    Key(Key),
}

/// `send-keys`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendInput {
    pub target: Option<Target>,
    pub parts: Vec<InputPart>,
}

/// A line bound of `capture-pane`: 0 is the first visible line, negative lines are
/// history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineBound {
    Line(i64),
    /// `-`: the start of history (for `-S`) or the end of the screen (for `-E`).
    Edge,
}

/// `capture-pane`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapturePane {
    pub target: Option<Target>,
    pub start: Option<LineBound>,
    pub end: Option<LineBound>,
    /// Keep colors and attributes as SGR escape sequences.
    pub escapes: bool,
    /// Join soft-wrapped lines.
    pub join: bool,
}

/// Which panes `list-panes` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaneScope {
    /// The target window (default).
    Window,
    /// Every window of the target session.
    Session,
    /// Everything on the server.
    All,
    /// Just the target pane (for a window or session target: its active pane; with no
    /// target: the caller's pane), as `display-message -p` and `-P -F` print it.
    Pane,
}

/// Which window to select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowSelect {
    /// The window the target names.
    Target,
    Index(u32),
    Next,
    Previous,
    Last,
}

/// Which pane to make active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaneSelect {
    /// The pane the target names.
    Target,
    Direction(Direction),
    Next,
    Previous,
    Last,
}

/// How to resize a pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resize {
    /// Move the pane's border in `Direction` by this many cells.
    By(Direction, u16),
    /// Toggle zoom (the pane fills its window).
    ZoomToggle,
}

/// Every operation fugue can perform.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    NewSession(NewSession),
    NewWindow(NewWindow),
    SplitPane(SplitPane),
    KillPane {
        target: Option<Target>,
    },
    KillWindow {
        target: Option<Target>,
    },
    KillSession {
        target: Option<Target>,
    },
    KillServer,
    RenameSession {
        target: Option<Target>,
        name: String,
    },
    RenameWindow {
        target: Option<Target>,
        name: String,
    },
    SetPaneTitle {
        target: Option<Target>,
        title: String,
    },
    SelectWindow {
        target: Option<Target>,
        select: WindowSelect,
    },
    SelectPane {
        target: Option<Target>,
        select: PaneSelect,
    },
    ResizePane {
        target: Option<Target>,
        resize: Resize,
    },
    SelectLayout {
        target: Option<Target>,
        layout: LayoutChoice,
    },
    SendInput(SendInput),
    CapturePane(CapturePane),
    /// Rows of history and screen for a client's scroll mode.
    ReadRows {
        target: Option<Target>,
        start: i64,
        count: u32,
    },
    ListSessions,
    ListPanes {
        target: Option<Target>,
        scope: PaneScope,
    },
    /// Attach the calling client to a session (creating one when none exists and
    /// `create` is set). The connection then receives frames.
    AttachSession {
        target: Option<Target>,
        create: bool,
    },
    DetachClient {
        target: Option<Target>,
    },
    /// Redraw clients from scratch (tmux's `refresh-client`): the calling client with
    /// no target, else every client attached to the target's session.
    RefreshClient {
        target: Option<Target>,
    },
    ReadPane(ReadPane),
    WaitFor(WaitFor),
    RunCommand(RunCommand),
    SearchPanes(SearchPanes),
    /// Show a message in the status bar of the clients attached to a session.
    DisplayMessage {
        target: Option<Target>,
        text: String,
    },
    /// Open a pane running an agent preset and give it a task.
    SpawnAgent(SpawnAgent),
    /// Type a message into agent panes once they are idle and no person is typing.
    SendMessage(SendMessage),
    /// What an agent reported as its result.
    GetResult {
        target: Option<Target>,
    },
    /// An agent tells fugue its state and/or its result.
    Report(Report),
}

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

/// One entry of the command table.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The name used in the audit log and by the CLI (tmux's name where tmux has one).
    pub name: &'static str,
    pub tier: Tier,
    pub summary: &'static str,
}

macro_rules! spec {
    ($name:literal, $tier:ident, $summary:literal) => {
        CommandSpec {
            name: $name,
            tier: Tier::$tier,
            summary: $summary,
        }
    };
}

/// The command table, one entry per [`Command`] variant, in declaration order.
pub const COMMANDS: &[CommandSpec] = &[
    spec!("new-session", Write, "create a session with one window"),
    spec!("new-window", Write, "create a window in a session"),
    spec!(
        "split-window",
        Write,
        "split a pane, starting a program in the new pane"
    ),
    spec!("kill-pane", Destroy, "close a pane, ending its program"),
    spec!("kill-window", Destroy, "close a window and all its panes"),
    spec!(
        "kill-session",
        Destroy,
        "close a session and everything in it"
    ),
    spec!(
        "kill-server",
        Destroy,
        "end every session and stop the server"
    ),
    spec!("rename-session", Write, "rename a session"),
    spec!("rename-window", Write, "rename a window"),
    spec!("select-pane -T", Write, "set a pane's title"),
    spec!("select-window", Write, "make a window the current one"),
    spec!("select-pane", Write, "make a pane the active one"),
    spec!("resize-pane", Write, "resize or zoom a pane"),
    spec!(
        "select-layout",
        Write,
        "arrange a window's panes in a preset layout"
    ),
    spec!("send-keys", Write, "type text and keys into a pane"),
    spec!("capture-pane", Read, "read a pane's screen and history"),
    spec!("read-rows", Read, "read rows of a pane for scrolling"),
    spec!("list-sessions", Read, "list sessions"),
    spec!("list-panes", Read, "list panes with their details"),
    spec!("attach-session", Read, "attach a client to a session"),
    spec!("detach-client", Write, "detach clients from a session"),
    spec!(
        "read-pane",
        Read,
        "read a pane's screen, history, or what arrived since a cursor"
    ),
    spec!(
        "wait-for",
        Read,
        "wait for output, quiet, or the end of a pane's program"
    ),
    spec!(
        "run-command",
        Write,
        "run a shell command to completion and return its output"
    ),
    spec!(
        "search-panes",
        Read,
        "search screens and history of panes with a regex"
    ),
    spec!(
        "display-message",
        Write,
        "show a message in the status bar of a session's clients"
    ),
    spec!(
        "spawn-agent",
        Write,
        "open a pane running an agent preset and give it a task"
    ),
    spec!(
        "send-message",
        Write,
        "type a message into agent panes when they are idle"
    ),
    spec!("get-result", Read, "read the result an agent reported"),
    spec!("report", Write, "report an agent's state or result"),
    spec!(
        "refresh-client",
        Read,
        "redraw attached clients from scratch"
    ),
];

impl Command {
    fn index(&self) -> usize {
        match self {
            Command::NewSession(_) => 0,
            Command::NewWindow(_) => 1,
            Command::SplitPane(_) => 2,
            Command::KillPane { .. } => 3,
            Command::KillWindow { .. } => 4,
            Command::KillSession { .. } => 5,
            Command::KillServer => 6,
            Command::RenameSession { .. } => 7,
            Command::RenameWindow { .. } => 8,
            Command::SetPaneTitle { .. } => 9,
            Command::SelectWindow { .. } => 10,
            Command::SelectPane { .. } => 11,
            Command::ResizePane { .. } => 12,
            Command::SelectLayout { .. } => 13,
            Command::SendInput(_) => 14,
            Command::CapturePane(_) => 15,
            Command::ReadRows { .. } => 16,
            Command::ListSessions => 17,
            Command::ListPanes { .. } => 18,
            Command::AttachSession { .. } => 19,
            Command::DetachClient { .. } => 20,
            Command::ReadPane(_) => 21,
            Command::WaitFor(_) => 22,
            Command::RunCommand(_) => 23,
            Command::SearchPanes(_) => 24,
            Command::DisplayMessage { .. } => 25,
            Command::SpawnAgent(_) => 26,
            Command::SendMessage(_) => 27,
            Command::GetResult { .. } => 28,
            Command::Report(_) => 29,
            Command::RefreshClient { .. } => 30,
        }
    }

    /// This command's entry in [`COMMANDS`].
    pub fn spec(&self) -> &'static CommandSpec {
        &COMMANDS[self.index()]
    }

    pub fn name(&self) -> &'static str {
        self.spec().name
    }

    pub fn tier(&self) -> Tier {
        self.spec().tier
    }

    /// The target the command names, if any (for the audit log and policy).
    pub fn target(&self) -> Option<&Target> {
        match self {
            Command::NewSession(_) | Command::KillServer | Command::ListSessions => None,
            Command::NewWindow(c) => c.target.as_ref(),
            Command::SplitPane(c) => c.target.as_ref(),
            Command::SendInput(c) => c.target.as_ref(),
            Command::CapturePane(c) => c.target.as_ref(),
            Command::ReadPane(c) => c.target.as_ref(),
            Command::WaitFor(c) => c.target.as_ref(),
            Command::RunCommand(c) => c.pane.as_ref().or(c.split_from.as_ref()),
            Command::SearchPanes(c) => c.targets.first(),
            Command::DisplayMessage { target, .. } => target.as_ref(),
            Command::SpawnAgent(c) => match &c.placement {
                crate::agent::Placement::Split { target, .. } => target.as_ref(),
                crate::agent::Placement::Window { session } => session.as_ref(),
                _ => None,
            },
            Command::SendMessage(c) => match &c.to {
                crate::agent::MessageTo::Pane(t) => Some(t),
                _ => None,
            },
            Command::Report(c) => c.target.as_ref(),
            Command::GetResult { target } => target.as_ref(),
            Command::KillPane { target }
            | Command::KillWindow { target }
            | Command::KillSession { target }
            | Command::RenameSession { target, .. }
            | Command::RenameWindow { target, .. }
            | Command::SetPaneTitle { target, .. }
            | Command::SelectWindow { target, .. }
            | Command::SelectPane { target, .. }
            | Command::ResizePane { target, .. }
            | Command::SelectLayout { target, .. }
            | Command::ReadRows { target, .. }
            | Command::ListPanes { target, .. }
            | Command::AttachSession { target, .. }
            | Command::DetachClient { target }
            | Command::RefreshClient { target } => target.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_unique() {
        let mut names: Vec<_> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len());
    }

    #[test]
    fn layout_cycle_wraps() {
        let mut p = LayoutPreset::Tiled;
        for _ in 0..LayoutPreset::CYCLE.len() {
            p = p.next();
        }
        assert_eq!(p, LayoutPreset::Tiled);
        assert_eq!(
            LayoutPreset::parse("main-vertical"),
            Some(LayoutPreset::MainVertical)
        );
    }
}
