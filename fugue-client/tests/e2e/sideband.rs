//! Sideband tags printed in real panes.

use super::harness::{World, eventually};
use std::path::PathBuf;

fn pane_count(w: &World) -> usize {
    w.panes().len()
}

fn sideband_dir(w: &World, pane: &str) -> PathBuf {
    w.socket.with_file_name(format!(
        "test.sideband/pane-{}",
        pane.trim_start_matches('%')
    ))
}

fn capture(w: &World, target: &str) -> String {
    w.ok(&["capture-pane", "-p", "-t", target])
}

#[test]
fn a_spawn_tag_in_a_sideband_pane_adds_one_pane_and_disappears() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "sb",
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
    // The shell echoes the typed line, whose tag holds `%s` where printf puts the
    // pane's key: the echo is shown as text, printf's tag runs.
    w.ok(&[
        "send-keys",
        "-t",
        "sb",
        "printf '<fugue:spawn id=\"s\" key=\"%s\" command=\"sleep 300\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"; echo done-$((1+1))",
        "Enter",
    ]);
    eventually("the command to finish", || {
        capture(&w, "sb").contains("done-2").then_some(())
    });
    eventually("one new pane", || (pane_count(&w) == 2).then_some(()));
    let screen = capture(&w, "sb:0.0");
    assert_eq!(
        screen.matches("<fugue:").count(),
        1,
        "only the echo's tag is on screen:\n{screen}"
    );
    assert!(
        screen.contains("printf '<fugue:spawn id=\"s\" key=\"%s\""),
        "the echo stays:\n{screen}"
    );
    let result = eventually("a result file", || {
        std::fs::read_to_string(sideband_dir(&w, "%1").join("s.json")).ok()
    });
    let v: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(
        (v["command"].as_str(), v["ok"].as_bool()),
        (Some("spawn"), Some(true)),
        "{v}"
    );
    assert_eq!(v["result"]["pane"], "%2");
    // The spawned pane runs the command and does not scan for tags itself.
    let panes = w.panes();
    let child = panes.iter().find(|p| p["id"] == "%2").unwrap();
    // `sleep 300` runs under `sh -c`, the foreground group's leader (tmux reports the same).
    assert!(
        child["command"] == "sleep" || child["command"] == "sh",
        "{child}"
    );
    assert_eq!(child["sideband"], false);
    // Still one pane more after the repaint window, and nothing else ran.
    w.ok(&["send-keys", "-t", "sb:0.0", "echo settled", "Enter"]);
    eventually("settled", || {
        capture(&w, "sb:0.0").contains("\nsettled").then_some(())
    });
    assert_eq!(pane_count(&w), 2);
}

#[test]
fn a_plain_pane_runs_nothing_and_shows_the_tag() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "plain", "-x", "160", "-y", "40"]);
    let file = w.path("tags.txt");
    let mut text = String::new();
    for i in 0..50 {
        text.push_str(&format!(
            "<fugue:spawn id=\"x{i}\" command=\"sleep 300\"/> <fugue:notify>hi</fugue:notify>\n"
        ));
    }
    std::fs::write(&file, text).unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        "plain",
        &format!("cat {}; echo cat-done", file.display()),
        "Enter",
    ]);
    eventually("cat to finish", || {
        capture(&w, "plain").contains("\ncat-done").then_some(())
    });
    assert!(capture(&w, "plain").contains("<fugue:spawn id=\"x49\" command=\"sleep 300\"/>"));
    w.ok(&[
        "send-keys",
        "-t",
        "plain",
        "printf '<fugue:spawn command=\"sleep 300\"/>\\n'",
        "Enter",
    ]);
    eventually("the printf", || {
        (capture(&w, "plain")
            .matches("<fugue:spawn command=")
            .count()
            >= 2)
            .then_some(())
    });
    assert_eq!(pane_count(&w), 1);
    assert!(!sideband_dir(&w, "%1").exists());
}

#[test]
fn split_wrapped_repainted_malformed_and_unknown_tags() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "fx",
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
    let script = w.path("fixtures.sh");
    std::fs::write(
        &script,
        concat!(
            // A tag split across two reads.
            "k=\"$FUGUE_SIDEBAND_KEY\"\n",
            "printf 'a<fugue:re'; sleep 0.3; printf 'ad id=\"split\" key=\"%s\" lines=\"2\"/>b\\n' \"$k\"\n",
            // Wrapped by a TUI: a line break and indentation, with SGR inside.
            "printf '\\033[1m<fugue:list \\033[0m\\r\\n    id=\"wrapped\" key=\"%s\"/>\\033[32mgreen\\033[0m\\n' \"$k\"\n",
            // The same tag repainted five times runs once.
            "for i in 1 2 3 4 5; do printf '<fugue:spawn id=\"once\" key=\"%s\" command=\"sleep 300\"/>\\n' \"$k\"; done\n",
            // Malformed and unknown: shown as they are.
            "printf '<fugue:frobnicate x=\"1\"/> <fugue:spawn command=unquoted/> <fugue:spawn\\n'\n",
            "echo fixtures-done\n",
        ),
    )
    .unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        "fx",
        &format!("sh {}", script.display()),
        "Enter",
    ]);
    eventually("the fixtures", || {
        capture(&w, "fx:0.0")
            .contains("fixtures-done")
            .then_some(())
    });
    let dir = sideband_dir(&w, "%1");
    let read = eventually("the split tag's result", || {
        std::fs::read_to_string(dir.join("split.json")).ok()
    });
    let read: serde_json::Value = serde_json::from_str(&read).unwrap();
    assert_eq!(read["ok"], true, "{read}");
    assert_eq!(read["command"], "read");
    let list = eventually("the wrapped tag's result", || {
        std::fs::read_to_string(dir.join("wrapped.json")).ok()
    });
    assert!(list.contains("\"panes\""));
    eventually("the spawn", || {
        std::fs::read_to_string(dir.join("once.json")).ok()
    });
    assert_eq!(pane_count(&w), 2, "the repainted spawn ran once");
    let screen = capture(&w, "fx:0.0");
    assert!(
        screen.contains("\nab\n"),
        "text around the split tag stays:\n{screen}"
    );
    assert!(screen.contains("\ngreen\n"), "{screen}");
    assert!(
        screen.contains("<fugue:frobnicate x=\"1\"/> <fugue:spawn command=unquoted/> <fugue:spawn"),
        "{screen}"
    );
    assert!(
        !screen.contains("<fugue:read") && !screen.contains("<fugue:list"),
        "{screen}"
    );
    // The escape sequences around and inside the wrapped tag kept their effect.
    let esc = w.ok(&["capture-pane", "-p", "-e", "-t", "fx:0.0"]);
    assert!(esc.contains("\x1b[32mgreen"), "{esc:?}");
}

/// A program can print a tag before the command that started it has attached it
/// (a loaded machine does this by chance; the debug server's
/// `FUGUE_TEST_SPAWN_DELAY_MS` every time): the tag waits for the attach instead of
/// being refused as "still starting" (the depth test failed so in CI).
#[test]
fn a_tag_printed_before_its_pane_is_attached_still_runs() {
    let w = World::new();
    let script = w.path("early.sh");
    std::fs::write(
        &script,
        "printf '<fugue:spawn key=\"%s\" command=\"sleep 300\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"; exec sleep 300\n",
    )
    .unwrap();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "early",
        "-e",
        "FUGUE_TEST_SPAWN_DELAY_MS=1500",
        "--sideband",
        "--",
        "sh",
        &script.to_string_lossy(),
    ]);
    let result = eventually("the tag's result", || {
        std::fs::read_to_string(sideband_dir(&w, "%1").join("tag-1.json")).ok()
    });
    let v: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert!(v.get("error").is_none(), "refused: {v}");
    assert_eq!(pane_count(&w), 2, "{v}");
}

#[test]
fn a_self_replicating_spawn_stops_at_the_depth_limit() {
    let w = World::new();
    let script = w.path("replicate.sh");
    std::fs::write(
        &script,
        format!(
            "printf '<fugue:spawn key=\"%s\" command=\"sh {}\" sideband=\"true\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"; exec sleep 300\n",
            script.display()
        ),
    )
    .unwrap();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "run",
        "-x",
        "200",
        "-y",
        "60",
        "--sideband",
        "--",
        "sh",
        &script.to_string_lossy(),
    ]);
    // Depth 3: the first pane's child, grandchild and great-grandchild; no more.
    // (Waited for by hand, so a failure says how many panes there were and why.)
    let deadline = std::time::Instant::now() + super::harness::TIMEOUT;
    while pane_count(&w) != 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the chain did not stop at depth 3: {} panes\n{:#?}\nserver log:\n{}",
            pane_count(&w),
            w.panes(),
            w.log()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let last = sideband_dir(&w, "%4");
    let refused = eventually("the refusal", || {
        std::fs::read_to_string(last.join("tag-1.json")).ok()
    });
    let v: serde_json::Value = serde_json::from_str(&refused).unwrap();
    assert_eq!(v["error"]["code"], "limit_exceeded", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("generations")
    );
    // The server stays responsive.
    let start = std::time::Instant::now();
    w.ok(&["ls"]);
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(pane_count(&w), 4);
    let log = std::fs::read_to_string(w.state_dir().join("server-test.log")).unwrap_or_default();
    assert!(log.contains("refused"), "refusals are logged");
}

/// Runs a script printing a spawn tag per id in the pane `many` and waits for every
/// result.
fn spawn_children(w: &World, ids: &[String]) {
    let script = w.path(&format!("{}.sh", ids[0]));
    let mut text = String::new();
    for id in ids {
        text.push_str(&format!("printf '<fugue:spawn id=\"{id}\" key=\"%s\" command=\"sleep 300\" direction=\"down\" size=\"5\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"\n"));
    }
    std::fs::write(&script, text).unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        "many:0.0",
        &format!("sh {}", script.display()),
        "Enter",
    ]);
    let dir = sideband_dir(w, "%1");
    eventually("all results", || {
        ids.iter()
            .all(|id| dir.join(format!("{id}.json")).exists())
            .then_some(())
    });
}

fn refused(w: &World, ids: &[String]) -> Vec<String> {
    let dir = sideband_dir(w, "%1");
    ids.iter()
        .filter(|id| {
            let text = std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap();
            assert!(
                text.contains("\"ok\": true") || text.contains("limit_exceeded"),
                "{text}"
            );
            text.contains("\"ok\": false")
        })
        .cloned()
        .collect()
}

#[test]
fn one_pane_may_keep_only_so_many_children() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "many",
        "-x",
        "250",
        "-y",
        "250",
        "--sideband",
    ]);
    w.ok(&["select-layout", "-t", "many", "tiled"]);
    let first: Vec<String> = (0..18).map(|i| format!("c{i}")).collect();
    spawn_children(&w, &first);
    // Exactly the limit: tags run in order, the 17th and 18th are refused.
    let dir = sideband_dir(&w, "%1");
    let all: Vec<String> = first
        .iter()
        .map(|id| std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap())
        .collect();
    assert_eq!(pane_count(&w) - 1, 16, "{all:#?}");
    assert_eq!(refused(&w, &first), ["c16", "c17"]);

    // Closing children counts them down: as many new ones fit again, and no more.
    for p in ["%2", "%5", "%9"] {
        w.ok(&["kill-pane", "-t", p]);
    }
    eventually("three children gone", || {
        (pane_count(&w) - 1 == 13).then_some(())
    });
    // Let the rate limit's bucket refill, so that only the count can refuse. (Part of
    // the scenario: the time must pass.)
    std::thread::sleep(std::time::Duration::from_secs(1));
    let second: Vec<String> = (0..4).map(|i| format!("d{i}")).collect();
    spawn_children(&w, &second);
    assert_eq!(pane_count(&w) - 1, 16);
    assert_eq!(refused(&w, &second), ["d3"]);
}

#[test]
fn programs_named_in_enable_for_are_scanned_and_mcp_takes_precedence() {
    enable_for_then_mcp("");
}

/// Issue 12 review: `sideband-mcp` is a Write command; with MCP limited to reads it was
/// refused, and a read-only agent's pane stayed scanned (able to act through tags). The
/// policy lets an MCP connection mark its own pane whatever its tiers.
#[test]
fn issue_12_a_read_only_mcp_agent_still_turns_its_scanning_off() {
    enable_for_then_mcp("[policy]\nmcp = [\"read\"]\n");
}

/// Writes the config file and a stand-in agent at `path` (under the world): it prints
/// each line it reads with `@KEY@` replaced by its key, as an agent that knows its key
/// prints its tags (the terminal's echo of the line keeps `@KEY@`); `extra` is a shell
/// line run first for each line read.
fn keyed_echo_agent(w: &World, config: &str, path: &str, extra: &str) -> std::path::PathBuf {
    let dir = w.path("config/fugue");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), config).unwrap();
    let agent = w.path(path);
    std::fs::create_dir_all(agent.parent().unwrap()).unwrap();
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  {extra}\n  printf '%s\\n' \"$line\" | sed \"s/@KEY@/$FUGUE_SIDEBAND_KEY/\"\ndone\n"
    );
    std::fs::write(&agent, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&agent, std::fs::Permissions::from_mode(0o755)).unwrap();
    agent
}

/// Has the agent in session `ag` (pane %1) print a keyed notify tag, and waits for it
/// to run.
fn agent_tag_runs(w: &World) {
    w.ok(&[
        "send-keys",
        "-t",
        "ag",
        "<fugue:notify id=\"n1\" key=\"@KEY@\">hello</fugue:notify>",
        "Enter",
    ]);
    let dir = sideband_dir(w, "%1");
    let r = eventually("the agent's tag to run", || {
        std::fs::read_to_string(dir.join("n1.json")).ok()
    });
    assert!(r.contains("\"ok\": true"), "{r}");
}

/// Claude Code 2.1's npm package runs (and respawns teammates as)
/// `.../@anthropic-ai/claude-code/bin/claude.exe`: `enable_for = ["claude"]` (the
/// default) covers it.
#[test]
fn a_program_installed_as_claude_exe_counts_as_claude_for_enable_for() {
    let w = World::new();
    let agent = keyed_echo_agent(&w, "", "lib/@anthropic-ai/claude-code/bin/claude.exe", ":");
    w.ok(&["new", "-d", "-s", "ag", "--", &agent.to_string_lossy()]);
    agent_tag_runs(&w);
}

fn enable_for_then_mcp(config: &str) {
    let w = World::new();
    let connect = format!(
        "if [ \"$line\" = connect-mcp ]; then (sleep 60 | '{}' mcp >/dev/null 2>&1 &); fi",
        super::harness::fugue_bin().display()
    );
    let agent = keyed_echo_agent(&w, config, "bin/claude", &connect);
    w.ok(&[
        "new",
        "-d",
        "-s",
        "ag",
        "-x",
        "160",
        "-y",
        "40",
        "--",
        &agent.to_string_lossy(),
    ]);
    agent_tag_runs(&w);

    // Once the agent connects over MCP (auto mode), its output is not scanned. The
    // bridge runs inside the agent's pane, as it would under Claude Code (the server
    // finds the caller's pane from the process tree); its stdin stays open and silent.
    w.ok(&["send-keys", "-t", "ag", "connect-mcp", "Enter"]);
    let log = w.state_dir().join("server-test.log");
    eventually("the MCP connection", || {
        std::fs::read_to_string(&log)
            .ok()
            .filter(|l| l.contains("calling from pane %1 connected"))
    });
    w.ok(&[
        "send-keys",
        "-t",
        "ag",
        "<fugue:notify id=\"n2\" key=\"@KEY@\">again</fugue:notify>",
        "Enter",
    ]);
    eventually("the line shown as text", || {
        capture(&w, "ag")
            .contains("<fugue:notify id=\"n2\" key=\"")
            .then_some(())
    });
    assert!(!sideband_dir(&w, "%1").join("n2.json").exists());
    // The switch went through the dispatcher (issue 12): it is in the audit log.
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap();
    assert!(
        audit
            .lines()
            .any(|l| l.contains("\"sideband-mcp\"") && l.contains("%1")),
        "no sideband-mcp record in the audit log:\n{audit}"
    );
}

/// Issue 12: a `<fugue:spawn>` with content was a split and a `send-keys` composed in
/// the surface (two audit records, the second with no tie to the tag). Now the content
/// is the split's task: one command, one audit record, and the task is typed.
#[test]
fn issue_12_a_spawn_tag_with_content_is_one_command_and_one_record() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "task",
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
    w.ok(&[
        "send-keys",
        "-t",
        "task",
        "printf '<fugue:spawn id=\"t\" key=\"%s\" command=\"cat\">typed-task-%s</fugue:spawn>\\n' \"$FUGUE_SIDEBAND_KEY\" 42",
        "Enter",
    ]);
    eventually("the new pane to get its task", || {
        (pane_count(&w) == 2 && capture(&w, "%2").contains("typed-task-42")).then_some(())
    });
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap();
    let from_tag: Vec<&str> = audit
        .lines()
        .filter(|l| l.contains("\"via\":\"spawn\"") || l.contains("sideband"))
        .collect();
    let splits = from_tag
        .iter()
        .filter(|l| l.contains("\"split-window\""))
        .count();
    let typed = from_tag
        .iter()
        .filter(|l| l.contains("\"send-keys\""))
        .count();
    assert_eq!(
        (splits, typed),
        (1, 0),
        "the tag's records:\n{}",
        from_tag.join("\n")
    );
    let split = from_tag
        .iter()
        .find(|l| l.contains("\"split-window\""))
        .unwrap();
    assert!(
        split.contains("\"input_bytes\":13"),
        "the task's size is in the record: {split}"
    );
}

/// Claude Code runs its Bash tool and its hooks with no controlling terminal, so the
/// `> /dev/tty` recipe fails there (issue 27). `fugue sideband` gives the same tag to
/// the pane from such a process: it runs as a printed one would, and a wrong key is
/// refused.
#[test]
fn a_process_with_no_terminal_gives_its_pane_tags_through_fugue_sideband() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "nt",
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
    let fugue = super::harness::fugue_bin();
    // As Claude Code's tools run: a new session (setsid), stdin from nowhere.
    let line = format!(
        "setsid -w sh -c 'printf x > /dev/tty' </dev/null 2>/dev/null; echo tty-$?; \
         setsid -w {f} sideband \"$(printf '<fugue:spawn id=\"nt\" key=\"%s\" command=\"sleep 300\"/>' \"$FUGUE_SIDEBAND_KEY\")\" </dev/null; echo sent-$?; \
         setsid -w {f} sideband '<fugue:notify key=\"0123456789abcdef0123456789abcdef\">x</fugue:notify>' </dev/null 2>/dev/null; echo wrong-$?",
        f = fugue.display()
    );
    w.ok(&["send-keys", "-t", "nt", &line, "Enter"]);
    let screen = eventually("the three commands", || {
        let c = capture(&w, "nt");
        c.contains("\nwrong-").then_some(c)
    });
    // The recipe's way fails with no terminal; fugue sideband's does not.
    assert!(
        screen.contains("\ntty-") && !screen.contains("\ntty-0"),
        "{screen}"
    );
    assert!(screen.contains("\nsent-0"), "{screen}");
    assert!(screen.contains("\nwrong-1"), "{screen}");
    let result = eventually("the spawn's result", || {
        std::fs::read_to_string(sideband_dir(&w, "%1").join("nt.json")).ok()
    });
    let v: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(
        (v["command"].as_str(), v["ok"].as_bool()),
        (Some("spawn"), Some(true)),
        "{v}"
    );
    assert_eq!(pane_count(&w), 2);
}

/// `fugue sideband -` reads the tags from standard input: Gemini CLI's shell tool
/// refuses command substitution (`$(printf ...)`), so its recipe pipes `printf`'s
/// output in instead. The same key check applies.
#[test]
fn fugue_sideband_reads_tags_from_standard_input() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "si",
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
    let line = format!(
        "printf '<fugue:spawn id=\"si\" key=\"%s\" command=\"sleep 300\"/>' \"$FUGUE_SIDEBAND_KEY\" | {f} sideband -; echo piped-$?; \
         echo '<fugue:notify key=\"0123456789abcdef0123456789abcdef\">x</fugue:notify>' | {f} sideband - 2>/dev/null; echo wrong-$?",
        f = super::harness::fugue_bin().display()
    );
    w.ok(&["send-keys", "-t", "si", &line, "Enter"]);
    let screen = eventually("the two commands", || {
        let c = capture(&w, "si");
        c.contains("\nwrong-").then_some(c)
    });
    assert!(screen.contains("\npiped-0"), "{screen}");
    assert!(screen.contains("\nwrong-1"), "{screen}");
    let result = eventually("the spawn's result", || {
        std::fs::read_to_string(sideband_dir(&w, "%1").join("si.json")).ok()
    });
    let v: serde_json::Value = serde_json::from_str(&result).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(pane_count(&w), 2);
}
