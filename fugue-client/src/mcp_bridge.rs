//! `fugue mcp`: the stdio endpoint MCP clients launch.
//!
//! It starts the server if none runs, connects to the server's MCP socket, says which
//! pane it runs in (one JSON line before the MCP traffic), and then copies bytes both
//! ways. All MCP handling happens in the server, where every tool call goes through the
//! dispatcher. The copying is plain blocking I/O on two threads: each message crosses
//! with one read and one write, with no hand-offs between threads.

use crate::autostart::{self, ServerAddr};
use anyhow::Context;
use fugue_protocol::paths;
use std::io::{ErrorKind, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// The server's answer to the preamble (see fugue-server's `BRIDGE_READY`).
const READY: &str = r#"{"fugue_bridge":1,"ready":true}"#;
/// How long a server that is exiting is waited out, a new one started after it.
const RESTART_PATIENCE: Duration = Duration::from_secs(10);
/// How long the server may take to answer the preamble.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// How one attempt to reach the server ended.
enum Attempt {
    /// Taken; with the server's answer when it says more than `READY`.
    Ready(UnixStream, serde_json::Value),
    /// No server, or one exiting or gone before it answered: start one and try again.
    Again,
}

fn connect_once(addr: &ServerAddr, preamble: &str) -> anyhow::Result<Attempt> {
    let path = paths::mcp_socket_path(&addr.socket);
    let mut stream = match UnixStream::connect(&path) {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused) => {
            return Ok(Attempt::Again);
        }
        Err(e) => return Err(e).with_context(|| format!("cannot connect to {}", path.display())),
    };
    stream.set_read_timeout(Some(ANSWER_TIMEOUT))?;
    if stream.write_all(preamble.as_bytes()).is_err() {
        return Ok(Attempt::Again);
    }
    // One byte at a time: nothing after the answer's newline may be taken from the
    // MCP stream (the server sends nothing more before the client speaks, but still).
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return Ok(Attempt::Again),
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) if line.len() < 64 * 1024 => line.push(byte[0]),
            Ok(_) => anyhow::bail!(
                "the server at {} sent an over-long first line",
                path.display()
            ),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                anyhow::bail!(
                    "the server at {} did not answer within {} s; it may be overloaded or stuck — see its log at {}",
                    path.display(),
                    ANSWER_TIMEOUT.as_secs(),
                    crate::autostart::log_path(addr).display()
                )
            }
            // Reset before answering: it went away (exiting) before taking us.
            Err(_) => return Ok(Attempt::Again),
        }
    }
    if line == READY.as_bytes() {
        stream.set_read_timeout(None)?;
        return Ok(Attempt::Ready(stream, serde_json::Value::Null));
    }
    let answer: serde_json::Value = serde_json::from_slice(&line).unwrap_or_default();
    // `--http`: the answer carries where it listens.
    if answer["fugue_bridge"] == 1 && answer["ready"] == true {
        stream.set_read_timeout(None)?;
        return Ok(Attempt::Ready(stream, answer));
    }
    let error = &answer["error"];
    if error["data"]["fugue_retry"].as_bool() == Some(true) {
        return Ok(Attempt::Again);
    }
    match error["message"].as_str() {
        Some(m) => anyhow::bail!("{m}"),
        None => anyhow::bail!(
            "the server at {} answered something that is not fugue's: {}",
            path.display(),
            String::from_utf8_lossy(&line)
        ),
    }
}

/// Connects and has the server take the connection, starting a server when none runs
/// or the one found is exiting.
fn connect(addr: &ServerAddr, preamble: &str) -> anyhow::Result<(UnixStream, serde_json::Value)> {
    let deadline = Instant::now() + RESTART_PATIENCE;
    loop {
        if let Attempt::Ready(s, answer) = connect_once(addr, preamble)? {
            return Ok((s, answer));
        }
        if Instant::now() >= deadline {
            anyhow::bail!(
                "no fugue server would take the connection at {} within {} s (one kept exiting or failing to start); see its log at {}",
                paths::mcp_socket_path(&addr.socket).display(),
                RESTART_PATIENCE.as_secs(),
                crate::autostart::log_path(addr).display()
            );
        }
        // Another server (the one exiting, or one another client starts) may hold the
        // lock: not an error, the next look finds the new one. Anything else is.
        match autostart::start_server(addr) {
            Ok(()) => {}
            Err(e) if autostart::is_lock_held(&e) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e),
        }
    }
}

/// Copies until end of file, flushing after every chunk so no message waits.
fn pump(mut from: impl Read, mut to: impl Write) -> std::io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        to.flush()?;
    }
}

pub fn run(addr: &ServerAddr) -> anyhow::Result<i32> {
    let preamble = serde_json::json!({
        "fugue_bridge": 1,
        "caller_pane": addr.caller_pane().map(|p| p.to_string()),
    });
    let (stream, _) = connect(addr, &format!("{preamble}\n"))?;
    let upstream = stream.try_clone()?;
    std::thread::Builder::new()
        .name("mcp-upstream".into())
        .spawn(move || {
            let _ = pump(std::io::stdin().lock(), &upstream);
            // The MCP client closed its end: let the server finish and close the connection.
            let _ = upstream.shutdown(Shutdown::Write);
        })?;
    let _ = pump(&stream, std::io::stdout().lock());
    Ok(0)
}

/// `fugue mcp --http IP:PORT`: has the server listen for MCP over streamable HTTP there
/// for as long as this runs, and says where, and where the bearer token is. The server
/// refuses non-loopback addresses unless its config allows them.
pub fn run_http(addr: &ServerAddr, listen: &str) -> anyhow::Result<i32> {
    let preamble = serde_json::json!({"fugue_bridge": 1, "http": listen});
    let (mut stream, answer) = connect(addr, &format!("{preamble}\n"))?;
    let url = answer["http"]["url"].as_str().unwrap_or("?");
    let token_file = answer["http"]["token_file"].as_str().unwrap_or("?");
    let mut out = std::io::stdout().lock();
    writeln!(out, "MCP over streamable HTTP at {url}")?;
    writeln!(
        out,
        "bearer token in {token_file} (send `Authorization: Bearer <token>`); stop with Ctrl-C"
    )?;
    out.flush()?;
    drop(out);
    // The listener lives as long as this connection: wait for the server to end it.
    let mut sink = [0u8; 256];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    eprintln!("fugue: the server stopped serving MCP over HTTP (it exited)");
    Ok(1)
}
