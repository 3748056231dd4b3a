//! Messages between a client and the server.
//!
//! A connection starts with the handshake: the client sends a [`Hello`], the server
//! answers a [`HandshakeReply`]. Those two types are frozen across protocol versions so
//! that a mismatch can always be detected and explained. After a successful handshake
//! the client sends [`ClientMessage`]s and the server [`ServerMessage`]s.

use crate::command::Command;
use crate::error::CommandError;
use crate::ids::PaneId;
use crate::response::Response;
use crate::screen::Frame;
use serde::{Deserialize, Serialize};

/// The protocol version. From 10 on, additions do not bump it: a new command, a new
/// message or a new field with a default is an addition an older peer answers or
/// skips (docs/protocol.md, "Compatible additions"). Bump it when an existing
/// message changes shape, and raise [`MIN_PROTOCOL`] with it.
pub const PROTOCOL_VERSION: u32 = 10;

/// The oldest protocol this side still speaks with: a peer from here on is welcomed
/// whatever its own version, and the two use what both know.
pub const MIN_PROTOCOL: u32 = 10;

/// What a request is when its command does not decode (a newer client's command): its
/// id, so the server answers it instead of dropping the connection.
#[derive(Deserialize)]
pub enum RequestProbe {
    Request { id: u64 },
}

/// What a server message is when it does not decode (a newer server's answer or
/// message): a response's id, so the client ends that call with an error instead of
/// waiting for ever; anything else is skipped.
#[derive(Deserialize)]
pub enum ResponseProbe {
    Response { id: u64 },
}

/// What kind of program is connecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClientKind {
    /// A one-shot CLI verb.
    Cli,
    /// An attached terminal client.
    Tui,
}

/// The first frame of every connection. Frozen: never change its fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    pub client_version: String,
    pub kind: ClientKind,
    /// The pane the client runs in (`FUGUE_PANE_ID`), so the server knows the caller.
    pub caller_pane: Option<PaneId>,
}

/// The server's answer to [`Hello`]. Frozen: never change its shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HandshakeReply {
    Welcome {
        protocol: u32,
        server_version: String,
        server_pid: u32,
        client_id: u64,
    },
    Refused {
        reason: String,
    },
}

/// How a [`HandshakeReply::Refused`] reason starts when the server is exiting (its
/// last session ended as the client connected). The client then starts a new server
/// and tries again; the frozen reply has no variant of its own for it.
pub const EXITING: &str = "the server is exiting";

/// Messages from a client after the handshake.
// Messages live only until they are encoded or handled; boxing the command would add
// an allocation per request for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// Run a command; the server answers with a [`ServerMessage::Response`] carrying `id`.
    Request { id: u64, command: Command },
    /// The client's terminal size (sent before attaching and whenever it changes).
    Resize { cols: u16, rows: u16 },
    /// tmux control mode (`tmux -C`): what a control client asks of its connection.
    Control(ControlRequest),
}

/// A control client's requests (protocol 7). Commands still travel as `Request`s; these
/// are what only the connection that receives the control stream can ask.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControlRequest {
    /// Become a control client of `session`: from now on the server sends
    /// [`ServerMessage::Control`] events (pane output, notifications) for it.
    Attach {
        session: crate::ids::SessionId,
        /// The client's `TERM`, for `list-clients` (older clients send none).
        #[serde(default)]
        term: Option<String>,
    },
    /// `refresh-client -f`: `pause_after` in milliseconds (tmux's `pause-after=N`,
    /// given in seconds there), `no_output` stops `%output` altogether.
    Flags {
        pause_after_ms: Option<u32>,
        no_output: bool,
    },
    /// `refresh-client -A %P:on|off|continue|pause`.
    Pane { pane: PaneId, action: PaneFlow },
    /// Answered with [`ControlEvent::Synced`] once everything queued for the client
    /// before it was sent: the notifications a command set off come before the
    /// client's next command, as in tmux.
    Sync { id: u64 },
}

/// What `refresh-client -A` does to one pane's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaneFlow {
    On,
    Off,
    Continue,
    Pause,
}

/// What a control client hears (protocol 7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControlEvent {
    /// Bytes a pane's program wrote, as it wrote them. `age_ms` is set when the client
    /// asked for `pause-after` (tmux then writes `%extended-output`).
    Output {
        pane: PaneId,
        #[serde(with = "serde_bytes")]
        data: Vec<u8>,
        age_ms: Option<u64>,
    },
    /// A notification line as tmux writes it, without its newline (`%window-add @3`).
    Line(String),
    /// The server ends the control client (`%exit REASON`), then closes the connection.
    Exit { reason: Option<String> },
    /// The answer to [`ControlRequest::Sync`].
    Synced { id: u64 },
}

/// How a detached terminal client leaves, beyond printing why: tmux's
/// `detach-client -P` (SIGHUP to the client's parent, its shell, so the terminal
/// closes) and `-E` (the client is replaced by a shell command). The default is a
/// plain detach.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    #[serde(default)]
    pub hangup_parent: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<String>,
}

impl Leave {
    /// A plain detach: nothing more is done.
    pub fn is_plain(&self) -> bool {
        *self == Leave::default()
    }
}

/// Messages from the server after the handshake.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// The answer to the request with the same id.
    Response {
        id: u64,
        result: Result<Response, CommandError>,
    },
    /// Screen and layout changes for an attached client.
    Frame(Frame),
    /// A line for the status bar.
    Notice(String),
    /// A line for the status bar for this many milliseconds (0: until a key is
    /// pressed): `display-message -d`.
    NoticeFor { text: String, ms: u32 },
    /// A tmux command line to run as a binding's: `confirm-before` and
    /// `display-menu` sent from the CLI to the person at this client.
    Run(Vec<String>),
    /// The client is no longer attached (detached, session ended, server exiting).
    Detached {
        reason: String,
        /// What the client does as it leaves (`detach-client -P/-E`, `attach -x`).
        #[serde(default, skip_serializing_if = "Leave::is_plain")]
        leave: Leave,
    },
    /// Draw everything again from scratch (`refresh-client`).
    Redraw,
    /// Lock the terminal: run the session's `lock-command` in it and draw again when
    /// it exits (`lock-server`, `lock-session`, `lock-client`).
    Lock,
    /// Stop until the shell continues the client (`suspend-client`).
    Suspend,
    /// Keys to handle as if typed here (`send-keys -K`), by tmux name.
    TypeKeys(Vec<String>),
    /// The key tables changed: the client uses these from now on.
    Keys(crate::KeyTable),
    /// Options the client acts on changed (`set-option`): the whole set, as at attach.
    Options(crate::options::ClientOptions),
    /// tmux control mode: output and notifications for a control client.
    Control(ControlEvent),
}
