//! The one command set.
//!
//! Every surface (keys of an attached client, CLI verbs, MCP tools, sideband tags) turns
//! its input into a [`Command`] and sends it through the server's one dispatcher. The
//! [`COMMANDS`] table is the single list of what exists: its names appear in the audit
//! log, its tiers drive the permission policy, and the other surfaces are checked
//! against it.

use crate::PaneId;
use crate::agent::{AgentWorktree, Report, SendMessage, SpawnAgent};
use crate::buffers::{PasteBuffer, SetBuffer};
use crate::keys::Key;
use crate::observe::{CapturePane, ReadPane, RunCommand, SearchPanes, WaitFor};
use crate::target::Target;
use serde::{Deserialize, Serialize};

pub use crate::arrange::{
    Direction, LayoutChoice, LayoutPreset, PaneScope, PaneSelect, Resize, SplitSize, WindowSelect,
};

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
    /// `-A`: a session of that name already there is the answer (and the CLI
    /// attaches to it) instead of an error.
    #[serde(default)]
    pub existing: bool,
    /// The creating client's environment, for tmux's `update-environment` (the
    /// variables the option names are copied into the session's environment, so its
    /// programs get the client's `SSH_AUTH_SOCK`); None with `-E` or no client.
    #[serde(default)]
    pub client_env: Option<Vec<(String, String)>>,
    /// `-t`: the session to group the new one with: it shares that session's windows
    /// (and any made later in either), with a current window of its own. No program
    /// is started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Target>,
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
    /// Where it goes: the index `target` names (`-t s:3`), or after/before the
    /// target window (`-a`/`-b`).
    #[serde(default)]
    pub place: crate::manage::WindowPlace,
    /// `-k`: a window already at the index `target` names is destroyed and replaced
    /// (without it, a taken index is an error).
    #[serde(default)]
    pub kill: bool,
    /// `-S`: when `name` is given and `target` names no index, a window of that name
    /// already in the session is selected (with `select`) instead of a new one made;
    /// the answer is then `Done`. Two of that name are an error.
    #[serde(default)]
    pub select_existing: bool,
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
    /// `-Z`: the window is zoomed after the split, on its active pane (the new one,
    /// unless not `select`), as tmux 3.5's split-window -Z leaves it.
    #[serde(default)]
    pub zoom: bool,
    pub spawn: Spawn,
    /// Typed into the new pane (as a paste, then Enter) once its program reads input:
    /// a split and its task are one command and one audit record. MCP's
    /// `create_pane` `input` and a `<fugue:spawn>` tag's content; tmux's
    /// `split-window` has no such flag, so the CLI sends `send-keys` after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
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
    /// A mouse event at a cell of the pane, reported if (and as) its program asked
    /// for mouse reports. Only attached clients send these.
    Mouse(crate::mouse::MouseEvent),
    /// tmux's `send-keys -R`: the pane's terminal state is reset (screen cleared,
    /// cursor home, modes off, as a terminal's reset does). Nothing reaches the
    /// program.
    Reset,
}

/// `send-keys`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendInput {
    pub target: Option<Target>,
    pub parts: Vec<InputPart>,
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
    /// Bring back sessions the journal holds that are not running (`fugue restore`).
    Restore {
        /// One session by name; None: every one.
        name: Option<String>,
        /// Only say what can be restored.
        list: bool,
    },
    /// Forget sessions the journal holds that are not running (`fugue restore
    /// --discard`).
    DiscardRestorable {
        /// One session by name; None: every one.
        name: Option<String>,
    },
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
    /// `select-pane -d` / `-e`: turn input to a pane off or back on. Keys, text and
    /// pastes sent to a pane whose input is off are dropped (tmux's `pane_input_off`).
    PaneInput {
        target: Option<Target>,
        enabled: bool,
    },
    /// `select-pane -m` / `-M`: mark the pane (the server's one marked pane; marking
    /// the marked pane again clears it, as in tmux), or with `clear` clear the mark.
    MarkPane {
        target: Option<Target>,
        clear: bool,
    },
    ResizePane {
        target: Option<Target>,
        resize: Resize,
    },
    ResizeWindow(crate::arrange::ResizeWindow),
    SelectLayout {
        target: Option<Target>,
        layout: LayoutChoice,
    },
    SendInput(SendInput),
    /// tmux's `send-prefix`: the `prefix` key (`prefix2` with `secondary`) typed into
    /// the pane, as the server has it.
    SendPrefix {
        target: Option<Target>,
        secondary: bool,
    },
    CapturePane(CapturePane),
    /// Rows of history and screen for a client's scroll mode.
    ReadRows {
        target: Option<Target>,
        /// The first line: relative to the top of the screen (negative is history), or
        /// with `absolute` the line's absolute number (lines ever scrolled into
        /// history before it), which stays the same line while output moves on (copy
        /// mode's frozen view).
        start: i64,
        count: u32,
        #[serde(default)]
        absolute: bool,
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
        /// The attaching client's environment, for `update-environment` (see
        /// [`NewSession::client_env`]).
        #[serde(default)]
        client_env: Option<Vec<(String, String)>>,
        /// The client's terminal (`/dev/pts/3`): its name in `list-clients`.
        #[serde(default)]
        tty: Option<String>,
    },
    /// The attached terminal clients (tmux's `list-clients`), of one session or all.
    ListClients {
        target: Option<Target>,
    },
    /// tmux's `detach-client`: `target` is `-s` (every client of that session),
    /// `client` is `-t` (by name, as `list-clients` shows it; default the calling
    /// client, else the most recently active one), `all_others` is `-a` (every client
    /// but that one).
    DetachClient {
        target: Option<Target>,
        #[serde(default)]
        client: Option<String>,
        #[serde(default)]
        all_others: bool,
    },
    /// Redraw clients from scratch (tmux's `refresh-client`): the calling client with
    /// no target, else every client attached to the target's session.
    RefreshClient {
        target: Option<Target>,
    },
    /// The calling attached client's terminal changed size (tmux's
    /// `refresh-client -C WxH`): its session's windows follow the clients' sizes.
    ResizeClient {
        cols: u16,
        rows: u16,
    },
    /// An agent in the calling pane connected over MCP (or its last connection went).
    /// In the sideband's `auto` mode such a pane is not scanned for tags; sent by the
    /// MCP surface itself, so the switch is audited like any change.
    SidebandMcp {
        connected: bool,
    },
    /// The calling attached client's terminal gained or lost focus: the focused pane
    /// of its session hears of it, if its program asked (mode 1004).
    ClientFocus {
        focused: bool,
    },
    /// The pane mode the calling attached client shows (`copy-mode`, `tree-mode`,
    /// `clock-mode`, ...), or none: `#{pane_in_mode}` and `#{pane_mode}` report it, as
    /// tmux's modes are the pane's whoever looks.
    ClientMode {
        pane: Option<PaneId>,
        mode: Option<String>,
    },
    ReadPane(ReadPane),
    WaitFor(WaitFor),
    RunCommand(RunCommand),
    SearchPanes(SearchPanes),
    /// Show a message in the status bar of the clients attached to a session.
    DisplayMessage {
        target: Option<Target>,
        text: String,
        /// `-d`: milliseconds the message stays (0: until a key); default the
        /// `display-time` option.
        #[serde(default)]
        delay_ms: Option<u32>,
    },
    /// `display-message -p`: `text` expanded in the target pane's scope by the server,
    /// which sees the whole tree and the options (`#{window_panes}`, `#{@user}`),
    /// answered as `Captured` text with a newline.
    FormatText {
        target: Option<Target>,
        text: String,
        /// tmux's `-l`, `-a` and `-v`.
        #[serde(default)]
        mode: crate::format::FormatMode,
    },
    /// Open a pane running an agent preset and give it a task.
    SpawnAgent(SpawnAgent),
    /// Type a message into agent panes once they are idle and no person is typing.
    SendMessage(SendMessage),
    /// What an agent reported as its result.
    GetResult {
        target: Option<Target>,
    },
    /// Keep, merge or remove the git worktree an agent was started in.
    AgentWorktree(AgentWorktree),
    /// An agent tells fugue its state and/or its result.
    Report(Report),
    /// Fill, append to or rename a paste buffer.
    SetBuffer(SetBuffer),
    /// A buffer's content (`-b`; default the most recent).
    ShowBuffer {
        name: Option<String>,
    },
    /// Every buffer, most recent first.
    ListBuffers,
    /// Delete a buffer (`-b`; default the most recent).
    DeleteBuffer {
        name: Option<String>,
    },
    /// Type a buffer into a pane.
    PasteBuffer(PasteBuffer),
    /// Bind a key of a table to a command sequence (tmux's `bind-key`).
    BindKey(crate::key_tables::Binding),
    /// Remove bindings (tmux's `unbind-key`): one key of a table, or with `all` every
    /// key of the table (default `prefix`). `quiet` makes an unbound key no error.
    UnbindKey {
        table: String,
        key: Option<Key>,
        all: bool,
        quiet: bool,
    },
    /// The bindings as tmux's `list-keys` prints them (`notes`: `-N`).
    ListKeys {
        table: Option<String>,
        notes: bool,
        /// Only this key's binding (`list-keys [-T table] key`), unpadded as tmux
        /// prints one.
        #[serde(default)]
        key: Option<crate::keys::Key>,
    },
    /// Set, append to or unset an option (tmux's `set-option`).
    SetOption(crate::options::SetOption),
    /// Options and their values (tmux's `show-options`).
    ShowOptions(crate::options::ShowOptions),
    /// Set, add to, unset or run a hook (tmux's `set-hook`).
    SetHook(crate::hooks::SetHook),
    /// Hooks and their commands (tmux's `show-hooks`).
    ShowHooks(crate::hooks::ShowHooks),
    /// Ask the attached clients' person y/n before running a command (tmux's
    /// `confirm-before`, from the CLI; keys and `C-b :` ask in the client itself).
    ConfirmBefore(crate::popup::ClientCommandLine),
    /// tmux's `command-prompt` from the CLI: a client asks and runs the filled-in
    /// template.
    CommandPrompt(crate::popup::ClientCommandLine),
    /// tmux's `send-keys -K [-c client] KEY...`: keys as if typed at that client.
    ClientKeys {
        client: Option<String>,
        keys: Vec<String>,
    },
    /// Show a menu in the attached clients (tmux's `display-menu`, from the CLI).
    DisplayMenu(crate::popup::ClientCommandLine),
    /// Open (or with `close` close) a floating pane over a session's window.
    DisplayPopup(crate::popup::DisplayPopup),
    /// Number the panes in the attached clients (tmux's `display-panes`, from the CLI).
    DisplayPanes(crate::popup::ClientCommandLine),
    /// `switch-client` from the CLI: the command line goes to the clients attached to
    /// the caller's session (tmux's current client), which move.
    SwitchClient(crate::popup::ClientCommandLine),
    /// The session/window/pane chooser in the attached clients (tmux's `choose-tree`,
    /// from the CLI).
    ChooseTree(crate::popup::ClientCommandLine),
    /// The chooser of the windows matching a string (tmux's `find-window`, from the
    /// CLI).
    FindWindow(crate::popup::ClientCommandLine),
    /// Copy mode on a pane in the clients showing it (tmux's `copy-mode` from the
    /// CLI); kept on the pane for the next client when none is attached.
    CopyMode(crate::popup::ClientCommandLine),
    /// The buffer chooser in the attached clients (tmux's `choose-buffer`).
    ChooseBuffer(crate::popup::ClientCommandLine),
    /// A big clock over a pane in the clients showing it (tmux's `clock-mode`).
    ClockMode(crate::popup::ClientCommandLine),
    /// The options and key bindings editor in the clients showing a pane (tmux's
    /// `customize-mode`).
    CustomizeMode(crate::popup::ClientCommandLine),
    /// A copy-mode command (tmux's `send-keys -X NAME`) for the copy mode a pane is
    /// in: run by the client showing it, `cancel` leaves one the pane keeps.
    CopyModeCommand(crate::popup::ClientCommandLine),
    /// The client chooser in the attached clients (tmux's `choose-client`).
    ChooseClient(crate::popup::ClientCommandLine),
    /// `kill-pane -a`: every pane of the target's window but the target.
    KillOtherPanes {
        target: Option<Target>,
    },
    /// `kill-window -a`: every window of the target's session but the target.
    KillOtherWindows {
        target: Option<Target>,
    },
    /// `kill-session -a`: every session but the target.
    KillOtherSessions {
        target: Option<Target>,
    },
    Respawn(crate::manage::Respawn),
    SwapPane(crate::manage::SwapPane),
    RotateWindow(crate::manage::RotateWindow),
    BreakPane(crate::manage::BreakPane),
    JoinPane(crate::manage::JoinPane),
    /// `clear-history`: drop a pane's history (the screen stays).
    ClearHistory {
        target: Option<Target>,
    },
    /// `pipe-pane`: the pane's output to a shell command's input (`output`, tmux's
    /// `-O`, the default) and/or its output typed into the pane (`input`, `-I`); no
    /// command closes the pane's pipe; `toggle` (`-o`) opens one only if there is
    /// none, else closes it.
    PipePane {
        target: Option<Target>,
        command: Option<String>,
        input: bool,
        output: bool,
        toggle: bool,
    },
    MoveWindow(crate::manage::MoveWindow),
    /// `unlink-window`: take a window out of a session (`kill`: `-k`, killing it when
    /// that was its last link).
    UnlinkWindow {
        target: Option<Target>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        kill: bool,
    },
    SwapWindow(crate::manage::SwapWindow),
    SetEnvironment(crate::manage::SetEnvironment),
    ShowEnvironment(crate::manage::ShowEnvironment),
    /// tmux's `wait-for [-S|-L|-U] CHANNEL`.
    WaitChannel {
        channel: String,
        op: crate::manage::ChannelOp,
    },
    Lock(crate::admin::LockScope),
    /// tmux's `suspend-client [-t client]`: the client stops (SIGTSTP) until `fg`.
    SuspendClient {
        client: Option<String>,
    },
    ServerAccess(crate::admin::ServerAccess),
    ShowMessages(crate::admin::ShowMessages),
    /// `show-prompt-history [-T type]`: every type's history without one.
    ShowPromptHistory {
        kind: Option<crate::admin::PromptType>,
    },
    /// `clear-prompt-history [-T type]`: every type's without one.
    ClearPromptHistory {
        kind: Option<crate::admin::PromptType>,
    },
    /// A line entered at an attached client's prompt, for the server's history.
    PromptEntered {
        kind: crate::admin::PromptType,
        line: String,
    },
}

pub use access::{TargetKind, TargetUse};
pub use spec::{CommandSpec, Exposure, Facts, Surfaces, Tier};

#[path = "command_access.rs"]
mod access;
#[path = "command_spec.rs"]
mod spec;

#[path = "command_table.rs"]
mod table;
pub use table::COMMANDS;

pub use crate::commands_doc::commands_markdown;

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
