//! `fugue restore`'s flags: sessions a killed, crashed or rebooted server left in its
//! journal.

use fugue_protocol::Command;
use fugue_protocol::cmd;

#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// Only list what can be restored.
    #[arg(short = 'l', long, conflicts_with = "discard")]
    pub list: bool,
    /// Forget it instead (every restorable session, or NAME): it cannot be restored
    /// afterwards.
    #[arg(short = 'd', long)]
    pub discard: bool,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// A session's name; none: every restorable session.
    pub name: Option<String>,
}

#[derive(Debug)]
pub struct RestorePrinter {
    pub json: bool,
}

pub fn command_for(a: RestoreArgs) -> anyhow::Result<(Command, RestorePrinter)> {
    let printer = RestorePrinter { json: a.json };
    let command = if a.discard {
        Command::DiscardRestorable(cmd::DiscardRestorable { name: a.name })
    } else {
        Command::Restore(cmd::Restore {
            name: a.name,
            list: a.list,
        })
    };
    Ok((command, printer))
}
