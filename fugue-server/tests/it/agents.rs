//! Agents through the MCP surface, in-process: an rmcp client over an in-memory duplex
//! against the real dispatcher, real PTYs running the fake agent
//! (`fugue-fake-agent`), and a real client socket that the agent's `fugue report`
//! calls reach. The binaries come from the workspace build (`cargo test --workspace`
//! builds them next to this test).

use crate::agent_rig::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spawn_with_a_task_wait_for_idle_and_read_the_result() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let spawned = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": "add two and two", "tags": ["math"] }),
    )
    .await;
    let pane = spawned["pane"].as_str().unwrap().to_string();
    assert_eq!(spawned["task"], "delivered", "{spawned}");
    assert_eq!(spawned["agent"], "fake");
    let w = ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(w["state"], "idle");
    let r = ok(&c, "get_result", json!({ "pane": pane })).await;
    assert_eq!(r["result"], "done(add two and two)");
    assert!(r["reported_at_ms"].as_u64().unwrap() > 0);
    // Every transition was an event: starting, ready, busy with the task (reported by
    // the agent), idle (reported).
    let agent = agent_of(&c, &pane).await;
    let seen = states(&agent);
    assert_eq!(
        seen.iter()
            .map(|s| s.split('/').next().unwrap())
            .collect::<Vec<_>>(),
        ["starting", "idle", "busy", "idle"],
        "{seen:?}"
    );
    assert_eq!(seen.last().unwrap(), "idle/report");
    assert_eq!(agent["tags"], json!(["math"]));
    assert_eq!(agent["preset"], "fake");
    // The agent has a badge for attached clients.
    let id: PaneId = pane.parse().unwrap();
    assert_eq!(
        rig.server
            .mux
            .tree()
            .panes
            .get(&id)
            .unwrap()
            .badge
            .as_deref(),
        Some("idle")
    );

    // No result yet: not_ready, with what to do.
    let idle = ok(&c, "spawn_agent", json!({ "agent": "fake" })).await;
    assert_eq!(idle["task"], "none");
    let e = err(&c, "get_result", json!({ "pane": idle["pane"] })).await;
    assert_eq!(e["code"], "not_ready", "{e}");
    assert!(e["suggestion"].as_str().unwrap().contains("state"));

    // Unknown presets list the presets; placeholders must name dependencies.
    let e = err(&c, "spawn_agent", json!({ "agent": "nope" })).await;
    assert_eq!(e["code"], "invalid_argument");
    let s = e["suggestion"].as_str().unwrap();
    assert!(
        s.contains("claude")
            && s.contains("codex")
            && s.contains("gemini")
            && s.contains("shell")
            && s.contains("fake"),
        "{s}"
    );
    let e = err(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": "use {{%1.result}}" }),
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains("depends_on"), "{e}");
    // The tool list offers the presets.
    let tools = c.list_tools(None).await.unwrap().tools;
    let spawn = tools.iter().find(|t| t.name == "spawn_agent").unwrap();
    let presets = &spawn.input_schema["properties"]["agent"]["enum"];
    assert!(
        presets.as_array().unwrap().iter().any(|p| p == "fake"),
        "{presets}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_starting_agent_gets_its_task_once_it_is_ready() {
    // It drops input typed while it loads, so a task typed too early is lost.
    let rig = Rig::new(|c| {
        c.agents
            .0
            .insert("loading".into(), fake(100, &["--startup-ms", "700"]));
    });
    let c = rig.client(1).await;
    let started = Instant::now();
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "loading", "task": "after loading" }),
    )
    .await;
    assert!(started.elapsed() >= Duration::from_millis(700));
    assert_eq!(s["task"], "delivered");
    ok(
        &c,
        "wait_for",
        json!({ "pane": s["pane"], "state": "idle" }),
    )
    .await;
    let r = ok(&c, "get_result", json!({ "pane": s["pane"] })).await;
    assert_eq!(r["result"], "done(after loading)");
    // Too short a wait for readiness is a timeout that names the pane, which is kept.
    let e = err(
        &c,
        "spawn_agent",
        json!({ "agent": "loading", "task": "x", "timeout_ms": 200 }),
    )
    .await;
    assert_eq!(e["code"], "timeout", "{e}");
    assert!(
        e["suggestion"].as_str().unwrap().contains("report {"),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heuristics_alone_see_busy_idle_and_a_question() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let spawned = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "quiet", "task": "think" }),
    )
    .await;
    let pane = spawned["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    let agent = agent_of(&c, &pane).await;
    let seen = states(&agent);
    assert_eq!(
        seen,
        [
            "starting/heuristic",
            "idle/heuristic",
            "busy/heuristic",
            "idle/heuristic"
        ]
    );
    // It reports nothing, so there is no result.
    let e = err(&c, "get_result", json!({ "pane": pane })).await;
    assert_eq!(e["code"], "not_ready");
    // A question to a person on a quiet screen.
    ok(
        &c,
        "send_input",
        json!({ "pane": pane, "text": "ask", "submit": true }),
    )
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": pane, "state": "awaiting_input" }),
    )
    .await;
    ok(
        &c,
        "send_input",
        json!({ "pane": pane, "text": "y", "submit": true }),
    )
    .await;
    ok(&c, "wait_for", json!({ "pane": pane, "state": "busy" })).await;
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert!(screen(&rig.server, &pane).contains("done(ask: y)"));
    // The end of the program is a state too, with its code.
    ok(
        &c,
        "send_input",
        json!({ "pane": pane, "text": "exit 3", "submit": true }),
    )
    .await;
    let w = ok(&c, "wait_for", json!({ "pane": pane, "state": "exited" })).await;
    assert_eq!(w["exit_status"], 3);
    let agent = agent_of(&c, &pane).await;
    assert_eq!(
        (agent["state"].as_str(), agent["exit_status"].as_i64()),
        (Some("exited"), Some(3))
    );
    // Waiting for a state it can no longer reach says so.
    let e = err(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(e["code"], "pane_exited");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_takes_its_task_as_an_argument() {
    // As the shipped claude, codex and gemini presets do.
    let rig = Rig::new(|c| {
        let mut p = fake(600, &[]);
        p.deliver = TaskDelivery::Argument;
        c.agents.0.insert("argfake".into(), p);
    });
    let c = rig.client(1).await;
    let a = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": "alpha" }),
    )
    .await;
    let a = a["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": a, "state": "idle" })).await;
    // Its task needs a's result, which is there: the program starts with it.
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "argfake", "task": format!("use {{{{{a}.result}}}}"), "depends_on": [a] }),
    )
    .await;
    assert_eq!(s["task"], "delivered");
    // Working on its task from the start: busy, not starting.
    assert_eq!(s["state"], "busy", "{s}");
    let p = s["pane"].as_str().unwrap();
    ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
    let r = ok(&c, "get_result", json!({ "pane": p })).await;
    assert_eq!(r["result"], "done(use done(alpha))");
    let seen = states(&agent_of(&c, p).await);
    assert!(
        !seen.iter().skip(1).any(|s| s.starts_with("starting")),
        "{seen:?}"
    );
}

/// A rig with the preset `lines`: an agent that prints `Task:` on a line of its own,
/// reads a line below it, runs `before` and answers `ok LINE`; it reports nothing.
fn line_agent_rig(before: &str) -> Rig {
    let script = format!("while printf 'Task:\\n'; read line; do {before}echo \"ok $line\"; done");
    Rig::new(|c| {
        let mut p = fake(0, &[]);
        p.command = "/bin/sh".into();
        p.args = vec!["-c".into(), script];
        p.prompt = "^Task:$".into();
        p.ready_timeout_ms = 3000;
        c.agents.0.insert("lines".into(), p);
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_mode_agent_with_its_prompt_on_a_line_of_its_own() {
    // Not every agent reads raw keys or puts the cursor after its prompt: this one
    // prints `Task:` on a line, reads a line below it, and reports nothing.
    let rig = line_agent_rig("sleep 0.3; ");
    let c = rig.client(1).await;
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "lines", "task": "one" }),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert!(screen(&rig.server, &pane).contains("ok one"));
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "two", "delivery": "sync" }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "delivered");
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert!(screen(&rig.server, &pane).contains("ok two"));
}

/// A delivered message answers the cursor of the line it was typed on, and the MCP
/// connection starts its next text wait on that pane there: an answer printed before
/// the wait is asked for is still found (issue 27, item 4), from a connection that
/// never typed into the pane before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_after_a_delivered_message_sees_an_answer_that_came_first() {
    let rig = line_agent_rig("");
    let spawner = rig.client(1).await;
    let s = ok(
        &spawner,
        "spawn_agent",
        json!({ "agent": "lines", "task": "one" }),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    ok(
        &spawner,
        "wait_for",
        json!({ "pane": pane, "state": "idle" }),
    )
    .await;
    let c = rig.client(2).await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "two", "delivery": "sync" }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
    assert!(m["messages"][0]["cursor"].is_string(), "{m}");
    // The answer is on the screen before the wait is asked for.
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert!(screen(&rig.server, &pane).contains("ok two"));
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": pane, "text": "^ok two$", "timeout_ms": 5000 }),
    )
    .await;
    assert_eq!(w["line"], "ok two", "{w}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_shell_pane_has_states_when_asked() {
    // Not started as an agent: watched from the first wait on, judged by its quiet and
    // by what runs in its terminal's foreground.
    let rig = Rig::new(|_| {});
    let p = rig.person_session("person").await;
    let c = rig.client(1).await;
    let type_line = |text: &str| {
        Command::SendInput(SendInput {
            target: Some(Target::Pane(p)),
            parts: vec![
                InputPart::Text(text.into()),
                InputPart::Key(Key::new(
                    fugue_protocol::keys::KeyCode::Enter,
                    fugue_protocol::keys::Mods::NONE,
                )),
            ],
        })
    };
    dispatch(&rig.server, &PERSON, type_line("sleep 3"))
        .await
        .unwrap();
    // Busy from the moment the line is submitted (not starting: it has printed before).
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": p.to_string(), "state": "busy", "timeout_ms": 5000 }),
    )
    .await;
    assert_eq!(w["state"], "busy");
    // Quiet for longer than its quiet time, but `sleep` holds the foreground: still busy.
    ok(
        &c,
        "wait_for",
        json!({ "pane": p.to_string(), "idle_ms": 800 }),
    )
    .await;
    let w = ok(
        &c,
        "wait_for",
        json!({ "pane": p.to_string(), "state": "busy", "timeout_ms": 1 }),
    )
    .await;
    assert_eq!(w["state"], "busy");
    // The shell's prompt again, and quiet: idle.
    ok(
        &c,
        "wait_for",
        json!({ "pane": p.to_string(), "state": "idle", "timeout_ms": 10000 }),
    )
    .await;
    // It is watched, not an agent: no agent entry in the list.
    assert_eq!(agent_of(&c, &p.to_string()).await, Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pipeline_of_three_with_depends_on() {
    // The first two work for seconds, so the third is certainly spawned before they
    // report: its task must be held, then typed with their results.
    let rig = Rig::new(|c| {
        c.agents.0.insert("slow".into(), fake(2000, &[]));
    });
    let c = rig.client(1).await;
    let a = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "slow", "task": "alpha" }),
    )
    .await;
    let b = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "slow", "task": "beta" }),
    )
    .await;
    let (a, b) = (a["pane"].as_str().unwrap(), b["pane"].as_str().unwrap());
    // Spawned at once: its task waits for both results.
    let third = ok(
        &c,
        "spawn_agent",
        json!({
            "agent": "fake",
            "task": format!("combine {{{{{a}.result}}}} with {{{{{b}.result}}}}"),
            "depends_on": [a, b],
        }),
    )
    .await;
    let p = third["pane"].as_str().unwrap();
    assert_eq!(third["task"], "waiting", "{third}");
    assert_eq!(third["state"], "starting", "{third}");
    let held = agent_of(&c, p).await;
    assert_eq!(held["task"], "waiting", "{held}");
    assert_eq!(held["waiting_for"], json!([a, b]), "{held}");
    assert!(rig.server.agents.result_of(a.parse().unwrap()).is_none());
    ok(
        &c,
        "wait_for",
        json!({ "pane": p, "state": "idle", "timeout_ms": 20000 }),
    )
    .await;
    let r = ok(&c, "get_result", json!({ "pane": p })).await;
    assert_eq!(
        r["result"], "done(combine done(alpha) with done(beta))",
        "{r}"
    );
    // Chained after the fact: the results are there, the task goes at once.
    let fourth = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": format!("check {{{{{p}.result}}}}"), "depends_on": [p] }),
    )
    .await;
    assert_eq!(fourth["task"], "delivered");
    ok(
        &c,
        "wait_for",
        json!({ "pane": fourth["pane"], "state": "idle" }),
    )
    .await;
    let r = ok(&c, "get_result", json!({ "pane": fourth["pane"] })).await;
    assert_eq!(
        r["result"],
        "done(check done(combine done(alpha) with done(beta)))"
    );
    // A dependency that ends without a result fails the held task.
    let q = ok(&c, "spawn_agent", json!({ "agent": "quiet" })).await;
    let q = q["pane"].as_str().unwrap();
    let held = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": format!("never {{{{{q}.result}}}}"), "depends_on": [q] }),
    )
    .await;
    assert_eq!(held["task"], "waiting");
    assert_eq!(held["state"], "starting");
    ok(
        &c,
        "send_input",
        json!({ "pane": q, "text": "exit", "submit": true }),
    )
    .await;
    let h = held["pane"].as_str().unwrap();
    ok(&c, "wait_for", json!({ "pane": h, "state": "idle" })).await;
    assert_eq!(agent_of(&c, h).await["task"], "failed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_wait_for_idle_and_for_a_person_to_pause() {
    let rig = Rig::new(|c| {
        c.agents.0.insert("slow".into(), fake(800, &[]));
    });
    let c = rig.client(1).await;
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "slow", "task": "long job" }),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    // While it works, a sync message waits for it to be idle (with no quiet time asked,
    // only the state holds it back).
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "next please", "delivery": "sync", "quiescence_ms": 0 }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
    // It was held for the rest of the 800 ms job (a terminal would have buffered it, so
    // the screen alone cannot tell).
    let waited = m["messages"][0]["waited_ms"].as_u64().unwrap();
    assert!(
        waited >= 400,
        "delivered after {waited} ms, while the agent worked"
    );
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    let r = ok(&c, "get_result", json!({ "pane": pane })).await;
    assert_eq!(r["result"], "done(next please)");
    let text = screen(&rig.server, &pane);
    let answer = text.find("answer: done(long job)").expect("first answer");
    let typed = text.find("> next please").expect("the message typed");
    assert!(answer < typed, "typed before the agent was done:\n{text}");

    // A person types in the pane (keys of an attached client): the message waits until
    // they have paused for 2 s, whatever the agent's state.
    let id: PaneId = pane.parse().unwrap();
    let keys = Origin::Client {
        id: 901,
        kind: ClientKind::Tui,
        caller_pane: None,
    };
    let server = Arc::clone(&rig.server);
    let (first_key, first_typed) = tokio::sync::oneshot::channel();
    let typist = tokio::spawn(async move {
        let mut last = Instant::now();
        let mut first_key = Some(first_key);
        for ch in ["h", "m", "m", "\x7f", "\x7f", "\x7f"] {
            // Before the key: the server stamps it during the dispatch.
            last = Instant::now();
            dispatch(
                &server,
                &keys,
                Command::SendInput(SendInput {
                    target: Some(Target::Pane(id)),
                    parts: vec![InputPart::Text(ch.into())],
                }),
            )
            .await
            .unwrap();
            if let Some(tx) = first_key.take() {
                let _ = tx.send(());
            }
            // Part of the scenario: a person's keys, 150 ms apart.
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        last
    });
    // The message is sent once the server has the person's first key.
    first_typed.await.unwrap();
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "after the person", "delivery": "sync" }),
    )
    .await;
    let delivered_at = Instant::now();
    let last_key = typist.await.unwrap();
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
    assert!(
        delivered_at.duration_since(last_key) >= Duration::from_millis(2000),
        "delivered {:?} after the last keystroke",
        delivered_at.duration_since(last_key)
    );
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": pane })).await["result"],
        "done(after the person)"
    );

    // A timeout says why.
    ok(
        &c,
        "send_input",
        json!({ "pane": pane, "text": "ask", "submit": true }),
    )
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": pane, "state": "awaiting_input" }),
    )
    .await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "x", "delivery": "sync", "timeout_ms": 300 }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "timeout");
    assert!(
        m["messages"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("awaiting_input"),
        "{m}"
    );
    // Tags address agents; async queues at once.
    let t = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "tags": ["team"] }),
    )
    .await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": "tag:team", "text": "hello team" }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "queued");
    assert_eq!(m["messages"][0]["pane"], t["pane"]);
    ok(
        &c,
        "wait_for",
        json!({ "pane": t["pane"], "state": "busy" }),
    )
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": t["pane"], "state": "idle" }),
    )
    .await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": t["pane"] })).await["result"],
        "done(hello team)"
    );
    let e = err(
        &c,
        "send_message",
        json!({ "to": "tag:nobody", "text": "x" }),
    )
    .await;
    assert_eq!(e["code"], "unknown_target");
    assert!(e["suggestion"].as_str().unwrap().contains("team"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_exits_before_its_task_is_typed_is_pane_exited_not_timeout() {
    // Ready (it asks a question at start), then gone before the task can be typed.
    let rig = Rig::new(|c| {
        c.agents
            .0
            .insert("leaves".into(), fake(300, &["--exit-asking-ms", "600"]));
    });
    let c = rig.client(1).await;
    let e = err(
        &c,
        "spawn_agent",
        json!({ "agent": "leaves", "task": "never typed", "timeout_ms": 20000 }),
    )
    .await;
    assert_eq!(e["code"], "pane_exited", "{e}");
    assert!(
        e["message"].as_str().unwrap_or_default().contains("exited"),
        "{e}"
    );
}
