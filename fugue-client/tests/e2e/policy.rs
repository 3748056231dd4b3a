//! The rules an agent is held to follow its work into the panes it creates: a program
//! started by an agent, calling `fugue` itself, is still that agent.

use super::harness::{World, eventually};

fn audit_lines(w: &World) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Issue 4 review: `<fugue:spawn command="fugue kill-session -t victim"/>` killed the
/// session, because the spawned program's CLI call counted as a person's.
#[test]
fn a_cli_call_from_a_sideband_spawned_pane_keeps_the_sideband_rules() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "victim", "-x", "120", "-y", "40"]);
    w.ok(&[
        "new",
        "-d",
        "-s",
        "agent",
        "-x",
        "120",
        "-y",
        "40",
        "--sideband",
    ]);
    let fugue = super::harness::fugue_bin();
    w.ok(&[
        "send-keys",
        "-t",
        "agent",
        &format!(
            "printf '<fugue:spawn key=\"%s\" command=\"{} kill-session -t victim; sleep 300\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"",
            fugue.display()
        ),
        "Enter",
    ]);
    let refused = eventually("the spawned pane's kill-session to be refused", || {
        audit_lines(&w).into_iter().find(|l| {
            l["command"] == "kill-session"
                && l["origin"]
                    .as_str()
                    .is_some_and(|o| o.contains("acting for a sideband tag"))
        })
    });
    assert_eq!(refused["result"], "forbidden", "{refused}");
    let sessions = w.ok(&["ls", "-F", "#{session_name}"]);
    assert!(sessions.lines().any(|l| l == "victim"), "{sessions}");
}

/// A chain of panes made by `fugue split-window` from sideband-spawned panes is bounded
/// by the sideband depth limit, as a chain of spawn tags is.
#[test]
fn cli_splits_from_sideband_panes_count_toward_the_depth_limit() {
    let w = World::new();
    let cfg = w.path("config/depth.toml");
    std::fs::write(&cfg, "[sideband]\nmax_depth = 2\n").unwrap();
    w.ok(&[
        "-f",
        cfg.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "d",
        "-x",
        "200",
        "-y",
        "60",
        "--sideband",
    ]);
    let fugue = super::harness::fugue_bin();
    // Each generation splits itself once, running the same command: unbounded without
    // the limit.
    let script = w.path("chain.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n{} split-window -d -- {} ; exec sleep 300\n",
            fugue.display(),
            script.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        "d",
        &format!(
            "printf '<fugue:spawn key=\"%s\" command=\"{}\"/>\\n' \"$FUGUE_SIDEBAND_KEY\"",
            script.display()
        ),
        "Enter",
    ]);
    // The first pane (depth 0) spawns depth 1 by tag; depth 1 splits to depth 2; depth
    // 2's split would be depth 3 and is refused.
    let refused = eventually("a split refused for depth", || {
        audit_lines(&w)
            .into_iter()
            .find(|l| l["command"] == "split-window" && l["result"] == "limit_exceeded")
    });
    assert!(
        refused["origin"]
            .as_str()
            .is_some_and(|o| o.contains("acting for a sideband tag")),
        "{refused}"
    );
    // The refusal is audited once the command was answered: a pane it made anyway
    // would be listed by now, and nothing else is left to make one.
    assert_eq!(w.panes().len(), 3, "{:#?}", w.panes());
}
