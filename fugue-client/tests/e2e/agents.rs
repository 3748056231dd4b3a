//! Agents end to end: the real binaries, `fugue mcp` as an MCP client launches it,
//! the fake agent (`fugue-fake-agent`) in real panes reporting with `fugue report`, a
//! person typing through the CLI and through an attached terminal client.

use super::harness::{World, eventually, fugue_bin};
use super::mcp::{call, launch, ok};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn fake_bin() -> PathBuf {
    let p = fugue_bin().with_file_name("fugue-fake-agent");
    assert!(
        p.is_file(),
        "{} is missing: build the whole workspace first (cargo test --workspace builds it)",
        p.display()
    );
    p
}

/// A config with agent presets running the fake agent, plus `extra` TOML.
fn config(w: &World, extra: &str) -> PathBuf {
    let path = w.path("config/agents.toml");
    let fake = fake_bin();
    let preset = |name: &str, work_ms: u32| {
        format!(
            "[agents.{name}]\ncommand = \"{}\"\ndeliver = \"paste\"\nprompt = \"^> ?$\"\nquiet_ms = 150\nsideband = true\nenv = {{ FAKE_AGENT_WORK_MS = \"{work_ms}\" }}\n",
            fake.display()
        )
    };
    let text = format!("{}{}{extra}", preset("fake", 300), preset("slow", 1500));
    std::fs::write(&path, text).unwrap();
    path
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// Types `keys` into `pane` as a person with the CLI, 150 ms apart, on another thread;
/// returns when the last one was typed.
fn person_types(w: &World, pane: &str, keys: &[&str]) -> std::thread::JoinHandle<Instant> {
    let cmds: Vec<Command> = keys
        .iter()
        .map(|k| w.cmd(&["send-keys", "-t", pane, k]))
        .collect();
    std::thread::spawn(move || {
        let mut last = Instant::now();
        for mut c in cmds {
            // Taken before the key is sent: the server stamps the key somewhere
            // between this and the command's exit, so "2 s after this" is a bound the
            // server must meet however slowly the command runs on a loaded machine.
            last = Instant::now();
            let out = c.output().expect("send-keys");
            assert!(out.status.success(), "{out:?}");
            // Part of the scenario: a person's keys, 150 ms apart.
            std::thread::sleep(Duration::from_millis(150));
        }
        last
    })
}

/// The scenario an independent MCP client checks: two agents with tasks, both idle,
/// their results, a third chained with depends_on, and a message that waits while a
/// person types.
#[test]
fn an_mcp_client_runs_agents_chains_them_and_yields_to_a_person() {
    let w = World::new();
    let cfg = config(&w, "");
    w.ok(&[
        "-f",
        cfg.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "work",
        "-x",
        "200",
        "-y",
        "50",
    ]);
    runtime().block_on(async {
        let c = launch(&w, &cfg).await;
        let a = ok(
            &c,
            "spawn_agent",
            json!({ "agent": "fake", "task": "alpha" }),
        )
        .await;
        let b = ok(
            &c,
            "spawn_agent",
            json!({ "agent": "fake", "task": "beta" }),
        )
        .await;
        let (a, b) = (s(&a["pane"]), s(&b["pane"]));
        let (wa, wb) = tokio::join!(
            ok(&c, "wait_for", json!({ "pane": a, "state": "idle" })),
            ok(&c, "wait_for", json!({ "pane": b, "state": "idle" })),
        );
        assert_eq!(
            (s(&wa["state"]), s(&wb["state"])),
            ("idle".into(), "idle".into())
        );
        let ra = ok(&c, "get_result", json!({ "pane": a })).await;
        let rb = ok(&c, "get_result", json!({ "pane": b })).await;
        assert_eq!(
            (s(&ra["result"]), s(&rb["result"])),
            ("done(alpha)".into(), "done(beta)".into())
        );

        let third = ok(
            &c,
            "spawn_agent",
            json!({
                "agent": "fake",
                "task": format!("merge {{{{{a}.result}}}} + {{{{{b}.result}}}}"),
                "depends_on": [a, b],
                "tags": ["merger"],
            }),
        )
        .await;
        assert_eq!(third["task"], "delivered", "{third}");
        let p = s(&third["pane"]);
        ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
        let r = ok(&c, "get_result", json!({ "pane": p })).await;
        assert_eq!(s(&r["result"]), "done(merge done(alpha) + done(beta))");

        // A person types in that pane (and takes it back); the message is sent after
        // their first key, while their keys keep coming.
        w.ok(&["send-keys", "-t", &p, "h"]);
        let typist = person_types(&w, &p, &["m", "m", "BSpace", "BSpace", "BSpace"]);
        let m = ok(
            &c,
            "send_message",
            json!({ "to": "tag:merger", "text": "after the person", "delivery": "sync" }),
        )
        .await;
        let delivered = Instant::now();
        let last_key = typist.join().unwrap();
        assert_eq!(m["messages"][0]["status"], "delivered", "{m}");
        let after = delivered.duration_since(last_key);
        assert!(
            after >= Duration::from_millis(2000),
            "delivered {after:?} after the last key"
        );
        ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
        let r = ok(&c, "get_result", json!({ "pane": p })).await;
        assert_eq!(s(&r["result"]), "done(after the person)");
        c.cancel().await.unwrap();
    });
}

#[test]
fn scope_own_over_fugue_mcp_refuses_a_persons_pane() {
    let w = World::new();
    let cfg = config(&w, "[policy]\nmcp_scope = \"own\"\n");
    w.ok(&["-f", cfg.to_str().unwrap(), "new", "-d", "-s", "person"]);
    runtime().block_on(async {
        let c = launch(&w, &cfg).await;
        assert_eq!(ok(&c, "list_panes", json!({})).await["panes"], json!([]));
        for (tool, args) in [
            ("read_pane", json!({ "pane": "%1" })),
            ("send_message", json!({ "to": "%1", "text": "hi" })),
            ("send_input", json!({ "pane": "%1", "text": "hi" })),
        ] {
            let (good, e) = call(&c, tool, args).await;
            assert!(!good, "{tool}: {e}");
            assert_eq!(e["code"], "forbidden", "{tool}: {e}");
            assert!(s(&e["message"]).contains("%1"), "{e}");
        }
        let mine = ok(
            &c,
            "spawn_agent",
            json!({ "agent": "fake", "task": "mine" }),
        )
        .await;
        let p = s(&mine["pane"]);
        let listed = ok(&c, "list_panes", json!({})).await;
        let ids: Vec<String> = listed["panes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| s(&p["id"]))
            .collect();
        assert_eq!(ids, std::slice::from_ref(&p));
        ok(&c, "wait_for", json!({ "pane": p, "state": "idle" })).await;
        assert_eq!(
            s(&ok(&c, "get_result", json!({ "pane": p })).await["result"]),
            "done(mine)"
        );
        c.cancel().await.unwrap();
    });
    // The person still sees everything.
    assert_eq!(w.panes().len(), 2);
}

fn sideband_result(w: &World, pane: &str, id: &str) -> Value {
    let file = w
        .socket
        .with_file_name(format!(
            "test.sideband/pane-{}",
            pane.trim_start_matches('%')
        ))
        .join(format!("{id}.json"));
    eventually(&format!("{}", file.display()), || {
        std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
    })
}

#[test]
fn an_agent_spawns_and_messages_an_agent_by_sideband_tags() {
    let w = World::new();
    let cfg = config(&w, "");
    w.ok(&[
        "-f",
        cfg.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "sb",
        "-x",
        "200",
        "-y",
        "50",
    ]);
    let parent = w.ok(&["agent", "spawn", "-t", "sb:0.0", "-p", "right", "fake"]);
    let parent = parent.trim();
    // The parent agent prints the tag (its echo of the task, and again in its answer:
    // the id makes it run once).
    let out = w.ok(&[
        "agent",
        "message",
        "--sync",
        "--to",
        parent,
        "<fugue:spawn id=\"kid\" key=\"$FUGUE_SIDEBAND_KEY\" agent=\"fake\" tags=\"kid\" direction=\"down\">child work</fugue:spawn>",
    ]);
    assert!(out.contains("delivered"), "{out}");
    let spawned = sideband_result(&w, parent, "kid");
    assert_eq!(spawned["ok"], true, "{spawned}");
    let child = s(&spawned["result"]["pane"]);
    assert_eq!(spawned["result"]["agent"], "fake");
    w.ok(&[
        "wait-for",
        "-t",
        &child,
        "--state",
        "idle",
        "--timeout",
        "10000",
    ]);
    assert_eq!(
        w.ok(&["agent", "result", "-t", &child]).trim(),
        "done(child work)"
    );
    let info = w
        .panes()
        .into_iter()
        .find(|p| p["id"] == child.as_str())
        .unwrap();
    assert_eq!(info["created_by"], format!("sideband {parent}"));
    assert_eq!(info["parent"], parent);
    assert_eq!(info["agent"]["tags"], json!(["kid"]));
    assert_eq!(
        w.panes().len(),
        3,
        "the repainted tag ran once: {:#?}",
        w.panes()
    );

    // A message to it by tag, and its result read back, by tags from the parent.
    w.ok(&[
        "wait-for",
        "-t",
        parent,
        "--state",
        "idle",
        "--timeout",
        "10000",
    ]);
    w.ok(&[
        "agent",
        "message",
        "--sync",
        "--to",
        parent,
        "<fugue:message id=\"m1\" key=\"$FUGUE_SIDEBAND_KEY\" to=\"tag:kid\" delivery=\"sync\">second job</fugue:message>",
    ]);
    let sent = sideband_result(&w, parent, "m1");
    assert_eq!(
        sent["result"]["messages"][0]["status"], "delivered",
        "{sent}"
    );
    w.ok(&[
        "wait-for",
        "-t",
        &child,
        "--state",
        "idle",
        "--timeout",
        "10000",
    ]);
    w.ok(&[
        "wait-for",
        "-t",
        parent,
        "--state",
        "idle",
        "--timeout",
        "10000",
    ]);
    w.ok(&[
        "agent",
        "message",
        "--sync",
        "--to",
        parent,
        &format!("<fugue:result id=\"r1\" key=\"$FUGUE_SIDEBAND_KEY\" pane=\"{child}\"/>"),
    ]);
    let read = sideband_result(&w, parent, "r1");
    assert_eq!(read["result"]["result"], "done(second job)", "{read}");
    // An agent may report about itself by tag, not about another pane.
    w.ok(&[
        "wait-for",
        "-t",
        parent,
        "--state",
        "idle",
        "--timeout",
        "10000",
    ]);
    w.ok(&[
        "agent",
        "message",
        "--sync",
        "--to",
        parent,
        "<fugue:report id=\"rep\" key=\"$FUGUE_SIDEBAND_KEY\" state=\"busy\">by tag</fugue:report>",
    ]);
    assert_eq!(sideband_result(&w, parent, "rep")["ok"], true);
}

#[test]
fn the_tui_marks_agent_panes_and_a_persons_keys_hold_messages() {
    let w = World::new();
    let cfg = config(&w, "");
    let mut t = w.tui(&["-f", cfg.to_str().unwrap(), "new", "-s", "main"], 160, 40);
    t.wait("a session", |s| super::harness::count_boxes(s) == 1);
    let p = w.ok(&[
        "agent", "spawn", "-t", "main:0.0", "-p", "right", "-n", "helper", "slow",
    ]);
    let p = p.trim().to_string();
    t.wait_text("helper [idle]");
    // The person focuses the agent and types (and takes it back) in the terminal.
    w.ok(&["select-pane", "-t", &p]);
    // The message is sent after the person's first key, while their keys keep coming.
    t.send(b"h");
    let mut last_key = Instant::now();
    let msg = w.cmd(&["agent", "message", "--sync", "--to", &p, "queued words"]);
    let sender = std::thread::spawn(move || {
        let mut msg = msg;
        let out = msg.output().expect("agent message");
        (
            Instant::now(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    });
    for k in [&b"m"[..], b"m", b"\x7f", b"\x7f", b"\x7f"] {
        // Part of the scenario: a person's keys, 150 ms apart.
        std::thread::sleep(Duration::from_millis(150));
        t.send(k);
        last_key = Instant::now();
    }
    let (delivered, out) = sender.join().unwrap();
    assert!(out.contains("delivered"), "{out}");
    let after = delivered.duration_since(last_key);
    assert!(
        after >= Duration::from_millis(2000),
        "delivered {after:?} after the last key"
    );
    t.wait_text("helper [busy]");
    t.wait_text("answer: done(queued words)");
    t.wait_text("helper [idle]");
}

#[test]
fn cli_verbs_and_fugue_report_from_a_shell() {
    let w = World::new();
    let cfg = config(&w, "");
    w.ok(&[
        "-f",
        cfg.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "cli",
        "-x",
        "160",
        "-y",
        "40",
    ]);
    let bad = w.run(&["agent", "spawn", "nope"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("claude, codex, fake, gemini, shell, slow"),
        "{err}"
    );

    // The shell preset: the task is typed at the prompt.
    let p = w.ok(&[
        "agent",
        "spawn",
        "-t",
        "cli:0.0",
        "-p",
        "down",
        "--tag",
        "sh",
        "shell",
        "echo",
        "from-task-$((6*7))",
    ]);
    let p = p.trim().to_string();
    assert_eq!(
        w.ok(&[
            "wait-for",
            "-t",
            &p,
            "--state",
            "idle",
            "--timeout",
            "10000"
        ]),
        "idle\n"
    );
    assert!(
        w.ok(&["capture-pane", "-p", "-t", &p])
            .contains("\nfrom-task-42")
    );
    let none = w.run(&["agent", "result", "-t", &p]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("not reported a result"));

    // A program in the pane reports with `fugue report`.
    let report = format!(
        "echo forty-two | {} report --state idle --result -",
        fugue_bin().display()
    );
    w.ok(&["send-keys", "-t", &p, &report, "Enter"]);
    let result = eventually("the reported result", || {
        let out = w.run(&["agent", "result", "-t", &p]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    });
    assert_eq!(result, "forty-two\n");
    let list = w.ok(&["agent", "list"]);
    assert!(list.contains(&format!("{p} cli:0.1 shell")), "{list}");
    let sent = w.ok(&[
        "agent",
        "message",
        "--sync",
        "--to",
        "tag:sh",
        "echo",
        "via-message",
    ]);
    assert_eq!(sent, format!("{p}: delivered\n"));
    eventually("the message's output", || {
        w.ok(&["capture-pane", "-p", "-t", &p])
            .contains("\nvia-message")
            .then_some(())
    });
    // Outside any pane, `fugue report` must name its pane.
    let out = w.run(&["report", "--state", "idle"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not run in a pane"));
    // list-panes formats know agents.
    let f = w.ok(&[
        "list-panes",
        "-a",
        "-F",
        "#{pane_id} #{agent} #{agent_tags} #{pane_created_by}",
    ]);
    assert!(f.contains(&format!("{p} shell sh person\n")), "{f}");
}
