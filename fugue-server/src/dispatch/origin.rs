//! Who sent a command.

use fugue_protocol::{ClientKind, PaneId};
use std::fmt;

/// The surface a command came through; policy is configured per surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Surface {
    /// Keys of an attached client.
    Keys,
    /// A CLI verb.
    Cli,
    /// The server itself (pane lifecycle, shutdown).
    Server,
}

impl Surface {
    pub fn name(self) -> &'static str {
        match self {
            Surface::Keys => "keys",
            Surface::Cli => "cli",
            Surface::Server => "server",
        }
    }
}

/// The origin of a command, carried through the dispatcher into policy and audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A connection on the client socket.
    Client {
        id: u64,
        kind: ClientKind,
        caller_pane: Option<PaneId>,
    },
    Server,
}

impl Origin {
    pub fn caller_pane(&self) -> Option<PaneId> {
        match self {
            Origin::Client { caller_pane, .. } => *caller_pane,
            Origin::Server => None,
        }
    }

    pub fn client_id(&self) -> Option<u64> {
        match self {
            Origin::Client { id, .. } => Some(*id),
            Origin::Server => None,
        }
    }

    pub fn surface(&self) -> Surface {
        match self {
            Origin::Client {
                kind: ClientKind::Tui,
                ..
            } => Surface::Keys,
            Origin::Client {
                kind: ClientKind::Cli,
                ..
            } => Surface::Cli,
            Origin::Server => Surface::Server,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Client {
                id,
                kind,
                caller_pane,
            } => {
                let kind = match kind {
                    ClientKind::Tui => "attached client",
                    ClientKind::Cli => "cli",
                };
                write!(f, "{kind} {id}")?;
                if let Some(p) = caller_pane {
                    write!(f, " in pane {p}")?;
                }
                Ok(())
            }
            Origin::Server => f.write_str("server"),
        }
    }
}
