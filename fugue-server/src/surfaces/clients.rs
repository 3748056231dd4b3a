//! Connections on the client socket: handshake, requests answered by id, and the
//! attached client's terminal size.

use super::frames;
use crate::dispatch::{dispatch, origin::Origin};
use crate::server::{ClientEntry, Server};
use bytes::Bytes;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{
    ClientKind, ClientMessage, EXITING, HandshakeReply, Hello, PROTOCOL_VERSION, ServerMessage,
};
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::UnixStream;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::{Mutex, Notify};
use tokio_util::codec::{FramedRead, FramedWrite};

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

/// Accepts connections until the server shuts down, refusing other users.
pub async fn accept_loop(server: Arc<Server>, listener: tokio::net::UnixListener) {
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = server.shutdown.notified() => return,
        };
        if let Some(reason) = peer_refusal(&stream) {
            tokio::spawn(refuse(stream, reason));
            continue;
        }
        tokio::spawn(handle(Arc::clone(&server), stream));
    }
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

/// Tells a refused peer why before closing, so it does not see a bare reset. The
/// Hello is read first (briefly): closing with it unread would reset the connection
/// before the client reads the reason.
async fn refuse(stream: UnixStream, reason: String) {
    let (rd, wr) = stream.into_split();
    let mut reader = FramedRead::new(rd, RawCodec::default());
    let writer: Writer = Arc::new(Mutex::new(FramedWrite::new(wr, RawCodec::default())));
    let _ = tokio::time::timeout(Duration::from_secs(2), reader.next()).await;
    reply(&writer, &HandshakeReply::Refused { reason }).await;
}

/// Just the version, to explain a mismatch even when the rest of a Hello is foreign.
#[derive(Deserialize)]
struct VersionProbe {
    protocol: u32,
}

async fn handle(server: Arc<Server>, stream: UnixStream) {
    let peer_pid = stream.peer_cred().ok().and_then(|c| c.pid());
    let (rd, wr) = stream.into_split();
    let mut reader = FramedRead::new(rd, RawCodec::default());
    let writer: Writer = Arc::new(Mutex::new(FramedWrite::new(wr, RawCodec::default())));
    let first = match tokio::time::timeout(Duration::from_secs(10), reader.next()).await {
        Ok(Some(Ok(frame))) => frame,
        _ => return,
    };
    let hello: Hello = match codec::decode(&first) {
        Ok(h) => h,
        Err(e) => {
            let reason = match codec::decode::<VersionProbe>(&first) {
                Ok(p) if p.protocol != PROTOCOL_VERSION => version_mismatch(p.protocol),
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
    if hello.protocol != PROTOCOL_VERSION {
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
    let caller_pane = super::peer::caller_pane(&server, peer_pid, hello.caller_pane);
    let id = server.next_client_id();
    let notify = Arc::new(Notify::new());
    let mailbox = Arc::new(crate::server::Mailbox::default());
    // Counted before it is welcomed, so the server does not exit under it.
    let entry = ClientEntry {
        kind: hello.kind,
        caller_pane,
        session: None,
        size: None,
        notify: Arc::clone(&notify),
        control: Arc::clone(&mailbox),
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
        server.clients.lock().remove(&id);
        server.maybe_exit();
        return;
    }
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
    while let Some(Ok(frame)) = reader.next().await {
        let msg: ClientMessage = match codec::decode(&frame) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("{origin}: undecodable message: {e}");
                break;
            }
        };
        match msg {
            ClientMessage::Request { id: req, command } => {
                let answering = server.answering();
                let result = dispatch(&server, &origin, command).await;
                let sent = send(&writer, &ServerMessage::Response { id: req, result }).await;
                drop(answering);
                if !sent {
                    break;
                }
            }
            ClientMessage::Resize { cols, rows } => client_resized(&server, id, cols, rows),
        }
    }
    if let Some(t) = frame_task {
        t.abort();
    }
    let session = server.clients.lock().remove(&id).and_then(|c| c.session);
    if let Some(sid) = session {
        let mut tree = server.tree.lock();
        server.resize_session_to_clients(&mut tree, sid);
    }
    server.changed();
    tracing::debug!("{origin} disconnected");
    // The last client of a server whose last session ended lets it go.
    server.maybe_exit();
}

fn version_mismatch(theirs: u32) -> String {
    format!(
        "protocol version mismatch: this server (fugue {}) speaks protocol {PROTOCOL_VERSION}, the client speaks protocol {theirs}. \
         Use the same fugue version for both, or start a separate server for the other version with `fugue -L NAME`",
        env!("CARGO_PKG_VERSION")
    )
}

async fn reply(writer: &Writer, msg: &HandshakeReply) -> bool {
    match codec::encode(msg) {
        Ok(body) => writer.lock().await.send(Bytes::from(body)).await.is_ok(),
        Err(_) => false,
    }
}

fn client_resized(server: &Arc<Server>, id: u64, cols: u16, rows: u16) {
    let session = {
        let mut clients = server.clients.lock();
        let Some(c) = clients.get_mut(&id) else {
            return;
        };
        c.size = Some((cols.clamp(1, 10_000), rows.clamp(1, 10_000)));
        c.session
    };
    if let Some(sid) = session {
        let mut tree = server.tree.lock();
        server.resize_session_to_clients(&mut tree, sid);
    }
    server.changed();
}
