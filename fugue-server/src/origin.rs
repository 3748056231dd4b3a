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
    /// An MCP tool call.
    Mcp,
    /// A sideband tag printed in a pane.
    Sideband,
    /// A hook's command (`set-hook`), run when its event happened.
    Hook,
    /// The server itself (pane lifecycle, shutdown).
    Server,
}

impl Surface {
    pub fn name(self) -> &'static str {
        match self {
            Surface::Keys => "keys",
            Surface::Cli => "cli",
            Surface::Mcp => "mcp",
            Surface::Sideband => "sideband",
            Surface::Hook => "hook",
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
    /// A connection on the MCP socket, and the pane its agent runs in; or (`http`) a
    /// session of MCP over HTTP, whose caller runs in no pane we can know.
    Mcp {
        connection: u64,
        caller_pane: Option<PaneId>,
        http: bool,
    },
    /// A tag printed by a pane's program.
    Sideband {
        pane: PaneId,
    },
    /// A client connection from inside an agent's pane (one started from a preset,
    /// whoever started it) or a pane an agent created: the program there is, or acts
    /// for, the agent, so it gets the agent's rules (policy tiers, scope,
    /// self-protection, the protected first pane, and for sideband spawn depth and
    /// count), however it reaches the server, and its keys are never a person's.
    Delegated {
        client: u64,
        pane: PaneId,
        agent: Agent,
    },
    /// A hook's command: its event's object is the default target. Only a person sets
    /// hooks (agents are refused `set-hook`), so they run with a person's rights.
    Hook {
        hook: &'static str,
        object: crate::hooks::Object,
        /// The name of a session that is gone (`session-closed`), for
        /// `#{hook_session_name}`.
        session_name: Option<String>,
        /// How many hooks deep (a hook's command that sets off another hook).
        depth: u8,
    },
    Server,
}

/// The agent a delegated origin acts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// The MCP client that created the pane.
    Mcp { connection: u64 },
    /// The pane's sideband tags made the pane (or made it an agent's).
    Sideband,
    /// The agent running in `pane`, judged by the MCP surface's rules: an agent a
    /// person started (`fugue agent spawn`), or a pane such an agent created.
    Pane { pane: PaneId },
}

impl Origin {
    pub fn caller_pane(&self) -> Option<PaneId> {
        match self {
            Origin::Client { caller_pane, .. } | Origin::Mcp { caller_pane, .. } => *caller_pane,
            Origin::Sideband { pane } | Origin::Delegated { pane, .. } => Some(*pane),
            Origin::Hook { object, .. } => object.pane,
            Origin::Server => None,
        }
    }

    pub fn client_id(&self) -> Option<u64> {
        match self {
            Origin::Client { id, .. } | Origin::Delegated { client: id, .. } => Some(*id),
            _ => None,
        }
    }

    /// The pane whose sideband limits (depth, count) a command from here counts
    /// against.
    pub fn sideband_pane(&self) -> Option<PaneId> {
        match self {
            Origin::Sideband { pane }
            | Origin::Delegated {
                pane,
                agent: Agent::Sideband,
                ..
            } => Some(*pane),
            _ => None,
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
            Origin::Mcp { .. }
            | Origin::Delegated {
                agent: Agent::Mcp { .. } | Agent::Pane { .. },
                ..
            } => Surface::Mcp,
            Origin::Sideband { .. }
            | Origin::Delegated {
                agent: Agent::Sideband,
                ..
            } => Surface::Sideband,
            Origin::Hook { .. } => Surface::Hook,
            Origin::Server => Surface::Server,
        }
    }

    /// Origins that act on behalf of a program in a pane rather than a person.
    pub fn is_agent(&self) -> bool {
        matches!(self.surface(), Surface::Mcp | Surface::Sideband)
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
            Origin::Mcp {
                connection,
                caller_pane,
                http,
            } => {
                if *http {
                    write!(f, "MCP over HTTP, connection {connection}")?;
                } else {
                    write!(f, "MCP connection {connection}")?;
                }
                if let Some(p) = caller_pane {
                    write!(f, ", calling from pane {p}")?;
                }
                Ok(())
            }
            Origin::Sideband { pane } => write!(f, "sideband, pane {pane}"),
            Origin::Delegated {
                client,
                pane,
                agent,
            } => {
                write!(f, "client {client} in pane {pane}, acting for ")?;
                match agent {
                    Agent::Mcp { connection } => write!(f, "MCP connection {connection}"),
                    Agent::Sideband => f.write_str("a sideband tag"),
                    Agent::Pane { pane } => write!(f, "the agent in pane {pane}"),
                }
            }
            Origin::Hook { hook, .. } => write!(f, "hook {hook}"),
            Origin::Server => f.write_str("server"),
        }
    }
}
