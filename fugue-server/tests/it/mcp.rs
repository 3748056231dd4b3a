//! The MCP surface in-process: an rmcp client over an in-memory duplex against the real
//! dispatcher and real PTYs. Every tool and every error code that can be provoked.

use fugue_protocol::PaneId;
use fugue_server::audit::Audit;
use fugue_server::config::Config;
use fugue_server::origin::Origin;
use fugue_server::server::{Server, run_events};
use fugue_server::surfaces::mcp::handler::FugueMcp;
use fugue_server::surfaces::mcp::tools as tool_table;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(&self, p: ProgressNotificationParam, _c: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push(p);
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("fugue-test", "0"),
        )
    }
}

struct Rig {
    server: Arc<Server>,
    dir: tempfile::TempDir,
}

impl Rig {
    fn new(edit: impl FnOnce(&mut Config)) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        config.server.default_command = vec!["/bin/sh".into()];
        edit(&mut config);
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (server, events) = Server::new(config, dir.path().join("sock"), audit);
        fugue_server::surfaces::subscribe(&server);
        tokio::spawn(run_events(Arc::clone(&server), events));
        Rig { server, dir }
    }

    async fn client(
        &self,
        caller_pane: Option<PaneId>,
    ) -> (RunningService<RoleClient, Recorder>, Recorder) {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let handler = FugueMcp::new(
            Arc::clone(&self.server),
            Origin::Mcp {
                connection: 1,
                caller_pane,
                http: false,
            },
        );
        tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let rec = Recorder::default();
        (rec.clone().serve(client_io).await.unwrap(), rec)
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        self.server
            .begin_shutdown("test over", fugue_server::journal::Stop::Keep);
    }
}

fn req(name: &str, args: Value) -> CallToolRequestParams {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(name.to_string()).with_arguments(map)
}

/// Calls a tool that must succeed and returns its structured answer.
async fn ok(c: &RunningService<RoleClient, Recorder>, name: &str, args: Value) -> Value {
    let r: CallToolResult = c.call_tool(req(name, args.clone())).await.unwrap();
    assert_eq!(
        r.is_error,
        Some(false),
        "{name} {args} failed: {:?}",
        r.structured_content
    );
    let v = r.structured_content.clone().expect("structured content");
    // The text copy says the same.
    let text = r
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect::<String>();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    v
}

/// Calls a tool that must fail and returns its error code and the error.
async fn err(c: &RunningService<RoleClient, Recorder>, name: &str, args: Value) -> (String, Value) {
    let r = c.call_tool(req(name, args.clone())).await.unwrap();
    assert_eq!(
        r.is_error,
        Some(true),
        "{name} {args} should fail: {:?}",
        r.structured_content
    );
    let v = r.structured_content.expect("structured error");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
    crate::agent_rig::advice::check(c, name, &v).await;
    (v["code"].as_str().unwrap().to_string(), v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_comes_from_the_table_and_hides_what_policy_forbids() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    let tools = c.list_tools(None).await.unwrap().tools;
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    // close_pane is listed: an agent may close what it made (`close_own`,
    // tests/it/close_own.rs; windows with `tmux kill-window`). The `tmux` tool is
    // listed: it checks each command of its line on its own.
    assert!(
        names.contains(&"close_pane".to_string())
            && !names.contains(&"kill_session".to_string())
            && names.contains(&"tmux".to_string())
    );
    assert_eq!(names.len(), tool_table::all().count() - 1);
    for t in &tools {
        // Hints MCP assumes when absent are left out (issue 18: a smaller list); what
        // a client reads back is the table's.
        let a = t.annotations.clone().unwrap_or_default();
        let def = tool_table::find(&t.name).unwrap();
        assert_eq!(
            a.read_only_hint.unwrap_or(false),
            def.read_only,
            "{}",
            t.name
        );
        if !def.read_only {
            assert_eq!(
                a.destructive_hint.unwrap_or(true),
                def.destructive,
                "{}",
                t.name
            );
            assert_eq!(
                a.idempotent_hint.unwrap_or(false),
                def.idempotent,
                "{}",
                t.name
            );
        }
        assert_eq!(
            a.open_world_hint.unwrap_or(true),
            def.open_world,
            "{}",
            t.name
        );
        assert!(t.description.as_ref().is_some_and(|d| d.len() > 10));
    }
    let size = serde_json::to_vec(&tools).unwrap().len();
    assert!(size < 25_000, "tools/list is {size} bytes");

    let all = Rig::new(|c| c.policy.mcp.push(fugue_protocol::Tier::Destroy));
    let (c, _) = all.client(None).await;
    let tools = c.list_tools(None).await.unwrap().tools;
    assert_eq!(tools.len(), tool_table::all().count());
    let size = serde_json::to_vec(&tools).unwrap().len();
    println!(
        "tools/list with every tool: {} tools, {size} bytes",
        tools.len()
    );
    assert!(size < 25_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_against_real_panes() {
    let rig = Rig::new(|c| c.policy.mcp.push(fugue_protocol::Tier::Destroy));
    let (c, _) = rig.client(None).await;
    let s = ok(
        &c,
        "create_session",
        json!({ "name": "work", "width": 100, "height": 30 }),
    )
    .await;
    let p1 = s["pane"].as_str().unwrap().to_string();
    assert_eq!(s["session_name"], "work");

    let sent = ok(
        &c,
        "send_input",
        json!({ "pane": p1, "text": "echo one-$((1+1))", "submit": true }),
    )
    .await;
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": p1, "text": "^one-2$", "after_cursor": sent["cursor"] }),
    )
    .await;
    assert_eq!(w["line"], "one-2");
    let screen = ok(&c, "read_pane", json!({ "pane": p1 })).await;
    assert!(screen["text"].as_str().unwrap().contains("one-2"));
    let cursor = screen["cursor"].as_str().unwrap().to_string();
    let sent = ok(
        &c,
        "send_input",
        json!({ "pane": p1, "text": "echo three-$((1+2))", "keys": ["Enter"] }),
    )
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": p1, "text": "^three-3$", "after_cursor": sent["cursor"] }),
    )
    .await;
    let since = ok(&c, "read_pane", json!({ "pane": p1, "cursor": cursor })).await;
    let text = since["text"].as_str().unwrap();
    assert!(
        text.contains("three-3") && !text.contains("one-2"),
        "{text}"
    );
    let back = ok(
        &c,
        "read_pane",
        json!({ "pane": p1, "mode": "scrollback", "lines": 3 }),
    )
    .await;
    assert!(back["text"].as_str().unwrap().lines().count() <= 3);

    let found = ok(&c, "search_panes", json!({ "pattern": "^three-\\d$" })).await;
    assert_eq!(found["total"], 1);
    assert_eq!(found["matches"][0]["pane"], p1);

    let p2 = ok(
        &c,
        "create_pane",
        json!({ "target": p1, "direction": "down", "size_percent": 30, "name": "helper" }),
    )
    .await;
    let p2 = p2["pane"].as_str().unwrap().to_string();
    let win = ok(
        &c,
        "create_window",
        json!({ "session": "work", "name": "logs", "command": "sh" }),
    )
    .await;
    let p3 = win["pane"].as_str().unwrap().to_string();
    // What has no tool of its own is a `tmux` command line away.
    let tmux = |line: String| json!({ "command": line });
    ok(&c, "tmux", tmux(format!("select-pane -t {p2}"))).await;
    ok(&c, "tmux", tmux(format!("select-pane -t {p2} -U"))).await;
    ok(&c, "tmux", tmux(format!("resize-pane -t {p1} -D 2"))).await;
    // An absolute size (resize-pane -y): the same size twice changes nothing, and three
    // more rows are three more rows.
    let height_of = |list: &Value, pane: &str| {
        list["panes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == pane)
            .map(|p| p["height"].as_u64().unwrap())
            .unwrap()
    };
    let heights = async |c: &_| {
        height_of(
            &ok(
                c,
                "list_panes",
                json!({ "session": "work", "detail": true }),
            )
            .await,
            &p1,
        )
    };
    ok(&c, "tmux", tmux(format!("resize-pane -t {p1} -y 9"))).await;
    let first = heights(&c).await;
    assert_eq!(first, 9, "the pane's own rows, as in tmux");
    ok(&c, "tmux", tmux(format!("resize-pane -t {p1} -y 9"))).await;
    assert_eq!(heights(&c).await, first, "an absolute size does not add up");
    ok(&c, "tmux", tmux(format!("resize-pane -t {p1} -y 12"))).await;
    assert_eq!(heights(&c).await, first + 3);
    // A sequence, as tmux runs it: each command in turn, the answers in order.
    let v = ok(
        &c,
        "tmux",
        tmux(format!(
            "resize-pane -Z -t {p1} ; select-layout -t work:0 even-vertical ; \
             select-pane -t {p2} -T renamed-pane ; rename-window -t work:1 tail ; \
             rename-session -t work job ; select-window -t job:1 ; \
             display -p -t {p2} '#{{pane_title}} #{{session_name}}'"
        )),
    )
    .await;
    assert_eq!(v["output"], "renamed-pane job\n");
    let list = ok(
        &c,
        "list_panes",
        json!({ "session": "job", "detail": true }),
    )
    .await;
    let panes = list["panes"].as_array().unwrap();
    assert_eq!(panes.len(), 3);
    assert!(
        panes
            .iter()
            .any(|p| p["id"] == p2 && p["title"] == "renamed-pane")
    );
    assert!(
        panes
            .iter()
            .any(|p| p["id"] == p3 && p["window_name"] == "tail")
    );

    let ran = ok(
        &c,
        "run_command",
        json!({ "command": "echo out; echo err >&2; exit 3", "split_from": p1 }),
    )
    .await;
    assert_eq!(ran["exit_status"], 3);
    assert_eq!(ran["output"], "out\nerr");
    let ran = ok(
        &c,
        "run_command",
        json!({ "command": "echo typed-$((2*21))", "pane": p1 }),
    )
    .await;
    assert_eq!(
        (ran["exit_status"].as_i64(), ran["output"].as_str()),
        (Some(0), Some("typed-42"))
    );

    ok(&c, "wait_for", json!({ "pane": p1, "idle_ms": 100 })).await;
    let exiting = ok(
        &c,
        "create_pane",
        json!({ "target": p3, "command": "sleep 0.2; exit 4" }),
    )
    .await;
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": exiting["pane"], "exit": true }),
    )
    .await;
    assert_eq!(w["exit_status"], 4);

    ok(&c, "close_pane", json!({ "pane": p3 })).await;
    let extra = ok(&c, "create_window", json!({ "session": "job" })).await;
    let v = ok(
        &c,
        "tmux",
        json!({ "command": format!("kill-window -t {}", extra["pane"].as_str().unwrap()) }),
    )
    .await;
    assert_eq!(v["output"], "");
    ok(&c, "kill_session", json!({ "session": "job" })).await;
    let list = ok(&c, "list_panes", json!({})).await;
    assert_eq!(list["panes"].as_array().unwrap().len(), 0);

    // Every call is in the audit log with its tool, and typed text never is.
    let audit = std::fs::read_to_string(rig.dir.path().join("audit.jsonl")).unwrap();
    assert!(!audit.contains("one-$((1+1))"));
    let sends: Vec<Value> = audit
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["via"] == "send_input")
        .collect();
    assert_eq!(sends.len(), 2);
    assert!(
        sends[0]["detail"]["input_sha256"]
            .as_str()
            .is_some_and(|h| h.len() == 16)
    );
    assert!(
        sends[0]["origin"]
            .as_str()
            .unwrap()
            .starts_with("MCP connection 1")
    );
}

/// A new pane's input is typed before `create_pane` answers, so its output may be on
/// the screen before the caller's wait starts: the answer's cursor (remembered for the
/// next text wait on that pane) is where the input was typed, and the wait finds what
/// came after it (issue 27: 6 of 6 such waits timed out with the line on the pane).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_after_create_pane_with_input_sees_output_that_came_first() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    let s = ok(&c, "create_session", json!({ "name": "w" })).await;
    let made = ok(
        &c,
        "create_pane",
        json!({ "target": s["pane"], "input": "echo made-$((40+2))" }),
    )
    .await;
    let pane = made["pane"].as_str().unwrap().to_string();
    assert!(made["cursor"].is_string(), "{made}");
    // The output is on the screen before the wait is asked for.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let screen = ok(&c, "read_pane", json!({ "pane": pane })).await;
        if screen["text"]
            .as_str()
            .unwrap()
            .lines()
            .any(|l| l == "made-42")
        {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no output: {screen}");
        let _ = ok(&c, "wait_for", json!({ "pane": pane, "idle_ms": 50 })).await;
    }
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": pane, "text": "^made-42$", "timeout_ms": 5000 }),
    )
    .await;
    assert_eq!(w["line"], "made-42", "{w}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_code_that_can_be_provoked() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    let s = ok(
        &c,
        "create_session",
        json!({ "name": "e", "width": 20, "height": 5 }),
    )
    .await;
    let p = s["pane"].as_str().unwrap().to_string();

    let (code, e) = err(&c, "read_pane", json!({ "pane": "%99" })).await;
    assert_eq!(code, "unknown_target");
    assert!(e["suggestion"].as_str().unwrap().contains(&p), "{e}");

    let (code, e) = err(&c, "read_pane", json!({ "pane": p, "lines": "all" })).await;
    assert_eq!(code, "invalid_argument");
    assert!(e["message"].as_str().unwrap().contains("lines"));
    let (code, e) = err(&c, "read_pane", json!({ "pain": p })).await;
    assert_eq!(code, "invalid_argument");
    assert!(e["suggestion"].as_str().unwrap().contains("pane"));
    let (code, _) = err(&c, "wait_for", json!({ "pane": p, "text": "(" })).await;
    assert_eq!(code, "invalid_argument");
    let (code, _) = err(&c, "read_pane", json!({ "pane": p, "cursor": "garbage" })).await;
    assert_eq!(code, "invalid_argument");

    let (code, e) = err(&c, "kill_session", json!({ "session": "e" })).await;
    assert_eq!(code, "forbidden", "hidden tools are refused too: {e}");

    let (code, e) = err(
        &c,
        "wait_for",
        json!({ "pane": p, "text": "^never$", "timeout_ms": 200 }),
    )
    .await;
    assert_eq!(code, "timeout");
    assert!(e["suggestion"].as_str().unwrap().contains("300000"));

    // A 20x5 window has no room for a split one above the other.
    let (code, _) = err(
        &c,
        "create_pane",
        json!({ "target": p, "direction": "down" }),
    )
    .await;
    assert_eq!(code, "limit_exceeded");

    let dead = ok(
        &c,
        "create_session",
        json!({ "name": "d", "command": "exit 5" }),
    )
    .await;
    let dead_pane = dead["pane"].as_str().unwrap().to_string();
    let (code, _) = err(
        &c,
        "wait_for",
        json!({ "pane": dead_pane, "text": "^x$", "timeout_ms": 5000 }),
    )
    .await;
    assert!(code == "pane_exited" || code == "unknown_target", "{code}");

    // Unknown tools are a protocol error that lists the tools.
    let e = c
        .call_tool(req("no_such_tool", json!({})))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("list_panes"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pane_exited_for_input_to_a_finished_program() {
    let rig = Rig::new(|c| c.server.remain_on_exit = true);
    let (c, _) = rig.client(None).await;
    let s = ok(&c, "create_session", json!({ "command": "exit 2" })).await;
    let p = s["pane"].as_str().unwrap().to_string();
    let w = ok(&c, "wait_for", json!({ "pane": p, "exit": true })).await;
    assert_eq!(w["exit_status"], 2);
    // The server marks the pane dead right after the exit is seen.
    let mut code = String::new();
    for _ in 0..100 {
        code = err(&c, "send_input", json!({ "pane": p, "text": "x" }))
            .await
            .0;
        if code == "pane_exited" {
            break;
        }
    }
    assert_eq!(code, "pane_exited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_cannot_close_its_own_pane_or_session() {
    let rig = Rig::new(|c| c.policy.mcp.push(fugue_protocol::Tier::Destroy));
    let (admin, _) = rig.client(None).await;
    let s = ok(&admin, "create_session", json!({ "name": "home" })).await;
    let me: PaneId = s["pane"].as_str().unwrap().parse().unwrap();
    let other = ok(&admin, "create_session", json!({ "name": "other" })).await;
    let (agent, _) = rig.client(Some(me)).await;
    let (code, _) = err(&agent, "close_pane", json!({ "pane": me.to_string() })).await;
    assert_eq!(code, "forbidden");
    let (code, _) = err(&agent, "kill_session", json!({ "session": "home" })).await;
    assert_eq!(code, "forbidden");
    // Reading defaults to the caller's own pane.
    let r = ok(&agent, "read_pane", json!({})).await;
    assert_eq!(r["pane"], me.to_string());
    ok(&agent, "close_pane", json!({ "pane": other["pane"] })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_waits_report_progress_and_do_not_block_other_calls() {
    let rig = Rig::new(|_| {});
    let (c, rec) = rig.client(None).await;
    let s = ok(&c, "create_session", json!({})).await;
    let p = s["pane"].as_str().unwrap().to_string();
    let c = Arc::new(c);
    let waiter = {
        let c = Arc::clone(&c);
        let p = p.clone();
        tokio::spawn(async move {
            ok(
                &c,
                "wait_for",
                json!({ "pane": p, "text": "^late-\\d+$", "timeout_ms": 20000 }),
            )
            .await
        })
    };
    // Other calls on the same connection answer while the wait is in progress.
    ok(&c, "read_pane", json!({ "pane": p })).await;
    let (other, _) = rig.client(None).await;
    ok(&other, "list_panes", json!({})).await;
    // Part of the scenario: a wait long enough to be reported on (progress every
    // second).
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "echo late-$((3*3))", "submit": true }),
    )
    .await;
    let w = waiter.await.unwrap();
    assert_eq!(w["line"], "late-9");
    assert!(w["waited_ms"].as_u64().unwrap() >= 1300);
    // Notifications are handled on the client's own task: wait for one to land.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while rec.progress.lock().unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no progress notification during a 1.3 s wait"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Issue 3 check, and the lesson of an earlier system: an unanchored wait for the text
/// an agent just typed matched the shell's echo of the command, not its output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_text_skips_the_echo_of_typed_input() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    let s = ok(
        &c,
        "create_session",
        json!({ "name": "echo", "width": 100, "height": 30 }),
    )
    .await;
    let p = s["pane"].as_str().unwrap().to_string();
    let sent = ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "sleep 0.3; echo marker-123", "submit": true }),
    )
    .await;
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": p, "text": "marker-123", "after_cursor": sent["cursor"] }),
    )
    .await;
    assert_eq!(w["line"], "marker-123", "{w}");
    // Text typed into `cat` comes back twice: the echo, then cat's copy, which counts.
    ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "cat", "submit": true }),
    )
    .await;
    let sent = ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "copy-me", "submit": true }),
    )
    .await;
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": p, "text": "copy-me", "after_cursor": sent["cursor"] }),
    )
    .await;
    let echo_line = sent["cursor"].as_str().unwrap().to_string();
    assert_eq!(w["line"], "copy-me");
    assert_ne!(w["cursor"].as_str().unwrap(), echo_line);
}

/// Issue 3 check: a command's long output line came back cut at the pane's width, and
/// run_command without a pane split the same pane until it was too small.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_command_returns_whole_lines_and_finds_room() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    ok(
        &c,
        "create_session",
        json!({ "name": "small", "width": 40, "height": 12 }),
    )
    .await;
    let r = ok(
        &c,
        "run_command",
        json!({ "command": "printf 'A%.0s' $(seq 1 250); echo" }),
    )
    .await;
    assert_eq!(r["output"], "A".repeat(250), "{r}");
    let calls = (0..8).map(|i| {
        let c = &c;
        async move {
            ok(
                c,
                "run_command",
                json!({ "command": format!("sleep 0.5; echo done-{i}") }),
            )
            .await
        }
    });
    let outs = futures::future::join_all(calls).await;
    for (i, o) in outs.iter().enumerate() {
        assert_eq!(o["output"], format!("done-{i}"), "{o}");
    }
}

/// Issue 15: agents read options and set them as the policy allows, but never the
/// options that choose which programs run for people, and with a limited scope never a
/// global value.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_show_and_set_options_within_their_rights() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    ok(&c, "create_session", json!({ "name": "o" })).await;
    // Options are a `tmux` tool call away, as tmux command lines.
    let tmux = |line: &str| json!({ "command": line });
    let v = ok(&c, "tmux", tmux("show-options -g history-limit")).await;
    assert_eq!(v["output"], "history-limit 10000\n");
    let v = ok(
        &c,
        "tmux",
        tmux("set -g history-limit 500 ; show -gv history-limit"),
    )
    .await;
    assert_eq!(v["output"], "500\n");
    assert_eq!(rig.server.config().server.history_limit, 500);
    let (code, e) = err(&c, "tmux", tmux("set -g mouse maybe")).await;
    assert_eq!(code, "invalid_argument");
    assert!(
        e["message"].as_str().unwrap().contains("bad value: maybe"),
        "{e}"
    );
    let (code, _) = err(&c, "tmux", tmux("set -g default-command evil")).await;
    assert_eq!(code, "forbidden");
    // Scoped to its own panes, an agent may not change what every pane inherits.
    let rig = Rig::new(|c| c.policy.mcp_scope = fugue_server::config::Scope::Own);
    let (admin, _) = rig.client(None).await;
    let s = ok(&admin, "create_session", json!({ "name": "home" })).await;
    let me: PaneId = s["pane"].as_str().unwrap().parse().unwrap();
    let (agent, _) = rig.client(Some(me)).await;
    let (code, _) = err(&agent, "tmux", json!({ "command": "set -g status off" })).await;
    assert_eq!(code, "forbidden");
    ok(
        &agent,
        "tmux",
        json!({ "command": "set -p remain-on-exit on" }),
    )
    .await;
}

/// Issue 18: the `tmux` tool runs tmux command lines through the dispatcher: `-P -F`
/// answers as the CLI does, commands the list had no room for are reached (swap-pane),
/// a command the declaration keeps off MCP is refused with its reason, and the
/// caller's tiers hold per command (a read-only agent may show but not change).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tmux_tool_runs_what_mcp_is_offered_within_the_callers_rights() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    let first = ok(
        &c,
        "create_session",
        json!({ "name": "t", "command": "sh" }),
    )
    .await;
    let first = first["pane"].as_str().unwrap().to_string();
    let tmux = |line: String| json!({ "command": line });
    let made = ok(
        &c,
        "tmux",
        tmux(format!(
            "split-window -d -t {first} -P -F '#{{pane_id}} #{{session_name}}' -- cat"
        )),
    )
    .await;
    let line = made["output"].as_str().unwrap().to_string();
    let (second, session) = line.trim().split_once(' ').unwrap();
    assert_eq!(session, "t", "{made}");
    let list = json!({ "command": "list-panes -t t -F '#{pane_id}'" });
    let v = ok(&c, "tmux", list.clone()).await;
    assert_eq!(v["output"], format!("{first}\n{second}\n"));
    ok(
        &c,
        "tmux",
        tmux(format!("swap-pane -s {first} -t {second}")),
    )
    .await;
    let v = ok(&c, "tmux", list.clone()).await;
    assert_eq!(v["output"], format!("{second}\n{first}\n"));
    // Kept off MCP by the declaration, with its reason.
    let (code, e) = err(&c, "tmux", tmux("bind-key x kill-server".into())).await;
    assert_eq!(code, "invalid_argument");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("not offered over MCP"),
        "{e}"
    );
    // Stops at the first failure, as tmux does: the rename after it never runs.
    let (code, _) = err(
        &c,
        "tmux",
        tmux("select-window -t nosuch:9 ; rename-session -t t u".into()),
    )
    .await;
    assert_eq!(code, "unknown_target");
    assert!(rig.server.mux.tree().sessions.iter().any(|s| s.name == "t"));
    // A hidden shell in the server is refused as run-shell is (issue 30, item 12);
    // pipe-pane to nothing (closing a pipe) is not a shell.
    let (code, e) = err(
        &c,
        "tmux",
        tmux(format!("pipe-pane -t {first} 'id > /tmp/x'")),
    )
    .await;
    assert_eq!(code, "forbidden", "{e}");
    ok(&c, "tmux", tmux(format!("pipe-pane -t {first}"))).await;
    // What the errors advise works here (item 15): `list-commands NAME`.
    let (_, e) = err(&c, "tmux", tmux("split-window -Q".into())).await;
    assert!(
        e["suggestion"]
            .as_str()
            .unwrap_or("")
            .contains("list-commands NAME"),
        "{e}"
    );
    let v = ok(&c, "tmux", tmux("list-commands split-window".into())).await;
    assert!(
        v["output"]
            .as_str()
            .unwrap()
            .starts_with("split-window (splitw) ["),
        "{v}"
    );

    // Read-only MCP: reads run, changes are refused per command.
    let rig = Rig::new(|c| c.policy.mcp = vec![fugue_protocol::Tier::Read]);
    let (c, _) = rig.client(None).await;
    let v = ok(&c, "tmux", tmux("show-options -gv history-limit".into())).await;
    assert_eq!(v["output"], "10000\n");
    let (code, _) = err(&c, "tmux", tmux("set -g history-limit 5".into())).await;
    assert_eq!(code, "forbidden");
}

/// A quick program's pane is gone before its exit is waited for: `wait_for exit`
/// still answers its status (it used to be "no such pane").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_exit_after_the_pane_closed_answers_the_status() {
    let rig = Rig::new(|_| {});
    let (c, _) = rig.client(None).await;
    ok(
        &c,
        "create_session",
        json!({ "name": "q", "command": "sh" }),
    )
    .await;
    let p = ok(&c, "create_pane", json!({ "command": "exit 6" })).await;
    let p = p["pane"].as_str().unwrap().to_string();
    let id: PaneId = p.parse().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while rig.server.mux.tree().panes.contains_key(&id) {
        assert!(std::time::Instant::now() < deadline, "{p} never closed");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let w = ok(&c, "wait_for", json!({ "pane": p, "exit": true })).await;
    assert_eq!(w["exit_status"], 6, "{w}");
    // A pane that never existed is still unknown.
    let (code, _) = err(&c, "wait_for", json!({ "pane": "%999", "exit": true })).await;
    assert_eq!(code, "unknown_target");
}
