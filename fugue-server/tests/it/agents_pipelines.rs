//! Pipelines in-process over MCP: tasks held for `depends_on`, for presets that type
//! their task and for presets that take it on the command line, and the bounds on what
//! substituting results may make. (The rig and the binaries it needs: see agent_rig.)

use crate::agent_rig::*;

fn argfake(work_ms: u64) -> Preset {
    let mut p = fake(work_ms, &[]);
    p.deliver = TaskDelivery::Argument;
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_argument_agent_with_unreported_dependencies_starts_at_once() {
    let rig = Rig::new(|c| {
        c.agents.0.insert("slow".into(), fake(1500, &[]));
        c.agents.0.insert("argfake".into(), argfake(300));
    });
    let c = rig.client(1).await;
    let dep = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "slow", "task": "alpha" }),
    )
    .await;
    let dep = dep["pane"].as_str().unwrap().to_string();
    // The dependency works for 1.5 s; the call must not wait for it (a short timeout
    // would fail a call that did).
    let started = Instant::now();
    let s = ok(
        &c,
        "spawn_agent",
        json!({
            "agent": "argfake",
            "task": format!("use {{{{{dep}.result}}}}"),
            "depends_on": [dep],
            "timeout_ms": 500,
        }),
    )
    .await;
    assert!(started.elapsed() < Duration::from_millis(1000), "{s}");
    assert_eq!(s["task"], "waiting", "{s}");
    assert_eq!(s["state"], "starting", "{s}");
    assert_eq!(s["waiting_for"], json!([dep]), "{s}");
    let p = s["pane"].as_str().unwrap().to_string();
    assert_eq!(agent_of(&c, &p).await["task"], "waiting");
    ok(
        &c,
        "wait_for",
        json!({ "pane": p, "state": "idle", "timeout_ms": 20000 }),
    )
    .await;
    let r = ok(&c, "get_result", json!({ "pane": p })).await;
    assert_eq!(r["result"], "done(use done(alpha))");
    assert_eq!(agent_of(&c, &p).await["task"], "delivered");

    // A dependency that ends without a result: the program starts without a task,
    // after saying why.
    let q = ok(&c, "spawn_agent", json!({ "agent": "quiet" })).await;
    let q = q["pane"].as_str().unwrap().to_string();
    let held = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "argfake", "task": format!("never {{{{{q}.result}}}}"), "depends_on": [q] }),
    )
    .await;
    assert_eq!(held["task"], "waiting");
    ok(
        &c,
        "send_input",
        json!({ "pane": q, "text": "exit", "submit": true }),
    )
    .await;
    let h = held["pane"].as_str().unwrap().to_string();
    ok(
        &c,
        "wait_for",
        json!({ "pane": h, "state": "idle", "timeout_ms": 20000 }),
    )
    .await;
    assert_eq!(agent_of(&c, &h).await["task"], "failed");
    let text = rig.until_screen(&h, "was not given").await;
    assert!(text.contains(&q), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_looks_like_an_option_stays_a_task() {
    let rig = Rig::new(|c| {
        c.agents.0.insert("argfake".into(), argfake(100));
    });
    let c = rig.client(1).await;
    // `--no-report` is an option of the fake agent: taken as one, it would report
    // nothing and have no task.
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "argfake", "task": "--no-report" }),
    )
    .await;
    let p = s["pane"].as_str().unwrap();
    ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
    let r = ok(&c, "get_result", json!({ "pane": p })).await;
    assert!(r["result"].as_str().unwrap().contains("--no-report"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn substituted_results_are_bounded() {
    let rig = Rig::new(|c| {
        c.agents.0.insert("argfake".into(), argfake(100));
    });
    let c = rig.client(1).await;
    let dep = ok(&c, "spawn_agent", json!({ "agent": "quiet" })).await;
    let dep = dep["pane"].as_str().unwrap().to_string();
    // A person reports a result of 200 KiB for it.
    dispatch(
        &rig.server,
        &PERSON,
        Command::Report(fugue_protocol::Report {
            target: Some(dep.parse().unwrap()),
            state: None,
            result: Some("r".repeat(200 * 1024)),
        }),
    )
    .await
    .unwrap();
    // Six copies typed would be 1.2 MiB: over the input limit, refused before any of
    // it is made.
    let many = format!("{{{{{dep}.result}}}}").repeat(6);
    let e = err(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": many, "depends_on": [dep] }),
    )
    .await;
    assert_eq!(e["code"], "limit_exceeded", "{e}");
    let m = e["message"].as_str().unwrap();
    assert!(m.contains("1228800") && m.contains("1048576"), "{e}");
    assert!(e["suggestion"].as_str().unwrap().contains("file"), "{e}");
    // One copy on a command line is over what exec takes for one argument.
    let e = err(
        &c,
        "spawn_agent",
        json!({ "agent": "argfake", "task": format!("{{{{{dep}.result}}}}"), "depends_on": [dep] }),
    )
    .await;
    assert_eq!(e["code"], "limit_exceeded", "{e}");
    assert!(e["message"].as_str().unwrap().contains("131072"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_may_take_the_presets_ready_timeout() {
    // The default wait is shorter than the agent takes to load; its preset allows it.
    let rig = Rig::new(|c| {
        c.waits.default_timeout_ms = 300;
        let mut p = fake(100, &["--startup-ms", "700"]);
        p.ready_timeout_ms = 5000;
        c.agents.0.insert("loading".into(), p);
    });
    let c = rig.client(1).await;
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "loading", "task": "after loading" }),
    )
    .await;
    assert_eq!(s["task"], "delivered", "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_spawn_agent_still_gives_its_task_and_is_audited() {
    let rig = Rig::new(|c| {
        c.agents
            .0
            .insert("loading".into(), fake(100, &["--startup-ms", "700"]));
    });
    // The MCP handler drops the call when its client cancels it; so does this.
    let handler = FugueMcp::new(
        Arc::clone(&rig.server),
        Origin::Mcp {
            connection: 7,
            caller_pane: None,
            http: false,
        },
    );
    let args = json!({ "agent": "loading", "task": "after cancel" });
    let Value::Object(args) = args else {
        unreachable!()
    };
    let dropped = tokio::time::timeout(
        Duration::from_millis(200),
        handler.call("spawn_agent", &args),
    )
    .await;
    assert!(dropped.is_err(), "the call should still be waiting");
    let c = rig.client(1).await;
    let id = eventually("the agent's pane", || {
        rig.server
            .agents
            .all()
            .into_iter()
            .find(|t| t.preset.as_deref() == Some("loading"))
            .map(|t| t.pane)
    })
    .await;
    let pane = id.to_string();
    // Typed (busy from then on) although nobody waits for the answer any more.
    eventually("the task typed", || {
        let t = rig.server.agents.get(id)?;
        (t.info().task == fugue_protocol::TaskStatus::Delivered).then_some(())
    })
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": pane, "state": "idle", "timeout_ms": 20000 }),
    )
    .await;
    let r = ok(&c, "get_result", json!({ "pane": pane })).await;
    assert_eq!(r["result"], "done(after cancel)");
    let line = eventually("the audit record", || {
        rig.audit()
            .lines()
            .find(|l| l.contains("\"spawn-agent\"") && l.contains("connection 7"))
            .map(str::to_string)
    })
    .await;
    assert!(line.contains("\"result\":\"ok\""), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_to_a_held_agent_does_not_hold_back_its_task() {
    let rig = Rig::new(|c| {
        c.agents.0.insert("slow".into(), fake(800, &[]));
    });
    let c = rig.client(1).await;
    let dep = ok(&c, "spawn_agent", json!({ "agent": "slow", "task": "a" })).await;
    let dep = dep["pane"].as_str().unwrap().to_string();
    let held = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": format!("b {{{{{dep}.result}}}}"), "depends_on": [dep] }),
    )
    .await;
    assert_eq!(held["task"], "waiting", "{held}");
    let h = held["pane"].as_str().unwrap().to_string();
    // A message while the task is held waits for the agent, far longer than the
    // test's own bound: if waiting for it held the pane's turn, the task would be
    // typed only when the message gave up.
    let m = ok(
        &c,
        "send_message",
        json!({ "to": h, "text": "later", "delivery": "async", "timeout_ms": 120000 }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "queued", "{m}");
    // The task goes once its dependency has reported, then the message, in that order.
    let text = rig.until_screen(&h, "answer: done(later)").await;
    let task = text
        .find("answer: done(b done(a))")
        .expect("the task's answer");
    assert!(task < text.find("answer: done(later)").unwrap(), "{text}");
    assert_eq!(agent_of(&c, &h).await["task"], "delivered");
}
