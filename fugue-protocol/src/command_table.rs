//! The command table: one entry per command, which declares the [`Command`] variant
//! and its argument struct, its name, permission tier and summary, how each surface
//! reaches it (or why it does not), the facts the dispatcher acts on, and what it
//! targets (the audit log's target and what an agent's scope must hold). The enum, the
//! per-command matches (`each_target`, the table index, [`Command::handle`]) and
//! docs/commands.md are generated from it, so nothing per command is kept by hand
//! elsewhere. The server runs a command through [`Handle`], implemented beside each
//! handler.

use super::access::{TargetKind::*, Targets};
use super::spec::{self, CommandSpec, Exposure, Facts, Surfaces, Tier};
use super::*;

/// How the server runs one command's arguments: implemented by the server for every
/// command's argument type (beside the handler), so [`Command::handle`] is the only
/// dispatch and a command without a handler does not compile.
pub trait Handle<X> {
    type Output;
    fn handle(self, x: X) -> Self::Output;
}

/// The argument struct a braced entry declares, and the unit struct a bare entry's
/// handler is implemented on; an entry with its own type declares nothing here, but
/// with `clap:` the type (which derives `clap::Args` where it is declared) is named
/// here too, for [`DECLARED_CLI`].
macro_rules! declare_args {
    ([clap $($alias:literal)*] $(#[$meta:meta])* $variant:ident, $payload:ty) => {
        pub type $variant = $payload;
    };
    ([clap $($alias:literal)*] $(#[$meta:meta])* $variant:ident; $($fields:tt)*) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
        pub struct $variant { $($fields)* }
    };
    ([clap $($alias:literal)* from $flags:ident] $($rest:tt)*) => { declare_args!($($rest)*); };
    ([] $($rest:tt)*) => { declare_args!($($rest)*); };
    ($(#[$meta:meta])* $variant:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $variant;
    };
    ($(#[$meta:meta])* $variant:ident, $payload:ty) => {};
    ($(#[$meta:meta])* $variant:ident; $($fields:tt)*) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub struct $variant { $($fields)* }
    };
}

/// The type of a braced entry's variant (a macro, so the enum can name it only when the
/// entry has fields).
macro_rules! braced_type {
    ($t:path; $($fields:tt)*) => {
        $t
    };
}

/// An entry's argument type: its own, or the one the table declared in [`cmd`].
macro_rules! args_type {
    ($variant:ident) => {
        cmd::$variant
    };
    ($variant:ident, $payload:ty) => {
        $payload
    };
}

/// The pattern of a variant, binding its arguments (a unit variant has none).
macro_rules! variant_pattern {
    ($variant:path, $c:ident) => {
        $variant
    };
    ($variant:path, $c:ident, $($rest:tt)+) => {
        $variant($c)
    };
}

/// Runs an entry's handler: on its arguments, or on the unit struct of a bare entry.
macro_rules! call_handler {
    ($unit:path, $c:ident, $x:ident) => {
        Handle::handle($unit, $x)
    };
    ($unit:path, $c:ident, $x:ident, $($rest:tt)+) => {
        Handle::handle($c, $x)
    };
}

/// An entry's `targets:` clause run on its arguments: `[]` names nothing, `[field:
/// Kind, ...]` names those fields in order, and `{|c, t| ...}` says it in code.
macro_rules! run_targets {
    ($c:ident, $t:ident, []) => {{}};
    ($c:ident, $t:ident, [$($field:ident : $kind:ident),+]) => {{
        $($t.one(&$c.$field, $kind);)+
    }};
    ($c:ident, $t:ident, {|$uc:ident, $ut:ident| $body:expr}) => {{
        let $uc = $c;
        let $ut = $t;
        $body
    }};
}

/// A declared verb's flags and its command: the argument struct's own, or with `from
/// Flags` the flags struct below the table, whose letters do not map one to one onto
/// the arguments (`-a` that picks another command, `-U`/`-D` that become an enum), and
/// its `TryFrom<Flags> for Command`.
macro_rules! declared_verb {
    (augment $variant:ident) => {
        <cmd::$variant as clap::Args>::augment_args
    };
    (augment $variant:ident, $flags:ident) => {
        <flags::$flags as clap::Args>::augment_args
    };
    (parse $variant:ident) => {
        |m| {
            let args = <cmd::$variant as clap::FromArgMatches>::from_arg_matches(m)?;
            Ok(Command::$variant(args))
        }
    };
    (parse $variant:ident, $flags:ident) => {
        |m| {
            let f = <flags::$flags as clap::FromArgMatches>::from_arg_matches(m)?;
            Command::try_from(f).map_err(|e: String| {
                clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{e}\n"))
            })
        }
    };
}

/// The field of an entry's `targets:` list that comes first, mutably; nothing for a
/// clause said in code or an empty list.
macro_rules! first_target_mut {
    ($c:ident, [$first:ident : $kind:ident $(, $field:ident : $k:ident)*]) => {
        Some(&mut $c.$first)
    };
    ($c:ident, $other:tt) => {
        None
    };
}

/// A command whose CLI verb is its argument struct's clap declaration
/// ([`DECLARED_CLI`]): the struct a braced entry declares, or an entry's own type.
pub struct DeclaredCli {
    pub name: &'static str,
    pub summary: &'static str,
    pub aliases: &'static [&'static str],
    /// Adds the struct's flags and arguments to the verb.
    pub augment: fn(clap::Command) -> clap::Command,
    /// The command from the verb's matches.
    pub parse: fn(&clap::ArgMatches) -> Result<Command, clap::Error>,
}

/// Declares the command table: one entry per command. An entry is `Variant(Type)` for
/// a command whose arguments have a type of their own, `Variant { fields }` to declare
/// the argument struct `cmd::Variant` here, or a bare `Variant` for none. A command
/// cannot be left out of a list, listed twice, or take another's permission tier.
macro_rules! commands {
    ($(
        $(#[$meta:meta])*
        $variant:ident $(($payload:ty))? $({ $($fields:tt)* })?
            => $name:literal, $tier:ident, $summary:literal,
            cli: $cli:expr, mcp: $mcp:expr, sideband: $sb:expr, keys: $keys:expr,
            $(clap: [$($alias:literal),*] $(from $flags:ident)?,)?
            facts: [$($fact:ident),*],
            targets: $targets:tt;
    )*) => {
        /// The argument structs the table declares, named as their commands.
        pub mod cmd {
            use super::*;
            $(declare_args!([$(clap $($alias)* $(from $flags)?)?] $(#[$meta])* $variant $(, $payload)? $(; $($fields)*)?);)*
        }

        /// Every operation fugue can perform: one variant per entry of [`COMMANDS`].
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub enum Command {
            $(
                $(#[$meta])*
                $variant $(($payload))? $((braced_type!(cmd::$variant; $($fields)*)))?,
            )*
        }

        /// The commands whose CLI verb (and tmux command line) is parsed from their
        /// argument struct (`clap: [aliases]` in their entry): no verb is written for
        /// them elsewhere.
        pub const DECLARED_CLI: &[DeclaredCli] = &[$($(
            DeclaredCli {
                name: $name,
                summary: $summary,
                aliases: &[$($alias),*],
                augment: declared_verb!(augment $variant $(, $flags)?),
                parse: declared_verb!(parse $variant $(, $flags)?),
            },
        )?)*];

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

            /// Every pane, window or session the command acts on, in order, with what
            /// an agent's scope must hold of it (`dispatch/scope.rs`), as each entry's
            /// `targets:` says. A `None` target is the caller's default (its pane,
            /// window or session), which the scope judges too. This one list is both
            /// the audit log's target and the scope's: they once were two lists that
            /// disagreed.
            #[allow(unused_variables)]
            pub fn each_target<'a>(&'a self, f: &mut dyn FnMut(TargetUse<'a>)) {
                let mut targets = Targets::new(f);
                match self {
                    $(variant_pattern!(Command::$variant, c $(, $payload)? $(, $($fields)*)?) => {
                        let t = &mut targets;
                        run_targets!(c, t, $targets)
                    })*
                }
            }

            /// The target a caller's default stands in for while it is `None`: the
            /// first of the entry's `targets:` list (none when the clause is code).
            /// A client pins a command to what its person saw with it (`C-b x` asks
            /// about one pane; the answer must not act on another).
            #[allow(unused_variables)]
            pub fn first_target_mut(&mut self) -> Option<&mut Option<Target>> {
                match self {
                    $(variant_pattern!(Command::$variant, c $(, $payload)? $(, $($fields)*)?) => {
                        first_target_mut!(c, $targets)
                    })*
                }
            }

            /// Runs the command through its handler: the [`Handle`] implementation of
            /// its argument type for the caller's `X` (the server's executor).
            pub fn handle<X, O>(self, x: X) -> O
            where
                $(args_type!($variant $(, $payload)?): Handle<X, Output = O>,)*
            {
                match self {
                    $(variant_pattern!(Command::$variant, c $(, $payload)? $(, $($fields)*)?) => {
                        call_handler!(cmd::$variant, c, x $(, $payload)? $(, $($fields)*)?)
                    })*
                }
            }
        }
    };
}

use Exposure::{Absent, As, Tmux};

use spec::reasons::*;

commands! {
    NewSession(NewSession) => "new-session", Write, "create a session with one window",
        cli: As("new-session"), mcp: As("create_session"),
        sideband: Absent("a tag acts inside its own session; new sessions are for people and MCP"),
        keys: As("new-session"),
        facts: [journaled, structural, alerts],
        targets: {|c, t| if c.group.is_some() {
            // Grouping with a session shares its windows: all of them must be the caller's.
            t.one(&c.group, SessionAll)
        }};
    NewWindow(NewWindow) => "new-window", Write, "create a window in a session",
        cli: As("new-window"), mcp: As("create_window"),
        sideband: Absent("sideband tags open panes next to the agent (spawn), not windows"),
        keys: As("new-window"),
        facts: [journaled, structural, alerts],
        targets: [target: SessionAny];
    SplitPane(SplitPane) => "split-window", Write, "split a pane, starting a program in the new pane",
        cli: As("split-window"), mcp: As("create_pane"), sideband: As("spawn"),
        keys: As("split-right, split-down, split-left, split-up"),
        facts: [journaled, structural, alerts],
        targets: [target: Pane];
    KillPane {
        pub target: Option<Target>,
    } => "kill-pane", Destroy, "close a pane, ending its program",
        cli: As("kill-pane"), mcp: As("close_pane"), sideband: As("control action=close"),
        keys: As("kill-pane"), clap: ["killp"] from KillPane,
        facts: [journaled, structural, alerts],
        targets: [target: Pane];
    KillWindow {
        pub target: Option<Target>,
    } => "kill-window", Destroy, "close a window and all its panes",
        cli: As("kill-window"), mcp: Tmux,
        sideband: Absent("a tag closes single panes (control action=close), never a person's whole window"),
        keys: As("kill-window"), clap: ["killw"] from KillWindow,
        facts: [journaled, structural, alerts],
        targets: [target: WindowAll];
    KillSession {
        pub target: Option<Target>,
    } => "kill-session", Destroy, "close a session and everything in it",
        cli: As("kill-session"), mcp: As("kill_session"),
        sideband: Absent("a tag closes single panes, never a whole session"),
        keys: Absent(NO_KEY), clap: [] from KillSession,
        facts: [journaled, structural, alerts],
        targets: [target: SessionAll];
    /// `kill-session -C`: the alert flags (bell, activity, silence) of every window
    /// of the session are cleared; nothing is closed.
    ClearAlerts {
        pub target: Option<Target>,
    } => "kill-session -C", Write, "clear the alert flags of a session's windows (kill-session -C)",
        cli: As("kill-session -C"), mcp: Tmux,
        sideband: Absent("alerts are a person's; a tag has no business with them"),
        keys: Absent(NO_KEY),
        facts: [journaled],
        targets: [target: SessionAny];
    KillServer => "kill-server", Destroy, "end every session and stop the server",
        cli: As("kill-server"), mcp: Absent(PERSON_ONLY_KILL_SERVER),
        sideband: Absent(PERSON_ONLY_KILL_SERVER), keys: Absent(NO_KEY),
        clap: [] from KillServer,
        facts: [journaled, structural],
        targets: [];
    /// Bring back sessions the journal holds that are not running (`fugue restore`).
    Restore {
        /// One session by name; None: every one.
        pub name: Option<String>,
        /// Only say what can be restored.
        pub list: bool,
    } => "restore", Write, "bring back sessions a killed, crashed or rebooted server left in its journal",
        cli: As("restore"), mcp: Absent(PERSON_RESTORE), sideband: Absent(PERSON_RESTORE),
        keys: Absent(NO_KEY),
        facts: [journaled],
        targets: [];
    /// Forget sessions the journal holds that are not running (`fugue restore
    /// --discard`).
    DiscardRestorable {
        /// One session by name; None: every one.
        pub name: Option<String>,
    } => "restore -d", Destroy, "forget the sessions the journal could restore",
        cli: As("restore -d"), mcp: Absent(PERSON_RESTORE), sideband: Absent(PERSON_RESTORE),
        keys: Absent(NO_KEY),
        facts: [journaled],
        targets: [];
    /// Rename a session.
    RenameSession {
        #[arg(short = 't', value_name = "target-session")]
        pub target: Option<Target>,
        #[arg(value_name = "new-name")]
        pub name: String,
    } => "rename-session", Write, "rename a session",
        cli: As("rename-session"), mcp: Tmux,
        sideband: Absent("names are a person's way to find things; agents tag panes instead"),
        keys: As("rename-session"), clap: ["rename"],
        facts: [journaled, structural],
        targets: [target: SessionAll];
    /// Rename a window.
    RenameWindow {
        #[arg(short = 't', value_name = "target-window")]
        pub target: Option<Target>,
        #[arg(value_name = "new-name")]
        pub name: String,
    } => "rename-window", Write, "rename a window",
        cli: As("rename-window"), mcp: Tmux,
        sideband: Absent("names are a person's way to find things; agents tag panes instead"),
        keys: As("rename-window"), clap: ["renamew"],
        facts: [journaled, structural],
        targets: [target: WindowAll];
    SetPaneTitle {
        pub target: Option<Target>,
        pub title: String,
    } => "select-pane -T", Write, "set a pane's title",
        cli: As("select-pane -T"), mcp: Tmux,
        sideband: Absent("a program sets its own pane's title with OSC 0/2, as in any terminal"),
        keys: Absent(NO_KEY),
        facts: [journaled],
        targets: [target: Pane];
    SelectWindow {
        pub target: Option<Target>,
        pub select: WindowSelect,
    } => "select-window", Write, "make a window the current one",
        cli: As("select-window"), mcp: Tmux,
        sideband: Absent("a tag must not move a person's view to another window"),
        keys: As("select-window 1, next-window, previous-window, last-window"),
        clap: ["selectw"] from SelectWindow,
        facts: [journaled, structural],
        targets: [target: SessionAll];
    SelectPane {
        pub target: Option<Target>,
        pub select: PaneSelect,
        /// `-Z`: a zoomed window stays zoomed, on the pane selected.
        #[serde(default)]
        pub keep_zoom: bool,
    } => "select-pane", Write, "make a pane the active one",
        cli: As("select-pane"), mcp: Tmux, sideband: As("focus"),
        keys: As("focus left, next-pane, previous-pane, last-pane"),
        clap: ["selectp"] from SelectPane,
        facts: [journaled, structural],
        targets: [target: Pane];
    /// `select-pane -d` / `-e`: turn input to a pane off or back on. Keys, text and
    /// pastes sent to a pane whose input is off are dropped (tmux's `pane_input_off`).
    PaneInput {
        pub target: Option<Target>,
        pub enabled: bool,
    } => "select-pane -d", Write, "turn input to a pane off or back on (select-pane -d/-e)",
        cli: As("select-pane -d"), mcp: Tmux,
        sideband: Absent("a tag must not lock a person out of a pane"),
        keys: Absent(PROMPT),
        facts: [journaled],
        targets: [target: Pane];
    /// `select-pane -m` / `-M`: mark the pane (the server's one marked pane; marking
    /// the marked pane again clears it, as in tmux), or with `clear` clear the mark.
    MarkPane {
        pub target: Option<Target>,
        pub clear: bool,
    } => "select-pane -m", Write, "mark a pane, or clear the mark (select-pane -m/-M)",
        cli: As("select-pane -m"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled],
        targets: [target: Pane];
    ResizePane {
        pub target: Option<Target>,
        pub resize: Resize,
    } => "resize-pane", Write, "resize or zoom a pane",
        cli: As("resize-pane"), mcp: Tmux,
        sideband: As("control action=resize|zoom"), keys: As("resize left 1, zoom"),
        facts: [journaled, structural],
        targets: [target: Pane];
    ResizeWindow(crate::arrange::ResizeWindow) => "resize-window", Write, "give a window its own size, apart from its clients'",
        cli: As("resize-window"), mcp: Tmux, sideband: Absent(REARRANGE), keys: Absent(PROMPT),
        clap: ["resizew"] from ResizeWindow,
        facts: [journaled, structural],
        targets: [target: WindowAll];
    SelectLayout {
        pub target: Option<Target>,
        pub layout: LayoutChoice,
    } => "select-layout", Write, "arrange a window's panes in a preset layout",
        cli: As("select-layout"), mcp: Tmux,
        sideband: As("control action=layout"), keys: As("layout tiled, next-layout"),
        clap: ["selectl"] from SelectLayout,
        facts: [journaled, structural],
        targets: [target: WindowAll];
    SendInput(SendInput) => "send-keys", Write, "type text and keys into a pane",
        cli: As("send-keys"), mcp: As("send_input"), sideband: As("input"),
        keys: Absent("keys of an attached client go to its pane as input, not as a command"),
        facts: [client_activity, unlogged_from_client],
        targets: [target: Pane];
    /// tmux's `send-prefix`: the `prefix` key (`prefix2` with `secondary`) typed into
    /// the pane, as the server has it.
    SendPrefix {
        #[arg(short = 't', value_name = "target-pane")]
        pub target: Option<Target>,
        /// The second prefix key (`prefix2`).
        #[arg(short = '2')]
        pub secondary: bool,
    } => "send-prefix", Write, "type the prefix key into a pane",
        cli: As("send-prefix"), mcp: Tmux,
        sideband: Absent("a program types its own input; the prefix is a person's key"),
        keys: As("send-prefix"), clap: [],
        facts: [unlogged_from_client],
        targets: [target: Pane];
    CapturePane(CapturePane) => "capture-pane", Read, "read a pane's screen and history",
        cli: As("capture-pane"),
        mcp: Absent("read_pane reads screens and history for agents, with cursors and line ranges"),
        sideband: Absent("read (read-pane) reads screens for tags"),
        keys: Absent(NO_KEY),
        facts: [],
        targets: [target: Pane];
    /// Rows of history and screen for a client's scroll mode.
    ReadRows {
        pub target: Option<Target>,
        /// The first line: relative to the top of the screen (negative is history), or
        /// with `absolute` the line's absolute number (lines ever scrolled into
        /// history before it), which stays the same line while output moves on (copy
        /// mode's frozen view).
        pub start: i64,
        pub count: u32,
        #[serde(default)]
        pub absolute: bool,
    } => "read-rows", Read, "read rows of a pane for scrolling",
        cli: Absent(SCROLLING), mcp: Absent(SCROLLING), sideband: Absent(SCROLLING),
        keys: As("scroll-mode, scroll-page-up"),
        facts: [unlogged],
        targets: [target: Pane];
    ListSessions => "list-sessions", Read, "list sessions",
        cli: As("list-sessions"),
        mcp: Absent("list_panes lists sessions, windows and panes in one answer"),
        sideband: Absent("list (list-panes) lists sessions, windows and panes"),
        keys: Absent("C-b s (choose-tree) will, with the tree chooser"),
        facts: [],
        targets: [];
    ListPanes {
        pub target: Option<Target>,
        pub scope: PaneScope,
        /// Names a format of the listing may use that are options or environment
        /// variables (`#{@theme}`, `#{automatic-rename}`, `#{MYENV}`): each pane's
        /// values come back in its `values`, looked up as the server's formats do. At
        /// most [`crate::limits::MAX_LISTED_VALUES`] are answered.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub values: Vec<String>,
    } => "list-panes", Read, "list panes with their details",
        cli: As("list-panes"), mcp: As("list_panes"), sideband: As("list"),
        keys: Absent(NO_KEY),
        facts: [],
        targets: [target: Listed];
    /// Attach the calling client to a session (creating one when none exists and
    /// `create` is set). The connection then receives frames.
    AttachSession {
        pub target: Option<Target>,
        pub create: bool,
        /// The attaching client's environment, for `update-environment` (see
        /// [`NewSession::client_env`]).
        #[serde(default)]
        pub client_env: Option<Vec<(String, String)>>,
        /// The client's terminal (`/dev/pts/3`): its name in `list-clients`.
        #[serde(default)]
        pub tty: Option<String>,
        /// `-d` / `-x`: the session's other clients are detached, leaving this way
        /// (`-x`: their parent shells get SIGHUP); None leaves them attached.
        #[serde(default)]
        pub others: Option<crate::Leave>,
    } => "attach-session", Read, "attach a client to a session",
        cli: As("attach-session"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("next-session, previous-session"),
        facts: [structural, alerts, client_activity],
        targets: [target: SessionAll];
    /// The attached terminal clients (tmux's `list-clients`), of one session or all.
    ListClients {
        pub target: Option<Target>,
    } => "list-clients", Read, "list the attached terminal clients",
        cli: As("list-clients"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent(NO_KEY),
        clap: ["lsc"] from ListClients,
        facts: [],
        targets: [target: SessionAny];
    /// tmux's `detach-client`: `target` is `-s` (every client of that session),
    /// `client` is `-t` (by name, as `list-clients` shows it; default the calling
    /// client, else the most recently active one), `all_others` is `-a` (every client
    /// but that one).
    DetachClient {
        /// Every client attached to this session.
        #[arg(short = 's', value_name = "session")]
        pub target: Option<Target>,
        /// The client; a name no client has that names a session detaches that
        /// session's clients (fugue's older `detach -t SESSION`).
        #[arg(short = 't', value_name = "client")]
        #[serde(default)]
        pub client: Option<String>,
        /// Every client but that one.
        #[arg(short = 'a')]
        #[serde(default)]
        pub all_others: bool,
        /// Send SIGHUP to the detached clients' parent processes (their shells), so
        /// their terminals close.
        #[arg(short = 'P')]
        #[serde(default)]
        pub hangup_parent: bool,
        /// The detached clients are replaced by this shell command.
        #[arg(short = 'E', value_name = "shell-command")]
        #[serde(default)]
        pub exec: Option<String>,
    } => "detach-client", Write, "detach clients from a session",
        cli: As("detach-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("detach"), clap: ["detach"],
        facts: [journaled],
        targets: [target: SessionAll];
    ReadPane(ReadPane) => "read-pane", Read, "read a pane's screen, history, or what arrived since a cursor",
        cli: As("read-pane"), mcp: As("read_pane"), sideband: As("read"),
        keys: Absent("a person reads the screen"),
        facts: [],
        targets: {|c, t| {
            let cursor = match &c.source {
                crate::observe::ReadSource::Since(s) => Some(s.as_str()),
                _ => None,
            };
            t.cursor(c.target.as_ref(), Pane, cursor)
        }};
    WaitFor(WaitFor) => "wait-for", Read, "wait for output, quiet, or the end of a pane's program",
        cli: As("wait-for"), mcp: As("wait_for"), sideband: Absent(NO_ANSWER),
        keys: Absent("a person waits by watching"),
        facts: [],
        targets: {|c, t| {
            let cursor = match &c.condition {
                crate::observe::WaitCondition::Text { after, .. } => after.as_deref(),
                _ => None,
            };
            t.cursor(c.target.as_ref(), Pane, cursor)
        }};
    RunCommand(RunCommand) => "run-command", Write, "run a shell command to completion and return its output",
        cli: As("run-command"), mcp: As("run_command"), sideband: Absent(NO_ANSWER),
        keys: Absent("a person runs commands in a pane"),
        facts: [journaled, structural, alerts],
        targets: {|c, t| for p in [&c.pane, &c.split_from] {
            if p.is_some() {
                t.one(p, Pane)
            }
        }};
    SearchPanes(SearchPanes) => "search-panes", Read, "search screens and history of panes with a regex",
        cli: As("search-panes"), mcp: As("search_panes"), sideband: Absent(NO_ANSWER),
        keys: As("scroll-mode"),
        facts: [],
        targets: {|c, t| for p in &c.targets { t.some(p, Pane) }};
    /// Show a message in the status bar of the clients attached to a session.
    DisplayMessage {
        pub target: Option<Target>,
        pub text: String,
        /// `-d`: milliseconds the message stays (0: until a key); default the
        /// `display-time` option.
        #[serde(default)]
        pub delay_ms: Option<u32>,
    } => "display-message", Write, "show a message in the status bar of a session's clients",
        cli: As("display-message"), mcp: As("notify"), sideband: As("notify"),
        keys: Absent(NO_KEY),
        facts: [],
        targets: [target: SessionAny];
    /// `display-message -p`: `text` expanded in the target pane's scope by the server,
    /// which sees the whole tree and the options (`#{window_panes}`, `#{@user}`),
    /// answered as `Captured` text with a newline.
    FormatText {
        pub target: Option<Target>,
        pub text: String,
        /// tmux's `-l`, `-a` and `-v`.
        #[serde(default)]
        pub mode: crate::format::FormatMode,
    } => "format-text", Read, "expand a format in a pane's scope (display-message -p)",
        cli: As("display-message -p"), mcp: Tmux,
        sideband: Absent("tags print nothing back to their program; read_pane reads what is shown"),
        keys: Absent(NO_KEY),
        facts: [],
        targets: [target: Pane];
    /// Open a pane running an agent preset and give it a task.
    SpawnAgent(SpawnAgent) => "spawn-agent", Write, "open a pane running an agent preset and give it a task",
        cli: As("agent spawn"), mcp: As("spawn_agent"), sideband: As("spawn agent=PRESET"),
        keys: Absent("a person starts agents from the CLI or a shell in a pane"),
        facts: [journaled, structural, alerts],
        targets: {|c, t| {
            match &c.placement {
                crate::agent::Placement::Split { target: Some(p), .. } => t.some(p, Pane),
                crate::agent::Placement::Window { session: Some(s) } => t.some(s, SessionAny),
                _ => {}
            }
            for p in &c.depends_on {
                t.some(p, Pane)
            }
        }};
    /// Type a message into agent panes once they are idle and no person is typing.
    SendMessage(SendMessage) => "send-message", Write, "type a message into agent panes when they are idle",
        cli: As("agent message"), mcp: As("send_message"), sideband: As("message"),
        keys: Absent("a person types into the agent's pane"),
        facts: [journaled],
        targets: {|c, t| if let crate::agent::MessageTo::Pane(p) = &c.to { t.some(p, Pane) }};
    /// What an agent reported as its result.
    GetResult {
        pub target: Option<Target>,
    } => "get-result", Read, "read the result an agent reported",
        cli: As("agent result"), mcp: As("get_result"), sideband: As("result"),
        keys: Absent("a person reads the agent's pane"),
        facts: [],
        targets: [target: Pane];
    /// Keep, merge or remove the git worktree an agent was started in.
    AgentWorktree(AgentWorktree) => "agent-worktree", Write, "keep, merge or remove an agent's git worktree",
        cli: As("agent worktree"), mcp: As("finish_worktree"),
        sideband: Absent("whoever reviews an agent's work finishes its worktree, over MCP or the CLI, not a tag in a pane"),
        keys: Absent("a person finishes worktrees with `fugue agent worktree`"),
        facts: [journaled],
        targets: [target: Pane];
    /// An agent tells fugue its state and/or its result.
    Report(Report) => "report", Write, "report an agent's state or result",
        cli: As("report"), mcp: As("report"), sideband: As("report"),
        keys: Absent("reports come from the agent itself"),
        facts: [journaled],
        targets: [target: Pane];
    /// Redraw clients from scratch (tmux's `refresh-client`): the calling client with
    /// no target, else every client attached to the target's session.
    RefreshClient {
        /// The session whose clients redraw.
        pub target: Option<Target>,
    } => "refresh-client", Read, "redraw attached clients from scratch",
        cli: As("refresh-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("refresh-client"), clap: ["refresh"] from RefreshClient,
        facts: [],
        targets: [target: SessionAny];
    /// The calling attached client's terminal changed size (tmux's
    /// `refresh-client -C WxH`): its session's windows follow the clients' sizes.
    ResizeClient {
        pub cols: u16,
        pub rows: u16,
    } => "refresh-client -C", Write, "set the size of the attached client that sends it",
        cli: Absent("a CLI call has no terminal of its own; size detached sessions with new-session -x/-y"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client whenever its terminal changes size, not bound to a key"),
        facts: [journaled, structural, client_activity, unlogged],
        targets: [];
    /// Tags an agent gives its pane without printing them: Claude Code runs its tools
    /// and hooks with no terminal (`/dev/tty` fails there) and folds their output
    /// away. The tags go where the pane's printed tags go, with the same key check,
    /// limits, policy and results. `-` reads them from standard input, for agents that
    /// refuse command substitution in their shell tool (Gemini CLI).
    SidebandTags {
        /// The pane the tags are from; default the caller's.
        #[arg(short = 't', value_name = "target-pane")]
        pub target: Option<Target>,
        /// The tags, each with the pane's key, as the program would print them; `-`
        /// reads them from standard input.
        #[arg(value_name = "tags")]
        pub text: String,
    } => "sideband", Write, "run sideband tags as the pane's own, from a process with no terminal",
        cli: As("sideband"),
        mcp: Absent("an MCP client has a tool for what each tag does; it needs no tags"),
        sideband: Absent("it is the way in for tags that cannot be printed"),
        keys: Absent("a person types commands, not an agent's tags"),
        clap: [],
        facts: [],
        targets: [target: Pane];
    /// An agent in the calling pane connected over MCP (or its last connection went).
    /// In the sideband's `auto` mode such a pane is not scanned for tags; sent by the
    /// MCP surface itself, so the switch is audited like any change.
    SidebandMcp {
        pub connected: bool,
    } => "sideband-mcp", Write, "mark the calling pane's agent as connected over MCP (sideband auto mode)",
        cli: Absent(MCP_CONNECTION), mcp: Absent(MCP_CONNECTION), sideband: Absent(MCP_CONNECTION),
        keys: Absent(MCP_CONNECTION),
        facts: [journaled, unlogged],
        targets: [];
    /// The calling attached client's terminal gained or lost focus: the focused pane
    /// of its session hears of it, if its program asked (mode 1004).
    ClientFocus {
        pub focused: bool,
    } => "client-focus", Write, "tell the server the attached client's terminal gained or lost focus",
        cli: Absent("a CLI call has no terminal of its own"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client when its terminal gains or loses focus, not bound to a key"),
        facts: [unlogged],
        targets: [];
    /// The foreground and background colours the calling attached client's terminal
    /// answered (OSC 10/11, 16 bits per component): what panes' programs read when
    /// they ask (docs/terminal.md).
    ClientColors {
        pub fg: Option<[u16; 3]>,
        pub bg: Option<[u16; 3]>,
    } => "client-colors", Write, "tell the server the colours the attached client's terminal answered",
        cli: Absent("a CLI call has no terminal of its own"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client when its terminal answers its colour queries, not bound to a key"),
        facts: [unlogged],
        targets: [];
    /// The pane mode the calling attached client shows (`copy-mode`, `tree-mode`,
    /// `clock-mode`, ...), or none: `#{pane_in_mode}` and `#{pane_mode}` report it, as
    /// tmux's modes are the pane's whoever looks.
    ClientMode {
        pub pane: Option<PaneId>,
        pub mode: Option<String>,
    } => "client-mode", Write, "tell the server which pane mode the attached client shows",
        cli: Absent("a CLI call shows no mode of its own"),
        mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("sent by the attached client as it enters or leaves a mode, not bound to a key"),
        facts: [unlogged],
        targets: [];
    /// Fill, append to or rename a paste buffer.
    SetBuffer(SetBuffer) => "set-buffer", Write, "fill, append to or rename a paste buffer (text, or a region of a pane)",
        cli: As("set-buffer"), mcp: Tmux, sideband: As("buffer"),
        keys: Absent("copy mode sends it with the selection; no key runs it alone"),
        clap: ["setb"] from SetBuffer,
        facts: [journaled],
        targets: {|c, t| if let Some(crate::buffers::BufferData::Pane(p)) = &c.data { t.one(&p.target, Pane) }};
    /// A buffer's content (`-b`; default the most recent).
    ShowBuffer {
        #[arg(short = 'b', value_name = "buffer")]
        pub name: Option<String>,
    } => "show-buffer", Read, "read a paste buffer",
        cli: As("show-buffer"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent("C-b = (choose-buffer) previews buffers"), clap: ["showb"],
        facts: [],
        targets: [];
    /// Every buffer, most recent first.
    ListBuffers => "list-buffers", Read, "list paste buffers, most recent first",
        cli: As("list-buffers"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: As("list-buffers, choose-buffer"),
        facts: [],
        targets: [];
    /// Delete a buffer (`-b`; default the most recent).
    DeleteBuffer {
        #[arg(short = 'b', value_name = "buffer")]
        pub name: Option<String>,
    } => "delete-buffer", Write, "delete a paste buffer",
        cli: As("delete-buffer"), mcp: Tmux,
        sideband: As("buffer action=delete"), keys: As("choose-buffer"), clap: ["deleteb"],
        facts: [journaled],
        targets: [];
    /// Set, append to or unset an option (tmux's `set-option`).
    SetOption(crate::options::SetOption) => "set-option", Write, "set, append to or unset a server, session, window or pane option",
        cli: As("set-option"), mcp: Tmux,
        sideband: Absent("options are a person's settings (the prefix, the mouse, the status bar): a tag must not change them under the person"),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled, alerts, runtime],
        targets: [target: SessionAny];
    /// Options and their values (tmux's `show-options`).
    ShowOptions(crate::options::ShowOptions) => "show-options", Read, "show options and their values",
        cli: As("show-options"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent("the command prompt (C-b :) runs it"),
        facts: [],
        targets: [target: SessionAny];
    /// Type a buffer into a pane.
    PasteBuffer(PasteBuffer) => "paste-buffer", Write, "type a paste buffer into a pane",
        cli: As("paste-buffer"), mcp: Tmux, sideband: As("paste"),
        keys: As("paste-buffer"), clap: ["pasteb"] from PasteBuffer,
        facts: [journaled],
        targets: [target: Pane];
    /// Bind a key of a table to a command sequence (tmux's `bind-key`).
    BindKey(crate::key_tables::Binding) => "bind-key", Write, "bind a key of a key table to a command sequence",
        cli: As("bind-key"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: Absent(NO_KEY), clap: ["bind"] from BindKey,
        facts: [journaled, runtime],
        targets: [];
    /// Remove bindings (tmux's `unbind-key`): one key of a table, or with `all` every
    /// key of the table (default `prefix`). `quiet` makes an unbound key no error.
    UnbindKey {
        pub table: String,
        pub key: Option<Key>,
        pub all: bool,
        pub quiet: bool,
    } => "unbind-key", Write, "remove key bindings",
        cli: As("unbind-key"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: Absent(NO_KEY), clap: ["unbind"] from UnbindKey,
        facts: [journaled, runtime],
        targets: [];
    /// The bindings as tmux's `list-keys` prints them (`notes`: `-N`).
    ListKeys {
        /// One key table.
        #[arg(short = 'T', value_name = "table")]
        pub table: Option<String>,
        /// The bindings' notes.
        #[arg(short = 'N')]
        pub notes: bool,
        /// With -N, keys without a note too (their command stands for the note).
        #[arg(short = 'a')]
        #[serde(default)]
        pub all: bool,
        /// With -N, this before each prefix key instead of the prefix (`C-b `).
        #[arg(short = 'P', value_name = "prefix-string")]
        #[serde(default)]
        pub prefix: Option<String>,
        /// Only the first line; run from an attached client, it is shown as a
        /// message on the client's status line instead, as tmux's.
        #[arg(short = '1')]
        #[serde(default)]
        pub first: bool,
        /// Only this key's binding (`list-keys [-T table] key`), unpadded as tmux
        /// prints one.
        #[arg(value_name = "key")]
        #[serde(default)]
        pub key: Option<crate::keys::Key>,
    } => "list-keys", Read, "list the key bindings as tmux prints them",
        cli: As("list-keys"), mcp: Absent(PERSON_KEYS), sideband: Absent(PERSON_KEYS),
        keys: As("list-keys"), clap: ["lsk"],
        facts: [],
        targets: [];
    /// Set, add to, unset or run a hook (tmux's `set-hook`).
    SetHook(crate::hooks::SetHook) => "set-hook", Write, "set, add to, unset or run the command sequence an event runs",
        cli: As("set-hook"), mcp: Absent(PERSON_HOOKS), sideband: Absent(PERSON_HOOKS),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled],
        targets: [target: SessionAny];
    /// Hooks and their commands (tmux's `show-hooks`).
    ShowHooks(crate::hooks::ShowHooks) => "show-hooks", Read, "show hooks and their commands as tmux prints them",
        cli: As("show-hooks"), mcp: Absent(PERSON_HOOKS), sideband: Absent(PERSON_HOOKS),
        keys: Absent("the command prompt (C-b :) runs it"),
        facts: [],
        targets: [target: SessionAny];
    /// Ask the attached clients' person y/n before running a command (tmux's
    /// `confirm-before`, from the CLI; keys and `C-b :` ask in the client itself).
    ConfirmBefore(crate::popup::ClientCommandLine) => "confirm-before", Write, "ask the attached person y/n, then run a command",
        cli: As("confirm-before"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("kill-pane, kill-window"),
        clap: ["confirm"] from ConfirmBefore,
        facts: [journaled],
        targets: [target: SessionAny];
    /// tmux's `command-prompt` from the CLI: a client asks and runs the filled-in
    /// template.
    CommandPrompt(crate::popup::ClientCommandLine) => "command-prompt", Write, "ask on a client's status line, then run a command line with the answers",
        cli: As("command-prompt"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("command-prompt, rename-window, rename-session"),
        clap: [] from CommandPrompt,
        facts: [journaled],
        targets: [target: SessionAny];
    /// tmux's `send-keys -K [-c client] KEY...`: keys as if typed at that client.
    ClientKeys {
        pub client: Option<String>,
        pub keys: Vec<String>,
    } => "send-keys -K", Write, "press keys at an attached client, as if its person typed them",
        cli: As("send-keys -K"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("a person's keys are the client's own already"),
        facts: [journaled],
        targets: [];
    /// Show a menu in the attached clients (tmux's `display-menu`, from the CLI).
    DisplayMenu(crate::popup::ClientCommandLine) => "display-menu", Write, "show a menu of commands in the attached clients",
        cli: As("display-menu"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        clap: ["menu"] from DisplayMenu,
        facts: [journaled],
        targets: [target: SessionAny];
    /// Open (or with `close` close) a floating pane over a session's window.
    DisplayPopup(crate::popup::DisplayPopup) => "display-popup", Write, "open a floating pane running a command over a window",
        cli: As("display-popup"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("the command prompt (C-b :) and bindings to command lines run it"),
        facts: [journaled],
        targets: [target: SessionAny];
    /// `switch-client` from the CLI: the command line goes to the clients attached to
    /// the caller's session (tmux's current client), which move.
    SwitchClient(crate::popup::ClientCommandLine) => "switch-client", Write, "move the attached clients of the current session to another session, window or pane",
        cli: As("switch-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: Absent("bindings run `switch-client` lines in the client itself (`C-b (`, `C-b )`, `C-b L`)"),
        clap: ["switchc"] from SwitchClient,
        facts: [journaled],
        targets: [target: SessionAny];
    /// Number the panes in the attached clients (tmux's `display-panes`, from the CLI).
    DisplayPanes(crate::popup::ClientCommandLine) => "display-panes", Write, "number the panes in the attached clients; a digit runs a command on that pane",
        cli: As("display-panes"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("display-panes"),
        clap: ["displayp"] from DisplayPanes,
        facts: [journaled],
        targets: [target: SessionAny];
    /// The session/window/pane chooser in the attached clients (tmux's `choose-tree`,
    /// from the CLI).
    ChooseTree(crate::popup::ClientCommandLine) => "choose-tree", Write, "choose a session, window or pane from a tree in the attached clients",
        cli: As("choose-tree"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-session, choose-window"),
        clap: [] from ChooseTree,
        facts: [journaled],
        targets: [target: SessionAny];
    /// Copy mode on a pane in the clients showing it (tmux's `copy-mode` from the
    /// CLI); kept on the pane for the next client when none is attached.
    CopyMode(crate::popup::ClientCommandLine) => "copy-mode", Write, "enter copy mode on a pane in the clients showing it (kept for the next client when none is attached)",
        cli: As("copy-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("scroll-mode, scroll-page-up"),
        clap: [] from CopyMode,
        facts: [journaled],
        targets: [target: SessionAny];
    /// A big clock over a pane in the clients showing it (tmux's `clock-mode`).
    ClockMode(crate::popup::ClientCommandLine) => "clock-mode", Write, "show a big clock over a pane in the clients showing it (kept for the next client when none is attached)",
        cli: As("clock-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("clock-mode"),
        clap: [] from ClockMode,
        facts: [journaled],
        targets: [target: SessionAny];
    /// A copy-mode command (tmux's `send-keys -X NAME`) for the copy mode a pane is
    /// in: run by the client showing it, `cancel` leaves one the pane keeps.
    CopyModeCommand {
        /// The pane in copy mode.
        pub target: Option<Target>,
        /// `-c`: the client whose copy mode runs it.
        #[serde(default)]
        pub client: Option<String>,
        /// The copy-mode command and its arguments.
        pub argv: Vec<String>,
    } => "send-keys -X", Write, "run a copy-mode command (cancel, begin-selection, ...) in the copy mode a pane is in",
        cli: As("send-keys"), mcp: Tmux, sideband: Absent(CLIENT_ONLY),
        keys: Absent("bound in the copy-mode tables as send-keys -X NAME"),
        facts: [journaled],
        targets: [target: Pane];
    /// The options and key bindings editor in the clients showing a pane (tmux's
    /// `customize-mode`).
    CustomizeMode(crate::popup::ClientCommandLine) => "customize-mode", Write, "browse and change options and key bindings in the clients showing a pane (kept for the next client when none is attached)",
        cli: As("customize-mode"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("customize-mode"),
        clap: [] from CustomizeMode,
        facts: [journaled],
        targets: [target: SessionAny];
    /// The client chooser in the attached clients (tmux's `choose-client`).
    ChooseClient(crate::popup::ClientCommandLine) => "choose-client", Write, "choose an attached client to detach (or run a command on) in the attached clients",
        cli: As("choose-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-client"),
        clap: [] from ChooseClient,
        facts: [journaled],
        targets: [target: SessionAny];
    /// The buffer chooser in the attached clients (tmux's `choose-buffer`).
    ChooseBuffer(crate::popup::ClientCommandLine) => "choose-buffer", Write, "choose a paste buffer to paste or delete in the attached clients",
        cli: As("choose-buffer"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("choose-buffer"),
        clap: [] from ChooseBuffer,
        facts: [journaled],
        targets: [target: SessionAny];
    /// The chooser of the windows matching a string (tmux's `find-window`, from the
    /// CLI).
    FindWindow(crate::popup::ClientCommandLine) => "find-window", Write, "choose from the windows whose name, title or content match",
        cli: As("find-window"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("find-window"),
        clap: ["findw"] from FindWindow,
        facts: [journaled],
        targets: [target: SessionAny];
    /// `kill-pane -a`: every pane of the target's window but the target.
    KillOtherPanes {
        pub target: Option<Target>,
    } => "kill-pane -a", Destroy, "close every pane of a window but one",
        cli: As("kill-pane -a"), mcp: Absent(ONE_PANE), sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts],
        targets: [target: WindowAll];
    /// `kill-window -a`: every window of the target's session but the target.
    KillOtherWindows {
        pub target: Option<Target>,
    } => "kill-window -a", Destroy, "close every window of a session but one",
        cli: As("kill-window -a"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts],
        targets: [target: SessionAll];
    /// `kill-session -a`: every session but the target.
    KillOtherSessions {
        pub target: Option<Target>,
    } => "kill-session -a", Destroy, "close every session but one",
        cli: As("kill-session -a"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts],
        targets: [target: SessionAll];
    Respawn(crate::manage::Respawn) => "respawn-pane", Destroy, "start a pane's program again (respawn-pane, respawn-window)",
        cli: As("respawn-pane"), mcp: Tmux, sideband: Absent(ONE_PANE),
        keys: Absent(NO_KEY),
        facts: [journaled, structural, alerts],
        targets: {|c, t| t.one(&c.target, if c.window { WindowAll } else { Pane })};
    /// `swap-pane`
    SwapPane {
        /// `-t`: the destination pane.
        pub target: Option<Target>,
        pub source: crate::manage::SwapSource,
        /// `-d`: the active pane stays where it was instead of following the swap.
        pub detached: bool,
    } => "swap-pane", Write, "swap two panes, or a pane with its neighbour",
        cli: As("swap-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["swapp"] from SwapPane,
        facts: [journaled, structural, alerts],
        targets: {|c, t| {
            t.one(&c.target, Pane);
            if let crate::manage::SwapSource::Pane(s) = &c.source {
                t.some(s, Pane)
            }
        }};
    /// `rotate-window`
    RotateWindow {
        pub target: Option<Target>,
        /// `-D`: panes move down/right (the last becomes the first); default `-U`.
        pub down: bool,
    } => "rotate-window", Write, "move every pane of a window one place on",
        cli: As("rotate-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["rotatew"] from RotateWindow,
        facts: [journaled, structural],
        targets: [target: WindowAll];
    /// `break-pane`: a pane leaves its window for a new window of its own.
    BreakPane {
        /// `-s`: the pane (default the current one).
        pub source: Option<Target>,
        /// `-t`: the session, or `session:index` for the new window's index.
        pub target: Option<Target>,
        /// `-n`: the new window's name.
        pub name: Option<String>,
        /// `-d`: do not make the new window current.
        pub detached: bool,
        /// `-a` / `-b`: the new window goes after (before) the target window, moving
        /// later windows up, as `new-window -a/-b`.
        #[serde(default)]
        pub place: crate::manage::WindowPlace,
    } => "break-pane", Write, "move a pane out into a window of its own",
        cli: As("break-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts],
        targets: [source: Pane, target: SessionAny];
    JoinPane(crate::manage::JoinPane) => "join-pane", Write, "move a pane into another window, splitting a pane there",
        cli: As("join-pane"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["joinp"] from JoinPane,
        facts: [journaled, structural, alerts],
        targets: [source: Pane, target: Pane];
    /// Drop a pane's history (its screen stays).
    ClearHistory {
        /// The pane; default the caller's.
        #[arg(short = 't', value_name = "target-pane")]
        pub target: Option<Target>,
        /// Also forget the pane's hyperlinks (tmux 3.4). fugue keeps a hyperlink only
        /// in the cells that show it, so the history takes its own with it.
        #[arg(short = 'H')]
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub hyperlinks: bool,
    } => "clear-history", Write, "drop a pane's history",
        cli: As("clear-history"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["clearhist"],
        facts: [journaled],
        targets: [target: Pane];
    /// `pipe-pane`: the pane's output to a shell command's input (`output`, tmux's
    /// `-O`, the default) and/or its output typed into the pane (`input`, `-I`); no
    /// command closes the pane's pipe; `toggle` (`-o`) opens one only if there is
    /// none, else closes it.
    PipePane {
        pub target: Option<Target>,
        pub command: Option<String>,
        pub input: bool,
        pub output: bool,
        pub toggle: bool,
    } => "pipe-pane", Write, "pipe a pane's output to a shell command (and its output into the pane)",
        cli: As("pipe-pane"), mcp: Tmux,
        sideband: Absent("a program already has its own output; a tag's command would outlive the tag's checks"),
        keys: Absent(PROMPT), clap: ["pipep"] from PipePane,
        facts: [journaled],
        targets: [target: Pane];
    MoveWindow(crate::manage::MoveWindow) => "move-window", Write, "move a window to another index or session, or renumber a session's windows; link it into another too (link-window)",
        cli: As("move-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT),
        facts: [journaled, structural, alerts],
        targets: {|c, t| if c.renumber {
            t.one(&c.target, SessionAll)
        } else {
            t.one(&c.source, WindowAll);
            t.one(&c.target, SessionAll)
        }};
    /// `unlink-window`: take a window out of a session (`kill`: `-k`, killing it when
    /// that was its last link).
    UnlinkWindow {
        #[arg(short = 't', value_name = "target-window")]
        pub target: Option<Target>,
        /// Kill the window if no other session has it.
        #[arg(short = 'k')]
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub kill: bool,
    } => "unlink-window", Destroy, "take a window out of a session (killing it with -k if no other session has it)",
        cli: As("unlink-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["unlinkw"],
        facts: [journaled, structural, alerts],
        targets: [target: WindowAll];
    SwapWindow(crate::manage::SwapWindow) => "swap-window", Write, "swap two windows' places",
        cli: As("swap-window"), mcp: Tmux, sideband: Absent(REARRANGE),
        keys: Absent(PROMPT), clap: ["swapw"],
        facts: [journaled, structural],
        targets: [source: WindowAll, target: WindowAll];
    SetEnvironment(crate::manage::SetEnvironment) => "set-environment", Write, "set, unset or remove a variable of the global or a session's environment for new programs",
        cli: As("set-environment"), mcp: Tmux,
        sideband: Absent("the environment is a person's setting for new programs: a tag must not change it"),
        keys: Absent(PROMPT), clap: ["setenv"],
        facts: [journaled],
        targets: {|c, t| if !c.global { t.one(&c.target, SessionAny) }};
    ShowEnvironment(crate::manage::ShowEnvironment) => "show-environment", Read, "show the global or a session's environment",
        cli: As("show-environment"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent(PROMPT), clap: ["showenv"],
        facts: [],
        targets: {|c, t| if !c.global { t.one(&c.target, SessionAny) }};
    /// tmux's `wait-for [-S|-L|-U] CHANNEL`.
    WaitChannel {
        pub channel: String,
        pub op: crate::manage::ChannelOp,
    } => "wait-for -S", Read, "wait for, signal, lock or unlock a tmux wait-for channel",
        cli: As("wait-for -S"),
        mcp: Absent("channels order shell scripts; agents wait on panes with wait_for"),
        sideband: Absent(NO_ANSWER), keys: Absent(PROMPT),
        facts: [],
        targets: [];
    Lock(crate::admin::LockScope) => "lock-server", Write, "lock attached terminals with lock-command (lock-server, lock-session, lock-client)",
        cli: As("lock-server"), mcp: Absent(CLIENT_ONLY),
        sideband: Absent(CLIENT_ONLY), keys: Absent(PROMPT),
        facts: [journaled],
        targets: {|c, t| if let crate::admin::LockScope::Session(s) = c { t.one(s, SessionAll) }};
    /// tmux's `suspend-client [-t client]`: the client stops (SIGTSTP) until `fg`.
    SuspendClient {
        /// The client, by its name in `list-clients`; default the calling one.
        #[arg(short = 't', value_name = "target-client")]
        pub client: Option<String>,
    } => "suspend-client", Write, "stop an attached client until its shell continues it",
        cli: As("suspend-client"), mcp: Absent(CLIENT_ONLY), sideband: Absent(CLIENT_ONLY),
        keys: As("suspend-client"), clap: ["suspendc"],
        facts: [journaled],
        targets: [];
    ServerAccess(crate::admin::ServerAccess) => "server-access", Write, "list who may connect to the server (only its owner)",
        cli: As("server-access"), mcp: Tmux,
        sideband: Absent("who may connect is the owner's call, never a program's"),
        keys: Absent(PROMPT), clap: [] from ServerAccess,
        facts: [journaled],
        targets: [];
    ShowMessages(crate::admin::ShowMessages) => "show-messages", Read, "show the server's log of commands and messages",
        cli: As("show-messages"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: As("show-messages"), clap: ["showmsgs"],
        facts: [],
        targets: [];
    /// `show-prompt-history [-T type]`: every type's history without one.
    ShowPromptHistory {
        /// One prompt type: command, search, target or window-target.
        #[arg(short = 'T', value_name = "type")]
        pub kind: Option<crate::admin::PromptType>,
    } => "show-prompt-history", Read, "show the command prompt's history",
        cli: As("show-prompt-history"), mcp: Tmux, sideband: Absent(NO_ANSWER),
        keys: Absent(PROMPT), clap: ["showphist"],
        facts: [unlogged_from_client],
        targets: [];
    /// `clear-prompt-history [-T type]`: every type's without one.
    ClearPromptHistory {
        /// One prompt type: command, search, target or window-target.
        #[arg(short = 'T', value_name = "type")]
        pub kind: Option<crate::admin::PromptType>,
    } => "clear-prompt-history", Write, "clear the command prompt's history",
        cli: As("clear-prompt-history"), mcp: Tmux,
        sideband: Absent("the prompt's history is a person's record"), keys: Absent(PROMPT),
        clap: ["clearphist"],
        facts: [journaled],
        targets: [];
    /// A line entered at an attached client's prompt, for the server's history.
    PromptEntered {
        pub kind: crate::admin::PromptType,
        pub line: String,
    } => "prompt-entered", Write, "record a line entered at a client's prompt",
        cli: Absent(PROMPT_ENTRY), mcp: Absent(PROMPT_ENTRY), sideband: Absent(PROMPT_ENTRY),
        keys: As("command-prompt"),
        facts: [journaled, unlogged],
        targets: [];
}

/// The flags of the declared verbs whose tmux letters do not map one to one onto
/// their arguments (`clap: [...] from Flags` in an entry), each with the command it
/// makes. A flag tmux takes and fugue has no use for is still taken, for the configs
/// and scripts that give it. `move-pane`, join-pane under another name, takes
/// [`flags::JoinPane`] too, and `last-pane`, select-pane's `-l` under its own name,
/// takes [`flags::LastPane`].
pub mod flags {
    use super::*;
    use crate::popup::ClientCommandLine;

    /// `kill-pane [-a] [-t target]`: `-a` closes every other pane of its window.
    #[derive(clap::Args)]
    pub struct KillPane {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Every pane of the window but this one.
        #[arg(short = 'a')]
        others: bool,
    }

    impl TryFrom<KillPane> for Command {
        type Error = String;
        fn try_from(f: KillPane) -> Result<Command, String> {
            let target = f.target;
            Ok(match f.others {
                true => Command::KillOtherPanes(cmd::KillOtherPanes { target }),
                false => Command::KillPane(cmd::KillPane { target }),
            })
        }
    }

    /// `kill-window [-a] [-t target]`: `-a` closes every other window of its session.
    #[derive(clap::Args)]
    pub struct KillWindow {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Every window of the session but this one.
        #[arg(short = 'a')]
        others: bool,
    }

    impl TryFrom<KillWindow> for Command {
        type Error = String;
        fn try_from(f: KillWindow) -> Result<Command, String> {
            let target = f.target;
            Ok(match f.others {
                true => Command::KillOtherWindows(cmd::KillOtherWindows { target }),
                false => Command::KillWindow(cmd::KillWindow { target }),
            })
        }
    }

    /// `kill-server`: no flags. A flags struct because the entry has no arguments of
    /// its own for clap to read.
    #[derive(clap::Args)]
    pub struct KillServer {}

    impl TryFrom<KillServer> for Command {
        type Error = String;
        fn try_from(_: KillServer) -> Result<Command, String> {
            Ok(Command::KillServer)
        }
    }

    /// `list-clients [-F format] [-f filter] [-t target-session]`: the format and the
    /// filter are the printer's (the caller renders the answer), so the command leaves
    /// them out and fugue-verbs reads them back from these flags.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct ListClients {
        /// The format of each client's line.
        #[arg(short = 'F', value_name = "format")]
        pub format: Option<String>,
        /// Only the clients for which this format is true (not empty, not 0).
        #[arg(short = 'f', value_name = "filter")]
        pub filter: Option<String>,
        /// Only the clients of this session.
        #[arg(short = 't', value_name = "target-session")]
        pub target: Option<Target>,
    }

    impl TryFrom<ListClients> for Command {
        type Error = String;
        fn try_from(f: ListClients) -> Result<Command, String> {
            Ok(Command::ListClients(cmd::ListClients { target: f.target }))
        }
    }

    /// `kill-session [-aC] [-t target]`: `-a` closes every other session, `-C` closes
    /// nothing and clears the session's alerts.
    #[derive(clap::Args)]
    pub struct KillSession {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Every session but this one.
        #[arg(short = 'a')]
        others: bool,
        /// Clear the alert flags of the session's windows instead (nothing closes).
        #[arg(short = 'C')]
        clear_alerts: bool,
    }

    impl TryFrom<KillSession> for Command {
        type Error = String;
        fn try_from(f: KillSession) -> Result<Command, String> {
            let target = f.target;
            // tmux's order: -C returns before anything is killed.
            if f.clear_alerts {
                return Ok(Command::ClearAlerts(cmd::ClearAlerts { target }));
            }
            Ok(match f.others {
                true => Command::KillOtherSessions(cmd::KillOtherSessions { target }),
                false => Command::KillSession(cmd::KillSession { target }),
            })
        }
    }

    /// `rotate-window [-DUZ] [-t target]`: `-U` (the default) or `-D`; `-Z` (keep the
    /// window zoomed) is taken and fugue unzooms.
    #[derive(clap::Args)]
    pub struct RotateWindow {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Panes move down/right (the last becomes the first).
        #[arg(short = 'D', conflicts_with = "up")]
        down: bool,
        /// Panes move up/left (the default).
        #[arg(short = 'U')]
        up: bool,
        #[arg(short = 'Z')]
        zoom: bool,
    }

    impl TryFrom<RotateWindow> for Command {
        type Error = String;
        fn try_from(f: RotateWindow) -> Result<Command, String> {
            let _ = (f.up, f.zoom);
            Ok(Command::RotateWindow(cmd::RotateWindow {
                target: f.target,
                down: f.down,
            }))
        }
    }

    /// `select-layout [-Enp] [-t target] [layout]`: `-n`, `-p`, `-E` and the layout
    /// are one choice, `-E` first, then `-p`, then `-n`.
    #[derive(clap::Args)]
    pub struct SelectLayout {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// The next preset.
        #[arg(short = 'n')]
        next: bool,
        /// The previous preset.
        #[arg(short = 'p')]
        previous: bool,
        /// Even out the target pane and the panes beside it in its split.
        #[arg(short = 'E')]
        spread: bool,
        /// Undo the last select-layout (the layout before it).
        #[arg(short = 'o')]
        undo: bool,
        /// A preset, or a layout string; none: the last preset again.
        #[arg(value_name = "layout")]
        layout: Option<String>,
    }

    impl TryFrom<SelectLayout> for Command {
        type Error = String;
        fn try_from(f: SelectLayout) -> Result<Command, String> {
            let layout = match (f.next, f.layout) {
                _ if f.spread => LayoutChoice::Spread,
                _ if f.undo => LayoutChoice::Undo,
                _ if f.previous => LayoutChoice::Previous,
                (true, _) => LayoutChoice::Next,
                (false, Some(name)) => match LayoutPreset::parse(&name) {
                    Some(p) => LayoutChoice::Preset(p),
                    // tmux's layout strings start with their 4-digit checksum.
                    None if name.split_once(',').is_some_and(|(sum, _)| sum.len() == 4) => {
                        LayoutChoice::Tmux(name)
                    }
                    None => {
                        return Err(format!(
                            "unknown layout `{name}`; layouts are even-horizontal, even-vertical, main-horizontal, main-vertical, tiled, or a layout string as #{{window_layout}} prints it"
                        ));
                    }
                },
                (false, None) => LayoutChoice::Again,
            };
            Ok(Command::SelectLayout(cmd::SelectLayout {
                target: f.target,
                layout,
            }))
        }
    }

    /// `unbind-key [-anq] [-T table] [key]`: `-n` is `-T root`; the table is `prefix`
    /// without either.
    #[derive(clap::Args)]
    pub struct UnbindKey {
        #[arg(short = 'T', value_name = "table")]
        table: Option<String>,
        /// The root table (`-T root`).
        #[arg(short = 'n')]
        root: bool,
        /// Every key of the table.
        #[arg(short = 'a')]
        all: bool,
        /// No error for a key that is not bound.
        #[arg(short = 'q')]
        quiet: bool,
        #[arg(value_name = "key")]
        key: Option<Key>,
    }

    impl TryFrom<UnbindKey> for Command {
        type Error = String;
        fn try_from(f: UnbindKey) -> Result<Command, String> {
            let table = match (f.root, f.table) {
                (true, _) => "root".into(),
                (false, Some(t)) => t,
                (false, None) => "prefix".into(),
            };
            Ok(Command::UnbindKey(cmd::UnbindKey {
                table,
                key: f.key,
                all: f.all,
                quiet: f.quiet,
            }))
        }
    }

    /// `server-access [-adglrw] [-t target] [name]`: `-t` is taken as tmux's usage
    /// names it; the access list is the server's.
    #[derive(clap::Args)]
    pub struct ServerAccess {
        /// Allow a user.
        #[arg(short = 'a')]
        allow: bool,
        /// Deny a user.
        #[arg(short = 'd')]
        deny: bool,
        /// The name is a group's.
        #[arg(short = 'g')]
        group: bool,
        /// List who may connect.
        #[arg(short = 'l')]
        list: bool,
        /// Read-only.
        #[arg(short = 'r')]
        read_only: bool,
        /// Write.
        #[arg(short = 'w')]
        write: bool,
        #[arg(short = 't', value_name = "target")]
        target: Option<String>,
        #[arg(value_name = "name")]
        name: Option<String>,
    }

    impl TryFrom<ServerAccess> for Command {
        type Error = String;
        fn try_from(f: ServerAccess) -> Result<Command, String> {
            let _ = f.target;
            Ok(Command::ServerAccess(crate::admin::ServerAccess {
                list: f.list,
                allow: f.allow,
                deny: f.deny,
                read_only: f.read_only,
                write: f.write,
                group: f.group,
                name: f.name,
            }))
        }
    }

    /// `swap-pane [-dDUZ] [-s source] [-t target]`: `-s`, `-U` and `-D` are one
    /// [`SwapSource`](crate::manage::SwapSource) (the current pane without any); `-Z`
    /// is taken and fugue unzooms.
    #[derive(clap::Args)]
    pub struct SwapPane {
        #[arg(short = 's', value_name = "source")]
        source: Option<Target>,
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// The active pane stays where it was.
        #[arg(short = 'd')]
        detached: bool,
        /// The pane before the target.
        #[arg(short = 'U', conflicts_with_all = ["down", "source"])]
        up: bool,
        /// The pane after the target.
        #[arg(short = 'D', conflicts_with = "source")]
        down: bool,
        /// Keep the window zoomed (taken; fugue unzooms).
        #[arg(short = 'Z')]
        zoom: bool,
    }

    impl TryFrom<SwapPane> for Command {
        type Error = String;
        fn try_from(f: SwapPane) -> Result<Command, String> {
            use crate::manage::SwapSource;
            let _ = f.zoom;
            let source = match (f.source, f.up, f.down) {
                (Some(s), _, _) => SwapSource::Pane(s),
                (None, true, _) => SwapSource::Previous,
                (None, _, true) => SwapSource::Next,
                (None, false, false) => SwapSource::Current,
            };
            Ok(Command::SwapPane(cmd::SwapPane {
                target: f.target,
                source,
                detached: f.detached,
            }))
        }
    }

    /// `join-pane [-bdhv] [-l size] [-p percent] [-s source] [-t target]` (and
    /// `move-pane`'s): `-h` and `-b` are one [`Direction`], `-l` and `-p` one size.
    #[derive(clap::Args, Debug)]
    pub struct JoinPane {
        #[arg(short = 's', value_name = "source")]
        source: Option<Target>,
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Side by side.
        #[arg(short = 'h', conflicts_with = "vertical")]
        horizontal: bool,
        /// One above the other (the default).
        #[arg(short = 'v')]
        vertical: bool,
        /// Before (left of or above) the target.
        #[arg(short = 'b')]
        before: bool,
        /// The moved pane does not become active.
        #[arg(short = 'd')]
        detached: bool,
        /// Beside the whole target window: full height (-h) or width.
        #[arg(short = 'f')]
        full: bool,
        /// Size: cells, or a percentage such as 30%.
        #[arg(short = 'l', value_name = "size")]
        size: Option<String>,
        #[arg(short = 'p', value_name = "percent", conflicts_with = "size")]
        percent: Option<u8>,
    }

    impl TryFrom<JoinPane> for Command {
        type Error = String;
        fn try_from(f: JoinPane) -> Result<Command, String> {
            let direction = match (f.horizontal, f.before) {
                (true, false) => Direction::Right,
                (true, true) => Direction::Left,
                (false, false) => Direction::Down,
                (false, true) => Direction::Up,
            };
            Ok(Command::JoinPane(crate::manage::JoinPane {
                source: f.source,
                target: f.target,
                direction,
                size: SplitSize::from_flags(f.size.as_deref(), f.percent)?,
                detached: f.detached,
                full: f.full,
            }))
        }
    }

    /// `pipe-pane [-IoO] [-t target] [command ...]`: the words are one shell command,
    /// joined with spaces as tmux does; none closes the pipe; neither `-I` nor `-O`
    /// is `-O`.
    #[derive(clap::Args)]
    pub struct PipePane {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// The command's output is typed into the pane.
        #[arg(short = 'I')]
        input: bool,
        /// The pane's output goes to the command (the default).
        #[arg(short = 'O')]
        output: bool,
        /// Open a pipe only if there is none, else close it.
        #[arg(short = 'o')]
        toggle: bool,
        /// The shell command (words are joined with spaces, as tmux does).
        #[arg(value_name = "command", trailing_var_arg = true)]
        command: Vec<String>,
    }

    impl TryFrom<PipePane> for Command {
        type Error = String;
        fn try_from(f: PipePane) -> Result<Command, String> {
            let command = f.command.join(" ");
            Ok(Command::PipePane(cmd::PipePane {
                target: f.target,
                command: (!command.trim().is_empty()).then_some(command),
                input: f.input,
                output: f.output || !f.input,
                toggle: f.toggle,
            }))
        }
    }

    /// `set-buffer [-a] [-b buffer] [-n new-name] [data]`: the data is text; one of
    /// it and `-n` is needed.
    #[derive(clap::Args)]
    pub struct SetBuffer {
        /// Append to the buffer.
        #[arg(short = 'a')]
        append: bool,
        #[arg(short = 'b', value_name = "buffer")]
        name: Option<String>,
        /// Rename the buffer to this.
        #[arg(short = 'n', value_name = "new-name")]
        rename: Option<String>,
        /// Also send the buffer to the client's terminal's clipboard (OSC 52).
        #[arg(short = 'w')]
        clipboard: bool,
        /// The client for -w (default the calling client, else the latest active).
        #[arg(short = 't', value_name = "target-client")]
        client: Option<String>,
        #[arg(value_name = "data", allow_hyphen_values = true)]
        data: Option<String>,
    }

    impl TryFrom<SetBuffer> for Command {
        type Error = String;
        fn try_from(f: SetBuffer) -> Result<Command, String> {
            if f.rename.is_none() && f.data.is_none() {
                return Err("set-buffer needs the data (or -n NEW-NAME to rename)".into());
            }
            Ok(Command::SetBuffer(crate::buffers::SetBuffer {
                name: f.name,
                append: f.append,
                rename: f.rename,
                data: f.data.map(crate::buffers::BufferData::Text),
                clipboard: f.clipboard,
                client: f.client,
            }))
        }
    }

    /// `paste-buffer [-dpr] [-b buffer] [-s separator] [-t target]`: `-r` is the
    /// separator `\n` (line feeds kept).
    #[derive(clap::Args)]
    pub struct PasteBuffer {
        #[arg(short = 'b', value_name = "buffer")]
        name: Option<String>,
        /// Delete the buffer after pasting.
        #[arg(short = 'd')]
        delete: bool,
        /// Bracketed paste, if the pane's program asked for it.
        #[arg(short = 'p')]
        bracketed: bool,
        /// Keep line feeds as they are.
        #[arg(short = 'r', conflicts_with = "separator")]
        raw: bool,
        /// What line feeds become (default a carriage return).
        #[arg(short = 's', value_name = "separator", allow_hyphen_values = true)]
        separator: Option<String>,
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
    }

    impl TryFrom<PasteBuffer> for Command {
        type Error = String;
        fn try_from(f: PasteBuffer) -> Result<Command, String> {
            Ok(Command::PasteBuffer(crate::buffers::PasteBuffer {
                name: f.name,
                target: f.target,
                bracketed: f.bracketed,
                delete: f.delete,
                separator: if f.raw {
                    Some("\n".into())
                } else {
                    f.separator
                },
            }))
        }
    }

    /// A selecting verb's `-t`, with tmux's offset at its end taken off (`:.+` for
    /// panes, `:-` for windows): the target before it, and whether the offset goes
    /// forward if there is one.
    fn offset_target(
        t: Option<String>,
        pane: bool,
    ) -> Result<(Option<Target>, Option<bool>), String> {
        let (base, forward) = match t.as_deref().and_then(|s| Target::split_offset(s, pane)) {
            Some((base, forward)) => (base.map(str::to_string), Some(forward)),
            None => (t, None),
        };
        let target = base
            .map(|s| s.parse::<Target>())
            .transpose()
            .map_err(|e| e.to_string())?;
        Ok((target, forward))
    }

    /// `select-window [-lnpT] [-t target]`: `-n`, `-p`, `-l` or the target (with `-T`,
    /// the last window if it is current already), and a target ending in `:+` or `:-`
    /// is the next or previous window.
    #[derive(clap::Args)]
    pub struct SelectWindow {
        #[arg(short = 't', value_name = "target")]
        target: Option<String>,
        /// Next window.
        #[arg(short = 'n', conflicts_with_all = ["previous", "last"])]
        next: bool,
        /// Previous window.
        #[arg(short = 'p', conflicts_with = "last")]
        previous: bool,
        /// Last used window.
        #[arg(short = 'l')]
        last: bool,
        /// The last window instead when the target is already the current window.
        #[arg(short = 'T')]
        toggle: bool,
    }

    impl TryFrom<SelectWindow> for Command {
        type Error = String;
        fn try_from(f: SelectWindow) -> Result<Command, String> {
            let (target, offset) = offset_target(f.target, false)?;
            let select = if f.next || offset == Some(true) {
                WindowSelect::Next
            } else if f.previous || offset == Some(false) {
                WindowSelect::Previous
            } else if f.last {
                WindowSelect::Last
            } else if f.toggle {
                WindowSelect::TargetOrLast
            } else {
                WindowSelect::Target
            };
            Ok(Command::SelectWindow(cmd::SelectWindow { target, select }))
        }
    }

    /// `select-pane [-dDelLmMRU] [-T title] [-t target]`: a direction, `-l`, or the
    /// target (ending in `:.+` or `:.-`: the next or previous pane); `-m`/`-M`, `-e`/`-d`
    /// and `-T` are other commands, which act on the pane without selecting it, as
    /// tmux's select-pane returns before it selects.
    #[derive(clap::Args)]
    pub struct SelectPane {
        #[arg(short = 't', value_name = "target")]
        target: Option<String>,
        #[arg(short = 'L')]
        left: bool,
        #[arg(short = 'R')]
        right: bool,
        #[arg(short = 'U')]
        up: bool,
        #[arg(short = 'D')]
        down: bool,
        /// The previously active pane.
        #[arg(short = 'l')]
        last: bool,
        /// The next pane.
        #[arg(long)]
        next: bool,
        /// The previous pane.
        #[arg(long)]
        previous: bool,
        /// Set the pane's title.
        #[arg(short = 'T', value_name = "title")]
        title: Option<String>,
        /// Turn input to the pane off: what is sent to it is dropped.
        #[arg(short = 'd')]
        disable: bool,
        /// Turn input to the pane back on (wins over -d).
        #[arg(short = 'e')]
        enable: bool,
        /// Mark the pane (or clear the mark if it is the marked pane).
        #[arg(short = 'm')]
        mark: bool,
        /// Clear the marked pane (wins over -m).
        #[arg(short = 'M')]
        unmark: bool,
        /// Keep the window zoomed, on the pane selected.
        #[arg(short = 'Z')]
        zoom: bool,
    }

    impl TryFrom<SelectPane> for Command {
        type Error = String;
        fn try_from(f: SelectPane) -> Result<Command, String> {
            let (target, offset) = offset_target(f.target, true)?;
            // tmux's order: -m/-M, -e/-d and -T act on the pane and return.
            if f.mark || f.unmark {
                let clear = f.unmark;
                return Ok(Command::MarkPane(cmd::MarkPane { target, clear }));
            }
            if f.disable || f.enable {
                let enabled = f.enable;
                return Ok(Command::PaneInput(cmd::PaneInput { target, enabled }));
            }
            if let Some(title) = f.title {
                return Ok(Command::SetPaneTitle(cmd::SetPaneTitle { target, title }));
            }
            let select = match Direction::from_flags(f.left, f.right, f.up, f.down)? {
                Some(d) => PaneSelect::Direction(d),
                None if f.last => PaneSelect::Last,
                None if f.next || offset == Some(true) => PaneSelect::Next,
                None if f.previous || offset == Some(false) => PaneSelect::Previous,
                None => PaneSelect::Target,
            };
            let keep_zoom = f.zoom;
            Ok(Command::SelectPane(cmd::SelectPane {
                target,
                select,
                keep_zoom,
            }))
        }
    }

    /// `last-pane [-deZ] [-t target]`: select-pane's `-l` under its own name; `-Z`
    /// keeps the window zoomed; `-d` and `-e` (input to the pane) are taken and not
    /// used.
    #[derive(clap::Args, Debug)]
    pub struct LastPane {
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Input to the pane (-e enable, -d disable; accepted, fugue never disables it).
        #[arg(short = 'd')]
        disable_input: bool,
        #[arg(short = 'e')]
        enable_input: bool,
        #[arg(short = 'Z')]
        zoom: bool,
    }

    impl TryFrom<LastPane> for Command {
        type Error = String;
        fn try_from(f: LastPane) -> Result<Command, String> {
            let _ = (f.disable_input, f.enable_input);
            Ok(Command::SelectPane(cmd::SelectPane {
                target: f.target,
                select: PaneSelect::Last,
                keep_zoom: f.zoom,
            }))
        }
    }

    /// The letters among `set` that are on, then the valued flags that have a value,
    /// as a client's command line carries them.
    fn push_flags(argv: &mut Vec<String>, set: &[(bool, &str)], valued: &[(&str, Option<&str>)]) {
        argv.extend(
            set.iter()
                .filter(|(on, _)| *on)
                .map(|(_, f)| (*f).to_string()),
        );
        for (f, v) in valued {
            if let Some(v) = v {
                argv.extend([(*f).to_string(), (*v).to_string()]);
            }
        }
    }

    /// A template's words after `--`, so a word starting with `-` stays a word.
    fn push_template(argv: &mut Vec<String>, template: &[String]) {
        if !template.is_empty() {
            argv.push("--".into());
            argv.extend(template.iter().cloned());
        }
    }

    /// `display-panes [-bN] [-d duration] [-t target] [template]`: the terminal
    /// client's own chooser; from the CLI the line goes to the session's clients.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct DisplayPanes {
        /// tmux's -b (the client is not blocked while the numbers show): fugue's client
        /// never blocks on them, so it is accepted and changes nothing.
        #[arg(short = 'b')]
        pub background: bool,
        /// Milliseconds the numbers show; default the `display-panes-time` option.
        #[arg(short = 'd', value_name = "DURATION")]
        pub duration: Option<u32>,
        /// Keys are not taken: the numbers show until they time out.
        #[arg(short = 'N')]
        pub no_keys: bool,
        /// The session whose clients number their panes (from the CLI).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// The command a digit runs, `%%` replaced by the pane (default
        /// `select-pane -t '%%'`).
        #[arg(trailing_var_arg = true)]
        pub template: Vec<String>,
    }

    impl TryFrom<DisplayPanes> for Command {
        type Error = String;
        fn try_from(f: DisplayPanes) -> Result<Command, String> {
            // The session's `-t` is the server's; the rest is the clients'.
            let mut argv = vec!["display-panes".to_string()];
            let duration = f.duration.map(|d| d.to_string());
            push_flags(
                &mut argv,
                &[(f.background, "-b"), (f.no_keys, "-N")],
                &[("-d", duration.as_deref())],
            );
            push_template(&mut argv, &f.template);
            let line = ClientCommandLine::new(f.target, argv)?;
            Ok(Command::DisplayPanes(line))
        }
    }

    /// `choose-tree [-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
    /// [-t target] [template]`: the terminal client's tree (`C-b s`, `C-b w`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct ChooseTree {
        /// Sessions start collapsed.
        #[arg(short = 's')]
        pub sessions: bool,
        /// Windows start collapsed (their panes hidden), sessions expanded.
        #[arg(short = 'w')]
        pub windows: bool,
        /// Zoom the pane while choosing: fugue's tree covers every pane anyway.
        #[arg(short = 'Z')]
        pub zoom: bool,
        /// No preview of the selected item.
        #[arg(short = 'N')]
        pub no_preview: bool,
        /// Reverse the sort order.
        #[arg(short = 'r')]
        pub reverse: bool,
        /// Include all sessions in any session groups: accepted, the tree lists every
        /// session (grouped ones too) already.
        #[arg(short = 'G')]
        pub groups: bool,
        /// Each line's format (the item's own, as tmux's default otherwise).
        #[arg(short = 'F', value_name = "FORMAT")]
        pub format: Option<String>,
        /// Only items for which this format is true.
        #[arg(short = 'f', value_name = "FILTER")]
        pub filter: Option<String>,
        /// tmux's key format: accepted, fugue numbers the first ten items 0-9.
        #[arg(short = 'K', value_name = "KEY-FORMAT")]
        pub key_format: Option<String>,
        /// Sort order: index, name or time.
        #[arg(short = 'O', value_name = "SORT-ORDER")]
        pub sort: Option<String>,
        /// The session whose clients show the tree (from the CLI).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// The command Enter runs, `%%` replaced by the item (default
        /// `switch-client -t '%%'`).
        #[arg(trailing_var_arg = true)]
        pub template: Vec<String>,
    }

    impl TryFrom<ChooseTree> for Command {
        type Error = String;
        fn try_from(f: ChooseTree) -> Result<Command, String> {
            let mut argv = vec!["choose-tree".to_string()];
            push_flags(
                &mut argv,
                &[
                    (f.sessions, "-s"),
                    (f.windows, "-w"),
                    (f.zoom, "-Z"),
                    (f.no_preview, "-N"),
                    (f.reverse, "-r"),
                    (f.groups, "-G"),
                ],
                &[
                    ("-F", f.format.as_deref()),
                    ("-f", f.filter.as_deref()),
                    ("-K", f.key_format.as_deref()),
                    ("-O", f.sort.as_deref()),
                ],
            );
            push_template(&mut argv, &f.template);
            Ok(Command::ChooseTree(ClientCommandLine::new(f.target, argv)?))
        }
    }

    /// `find-window [-iCNrTZ] [-t target] match-string`: the tree of the windows that
    /// match (`C-b f`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct FindWindow {
        /// Match the visible content of the windows' panes.
        #[arg(short = 'C')]
        pub content: bool,
        /// Match the windows' names.
        #[arg(short = 'N')]
        pub name: bool,
        /// Match the titles of the windows' panes.
        #[arg(short = 'T')]
        pub title: bool,
        /// Ignore case.
        #[arg(short = 'i')]
        pub ignore_case: bool,
        /// MATCH is a regular expression (else a glob-free substring, as tmux's `*M*`).
        #[arg(short = 'r')]
        pub regex: bool,
        /// Zoom the pane while choosing (fugue's tree covers every pane anyway).
        #[arg(short = 'Z')]
        pub zoom: bool,
        /// The session whose clients show the windows found (from the CLI).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// What to look for.
        #[arg(value_name = "MATCH", allow_hyphen_values = true)]
        pub pattern: String,
    }

    impl TryFrom<FindWindow> for Command {
        type Error = String;
        fn try_from(f: FindWindow) -> Result<Command, String> {
            let mut argv = vec!["find-window".to_string()];
            push_flags(
                &mut argv,
                &[
                    (f.content, "-C"),
                    (f.name, "-N"),
                    (f.title, "-T"),
                    (f.ignore_case, "-i"),
                    (f.regex, "-r"),
                    (f.zoom, "-Z"),
                ],
                &[],
            );
            argv.extend(["--".to_string(), f.pattern]);
            Ok(Command::FindWindow(ClientCommandLine::new(f.target, argv)?))
        }
    }

    /// `switch-client [-ElnprZ] [-c target-client] [-t target-session] [-T
    /// key-table]`: the line goes to the clients of the caller's session (tmux's
    /// current client), which move; `-t` is where to.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct SwitchClient {
        /// Where to: a session, or a window or pane (selected there first).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// The next session.
        #[arg(short = 'n')]
        pub next: bool,
        /// The previous session.
        #[arg(short = 'p')]
        pub previous: bool,
        /// The last session.
        #[arg(short = 'l')]
        pub last: bool,
        /// The key table the next key is looked up in.
        #[arg(short = 'T')]
        pub table: Option<String>,
        /// tmux's target client: fugue tells the clients of the current session.
        #[arg(short = 'c')]
        pub client: Option<String>,
        /// tmux's -E (do not update the environment), -r (read-only toggle) and -Z
        /// (keep zoom): accepted, and change nothing here.
        #[arg(short = 'E')]
        pub no_environment: bool,
        #[arg(short = 'r')]
        pub read_only: bool,
        #[arg(short = 'Z')]
        pub zoom: bool,
    }

    impl TryFrom<SwitchClient> for Command {
        type Error = String;
        fn try_from(f: SwitchClient) -> Result<Command, String> {
            let mut argv = vec!["switch-client".to_string()];
            push_flags(
                &mut argv,
                &[(f.next, "-n"), (f.previous, "-p"), (f.last, "-l")],
                &[("-t", f.target.as_deref()), ("-T", f.table.as_deref())],
            );
            Ok(Command::SwitchClient(ClientCommandLine::new(None, argv)?))
        }
    }

    /// `copy-mode [-deHMqSu] [-s src-pane] [-t target-pane]`: the pane (`-t`) stays in
    /// the clients' line, since a client shows every pane of its window and enters
    /// copy mode on the one named; with none attached the server keeps the line on the
    /// pane for the next client.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct CopyMode {
        /// Leave copy mode when scrolled back to the bottom.
        #[arg(short = 'e')]
        pub exit_at_bottom: bool,
        /// Scroll one page up at once (`C-b PgUp`).
        #[arg(short = 'u')]
        pub page_up: bool,
        /// Scroll one page down (tmux 3.5).
        #[arg(short = 'd')]
        pub page_down: bool,
        /// Leave copy mode (and any other mode) instead.
        #[arg(short = 'q')]
        pub quit: bool,
        /// tmux's -H (hide the position indicator), -M (start a mouse drag) and -S
        /// (scrollbar drag): accepted; the client's copy mode draws its own indicator.
        #[arg(short = 'H')]
        pub hide_position: bool,
        #[arg(short = 'M')]
        pub mouse: bool,
        #[arg(short = 'S')]
        pub scrollbar: bool,
        /// Copy from this pane's contents (tmux 3.5): the client's copy mode reads the
        /// target pane only, so it is accepted and the target is shown.
        #[arg(short = 's', value_name = "SRC-PANE")]
        pub source: Option<String>,
        /// The pane.
        #[arg(short = 't')]
        pub target: Option<String>,
    }

    impl TryFrom<CopyMode> for Command {
        type Error = String;
        fn try_from(f: CopyMode) -> Result<Command, String> {
            let mut argv = vec!["copy-mode".to_string()];
            push_flags(
                &mut argv,
                &[
                    (f.exit_at_bottom, "-e"),
                    (f.page_up, "-u"),
                    (f.page_down, "-d"),
                    (f.quit, "-q"),
                ],
                &[("-t", f.target.as_deref())],
            );
            Ok(Command::CopyMode(ClientCommandLine::new(f.target, argv)?))
        }
    }

    /// tmux's chooser flags that fugue's buffer and client choosers take and draw no
    /// differently: `-N` (no preview), `-r` (reverse), `-Z` (zoom: the chooser covers
    /// the window anyway), `-F`, `-f`, `-K` and `-O`. The choosers draw tmux's default
    /// lines in tmux's default order.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct AcceptedChooserFlags {
        #[arg(short = 'N')]
        pub no_preview: bool,
        #[arg(short = 'r')]
        pub reverse: bool,
        #[arg(short = 'Z')]
        pub zoom: bool,
        #[arg(short = 'F', value_name = "FORMAT")]
        pub format: Option<String>,
        #[arg(short = 'f', value_name = "FILTER")]
        pub filter: Option<String>,
        #[arg(short = 'K', value_name = "KEY-FORMAT")]
        pub key_format: Option<String>,
        #[arg(short = 'O', value_name = "SORT-ORDER")]
        pub sort: Option<String>,
    }

    /// `choose-buffer [-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
    /// [-t target-pane] [template]`: Enter pastes, d deletes (`C-b =`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct ChooseBuffer {
        #[command(flatten)]
        pub accepted: AcceptedChooserFlags,
        /// The pane whose clients choose (and that Enter pastes into).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// tmux's template: accepted; Enter pastes the buffer (tmux's default template).
        #[arg(trailing_var_arg = true)]
        pub template: Vec<String>,
    }

    impl TryFrom<ChooseBuffer> for Command {
        type Error = String;
        fn try_from(f: ChooseBuffer) -> Result<Command, String> {
            let argv = vec!["choose-buffer".to_string()];
            Ok(Command::ChooseBuffer(ClientCommandLine::new(
                f.target, argv,
            )?))
        }
    }

    /// `choose-client [-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
    /// [-t target-pane] [template]`: Enter detaches the client (the template), d
    /// detaches, z suspends (`C-b D`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct ChooseClient {
        #[command(flatten)]
        pub accepted: AcceptedChooserFlags,
        /// The pane whose clients choose.
        #[arg(short = 't')]
        pub target: Option<String>,
        /// The command Enter runs, `%%` the client's name (default
        /// `detach-client -t '%%'`).
        #[arg(trailing_var_arg = true)]
        pub template: Vec<String>,
    }

    impl TryFrom<ChooseClient> for Command {
        type Error = String;
        fn try_from(f: ChooseClient) -> Result<Command, String> {
            let mut argv = vec!["choose-client".to_string()];
            push_template(&mut argv, &f.template);
            Ok(Command::ChooseClient(ClientCommandLine::new(
                f.target, argv,
            )?))
        }
    }

    /// `clock-mode [-t target-pane]`: a big clock over the pane until a key (`C-b t`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct ClockMode {
        /// The pane.
        #[arg(short = 't')]
        pub target: Option<String>,
    }

    impl TryFrom<ClockMode> for Command {
        type Error = String;
        fn try_from(f: ClockMode) -> Result<Command, String> {
            let mut argv = vec!["clock-mode".to_string()];
            push_flags(&mut argv, &[], &[("-t", f.target.as_deref())]);
            Ok(Command::ClockMode(ClientCommandLine::new(f.target, argv)?))
        }
    }

    /// `customize-mode [-NZ] [-F format] [-f filter] [-t target-pane]`: the options
    /// and key bindings editor (`C-b C`).
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct CustomizeMode {
        /// `-N`: start without the selected item's information.
        #[arg(short = 'N')]
        pub no_info: bool,
        /// `-Z`: zoom the pane (fugue's modes cover the window's panes already).
        #[arg(short = 'Z')]
        pub zoom: bool,
        /// `-F`: tmux's format of each line: accepted, fugue draws `name value`.
        #[arg(short = 'F', value_name = "FORMAT")]
        pub format: Option<String>,
        /// `-f`: show only the options whose name, and the keys whose name or command,
        /// contains this text (tmux: a format).
        #[arg(short = 'f', value_name = "FILTER")]
        pub filter: Option<String>,
        /// The pane whose values are shown.
        #[arg(short = 't')]
        pub target: Option<String>,
    }

    impl TryFrom<CustomizeMode> for Command {
        type Error = String;
        fn try_from(f: CustomizeMode) -> Result<Command, String> {
            let mut argv = vec!["customize-mode".to_string()];
            push_flags(
                &mut argv,
                &[(f.no_info, "-N")],
                &[("-f", f.filter.as_deref()), ("-t", f.target.as_deref())],
            );
            Ok(Command::CustomizeMode(ClientCommandLine::new(
                f.target, argv,
            )?))
        }
    }

    /// A verb that is another's with its choice made (`next-window` is `select-window
    /// -n`, `next-layout` is `select-layout -n`): `-t` alone, parsed as the verbs
    /// written by hand parsed it, so a bad target is the same error.
    macro_rules! one_choice {
        ($(#[$doc:meta])* $name:ident => $variant:ident, $field:ident: $choice:expr) => {
            $(#[$doc])*
            #[derive(clap::Args, Debug)]
            pub struct $name {
                #[arg(short = 't')]
                target: Option<String>,
            }

            impl TryFrom<$name> for Command {
                type Error = String;
                fn try_from(f: $name) -> Result<Command, String> {
                    let target = f.target.map(|t| t.parse::<Target>()).transpose();
                    Ok(Command::$variant(cmd::$variant {
                        target: target.map_err(|e| e.to_string())?,
                        $field: $choice,
                    }))
                }
            }
        };
    }

    /// `refresh-client [-cDlLRSU] [-A pane:state] [-B name:what:format] [-C XxY] [-f
    /// flags] [-t target] [adjustment]` from a terminal, a key or the CLI: a redraw
    /// (`-S`, the status line, redraws everything). `-A`, `-B` and `-C` are a control
    /// client's, which its connection handles (fugue-client's control.rs); anywhere
    /// else they fail with tmux's words. The pan flags (`-c`, `-U`, `-D`, `-L`, `-R`
    /// and the adjustment), `-l` (ask the terminal for its clipboard) and `-f` (client
    /// flags) are taken and change nothing: see docs/tmux.md.
    #[derive(clap::Args, Debug)]
    pub struct RefreshClient {
        /// The session whose clients redraw.
        #[arg(short = 't', value_name = "target")]
        target: Option<Target>,
        /// Redraw the status line (fugue redraws the whole client).
        #[arg(short = 'S')]
        status: bool,
        /// Pan back to follow the cursor (no effect: fugue's clients do not pan).
        #[arg(short = 'c')]
        pan_reset: bool,
        /// Pan up (no effect: fugue's clients do not pan).
        #[arg(short = 'U')]
        up: bool,
        /// Pan down (no effect).
        #[arg(short = 'D')]
        down: bool,
        /// Pan left (no effect).
        #[arg(short = 'L')]
        left: bool,
        /// Pan right (no effect).
        #[arg(short = 'R')]
        right: bool,
        /// Ask the terminal for its clipboard (no effect in fugue).
        #[arg(short = 'l')]
        clipboard: bool,
        /// Client flags (accepted and ignored for a terminal client).
        #[arg(short = 'f', value_name = "flags")]
        flags: Option<String>,
        /// A control client's pane output state.
        #[arg(short = 'A', value_name = "pane:state")]
        pane_state: Option<String>,
        /// A control client's format subscription.
        #[arg(short = 'B', value_name = "name:what:format")]
        subscription: Option<String>,
        /// A control client's size.
        #[arg(short = 'C', value_name = "XxY")]
        size: Option<String>,
        /// How far to pan (no effect).
        #[arg(value_name = "adjustment")]
        adjustment: Option<u32>,
    }

    impl TryFrom<RefreshClient> for Command {
        type Error = String;
        fn try_from(f: RefreshClient) -> Result<Command, String> {
            if f.pane_state.is_some() || f.subscription.is_some() || f.size.is_some() {
                // tmux's words for a control client's flag from another client.
                return Err("not a control client".into());
            }
            let _ = (f.status, f.pan_reset, f.up, f.down, f.left, f.right);
            let _ = (f.clipboard, f.flags, f.adjustment);
            Ok(Command::RefreshClient(cmd::RefreshClient {
                target: f.target,
            }))
        }
    }

    /// `next-window [-a] [-t target-session]` and `previous-window`'s: `-a` moves to
    /// the next (previous) window with an alert.
    macro_rules! window_step {
        ($(#[$doc:meta])* $name:ident => $plain:expr, $alert:expr) => {
            $(#[$doc])*
            #[derive(clap::Args, Debug)]
            pub struct $name {
                #[arg(short = 't')]
                target: Option<String>,
                /// The next window with an alert (bell, activity or silence).
                #[arg(short = 'a')]
                alert: bool,
            }

            impl TryFrom<$name> for Command {
                type Error = String;
                fn try_from(f: $name) -> Result<Command, String> {
                    let target = f.target.map(|t| t.parse::<Target>()).transpose();
                    Ok(Command::SelectWindow(cmd::SelectWindow {
                        target: target.map_err(|e| e.to_string())?,
                        select: if f.alert { $alert } else { $plain },
                    }))
                }
            }
        };
    }

    window_step!(
        /// `next-window [-a] [-t target-session]`.
        NextWindow => WindowSelect::Next, WindowSelect::NextAlert
    );
    window_step!(
        /// `previous-window [-a] [-t target-session]`.
        PreviousWindow => WindowSelect::Previous, WindowSelect::PreviousAlert
    );
    one_choice!(
        /// `last-window [-t target-session]`.
        LastWindow => SelectWindow, select: WindowSelect::Last
    );
    one_choice!(
        /// `next-layout [-t target-window]`.
        NextLayout => SelectLayout, layout: LayoutChoice::Next
    );
    one_choice!(
        /// `previous-layout [-t target-window]`.
        PreviousLayout => SelectLayout, layout: LayoutChoice::Previous
    );

    /// `resize-window [-aADLRU] [-x width] [-y height] [-t target-window]
    /// [adjustment]`: `-a`/`-A` are one fit, the direction letters and the adjustment
    /// one adjustment; sizes are checked against the server's bounds.
    #[derive(clap::Args, Debug)]
    pub struct ResizeWindow {
        #[arg(short = 't')]
        target: Option<String>,
        /// Take the smallest attached client's size.
        #[arg(short = 'a')]
        smallest: bool,
        /// Take the largest attached client's size.
        #[arg(short = 'A')]
        largest: bool,
        #[arg(short = 'L')]
        left: bool,
        #[arg(short = 'R')]
        right: bool,
        #[arg(short = 'U')]
        up: bool,
        #[arg(short = 'D')]
        down: bool,
        /// The window's width in cells.
        #[arg(short = 'x')]
        width: Option<u16>,
        /// The window's height in cells.
        #[arg(short = 'y')]
        height: Option<u16>,
        /// Cells the window grows or shrinks by with -L/-R/-U/-D (default 1).
        adjustment: Option<u16>,
    }

    impl TryFrom<ResizeWindow> for Command {
        type Error = String;
        fn try_from(f: ResizeWindow) -> Result<Command, String> {
            use crate::arrange::WindowFit;
            use crate::limits::{MAX_COLS, MAX_ROWS};
            let within = |v: Option<u16>, max: u16, what: &str| match v {
                Some(n) if n == 0 || n > max => {
                    Err(format!("{what} {n} is out of range: give 1 to {max} cells"))
                }
                v => Ok(v),
            };
            let adjust = match f.adjustment {
                Some(0) => return Err("adjustment 0 is too small: give at least 1".into()),
                n => n.unwrap_or(1),
            };
            let fit = match (f.largest, f.smallest) {
                (true, _) => Some(WindowFit::Largest),
                (false, true) => Some(WindowFit::Smallest),
                (false, false) => None,
            };
            let target = f.target.map(|t| t.parse::<Target>()).transpose();
            Ok(Command::ResizeWindow(crate::arrange::ResizeWindow {
                target: target.map_err(|e| e.to_string())?,
                width: within(f.width, MAX_COLS, "width")?,
                height: within(f.height, MAX_ROWS, "height")?,
                adjust: Direction::from_flags(f.left, f.right, f.up, f.down)?.map(|d| (d, adjust)),
                fit,
            }))
        }
    }

    /// `display-menu [-T title] [-x position] [-y position] [-t target] name key
    /// command ...`: the items are checked here (NAME KEY COMMAND triples, an empty
    /// NAME a separator) and go to the clients as given.
    #[derive(clap::Args, Debug)]
    pub struct DisplayMenu {
        /// The title on its top border.
        #[arg(short = 'T', value_name = "TITLE")]
        pub title: Option<String>,
        /// The column of its left edge (or C, R).
        #[arg(short = 'x', value_name = "POSITION")]
        pub x: Option<String>,
        /// The row of its top edge (or C, S).
        #[arg(short = 'y', value_name = "POSITION")]
        pub y: Option<String>,
        /// The session whose clients show it (from the CLI).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// Keep the menu open when the mouse button is released without choosing
        /// (fugue's menus always stay open until a choice or a key).
        #[arg(short = 'O')]
        pub stay_open: bool,
        /// The client to show it on (fugue shows it on the clients of the target's
        /// session; see docs/tmux.md).
        #[arg(short = 'c', value_name = "target-client")]
        pub client: Option<String>,
        /// NAME KEY COMMAND, ...
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        pub items: Vec<String>,
    }

    impl TryFrom<DisplayMenu> for Command {
        type Error = String;
        fn try_from(f: DisplayMenu) -> Result<Command, String> {
            crate::menu::parse_items(&f.items)?;
            let _ = (f.stay_open, f.client);
            let mut argv = vec!["display-menu".to_string()];
            push_flags(
                &mut argv,
                &[],
                &[
                    ("-T", f.title.as_deref()),
                    ("-x", f.x.as_deref()),
                    ("-y", f.y.as_deref()),
                ],
            );
            argv.extend(f.items);
            Ok(Command::DisplayMenu(ClientCommandLine::new(
                f.target, argv,
            )?))
        }
    }

    /// `confirm-before [-by] [-c confirm-key] [-p prompt] [-t target-client] command`:
    /// the clients ask and run the command on yes; `-b` changes nothing, as the CLI
    /// never waits for the answer.
    #[derive(clap::Args, Debug)]
    pub struct ConfirmBefore {
        /// The question (a format; default `Confirm 'COMMAND'? (y/n)`).
        #[arg(short = 'p', value_name = "PROMPT")]
        pub prompt: Option<String>,
        /// Enter alone answers yes.
        #[arg(short = 'y')]
        pub yes: bool,
        /// The key that answers yes (default y).
        #[arg(short = 'c', value_name = "KEY")]
        pub confirm_key: Option<String>,
        /// tmux's -b (the asking client does not wait): fugue's CLI never waits for
        /// the answer, so it is accepted and changes nothing.
        #[arg(short = 'b')]
        pub background: bool,
        /// The client that asks, or a session whose clients ask (from the CLI).
        #[arg(short = 't')]
        pub target: Option<String>,
        /// The command line to run (quote it, or give its words).
        #[arg(required = true, num_args = 1.., trailing_var_arg = true)]
        pub command: Vec<String>,
    }

    impl TryFrom<ConfirmBefore> for Command {
        type Error = String;
        fn try_from(f: ConfirmBefore) -> Result<Command, String> {
            let mut argv = vec!["confirm-before".to_string()];
            push_flags(&mut argv, &[], &[("-p", f.prompt.as_deref())]);
            push_flags(
                &mut argv,
                &[(f.yes, "-y")],
                &[("-c", f.confirm_key.as_deref())],
            );
            argv.extend(f.command);
            Ok(Command::ConfirmBefore(ClientCommandLine::new(
                f.target, argv,
            )?))
        }
    }

    /// `command-prompt [-1bFkiN] [-I inputs] [-p prompts] [-t target-client] [-T type]
    /// [template]`: the questions (`-p`, `-I`, comma-separated) and the template the
    /// answers fill in, which `fugue_verbs::command_prompt` makes as tmux makes them.
    #[derive(clap::Args, Debug, Clone, Default)]
    pub struct CommandPrompt {
        /// Answer with one key (its name is the answer).
        #[arg(short = '1')]
        pub single_key: bool,
        /// tmux's -b (the CLI does not wait for the answer): fugue's never waits.
        #[arg(short = 'b')]
        pub background: bool,
        /// Expand the template as a format first.
        #[arg(short = 'F')]
        pub expand: bool,
        /// Like -1, the key's name being the answer (tmux's -k).
        #[arg(short = 'k')]
        pub key: bool,
        /// Run the template at every change of the answer (accepted: run once, at
        /// Enter).
        #[arg(short = 'i')]
        pub incremental: bool,
        /// Only digits.
        #[arg(short = 'N')]
        pub numeric: bool,
        /// tmux 3.6's -l, 3.7's -e and -C: accepted.
        #[arg(short = 'l')]
        pub literal: bool,
        #[arg(short = 'e')]
        pub backspace_exits: bool,
        #[arg(short = 'C')]
        pub no_freeze: bool,
        /// What each question starts with, comma-separated.
        #[arg(short = 'I', value_name = "INPUTS")]
        pub inputs: Option<String>,
        /// The questions, comma-separated.
        #[arg(short = 'p', value_name = "PROMPTS")]
        pub prompts: Option<String>,
        /// The client that asks (from the CLI).
        #[arg(short = 't', value_name = "CLIENT")]
        pub client: Option<String>,
        /// The history the answers join: command, search, target, window-target.
        #[arg(short = 'T', value_name = "TYPE")]
        pub kind: Option<String>,
        /// The command line the answers fill in (`%1`..`%9`, `%%`); the answer itself
        /// without one.
        pub template: Option<String>,
    }

    impl TryFrom<CommandPrompt> for Command {
        type Error = String;
        fn try_from(f: CommandPrompt) -> Result<Command, String> {
            if let Some(t) = &f.kind {
                crate::admin::PromptType::parse(t).map_err(|_| format!("unknown type: {t}"))?;
            }
            // The line for a client to ask with: `-t` left out, since it named the
            // client.
            let mut argv = vec!["command-prompt".to_string()];
            push_flags(
                &mut argv,
                &[
                    (f.single_key, "-1"),
                    (f.expand, "-F"),
                    (f.key, "-k"),
                    (f.incremental, "-i"),
                    (f.numeric, "-N"),
                ],
                &[
                    ("-I", f.inputs.as_deref()),
                    ("-p", f.prompts.as_deref()),
                    ("-T", f.kind.as_deref()),
                ],
            );
            argv.extend(f.template);
            Ok(Command::CommandPrompt(ClientCommandLine::new(
                f.client, argv,
            )?))
        }
    }

    /// `bind-key [-nr] [-N note] [-T key-table] key command [argument ...]`: `-n` is
    /// `-T root`, the table `prefix` without either; the command is a sequence
    /// (separated by `\;`, or one quoted string). Each of its commands is checked
    /// against the verb table by the verbs (`fugue_verbs::Declared`), which the
    /// protocol cannot see, so a typo is an error at bind time.
    #[derive(clap::Args, Debug)]
    #[command(allow_hyphen_values = true)]
    pub struct BindKey {
        /// The key table (default prefix).
        #[arg(short = 'T', value_name = "TABLE")]
        table: Option<String>,
        /// The root table: the key acts without the prefix (as -T root).
        #[arg(short = 'n')]
        root: bool,
        /// The key repeats: pressed again within repeat-time it needs no prefix.
        #[arg(short = 'r')]
        repeat: bool,
        /// A note for list-keys -N and C-b ?.
        #[arg(short = 'N', value_name = "NOTE")]
        note: Option<String>,
        key: String,
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 1..)]
        command: Vec<String>,
    }

    impl TryFrom<BindKey> for Command {
        type Error = String;
        fn try_from(f: BindKey) -> Result<Command, String> {
            use crate::tmux_cmd::{ProcessEnv, split_sequence};
            let table = match (f.root, f.table) {
                (true, _) => "root".into(),
                (false, Some(t)) => t,
                (false, None) => "prefix".into(),
            };
            crate::key_tables::check_table(&table)?;
            let key = Key::parse_named(&f.key)?;
            let commands = split_sequence(&f.command, &ProcessEnv).map_err(|e| e.to_string())?;
            Ok(Command::BindKey(crate::key_tables::Binding {
                table,
                key,
                repeat: f.repeat,
                note: f.note,
                commands,
            }))
        }
    }
}
