//! MCP over streamable HTTP (`fugue mcp --http`): a real rmcp HTTP client (and the
//! official Python SDK when it is installed) against the real server; requests without
//! the token, with a wrong one, or from a foreign Origin are refused.

use super::harness::World;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Stdio};

/// `fugue mcp --http ADDR` running; killed when dropped.
struct Listener {
    child: Child,
    url: String,
    token_file: String,
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(w: &World, cfg: &std::path::Path, addr: &str) -> Listener {
    let mut child = w
        .cmd(&["-f", cfg.to_str().unwrap(), "mcp", "--http", addr])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fugue mcp --http");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    let mut second = String::new();
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let url = first
        .trim()
        .strip_prefix("MCP over streamable HTTP at ")
        .unwrap_or_else(|| panic!("unexpected first line: {first:?} {second:?}"))
        .to_string();
    let token_file = second
        .strip_prefix("bearer token in ")
        .and_then(|s| s.split_once(" ("))
        .map(|(f, _)| f.to_string())
        .unwrap_or_else(|| panic!("unexpected second line: {second:?}"));
    Listener {
        child,
        url,
        token_file,
    }
}

/// One raw HTTP/1.1 POST of an `initialize`; answers the status code.
fn post_status(url: &str, headers: &[(&str, &str)]) -> u16 {
    let rest = url.strip_prefix("http://").unwrap();
    let (hostport, path) = rest.split_once('/').unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    let mut s = std::net::TcpStream::connect(hostport).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut req = format!(
        "POST /{path} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut status = [0u8; 12];
    s.read_exact(&mut status).unwrap();
    String::from_utf8_lossy(&status[9..12]).parse().unwrap()
}

async fn call(
    c: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    name: &str,
    args: Value,
) -> Value {
    let Value::Object(map) = args else {
        panic!("object")
    };
    let r = c
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await
        .expect("call");
    assert_ne!(r.is_error, Some(true), "{name}: {:?}", r.structured_content);
    r.structured_content.unwrap_or(Value::Null)
}

fn client_config(url: &str, token: &str) -> StreamableHttpClientTransportConfig {
    StreamableHttpClientTransportConfig::with_uri(url.to_string()).auth_header(token.to_string())
}

#[test]
fn mcp_over_http_with_a_token() {
    let w = World::new();
    let cfg = w.path("config/http.toml");
    std::fs::write(&cfg, "").unwrap();
    let l = start(&w, &cfg, "127.0.0.1:0");
    assert!(l.url.starts_with("http://127.0.0.1:") && l.url.ends_with("/mcp"));
    // The token: a private file in a private folder, in the state folder.
    assert!(
        l.token_file.starts_with(w.state_dir().to_str().unwrap()),
        "{}",
        l.token_file
    );
    let mode = |p: &str| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&l.token_file), 0o600);
    let dir = std::path::Path::new(&l.token_file).parent().unwrap();
    assert_eq!(mode(dir.to_str().unwrap()), 0o700);
    let token = std::fs::read_to_string(&l.token_file)
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(token.len(), 64);

    // Refused: no token, a wrong one, a foreign Origin even with the token.
    assert_eq!(post_status(&l.url, &[]), 401);
    let wrong = format!("Bearer {}", "0".repeat(64));
    assert_eq!(post_status(&l.url, &[("Authorization", &wrong)]), 401);
    let right = format!("Bearer {token}");
    assert_eq!(
        post_status(
            &l.url,
            &[
                ("Authorization", &right),
                ("Origin", "https://evil.example")
            ]
        ),
        403
    );
    assert_eq!(
        post_status(
            &l.url,
            &[
                ("Authorization", &right),
                ("Origin", "http://localhost:3000")
            ]
        ),
        200,
        "a loopback origin passes"
    );
    assert_eq!(post_status(&l.url, &[("Authorization", &right)]), 200);
    // The scheme's name is case-insensitive (RFC 9110); the token is not.
    let lower = format!("bearer {token}");
    assert_eq!(post_status(&l.url, &[("Authorization", &lower)]), 200);
    let upper_token = format!("Bearer {}", token.to_uppercase());
    assert_eq!(post_status(&l.url, &[("Authorization", &upper_token)]), 401);

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // rmcp's own client with a wrong token gets no session.
        let bad = ()
            .serve(StreamableHttpClientTransport::from_config(client_config(
                &l.url,
                &"f".repeat(64),
            )))
            .await;
        assert!(bad.is_err(), "a wrong token must not initialize");

        let c = ()
            .serve(StreamableHttpClientTransport::from_config(client_config(
                &l.url, &token,
            )))
            .await
            .expect("MCP handshake over HTTP");
        let tools = c.list_tools(None).await.unwrap().tools;
        assert!(tools.iter().any(|t| t.name == "read_pane"));
        // The same policy as stdio: destroy-tier tools hidden by default.
        assert!(!tools.iter().any(|t| t.name == "kill_session"));
        let s = call(&c, "create_session", json!({"name": "web"})).await;
        let pane = s["pane"].as_str().unwrap().to_string();
        let panes = call(&c, "list_panes", json!({})).await;
        assert!(panes.to_string().contains(&pane), "{panes}");
        let _ = c.cancel().await;
    });

    // The same audit, with its own origin.
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap();
    let line = audit
        .lines()
        .find(|l| l.contains("\"new-session\""))
        .unwrap_or_else(|| panic!("no new-session in the audit log:\n{audit}"));
    assert!(line.contains("MCP over HTTP"), "{line}");

    // Optional: the official Python SDK, when installed.
    python_sdk(&l.url, &token);

    // Ending `fugue mcp --http` closes the port.
    let url = l.url.clone();
    drop(l);
    let hostport = url
        .strip_prefix("http://")
        .unwrap()
        .split_once('/')
        .unwrap()
        .0
        .to_string();
    super::harness::eventually("the port to close", || {
        std::net::TcpStream::connect(&hostport)
            .is_err()
            .then_some(())
    });
    w.ok(&["kill-server"]);
}

/// The official MCP Python SDK lists the tools and calls one, if `import mcp` works
/// here (it is not a dependency of the build).
fn python_sdk(url: &str, token: &str) {
    let have = std::process::Command::new("python3")
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("python3 has no `mcp` package: the Python SDK check is skipped");
        return;
    }
    let script = r#"
import asyncio, contextlib, json, sys
from mcp import ClientSession
import mcp.client.streamable_http as sh
def connect(url, token):
    headers = {"Authorization": "Bearer " + token}
    if hasattr(sh, "streamable_http_client"):  # SDK 1.2x and later: bring the client
        from mcp.shared._httpx_utils import create_mcp_http_client
        return sh.streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
    return sh.streamablehttp_client(url, headers=headers)
async def main(url, token):
    async with connect(url, token) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            tools = (await s.list_tools()).tools
            res = await s.call_tool("list_panes", {})
            error = res.is_error if hasattr(res, "is_error") else res.isError
            print(json.dumps({"tools": len(tools), "error": error, "text": res.content[0].text}))
asyncio.run(main(sys.argv[1], sys.argv[2]))
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, url, token])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python SDK: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["tools"].as_u64().unwrap() > 10, "{v}");
    assert_eq!(v["error"], false, "{v}");
    assert!(v["text"].as_str().unwrap().contains("web"), "{v}");
}

#[test]
fn mcp_over_http_listens_only_on_loopback_unless_configured() {
    let w = World::new();
    let cfg = w.path("config/http.toml");
    std::fs::write(&cfg, "").unwrap();
    let out = w
        .cmd(&["-f", cfg.to_str().unwrap(), "mcp", "--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a loopback address") && err.contains("allow_non_loopback"),
        "{err}"
    );
    let _ = w.run(&["kill-server"]);
    // A config that says listen on a wide address without allowing it does not load
    // (a new world: the server `mcp` started keeps its config).
    let w = World::new();
    let cfg = w.path("config/http.toml");
    std::fs::write(&cfg, "[mcp_http]\nlisten = \"0.0.0.0:8765\"\n").unwrap();
    let out = w
        .cmd(&["-f", cfg.to_str().unwrap(), "new-session", "-d"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("allow_non_loopback"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = w.run(&["kill-server"]);
}

#[test]
fn mcp_over_http_from_the_config() {
    let w = World::new();
    // A free port, taken from the kernel and handed back.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let token_file = w.path("home/secret/fugue.token");
    let cfg = w.path("config/http.toml");
    std::fs::write(
        &cfg,
        format!(
            "[mcp_http]\nlisten = \"127.0.0.1:{port}\"\ntoken_file = \"{}\"\nallowed_origins = [\"https://app.example.com\"]\n",
            token_file.display()
        ),
    )
    .unwrap();
    w.ok(&["-f", cfg.to_str().unwrap(), "new-session", "-d"]);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let token = super::harness::eventually("the token file", || {
        std::fs::read_to_string(&token_file).ok()
    });
    let right = format!("Bearer {}", token.trim());
    super::harness::eventually("the listener", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).ok()
    });
    assert_eq!(post_status(&url, &[]), 401);
    assert_eq!(post_status(&url, &[("Authorization", &right)]), 200);
    assert_eq!(
        post_status(
            &url,
            &[
                ("Authorization", &right),
                ("Origin", "https://app.example.com")
            ]
        ),
        200,
        "a configured origin passes"
    );
    assert_eq!(
        post_status(
            &url,
            &[
                ("Authorization", &right),
                ("Origin", "https://other.example.com")
            ]
        ),
        403
    );
    assert!(w.log().contains("MCP over HTTP at"), "{}", w.log());
    w.ok(&["kill-server"]);
}
