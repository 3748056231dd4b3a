//! The `fugue` CLI run by programs inside agent panes (the real binary, in real panes,
//! against the rig's client socket): it acts for the agent whoever started the pane,
//! and `children` means the panes the caller made. (The rig: see agent_rig.)

use crate::agent_rig::*;
use fugue_protocol::cmd;

/// Spawns the `shell` preset as a person would with `fugue agent spawn`.
async fn person_spawns_shell(rig: &Rig, next_to: PaneId) -> String {
    let r = dispatch(
        &rig.server,
        &PERSON,
        Command::SpawnAgent(fugue_protocol::SpawnAgent {
            agent: "shell".into(),
            task: None,
            placement: fugue_protocol::Placement::Split {
                target: Some(Target::Pane(next_to)),
                direction: fugue_protocol::Direction::Right,
                size: None,
            },
            cwd: None,
            name: None,
            tags: Vec::new(),
            depends_on: Vec::new(),
            timeout_ms: None,
            worktree: None,
        }),
    )
    .await
    .unwrap();
    match r {
        Response::AgentSpawned(a) => a.pane.to_string(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_in_an_agent_pane_a_person_started_acts_for_the_agent() {
    let rig = Rig::new(|c| c.policy.mcp_scope = Scope::Own);
    let first = rig.person_session("person").await;
    let agent = person_spawns_shell(&rig, first).await;
    let fugue = fugue_cli();
    // The agent's program tries a person's first pane, and another pane's result.
    rig.type_line(
        &agent,
        &format!(
            "{fugue} send-keys -t {first} 'echo typed-by-agent' Enter || echo refused-keys-$((1+1)); \
             echo forged | {fugue} report -t {first} --result - || echo refused-report-$((1+1)); \
             {fugue} split-window -d -t {agent} && echo made-child-$((1+1))"
        ),
    )
    .await;
    let text = rig.until_screen(&agent, "made-child-2").await;
    assert!(text.contains("refused-keys-2"), "{text}");
    assert!(text.contains("refused-report-2"), "{text}");
    assert!(!screen(&rig.server, &first.to_string()).contains("typed-by-agent"));
    assert!(rig.server.agents.result_of(first).is_none());
    // Scope "own": it lists its own pane and the one it made, nothing of the person's.
    rig.type_line(
        &agent,
        &format!("{fugue} list-panes -a -F 'pane=#{{pane_id}}'; echo listed-$((1+1))"),
    )
    .await;
    let text = rig.until_screen(&agent, "listed-2").await;
    assert!(!text.contains(&format!("pane={first}")), "{text}");
    assert!(text.contains(&format!("pane={agent}")), "{text}");
    let child = {
        let tree = rig.server.mux.tree();
        let a: PaneId = agent.parse().unwrap();
        tree.panes
            .values()
            .find(|p| p.creator.pane() == Some(a))
            .map(|p| p.id)
            .expect("the pane the agent made")
    };
    // Its keys into a pane of its own are not a person's typing.
    rig.type_line(
        &agent,
        &format!("{fugue} send-keys -t {child} x && echo sent-$((1+1))"),
    )
    .await;
    rig.until_screen(&agent, "sent-2").await;
    let human = rig
        .server
        .mux
        .tree()
        .panes
        .get(&child)
        .map(|p| p.shared.last_human_input());
    assert_eq!(
        human,
        Some(None),
        "an agent's keys were taken for a person's"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_are_the_panes_the_caller_made() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let a = ok(&c, "spawn_agent", json!({ "agent": "shell" })).await;
    let b = ok(&c, "spawn_agent", json!({ "agent": "shell" })).await;
    let (a, b) = (
        a["pane"].as_str().unwrap().to_string(),
        b["pane"].as_str().unwrap().to_string(),
    );
    let fugue = fugue_cli();
    // a makes two agents of its own with the CLI.
    rig.type_line(
        &a,
        &format!("{fugue} agent spawn shell; {fugue} agent spawn shell; echo spawned-$((1+1))"),
    )
    .await;
    rig.until_screen(&a, "spawned-2").await;
    let mine: Vec<String> = {
        let tree = rig.server.mux.tree();
        let ap: PaneId = a.parse().unwrap();
        let mut v: Vec<String> = tree
            .panes
            .values()
            .filter(|p| p.creator.pane() == Some(ap))
            .map(|p| p.id.to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(mine.len(), 2, "{mine:?}");
    for p in &mine {
        ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
    }
    // From a's CLI, children are those two: not a itself, not its sibling b.
    rig.type_line(
        &a,
        &format!("{fugue} agent message --to children --sync 'echo hi'; echo messaged-$((1+1))"),
    )
    .await;
    let text = rig.until_screen(&a, "messaged-2").await;
    for p in &mine {
        assert!(text.contains(&format!("{p}: delivered")), "{text}");
    }
    assert!(!text.contains(&format!("{a}: ")), "{text}");
    assert!(!text.contains(&format!("{b}: ")), "{text}");
    // The MCP connection's children are a and b, not the grandchildren made via a.
    ok(&c, "wait_for", json!({ "pane": a, "state": "idle" })).await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": "children", "text": "echo hey", "delivery": "sync" }),
    )
    .await;
    let to: Vec<&str> = m["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["pane"].as_str().unwrap())
        .collect();
    assert_eq!(to, [a.as_str(), b.as_str()], "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_pane_stays_exited() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let s = ok(&c, "spawn_agent", json!({ "agent": "fake" })).await;
    let pane: PaneId = s["pane"].as_str().unwrap().parse().unwrap();
    ok(
        &c,
        "wait_for",
        json!({ "pane": pane.to_string(), "state": "idle" }),
    )
    .await;
    let t = rig.server.agents.get(pane).unwrap();
    dispatch(
        &rig.server,
        &PERSON,
        Command::KillPane(cmd::KillPane {
            target: Some(Target::Pane(pane)),
        }),
    )
    .await
    .unwrap();
    assert_eq!(t.view().state, fugue_protocol::AgentState::Exited);
    // Late input and late looks at it change nothing.
    t.submitted(&rig.server.mux);
    t.hold(&rig.server.mux, false);
    t.evaluate(&rig.server.mux);
    assert_eq!(t.view().state, fugue_protocol::AgentState::Exited);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pane_may_not_depend_on_itself() {
    let rig = Rig::new(|_| {});
    let p = rig.person_session("s").await;
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = FugueMcp::new(
        Arc::clone(&rig.server),
        Origin::Mcp {
            connection: 5,
            caller_pane: Some(p),
            http: false,
        },
    );
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let inside = ().serve(client_io).await.unwrap();
    let e = err(
        &inside,
        "spawn_agent",
        json!({ "agent": "fake", "task": format!("x {{{{{p}.result}}}}"), "depends_on": [p.to_string()] }),
    )
    .await;
    assert_eq!(e["code"], "invalid_argument", "{e}");
    assert!(e["message"].as_str().unwrap().contains("itself"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_sideband_tag_does_not_hold_back_a_report() {
    let rig = Rig::new(|c| {
        let mut p = fake(100, &[]);
        p.sideband = true;
        c.agents.0.insert("sb".into(), p);
        c.agents.0.insert("busy".into(), fake(4000, &[]));
    });
    let c = rig.client(1).await;
    let parent = ok(&c, "spawn_agent", json!({ "agent": "sb" })).await;
    let parent = parent["pane"].as_str().unwrap().to_string();
    let worker = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "busy", "task": "long" }),
    )
    .await;
    let worker = worker["pane"].as_str().unwrap().to_string();
    // The parent prints a sync message to a busy agent (it waits seconds), then a
    // report of its own.
    ok(
        &c,
        "send_message",
        json!({
            "to": parent,
            "delivery": "sync",
            "text": format!("<fugue:message id=\"m\" key=\"$FUGUE_SIDEBAND_KEY\" to=\"{worker}\" delivery=\"sync\">later</fugue:message><fugue:report id=\"r\" key=\"$FUGUE_SIDEBAND_KEY\" state=\"busy\">mine</fugue:report>"),
        }),
    )
    .await;
    eventually("the report's result", || rig.sideband_result(&parent, "r")).await;
    assert!(
        rig.sideband_result(&parent, "m").is_none(),
        "the report ran only after the message was delivered"
    );
    let m = eventually("the message's result", || rig.sideband_result(&parent, "m")).await;
    assert_eq!(m["result"]["messages"][0]["status"], "delivered", "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_of_a_persons_pane_are_the_agents_made_from_it() {
    let rig = Rig::new(|_| {});
    let first = rig.person_session("person").await;
    let first = first.to_string();
    let fugue = fugue_cli();
    // A person's shell: an agent spawned from it, then a message to its children.
    rig.type_line(
        &first,
        &format!(
            "{fugue} agent spawn fake >/dev/null && {fugue} agent message --to children --sync from-person \
             && echo messaged-$((1+1)) || echo refused-$((1+1))"
        ),
    )
    .await;
    let text = eventually("the CLI to finish", || {
        let s = screen(&rig.server, &first);
        (s.contains("messaged-2") || s.contains("refused-2")).then_some(s)
    })
    .await;
    assert!(text.contains("messaged-2"), "{text}");
    let child = {
        let tree = rig.server.mux.tree();
        tree.panes
            .values()
            .find(|p| p.agent.is_some())
            .map(|p| p.id)
            .expect("the agent the person made")
    };
    let done = eventually("the agent's result", || {
        rig.server
            .agents
            .result_of(child)
            .filter(|r| r.result == "done(from-person)")
    })
    .await;
    // A person's pane stays a person's: the agent has no parent agent.
    assert_eq!(done.pane, child);
    let tree = rig.server.mux.tree();
    assert_eq!(tree.panes.get(&child).and_then(|p| p.creator.pane()), None);
}

/// Hooks run with a person's rights whenever their event happens: an agent may not
/// plant one, whether through the CLI in its pane or an MCP connection (issue 15).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_may_not_set_or_read_hooks() {
    let rig = Rig::new(|_| {});
    let first = rig.person_session("person").await;
    let agent = person_spawns_shell(&rig, first).await;
    let fugue = fugue_cli();
    rig.type_line(
        &agent,
        &format!("{fugue} set-hook -g session-created kill-server || echo refused-hook-$((1+1))"),
    )
    .await;
    let text = rig.until_screen(&agent, "refused-hook-2").await;
    assert!(text.contains("only a person sets or reads them"), "{text}");
    let mcp = Origin::Mcp {
        connection: 9,
        caller_pane: None,
        http: false,
    };
    let e = dispatch(
        &rig.server,
        &mcp,
        Command::SetHook(fugue_protocol::SetHook {
            global: true,
            name: "session-created".into(),
            commands: vec![vec!["kill-server".into()]],
            ..Default::default()
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(e.code, fugue_protocol::ErrorCode::Forbidden, "{e:?}");
    assert!(rig.server.hooks.lock().is_empty());
    // A person may.
    dispatch(
        &rig.server,
        &PERSON,
        Command::SetHook(fugue_protocol::SetHook {
            global: true,
            name: "session-created".into(),
            commands: vec![vec!["display".into(), "x".into()]],
            ..Default::default()
        }),
    )
    .await
    .unwrap();
    assert!(!rig.server.hooks.lock().is_empty());
}

/// Issue 18: with `sideband_results = "input"` an agent that printed a tag gets its
/// result typed in (once idle), without polling the result file (which is written too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sideband_results_arrive_as_input_when_the_preset_asks() {
    let rig = Rig::new(|c| {
        let mut p = fake(100, &[]);
        p.sideband = true;
        p.sideband_results = SidebandResults::Input;
        c.agents.0.insert("sb".into(), p);
    });
    let c = rig.client(1).await;
    let agent = ok(&c, "spawn_agent", json!({ "agent": "sb" })).await;
    let agent = agent["pane"].as_str().unwrap().to_string();
    ok(
        &c,
        "send_message",
        json!({
            "to": agent,
            "delivery": "sync",
            "text": "<fugue:notify id=\"n1\" key=\"$FUGUE_SIDEBAND_KEY\">hello</fugue:notify>",
        }),
    )
    .await;
    let file = eventually("the result file", || rig.sideband_result(&agent, "n1")).await;
    assert_eq!(file["ok"], true, "{file}");
    // The fake agent answers whatever is typed into it: the typed result comes back in
    // its answer.
    let screen = rig.until_screen(&agent, "done(fugue result n1: {").await;
    assert!(screen.contains("\"command\":\"notify\""), "{screen}");
}
