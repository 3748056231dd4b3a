//! Agents' reach, in-process over MCP: scope "own" hides and refuses other panes, a
//! person's first pane is protected from agents, and agents report only for their own
//! pane. (The rig and the binaries it needs: see agent_rig.)

use crate::agent_rig::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scope_own_hides_and_refuses_foreign_panes() {
    let rig = Rig::new(|c| c.policy.mcp_scope = Scope::Own);
    let foreign = rig.person_session("person").await;
    let c = rig.client(1).await;
    // Nothing of the person's is visible.
    let panes = ok(&c, "list_panes", json!({})).await;
    assert_eq!(panes["panes"], json!([]), "{panes}");
    for (tool, args) in [
        ("read_pane", json!({ "pane": foreign.to_string() })),
        (
            "send_input",
            json!({ "pane": foreign.to_string(), "text": "x" }),
        ),
        (
            "wait_for",
            json!({ "pane": foreign.to_string(), "state": "idle" }),
        ),
        ("create_pane", json!({ "target": foreign.to_string() })),
        (
            "send_message",
            json!({ "to": foreign.to_string(), "text": "x" }),
        ),
    ] {
        let e = err(&c, tool, args).await;
        assert_eq!(e["code"], "forbidden", "{tool}: {e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains(&foreign.to_string())
        );
        assert!(e["suggestion"].as_str().unwrap().contains("mcp_scope"));
    }
    // A command run to completion while the person's session is the only one gets a
    // session of its own, not a window in the person's.
    let ran = ok(
        &c,
        "run_command",
        json!({ "command": "echo ran-$((2*3))", "keep": true }),
    )
    .await;
    assert_eq!(ran["output"], "ran-6");
    let windows = {
        let tree = rig.server.mux.tree();
        tree.session_by_name("person").map(|s| s.windows.len())
    };
    assert_eq!(windows, Some(1));
    // Its own work is visible and usable: a new session (the current one is not its own).
    let mine = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": "own work" }),
    )
    .await;
    let p = mine["pane"].as_str().unwrap();
    assert_ne!(mine["session_name"], "person");
    let panes = ok(&c, "list_panes", json!({})).await;
    let ids: Vec<&str> = panes["panes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [ran["pane"].as_str().unwrap(), p]);
    ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
    ok(&c, "read_pane", json!({ "pane": p })).await;
    let found = ok(&c, "search_panes", json!({ "pattern": "." })).await;
    assert!(
        found["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| ids.contains(&m["pane"].as_str().unwrap())),
        "{found}"
    );
    // Another connection sees neither.
    let other = rig.client(2).await;
    let e = err(&other, "get_result", json!({ "pane": p })).await;
    assert_eq!(e["code"], "forbidden");
    let e = err(&other, "read_pane", json!({ "pane": "%99" })).await;
    assert_eq!(e["code"], "unknown_target");
    assert!(
        !e["suggestion"]
            .as_str()
            .unwrap()
            .contains(&foreign.to_string()),
        "an unknown target lists only the caller's panes: {e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_first_pane_is_protected_from_agents() {
    let rig = Rig::new(|c| c.policy.mcp.push(fugue_protocol::Tier::Destroy));
    let first = rig.person_session("person").await.to_string();
    let c = rig.client(1).await;
    ok(&c, "read_pane", json!({ "pane": first })).await;
    ok(&c, "create_session", json!({ "name": "mine" })).await;
    for (tool, args) in [
        ("send_input", json!({ "pane": first, "text": "x" })),
        ("close_pane", json!({ "pane": first })),
        ("kill_session", json!({ "session": "person" })),
        ("run_command", json!({ "pane": first, "command": "true" })),
        // What replaces the window, or kills everything but another session.
        ("tmux", json!({ "command": "new-window -k -t person:0" })),
        ("tmux", json!({ "command": "kill-session -a -t mine" })),
    ] {
        let e = err(&c, tool, args).await;
        assert_eq!(e["code"], "forbidden", "{tool}: {e}");
        assert!(
            e["suggestion"]
                .as_str()
                .unwrap()
                .contains("protect_first_pane")
        );
    }
    // A second pane of the same session is not protected.
    let second = ok(&c, "create_pane", json!({ "target": first })).await;
    ok(
        &c,
        "send_input",
        json!({ "pane": second["pane"], "text": "x" }),
    )
    .await;
    // A person may of course type there.
    dispatch(
        &rig.server,
        &PERSON,
        Command::SendInput(SendInput {
            target: Some(first.parse().unwrap()),
            parts: vec![InputPart::Key(Key::char('x'))],
        }),
    )
    .await
    .unwrap();

    let open = Rig::new(|c| c.policy.protect_first_pane = false);
    let first = open.person_session("person").await.to_string();
    let c = open.client(1).await;
    ok(&c, "send_input", json!({ "pane": first, "text": "x" })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_are_for_the_callers_own_pane() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let e = err(&c, "report", json!({ "state": "idle" })).await;
    assert_eq!(e["code"], "invalid_argument", "{e}");
    let e = err(&c, "report", json!({ "state": "exited" })).await;
    assert_eq!(e["code"], "invalid_argument");
    let e = err(&c, "report", json!({})).await;
    assert_eq!(e["code"], "invalid_argument");
    // An MCP client in a pane reports for that pane, and only that pane.
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
    ok(
        &inside,
        "report",
        json!({ "state": "busy", "result": "half way" }),
    )
    .await;
    let agent = agent_of(&inside, &p.to_string()).await;
    assert_eq!(
        (agent["state"].as_str(), agent["by"].as_str()),
        (Some("busy"), Some("report"))
    );
    assert_eq!(
        ok(&inside, "get_result", json!({})).await["result"],
        "half way"
    );
    let big = "x".repeat(fugue_protocol::RESULT_BYTES_MAX + 1);
    let e = err(&inside, "report", json!({ "result": big })).await;
    assert_eq!(e["code"], "limit_exceeded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spawn_agent_placement_defaults_stay_in_scope() {
    let rig = Rig::new(|c| c.policy.mcp_scope = Scope::Own);
    rig.person_session("person").await;
    let c = rig.client(1).await;
    // No pane of its own and no target: the default (the person's session) is not
    // the caller's, so it gets a session of its own.
    for placement in ["right", "window"] {
        let s = ok(
            &c,
            "spawn_agent",
            json!({ "agent": "fake", "placement": placement }),
        )
        .await;
        assert_ne!(s["session_name"], "person", "{placement}: {s}");
    }
    let panes = {
        let tree = rig.server.mux.tree();
        tree.session_by_name("person").map(|s| {
            s.windows
                .iter()
                .filter_map(|l| tree.window(l.id))
                .map(|w| w.layout.panes().len())
                .sum::<usize>()
        })
    };
    assert_eq!(panes, Some(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tags_and_children_reach_only_the_callers_agents() {
    let rig = Rig::new(|c| c.policy.mcp_scope = Scope::Own);
    let c1 = rig.client(1).await;
    let c2 = rig.client(2).await;
    let theirs = ok(
        &c2,
        "spawn_agent",
        json!({ "agent": "fake", "tags": ["team"] }),
    )
    .await;
    ok(
        &c2,
        "wait_for",
        json!({ "pane": theirs["pane"], "state": "idle" }),
    )
    .await;
    for to in ["tag:team", "children"] {
        let e = err(
            &c1,
            "send_message",
            json!({ "to": to, "text": "hello", "delivery": "sync" }),
        )
        .await;
        assert_eq!(e["code"], "unknown_target", "{to}: {e}");
        assert!(
            !e["suggestion"].as_str().unwrap().contains("team"),
            "{to}: another agent's tags are not listed: {e}"
        );
    }
    let mine = ok(
        &c1,
        "spawn_agent",
        json!({ "agent": "fake", "tags": ["team"] }),
    )
    .await;
    ok(
        &c1,
        "wait_for",
        json!({ "pane": mine["pane"], "state": "idle" }),
    )
    .await;
    for to in ["tag:team", "children"] {
        let m = ok(
            &c1,
            "send_message",
            json!({ "to": to, "text": "hello", "delivery": "sync" }),
        )
        .await;
        let panes: Vec<&Value> = m["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| &o["pane"])
            .collect();
        assert_eq!(panes, [&mine["pane"]], "{to}: {m}");
        ok(
            &c1,
            "wait_for",
            json!({ "pane": mine["pane"], "state": "idle" }),
        )
        .await;
    }
}
