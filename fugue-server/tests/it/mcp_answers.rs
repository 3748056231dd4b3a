//! Issue 18, "lighter answers" and the send-then-wait race, through a real MCP client
//! (rmcp's, in-process). The sizes printed here are the ones docs/mcp.md quotes.

use crate::agent_rig::*;

fn bytes(v: &Value) -> usize {
    serde_json::to_string(v).unwrap().len()
}

/// The most natural sequence an agent writes: send, then wait, without a cursor.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_after_send_input_sees_output_that_came_first() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let p = ok(&c, "create_session", json!({ "name": "race" })).await["pane"]
        .as_str()
        .unwrap()
        .to_string();
    for round in 0..2 {
        ok(
            &c,
            "send_input",
            json!({ "pane": p, "text": format!("echo fast-$((40+{round}))"), "submit": true }),
        )
        .await;
        // The output is there before the wait begins.
        rig.until_screen(&p, &format!("fast-{}\n", 40 + round))
            .await;
        let w = ok(
            &c,
            "wait_for",
            json!({ "pane": p, "text": format!("^fast-{}$", 40 + round), "timeout_ms": 2000 }),
        )
        .await;
        assert_eq!(w["line"], format!("fast-{}", 40 + round));
    }
    // The same wait again starts after what the last one matched: no stale match.
    let e = err(
        &c,
        "wait_for",
        json!({ "pane": p, "text": "^fast-41$", "timeout_ms": 300 }),
    )
    .await;
    assert_eq!(e["code"], "timeout");
    // Another connection has its own cursors: it waits for output after its call.
    let other = rig.client(2).await;
    let e = err(
        &other,
        "wait_for",
        json!({ "pane": p, "text": "^fast-40$", "timeout_ms": 300 }),
    )
    .await;
    assert_eq!(e["code"], "timeout");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_panes_is_compact_unless_asked_and_filters() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let s = ok(
        &c,
        "create_session",
        json!({ "name": "one", "width": 200, "height": 60 }),
    )
    .await;
    let first = s["pane"].as_str().unwrap().to_string();
    let one = ok(&c, "list_panes", json!({})).await;
    let full_one = ok(&c, "list_panes", json!({ "detail": true })).await;
    let row = &one["panes"][0];
    for k in ["id", "title", "command", "size"] {
        assert!(!row[k].is_null(), "{k}: {row}");
    }
    assert!(row.get("cwd").is_none() && full_one["panes"][0].get("cwd").is_some());
    // Six agent panes, as the issue measured (agents with a history each).
    let mut agents = Vec::new();
    for i in 0..6 {
        let a = ok(
            &c,
            "spawn_agent",
            json!({ "agent": "fake", "task": format!("t{i}"), "tags": [if i % 2 == 0 { "even" } else { "odd" }],
                    "placement": "window", "target": "one" }),
        )
        .await;
        agents.push(a["pane"].as_str().unwrap().to_string());
    }
    for a in &agents {
        ok(
            &c,
            "wait_for",
            json!({ "pane": a, "state": "idle", "timeout_ms": 20000 }),
        )
        .await;
    }
    let six = ok(&c, "list_panes", json!({ "state": "idle" })).await;
    let full_six = ok(&c, "list_panes", json!({ "state": "idle", "detail": true })).await;
    assert_eq!(six["panes"].as_array().unwrap().len(), 6, "{six}");
    assert!(
        six["panes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["agent"] == "idle")
    );
    let even = ok(&c, "list_panes", json!({ "tag": "even" })).await;
    assert_eq!(even["panes"].as_array().unwrap().len(), 3, "{even}");
    let window = ok(&c, "list_panes", json!({ "window": "one:0" })).await;
    assert_eq!(window["panes"].as_array().unwrap().len(), 1, "{window}");
    assert_eq!(window["panes"][0]["id"], first);
    let children = ok(&c, "list_panes", json!({ "parent": first })).await;
    assert_eq!(
        children["panes"],
        json!([]),
        "made by a connection, not from %1"
    );
    println!(
        "list_panes bytes: 1 pane {} (detail {}), 6 agent panes {} (detail {})",
        bytes(&one),
        bytes(&full_one),
        bytes(&six),
        bytes(&full_six)
    );
    assert!(bytes(&one) < 200, "{one}");
    assert!(bytes(&six) < 1200, "{six}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_pane_tells_screen_metadata_only_when_it_changed() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let p = ok(
        &c,
        "create_session",
        json!({ "name": "r", "width": 80, "height": 20 }),
    )
    .await["pane"]
        .as_str()
        .unwrap()
        .to_string();
    // A 20-line screen, as the issue measured.
    ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "clear; for i in $(seq 1 19); do echo line-$i; done", "submit": true }),
    )
    .await;
    ok(&c, "wait_for", json!({ "pane": p, "text": "^line-19$" })).await;
    let first = ok(&c, "read_pane", json!({ "pane": p })).await;
    assert!(
        first["screen"]["width"].is_u64(),
        "the first read tells: {first}"
    );
    let again = ok(&c, "read_pane", json!({ "pane": p })).await;
    assert!(again.get("screen").is_none(), "nothing changed: {again}");
    for k in [
        "lines_missed",
        "lines_skipped",
        "truncated",
        "next_cursor",
        "lines",
    ] {
        assert!(again.get(k).is_none(), "{k}: {again}");
    }
    let asked = ok(&c, "read_pane", json!({ "pane": p, "meta": true })).await;
    assert!(asked["screen"]["height"].is_u64(), "{asked}");
    ok(
        &c,
        "create_pane",
        json!({ "target": p, "direction": "right" }),
    )
    .await;
    let resized = ok(&c, "read_pane", json!({ "pane": p })).await;
    assert!(resized.get("screen").is_some(), "{resized}");
    println!(
        "read_pane bytes for a 20-line screen: first {}, then {}",
        bytes(&first),
        bytes(&again)
    );
}

/// After a burst, the tail comes first and a page cursor reads the retained lines it
/// left out, forward, each exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_reads_every_retained_line_of_a_burst_once() {
    for history in [50_000usize, 2_000] {
        let rig = Rig::new(|c| c.server.history_limit = history);
        let c = rig.client(1).await;
        let p = ok(
            &c,
            "create_session",
            json!({ "name": "burst", "width": 80, "height": 24 }),
        )
        .await["pane"]
            .as_str()
            .unwrap()
            .to_string();
        ok(&c, "wait_for", json!({ "pane": p, "idle_ms": 100 })).await;
        let start = ok(&c, "read_pane", json!({ "pane": p })).await["cursor"].clone();
        ok(
            &c,
            "send_input",
            json!({ "pane": p, "text": "seq 1 30000; echo burst-done", "submit": true }),
        )
        .await;
        ok(
            &c,
            "wait_for",
            json!({ "pane": p, "text": "^burst-done$", "timeout_ms": 60000 }),
        )
        .await;
        let tail = ok(
            &c,
            "read_pane",
            json!({ "pane": p, "cursor": start, "lines": 500 }),
        )
        .await;
        let mut seen: Vec<u64> = Vec::new();
        let numbers = |t: &Value| -> Vec<u64> {
            t["text"]
                .as_str()
                .unwrap()
                .lines()
                .filter_map(|l| l.trim().parse().ok())
                .collect()
        };
        let missed = tail["lines_missed"].as_u64().unwrap_or(0);
        let skipped = tail["lines_skipped"].as_u64().unwrap_or(0);
        assert!(skipped > 0, "{}", tail["next_cursor"]);
        let mut next = tail["next_cursor"].clone();
        let mut pages = 0;
        while let Some(cur) = next.as_str() {
            let page = ok(&c, "read_pane", json!({ "cursor": cur, "lines": 2000 })).await;
            seen.extend(numbers(&page));
            next = page.get("next_cursor").cloned().unwrap_or(Value::Null);
            pages += 1;
            assert!(pages < 100);
        }
        seen.extend(numbers(&tail));
        let expect_from = seen.first().copied().unwrap_or(1);
        let expected: Vec<u64> = (expect_from..=30000).collect();
        assert_eq!(
            seen.len(),
            expected.len(),
            "each line once (history {history})"
        );
        assert_eq!(seen, expected);
        if history >= 50_000 {
            assert_eq!(expect_from, 1, "all retained");
            assert_eq!(missed, 0);
        } else {
            assert!(
                missed > 0 && expect_from > 1,
                "dropped lines are counted apart"
            );
        }
        println!("history {history}: tail, {pages} pages, skipped {skipped}, missed {missed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_message_refuses_a_plain_pane_unless_asked() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let p = ok(&c, "create_session", json!({ "name": "m" })).await["pane"]
        .as_str()
        .unwrap()
        .to_string();
    let e = err(
        &c,
        "send_message",
        json!({ "to": p, "text": "echo ran-$((6*7))", "delivery": "sync" }),
    )
    .await;
    assert_eq!(e["code"], "invalid_argument");
    assert!(
        e["suggestion"].as_str().unwrap().contains("send_input"),
        "{e}"
    );
    // A line typed after it through the same pane: once its output shows, the shell
    // has run anything typed before it.
    ok(
        &c,
        "send_input",
        json!({ "pane": p, "text": "echo after-$((6*8))", "submit": true }),
    )
    .await;
    rig.until_screen(&p, "after-48\n").await;
    assert!(!screen(&rig.server, &p).contains("ran-42"));
    let sent = ok(
        &c,
        "send_message",
        json!({ "to": p, "text": "echo ran-$((6*7))", "delivery": "sync", "plain": true, "quiescence_ms": 0 }),
    )
    .await;
    assert_eq!(sent["messages"][0]["status"], "delivered", "{sent}");
}

/// `send_input` with `submit` to programs that echo (`cat`, a shell) returns as soon as
/// the program took the text; the answer says how long it waited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn send_input_submit_waits_only_for_the_program() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let mut waits = Vec::new();
    for round in 0..20 {
        let p = ok(
            &c,
            "create_session",
            json!({ "command": if round % 2 == 0 { "cat" } else { "sh" } }),
        )
        .await["pane"]
            .as_str()
            .unwrap()
            .to_string();
        // Its first send (the case the issue measured: 467 and 640 ms to cat), then more.
        for i in 0..5 {
            let t = Instant::now();
            let sent = ok(
                &c,
                "send_input",
                json!({ "pane": p, "text": format!("echo w{round}-{i}"), "submit": true }),
            )
            .await;
            let took = t.elapsed().as_millis() as u64;
            let waited = sent["waited_ms"].as_u64().unwrap();
            assert!(waited <= took, "{waited} > {took}");
            waits.push(took);
        }
    }
    waits.sort_unstable();
    let p50 = waits[waits.len() / 2];
    let p99 = waits[(waits.len() * 99 / 100).min(waits.len() - 1)];
    println!(
        "send_input submit: n={} p50 {p50} ms, p99 {p99} ms",
        waits.len()
    );
    // The figures (p99 under 50 ms on an idle machine) are measured for docs/mcp.md;
    // a test on a loaded 2-core CI machine cannot hold them without flaking (a p50
    // over 20 ms and a p99 outlier both happened beside two CPU hogs). What it holds:
    // the wait is event-driven, so even loaded the median is well under the old fixed
    // wait of 250 ms, and no send waits for seconds.
    assert!(p50 < 125, "p50 {p50} ms: {waits:?}");
    assert!(p99 < 2000, "p99 {p99} ms: {waits:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_is_small_and_every_tool_declares_its_output() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let tools = c.list_tools(None).await.unwrap();
    // The JSON-RPC response as it goes over the wire (compact JSON).
    let wire = json!({ "jsonrpc": "2.0", "id": 1, "result": tools });
    let size = bytes(&wire);
    if let Some(path) = std::env::var_os("FUGUE_TOOLS_DUMP") {
        std::fs::write(path, serde_json::to_string(&wire).unwrap()).unwrap();
    }
    println!("tools/list: {} tools, {size} bytes", tools.tools.len());
    for t in &tools.tools {
        assert!(
            t.output_schema.is_some(),
            "{} declares no output schema",
            t.name
        );
    }
    // Issue 18's goal: under 12 KB with every capability still reachable. 15,764
    // bytes in 31 tools before fifteen of them became the one `tmux` tool (10,215
    // after, 17 tools): see docs/mcp.md. The bound keeps it from growing back.
    assert!(size < 12_000, "{size}");
    // With the destroy tier allowed (kill_session listed too).
    let rig = Rig::new(|c| c.policy.mcp.push(fugue_protocol::Tier::Destroy));
    let c = rig.client(1).await;
    let tools = c.list_tools(None).await.unwrap();
    let size = bytes(&json!({ "jsonrpc": "2.0", "id": 1, "result": tools }));
    println!(
        "tools/list with destroy: {} tools, {size} bytes",
        tools.tools.len()
    );
    assert!(size < 12_000, "{size}");
}
