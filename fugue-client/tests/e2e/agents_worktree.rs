//! `fugue agent spawn --worktree` and `fugue agent worktree` through the real binaries,
//! in a real temporary git repository.

use super::harness::World;
use std::path::Path;
use std::process::Command;

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
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn the_cli_spawns_an_agent_in_a_worktree_and_finishes_it() {
    let w = World::new();
    let repo = w.path("home/proj");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("README"), "x\n").unwrap();
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    w.ok(&["new-session", "-d", "-s", "s"]);

    let pane = w
        .ok(&[
            "agent",
            "spawn",
            "-c",
            repo.to_str().unwrap(),
            "--worktree=agent/cli",
            "shell",
        ])
        .trim()
        .to_string();
    assert!(pane.starts_with('%'), "{pane}");
    let path = w.path("home/proj.worktrees/agent-cli");
    assert!(path.join("README").exists());
    let ls = w.ok(&["agent", "ls"]);
    assert!(ls.contains("branch=agent/cli"), "{ls}");
    assert!(!ls.contains("(changes)"), "{ls}");
    std::fs::write(path.join("new"), "y\n").unwrap();
    let ls = w.ok(&["agent", "ls"]);
    assert!(ls.contains("branch=agent/cli (changes)"), "{ls}");

    w.ok(&["kill-pane", "-t", &pane]);
    // Uncommitted work: removal refused, saying how many files and what to do.
    let out = w.run(&["agent", "worktree", "-t", &pane, "--remove"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 uncommitted file"), "{err}");
    assert!(path.join("new").exists());
    std::fs::remove_file(path.join("new")).unwrap();
    let shown = w.ok(&["agent", "worktree", "-t", &pane]);
    assert!(shown.contains("--keep | --remove"), "{shown}");
    let removed = w.ok(&["agent", "worktree", "-t", &pane, "--remove"]);
    assert!(removed.contains("removed"), "{removed}");
    assert!(!path.exists());
    w.ok(&["kill-server"]);
}
