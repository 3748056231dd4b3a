//! The paste buffer verbs that read or write files or print lists, with tmux's names,
//! aliases and flags: save-buffer, load-buffer, list-buffers.
//!
//! `save-buffer` and `load-buffer` read and write files here, in the CLI, not in the
//! server as tmux does: the file is the caller's (its path relative to the caller's
//! directory, written with the caller's rights), and the server, which agents reach
//! too, never opens a path for a buffer. A file `save-buffer` creates is 0600: a
//! buffer may hold whatever was on a screen. They run `show-buffer` and `set-buffer`.

use crate::Caller;
use anyhow::bail;
use clap::Subcommand;
use fugue_protocol::cmd;
use fugue_protocol::{BufferData, Command, SetBuffer};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BufferVerb {
    /// Write a paste buffer to a file (created 0600), or to standard output with `-`.
    #[command(visible_alias = "saveb")]
    SaveBuffer {
        /// Append to the file.
        #[arg(short = 'a')]
        append: bool,
        #[arg(short = 'b', value_name = "BUFFER")]
        name: Option<String>,
        path: PathBuf,
    },
    /// Load a file (or standard input with `-`) into a paste buffer.
    #[command(visible_alias = "loadb")]
    LoadBuffer {
        #[arg(short = 'b', value_name = "BUFFER")]
        name: Option<String>,
        /// Also send the buffer to the client's terminal's clipboard (OSC 52).
        #[arg(short = 'w')]
        clipboard: bool,
        /// The client for -w (default the calling client, else the latest active).
        #[arg(short = 't', value_name = "target-client")]
        client: Option<String>,
        path: PathBuf,
    },
    /// List paste buffers, most recent first.
    #[command(visible_alias = "lsb")]
    ListBuffers {
        /// Format, with #{buffer_name}-style variables.
        #[arg(short = 'F')]
        format: Option<String>,
        /// Only the buffers for which this format is true (not empty, not 0).
        #[arg(short = 'f')]
        filter: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// How the answer is shown.
#[derive(Debug)]
pub enum BufferPrinter {
    Nothing,
    Save {
        path: PathBuf,
        append: bool,
    },
    List {
        format: Option<String>,
        /// `-f`: only the buffers for which this format is true.
        filter: Option<String>,
        json: bool,
    },
}

/// The file `load-buffer` reads: fugue's buffers hold text.
fn load(path: &std::path::Path, caller: &Caller) -> anyhow::Result<String> {
    let limit = fugue_protocol::buffers::MAX_BUFFER_BYTES as u64 + 1;
    let bytes = caller.read(path, limit)?;
    if bytes.len() as u64 >= limit {
        bail!(
            "{} is over the limit of {} bytes per buffer",
            path.display(),
            fugue_protocol::buffers::MAX_BUFFER_BYTES
        );
    }
    String::from_utf8(bytes).map_err(|_| {
        anyhow::anyhow!(
            "{} is not UTF-8 text: fugue's buffers hold text",
            path.display()
        )
    })
}

pub fn command_for(verb: BufferVerb, caller: &Caller) -> anyhow::Result<(Command, BufferPrinter)> {
    Ok(match verb {
        BufferVerb::SaveBuffer { append, name, path } => (
            Command::ShowBuffer(cmd::ShowBuffer { name }),
            BufferPrinter::Save { path, append },
        ),
        BufferVerb::LoadBuffer {
            name,
            clipboard,
            client,
            path,
        } => (
            Command::SetBuffer(SetBuffer {
                name,
                append: false,
                rename: None,
                data: Some(BufferData::Text(load(&path, caller)?)),
                clipboard,
                client,
            }),
            BufferPrinter::Nothing,
        ),
        BufferVerb::ListBuffers {
            format,
            filter,
            json,
        } => (
            Command::ListBuffers,
            BufferPrinter::List {
                format,
                filter,
                json,
            },
        ),
    })
}
