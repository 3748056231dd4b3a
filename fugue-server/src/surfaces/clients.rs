//! Connections on the client socket: handshake, requests answered by id, and the
//! attached client's terminal size.

use super::admission::{Admission, Ticket};
use super::frames;
use super::inbound::{self, FrameReader, InboundError};
use crate::attached::ClientEntry;
use crate::dispatch::dispatch;
use crate::origin::Origin;
use crate::server::Server;
use bytes::Bytes;
use fugue_protocol::cmd;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{
    ClientKind, ClientMessage, EXITING, HandshakeReply, Hello, MIN_PROTOCOL, PROTOCOL_VERSION,
    ServerMessage,
};
use futures::SinkExt;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::UnixStream;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::{Mutex, Notify};
use tokio_util::codec::FramedWrite;

/// The write half of a connection, shared by the request loop and the frame task.
pub type Writer = Arc<Mutex<FramedWrite<OwnedWriteHalf, RawCodec>>>;

/// Writes one message; false when the connection is gone.
pub async fn send(writer: &Writer, msg: &ServerMessage) -> bool {
    match codec::encode(msg) {
        Ok(body) => writer.lock().await.send(Bytes::from(body)).await.is_ok(),
        Err(e) => {
            tracing::error!("cannot encode a message: {e}");
            false
        }
    }
}

/// Sends a request's answer. One too large for a frame becomes a `limit_exceeded`
/// error saying how to ask for less, instead of a dropped connection.
async fn send_response(
    writer: &Writer,
    origin: &Origin,
    id: u64,
    result: Result<fugue_protocol::Response, fugue_protocol::CommandError>,
) -> bool {
    let body = match codec::encode(&ServerMessage::Response { id, result }) {
        Ok(body) => body,
        Err(e) => {
            tracing::error!("{origin}: cannot encode an answer: {e}");
            return false;
        }
    };
    let body = if body.len() > codec::MAX_FRAME {
        tracing::warn!(
            "{origin}: an answer of {} bytes is over the frame limit of {} bytes; answered limit_exceeded",
            body.len(),
            codec::MAX_FRAME
        );
        let error = fugue_protocol::CommandError::new(
            fugue_protocol::ErrorCode::LimitExceeded,
            format!(
                "the answer is {} MiB, over the limit of {} MiB for one answer",
                body.len() / (1024 * 1024),
                codec::MAX_FRAME / (1024 * 1024)
            ),
        )
        .with_suggestion(
            "ask for less: fewer lines (capture-pane -S/-E, read_pane's line range), or without colors (no -e)",
        );
        match codec::encode(&ServerMessage::Response {
            id,
            result: Err(error),
        }) {
            Ok(b) => b,
            Err(_) => return false,
        }
    } else {
        body
    };
    writer.lock().await.send(Bytes::from(body)).await.is_ok()
}

/// Accepts connections until the server shuts down, refusing other users and
/// connections past the limit (see `admission.rs`).
pub async fn accept_loop(
    server: Arc<Server>,
    listener: tokio::net::UnixListener,
    admission: Arc<Admission>,
) {
    loop {
        let stream = tokio::select! {
            s = admission.accept(&listener, refuse) => match s {
                Some(s) => s,
                None => continue,
            },
            _ = server.shutdown.notified() => return,
        };
        if let Some(reason) = peer_refusal(&stream) {
            tokio::spawn(refuse(stream, reason));
            continue;
        }
        match admission.admit() {
            Ok(ticket) => {
                tokio::spawn(handle(
                    Arc::clone(&server),
                    stream,
                    ticket,
                    Arc::clone(&admission.frame_budget),
                ));
            }
            Err(why) => {
                tokio::spawn(refuse(stream, why));
            }
        }
    }
}

/// Tells a connection that cannot be served why, in the handshake's answer, then
/// closes it. Its Hello is read first (bounded in size and time), so that the client
/// reads the answer instead of failing to write to a closed socket.
async fn refuse(stream: UnixStream, reason: String) {
    let (rd, wr) = stream.into_split();
    let mut reader = FrameReader::new(rd, inbound::budget(), inbound::MAX_HELLO);
    let _ = tokio::time::timeout(Duration::from_secs(2), reader.next()).await;
    let writer: Writer = Arc::new(Mutex::new(FramedWrite::new(wr, RawCodec::default())));
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        reply(&writer, &HandshakeReply::Refused { reason }),
    )
    .await;
}

/// Only the server's own user may connect: why this peer may not (logged), if so.
pub fn peer_refusal(stream: &UnixStream) -> Option<String> {
    let me = crate::socket::uid();
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == me => None,
        Ok(cred) => {
            tracing::warn!(
                "refused a connection from uid {} (pid {:?}): only uid {me} may connect",
                cred.uid(),
                cred.pid()
            );
            Some(format!(
                "permission denied: this server belongs to uid {me} (you are uid {}); start your own with `fugue -L NAME`",
                cred.uid()
            ))
        }
        Err(e) => {
            tracing::warn!("refused a connection whose peer cannot be identified: {e}");
            Some(format!(
                "permission denied: the server cannot tell which user is connecting ({e})"
            ))
        }
    }
}

/// Just the version, to explain a mismatch even when the rest of a Hello is foreign.
#[derive(Deserialize)]
struct VersionProbe {
    protocol: u32,
}

async fn handle(
    server: Arc<Server>,
    stream: UnixStream,
    _ticket: Ticket,
    budget: Arc<tokio::sync::Semaphore>,
) {
    let peer_pid = stream.peer_cred().ok().and_then(|c| c.pid());
    let (rd, wr) = stream.into_split();
    let mut reader = FrameReader::new(rd, budget, inbound::MAX_HELLO);
    let writer: Writer = Arc::new(Mutex::new(FramedWrite::new(wr, RawCodec::default())));
    let first = match tokio::time::timeout(Duration::from_secs(10), reader.next()).await {
        Ok(Ok(Some(frame))) => frame,
        Ok(Err(e)) => {
            tracing::warn!("a connection's first frame was refused: {e}");
            return;
        }
        _ => return,
    };
    let hello: Hello = match codec::decode(&first) {
        Ok(h) => h,
        Err(e) => {
            let reason = match codec::decode::<VersionProbe>(&first) {
                Ok(p) if p.protocol < MIN_PROTOCOL => version_mismatch(p.protocol),
                // Same protocol, so the hello itself is wrong (an unknown client kind,
                // a missing field): say what, not that the versions differ.
                Ok(_) => format!(
                    "this server (fugue {}, protocol {PROTOCOL_VERSION}) did not understand the client's hello: {e}",
                    env!("CARGO_PKG_VERSION")
                ),
                Err(_) => format!("the first message was not a fugue hello ({e})"),
            };
            tracing::warn!("refused a client: {reason}");
            reply(&writer, &HandshakeReply::Refused { reason }).await;
            return;
        }
    };
    // A newer client is welcome: what it sends that this server does not know is
    // answered as unknown (below), not a reason to refuse it.
    if hello.protocol < MIN_PROTOCOL {
        tracing::warn!("refused a client speaking protocol {}", hello.protocol);
        reply(
            &writer,
            &HandshakeReply::Refused {
                reason: version_mismatch(hello.protocol),
            },
        )
        .await;
        return;
    }
    let caller_pane = super::peer::caller_pane(&server, peer_pid, hello.caller_pane).await;
    let id = server.mux.attached.next_id();
    let notify = Arc::new(Notify::new());
    let mailbox = Arc::new(crate::attached::Mailbox::default());
    // Counted before it is welcomed, so the server does not exit under it.
    let entry = ClientEntry {
        kind: hello.kind,
        caller_pane,
        session: None,
        size: None,
        notify: Arc::clone(&notify),
        control: Arc::clone(&mailbox),
        focused: true,
        active_at: 0,
        pid: peer_pid.and_then(|p| u32::try_from(p).ok()),
        tty: None,
        termname: None,
        created: crate::attached::unix_now(),
        activity: crate::attached::unix_now(),
        control_mode: false,
        prompt: None,
    };
    if !server.client_connected(id, entry) {
        let reason = format!("{EXITING}; start a new one and connect again");
        reply(&writer, &HandshakeReply::Refused { reason }).await;
        return;
    }
    let welcomed = reply(
        &writer,
        &HandshakeReply::Welcome {
            protocol: PROTOCOL_VERSION,
            server_version: env!("CARGO_PKG_VERSION").into(),
            server_pid: std::process::id(),
            client_id: id,
        },
    )
    .await;
    if !welcomed {
        server.mux.attached.remove(id);
        server.maybe_exit();
        return;
    }
    reader.set_max(inbound::MAX_REQUEST);
    let frame_task = (hello.kind == ClientKind::Tui).then(|| {
        tokio::spawn(frames::run(
            Arc::clone(&server),
            id,
            Arc::clone(&writer),
            notify,
            mailbox,
        ))
    });
    let origin = Origin::Client {
        id,
        kind: hello.kind,
        caller_pane,
    };
    tracing::debug!("{origin} connected (client {})", hello.client_version);
    let mut control: Option<Arc<super::control::ControlClient>> = None;
    loop {
        let frame = match reader.next().await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e @ (InboundError::TooLarge { .. } | InboundError::Stalled)) => {
                tracing::warn!("{origin}: closing the connection: {e}");
                break;
            }
            Err(InboundError::Io(_)) => break,
        };
        let msg: ClientMessage = match codec::decode(&frame) {
            Ok(m) => m,
            // A newer client's command: answered, and the connection goes on.
            Err(e) => match codec::decode::<fugue_protocol::message::RequestProbe>(&frame) {
                Ok(fugue_protocol::message::RequestProbe::Request { id: req }) => {
                    tracing::info!("{origin}: a request this server does not know: {e}");
                    let unknown = Err(unknown_command(hello.protocol, &e));
                    if !send_response(&writer, &origin, req, unknown).await {
                        break;
                    }
                    continue;
                }
                Err(_) => {
                    tracing::warn!("{origin}: undecodable message: {e}");
                    break;
                }
            },
        };
        match msg {
            ClientMessage::Request { id: req, command } => {
                let answering = server.answering();
                let result = dispatch(&server, &origin, command).await;
                let sent = send_response(&writer, &origin, req, result).await;
                drop(answering);
                if !sent {
                    break;
                }
            }
            ClientMessage::Control(req) => {
                control_request(&server, id, &writer, &mut control, req);
            }
            // Through the dispatcher like any command: policy, audit log.
            ClientMessage::Resize { cols, rows } => {
                let _ = dispatch(
                    &server,
                    &origin,
                    fugue_protocol::Command::ResizeClient(cmd::ResizeClient { cols, rows }),
                )
                .await
                .inspect_err(|e| tracing::warn!("{origin}: resize refused: {e}"));
            }
        }
    }
    if let Some(t) = frame_task {
        t.abort();
    }
    if let Some(c) = control {
        c.stop(&server);
    }
    server.forget_shown_mode(id);
    let left = server
        .mux
        .attached
        .remove(id)
        .and_then(|c| c.session.map(|s| (s, c.name(id))));
    if let Some((sid, name)) = left {
        server.client_left(sid);
        server.client_detached(id, name, sid);
    }
    server.mux.changed();
    tracing::debug!("{origin} disconnected");
    // The last client of a server whose last session ended lets it go.
    server.maybe_exit();
}

/// A control client's request (`tmux -C`): attach, or change its flow of output.
fn control_request(
    server: &Arc<Server>,
    id: u64,
    writer: &Writer,
    control: &mut Option<Arc<super::control::ControlClient>>,
    req: fugue_protocol::message::ControlRequest,
) {
    use fugue_protocol::message::ControlRequest;
    match (req, control.as_ref()) {
        (ControlRequest::Attach { session, term }, None) => {
            server.mux.attached.control_attached(id, session, term);
            *control = Some(super::control::ControlClient::start(
                server,
                id,
                session,
                Arc::clone(writer),
            ));
            server.client_attached(id, session);
        }
        // Attached already: `attach -t` / `new-session` move it (`%session-changed`).
        (ControlRequest::Attach { session, term }, Some(c)) => {
            server.mux.attached.control_attached(id, session, term);
            c.switch(server, session);
            server.client_attached(id, session);
        }
        (
            ControlRequest::Flags {
                pause_after_ms,
                no_output,
            },
            Some(c),
        ) => c.set_flags(pause_after_ms, no_output),
        (ControlRequest::Pane { pane, action }, Some(c)) => c.pane_flow(pane, action),
        (ControlRequest::Sync { id }, Some(c)) => c.sync(id),
        (_, None) => tracing::debug!("a control request before attaching was ignored"),
    }
}

fn version_mismatch(theirs: u32) -> String {
    format!(
        "protocol version mismatch: this server (fugue {}) speaks protocol {PROTOCOL_VERSION} with clients of protocol {MIN_PROTOCOL} or later, the client speaks protocol {theirs}. \
         Use the same fugue version for both, or start a separate server for the other version with `fugue -L NAME`",
        env!("CARGO_PKG_VERSION")
    )
}

/// The answer to a request whose command this server does not know (a newer
/// client's, or a malformed one).
fn unknown_command(
    theirs: u32,
    e: &fugue_protocol::codec::CodecError,
) -> fugue_protocol::CommandError {
    let newer = if theirs > PROTOCOL_VERSION {
        format!("the client speaks protocol {theirs}, newer than this server's {PROTOCOL_VERSION}")
    } else {
        "the request does not decode".to_string()
    };
    fugue_protocol::CommandError::invalid_argument(
        "command",
        format!(
            "this server (fugue {}) does not know the command: {newer} ({})",
            env!("CARGO_PKG_VERSION"),
            fugue_protocol::excerpt::excerpt(&e.to_string())
        ),
    )
    .with_suggestion("run the newer fugue's server: `fugue kill-server`, then the command again (or `fugue -L NAME` for a server of its own)")
}

async fn reply(writer: &Writer, msg: &HandshakeReply) -> bool {
    match codec::encode(msg) {
        Ok(body) => writer.lock().await.send(Bytes::from(body)).await.is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::Response;

    /// Issue 11: an answer over the frame limit (`capture-pane -e -p -S -` of a wide
    /// truecolor pane) closed the connection with no word; now the caller gets
    /// `limit_exceeded` saying how to ask for less, on a connection that still works.
    #[tokio::test]
    async fn an_answer_too_large_for_a_frame_becomes_limit_exceeded() {
        let (a, b) = UnixStream::pair().unwrap();
        let (_rd, wr) = a.into_split();
        let writer: Writer = Arc::new(Mutex::new(FramedWrite::new(wr, RawCodec::default())));
        let origin = Origin::Client {
            id: 1,
            kind: ClientKind::Cli,
            caller_pane: None,
        };
        let reader = tokio::spawn(async move {
            let (rd, _wr) = b.into_split();
            let mut r = FrameReader::new(rd, inbound::budget(), codec::MAX_FRAME);
            let mut answers = Vec::new();
            for _ in 0..2 {
                let frame = r.next().await.unwrap().unwrap();
                answers.push(codec::decode::<ServerMessage>(&frame).unwrap());
            }
            answers
        });
        let huge = Ok(Response::Captured("x".repeat(codec::MAX_FRAME + 10)));
        assert!(send_response(&writer, &origin, 7, huge).await);
        assert!(send_response(&writer, &origin, 8, Ok(Response::Done)).await);
        let answers = reader.await.unwrap();
        match &answers[0] {
            ServerMessage::Response {
                id: 7,
                result: Err(e),
            } => {
                assert_eq!(e.code, fugue_protocol::ErrorCode::LimitExceeded);
                let text = e.display_with_suggestion();
                assert!(text.contains("32 MiB") && text.contains("-S/-E"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            answers[1],
            ServerMessage::Response {
                id: 8,
                result: Ok(Response::Done)
            }
        ));
    }
}
