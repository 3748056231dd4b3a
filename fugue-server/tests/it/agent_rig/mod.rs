//! The rig for in-process agent tests: a server with fake-agent presets, its client
//! socket (for the agents' `fugue report`), MCP clients over in-memory duplexes, and
//! helpers for their answers. Shared by the agent test modules.

pub mod advice;

pub use fugue_protocol::{
    ClientKind, Command, InputPart, Key, NewSession, PaneId, Response, SendInput, Spawn, Target,
};
pub use fugue_server::audit::Audit;
pub use fugue_server::config::{Config, Preset, Scope, SidebandResults, TaskDelivery};
pub use fugue_server::dispatch::dispatch;
pub use fugue_server::origin::Origin;
pub use fugue_server::server::{Server, run_events};
pub use fugue_server::surfaces::mcp::handler::FugueMcp;
pub use rmcp::model::{CallToolRequestParams, CallToolResult};
pub use rmcp::service::RunningService;
pub use rmcp::{RoleClient, ServiceExt};
pub use serde_json::{Value, json};
pub use std::path::PathBuf;
pub use std::sync::Arc;
pub use std::time::{Duration, Instant};

/// A binary of the workspace, next to this test's own directory.
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let path = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|dir| dir.join(name))
        .expect("target directory");
    assert!(
        path.is_file(),
        "{} is missing: build the whole workspace first (cargo test --workspace builds it)",
        path.display()
    );
    path
}

pub fn fake(work_ms: u64, extra: &[&str]) -> Preset {
    let mut env = std::collections::BTreeMap::new();
    env.insert("FAKE_AGENT_WORK_MS".to_string(), work_ms.to_string());
    env.insert(
        "FUGUE_BIN".to_string(),
        bin("fugue").to_string_lossy().into_owned(),
    );
    Preset {
        command: bin("fugue-fake-agent").to_string_lossy().into_owned(),
        args: extra.iter().map(|s| s.to_string()).collect(),
        env,
        cwd: String::new(),
        sideband: false,
        deliver: TaskDelivery::Paste,
        task_args: vec!["{task}".into()],
        prompt: "^> ?$".into(),
        awaiting_input: r"\(y/n\)".into(),
        quiet_ms: 150,
        ready_timeout_ms: 10_000,
        sideband_results: SidebandResults::File,
        resume_args: Vec::new(),
    }
}

pub struct Rig {
    pub server: Arc<Server>,
    _dir: tempfile::TempDir,
}

pub const PERSON: Origin = Origin::Client {
    id: 900,
    kind: ClientKind::Cli,
    caller_pane: None,
};

impl Rig {
    pub fn new(edit: impl FnOnce(&mut Config)) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        config.server.default_command = vec!["/bin/sh".into()];
        config.agents.0.insert("fake".into(), fake(300, &[]));
        config
            .agents
            .0
            .insert("quiet".into(), fake(300, &["--no-report"]));
        edit(&mut config);
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let socket = dir.path().join("sock");
        let (server, events) = Server::new(config, socket.clone(), audit);
        fugue_server::surfaces::subscribe(&server);
        tokio::spawn(run_events(Arc::clone(&server), events));
        // The agents' `fugue report` calls come in on the client socket.
        let listener = tokio::net::UnixListener::bind(&socket).unwrap();
        tokio::spawn(fugue_server::surfaces::clients::accept_loop(
            Arc::clone(&server),
            listener,
            fugue_server::surfaces::admission::Admission::new(512, 1024),
        ));
        Rig { server, _dir: dir }
    }

    pub async fn client(&self, connection: u64) -> RunningService<RoleClient, ()> {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let handler = FugueMcp::new(
            Arc::clone(&self.server),
            Origin::Mcp {
                connection,
                caller_pane: None,
                http: false,
            },
        );
        tokio::spawn(async move {
            if let Ok(running) = handler.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        ().serve(client_io).await.unwrap()
    }

    /// A session a person made (the CLI), with a shell.
    pub async fn person_session(&self, name: &str) -> PaneId {
        let r = dispatch(
            &self.server,
            &PERSON,
            Command::NewSession(NewSession {
                name: Some(name.into()),
                window_name: None,
                size: Some((160, 50)),
                spawn: Spawn::default(),
                existing: false,
                client_env: None,
                group: None,
            }),
        )
        .await
        .unwrap();
        match r {
            Response::Created(c) => c.pane,
            other => panic!("{other:?}"),
        }
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        self.server
            .begin_shutdown("test over", fugue_server::journal::Stop::Keep);
    }
}

pub async fn call(c: &RunningService<RoleClient, ()>, name: &str, args: Value) -> CallToolResult {
    let Value::Object(map) = args else {
        panic!("arguments must be an object")
    };
    c.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await
        .unwrap()
}

pub async fn ok(c: &RunningService<RoleClient, ()>, name: &str, args: Value) -> Value {
    let r = call(c, name, args.clone()).await;
    let v = r.structured_content.clone().unwrap_or(Value::Null);
    assert_eq!(r.is_error, Some(false), "{name} {args} failed: {v}");
    v
}

pub async fn err(c: &RunningService<RoleClient, ()>, name: &str, args: Value) -> Value {
    let r = call(c, name, args.clone()).await;
    let v = r.structured_content.clone().unwrap_or(Value::Null);
    assert_eq!(r.is_error, Some(true), "{name} {args} should fail: {v}");
    advice::check(c, name, &v).await;
    v
}

pub async fn agent_of(c: &RunningService<RoleClient, ()>, pane: &str) -> Value {
    let panes = ok(c, "list_panes", json!({ "detail": true })).await;
    panes["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pane)
        .map(|p| p["agent"].clone())
        .unwrap_or_else(|| panic!("{pane} not listed: {panes}"))
}

pub fn states(agent: &Value) -> Vec<String> {
    agent["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            format!(
                "{}/{}",
                h["state"].as_str().unwrap(),
                h["by"].as_str().unwrap()
            )
        })
        .collect()
}

pub fn screen(server: &Server, pane: &str) -> String {
    let id: PaneId = pane.parse().unwrap();
    let tree = server.mux.tree();
    let p = tree.panes.get(&id).expect("pane");
    p.shared.state.lock().screen().contents()
}

impl Rig {
    /// The audit log written so far (the writer thread flushes within milliseconds).
    pub fn audit(&self) -> String {
        std::fs::read_to_string(self._dir.path().join("audit.jsonl")).unwrap_or_default()
    }

    /// A sideband result file of a pane, if it was written.
    pub fn sideband_result(&self, pane: &str, id: &str) -> Option<Value> {
        let id_path = self
            ._dir
            .path()
            .join("sock.sideband")
            .join(format!("pane-{}", pane.trim_start_matches('%')))
            .join(format!("{id}.json"));
        std::fs::read_to_string(id_path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
    }

    /// Types a line into a pane as a person (the CLI), Enter as its own key.
    pub async fn type_line(&self, pane: &str, line: &str) {
        dispatch(
            &self.server,
            &PERSON,
            Command::SendInput(SendInput {
                target: Some(pane.parse().unwrap()),
                parts: vec![
                    InputPart::Text(line.into()),
                    InputPart::Key(Key::new(
                        fugue_protocol::keys::KeyCode::Enter,
                        fugue_protocol::keys::Mods::NONE,
                    )),
                ],
            }),
        )
        .await
        .unwrap();
    }

    /// Waits until the pane's screen shows `text` (test-side; fails after 20 s).
    pub async fn until_screen(&self, pane: &str, text: &str) -> String {
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            let s = screen(&self.server, pane);
            if s.contains(text) {
                return s;
            }
            assert!(Instant::now() < end, "{pane} never showed {text:?}:\n{s}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Lets the server run for 500 ms before a test checks that something did NOT happen,
/// where no later event can prove the earlier input was handled (each caller says why
/// none can). Never a wait for something to happen: those poll for the event with
/// [`eventually`] or [`Rig::until_screen`].
pub async fn settle_for_negative_check() {
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// Waits (test-side, at most 20 s) until `f` gives something.
pub async fn eventually<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "{what} never happened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The shell command that runs the real `fugue` CLI inside a pane.
pub fn fugue_cli() -> String {
    bin("fugue").to_string_lossy().into_owned()
}
