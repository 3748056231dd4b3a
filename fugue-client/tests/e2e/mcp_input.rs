//! Hostile input over `fugue mcp`: whatever a caller sends, it gets an answer, the
//! connection keeps working, and nothing it sent comes back (or goes to the log) whole.
//! Raw lines through the real bridge to the real server's MCP socket.

use super::harness::{TIMEOUT, World};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;

/// `fugue mcp` with its stdio in our hands.
struct Raw {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<Vec<u8>>,
}

impl Raw {
    fn launch(w: &World) -> Raw {
        Raw::launch_cmd(w.cmd(&["mcp"]))
    }

    fn launch_cmd(mut cmd: Command) -> Raw {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn fugue mcp");
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match out.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut raw = Raw {
            child,
            stdin,
            lines,
        };
        raw.send_json(json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "raw", "version": "0" }
            }
        }));
        let init = raw.reply();
        assert_eq!(init["id"], 0, "{init}");
        raw.send_json(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        raw
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_json(&mut self, v: Value) {
        self.send(v.to_string().as_bytes());
    }

    /// The next line, raw: its size matters as much as what it says.
    fn reply_bytes(&self) -> Vec<u8> {
        self.lines
            .recv_timeout(TIMEOUT)
            .expect("an answer within the timeout")
    }

    fn reply(&self) -> Value {
        serde_json::from_slice(&self.reply_bytes()).expect("a JSON answer")
    }

    /// Sends a garbage line and returns the JSON-RPC error it got.
    fn refused(&mut self, bytes: &[u8]) -> (i64, String) {
        self.send(bytes);
        let r = self.reply();
        assert_eq!(r["id"], Value::Null, "{r}");
        (
            r["error"]["code"].as_i64().expect("an error code"),
            r["error"]["message"].as_str().unwrap_or("").to_string(),
        )
    }

    /// A call that must still work.
    fn tools(&mut self, id: u64) -> usize {
        self.send_json(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list" }));
        let r = self.reply();
        assert_eq!(r["id"], id, "{r}");
        r["result"]["tools"].as_array().expect("tools").len()
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn malformed_input_gets_json_rpc_errors_and_the_connection_keeps_working() {
    let w = World::new();
    let mut c = Raw::launch(&w);
    let tools = c.tools(1);
    assert!(tools > 5);

    let (code, msg) = c.refused(b"this is not json");
    assert_eq!(code, -32700, "{msg}");
    assert_eq!(c.tools(2), tools);

    let (code, _) = c.refused(b"\x00\x01\xff\xfe\x80 binary \x1b[2J");
    assert_eq!(code, -32700);
    assert_eq!(c.tools(3), tools);

    let deep = "[".repeat(10_000) + &"{\"a\":".repeat(10_000);
    let (code, msg) = c.refused(deep.as_bytes());
    assert_eq!(code, -32600);
    assert!(msg.contains("64"), "the limit is named: {msg}");
    assert_eq!(c.tools(4), tools);

    // 100 MB in one line: dropped as it streams in, answered with the limit.
    let mut huge = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"send_input","arguments":{"text":""#.to_vec();
    huge.resize(100 << 20, b'x');
    c.send(&huge);
    drop(huge);
    let reply = c.reply_bytes();
    assert!(reply.len() < 1024, "the refusal is {} bytes", reply.len());
    let r: Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("8388608"),
        "{r}"
    );
    assert_eq!(c.tools(6), tools);

    // A request without its closing brace, then a good one.
    let (code, _) = c.refused(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list""#);
    assert_eq!(code, -32700);
    assert_eq!(c.tools(8), tools);
}

#[test]
fn errors_quote_an_excerpt_of_a_huge_argument_not_the_argument() {
    let w = World::new();
    let mut c = Raw::launch(&w);
    let big = "x".repeat(5 << 20);
    let mut odd_key = serde_json::Map::new();
    odd_key.insert(big.clone(), json!(1));
    let calls: Vec<(u64, String, Value)> = vec![
        (1, "read_pane".into(), json!({ "pane": big })),
        (
            2,
            "send_input".into(),
            json!({ "pane": "%0", "keys": [big] }),
        ),
        (3, "wait_for".into(), json!({ "pane": big, "text": "a" })),
        (
            4,
            "create_session".into(),
            json!({ "name": format!("{big}:") }),
        ),
        (5, format!("no_such_tool_{big}"), json!({})),
        (6, "read_pane".into(), Value::Object(odd_key)),
    ];
    for (id, name, args) in calls {
        c.send_json(json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": name, "arguments": args }
        }));
        let reply = c.reply_bytes();
        assert!(
            reply.len() < 8 * 1024,
            "call {id}: a {} byte answer to a {} byte argument: {}",
            reply.len(),
            big.len(),
            String::from_utf8_lossy(&reply[..2000.min(reply.len())])
        );
        let r: Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(r["id"], id, "{r}");
        let text = r.to_string();
        assert!(text.contains("xxxxxxxxxx"), "an excerpt is quoted: {text}");
        assert!(
            text.contains("… (52428") || text.contains("… (52429"),
            "and its size: {text}"
        );
    }
    assert!(c.tools(7) > 5);
    // Nor does the log or the audit log hold the argument.
    for f in std::fs::read_dir(w.state_dir()).unwrap() {
        let f = f.unwrap();
        let len = f.metadata().unwrap().len();
        assert!(len < 200_000, "{:?} is {len} bytes", f.file_name());
    }
}

#[test]
fn the_server_log_is_private_and_a_huge_bogus_target_stays_out_of_it() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    // Debug logging records every failed command with its error.
    let mut cmd = w.cmd(&["mcp"]);
    cmd.env("FUGUE_LOG", "debug");
    let mut c = Raw::launch_cmd(cmd);
    let big = "q".repeat(1 << 20);
    c.send_json(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "read_pane", "arguments": { "pane": big } }
    }));
    let reply = c.reply_bytes();
    assert!(reply.len() < 8 * 1024, "a {} byte answer", reply.len());
    // Through the client socket too (the CLI's argument limit is 128 KiB).
    w.ok(&["new", "-d", "-s", "logs"]);
    let target = "t".repeat(100_000);
    let out = w.run(&["send-keys", "-t", &target, "a"]);
    assert!(!out.status.success());
    assert!(
        out.stderr.len() < 8 * 1024,
        "the CLI's error is {} bytes",
        out.stderr.len()
    );
    assert!(c.tools(2) > 5);

    let log = w.state_dir().join("server-test.log");
    let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the log is private");
    let text = w.log();
    assert!(
        text.contains("failed: unknown target `qqq"),
        "debug logging is on: {text}"
    );
    assert!(
        text.len() < 200_000,
        "the log holds {} bytes after a 1 MB target",
        text.len()
    );
    // Our own lines quote an excerpt; rmcp's debug lines hold the whole request, cut
    // at the log's record limit of 16 KiB.
    assert!(!text.contains(&"q".repeat(16 * 1024 + 1)));
    for line in text.lines().filter(|l| l.contains("fugue_server")) {
        let start: String = line.chars().take(300).collect();
        assert!(!line.contains(&"q".repeat(1000)), "{start}");
        assert!(!line.contains(&"t".repeat(1000)), "{start}");
    }
}
