//! The command line: global options and the verbs, named as in tmux.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "fugue",
    version,
    about = "A terminal multiplexer with agent protocols built in.\n\nWith no command, attaches to the most recent session (creating one if none exists).",
    disable_help_subcommand = true,
    // tmux's getopt takes a flag given twice and keeps the last (libtmux passes
    // `-t` itself and again in a command's own words).
    args_override_self = true,
    // tmux takes any unambiguous prefix of a command's name (`show-option`,
    // `list-win`, `new-w`): plugins and session managers rely on it.
    infer_subcommands = true
)]
pub struct Cli {
    /// Use the server called NAME (socket $XDG_RUNTIME_DIR/fugue/NAME).
    #[arg(short = 'L', value_name = "NAME")]
    pub name: Option<String>,
    /// Use the server at this socket path.
    #[arg(short = 'S', value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Config file for a server this command starts.
    #[arg(short = 'f', value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub verb: Option<Verb>,
}

/// Options for a program started in a new pane.
#[derive(Args, Debug, Default, Clone)]
pub struct SpawnArgs {
    /// Working directory.
    #[arg(short = 'c', value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Environment variable for the program (repeatable).
    #[arg(short = 'e', value_name = "VAR=VALUE")]
    pub env: Vec<String>,
    /// Scan the pane's output for sideband tags.
    #[arg(long, conflicts_with = "no_sideband")]
    pub sideband: bool,
    /// Never scan the pane's output for sideband tags, even for a program named in
    /// `[sideband] enable_for`.
    #[arg(long)]
    pub no_sideband: bool,
    /// The program and its arguments (a single argument with spaces runs in the
    /// shell), after the flags as tmux takes it, or after `--`.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = false,
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum Verb {
    /// Create a session (and attach to it unless -d).
    #[command(visible_alias = "new")]
    NewSession {
        /// Session name.
        #[arg(short = 's')]
        name: Option<String>,
        /// Name of the first window.
        #[arg(short = 'n')]
        window_name: Option<String>,
        /// Do not attach.
        #[arg(short = 'd')]
        detached: bool,
        /// Attach to the session if one of that name exists (-s), as attach-session.
        #[arg(short = 'A')]
        attach_existing: bool,
        /// With -A: detach the session's other clients (accepted; fugue's clients
        /// share a session).
        #[arg(short = 'D')]
        detach_others: bool,
        /// With -A: exit the other clients instead of detaching them (accepted).
        #[arg(short = 'X')]
        exit_others: bool,
        /// The attaching client's flags (tmux's `no-output`, `read-only`,
        /// `ignore-size`, ...): accepted and ignored, fugue's clients have none of them.
        #[arg(short = 'f', value_name = "FLAGS")]
        client_flags: Option<String>,
        /// Group the new session with this one: they share their windows.
        #[arg(short = 't', value_name = "TARGET-SESSION")]
        group: Option<String>,
        /// Width of a detached session.
        #[arg(short = 'x')]
        width: Option<u16>,
        /// Height of a detached session.
        #[arg(short = 'y')]
        height: Option<u16>,
        /// Print the new pane (see -F).
        #[arg(short = 'P')]
        print: bool,
        /// Format for -P.
        #[arg(short = 'F')]
        format: Option<String>,
        /// Do not copy `update-environment`'s variables from this environment into
        /// the session's.
        #[arg(short = 'E')]
        no_update_env: bool,
        #[command(flatten)]
        spawn: SpawnArgs,
    },
    /// Attach to a session.
    #[command(visible_aliases = ["attach", "a"])]
    AttachSession {
        #[arg(short = 't')]
        target: Option<String>,
        /// Do not copy `update-environment`'s variables from this environment into
        /// the session's.
        #[arg(short = 'E')]
        no_update_env: bool,
        /// Detach the session's other clients.
        #[arg(short = 'd')]
        detach_others: bool,
        /// Detach the session's other clients and send SIGHUP to their parent
        /// processes (their shells), so their terminals close.
        #[arg(short = 'x')]
        hangup_others: bool,
        /// Read-only: keys go to no pane, and only commands that change nothing run.
        #[arg(short = 'r')]
        read_only: bool,
        /// The session's working directory (accepted; fugue starts new panes in the
        /// directory of the pane they come from, see docs/tmux.md).
        #[arg(short = 'c', value_name = "working-directory")]
        cwd: Option<String>,
        /// The client's flags (tmux's `read-only`, `ignore-size`, ...): `read-only`
        /// is -r; the others are accepted and ignored, see docs/tmux.md.
        #[arg(short = 'f', value_name = "flags")]
        client_flags: Option<String>,
    },
    /// List sessions.
    #[command(visible_alias = "ls")]
    ListSessions {
        #[arg(short = 'F')]
        format: Option<String>,
        /// Only the sessions for which this format is true (not empty, not 0).
        #[arg(short = 'f')]
        filter: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Bring back the sessions a killed, crashed or rebooted server left in its
    /// journal (`--list` shows them, `--discard` forgets them).
    Restore(super::restore::RestoreArgs),
    /// List the commands (verbs) with their aliases and flags, as tmux does; with a
    /// command name or alias, only that one. Needs no server.
    #[command(visible_alias = "lscm")]
    ListCommands {
        #[arg(short = 'F')]
        format: Option<String>,
        command: Option<String>,
    },
    /// Put this terminal back in order after a program that died in full-screen mode
    /// (main screen, cursor shown, mouse, paste, focus and keyboard modes off, sane
    /// line settings). Needs no server.
    ResetTerminal,
    /// Print a completion script for SHELL, generated from this verb table
    /// (`fugue completions bash > /etc/bash_completion.d/fugue`). Needs no server.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page in roff, generated from this verb table (`fugue man |
    /// man -l -`); with a verb, that verb's page. Needs no server.
    Man {
        /// A verb (its name, not an alias).
        verb: Option<String>,
    },
    /// Put a `tmux` link to this `fugue` in DIR (a folder on your PATH), so programs
    /// that run `tmux` get fugue (docs/tmux.md).
    InstallTmuxShim {
        /// The folder; made if missing.
        dir: std::path::PathBuf,
        /// Replace a `tmux` that is there already.
        #[arg(long)]
        force: bool,
    },
    /// Wire fugue into an agent CLI's settings: its MCP server entry, the hooks that
    /// report its state and result (`fugue report --hook`) and a short instructions
    /// file; shows the diff, changes nothing twice, `--remove` undoes it. Needs no
    /// server.
    Setup(super::agent::SetupArgs),
    /// Create a window.
    #[command(visible_alias = "neww")]
    NewWindow {
        /// The session, or session:index for the new window's index.
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(short = 'n')]
        name: Option<String>,
        /// Do not make it the current window.
        #[arg(short = 'd')]
        detached: bool,
        /// At the index after the target window (later windows move up).
        #[arg(short = 'a', conflicts_with = "before")]
        after: bool,
        /// At the target window's index (it and later windows move up).
        #[arg(short = 'b')]
        before: bool,
        /// Destroy a window already at the target index and put the new one there.
        #[arg(short = 'k')]
        kill: bool,
        /// With -n: if a window of that name exists, select it instead.
        #[arg(short = 'S')]
        select_existing: bool,
        #[arg(short = 'P')]
        print: bool,
        #[arg(short = 'F')]
        format: Option<String>,
        #[command(flatten)]
        spawn: SpawnArgs,
    },
    /// Go to the next window.
    #[command(visible_alias = "next")]
    NextWindow(fugue_protocol::flags::NextWindow),
    /// Go to the previous window.
    #[command(visible_alias = "prev")]
    PreviousWindow(fugue_protocol::flags::PreviousWindow),
    /// Go to the last used window.
    #[command(visible_alias = "last")]
    LastWindow(fugue_protocol::flags::LastWindow),
    /// Split a pane.
    #[command(visible_aliases = ["split", "splitw"], disable_help_flag = true)]
    SplitWindow {
        #[arg(short = 't')]
        target: Option<String>,
        /// Side by side (new pane on the right).
        #[arg(short = 'h', conflicts_with = "vertical")]
        horizontal: bool,
        /// One above the other (new pane below; the default).
        #[arg(short = 'v')]
        vertical: bool,
        /// Put the new pane before (left of or above) the target.
        #[arg(short = 'b')]
        before: bool,
        /// Size of the new pane: cells, or a percentage such as 30%.
        #[arg(short = 'l')]
        size: Option<String>,
        /// Size of the new pane in percent.
        #[arg(short = 'p', conflicts_with = "size")]
        percent: Option<u8>,
        /// Do not make the new pane active.
        #[arg(short = 'd')]
        detached: bool,
        /// Zoom the window on its active pane after the split.
        #[arg(short = 'Z')]
        zoom: bool,
        /// Split the whole window: the new pane spans its full height (-h) or width.
        #[arg(short = 'f')]
        full: bool,
        /// Print the new pane (see -F).
        #[arg(short = 'P')]
        print: bool,
        #[arg(short = 'F')]
        format: Option<String>,
        #[command(flatten)]
        spawn: SpawnArgs,
        #[arg(long, action = clap::ArgAction::Help)]
        help: Option<bool>,
    },
    /// Resize a pane, or zoom it.
    #[command(visible_alias = "resizep")]
    ResizePane {
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(short = 'L')]
        left: bool,
        #[arg(short = 'R')]
        right: bool,
        #[arg(short = 'U')]
        up: bool,
        #[arg(short = 'D')]
        down: bool,
        /// Toggle zoom.
        #[arg(short = 'Z')]
        zoom: bool,
        /// Make the pane this many cells wide, its border included, or N% of the
        /// window's width.
        #[arg(short = 'x')]
        width: Option<String>,
        /// Make the pane this many cells high, its border included, or N% of the
        /// window's height.
        #[arg(short = 'y')]
        height: Option<String>,
        /// Resize with the mouse (tmux's binding for border drags): accepted and
        /// ignored, fugue's client drags borders itself.
        #[arg(short = 'M')]
        mouse: bool,
        /// Drop the pane's history (as clear-history).
        #[arg(short = 'T')]
        trim: bool,
        /// Cells to move the border by (default 1).
        amount: Option<u16>,
    },
    /// Arrange a window's panes in the next preset.
    #[command(visible_alias = "nextl")]
    NextLayout(fugue_protocol::flags::NextLayout),
    /// Start the server if it is not running (it exits again at once with no session,
    /// as tmux's does unless `exit-empty` is off).
    #[command(visible_alias = "start")]
    StartServer,
    /// Arrange a window's panes in the previous preset.
    #[command(visible_alias = "prevl")]
    PreviousLayout(fugue_protocol::flags::PreviousLayout),
    /// Type keys or text into a pane.
    #[command(visible_alias = "send")]
    SendKeys {
        #[arg(short = 't')]
        target: Option<String>,
        /// Send every argument as literal text, not key names.
        #[arg(short = 'l')]
        literal: bool,
        /// Expand formats in the keys first.
        #[arg(short = 'F')]
        format: bool,
        /// Each argument is a byte in hex (`1b`, `41`).
        #[arg(short = 'H')]
        hex: bool,
        /// Reset the pane's terminal state first (screen cleared, modes off).
        #[arg(short = 'R')]
        reset: bool,
        /// Send the keys this many times.
        #[arg(short = 'N', value_name = "COUNT")]
        repeat: Option<u32>,
        /// A copy-mode command for the pane's copy mode (`-X cancel`).
        #[arg(short = 'X')]
        copy_mode: bool,
        /// The keys go to the client's key table (tmux 3.4's -K).
        #[arg(short = 'K')]
        client_keys: bool,
        /// A mouse event from a binding (tmux's -M).
        #[arg(short = 'M')]
        mouse: bool,
        /// The client, for -K (accepted: fugue's CLI has no client of its own).
        #[arg(short = 'c', value_name = "CLIENT")]
        client: Option<String>,
        /// Print the pane's output cursor from just before the input: give it to
        /// `wait-for --text ... --after CURSOR` so output that comes before the wait
        /// starts is not missed (fugue's; tmux has no -P here).
        #[arg(short = 'P')]
        print: bool,
        /// Keys (Enter, C-c, Escape, Up, ...) and text; after the first, words that
        /// start with `-` are keys too (tmux's getopt stops at the first key), and an
        /// unknown flag before it is an error.
        #[arg(trailing_var_arg = true)]
        keys: Vec<String>,
    },
    /// Reading panes and waiting on them: capture-pane, read-pane, wait-for,
    /// run-command, search-panes.
    #[command(flatten)]
    Observe(super::observe::ObserveVerb),
    /// Show a message in the status bar of the people attached to a session, or with
    /// -p print a format (the list-panes -F variables) for a pane.
    #[command(visible_alias = "display")]
    DisplayMessage {
        /// With -p: the pane (a window or session: its active pane; default: the
        /// caller's pane). Without -p: the session whose clients see the message.
        #[arg(short = 't')]
        target: Option<String>,
        /// Print MESSAGE to standard output as a format, like `list-panes -F`.
        #[arg(short = 'p')]
        print: bool,
        /// Milliseconds the message stays on the status line (0: until a key is
        /// pressed); default the `display-time` option.
        #[arg(short = 'd', value_name = "DELAY")]
        delay: Option<u32>,
        /// The format (instead of MESSAGE).
        #[arg(short = 'F', value_name = "FORMAT")]
        format: Option<String>,
        /// Print every format variable and its value (`name=value`).
        #[arg(short = 'a')]
        all: bool,
        /// Take MESSAGE literally: not expanded.
        #[arg(short = 'l')]
        literal: bool,
        /// Say what was expanded before the result.
        #[arg(short = 'v')]
        verbose: bool,
        /// The client whose session the message is for: fugue takes the session
        /// from -t (or the latest used), so it is accepted and checks nothing.
        #[arg(short = 'c', value_name = "CLIENT")]
        client: Option<String>,
        /// tmux's -N (do not wait for a key) and -C (3.6: do not freeze the pane):
        /// fugue's messages never hold keys or the pane, so accepted, no change.
        #[arg(short = 'N')]
        no_wait: bool,
        #[arg(short = 'C')]
        keep_updating: bool,
        /// Default: tmux's `[#{session_name}] #{window_index}:#{window_name}, current
        /// pane #{pane_index} - (%H:%M %d-%b-%y)`.
        message: Option<String>,
    },
    /// Open a floating pane running a command over the window (the shell by default),
    /// drawn by the attached clients with a border; it takes the keyboard while open.
    #[command(visible_alias = "popup", disable_help_flag = true)]
    DisplayPopup(super::popup::DisplayPopupArgs),
    /// Exit 0 if the session exists, 1 if not, printing nothing
    /// (`fugue has-session -t work || fugue new -d -s work`).
    #[command(visible_alias = "has")]
    HasSession {
        #[arg(short = 't')]
        target: Option<String>,
    },
    /// Run a file of tmux commands (a tmux.conf) line by line; the client reads it.
    #[command(visible_alias = "source")]
    SourceFile {
        /// No error when the file does not exist.
        #[arg(short = 'q')]
        quiet: bool,
        /// Parse only: report errors, run nothing.
        #[arg(short = 'n')]
        parse_only: bool,
        /// Print each command before it runs.
        #[arg(short = 'v')]
        verbose: bool,
        /// Expand the paths as formats (`#{pane_current_path}/.tmux.conf`).
        #[arg(short = 'F')]
        expand: bool,
        #[arg(required = true)]
        paths: Vec<String>,
    },
    /// Run a shell command (its formats expanded) and print its output; the exit
    /// status is the command's.
    #[command(visible_alias = "run")]
    RunShell {
        /// In the background (tmux's -b; the CLI waits all the same, for the output).
        #[arg(short = 'b')]
        background: bool,
        /// Run it as a tmux command instead of a shell command.
        #[arg(short = 'C')]
        as_command: bool,
        /// The directory the shell command starts in.
        #[arg(short = 'c', value_name = "START-DIRECTORY")]
        cwd: Option<String>,
        /// Wait this many seconds first.
        #[arg(short = 'd', value_name = "SECONDS")]
        delay: Option<f64>,
        /// The pane whose formats the command sees.
        #[arg(short = 't', value_name = "TARGET")]
        target: Option<String>,
        command: String,
    },
    /// Run COMMAND if the shell command CONDITION succeeds (or, with -F, if the format
    /// is true), else ELSE.
    #[command(visible_alias = "if")]
    IfShell {
        #[arg(short = 'b')]
        background: bool,
        /// The condition is a format, not a shell command.
        #[arg(short = 'F')]
        format: bool,
        #[arg(short = 't', value_name = "TARGET")]
        target: Option<String>,
        condition: String,
        command: String,
        #[arg(value_name = "ELSE")]
        otherwise: Option<String>,
    },
    /// The MCP endpoint for agents on stdio (`claude mcp add fugue -- fugue mcp`).
    Mcp {
        /// Serve MCP over streamable HTTP at IP:PORT instead, while this runs (docs/mcp.md).
        #[arg(long, value_name = "IP:PORT")]
        http: Option<String>,
    },
    /// Agents: spawn one from a preset, message them, read their results.
    Agent {
        #[command(subcommand)]
        verb: super::agent::AgentVerb,
    },
    /// Tell fugue this pane's agent state and/or result (for agents and their hooks).
    Report(super::agent::ReportArgs),
    /// Paste buffers: set-buffer, show-buffer, save-buffer, load-buffer, list-buffers,
    /// delete-buffer, paste-buffer.
    #[command(flatten)]
    Buffer(super::buffers::BufferVerb),
    /// Options: set-option, show-options, set-window-option, show-window-options.
    #[command(flatten)]
    Option(super::options::OptionVerb),
    /// Hooks: set-hook, show-hooks.
    #[command(flatten)]
    Hook(super::hooks::HookVerb),
    /// Pane and window management: respawn-pane, respawn-window, break-pane,
    /// move-pane, last-pane, move-window, link-window.
    #[command(flatten)]
    Manage(super::manage::ManageVerb),
    /// The commands whose verb is their declaration in the command table: the entries
    /// with `clap: [aliases]`, which `fugue_protocol::DECLARED_CLI` lists.
    #[command(flatten)]
    Declared(super::declared::Declared),
    /// Locking clients' terminals: lock-server, lock-session, lock-client.
    #[command(flatten)]
    Admin(super::admin::AdminVerb),
    /// List windows.
    #[command(visible_alias = "lsw")]
    ListWindows {
        /// Every window on the server.
        #[arg(short = 'a')]
        all: bool,
        #[arg(short = 't')]
        target: Option<String>,
        /// Format, with #{window_index}-style variables.
        #[arg(short = 'F')]
        format: Option<String>,
        /// Only the windows for which this format is true (not empty, not 0).
        #[arg(short = 'f')]
        filter: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List panes.
    #[command(visible_alias = "lsp")]
    ListPanes {
        /// Every pane on the server.
        #[arg(short = 'a')]
        all: bool,
        /// Every pane of the target session.
        #[arg(short = 's')]
        session: bool,
        #[arg(short = 't')]
        target: Option<String>,
        /// Format, with #{pane_id}-style variables.
        #[arg(short = 'F')]
        format: Option<String>,
        /// Only the panes for which this format is true (not empty, not 0).
        #[arg(short = 'f')]
        filter: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
