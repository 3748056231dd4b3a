//! Issue 14, paste buffers in the terminal client (`C-b ]`, `C-b #`, `C-b =`) and over
//! MCP (an agent copies a pane region into a buffer and pastes it into another pane).

use super::harness::World;
use super::mcp::{launch, ok};
use serde_json::json;

/// A world with a session `x` running `cat` and a client attached to it.
fn attached_to_cat() -> (World, super::harness::Tui) {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x", "--", "cat"]);
    let t = w.tui(&["attach", "-t", "x"], 100, 30);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    (w, t)
}

/// `C-b ]` pastes the most recent buffer into the active pane: `cat` echoes it back.
#[test]
fn prefix_bracket_pastes_the_latest_buffer_into_cat() {
    let (w, mut t) = attached_to_cat();
    w.ok(&["set-buffer", "older"]);
    w.ok(&["set-buffer", "pasted-by-key"]);
    t.prefix(b"]");
    t.wait_text("pasted-by-key");
    assert!(!t.contents().contains("older"));
}

/// `C-b ]` pastes bracketed when the program asked (mode 2004): the program reads the
/// markers (shown by od), as tmux's `paste-buffer -p` on `]`.
#[test]
fn prefix_bracket_pastes_bracketed_when_the_program_asked() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x"]);
    let mut t = w.tui(&["attach", "-t", "x"], 100, 30);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    w.ok(&["send-keys", "-t", "x", "-l", "stty raw -echo; printf '\\033[?2004hRE''ADY\\r\\n'; dd bs=1 count=14 2>/dev/null | od -c | tr -s ' '; printf '\\033[?2004l'; stty sane; echo END"]);
    w.ok(&["send-keys", "-t", "x", "Enter"]);
    // Pasted before the terminal is raw and in bracketed paste mode, the bytes would
    // be the line discipline's. (Typed as `RE''ADY`: the echoed line does not match.)
    t.wait_text("READY");
    w.ok(&["set-buffer", "xy"]);
    t.prefix(b"]");
    // od's last line: the offset after the 14 bytes.
    t.wait_text("0000016");
    let shown = t.contents();
    assert!(shown.contains("033 [ 2 0 0 ~ x y 033 [ 2 0 1 ~"), "{shown}");
}

/// `C-b #` lists the buffers as `list-buffers` prints them; `C-b =` chooses one with a
/// preview: j moves down, Enter pastes it, d deletes.
#[test]
fn prefix_hash_lists_and_prefix_equals_chooses() {
    let (w, mut t) = attached_to_cat();
    w.ok(&["set-buffer", "first-buffer\nsecond line"]);
    w.ok(&["set-buffer", "-b", "named", "the-named-one"]);
    t.prefix(b"#");
    t.wait_text("named: 13 bytes: \"the-named-one\"");
    t.wait_text("buffer0: 24 bytes: \"first-buffer\\nsecond line\"");
    t.send(b"q");
    t.wait("the list closed", |s| {
        !s.contents().contains("list-buffers")
    });

    t.prefix(b"=");
    t.wait_text("choose-buffer");
    // The selected (most recent) buffer's preview.
    t.wait_text("the-named-one");
    t.send(b"j");
    t.wait_text("second line");
    t.send(b"\r");
    t.wait("the chooser closed and cat echoed the paste", |s| {
        !s.contents().contains("choose-buffer") && s.contents().contains("first-buffer")
    });
    // d deletes the selected buffer and the list follows.
    t.prefix(b"=");
    t.wait_text("choose-buffer");
    // The list has arrived (d before it would have nothing to delete).
    t.wait_text("named: 13");
    t.send(b"d");
    t.wait("named deleted", |s| !s.contents().contains("named: 13"));
    t.send(b"\x1b");
    let left = w.ok(&["list-buffers", "-F", "#{buffer_name}"]);
    assert_eq!(left.trim(), "buffer0");
}

/// An agent copies a region of one pane into a buffer (the text never passes through
/// it), lists, shows and pastes it into another pane, and deletes it.
#[test]
fn an_agent_copies_a_pane_region_and_pastes_it_into_another_pane() {
    let w = World::new();
    let cfg = w.path("config/mcp.toml");
    std::fs::write(&cfg, "").unwrap();
    w.ok(&["new-session", "-d", "-s", "x", "--", "cat"]);
    w.ok(&["split-window", "-t", "x", "-d", "--", "cat"]);
    let panes = w.panes();
    let (p0, p1) = (
        panes[0]["id"].as_str().unwrap().to_string(),
        panes[1]["id"].as_str().unwrap().to_string(),
    );
    w.ok(&["send-keys", "-t", &p0, "-l", "copy-me-please"]);
    w.ok(&["send-keys", "-t", &p0, "Enter"]);
    super::harness::eventually("the echo", || {
        w.ok(&["capture-pane", "-p", "-t", &p0])
            .contains("copy-me-please")
            .then_some(())
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = launch(&w, &cfg).await;
        let tools = c.list_tools(None).await.unwrap().tools;
        // Buffers are a `tmux` tool call away, as tmux's buffer commands.
        assert!(tools.iter().any(|t| t.name == "tmux"));
        let tmux = |line: String| json!({ "command": line });
        ok(
            &c,
            "tmux",
            tmux(format!("capture-pane -t {p0} -S 0 -E 0 -b agent")),
        )
        .await;
        let list = ok(&c, "tmux", tmux("list-buffers -F '#{buffer_name}'".into())).await;
        assert_eq!(list["output"], "agent\n", "{list}");
        let shown = ok(&c, "tmux", tmux("show-buffer -b agent".into())).await;
        assert!(
            shown["output"]
                .as_str()
                .unwrap()
                .starts_with("copy-me-please"),
            "{shown}"
        );
        ok(
            &c,
            "tmux",
            tmux(format!("paste-buffer -b agent -t {p1} -d")),
        )
        .await;
        ok(
            &c,
            "tmux",
            tmux("set-buffer by-text ; delete-buffer".into()),
        )
        .await;
        let list = ok(&c, "tmux", tmux("list-buffers".into())).await;
        assert_eq!(list["output"], "", "{list}");
        c.cancel().await.unwrap();
    });
    super::harness::eventually("the paste in the other pane", || {
        w.ok(&["capture-pane", "-p", "-t", &p1])
            .contains("copy-me-please")
            .then_some(())
    });
}
