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

fn connect(addr: &ServerAddr) -> anyhow::Result<UnixStream> {
    let path = paths::mcp_socket_path(&addr.socket);
    match UnixStream::connect(&path) {
        Ok(s) => return Ok(s),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused) => {}
        Err(e) => return Err(e).with_context(|| format!("cannot connect to {}", path.display())),
    }
    autostart::start_server(addr)?;
    UnixStream::connect(&path)
        .with_context(|| format!("the server started but {} does not answer", path.display()))
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
    let mut stream = connect(addr)?;
    let preamble = serde_json::json!({
        "fugue_bridge": 1,
        "caller_pane": addr.caller_pane().map(|p| p.to_string()),
    });
    stream.write_all(format!("{preamble}\n").as_bytes())?;
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
