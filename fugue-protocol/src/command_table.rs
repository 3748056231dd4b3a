//! The command table: one declaration per [`Command`] variant (its name, permission
//! tier, summary, and how each surface reaches it or why it does not). The CLI, MCP,
//! sideband and key surfaces, the audit log and docs/commands.md all read it.

use super::Command;
use super::spec::{self, CommandSpec, Exposure, Facts, Surfaces, Tier};

/// Declares the command table: one entry per [`Command`] variant, keyed by the variant,
/// so the table and the enum cannot drift apart (a variant left out, or listed twice,
/// does not compile) and no command can take another's permission tier.
macro_rules! commands {
    ($(
        $variant:ident => $name:literal, $tier:ident, $summary:literal,
            cli: $cli:expr, mcp: $mcp:expr, sideband: $sb:expr, keys: $keys:expr,
            facts: [$($fact:ident),*];
    )*) => {
        /// The command table, one entry per [`Command`] variant.
        pub const COMMANDS: &[CommandSpec] = &[$(
            CommandSpec {
                name: $name,
                tier: Tier::$tier,
                summary: $summary,
                surfaces: Surfaces { cli: $cli, mcp: $mcp, sideband: $sb, keys: $keys },
                facts: Facts { $($fact: true,)* ..Facts::NONE },
            },
        )*];

        impl Command {
            pub(super) fn index(&self) -> usize {
                #[allow(non_camel_case_types, clippy::enum_variant_names)]
                enum Index { $($variant),* }
                match self {
                    $(Command::$variant { .. } => Index::$variant as usize,)*
                }
            }
        }
    };
}

use Exposure::{Absent, As, Tmux};

use spec::reasons::*;

commands! {
    NewSession => "new-session", Write, "create a session with one window",
        cli: As("new-session"), mcp: As("create_session"),
        sideband: Absent("a tag acts inside its own session; new sessions are for people and MCP"),
        keys: As("new-session"),
        facts: [journaled, structural, alerts];
    NewWindow => "new-window", Write, "create a window in a session",
        cli: As("new-window"), mcp: As("create_window"),
        sideband: Absent("sideband tags open panes next to the agent (spawn), not windows"),
        keys: As("new-window"),
        facts: [journaled, structural, alerts];
    SplitPane => "split-window", Write, "split a pane, starting a program in the new pane",
        cli: As("split-window"), mcp: As("create_pane"), sideband: As("spawn"),
        keys: As("split-right, split-down, split-left, split-up"),
        facts: [journaled, structural, alerts];
    KillPane => "kill-pane", Destroy, "close a pane, ending its program",
        cli: As("kill-pane"), mcp: As("close_pane"), sideband: As("control action=close"),
        keys: As("kill-pane"),
        facts: [journaled, structural, alerts];
    KillWindow => "kill-window", Destroy, "close a window and all its panes",
        cli: As("kill-window"), mcp: Tmux,
        sideband: Absent("a tag closes single panes (control action=close), never a person's whole window"),
        keys: As("kill-window"),
        facts: [journaled, structural, alerts];
    KillSession => "kill-session", Destroy, "close a session and everything in it",
        cli: As("kill-session"), mcp: As("kill_session"),
        sideband: Absent("a tag closes single panes, never a whole session"),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts];
    KillServer => "kill-server", Destroy, "end every session and stop the server",
        cli: As("kill-server"), mcp: Absent(PERSON_ONLY_KILL_SERVER),
        sideband: Absent(PERSON_ONLY_KILL_SERVER), keys: Absent(NO_KEY),
        facts: [journaled, structural];
    Restore => "restore", Write, "bring back sessions a killed, crashed or rebooted server left in its journal",
        cli: As("restore"), mcp: Absent(PERSON_RESTORE), sideband: Absent(PERSON_RESTORE),
        keys: Absent(NO_KEY),
        facts: [journaled];
    DiscardRestorable => "restore -d", Destroy, "forget the sessions the journal could restore",
        cli: As("restore -d"), mcp: Absent(PERSON_RESTORE), sideband: Absent(PERSON_RESTORE),
        keys: Absent(NO_KEY),
        facts: [journaled];
    RenameSession => "rename-session", Write, "rename a session",
        cli: As("rename-session"), mcp: Tmux,
        sideband: Absent("names are a person's way to find things; agents tag panes instead"),
        keys: As("rename-session"),
        facts: [journaled, structural];
    RenameWindow => "rename-window", Write, "rename a window",
        cli: As("rename-window"), mcp: Tmux,
        sideband: Absent("names are a person's way to find things; agents tag panes instead"),
        keys: As("rename-window"),
        facts: [journaled, structural];
    SetPaneTitle => "select-pane -T", Write, "set a pane's title",
        cli: As("select-pane -T"), mcp: Tmux,
        sideband: Absent("a program sets its own pane's title with OSC 0/2, as in any terminal"),
        keys: Absent(NO_KEY),
        facts: [journaled];
    SelectWindow => "select-window", Write, "make a window the current one",
        cli: As("select-window"), mcp: Tmux,
        sideband: Absent("a tag must not move a person's view to another window"),
        keys: As("select-window 1, next-window, previous-window, last-window"),
        facts: [journaled, structural];
    SelectPane => "select-pane", Write, "make a pane the active one",
        cli: As("select-pane"), mcp: Tmux, sideband: As("focus"),
        keys: As("focus left, next-pane, previous-pane, last-pane"),
        facts: [journaled, structural];
    PaneInput => "select-pane -d", Write, "turn input to a pane off or back on (select-pane -d/-e)",
        cli: As("select-pane -d"), mcp: Tmux,
        sideband: Absent("a tag must not lock a person out of a pane"),
        keys: Absent(PROMPT),
        facts: [journaled];
    MarkPane => "select-pane -m", Write, "mark a pane, or clear the mark (select-pane -m/-M)",
        cli: As("select-pane -m"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled];
    ResizePane => "resize-pane", Write, "resize or zoom a pane",
        cli: As("resize-pane"), mcp: Tmux,
        sideband: As("control action=resize|zoom"), keys: As("resize left 1, zoom"),
        facts: [journaled, structural];
    ResizeWindow => "resize-window", Write, "give a window its own size, apart from its clients'",
        cli: As("resize-window"), mcp: Tmux, sideband: Absent(REARRANGE), keys: Absent(PROMPT),
        facts: [journaled, structural];
    SelectLayout => "select-layout", Write, "arrange a window's panes in a preset layout",
        cli: As("select-layout"), mcp: Tmux,
        sideband: As("control action=layout"), keys: As("layout tiled, next-layout"),
        facts: [journaled, structural];
    SendInput => "send-keys", Write, "type text and keys into a pane",
        cli: As("send-keys"), mcp: As("send_input"), sideband: As("input"),
        keys: Absent("keys of an attached client go to its pane as input, not as a command"),
        facts: [client_activity];
    SendPrefix => "send-prefix", Write, "type the prefix key into a pane",
        cli: As("send-prefix"), mcp: Tmux,
        sideband: Absent("a program types its own input; the prefix is a person's key"),
        keys: As("send-prefix"),
        facts: [];
    CapturePane => "capture-pane", Read, "read a pane's screen and history",
        cli: As("capture-pane"),
        mcp: Absent("read_pane reads screens and history for agents, with cursors and line ranges"),
        sideband: Absent("read (read-pane) reads screens for tags"),
        keys: Absent(NO_KEY),
        facts: [];
    ReadRows => "read-rows", Read, "read rows of a pane for scrolling",
        cli: Absent(SCROLLING), mcp: Absent(SCROLLING), sideband: Absent(SCROLLING),
        keys: As("scroll-mode, scroll-page-up"),
        facts: [];
    ListSessions => "list-sessions", Read, "list sessions",
        cli: As("list-sessions"),
        mcp: Absent("list_panes lists sessions, windows and panes in one answer"),
        sideband: Absent("list (list-panes) lists sessions, windows and panes"),
        keys: Absent("C-b s (choose-tree) will, with the tree chooser"),
        facts: [];
    ListPanes => "list-panes", Read, "list panes with their details",
        cli: As("list-panes"), mcp: As("list_panes"), sideband: As("list"),
        keys: Absent(NO_KEY),
        facts: [];
    AttachSession => "attach-session", Read, "attach a client to a session",
        cli: As("attach-session"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("next-session, previous-session"),
        facts: [structural, alerts, client_activity];
    ListClients => "list-clients", Read, "list the attached terminal clients",
        cli: As("list-clients"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent(NO_KEY),
        facts: [];
    DetachClient => "detach-client", Write, "detach clients from a session",
        cli: As("detach-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("detach"),
        facts: [journaled];
    ReadPane => "read-pane", Read, "read a pane's screen, history, or what arrived since a cursor",
        cli: As("read-pane"), mcp: As("read_pane"), sideband: As("read"),
        keys: Absent("a person reads the screen"),
        facts: [];
    WaitFor => "wait-for", Read, "wait for output, quiet, or the end of a pane's program",
        cli: As("wait-for"), mcp: As("wait_for"), sideband: Absent(NO_ANSWER),
        keys: Absent("a person waits by watching"),
        facts: [];
    RunCommand => "run-command", Write, "run a shell command to completion and return its output",
        cli: As("run-command"), mcp: As("run_command"), sideband: Absent(NO_ANSWER),
        keys: Absent("a person runs commands in a pane"),
        facts: [journaled, structural, alerts];
    SearchPanes => "search-panes", Read, "search screens and history of panes with a regex",
        cli: As("search-panes"), mcp: As("search_panes"), sideband: Absent(NO_ANSWER),
        keys: As("scroll-mode"),
        facts: [];
    DisplayMessage => "display-message", Write, "show a message in the status bar of a session's clients",
        cli: As("display-message"), mcp: As("notify"), sideband: As("notify"),
        keys: Absent(NO_KEY),
        facts: [];
    FormatText => "format-text", Read, "expand a format in a pane's scope (display-message -p)",
        cli: As("display-message -p"), mcp: Tmux,
        sideband: Absent("tags print nothing back to their program; read_pane reads what is shown"),
        keys: Absent(NO_KEY),
        facts: [];
    SpawnAgent => "spawn-agent", Write, "open a pane running an agent preset and give it a task",
        cli: As("agent spawn"), mcp: As("spawn_agent"), sideband: As("spawn agent=PRESET"),
        keys: Absent("a person starts agents from the CLI or a shell in a pane"),
        facts: [journaled, structural, alerts];
    SendMessage => "send-message", Write, "type a message into agent panes when they are idle",
        cli: As("agent message"), mcp: As("send_message"), sideband: As("message"),
        keys: Absent("a person types into the agent's pane"),
        facts: [journaled];
    GetResult => "get-result", Read, "read the result an agent reported",
        cli: As("agent result"), mcp: As("get_result"), sideband: As("result"),
        keys: Absent("a person reads the agent's pane"),
        facts: [];
    AgentWorktree => "agent-worktree", Write, "keep, merge or remove an agent's git worktree",
        cli: As("agent worktree"), mcp: As("finish_worktree"),
        sideband: Absent("whoever reviews an agent's work finishes its worktree, over MCP or the CLI, not a tag in a pane"),
        keys: Absent("a person finishes worktrees with `fugue agent worktree`"),
        facts: [journaled];
    Report => "report", Write, "report an agent's state or result",
        cli: As("report"), mcp: As("report"), sideband: As("report"),
        keys: Absent("reports come from the agent itself"),
        facts: [journaled];
    RefreshClient => "refresh-client", Read, "redraw attached clients from scratch",
        cli: As("refresh-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("refresh-client"),
        facts: [];
    ResizeClient => "refresh-client -C", Write, "set the size of the attached client that sends it",
        cli: Absent("a CLI call has no terminal of its own; size detached sessions with new-session -x/-y"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client whenever its terminal changes size, not bound to a key"),
        facts: [journaled, structural, client_activity];
    SidebandMcp => "sideband-mcp", Write, "mark the calling pane's agent as connected over MCP (sideband auto mode)",
        cli: Absent(MCP_CONNECTION), mcp: Absent(MCP_CONNECTION), sideband: Absent(MCP_CONNECTION),
        keys: Absent(MCP_CONNECTION),
        facts: [journaled];
    ClientFocus => "client-focus", Write, "tell the server the attached client's terminal gained or lost focus",
        cli: Absent("a CLI call has no terminal of its own"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client when its terminal gains or loses focus, not bound to a key"),
        facts: [];
    ClientMode => "client-mode", Write, "tell the server which pane mode the attached client shows",
        cli: Absent("a CLI call shows no mode of its own"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client as it enters or leaves a mode, not bound to a key"),
        facts: [];
    SetBuffer => "set-buffer", Write, "fill, append to or rename a paste buffer (text, or a region of a pane)",
        cli: As("set-buffer"), mcp: Tmux, sideband: As("buffer"),
        keys: Absent("copy mode sends it with the selection; no key runs it alone"),
        facts: [journaled];
    ShowBuffer => "show-buffer", Read, "read a paste buffer",
        cli: As("show-buffer"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent("C-b = (choose-buffer) previews buffers"),
        facts: [];
    ListBuffers => "list-buffers", Read, "list paste buffers, most recent first",
        cli: As("list-buffers"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: As("list-buffers, choose-buffer"),
        facts: [];
    DeleteBuffer => "delete-buffer", Write, "delete a paste buffer",
        cli: As("delete-buffer"), mcp: Tmux,
        sideband: As("buffer action=delete"), keys: As("choose-buffer"),
        facts: [journaled];
    SetOption => "set-option", Write, "set, append to or unset a server, session, window or pane option",
        cli: As("set-option"), mcp: Tmux,
        sideband: Absent("options are a person's settings (the prefix, the mouse, the status bar): a tag must not change them under the person"),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled, alerts, runtime];
    ShowOptions => "show-options", Read, "show options and their values",
        cli: As("show-options"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent("the command prompt (C-b :) runs it"),
        facts: [];
    PasteBuffer => "paste-buffer", Write, "type a paste buffer into a pane",
        cli: As("paste-buffer"), mcp: Tmux, sideband: As("paste"),
        keys: As("paste-buffer"),
        facts: [journaled];
    BindKey => "bind-key", Write, "bind a key of a key table to a command sequence",
        cli: As("bind-key"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: Absent(NO_KEY),
        facts: [journaled, runtime];
    UnbindKey => "unbind-key", Write, "remove key bindings",
        cli: As("unbind-key"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: Absent(NO_KEY),
        facts: [journaled, runtime];
    ListKeys => "list-keys", Read, "list the key bindings as tmux prints them",
        cli: As("list-keys"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: As("list-keys"),
        facts: [];
    SetHook => "set-hook", Write, "set, add to, unset or run the command sequence an event runs",
        cli: As("set-hook"), mcp: Absent(PERSON_HOOKS), sideband: Absent(PERSON_HOOKS),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled];
    ShowHooks => "show-hooks", Read, "show hooks and their commands as tmux prints them",
        cli: As("show-hooks"), mcp: Absent(PERSON_HOOKS), sideband: Absent(PERSON_HOOKS),
        keys: Absent("the command prompt (C-b :) runs it"),
        facts: [];
    ConfirmBefore => "confirm-before", Write, "ask the attached person y/n, then run a command",
        cli: As("confirm-before"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("kill-pane, kill-window"),
        facts: [journaled];
    CommandPrompt => "command-prompt", Write, "ask on a client's status line, then run a command line with the answers",
        cli: As("command-prompt"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("command-prompt, rename-window, rename-session"),
        facts: [journaled];
    ClientKeys => "send-keys -K", Write, "press keys at an attached client, as if its person typed them",
        cli: As("send-keys -K"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("a person's keys are the client's own already"),
        facts: [journaled];
    DisplayMenu => "display-menu", Write, "show a menu of commands in the attached clients",
        cli: As("display-menu"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled];
    DisplayPopup => "display-popup", Write, "open a floating pane running a command over a window",
        cli: As("display-popup"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled];
    SwitchClient => "switch-client", Write, "move the attached clients of the current session to another session, window or pane",
        cli: As("switch-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("bindings run `switch-client` lines in the client itself (`C-b (`, `C-b )`, `C-b L`)"),
        facts: [journaled];
    DisplayPanes => "display-panes", Write, "number the panes in the attached clients; a digit runs a command on that pane",
        cli: As("display-panes"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("display-panes"),
        facts: [journaled];
    ChooseTree => "choose-tree", Write, "choose a session, window or pane from a tree in the attached clients",
        cli: As("choose-tree"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-session, choose-window"),
        facts: [journaled];
    CopyMode => "copy-mode", Write, "enter copy mode on a pane in the clients showing it (kept for the next client when none is attached)",
        cli: As("copy-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("scroll-mode, scroll-page-up"),
        facts: [journaled];
    ClockMode => "clock-mode", Write, "show a big clock over a pane in the clients showing it (kept for the next client when none is attached)",
        cli: As("clock-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("clock-mode"),
        facts: [journaled];
    CopyModeCommand => "send-keys -X", Write, "run a copy-mode command (cancel, begin-selection, ...) in the copy mode a pane is in",
        cli: As("send-keys"), mcp: Tmux, sideband: Absent(CLIENT_ONLY),
        keys: Absent("bound in the copy-mode tables as send-keys -X NAME"),
        facts: [journaled];
    CustomizeMode => "customize-mode", Write, "browse and change options and key bindings in the clients showing a pane (kept for the next client when none is attached)",
        cli: As("customize-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("customize-mode"),
        facts: [journaled];
    ChooseClient => "choose-client", Write, "choose an attached client to detach (or run a command on) in the attached clients",
        cli: As("choose-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-client"),
        facts: [journaled];
    ChooseBuffer => "choose-buffer", Write, "choose a paste buffer to paste or delete in the attached clients",
        cli: As("choose-buffer"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-buffer"),
        facts: [journaled];
    FindWindow => "find-window", Write, "choose from the windows whose name, title or content match",
        cli: As("find-window"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("find-window"),
        facts: [journaled];
    KillOtherPanes => "kill-pane -a", Destroy, "close every pane of a window but one",
        cli: As("kill-pane -a"), mcp: Absent(ONE_PANE), sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts];
    KillOtherWindows => "kill-window -a", Destroy, "close every window of a session but one",
        cli: As("kill-window -a"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts];
    KillOtherSessions => "kill-session -a", Destroy, "close every session but one",
        cli: As("kill-session -a"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts];
    Respawn => "respawn-pane", Destroy, "start a pane's program again (respawn-pane, respawn-window)",
        cli: As("respawn-pane"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts];
    SwapPane => "swap-pane", Write, "swap two panes, or a pane with its neighbour",
        cli: As("swap-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts];
    RotateWindow => "rotate-window", Write, "move every pane of a window one place on",
        cli: As("rotate-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural];
    BreakPane => "break-pane", Write, "move a pane out into a window of its own",
        cli: As("break-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts];
    JoinPane => "join-pane", Write, "move a pane into another window, splitting a pane there",
        cli: As("join-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts];
    ClearHistory => "clear-history", Write, "drop a pane's history",
        cli: As("clear-history"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled];
    PipePane => "pipe-pane", Write, "pipe a pane's output to a shell command (and its output into the pane)",
        cli: As("pipe-pane"), mcp: Tmux,
        sideband: Absent("a program already has its own output; a tag's command would outlive the tag's checks"),
        keys: Absent(PROMPT),
        facts: [journaled];
    MoveWindow => "move-window", Write, "move a window to another index or session, or renumber a session's windows; link it into another too (link-window)",
        cli: As("move-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts];
    UnlinkWindow => "unlink-window", Destroy, "take a window out of a session (killing it with -k if no other session has it)",
        cli: As("unlink-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts];
    SwapWindow => "swap-window", Write, "swap two windows' places",
        cli: As("swap-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural];
    SetEnvironment => "set-environment", Write, "set, unset or remove a variable of the global or a session's environment for new programs",
        cli: As("set-environment"), mcp: Tmux,
        sideband: Absent("the environment is a person's setting for new programs: a tag must not change it"),
        keys: Absent(PROMPT),
        facts: [journaled];
    ShowEnvironment => "show-environment", Read, "show the global or a session's environment",
        cli: As("show-environment"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent(PROMPT),
        facts: [];
    WaitChannel => "wait-for -S", Read, "wait for, signal, lock or unlock a tmux wait-for channel",
        cli: As("wait-for -S"),
        mcp: Absent("channels order shell scripts; agents wait on panes with wait_for"),
        sideband: Absent(NO_ANSWER), keys: Absent(PROMPT),
        facts: [];
    Lock => "lock-server", Write, "lock attached terminals with lock-command (lock-server, lock-session, lock-client)",
        cli: As("lock-server"), mcp: Absent(CLIENT_ONLY),
        sideband: Absent(CLIENT_ONLY), keys: Absent(PROMPT),
        facts: [journaled];
    SuspendClient => "suspend-client", Write, "stop an attached client until its shell continues it",
        cli: As("suspend-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("suspend-client"),
        facts: [journaled];
    ServerAccess => "server-access", Write, "list who may connect to the server (only its owner)",
        cli: As("server-access"), mcp: Tmux,
        sideband: Absent("who may connect is the owner's call, never a program's"),
        keys: Absent(PROMPT),
        facts: [journaled];
    ShowMessages => "show-messages", Read, "show the server's log of commands and messages",
        cli: As("show-messages"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: As("show-messages"),
        facts: [];
    ShowPromptHistory => "show-prompt-history", Read, "show the command prompt's history",
        cli: As("show-prompt-history"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent(PROMPT),
        facts: [];
    ClearPromptHistory => "clear-prompt-history", Write, "clear the command prompt's history",
        cli: As("clear-prompt-history"), mcp: Tmux,
        sideband: Absent("the prompt's history is a person's record"), keys: Absent(PROMPT),
        facts: [journaled];
    PromptEntered => "prompt-entered", Write, "record a line entered at a client's prompt",
        cli: Absent(PROMPT_ENTRY), mcp: Absent(PROMPT_ENTRY), sideband: Absent(PROMPT_ENTRY),
        keys: As("command-prompt"),
        facts: [journaled];
}
