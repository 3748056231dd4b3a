//! `fugue mcp` as MCP clients launch it: a child process speaking MCP on stdio, bridged
//! to the server (started on demand) over its MCP socket.

use super::harness::World;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

/// Launches `fugue -S SOCKET -f CONFIG mcp` and completes the MCP handshake.
pub async fn launch(w: &World, config: &std::path::Path) -> RunningService<RoleClient, ()> {
    let base = w.cmd(&[]);
    let mut args: Vec<std::ffi::OsString> = base.get_args().map(|a| a.to_owned()).collect();
    args.extend(["-f".into(), config.as_os_str().to_owned(), "mcp".into()]);
    let cmd = tokio::process::Command::new(base.get_program()).configure(|c| {
        c.args(&args);
        for (k, v) in base.get_envs() {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
    });
    ().serve(TokioChildProcess::new(cmd).expect("spawn fugue mcp"))
        .await
        .expect("MCP handshake")
}

pub async fn call(c: &RunningService<RoleClient, ()>, name: &str, args: Value) -> (bool, Value) {
    let Value::Object(map) = args else {
        panic!("object")
    };
    let r = c
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await
        .expect("call");
    (
        r.is_error != Some(true),
        r.structured_content.unwrap_or(Value::Null),
    )
}

pub async fn ok(c: &RunningService<RoleClient, ()>, name: &str, args: Value) -> Value {
    let (good, v) = call(c, name, args.clone()).await;
    assert!(good, "{name} {args}: {v}");
    v
}

#[test]
fn fugue_mcp_as_a_child_process() {
    let w = World::new();
    let cfg = w.path("config/mcp.toml");
    std::fs::write(&cfg, "[policy]\nmcp = [\"read\", \"write\", \"destroy\"]\n").unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // No server runs yet: `fugue mcp` starts one.
        let c = launch(&w, &cfg).await;
        let tools = c.list_tools(None).await.unwrap().tools;
        assert!(
            tools.iter().any(|t| t.name == "close_pane"),
            "the config's policy applies"
        );

        let s = ok(&c, "create_session", json!({ "name": "agent" })).await;
        let p1 = s["pane"].as_str().unwrap().to_string();
        let p2 = ok(&c, "create_pane", json!({ "target": p1 })).await["pane"]
            .as_str()
            .unwrap()
            .to_string();
        let sent = ok(
            &c,
            "send_input",
            json!({ "pane": p2, "text": "echo via-bridge-$((5*5))", "submit": true }),
        )
        .await;
        let w1 = ok(
            &c,
            "wait_for",
            json!({ "pane": p2, "text": "^via-bridge-25$", "after_cursor": sent["cursor"] }),
        )
        .await;
        assert_eq!(w1["line"], "via-bridge-25");
        let first = ok(&c, "read_pane", json!({ "pane": p2 })).await;
        assert!(first["text"].as_str().unwrap().contains("via-bridge-25"));
        let sent = ok(
            &c,
            "send_input",
            json!({ "pane": p2, "text": "echo second-line", "keys": ["Enter"] }),
        )
        .await;
        ok(
            &c,
            "wait_for",
            json!({ "pane": p2, "text": "^second-line$", "after_cursor": sent["cursor"] }),
        )
        .await;
        let next = ok(
            &c,
            "read_pane",
            json!({ "pane": p2, "cursor": first["cursor"] }),
        )
        .await;
        let text = next["text"].as_str().unwrap();
        assert!(
            text.contains("second-line") && !text.contains("via-bridge-25"),
            "{text}"
        );
        // Keys: interrupt a running program.
        ok(
            &c,
            "send_input",
            json!({ "pane": p2, "text": "sleep 100", "submit": true }),
        )
        .await;
        // Interrupt only once `sleep` runs in the foreground, as a careful agent would.
        // (What runs in the foreground is not an event a wait can name: look again
        // until a deadline; a loaded machine can take a while to start `sleep`.)
        let mut running = false;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            let panes = ok(&c, "list_panes", json!({})).await;
            running = panes["panes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["id"] == p2 && p["command"] == "sleep");
            if running {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(running, "sleep never ran in {p2}");
        ok(&c, "send_input", json!({ "pane": p2, "keys": ["C-c"] })).await;
        let sent2 = ok(
            &c,
            "send_input",
            json!({ "pane": p2, "text": "echo after-interrupt", "submit": true }),
        )
        .await;
        ok(
            &c,
            "wait_for",
            // Not anchored at the start: the shell's new prompt may share the line.
            json!({ "pane": p2, "text": "after-interrupt$", "after_cursor": sent2["cursor"] }),
        )
        .await;
        ok(&c, "close_pane", json!({ "pane": p2 })).await;
        let panes = ok(&c, "list_panes", json!({})).await;
        assert_eq!(panes["panes"].as_array().unwrap().len(), 1);

        // Two connections at once each get their own answers.
        let other = launch(&w, &cfg).await;
        let (a, b) = tokio::join!(
            ok(
                &c,
                "run_command",
                json!({ "command": "sleep 0.3; echo from-a", "split_from": p1 })
            ),
            ok(
                &other,
                "run_command",
                json!({ "command": "echo from-b", "split_from": p1 })
            ),
        );
        assert_eq!(
            (a["output"].as_str(), b["output"].as_str()),
            (Some("from-a"), Some("from-b"))
        );
        other.cancel().await.unwrap();
        c.cancel().await.unwrap();
    });
    // The caller's origin reached the audit log.
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap();
    assert!(
        audit
            .lines()
            .any(|l| l.contains("\"via\":\"close_pane\"") && l.contains("MCP connection"))
    );
}

/// Issue 18 through `fugue mcp` over stdio: send, then wait without a cursor, sees
/// output that came first; list_panes is compact; an error names only callable tools.
#[test]
fn send_then_wait_and_compact_answers_through_the_bridge() {
    let w = World::new();
    let cfg = w.path("config/mcp.toml");
    std::fs::write(&cfg, "").unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = launch(&w, &cfg).await;
        let p = ok(&c, "create_session", json!({ "name": "race" })).await["pane"]
            .as_str()
            .unwrap()
            .to_string();
        ok(
            &c,
            "send_input",
            json!({ "pane": p, "text": "echo quick-$((6*7))", "submit": true }),
        )
        .await;
        // Let the output arrive before the wait starts: the wait must find output
        // that came before it.
        super::harness::eventually("the output before the wait", || {
            w.ok(&["capture-pane", "-p", "-t", &p])
                .lines()
                .any(|l| l == "quick-42")
                .then_some(())
        });
        let waited = ok(
            &c,
            "wait_for",
            json!({ "pane": p, "text": "^quick-42$", "timeout_ms": 5000 }),
        )
        .await;
        assert_eq!(waited["line"], "quick-42");
        let panes = ok(&c, "list_panes", json!({})).await;
        let row = &panes["panes"][0];
        assert_eq!(row["id"], p);
        assert!(row.get("cwd").is_none(), "compact by default: {row}");
        let (good, e) = call(
            &c,
            "run_command",
            json!({ "command": "sleep 5", "timeout_ms": 200 }),
        )
        .await;
        assert!(!good);
        let s = e["suggestion"].as_str().unwrap();
        assert!(!s.contains("close_pane") && s.contains("C-c"), "{e}");
        c.cancel().await.unwrap();
    });
}
