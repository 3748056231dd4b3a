//! The MCP surface: an rmcp service on its own Unix socket next to the client socket.
//!
//! `fugue mcp` bridges an MCP client's stdio to this socket. Before the MCP traffic it
//! writes one JSON line, `{"fugue_bridge":1,"caller_pane":"%3"}`, so the server knows
//! which pane the calling agent runs in, and waits for the server's [`BRIDGE_READY`]
//! line (or a JSON-RPC error line saying why not) before copying. Each connection is its own origin for policy
//! and audit. Calls on one connection run concurrently (rmcp gives each its own task),
//! so a long `wait_for` never holds up other calls.
//!
//! Between the socket and rmcp sits a line layer (`framing`, `splice`): it bounds each
//! message to 8 MiB and answers malformed input with JSON-RPC errors, which rmcp would
//! leave unanswered.

mod agent_tools;
mod args;
pub mod framing;
pub mod handler;
pub mod http;
mod outputs;
mod shape;
mod splice;
mod tmux_tool;
pub mod tools;

use crate::origin::Origin;
use crate::server::Server;
use framing::{Line, LineReader};
use fugue_protocol::PaneId;
use fugue_protocol::cmd;
use handler::FugueMcp;
use rmcp::ServiceExt;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;

/// Longest wait for the preamble and for the MCP handshake.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// The longest first line read as the bridge's preamble.
const MAX_PREAMBLE: usize = 4096;

/// The pipes between the line layer and rmcp.
const PIPE: usize = 64 * 1024;

/// `token_file` is where MCP over HTTP keeps its token unless `[mcp_http]` names
/// another file.
pub async fn accept_loop(
    server: Arc<Server>,
    listener: UnixListener,
    admission: Arc<crate::surfaces::admission::Admission>,
    token_file: PathBuf,
) {
    let token_file = Arc::new(token_file);
    loop {
        let stream = tokio::select! {
            s = admission.accept(&listener, refuse) => match s {
                Some(s) => s,
                None => continue,
            },
            _ = server.shutdown.notified() => return,
        };
        if let Some(reason) = super::clients::peer_refusal(&stream) {
            tokio::spawn(refuse(stream, reason));
            continue;
        }
        match admission.admit() {
            Ok(ticket) => {
                let server = Arc::clone(&server);
                let token_file = Arc::clone(&token_file);
                tokio::spawn(async move {
                    connection(server, stream, &token_file).await;
                    drop(ticket);
                });
            }
            Err(why) => {
                tokio::spawn(refuse(stream, why));
            }
        }
    }
}

/// The command a call of `tool` runs, from its JSON arguments: all the decoding an MCP
/// call gets before the dispatcher (public for the fuzz targets and their tests).
pub fn build_command(
    tool: &tools::ToolDef,
    args: &serde_json::Map<String, Value>,
) -> Result<fugue_protocol::Command, fugue_protocol::CommandError> {
    tool.build(args)
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

/// Tells a peer that cannot be served why, as a JSON-RPC error, and closes the
/// connection (other users, connections past the limit).
async fn refuse(stream: UnixStream, reason: String) {
    refuse_with(stream, reason, false).await
}

async fn refuse_with(mut stream: UnixStream, reason: String, retry: bool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        stream.write_all(refusal_line(&reason, retry).as_bytes()),
    )
    .await;
    // Read what the peer sent (its preamble, briefly, bounded): closing with it unread
    // would reset the connection before the peer reads the reason.
    let mut sink = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_millis(200), stream.read(&mut sink)).await;
    let _ = stream.shutdown().await;
}

/// What the bridge's first line says.
struct Preamble {
    caller_pane: Option<PaneId>,
    /// `fugue mcp --http ADDR`: listen there while this connection lasts.
    http: Option<String>,
}

/// The bridge's preamble, if the first line is one.
fn preamble(line: &[u8]) -> Option<Preamble> {
    if line.len() > MAX_PREAMBLE {
        return None;
    }
    let v: Value = serde_json::from_slice(line).ok()?;
    v.get("fugue_bridge")?;
    Some(Preamble {
        caller_pane: v
            .get("caller_pane")
            .and_then(Value::as_str)
            .and_then(|p| p.parse().ok()),
        http: v.get("http").and_then(Value::as_str).map(str::to_string),
    })
}

async fn connection(server: Arc<Server>, stream: UnixStream, token_file: &Path) {
    let peer_pid = stream.peer_cred().ok().and_then(|c| c.pid());
    let id = server.mux.attached.next_id();
    let (rd, mut wr) = stream.into_split();
    // One line reader for the preamble and for the MCP stream.
    let mut lines = LineReader::new(BufReader::new(rd), framing::MAX_LINE);
    let first = match tokio::time::timeout(HANDSHAKE, lines.next()).await {
        Ok(Ok(Line::Eof)) | Ok(Err(_)) | Err(_) => return,
        Ok(Ok(l)) => l,
    };
    let (claimed, first, bridge) = match &first {
        Line::Whole(l) => match preamble(l) {
            Some(Preamble {
                http: Some(listen), ..
            }) => {
                http_bridge(server, lines, wr, id, &listen, token_file).await;
                return;
            }
            Some(p) => (p.caller_pane, None, true),
            // A client that speaks MCP directly: the line is its first message.
            None => (None, Some(first), false),
        },
        // Too long for a preamble: the feed answers it as it would any message.
        _ => (None, Some(first), false),
    };
    let caller_pane = crate::surfaces::peer::caller_pane(&server, peer_pid, claimed).await;
    let origin = Origin::Mcp {
        connection: id,
        caller_pane,
        http: false,
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
    // Before the bridge says it is ready: from its first call on, the pane counts as
    // connected (in `auto` mode its output is no longer scanned for tags).
    if caller_pane.is_some() {
        sideband_mcp(&server, &origin, true).await;
    }
    if bridge {
        use tokio::io::AsyncWriteExt;
        if wr
            .write_all(format!("{BRIDGE_READY}\n").as_bytes())
            .await
            .is_err()
        {
            disconnected(&server, &origin, id).await;
            return;
        }
    }
    let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE);
    let (refusals_tx, refusals_rx) = mpsc::channel(splice::QUEUED_REFUSALS);
    let feed = tokio::spawn(splice::feed(
        lines,
        first,
        to_rmcp,
        refusals_tx,
        origin.clone(),
    ));
    let writer = tokio::spawn(splice::write_out(from_rmcp, refusals_rx, wr));
    let handler = FugueMcp::new(Arc::clone(&server), origin.clone());
    match tokio::time::timeout(HANDSHAKE, handler.serve((rmcp_in, rmcp_out))).await {
        Ok(Ok(running)) => {
            let _ = running.waiting().await;
        }
        Ok(Err(e)) => tracing::warn!("{origin}: MCP handshake failed: {e}"),
        Err(_) => tracing::warn!("{origin}: no MCP handshake within {HANDSHAKE:?}"),
    }
    // rmcp is done: stop reading the caller, let the writer send what is left.
    feed.abort();
    let _ = writer.await;
    tracing::info!("{origin} disconnected");
    disconnected(&server, &origin, id).await;
}

/// Marks or unmarks the caller's pane as connected over MCP, through the dispatcher
/// (policy, audit log) like any change.
async fn sideband_mcp(server: &Arc<Server>, origin: &Origin, connected: bool) {
    let _ = crate::dispatch::dispatch(
        server,
        origin,
        fugue_protocol::Command::SidebandMcp(cmd::SidebandMcp { connected }),
    )
    .await
    .inspect_err(|e| tracing::warn!("{origin}: sideband-mcp refused: {e}"));
}

async fn disconnected(server: &Arc<Server>, origin: &Origin, id: u64) {
    if server.mcp_disconnected(id) {
        sideband_mcp(server, origin, false).await;
    }
    server.maybe_exit();
}

/// `fugue mcp --http ADDR`: listens there until the bridge goes away, and tells it the
/// URL and the token's file (or why not, as a refusal line). The connection counts as
/// an MCP connection, so the server does not exit under a listener someone is running.
async fn http_bridge(
    server: Arc<Server>,
    mut lines: LineReader<BufReader<tokio::net::unix::OwnedReadHalf>>,
    mut wr: tokio::net::unix::OwnedWriteHalf,
    id: u64,
    listen: &str,
    default_token_file: &Path,
) {
    use tokio::io::AsyncWriteExt;
    if !server.mcp_connected(id, None) {
        let line = refusal_line(fugue_protocol::message::EXITING, true);
        let _ = wr.write_all(line.as_bytes()).await;
        return;
    }
    let section = server.config().mcp_http.clone();
    let token_file = http::token_file(&section, default_token_file);
    match http::listen(Arc::clone(&server), listen, &section, &token_file).await {
        Ok(listening) => {
            let ready = serde_json::json!({
                "fugue_bridge": 1,
                "ready": true,
                "http": {"url": listening.url(), "token_file": listening.token_file},
            });
            if wr.write_all(format!("{ready}\n").as_bytes()).await.is_ok() {
                // Until the bridge closes (or the server exits); it sends nothing more.
                loop {
                    tokio::select! {
                        l = lines.next() => match l {
                            Ok(Line::Eof) | Err(_) => break,
                            Ok(_) => continue,
                        },
                        _ = server.shutdown.notified() => break,
                    }
                }
            }
            drop(listening);
        }
        Err(why) => {
            let _ = wr.write_all(refusal_line(&why, false).as_bytes()).await;
        }
    }
    server.mcp_disconnected(id);
    server.maybe_exit();
}
