//! tmux's verbs about clients' terminals: lock-server, lock-session and lock-client,
//! with tmux's flags and aliases.

use crate::convert_args::target;
use crate::printer::Printer;
use clap::Subcommand;
use fugue_protocol::Command;
use fugue_protocol::admin::LockScope;

#[derive(Subcommand, Debug)]
pub enum AdminVerb {
    /// Lock every attached terminal with its session's lock-command.
    #[command(visible_alias = "lock")]
    LockServer,
    /// Lock the terminals attached to a session.
    #[command(visible_alias = "locks")]
    LockSession {
        #[arg(short = 't')]
        target: Option<String>,
    },
    /// Lock one attached terminal (default the current client).
    #[command(visible_alias = "lockc")]
    LockClient {
        #[arg(short = 't', value_name = "CLIENT")]
        client: Option<String>,
    },
}

pub fn command_for(v: AdminVerb) -> anyhow::Result<(Command, Printer)> {
    let nothing = |c| Ok((c, Printer::Nothing));
    match v {
        AdminVerb::LockServer => nothing(Command::Lock(LockScope::Server)),
        AdminVerb::LockSession { target: t } => {
            nothing(Command::Lock(LockScope::Session(target(t)?)))
        }
        AdminVerb::LockClient { client } => nothing(Command::Lock(LockScope::Client(client))),
    }
}
