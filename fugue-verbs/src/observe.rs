//! Verbs that read panes and wait on them: capture-pane, read-pane, wait-for (with
//! tmux's channels), run-command, search-panes; their flags and their Commands.

use crate::Caller;
use crate::args::SpawnArgs;
use crate::convert_args::{line_bound, spawn, target};
use crate::printer::Printer;
use anyhow::{Context, bail};
use clap::Subcommand;
use fugue_protocol::cmd;
use fugue_protocol::observe::{
    ReadPane, ReadSource, RunCommand, SearchPanes, WaitCondition, WaitFor,
};
use fugue_protocol::{CapturePane, Command, Target};

#[derive(Subcommand, Debug)]
pub enum ObserveVerb {
    /// Print a pane's screen and history.
    #[command(visible_aliases = ["capture", "capturep"])]
    CapturePane {
        #[arg(short = 't')]
        target: Option<String>,
        /// Print to standard output (always done; accepted for tmux compatibility).
        #[arg(short = 'p')]
        print: bool,
        /// Keep colors and attributes as escape sequences.
        #[arg(short = 'e')]
        escapes: bool,
        /// Join wrapped lines.
        #[arg(short = 'J')]
        join: bool,
        /// First line (0 = top of the screen, negative = history, - = start of history).
        #[arg(short = 'S', allow_hyphen_values = true)]
        start: Option<String>,
        /// Last line (- = end of the screen).
        #[arg(short = 'E', allow_hyphen_values = true)]
        end: Option<String>,
        /// Into this paste buffer instead of standard output.
        #[arg(short = 'b', value_name = "BUFFER")]
        buffer: Option<String>,
        /// Quiet: no error for a missing alternate screen.
        #[arg(short = 'q')]
        quiet: bool,
        /// The screen under the alternate screen a program shows (no history).
        #[arg(short = 'a')]
        alternate: bool,
        /// Keep trailing spaces.
        #[arg(short = 'N')]
        keep_spaces: bool,
        /// Write non-printable characters as octal escapes (`\\033`, with -e).
        #[arg(short = 'C')]
        escape_c0: bool,
        /// Leave out trailing positions that hold no character (fugue never writes
        /// them; accepted as tmux 3.4+ takes it).
        #[arg(short = 'T')]
        trim_empty: bool,
        /// Only the start of an unfinished escape sequence (fugue keeps none: empty).
        #[arg(short = 'P')]
        pending: bool,
    },
    /// Read a pane's screen, its history, or only what arrived since a cursor.
    #[command(visible_alias = "read")]
    ReadPane {
        #[arg(short = 't')]
        target: Option<String>,
        /// The last lines of history and screen instead of the screen.
        #[arg(long, conflicts_with = "since")]
        scrollback: bool,
        /// Only lines that arrived since this cursor (from an earlier --json answer).
        #[arg(long)]
        since: Option<String>,
        /// At most this many lines (the last ones; default 200, at most 2000).
        #[arg(short = 'n', long)]
        lines: Option<u32>,
        /// Keep colors as escape sequences.
        #[arg(short = 'e')]
        escapes: bool,
        /// Print the whole answer as JSON (with the cursor for the next read).
        #[arg(long)]
        json: bool,
    },
    /// Wait for a line of output matching a regex (--text), for quiet (--idle), for the
    /// program to exit (--exit) or an agent's state (--state); or, as tmux, for a
    /// channel to be signalled (wait-for CHANNEL; -S signals, -L locks, -U unlocks).
    #[command(visible_alias = "wait")]
    WaitFor {
        #[arg(short = 't')]
        target: Option<String>,
        /// A regex matched against each line of output that arrives after the call.
        #[arg(long, conflicts_with_all = ["idle", "exit"])]
        text: Option<String>,
        /// With --text: match output after this cursor instead.
        #[arg(long, requires = "text")]
        after: Option<String>,
        /// Wait until there has been no output for this many milliseconds.
        #[arg(long, conflicts_with = "exit")]
        idle: Option<u64>,
        /// Wait until the pane's program exits.
        #[arg(long, conflicts_with = "state")]
        exit: bool,
        /// Wait until the agent in the pane is in this state: starting, busy, idle,
        /// awaiting_input or exited.
        #[arg(long, conflicts_with_all = ["text", "idle"])]
        state: Option<String>,
        /// Give up after this many milliseconds (capped by the server).
        #[arg(long)]
        timeout: Option<u64>,
        #[arg(long)]
        json: bool,
        /// tmux's channels: signal CHANNEL, waking its waiters.
        #[arg(short = 'S', requires = "channel", conflicts_with_all = ["lock", "unlock"])]
        signal: bool,
        /// Take CHANNEL's lock, waiting for it if another holds it.
        #[arg(short = 'L', requires = "channel", conflicts_with = "unlock")]
        lock: bool,
        /// Give CHANNEL's lock up.
        #[arg(short = 'U', requires = "channel")]
        unlock: bool,
        /// A tmux channel: with no flag, wait until it is signalled (`wait-for -S`).
        #[arg(conflicts_with_all = ["target", "text", "idle", "exit", "state", "timeout", "json"])]
        channel: Option<String>,
    },
    /// Run a shell command to completion and print its output; exits with its status.
    RunCommand {
        /// Type the command into this pane's shell instead of starting a new pane.
        #[arg(short = 't')]
        pane: Option<String>,
        /// The pane to split for the new pane.
        #[arg(long)]
        split_from: Option<String>,
        #[arg(short = 'c', value_name = "DIR")]
        cwd: Option<std::path::PathBuf>,
        #[arg(short = 'e', value_name = "VAR=VALUE")]
        env: Vec<String>,
        #[arg(long)]
        timeout: Option<u64>,
        /// Keep the new pane open after the command ends.
        #[arg(long)]
        keep: bool,
        #[arg(long)]
        json: bool,
        /// The command (several words are joined with spaces).
        #[arg(last = true, required = true)]
        command: Vec<String>,
    },
    /// Search the screens (and with --history the history) of panes with a regex.
    #[command(visible_alias = "search")]
    SearchPanes {
        /// Panes to search (repeatable; default all).
        #[arg(short = 't')]
        targets: Vec<String>,
        #[arg(long)]
        history: bool,
        #[arg(long, default_value_t = 0)]
        offset: u32,
        #[arg(long, default_value_t = 50)]
        limit: u32,
        #[arg(long)]
        json: bool,
        pattern: String,
    },
}

pub(crate) fn command_for(verb: ObserveVerb, caller: &Caller) -> anyhow::Result<crate::Converted> {
    Ok(match verb {
        ObserveVerb::CapturePane {
            target: t,
            print: _,
            escapes,
            join,
            start,
            end,
            buffer,
            quiet,
            alternate,
            keep_spaces,
            escape_c0,
            trim_empty: _,
            pending,
        } => {
            let capture = CapturePane {
                target: target(t)?,
                start: line_bound(start, "-S")?,
                end: line_bound(end, "-E")?,
                escapes,
                join,
                alternate,
                // tmux trims no line it joins (`-J` keeps trailing spaces as `-N`).
                keep_spaces: keep_spaces || join,
                escape_c0,
                quiet,
                pending,
            };
            match buffer {
                Some(name) => (
                    Command::SetBuffer(fugue_protocol::SetBuffer {
                        name: Some(name),
                        append: false,
                        rename: None,
                        data: Some(fugue_protocol::BufferData::Pane(capture)),
                        clipboard: false,
                        client: None,
                    }),
                    Printer::Nothing,
                ),
                None => (Command::CapturePane(capture), Printer::CapturedPane),
            }
        }
        ObserveVerb::ReadPane {
            target: t,
            scrollback,
            since,
            lines,
            escapes,
            json,
        } => {
            let source = match (scrollback, since) {
                (_, Some(c)) => ReadSource::Since(c),
                (true, None) => ReadSource::Scrollback,
                (false, None) => ReadSource::Screen,
            };
            (
                Command::ReadPane(ReadPane {
                    target: target(t)?,
                    source,
                    lines,
                    ansi: escapes,
                }),
                Printer::Json(json),
            )
        }
        ObserveVerb::WaitFor {
            target: t,
            text,
            after,
            idle,
            exit,
            state,
            timeout,
            json,
            signal,
            lock,
            unlock,
            channel,
        } => {
            if let Some(channel) = channel {
                let op = match (signal, lock, unlock) {
                    (true, _, _) => fugue_protocol::ChannelOp::Signal,
                    (_, true, _) => fugue_protocol::ChannelOp::Lock,
                    (_, _, true) => fugue_protocol::ChannelOp::Unlock,
                    _ => fugue_protocol::ChannelOp::Wait,
                };
                return Ok((
                    Command::WaitChannel(cmd::WaitChannel { channel, op }),
                    Printer::Nothing,
                ));
            }
            let condition = match (text, idle, exit, state) {
                (Some(pattern), None, false, None) => WaitCondition::Text { pattern, after },
                (None, Some(ms), false, None) => WaitCondition::Idle { ms },
                (None, None, true, None) => WaitCondition::Exit,
                (None, None, false, Some(s)) => {
                    WaitCondition::State(fugue_protocol::AgentState::parse(&s).with_context(|| {
                        format!("unknown state `{s}`: expected starting, busy, idle, awaiting_input or exited")
                    })?)
                }
                _ => bail!("give one of --text REGEX, --idle MS, --exit or --state STATE"),
            };
            (
                Command::WaitFor(WaitFor {
                    target: target(t)?,
                    condition,
                    timeout_ms: timeout,
                }),
                Printer::Json(json),
            )
        }
        ObserveVerb::RunCommand {
            pane,
            split_from,
            cwd,
            env,
            timeout,
            keep,
            json,
            command,
        } => {
            let s = spawn(
                SpawnArgs {
                    cwd,
                    env,
                    ..SpawnArgs::default()
                },
                false,
                caller,
            )?;
            (
                Command::RunCommand(RunCommand {
                    pane: target(pane)?,
                    split_from: target(split_from)?,
                    command: command.join(" "),
                    cwd: s.cwd,
                    env: s.env,
                    timeout_ms: timeout,
                    keep,
                }),
                Printer::Json(json),
            )
        }
        ObserveVerb::SearchPanes {
            targets,
            history,
            offset,
            limit,
            json,
            pattern,
        } => (
            Command::SearchPanes(SearchPanes {
                pattern,
                targets: targets
                    .into_iter()
                    .map(|t| t.parse::<Target>())
                    .collect::<Result<_, _>>()?,
                history,
                offset,
                limit,
                from_line: None,
                backward: false,
                absolute: false,
            }),
            Printer::Json(json),
        ),
    })
}
