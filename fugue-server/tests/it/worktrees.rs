//! A git worktree per agent, in a real temporary repository, through a real rmcp
//! client: spawn_agent with `worktree`, list_panes showing the branch and its changes,
//! and finish_worktree keeping, merging and removing, never deleting uncommitted work.

use crate::agent_rig::{Rig, err, ok};
use fugue_protocol::PaneId;
use fugue_server::origin::Origin;
use fugue_server::surfaces::mcp::handler::FugueMcp;
use rmcp::ServiceExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A repository with one commit and a subfolder, in its own temporary folder (the
/// worktrees go beside it).
fn repo() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("proj");
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("README"), "hello\n").unwrap();
    std::fs::write(repo.join("sub/keep"), "").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    (dir, repo)
}

fn agent_of(panes: &Value, pane: &str) -> Value {
    panes["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pane)
        .map(|p| p["agent"].clone())
        .unwrap_or_else(|| panic!("{pane} not listed: {panes}"))
}

async fn until(what: &str, mut f: impl AsyncFnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(20);
    while !f().await {
        assert!(Instant::now() < end, "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worktree_per_agent_spawned_listed_and_finished() {
    let (_keep, repo) = repo();
    let base = git(&repo, &["rev-parse", "HEAD"]);
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    ok(&c, "create_session", json!({"name": "w"})).await;

    // Spawned in a new worktree of the repository `cwd` is in, on a new branch.
    let s = ok(
        &c,
        "spawn_agent",
        json!({"agent": "shell", "worktree": true, "cwd": repo.to_str().unwrap()}),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    let wt = &s["worktree"];
    assert_eq!(wt["branch"], "fugue/shell-1", "{s}");
    assert_eq!(wt["base"], base.as_str());
    assert_eq!(
        (wt["dirty_files"].as_u64(), wt["commits"].as_u64()),
        (Some(0), Some(0))
    );
    let path = PathBuf::from(wt["path"].as_str().unwrap());
    assert_eq!(
        path,
        repo.parent().unwrap().join("proj.worktrees/fugue-shell-1")
    );
    assert!(git(&repo, &["worktree", "list"]).contains(path.to_str().unwrap()));
    assert_eq!(git(&path, &["rev-parse", "HEAD"]), base);

    // The agent works there: its shell's folder is the worktree.
    ok(
        &c,
        "send_input",
        json!({"pane": pane, "text": "pwd > where.txt", "submit": true}),
    )
    .await;
    until("where.txt", async || path.join("where.txt").exists()).await;
    until("where.txt written", async || {
        std::fs::read_to_string(path.join("where.txt")).is_ok_and(|t| !t.is_empty())
    })
    .await;
    assert_eq!(
        std::fs::read_to_string(path.join("where.txt"))
            .unwrap()
            .trim(),
        path.to_str().unwrap()
    );

    // list_panes: the branch and whether it has changes, in the compact rows too.
    let compact = ok(&c, "list_panes", json!({})).await;
    let row = compact["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pane)
        .cloned()
        .unwrap_or_default();
    assert_eq!(row["branch"], "fugue/shell-1", "{row}");
    assert_eq!(row["changes"], true, "{row}");
    let listed = agent_of(&ok(&c, "list_panes", json!({"detail": true})).await, &pane);
    assert_eq!(listed["worktree"]["branch"], "fugue/shell-1", "{listed}");
    assert_eq!(listed["worktree"]["dirty_files"], 1, "{listed}");

    // Not while the agent still runs in it.
    let e = err(
        &c,
        "finish_worktree",
        json!({"pane": pane, "action": "remove"}),
    )
    .await;
    assert_eq!(e["code"], "not_ready", "{e}");
    // Closing the pane keeps the worktree, and offers the choices.
    ok(&c, "close_pane", json!({"pane": pane})).await;
    assert!(path.join("where.txt").exists(), "closing deletes nothing");
    let shown = ok(&c, "finish_worktree", json!({"pane": pane})).await;
    assert_eq!(shown["done"], "shown");
    assert_eq!(shown["worktree"]["pane_open"], false, "{shown}");
    assert_eq!(
        shown["choices"],
        json!(["keep"]),
        "dirty: only keep: {shown}"
    );
    // Uncommitted work is never deleted.
    let e = err(
        &c,
        "finish_worktree",
        json!({"pane": pane, "action": "remove"}),
    )
    .await;
    assert_eq!(e["code"], "forbidden", "{e}");
    let m = e["message"].as_str().unwrap();
    assert!(m.contains("1 uncommitted file"), "{m}");
    assert!(e["suggestion"].as_str().unwrap().contains("commit"), "{e}");
    assert!(path.join("where.txt").exists());
    let e = err(
        &c,
        "finish_worktree",
        json!({"pane": pane, "action": "merge"}),
    )
    .await;
    assert_eq!(e["code"], "forbidden", "{e}");

    // Committed, it merges into the repository's branch; worktree and branch go.
    git(&path, &["add", "-A"]);
    git(&path, &["commit", "-q", "-m", "agent work"]);
    let listed = ok(&c, "finish_worktree", json!({"pane": pane})).await;
    assert_eq!(listed["worktree"]["commits"], 1, "{listed}");
    assert_eq!(listed["choices"], json!(["keep", "merge", "remove"]));
    let merged = ok(
        &c,
        "finish_worktree",
        json!({"pane": pane, "action": "merge"}),
    )
    .await;
    assert!(
        merged["done"]
            .as_str()
            .unwrap()
            .starts_with("merged 1 commit"),
        "{merged}"
    );
    assert!(repo.join("where.txt").exists(), "the work landed on main");
    assert!(!path.exists(), "the worktree is removed");
    assert!(git(&repo, &["branch", "--list", "fugue/shell-1"]).is_empty());
    let e = err(&c, "finish_worktree", json!({"pane": pane})).await;
    assert_eq!(e["code"], "invalid_argument", "no longer tracked: {e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worktrees_from_the_callers_pane_named_branches_remove_and_keep() {
    let (_keep, repo) = repo();
    let rig = Rig::new(|_| {});
    let c = rig.client(1).await;
    // The caller runs in a pane whose shell is in the repository's subfolder.
    let s = ok(
        &c,
        "create_session",
        json!({"name": "w", "cwd": repo.join("sub").to_str().unwrap()}),
    )
    .await;
    let home: PaneId = s["pane"].as_str().unwrap().parse().unwrap();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = FugueMcp::new(
        Arc::clone(&rig.server),
        Origin::Mcp {
            connection: 2,
            caller_pane: Some(home),
            http: false,
        },
    );
    tokio::spawn(async move {
        if let Ok(r) = handler.serve(server_io).await {
            let _ = r.waiting().await;
        }
    });
    let agent = ().serve(client_io).await.unwrap();
    let s = ok(
        &agent,
        "spawn_agent",
        json!({"agent": "shell", "worktree": "agent/two"}),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    let path = PathBuf::from(s["worktree"]["path"].as_str().unwrap());
    assert_eq!(s["worktree"]["branch"], "agent/two");
    assert!(
        path.ends_with("proj.worktrees/agent-two"),
        "{}",
        path.display()
    );
    // It starts in the same subfolder of the worktree.
    until("the agent's folder", async || {
        let panes = ok(&agent, "list_panes", json!({"detail": true})).await;
        panes["panes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == pane && p["cwd"] == path.join("sub").to_str().unwrap())
    })
    .await;
    // A clean worktree with no commits is removed with its branch.
    ok(&agent, "close_pane", json!({"pane": pane})).await;
    let r = ok(
        &agent,
        "finish_worktree",
        json!({"pane": pane, "action": "remove"}),
    )
    .await;
    assert!(r["done"].as_str().unwrap().starts_with("removed"), "{r}");
    assert!(!path.exists());
    assert!(git(&repo, &["branch", "--list", "agent/two"]).is_empty());

    // Keep: left as it is, no longer tracked.
    let s = ok(
        &agent,
        "spawn_agent",
        json!({"agent": "shell", "worktree": true}),
    )
    .await;
    let pane = s["pane"].as_str().unwrap().to_string();
    let path = PathBuf::from(s["worktree"]["path"].as_str().unwrap());
    // The agent's end offers the choices in its pane, which stays showing its status.
    ok(
        &agent,
        "send_input",
        json!({"pane": pane, "text": "exit", "submit": true}),
    )
    .await;
    rig.until_screen(&pane, "fugue agent worktree -t").await;
    let shown = ok(&agent, "finish_worktree", json!({"pane": pane})).await;
    assert_eq!(shown["worktree"]["pane_open"], false, "{shown}");
    assert_eq!(shown["choices"], json!(["keep", "remove"]), "{shown}");
    ok(
        &agent,
        "finish_worktree",
        json!({"pane": pane, "action": "keep"}),
    )
    .await;
    assert!(path.exists());
    assert!(git(&repo, &["worktree", "list"]).contains(path.to_str().unwrap()));

    // Not a repository: refused, naming what to do.
    let outside = tempfile::tempdir().unwrap();
    let e = err(
        &c,
        "spawn_agent",
        json!({"agent": "shell", "worktree": true, "cwd": outside.path().to_str().unwrap()}),
    )
    .await;
    assert_eq!(e["code"], "invalid_argument", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("not in a git repository"),
        "{e}"
    );
}
