//! tmux's pane and window management verbs, with tmux's flags and aliases:
//! respawn-pane, respawn-window, swap-pane, break-pane, join-pane, move-pane,
//! last-pane, move-window, link-window, pipe-pane.

use crate::args::SpawnArgs;
use crate::printer::Printer;
use clap::Subcommand;
use fugue_protocol::cmd;
use fugue_protocol::{
    BreakPane, Command, Direction, JoinPane, PaneSelect, Respawn, SwapPane, SwapSource, Target,
};

#[derive(Subcommand, Debug)]
pub enum ManageVerb {
    /// Start a pane's program again (-k: end the one still running); the pane keeps
    /// its id, place and screen.
    #[command(visible_alias = "respawnp")]
    RespawnPane {
        #[arg(short = 't')]
        target: Option<String>,
        /// End the program if it still runs.
        #[arg(short = 'k')]
        kill: bool,
        #[command(flatten)]
        spawn: SpawnArgs,
    },
    /// Reduce a window to its first pane and start its program again.
    #[command(visible_alias = "respawnw")]
    RespawnWindow {
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(short = 'k')]
        kill: bool,
        #[command(flatten)]
        spawn: SpawnArgs,
    },
    /// Swap two panes (-s and -t), or the target with the pane before (-U) or after
    /// (-D) it.
    #[command(visible_alias = "swapp")]
    SwapPane {
        #[arg(short = 's')]
        source: Option<String>,
        #[arg(short = 't')]
        target: Option<String>,
        /// The active pane stays where it was.
        #[arg(short = 'd')]
        detached: bool,
        #[arg(short = 'U', conflicts_with_all = ["down", "source"])]
        up: bool,
        #[arg(short = 'D', conflicts_with = "source")]
        down: bool,
        /// Keep the window zoomed (accepted; fugue unzooms).
        #[arg(short = 'Z')]
        zoom: bool,
    },
    /// Move a pane out into a new window (-t session or session:index).
    #[command(visible_alias = "breakp")]
    BreakPane {
        #[arg(short = 's')]
        source: Option<String>,
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(short = 'n')]
        name: Option<String>,
        /// Do not make the new window current.
        #[arg(short = 'd')]
        detached: bool,
        /// Print the new pane (see -F).
        #[arg(short = 'P')]
        print: bool,
        #[arg(short = 'F')]
        format: Option<String>,
    },
    /// Move a pane (-s, default the current one) into the window of -t, splitting it.
    #[command(visible_alias = "joinp", disable_help_flag = true)]
    JoinPane(JoinArgs),
    /// The same as join-pane.
    #[command(visible_alias = "movep", disable_help_flag = true)]
    MovePane(JoinArgs),
    /// Make the previously active pane of a window active again.
    #[command(visible_alias = "lastp")]
    LastPane {
        #[arg(short = 't')]
        target: Option<String>,
        /// Input to the pane (-e enable, -d disable; accepted, fugue never disables it).
        #[arg(short = 'd')]
        disable_input: bool,
        #[arg(short = 'e')]
        enable_input: bool,
        #[arg(short = 'Z')]
        zoom: bool,
    },
    /// Move a window to another index (-t session:index) or session; -r renumbers the
    /// target session's windows instead.
    #[command(visible_alias = "movew")]
    MoveWindow {
        #[arg(short = 's')]
        source: Option<String>,
        #[arg(short = 't')]
        target: Option<String>,
        /// After the target window (later windows move up).
        #[arg(short = 'a', conflicts_with = "before")]
        after: bool,
        /// At the target window's index (it and later windows move up).
        #[arg(short = 'b')]
        before: bool,
        #[arg(short = 'd')]
        detached: bool,
        /// Kill a window at the target index first.
        #[arg(short = 'k')]
        kill: bool,
        #[arg(short = 'r')]
        renumber: bool,
    },
    /// Link a window into another session (or at another index) too: one window,
    /// shown in both places.
    #[command(visible_alias = "linkw")]
    LinkWindow {
        #[arg(short = 's')]
        source: Option<String>,
        #[arg(short = 't')]
        target: Option<String>,
        /// After the target window (later windows move up).
        #[arg(short = 'a', conflicts_with = "before")]
        after: bool,
        /// At the target window's index (it and later windows move up).
        #[arg(short = 'b')]
        before: bool,
        #[arg(short = 'd')]
        detached: bool,
        /// Kill a window at the target index first.
        #[arg(short = 'k')]
        kill: bool,
    },
    /// Pipe a pane's output to a shell command (-O, the default), type the
    /// command's output into the pane (-I); no command closes the pipe; -o opens one
    /// only if there is none (else closes it).
    #[command(visible_alias = "pipep")]
    PipePane {
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(short = 'I')]
        input: bool,
        #[arg(short = 'O')]
        output: bool,
        #[arg(short = 'o')]
        toggle: bool,
        /// The shell command (words are joined with spaces, as tmux does).
        #[arg(trailing_var_arg = true)]
        command: Vec<String>,
    },
}

#[derive(clap::Args, Debug)]
pub struct JoinArgs {
    #[arg(short = 's')]
    pub source: Option<String>,
    #[arg(short = 't')]
    pub target: Option<String>,
    /// Side by side.
    #[arg(short = 'h', conflicts_with = "vertical")]
    pub horizontal: bool,
    /// One above the other (the default).
    #[arg(short = 'v')]
    pub vertical: bool,
    /// Before (left of or above) the target.
    #[arg(short = 'b')]
    pub before: bool,
    /// The moved pane does not become active.
    #[arg(short = 'd')]
    pub detached: bool,
    /// Size: cells, or a percentage such as 30%.
    #[arg(short = 'l')]
    pub size: Option<String>,
    #[arg(short = 'p', conflicts_with = "size")]
    pub percent: Option<u8>,
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

fn target(t: Option<String>) -> anyhow::Result<Option<Target>> {
    t.map(|s| s.parse::<Target>().map_err(anyhow::Error::from))
        .transpose()
}

pub fn command_for(verb: ManageVerb, caller: &crate::Caller) -> anyhow::Result<(Command, Printer)> {
    let nothing = |c| Ok((c, Printer::Nothing));
    match verb {
        ManageVerb::RespawnPane {
            target: t,
            kill,
            spawn,
        } => nothing(Command::Respawn(Respawn {
            target: target(t)?,
            window: false,
            kill,
            spawn: crate::convert_args::spawn(spawn, false, caller)?,
        })),
        ManageVerb::RespawnWindow {
            target: t,
            kill,
            spawn,
        } => nothing(Command::Respawn(Respawn {
            target: target(t)?,
            window: true,
            kill,
            spawn: crate::convert_args::spawn(spawn, false, caller)?,
        })),
        ManageVerb::SwapPane {
            source,
            target: t,
            detached,
            up,
            down,
            zoom: _,
        } => {
            let source = match (source, up, down) {
                (Some(s), _, _) => SwapSource::Pane(s.parse()?),
                (None, true, _) => SwapSource::Previous,
                (None, _, true) => SwapSource::Next,
                (None, false, false) => SwapSource::Current,
            };
            nothing(Command::SwapPane(SwapPane {
                target: target(t)?,
                source,
                detached,
            }))
        }
        ManageVerb::BreakPane {
            source,
            target: t,
            name,
            detached,
            print,
            format,
        } => Ok((
            Command::BreakPane(BreakPane {
                source: target(source)?,
                target: target(t)?,
                name,
                detached,
            }),
            Printer::Created {
                print,
                // tmux's BREAK_PANE_TEMPLATE.
                format: format
                    .or_else(|| Some("#{session_name}:#{window_index}.#{pane_index}".to_string())),
                attach: false,
            },
        )),
        ManageVerb::JoinPane(a) | ManageVerb::MovePane(a) => {
            let direction = match (a.horizontal, a.before) {
                (true, false) => Direction::Right,
                (true, true) => Direction::Left,
                (false, false) => Direction::Down,
                (false, true) => Direction::Up,
            };
            nothing(Command::JoinPane(JoinPane {
                source: target(a.source)?,
                target: target(a.target)?,
                direction,
                size: crate::convert_args::split_size(a.size, a.percent)?,
                detached: a.detached,
            }))
        }
        ManageVerb::LastPane { target: t, .. } => nothing(Command::SelectPane(cmd::SelectPane {
            target: target(t)?,
            select: PaneSelect::Last,
        })),
        ManageVerb::MoveWindow {
            source,
            target: t,
            after,
            before,
            detached,
            kill,
            renumber,
        } => nothing(Command::MoveWindow(fugue_protocol::MoveWindow {
            source: target(source)?,
            target: target(t)?,
            place: match (after, before) {
                (true, _) => fugue_protocol::WindowPlace::After,
                (_, true) => fugue_protocol::WindowPlace::Before,
                _ => fugue_protocol::WindowPlace::Index,
            },
            kill,
            detached,
            renumber,
            link: false,
        })),
        ManageVerb::LinkWindow {
            source,
            target: t,
            after,
            before,
            detached,
            kill,
        } => nothing(Command::MoveWindow(fugue_protocol::MoveWindow {
            source: target(source)?,
            target: target(t)?,
            place: match (after, before) {
                (true, _) => fugue_protocol::WindowPlace::After,
                (_, true) => fugue_protocol::WindowPlace::Before,
                _ => fugue_protocol::WindowPlace::Index,
            },
            kill,
            detached,
            renumber: false,
            link: true,
        })),
        ManageVerb::PipePane {
            target: t,
            input,
            output,
            toggle,
            command,
        } => {
            let command = command.join(" ");
            nothing(Command::PipePane(cmd::PipePane {
                target: target(t)?,
                command: (!command.trim().is_empty()).then_some(command),
                input,
                // tmux: neither -I nor -O means -O.
                output: output || !input,
                toggle,
            }))
        }
    }
}
