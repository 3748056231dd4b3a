//! tmux's pane and window management verbs, with tmux's flags and aliases:
//! respawn-pane, respawn-window, break-pane, move-pane, last-pane, move-window,
//! link-window.

use crate::args::SpawnArgs;
use crate::printer::Printer;
use clap::Subcommand;
use fugue_protocol::command::flags;
use fugue_protocol::{Command, Respawn, Target, WindowPlace, cmd};

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
        /// The new window goes after the target window (later ones move up).
        #[arg(short = 'a', conflicts_with = "before")]
        after: bool,
        /// The new window goes before the target window.
        #[arg(short = 'b')]
        before: bool,
        /// Print the new pane (see -F).
        #[arg(short = 'P')]
        print: bool,
        #[arg(short = 'F')]
        format: Option<String>,
    },
    /// The same as join-pane.
    #[command(visible_alias = "movep", disable_help_flag = true)]
    MovePane(MoveArgs),
    /// Make the previously active pane of a window active again.
    #[command(visible_alias = "lastp")]
    LastPane(flags::LastPane),
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
}

/// `move-pane`: join-pane's flags ([`flags::JoinPane`], its declaration's), with
/// `--help` alone as help since `-h` is tmux's.
#[derive(clap::Args, Debug)]
pub struct MoveArgs {
    #[command(flatten)]
    join: flags::JoinPane,
    #[arg(long, action = clap::ArgAction::Help)]
    help: Option<bool>,
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
        ManageVerb::BreakPane {
            source,
            target: t,
            name,
            detached,
            after,
            before,
            print,
            format,
        } => Ok((
            Command::BreakPane(cmd::BreakPane {
                source: target(source)?,
                target: target(t)?,
                name,
                detached,
                place: match (after, before) {
                    (true, _) => WindowPlace::After,
                    (_, true) => WindowPlace::Before,
                    _ => WindowPlace::Index,
                },
            }),
            Printer::Created {
                print,
                // tmux's BREAK_PANE_TEMPLATE.
                format: format
                    .or_else(|| Some("#{session_name}:#{window_index}.#{pane_index}".to_string())),
                attach: false,
            },
        )),
        ManageVerb::MovePane(a) => nothing(Command::try_from(a.join).map_err(anyhow::Error::msg)?),
        ManageVerb::LastPane(f) => nothing(Command::try_from(f).map_err(anyhow::Error::msg)?),
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
    }
}
