//! The wire contract between fugue's server and its clients.
//!
//! - [`agent`]: agent states, results and messages.
//! - [`command`]: the one [`Command`] set and its table ([`COMMANDS`]), shared by every
//!   surface (keys, CLI, MCP, sideband).
//! - [`message`]: the handshake and the messages of a connection, each request carrying
//!   an id that its response repeats.
//! - [`codec`]: length-delimited MessagePack frames.
//! - [`screen`]: compact rows, the unit of screen updates and history.
//! - [`buffers`]: paste buffers' commands and answers.
//! - [`options`]: `set-option` / `show-options` and the options clients act on;
//!   [`status_line`]: the status line's options a client draws with.
//! - [`keys`] and [`bindings`]: tmux key names and what keys do in a client.
//! - [`mouse`]: mouse events for panes and their reports.
//! - [`target`], [`ids`]: naming panes, windows and sessions.
//! - [`restore`]: sessions a restarted server can bring back.
//! - [`paths`]: where sockets, logs and config live.
//! - [`excerpt`]: caller values cut short for errors and logs.
//! - [`passthrough`]: what reaches the person's own terminal (cursor look, clipboard,
//!   bell, title).
//!
//! This crate does no I/O beyond the codec.

pub mod admin;
pub mod agent;
pub mod arrange;
pub mod base64;
pub mod bindings;
pub mod buffers;
pub mod codec;
pub mod command;
mod commands_doc;
pub mod copy_tables;
pub mod error;
pub mod excerpt;
pub mod format;
/// Harness bodies of the fuzz targets in `fuzz/`; not an API.
#[doc(hidden)]
pub mod fuzzing;
pub mod hooks;
pub mod ids;
pub mod key_tables;
pub mod keys;
pub mod limits;
pub mod manage;
pub mod menu;
pub mod message;
pub mod mouse;
pub mod observe;
pub mod options;
pub mod pane_detail;
pub mod passthrough;
pub mod paths;
pub mod popup;
pub mod response;
pub mod restore;
pub mod screen;
pub mod status_line;
pub mod target;
pub mod tmux_cmd;

pub use agent::*;
pub use bindings::KeyTable;
pub use buffers::{BufferContent, BufferData, BufferInfo, PasteBuffer, SetBuffer};
/// Argument structs their table entries declare now, still at the root under the
/// names they had when `manage` declared them.
pub use command::cmd::{BreakPane, RotateWindow, SwapPane};
pub use command::*;
pub use error::{CommandError, ErrorCode};
pub use hooks::{SetHook, ShowHooks};
pub use ids::{PaneId, SessionId, WindowId};
pub use keys::Key;
pub use manage::{
    ChannelOp, JoinPane, MoveWindow, Respawn, SetEnvironment, ShowEnvironment, SwapSource,
    SwapWindow, WindowPlace,
};
pub use message::{
    ClientKind, ClientMessage, HandshakeReply, Hello, Leave, MIN_PROTOCOL, PROTOCOL_VERSION,
    ServerMessage,
};
pub use observe::*;
pub use options::{ClientOptions, OptionLine, OptionScope, SetOption, ShowOptions};
pub use response::*;
pub use screen::{Row, Style};
pub use target::{Target, WindowSpec};
