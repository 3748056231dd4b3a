//! Agents' git worktrees: `spawn-agent` with `worktree` makes one of the caller's
//! repository (from its HEAD) and starts the agent in it; `list-panes` shows each
//! agent's branch and whether it has changes; `agent-worktree` keeps, merges or
//! removes it once the work is done, never deleting uncommitted work.
//!
//! Everything here runs `git` (bounded in time, never under the tree's lock) and
//! reads its answers; the record of which pane has which worktree lives in
//! `agents::worktrees`, past the pane's close.

use super::Exec;
use crate::agents::worktrees::Record;
use crate::server::Server;
use fugue_protocol::{
    AgentWorktree, CommandError, ErrorCode, PaneId, Response, Target, WorktreeAction, WorktreeInfo,
    WorktreeOutcome, WorktreeSpec,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The longest one git command may take (a worktree of a big repository checks out
/// every file).
const GIT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most auto-named branches tried (`fugue/PRESET-1`, `-2`, ...).
const MAX_AUTO: u32 = 1000;

/// The longest branch name taken.
const MAX_BRANCH: usize = 200;

/// Git's own words in an error, at most this long.
const MAX_GIT_MESSAGE: usize = 500;

/// Runs git in `dir`; its trimmed stdout, or its stderr as the error.
async fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let run = tokio::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = match tokio::time::timeout(GIT_TIMEOUT, run).await {
        Err(_) => return Err(format!("git {} took over {GIT_TIMEOUT:?}", args.join(" "))),
        Ok(Err(e)) => return Err(format!("cannot run git: {e}")),
        Ok(Ok(o)) => o,
    };
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        let cut = (0..=MAX_GIT_MESSAGE.min(err.len()))
            .rev()
            .find(|i| err.is_char_boundary(*i))
            .unwrap_or(0);
        Err(err[..cut].to_string())
    }
}

fn bad(message: String) -> CommandError {
    CommandError::invalid_argument("worktree", message)
}

/// A worktree made for an agent that has not started yet.
pub struct Made {
    pub record: Record,
    /// Where the agent starts: the worktree, in the folder the caller was in.
    pub start: PathBuf,
    /// Whether the branch was made here (and so may be deleted if the spawn fails).
    new_branch: bool,
}

/// The branch's folder name: its name with `/` as `-`.
fn folder_name(branch: &str) -> String {
    branch
        .chars()
        .map(|c| if c == '/' || c == '\\' { '-' } else { c })
        .collect()
}

async fn branch_exists(top: &Path, branch: &str) -> bool {
    git(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("refs/heads/{branch}"),
        ],
    )
    .await
    .is_ok()
}

/// Makes a worktree of the repository `from` is in, from its HEAD.
pub async fn create(
    dir_setting: &str,
    from: &Path,
    spec: &WorktreeSpec,
    preset: &str,
) -> Result<Made, CommandError> {
    let top = git(from, &["rev-parse", "--show-toplevel"])
        .await
        .map(PathBuf::from)
        .map_err(|e| {
            bad(format!(
                "`{}` is not in a git repository ({e})",
                from.display()
            ))
            .with_suggestion("pass `cwd` inside a git repository, or leave `worktree` out")
        })?;
    let prefix = git(from, &["rev-parse", "--show-prefix"])
        .await
        .unwrap_or_default();
    let base = git(&top, &["rev-parse", "--verify", "HEAD"])
        .await
        .map_err(|_| {
            bad(format!(
                "the repository {} has no commit yet",
                top.display()
            ))
            .with_suggestion("commit something first: a worktree starts from HEAD")
        })?;
    let name = top
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repo".into());
    let root = if dir_setting.is_empty() {
        top.parent()
            .unwrap_or(Path::new("/"))
            .join(format!("{name}.worktrees"))
    } else {
        top.join(dir_setting)
    };
    let (branch, existing) = match spec {
        WorktreeSpec::Branch(b) => {
            if b.is_empty() || b.len() > MAX_BRANCH || b.starts_with('-') {
                return Err(bad(format!("`{b}` is not a branch name")));
            }
            git(&top, &["check-ref-format", "--branch", b])
                .await
                .map_err(|_| {
                    bad(format!("`{b}` is not a branch name git takes")).with_suggestion(
                        "use letters, digits, `-`, `_`, `.` and `/`, such as agent/fix-login",
                    )
                })?;
            (b.clone(), branch_exists(&top, b).await)
        }
        WorktreeSpec::Auto => {
            let mut found = None;
            for n in 1..=MAX_AUTO {
                let b = format!("fugue/{preset}-{n}");
                if !branch_exists(&top, &b).await && !root.join(folder_name(&b)).exists() {
                    found = Some(b);
                    break;
                }
            }
            let b = found.ok_or_else(|| {
                bad(format!("fugue/{preset}-1 to -{MAX_AUTO} are all taken"))
                    .with_suggestion("name the branch: worktree: \"BRANCH\"")
            })?;
            (b, false)
        }
    };
    let path = root.join(folder_name(&branch));
    if path.exists() {
        return Err(bad(format!("{} exists already", path.display()))
            .with_suggestion("name another branch, or remove that folder"));
    }
    std::fs::create_dir_all(&root).map_err(|e| {
        bad(format!("cannot make {}: {e}", root.display()))
            .with_suggestion("set `dir` under [worktrees] in the config to a folder you can write")
    })?;
    let path_s = path.to_string_lossy().into_owned();
    let added = if existing {
        git(&top, &["worktree", "add", &path_s, &branch]).await
    } else {
        git(&top, &["worktree", "add", "-b", &branch, &path_s, &base]).await
    };
    added.map_err(|e| {
        bad(format!("git could not make the worktree: {e}")).with_suggestion(
            "a branch checked out elsewhere cannot be checked out again: name another",
        )
    })?;
    let start = path.join(&prefix);
    Ok(Made {
        start: if start.is_dir() { start } else { path.clone() },
        record: Record {
            pane: PaneId(0),
            path,
            branch,
            repo: top,
            base,
            pane_open: true,
        },
        new_branch: !existing,
    })
}

/// Undoes `create` for an agent that never started: the worktree is as git made it.
pub async fn discard(m: &Made) {
    let r = &m.record;
    let path = r.path.to_string_lossy().into_owned();
    if let Err(e) = git(&r.repo, &["worktree", "remove", "--force", &path]).await {
        tracing::warn!("cannot remove the unused worktree {path}: {e}");
    }
    if m.new_branch {
        let _ = git(&r.repo, &["branch", "-D", &r.branch]).await;
    }
}

/// What a worktree holds now.
pub async fn info(r: &Record) -> WorktreeInfo {
    let dirty = git(&r.path, &["status", "--porcelain", "--untracked-files=all"])
        .await
        .map(|s| s.lines().filter(|l| !l.is_empty()).count())
        .unwrap_or(0);
    let commits = git(
        &r.repo,
        &[
            "rev-list",
            "--count",
            &format!("{}..refs/heads/{}", r.base, r.branch),
        ],
    )
    .await
    .ok()
    .and_then(|s| s.parse::<u32>().ok())
    .unwrap_or(0);
    WorktreeInfo {
        path: r.path.to_string_lossy().into_owned(),
        branch: r.branch.clone(),
        repo: r.repo.to_string_lossy().into_owned(),
        base: r.base.clone(),
        dirty_files: u32::try_from(dirty).unwrap_or(u32::MAX),
        commits,
        pane_open: r.pane_open,
    }
}

/// `list-panes`: each agent's worktree, with what it holds (looked at concurrently,
/// after the tree's lock is released).
pub async fn annotate(server: &Arc<Server>, r: Response) -> Response {
    let Response::Panes(mut infos) = r else {
        return r;
    };
    let records: Vec<(usize, Record)> = infos
        .iter()
        .enumerate()
        .filter(|(_, i)| i.agent.is_some())
        .filter_map(|(n, i)| {
            let r = server.agents.worktrees.get(i.id)?;
            // An agent that ended leaves its pane showing its status: no longer open.
            Some((
                n,
                Record {
                    pane_open: i.alive,
                    ..r
                },
            ))
        })
        .collect();
    let found = futures::future::join_all(records.iter().map(|(_, r)| info(r))).await;
    for ((n, _), w) in records.iter().zip(found) {
        if let Some(a) = infos.get_mut(*n).and_then(|i| i.agent.as_mut()) {
            a.worktree = Some(w);
        }
    }
    Response::Panes(infos)
}

fn choices(w: &WorktreeInfo) -> Vec<WorktreeAction> {
    let mut c = vec![WorktreeAction::Keep];
    if !w.pane_open && w.dirty_files == 0 {
        if w.commits > 0 {
            c.push(WorktreeAction::Merge);
        }
        c.push(WorktreeAction::Remove);
    }
    c
}

/// The pane `target` names: a live one through the tree, else a closed one by id.
fn pane_of(exec: &Exec<'_>, target: Option<&Target>) -> Result<PaneId, CommandError> {
    let tree = exec.server.mux.tree();
    match (tree.resolve_pane(target, &exec.ctx), target) {
        (Ok(p), _) => Ok(p),
        (Err(_), Some(Target::Pane(p))) => Ok(*p),
        (Err(e), _) => Err(e),
    }
}

/// `agent-worktree`.
pub async fn finish(exec: &mut Exec<'_>, c: AgentWorktree) -> Result<Response, CommandError> {
    let pane = pane_of(exec, c.target.as_ref())?;
    exec.resolved = Some(pane.to_string());
    let server = Arc::clone(exec.server);
    let mut record = server.agents.worktrees.get(pane).ok_or_else(|| {
        CommandError::invalid_argument(
            "target",
            format!("pane {pane} was not started in a worktree fugue still tracks"),
        )
        .with_suggestion("list_panes shows agents' worktrees (agent.worktree); `git worktree list` shows every one")
    })?;
    // A pane that ended but stays (showing its exit status) holds no agent any more.
    record.pane_open = server
        .mux
        .tree()
        .panes
        .get(&pane)
        .is_some_and(|p| p.alive());
    let w = info(&record).await;
    let outcome = |done: String, w: WorktreeInfo| {
        let choices = if done.starts_with("merged") || done.starts_with("removed") {
            Vec::new()
        } else {
            choices(&w)
        };
        Response::Worktree(WorktreeOutcome {
            pane,
            worktree: w,
            done,
            choices,
        })
    };
    match c.action {
        WorktreeAction::Show => return Ok(outcome("shown".into(), w)),
        WorktreeAction::Keep => {
            server.agents.worktrees.forget(pane);
            return Ok(outcome(
                "kept: the worktree and its branch stay; fugue no longer tracks them".into(),
                w,
            ));
        }
        WorktreeAction::Merge | WorktreeAction::Remove => {}
    }
    if record.pane_open {
        return Err(CommandError::new(
            ErrorCode::NotReady,
            format!("the agent in pane {pane} still works in {}", w.path),
        )
        .with_suggestion(format!(
            "close_pane {pane} first (or wait_for {{\"pane\": \"{pane}\", \"exit\": true}}), then finish_worktree again"
        )));
    }
    if w.dirty_files > 0 {
        return Err(CommandError::forbidden(format!(
            "the worktree {} has {} uncommitted file(s); {} would lose them",
            w.path,
            w.dirty_files,
            if c.action == WorktreeAction::Merge { "merging only commits, removing it" } else { "removing it" }
        ))
        .with_suggestion(format!(
            "commit them (git -C {} add -A && git -C {} commit -m ...) and merge, or keep the worktree (action keep)",
            w.path, w.path
        )));
    }
    let repo = record.repo.clone();
    let mut done = String::new();
    if c.action == WorktreeAction::Merge && w.commits > 0 {
        let message = format!("Merge {} (the agent in pane {pane})", record.branch);
        if let Err(e) = git(&repo, &["merge", "--no-ff", "-m", &message, &record.branch]).await {
            let _ = git(&repo, &["merge", "--abort"]).await;
            return Err(CommandError::new(
                ErrorCode::InvalidArgument,
                format!(
                    "git could not merge {} into {}: {e}",
                    record.branch,
                    repo.display()
                ),
            )
            .with_suggestion(format!(
                "merge by hand (git -C {} merge {}), or keep the worktree (action keep)",
                repo.display(),
                record.branch
            )));
        }
        done.push_str(&format!(
            "merged {} commit(s) into {}; ",
            w.commits,
            repo.display()
        ));
    }
    let path = record.path.to_string_lossy().into_owned();
    // No --force: git itself refuses a worktree with changes, a second guard.
    git(&repo, &["worktree", "remove", &path])
        .await
        .map_err(|e| {
            CommandError::forbidden(format!("git would not remove {path}: {e}")).with_suggestion(
                "look at it (git -C PATH status) and remove it by hand, or keep it",
            )
        })?;
    server.agents.worktrees.forget(pane);
    // `-d` deletes only a merged branch: unmerged commits stay reachable.
    match git(&repo, &["branch", "-d", &record.branch]).await {
        Ok(_) => done.push_str(&format!("removed {path} and branch {}", record.branch)),
        Err(_) => done.push_str(&format!(
            "removed {path}; branch {} kept with {} unmerged commit(s) (git branch -D {} deletes it)",
            record.branch, w.commits, record.branch
        )),
    }
    if !done.starts_with("merged") {
        done = format!("removed: {done}");
    }
    let mut w = w;
    w.pane_open = false;
    Ok(outcome(done, w))
}

super::handler!(fugue_protocol::AgentWorktree, |exec, c| finish(exec, c)
    .await);
