//! The MCP surface: an rmcp service on its own Unix socket next to the client socket.
//!
//! `fugue mcp` bridges an MCP client's stdio to this socket. Before the MCP traffic it
//! writes one JSON line, `{"fugue_bridge":1,"caller_pane":"%3"}`, so the server knows
//! which pane the calling agent runs in, and waits for the server's [`BRIDGE_READY`]
//! line (or a JSON-RPC error line saying why not) before copying. Each connection is its own origin for policy
//! and audit. Calls on one connection run concurrently (rmcp gives each its own task),
//! so a long `wait_for` never holds up other calls.

mod agent_tools;
mod args;
pub mod handler;
pub mod tools;

use crate::dispatch::origin::Origin;
use crate::server::Server;
use fugue_protocol::PaneId;
use handler::FugueMcp;
use rmcp::ServiceExt;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

/// Longest wait for the preamble and for the MCP handshake.
const HANDSHAKE: Duration = Duration::from_secs(30);

pub async fn accept_loop(server: Arc<Server>, listener: UnixListener) {
    loop {
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) => {
                    tracing::warn!("mcp accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = server.shutdown.notified() => return,
        };
        if let Some(reason) = super::clients::peer_refusal(&stream) {
            tokio::spawn(refuse(stream, reason, false));
            continue;
        }
        tokio::spawn(connection(Arc::clone(&server), stream));
    }
}

/// The line the server answers the bridge's preamble with when it takes the
/// connection; the bridge copies nothing before it (see `fugue mcp`).
pub const BRIDGE_READY: &str = r#"{"fugue_bridge":1,"ready":true}"#;

/// A JSON-RPC error line (no request id yet) saying why the connection is closed;
/// `retry` tells the bridge that a new server will take it (this one is exiting).
fn refusal_line(reason: &str, retry: bool) -> String {
    let line = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32000, "message": reason, "data": {"fugue_retry": retry}},
    });
    format!("{line}\n")
}

/// Tells a refused peer why before closing.
async fn refuse(mut stream: UnixStream, reason: String, retry: bool) {
    use tokio::io::AsyncWriteExt;
    let _ = stream
        .write_all(refusal_line(&reason, retry).as_bytes())
        .await;
    // Read what the peer sent (its preamble, briefly): closing with it unread would
    // reset the connection before the peer reads the reason.
    let mut sink = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_millis(200), stream.read(&mut sink)).await;
    let _ = stream.shutdown().await;
}

/// The bridge's preamble, if the first line is one.
fn preamble(line: &[u8]) -> Option<Option<PaneId>> {
    let v: Value = serde_json::from_slice(line).ok()?;
    v.get("fugue_bridge")?;
    Some(
        v.get("caller_pane")
            .and_then(Value::as_str)
            .and_then(|p| p.parse().ok()),
    )
}

async fn connection(server: Arc<Server>, stream: UnixStream) {
    let peer_pid = stream.peer_cred().ok().and_then(|c| c.pid());
    let id = server.next_client_id();
    let (rd, mut wr) = stream.into_split();
    // One buffered reader for the preamble and for rmcp: bytes it has read ahead
    // belong to the MCP stream.
    let mut rd = BufReader::new(rd);
    let mut first = Vec::new();
    let read = tokio::time::timeout(
        HANDSHAKE,
        (&mut rd).take(4096).read_until(b'\n', &mut first),
    )
    .await;
    if !matches!(read, Ok(Ok(n)) if n > 0) {
        return;
    }
    let (claimed, leftover, bridge) = match preamble(&first) {
        Some(pane) => (pane, Vec::new(), true),
        // A client that speaks MCP directly: the line is its first message.
        None => (None, first, false),
    };
    let caller_pane = crate::surfaces::peer::caller_pane(&server, peer_pid, claimed);
    let origin = Origin::Mcp {
        connection: id,
        caller_pane,
    };
    if !server.mcp_connected(id, caller_pane) {
        tracing::info!("{origin} refused: the server is exiting");
        if bridge {
            use tokio::io::AsyncWriteExt;
            let line = refusal_line(fugue_protocol::message::EXITING, true);
            let _ = wr.write_all(line.as_bytes()).await;
        }
        return;
    }
    tracing::info!("{origin} connected");
    if bridge {
        use tokio::io::AsyncWriteExt;
        if wr
            .write_all(format!("{BRIDGE_READY}\n").as_bytes())
            .await
            .is_err()
        {
            server.mcp_disconnected(id);
            return;
        }
    }
    let transport = (std::io::Cursor::new(leftover).chain(rd), wr);
    let handler = FugueMcp::new(Arc::clone(&server), origin.clone());
    match tokio::time::timeout(HANDSHAKE, handler.serve(transport)).await {
        Ok(Ok(running)) => {
            let _ = running.waiting().await;
        }
        Ok(Err(e)) => tracing::warn!("{origin}: MCP handshake failed: {e}"),
        Err(_) => tracing::warn!("{origin}: no MCP handshake within {HANDSHAKE:?}"),
    }
    tracing::info!("{origin} disconnected");
    server.mcp_disconnected(id);
}
