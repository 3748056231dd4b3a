//! tmux's verbs about clients and the server's records: lock-server, lock-session,
//! lock-client and server-access, with tmux's flags and aliases.

use crate::convert_args::target;
use crate::printer::Printer;
use clap::Subcommand;
use fugue_protocol::Command;
use fugue_protocol::admin::{LockScope, ServerAccess};

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
    /// List who may connect (-l); fugue serves only its owner, so -a/-d/-r/-w are
    /// refused with the reason.
    ServerAccess {
        #[arg(short = 'a')]
        allow: bool,
        #[arg(short = 'd')]
        deny: bool,
        #[arg(short = 'g')]
        group: bool,
        #[arg(short = 'l')]
        list: bool,
        #[arg(short = 'r')]
        read_only: bool,
        #[arg(short = 'w')]
        write: bool,
        /// Accepted as tmux's usage names it; the access list is the server's.
        #[arg(short = 't')]
        target: Option<String>,
        name: Option<String>,
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
        AdminVerb::ServerAccess {
            allow,
            deny,
            group,
            list,
            read_only,
            write,
            target: _,
            name,
        } => Ok((
            Command::ServerAccess(ServerAccess {
                list,
                allow,
                deny,
                read_only,
                write,
                group,
                name,
            }),
            Printer::Captured,
        )),
    }
}
