//! Closing what you made (`[policy] close_own`, on by default): through a real rmcp
//! client, an agent closes the panes and windows it created and their descendants
//! without the destroy tier; a person's panes, another agent's, its parent's, its own
//! session and the server stay refused.

use crate::agent_rig::{Rig, err, ok};
use fugue_protocol::PaneId;
use fugue_server::origin::Origin;
use fugue_server::surfaces::mcp::handler::FugueMcp;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use std::sync::Arc;

/// An MCP connection whose agent runs in `pane`.
async fn client_in(rig: &Rig, connection: u64, pane: &str) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = FugueMcp::new(
        Arc::clone(&rig.server),
        Origin::Mcp {
            connection,
            caller_pane: Some(pane.parse::<PaneId>().unwrap()),
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

fn pane(v: &serde_json::Value) -> String {
    v["pane"].as_str().unwrap().to_string()
}

fn exists(rig: &Rig, p: &str) -> bool {
    rig.server
        .mux
        .tree()
        .panes
        .contains_key(&p.parse::<PaneId>().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_closes_what_it_made_and_nothing_else() {
    let rig = Rig::new(|_| {});
    let person = rig.person_session("person").await.to_string();
    let c = rig.client(1).await;
    let names: Vec<String> = c
        .list_tools(None)
        .await
        .unwrap()
        .tools
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(names.contains(&"close_pane".into()) && names.contains(&"tmux".into()));
    assert!(
        !names.contains(&"kill_session".into()),
        "destroy tier stays off"
    );

    let a = pane(&ok(&c, "create_session", json!({"name": "mine"})).await);
    let b = pane(&ok(&c, "create_pane", json!({"target": a})).await);
    let w = ok(&c, "create_window", json!({"session": "mine"})).await;
    let (w_pane, window) = (pane(&w), w["window"].as_str().unwrap().to_string());

    // Allowed: a pane it made, a window whose every pane it made.
    ok(&c, "close_pane", json!({"pane": b})).await;
    assert!(!exists(&rig, &b));
    ok(
        &c,
        "tmux",
        json!({"command": format!("kill-window -t {window}")}),
    )
    .await;
    assert!(!exists(&rig, &w_pane));

    // Refused: a person's pane, a person's window, its own session, a window with a
    // pane a person split into it.
    let e = err(&c, "close_pane", json!({"pane": person})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("may close only panes and windows it created"),
        "{e}"
    );
    assert!(exists(&rig, &person));
    let e = err(&c, "tmux", json!({"command": "kill-window -t person:0"})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    // What does not exist is unknown, not forbidden.
    let e = err(&c, "close_pane", json!({"pane": "%999"})).await;
    assert_eq!(e["code"], "unknown_target", "{e}");
    let e = err(&c, "kill_session", json!({"session": "mine"})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    // A person splits a pane into the agent's window.
    let split = fugue_server::dispatch::dispatch(
        &rig.server,
        &crate::agent_rig::PERSON,
        fugue_protocol::Command::SplitPane(fugue_protocol::SplitPane {
            target: Some(a.parse().unwrap()),
            direction: fugue_protocol::Direction::Right,
            size: None,
            select: false,
            zoom: false,
            full: false,
            spawn: Default::default(),
            task: None,
        }),
    )
    .await;
    assert!(split.is_ok(), "{split:?}");
    let e = err(&c, "tmux", json!({"command": "kill-window -t mine:0"})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert!(exists(&rig, &a));

    // Descendants: an agent running in a pane connection 1 made creates a pane; 1 may
    // close it, and the child agent may not close its parent's pane (nor another
    // agent's).
    let d = pane(&ok(&c, "create_pane", json!({"target": a})).await);
    let child = client_in(&rig, 2, &d).await;
    let e_pane = pane(&ok(&child, "create_pane", json!({"target": d})).await);
    let e = err(&child, "close_pane", json!({"pane": a})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    let other = rig.client(3).await;
    let e = err(&other, "close_pane", json!({"pane": e_pane})).await;
    assert_eq!(e["code"], "forbidden", "another agent's pane: {e}");
    ok(&c, "close_pane", json!({"pane": e_pane})).await;
    assert!(!exists(&rig, &e_pane));
    // Its own pane stays under allow_self_destroy.
    let e = err(&child, "close_pane", json!({"pane": d})).await;
    assert_eq!(e["code"], "forbidden", "{e}");

    // The audit log records the closes as any command.
    let audit = rig.audit();
    assert!(
        audit
            .lines()
            .any(|l| l.contains("\"kill-pane\"") && l.contains("\"ok\"")),
        "{audit}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_own_off_needs_the_destroy_tier() {
    let rig = Rig::new(|c| c.policy.close_own = false);
    let c = rig.client(1).await;
    let names: Vec<String> = c
        .list_tools(None)
        .await
        .unwrap()
        .tools
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(!names.contains(&"close_pane".into()));
    let a = pane(&ok(&c, "create_session", json!({"name": "mine"})).await);
    let b = pane(&ok(&c, "create_pane", json!({"target": a})).await);
    let e = err(&c, "close_pane", json!({"pane": b})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert!(exists(&rig, &b));
}

/// `new-window -k` destroys the window it replaces and `kill-window -a` /
/// `kill-session -a` what they leave out: without the destroy tier an agent may do
/// none of them through the `tmux` tool, not even to what it made. The listings'
/// `-f` filters there as on the CLI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replacing_and_killing_the_others_need_the_destroy_tier() {
    let rig = Rig::new(|_| {});
    let person = rig.person_session("person").await.to_string();
    let c = rig.client(1).await;
    let a = pane(&ok(&c, "create_session", json!({"name": "mine"})).await);
    let w = pane(&ok(&c, "create_window", json!({"session": "mine"})).await);
    for line in [
        "new-window -k -t person:0",
        "new-window -k -t mine:0",
        "kill-window -a -t mine:0",
        "kill-session -a -t mine",
    ] {
        let e = err(&c, "tmux", json!({ "command": line })).await;
        assert_eq!(e["code"], "forbidden", "{line}: {e}");
    }
    assert!(exists(&rig, &person) && exists(&rig, &a) && exists(&rig, &w));
    let out = ok(
        &c,
        "tmux",
        json!({ "command": "list-panes -a -f '#{==:#{session_name},mine}' -F '#{pane_id}'" }),
    )
    .await;
    assert_eq!(out["output"], format!("{a}\n{w}\n"), "{out}");
}
