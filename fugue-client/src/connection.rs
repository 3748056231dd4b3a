//! A connection to the server: handshake, then requests answered by id.

use bytes::Bytes;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{
    ClientKind, ClientMessage, EXITING, HandshakeReply, Hello, PROTOCOL_VERSION, ServerMessage,
};
use fugue_protocol::{Command, CommandError, PaneId, Response};
use futures::{SinkExt, StreamExt};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio_util::codec::{FramedRead, FramedWrite};

/// How long connecting may take: a socket's listener that stopped accepting (a stuck
/// server) lets connections queue, and a full queue makes `connect` wait.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the server may take to answer the hello.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("no server running on {0}")]
    NoServer(PathBuf),
    #[error("the server refused the connection: {0}")]
    Refused(String),
    /// The server is exiting (its last session ended as we connected): a new one can
    /// be started once it is gone.
    #[error("the server at {0} is exiting; run the command again to start a new one")]
    Exiting(PathBuf),
    #[error("cannot connect to {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the server closed the connection during the handshake")]
    Closed,
    #[error(
        "the server at {} did not answer within {} s; it may be overloaded or stuck — see its log at {}",
        path.display(), secs, log.display()
    )]
    Timeout {
        path: PathBuf,
        secs: u64,
        log: PathBuf,
    },
    #[error(transparent)]
    Codec(#[from] codec::CodecError),
}

/// Where the server on `socket` writes its log (as `fugue-server` names it).
pub fn log_path(socket: &Path) -> PathBuf {
    fugue_protocol::paths::state_dir(&fugue_protocol::paths::ProcessEnv).join(format!(
        "server-{}.log",
        fugue_protocol::paths::server_label(socket)
    ))
}

fn timed_out(path: &Path, limit: Duration) -> ConnectError {
    ConnectError::Timeout {
        path: path.into(),
        secs: limit.as_secs(),
        log: log_path(path),
    }
}

/// Reading half: decoded server messages.
pub struct Incoming(FramedRead<OwnedReadHalf, RawCodec>);

/// Writing half: requests with increasing ids.
pub struct Outgoing {
    sink: Sink,
    next_id: u64,
}

enum Sink {
    /// Each write waits until the socket took it (one request, then its answer).
    Direct(FramedWrite<OwnedWriteHalf, RawCodec>),
    /// Writes are queued for a task of their own (see [`Outgoing::queue`]).
    Queued(tokio::sync::mpsc::UnboundedSender<Bytes>),
}

pub struct Connection {
    pub incoming: Incoming,
    pub outgoing: Outgoing,
}

impl Incoming {
    /// The next message, or None when the server closed the connection.
    pub async fn next(&mut self) -> anyhow::Result<Option<ServerMessage>> {
        loop {
            let Some(frame) = self.0.next().await else {
                return Ok(None);
            };
            let frame = frame?;
            let e = match codec::decode(&frame) {
                Ok(msg) => return Ok(Some(msg)),
                Err(e) => e,
            };
            // A newer server's answer ends its call with an error; any other message
            // this client does not know is skipped (docs/protocol.md).
            match codec::decode::<fugue_protocol::message::ResponseProbe>(&frame) {
                Ok(fugue_protocol::message::ResponseProbe::Response { id }) => {
                    let error = CommandError::new(
                        fugue_protocol::ErrorCode::Internal,
                        format!("the server's answer is one this fugue does not understand ({e}); the server is newer than this client"),
                    )
                    .with_suggestion("use the same fugue version for the client and the server");
                    return Ok(Some(ServerMessage::Response {
                        id,
                        result: Err(error),
                    }));
                }
                Err(_) => tracing::warn!(
                    "skipped a message from the server this client does not know: {e}"
                ),
            }
        }
    }
}

impl Outgoing {
    async fn write(&mut self, msg: &ClientMessage) -> anyhow::Result<()> {
        let frame = Bytes::from(codec::encode(msg)?);
        match &mut self.sink {
            Sink::Direct(framed) => framed.send(frame).await?,
            Sink::Queued(tx) => tx
                .send(frame)
                .map_err(|_| anyhow::anyhow!("the connection to the server is closed"))?,
        }
        Ok(())
    }

    /// From now on writes never wait for the socket: a task of their own sends them.
    ///
    /// For a client that must keep reading while it writes (the attached terminal). The
    /// server answers every request, so a client that stopped reading until a burst of
    /// requests (an unbracketed paste of a few hundred keys) was written would wait on
    /// a server waiting on it: both socket buffers full, both sides stuck for good.
    /// What queues is what the person typed or pasted, nothing the server sends.
    pub fn queue(&mut self) {
        if matches!(self.sink, Sink::Queued(_)) {
            return;
        }
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
        let Sink::Direct(mut framed) = std::mem::replace(&mut self.sink, Sink::Queued(tx)) else {
            return;
        };
        tokio::spawn(async move {
            while let Some(frame) = rx.recv().await {
                if framed.send(frame).await.is_err() {
                    break;
                }
            }
        });
    }

    /// Sends a request and returns its id.
    pub async fn request(&mut self, command: Command) -> anyhow::Result<u64> {
        self.next_id += 1;
        let id = self.next_id;
        self.write(&ClientMessage::Request { id, command }).await?;
        Ok(id)
    }

    /// A control client's request (`tmux -C`).
    pub async fn control(
        &mut self,
        req: fugue_protocol::message::ControlRequest,
    ) -> anyhow::Result<()> {
        self.write(&ClientMessage::Control(req)).await
    }

    pub async fn resize(&mut self, cols: u16, rows: u16) -> anyhow::Result<()> {
        self.write(&ClientMessage::Resize { cols, rows }).await
    }
}

impl Connection {
    pub async fn open(
        path: &Path,
        kind: ClientKind,
        caller_pane: Option<PaneId>,
    ) -> Result<Connection, ConnectError> {
        let stream = tokio::time::timeout(CONNECT_TIMEOUT, UnixStream::connect(path))
            .await
            .map_err(|_| timed_out(path, CONNECT_TIMEOUT))?
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused => {
                    ConnectError::NoServer(path.into())
                }
                // The listener closed with this connection still waiting in its
                // backlog: a server exiting as we connected. Safe to try again.
                std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted => {
                    ConnectError::Closed
                }
                _ => ConnectError::Io {
                    path: path.into(),
                    source: e,
                },
            })?;
        let (rd, wr) = stream.into_split();
        let mut reader = FramedRead::new(rd, RawCodec::default());
        let mut writer = FramedWrite::new(wr, RawCodec::default());
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            client_version: env!("CARGO_PKG_VERSION").into(),
            kind,
            caller_pane,
        };
        let hello = Bytes::from(codec::encode(&hello)?);
        let handshake = async {
            writer.send(hello).await.map_err(|_| ConnectError::Closed)?;
            // A reset here is a server that went away (exiting, or crashed) before it
            // answered: nothing was asked of it yet, so trying again is safe.
            match reader.next().await {
                Some(Ok(frame)) => Ok(frame),
                Some(Err(_)) | None => Err(ConnectError::Closed),
            }
        };
        let frame = tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake)
            .await
            .map_err(|_| timed_out(path, HANDSHAKE_TIMEOUT))??;
        match codec::decode::<HandshakeReply>(&frame)? {
            HandshakeReply::Welcome { protocol, .. } if protocol < fugue_protocol::MIN_PROTOCOL => {
                Err(ConnectError::Refused(format!(
                    "protocol version mismatch: the server at {} speaks protocol {protocol}, older than this fugue ({}) speaks with (protocol {} or later). Use the same fugue version for both, or start a separate server with `fugue -L NAME`",
                    path.display(),
                    env!("CARGO_PKG_VERSION"),
                    fugue_protocol::MIN_PROTOCOL
                )))
            }
            HandshakeReply::Welcome { server_pid, .. } => {
                fugue_protocol::format::local::set_server(
                    server_pid,
                    path.to_string_lossy().into_owned(),
                );
                Ok(Connection {
                    incoming: Incoming(reader),
                    outgoing: Outgoing {
                        sink: Sink::Direct(writer),
                        next_id: 0,
                    },
                })
            }
            HandshakeReply::Refused { reason } if reason.starts_with(EXITING) => {
                Err(ConnectError::Exiting(path.into()))
            }
            HandshakeReply::Refused { reason } => Err(ConnectError::Refused(reason)),
        }
    }

    /// Sends one command and waits for its answer.
    pub async fn call(
        &mut self,
        command: Command,
    ) -> anyhow::Result<Result<Response, CommandError>> {
        let id = self.outgoing.request(command).await?;
        loop {
            match self.incoming.next().await? {
                Some(ServerMessage::Response { id: got, result }) if got == id => {
                    return Ok(result);
                }
                Some(_) => continue,
                None => anyhow::bail!("the server closed the connection before answering"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a newer server might send: a message this client has never heard of, and
    /// an answer of a kind it does not know, both in the shapes of `ServerMessage`.
    #[derive(serde::Serialize)]
    enum FutureServer {
        Hologram {
            frames: u32,
        },
        Response {
            id: u64,
            result: Result<FutureAnswer, ()>,
        },
    }

    #[derive(serde::Serialize)]
    enum FutureAnswer {
        Teleported { to: String },
    }

    /// Stable wire tags (issue 26): an unknown message is skipped, an unknown answer
    /// ends its call with an error, and what follows is read as usual.
    #[tokio::test]
    async fn a_newer_servers_messages_are_skipped_or_answered() {
        let (a, b) = UnixStream::pair().expect("a socket pair");
        let (read, _write) = a.into_split();
        let mut incoming = Incoming(FramedRead::new(read, RawCodec::default()));
        let mut server = FramedWrite::new(b, RawCodec::default());
        for body in [
            codec::encode(&FutureServer::Hologram { frames: 3 }),
            codec::encode(&FutureServer::Response {
                id: 4,
                result: Ok(FutureAnswer::Teleported { to: "mars".into() }),
            }),
            codec::encode(&ServerMessage::Notice("still here".into())),
        ] {
            server
                .send(Bytes::from(body.expect("encode")))
                .await
                .expect("send");
        }
        match incoming.next().await.expect("read") {
            Some(ServerMessage::Response {
                id: 4,
                result: Err(e),
            }) => {
                assert!(e.message.contains("does not understand"), "{e:?}")
            }
            other => panic!("expected an error for call 4, got {other:?}"),
        }
        match incoming.next().await.expect("read") {
            Some(ServerMessage::Notice(text)) => assert_eq!(text, "still here"),
            other => panic!("expected the notice, got {other:?}"),
        }
    }
}
