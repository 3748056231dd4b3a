//! Issue 18, "no dead ends": errors an agent provokes through a real MCP client, each
//! checked by `agent_rig::advice::check` (a suggestion, naming only tools this caller
//! can call, no CLI advice), plus the specific answers the issue found wrong.

use crate::agent_rig::*;

/// Every error here goes through `err`, which checks its advice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_provoked_error_leaves_a_way_forward() {
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    let before = advice::CHECKED.load(std::sync::atomic::Ordering::Relaxed);
    // With no session at all.
    let e = err(&c, "read_pane", json!({})).await;
    assert!(
        e["suggestion"].as_str().unwrap().contains("create_session"),
        "{e}"
    );
    let e = err(&c, "report", json!({ "state": "idle" })).await;
    assert!(
        !e["message"].as_str().unwrap().contains("name the pane"),
        "the report tool has no pane argument: {e}"
    );
    assert!(e["suggestion"].as_str().unwrap().contains("notify"), "{e}");

    // create_pane with no session makes one, as run_command does.
    let made = ok(&c, "create_pane", json!({})).await;
    let p = made["pane"].as_str().unwrap().to_string();
    let person = rig.person_session("person").await;
    ok(&c, "create_session", json!({ "name": "taken" })).await;
    let e = err(&c, "create_session", json!({ "name": "taken" })).await;
    assert!(
        e["suggestion"].as_str().unwrap().contains("list_panes"),
        "{e}"
    );

    // A plain shell pane never reports: not "wait for idle and ask again".
    let e = err(&c, "get_result", json!({ "pane": p })).await;
    assert_eq!(e["code"], "invalid_argument", "{e}");
    let s = e["suggestion"].as_str().unwrap();
    assert!(s.contains("read_pane") && s.contains("run_command"), "{e}");

    // Bounds and choices.
    let e = err(&c, "tmux", json!({ "command": "select-layout grid" })).await;
    assert!(e.to_string().contains("tiled"), "{e}");
    for tool in ["wait_for", "run_command"] {
        let mut args = json!({ "timeout_ms": 1e20, "pane": p, "text": "x", "command": "true" });
        if tool == "wait_for" {
            args.as_object_mut().unwrap().remove("command");
        } else {
            args.as_object_mut().unwrap().remove("text");
        }
        let e = err(&c, tool, args).await;
        let all = e.to_string();
        assert!(!all.contains("18446744073709551615"), "{e}");
        assert!(all.contains("300000"), "{e}");
    }
    let bad: &[(&str, Value)] = &[
        ("read_pane", json!({ "pane": p, "mode": "everything" })),
        ("read_pane", json!({ "pane": p, "lines": 0 })),
        ("read_pane", json!({ "pane": p, "lines": 1e20 })),
        ("read_pane", json!({ "pane": "::nonsense::" })),
        ("read_pane", json!({ "pane": p, "cursor": "garbage" })),
        ("send_input", json!({ "pane": p })),
        ("send_input", json!({ "pane": p, "keys": ["Ctrl+C"] })),
        ("send_input", json!({ "pane": p, "text": 5 })),
        ("wait_for", json!({ "pane": p })),
        ("wait_for", json!({ "pane": p, "text": "(" })),
        ("wait_for", json!({ "pane": p, "state": "sleeping" })),
        ("wait_for", json!({ "pane": p, "idle_ms": 0 })),
        ("run_command", json!({})),
        (
            "run_command",
            json!({ "command": "true", "cwd": "relative/dir" }),
        ),
        (
            "create_pane",
            json!({ "target": p, "direction": "diagonal" }),
        ),
        ("create_pane", json!({ "target": p, "size_percent": 100 })),
        ("create_session", json!({ "width": 5 })),
        ("create_session", json!({ "name": "" })),
        ("create_window", json!({ "session": "nosuch" })),
        ("tmux", json!({ "command": "select-pane -t %77" })),
        (
            "tmux",
            json!({ "command": format!("resize-pane -t {p} -U 20000") }),
        ),
        ("tmux", json!({ "command": "rename-session" })),
        ("tmux", json!({ "command": "rename-window ''" })),
        ("tmux", json!({ "command": "select-window -t nosuch:9" })),
        ("search_panes", json!({ "pattern": "[" })),
        ("search_panes", json!({ "pattern": "x", "limit": 501 })),
        ("notify", json!({})),
        ("spawn_agent", json!({ "agent": "nope" })),
        (
            "spawn_agent",
            json!({ "agent": "fake", "placement": "sideways" }),
        ),
        ("send_message", json!({ "to": "tag:nobody", "text": "hi" })),
        (
            "send_message",
            json!({ "to": "bogus target", "text": "hi" }),
        ),
        (
            "send_message",
            json!({ "to": p, "text": "hi", "delivery": "later" }),
        ),
        ("get_result", json!({ "pane": "%88" })),
        ("report", json!({})),
        ("tmux", json!({ "command": "show-buffer -b nosuch" })),
        (
            "tmux",
            json!({ "command": format!("paste-buffer -b nosuch -t {p}") }),
        ),
        ("tmux", json!({ "command": "delete-buffer -b nosuch" })),
        ("tmux", json!({ "command": "show-options no-such-option" })),
        ("tmux", json!({ "command": "set no-such-option 1" })),
        ("tmux", json!({ "command": "set history-limit lots" })),
        (
            "tmux",
            json!({ "command": "resize-pane -y 99999999999999999999" }),
        ),
        // What the `tmux` tool refuses: no such command, a person's or a client's
        // command, a shell in the server, a line that does not parse, no line.
        ("tmux", json!({ "command": "no-such-command" })),
        ("tmux", json!({ "command": "attach -t x" })),
        ("tmux", json!({ "command": "bind x kill-server" })),
        ("tmux", json!({ "command": "run-shell true" })),
        ("tmux", json!({ "command": "display 'unclosed" })),
        ("tmux", json!({})),
        ("list_panes", json!({ "session": "nosuch" })),
        // A pane a person made: agents close only what they made (close_own).
        ("close_pane", json!({ "pane": person.to_string() })),
    ];
    for (tool, args) in bad {
        err(&c, tool, args.clone()).await;
    }
    let checked = advice::CHECKED.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert!(checked >= bad.len() + 7, "{checked}");
    // Bounds are realistic: no error quotes the integer types' limits.
    let e = err(
        &c,
        "tmux",
        json!({ "command": "resize-pane -y 99999999999999999999" }),
    )
    .await;
    assert!(!e.to_string().contains("18446744073709551615"), "{e}");
}

/// run_command's timeout named close_pane, which the default policy hides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_command_is_stopped_with_what_the_caller_may_call() {
    for destroy in [false, true] {
        let rig = Rig::new(|c| {
            if destroy {
                c.policy.mcp.push(fugue_protocol::Tier::Destroy);
            }
        });
        let c = rig.client(1).await;
        let e = err(
            &c,
            "run_command",
            json!({ "command": "sleep 5", "timeout_ms": 300 }),
        )
        .await;
        let s = e["suggestion"].as_str().unwrap();
        assert_eq!(s.contains("close_pane"), destroy, "{e}");
        if !destroy {
            assert!(s.contains("C-c"), "{e}");
        }
    }
}
