//! The verb table: every `fugue VERB` (tmux's names, flags and aliases) declared once
//! with clap ([`args`]), and its conversion to a protocol [`Command`] ([`command_for`]).
//!
//! Why a crate of its own: the CLI, the terminal client (`C-b :`, key bindings,
//! `source-file`) and the server (hooks, which run with no client) all turn tmux
//! command lines into Commands, and must turn them into the same ones. The server
//! cannot depend on the client, so the table lives below both. What only a terminal
//! process can do (print an answer, read standard input, know the caller's directory)
//! is passed in as a [`Caller`] or left to the client's printer.

mod admin;
mod agent;
pub mod args;
mod buffers;
mod caller;
pub mod command_prompt;
mod convert;
mod convert_args;
mod declared;
mod hooks;
pub mod line;
mod manage;
mod observe;
mod options;
pub mod pane_modes;
mod popup;
mod printer;
pub mod render;
mod restore;
pub mod sequence;
pub mod shell_args;
pub mod tree;
pub mod usage;

pub use admin::AdminVerb;
pub use agent::{
    AgentPrinter, AgentVerb, HOOK_PAYLOAD_MAX, ReportArgs, SetupAgent, SetupArgs, hook_report,
    hook_state,
};
pub use args::{Cli, SpawnArgs, Verb};
pub use buffers::{BufferPrinter, BufferVerb};
pub use caller::{Caller, client_env};
pub use convert::command_for;
pub use declared::Declared;
pub use hooks::HookVerb;
pub use manage::ManageVerb;
pub use observe::ObserveVerb;
pub use options::{OptionPrinter, OptionVerb, SetArgs, ShowArgs};
pub use printer::Printer;
pub use restore::{RestoreArgs, RestorePrinter};

use fugue_protocol::Command;

/// A verb or command line that does not make a Command: what was wrong, one line, as
/// the CLI prints it after `fugue:` and the status line shows it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerbError(pub String);

impl From<anyhow::Error> for VerbError {
    fn from(e: anyhow::Error) -> Self {
        VerbError(format!("{e:#}"))
    }
}

/// A Command and how its answer is shown.
pub type Converted = (Command, Printer);
