//! What agents type into panes, in-process over MCP: a person's unsent draft holds
//! messages and held tasks back, and control characters never reach the program.
//! (The rig: see agent_rig.)

use crate::agent_rig::*;
use fugue_protocol::keys::{KeyCode, Mods};

/// Keys typed as a person in an attached client.
async fn person_keys(rig: &Rig, pane: &str, parts: Vec<InputPart>) {
    let keys = Origin::Client {
        id: 901,
        kind: ClientKind::Tui,
        caller_pane: None,
    };
    dispatch(
        &rig.server,
        &keys,
        Command::SendInput(SendInput {
            target: Some(pane.parse().unwrap()),
            parts,
        }),
    )
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_unsent_draft_holds_messages_until_it_is_cleared() {
    let rig = Rig::new(|c| c.messages.human_pause_ms = 200);
    let c = rig.client(1).await;
    let s = ok(&c, "spawn_agent", json!({ "agent": "fake" })).await;
    let pane = s["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    // A person types half a line and leaves it, far longer than the pause.
    person_keys(&rig, &pane, vec![InputPart::Text("half a".into())]).await;
    // Part of the scenario: the person's pause (200 ms) must be long over, so that
    // only the draft can hold the message.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "from agent", "delivery": "sync", "timeout_ms": 800 }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "timeout", "{m}");
    assert_eq!(
        m["messages"][0]["reason"],
        format!("a person has an unsent draft in pane {pane}"),
        "{m}"
    );
    // Erased with Backspace: the line is empty again, and the message goes.
    let queued = {
        let c2 = rig.client(2).await;
        let pane = pane.clone();
        tokio::spawn(async move {
            ok(
                &c2,
                "send_message",
                json!({ "to": pane, "text": "from agent", "delivery": "sync" }),
            )
            .await
        })
    };
    // Counted in the pane's queue: the server has the message. Whether it would still
    // type it over the draft has no event of its own (the pause that could end is long
    // over): give it the time.
    let end = Instant::now() + Duration::from_secs(20);
    while agent_of(&c, &pane).await["pending_messages"] != 1 {
        assert!(Instant::now() < end, "the message was never queued");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    settle_for_negative_check().await;
    assert!(!queued.is_finished(), "delivered over a draft");
    let bs = InputPart::Key(Key::new(KeyCode::Backspace, Mods::NONE));
    person_keys(&rig, &pane, vec![bs; 6]).await;
    let m = queued.await.unwrap();
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": pane })).await["result"],
        "done(from agent)"
    );
    // C-u clears a draft too.
    person_keys(&rig, &pane, vec![InputPart::Text("abc".into())]).await;
    person_keys(
        &rig,
        &pane,
        vec![InputPart::Key(Key::new(KeyCode::Char('u'), Mods::CTRL))],
    )
    .await;
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "again", "delivery": "sync", "timeout_ms": 5000 }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_task_waits_for_a_persons_draft() {
    let rig = Rig::new(|c| {
        c.messages.human_pause_ms = 200;
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
    // A person starts typing in the held agent before its dependency reports.
    person_keys(&rig, &h, vec![InputPart::Text("mine".into())]).await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": dep, "state": "idle", "timeout_ms": 10000 }),
    )
    .await;
    // Part of the scenario: the person's pause (200 ms) must be long over, so that only
    // the draft can hold the task; that it then stays held has no event of its own.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(agent_of(&c, &h).await["task"], "waiting");
    // Submitted: their line is the agent's input; the task follows once it is idle.
    person_keys(
        &rig,
        &h,
        vec![InputPart::Key(Key::new(KeyCode::Enter, Mods::NONE))],
    )
    .await;
    ok(
        &c,
        "wait_for",
        json!({ "pane": h, "state": "idle", "timeout_ms": 10000 }),
    )
    .await;
    let text = rig.until_screen(&h, "answer: done(b done(a))").await;
    let mine = text.find("answer: done(mine)").expect("the person's line");
    assert!(
        mine < text.find("answer: done(b done(a))").unwrap(),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_characters_never_reach_the_program() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let s = ok(
        &c,
        "spawn_agent",
        json!({ "agent": "fake", "task": "a\u{3}b\u{4}c" }),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": pane })).await["result"],
        "done(abc)"
    );
    let m = ok(
        &c,
        "send_message",
        json!({ "to": pane, "text": "x\u{1b}[201~\u{3}y\tz", "delivery": "sync" }),
    )
    .await;
    assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": pane })).await["result"],
        "done(x[201~y\tz)"
    );
}

/// Sends a message as an agent and says how it went (sync, at most `ms`).
async fn message(c: &RunningService<RoleClient, ()>, pane: &str, text: &str, ms: u64) -> Value {
    let m = ok(
        c,
        "send_message",
        json!({ "to": pane, "text": text, "delivery": "sync", "timeout_ms": ms }),
    )
    .await;
    m["messages"][0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_that_type_no_text_leave_no_draft() {
    let rig = Rig::new(|c| c.messages.human_pause_ms = 200);
    let c = rig.client(1).await;
    let s = ok(&c, "spawn_agent", json!({ "agent": "fake" })).await;
    let pane = s["pane"].as_str().unwrap().to_string();
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    // Esc, an arrow, and an arrow as the escape sequence a terminal sends: the line
    // cannot be known from them, so they are typing (the pause) but no draft.
    let key = |code| InputPart::Key(Key::new(code, Mods::NONE));
    person_keys(&rig, &pane, vec![key(KeyCode::Escape)]).await;
    person_keys(&rig, &pane, vec![key(KeyCode::Up)]).await;
    person_keys(&rig, &pane, vec![InputPart::Text("\x1b[B".into())]).await;
    // No pause here: the message waits out the person's pause (200 ms) by itself, and
    // a draft would hold it past its 5 s (status `timeout`).
    let m = message(&c, &pane, "after keys", 5000).await;
    assert_eq!(m["status"], "delivered", "{m}");
    ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
    assert_eq!(
        ok(&c, "get_result", json!({ "pane": pane })).await["result"],
        "done(after keys)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_key_answer_to_a_question_leaves_no_draft() {
    let rig = Rig::new(|c| c.messages.human_pause_ms = 200);
    let c = rig.client(1).await;
    // An agent whose hooks report (it reports busy once it has the answer), and one
    // known by heuristics alone (it stops asking and prints).
    for agent in ["fake", "quiet"] {
        let s = ok(&c, "spawn_agent", json!({ "agent": agent, "task": "menu" })).await;
        let pane = s["pane"].as_str().unwrap().to_string();
        ok(
            &c,
            "wait_for",
            json!({ "pane": pane, "state": "awaiting_input" }),
        )
        .await;
        // A person answers the menu with "1", no Enter: the agent takes it and works.
        person_keys(
            &rig,
            &pane,
            vec![InputPart::Key(Key::new(KeyCode::Char('1'), Mods::NONE))],
        )
        .await;
        rig.until_screen(&pane, "answer: done(menu: 1)").await;
        ok(&c, "wait_for", json!({ "pane": pane, "state": "idle" })).await;
        let m = message(&c, &pane, "next", 5000).await;
        assert_eq!(m["status"], "delivered", "{agent}: {m}");
        rig.until_screen(&pane, "answer: done(next)").await;
    }
}
