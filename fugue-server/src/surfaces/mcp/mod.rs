//! The MCP surface: an rmcp service on its own Unix socket next to the client socket.
//!
//! `fugue mcp` bridges an MCP client's stdio to this socket. Before the MCP traffic it
//! writes one JSON line, `{"fugue_bridge":1,"caller_pane":"%3"}`, so the server knows
//! which pane the calling agent runs in. Each connection is its own origin for policy
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
        if !super::clients::peer_allowed(&stream) {
            continue;
        }
        tokio::spawn(connection(Arc::clone(&server), stream));
    }
}

/// The command a call of `tool` runs, from its JSON arguments: all the decoding an MCP
/// call gets before the dispatcher (public for the fuzz targets and their tests).
pub fn build_command(
    tool: &tools::ToolDef,
    args: &serde_json::Map<String, Value>,
) -> Result<fugue_protocol::Command, fugue_protocol::CommandError> {
    (tool.build)(&args::Args::new(args, &(tool.input)())?)
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
    let (rd, wr) = stream.into_split();
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
    let (claimed, leftover) = match preamble(&first) {
        Some(pane) => (pane, Vec::new()),
        // A client that speaks MCP directly: the line is its first message.
        None => (None, first),
    };
    let caller_pane = crate::surfaces::peer::caller_pane(&server, peer_pid, claimed);
    let origin = Origin::Mcp {
        connection: id,
        caller_pane,
    };
    tracing::info!("{origin} connected");
    server.mcp_connected(id, caller_pane);
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
