//! `spawn-agent`: a pane running an agent preset, given its task once it is ready.
//!
//! The pane is placed (split, window, session), tracked from its first moment, and
//! waited on until the agent shows it is ready. A task is then typed as a bracketed
//! paste with Enter as its own key, or, for presets that take it as an argument, put on
//! the command line. With `depends_on`, `{{%N.result}}` in the task becomes the result
//! pane %N reported; a typed task whose dependencies have not reported yet is held (the
//! pane stays `starting`) and typed by the server the moment they have.

use super::agent_task::{self, MAX_ARG_BYTES};
use super::moment::{Moment, Want, type_at_moment};
use super::spawn::AgentSetup;
use super::wait::timed_out;
use super::{Exec, held_task, io, panes, sessions, worktree};
use crate::agents::worktrees::Record;
use crate::agents::{Heuristics, TrackSpec, Tracked};
use crate::config::{Preset, TaskDelivery};
use crate::server::Server;
use fugue_protocol::{
    AgentSpawned, AgentState, CommandError, Created, Direction, ErrorCode, NewSession, NewWindow,
    PaneId, Placement, Response, Spawn, SpawnAgent, SplitPane, SplitSize, Target, TaskStatus,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tags an agent may carry, and how long each may be.
const MAX_TAGS: usize = 16;
const MAX_TAG_LEN: usize = 32;

fn unknown_preset(names: &[&str], asked: &str) -> CommandError {
    CommandError::invalid_argument("agent", format!("there is no agent preset `{asked}`"))
        .with_suggestion(format!(
            "the presets are: {} (add more under [agents.NAME] in the config file)",
            names.join(", ")
        ))
}

fn validate_tags(tags: &[String]) -> Result<(), CommandError> {
    if tags.len() > MAX_TAGS {
        return Err(CommandError::invalid_argument(
            "tags",
            format!("at most {MAX_TAGS} tags"),
        ));
    }
    for t in tags {
        let ok = !t.is_empty()
            && t.len() <= MAX_TAG_LEN
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !ok {
            return Err(CommandError::invalid_argument(
                "tags",
                format!("`{t}`: a tag is 1 to {MAX_TAG_LEN} letters, digits, `-`, `_` or `.`"),
            ));
        }
    }
    Ok(())
}

/// Waits for a pane's result: the latest it reported, or the next one.
pub async fn result_of(
    server: &Arc<Server>,
    pane: PaneId,
    deadline: Option<Instant>,
) -> Result<String, CommandError> {
    if let Some(r) = server.agents.result_of(pane) {
        return Ok(r.result);
    }
    let gone = || {
        CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {pane} ended without reporting a result"),
        )
        .with_suggestion("read_pane what it printed; start the work again")
    };
    let t = server.agents.watch(&server.mux, pane).map_err(|_| gone())?;
    let mut result = t.watch_result();
    let mut state = t.watch();
    loop {
        if let Some(r) = result.borrow_and_update().clone() {
            return Ok(r.text.clone());
        }
        if state.borrow_and_update().state == AgentState::Exited {
            return Err(gone());
        }
        let until = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            r = result.changed() => if r.is_err() { return Err(gone()) },
            r = state.changed() => if r.is_err() { return Err(gone()) },
            _ = until => {
                return Err(CommandError::new(
                    ErrorCode::Timeout,
                    format!("pane {pane} reported no result in time"),
                )
                .with_suggestion("wait_for it to be idle, then spawn again"));
            }
        }
    }
}

async fn results_of(
    server: &Arc<Server>,
    deps: &[PaneId],
    deadline: Option<Instant>,
) -> Result<Vec<(PaneId, String)>, CommandError> {
    let mut out = Vec::with_capacity(deps.len());
    for d in deps {
        out.push((*d, result_of(server, *d, deadline).await?));
    }
    Ok(out)
}

/// Creates the pane where `placement` says. A placement without a target starts from
/// the caller's default (its pane, the current session); under scope "own" a default
/// that is not the caller's gives it a session of its own instead, as `auto` does.
fn place(
    exec: &mut Exec<'_>,
    placement: &Placement,
    spawn: Spawn,
) -> Result<Created, CommandError> {
    let new_session = |exec: &mut Exec<'_>, spawn: Spawn| {
        sessions::new_session(
            exec,
            NewSession {
                spawn,
                ..NewSession::default()
            },
        )
    };
    let (my_pane, my_session) = {
        let tree = exec.server.mux.tree();
        let pane = tree
            .resolve_pane(None, &exec.ctx)
            .ok()
            .filter(|p| exec.scope.allows(*p));
        let caller = exec
            .ctx
            .caller_pane
            .filter(|p| tree.panes.contains_key(p) && exec.scope.allows(*p));
        let session = tree.current_session(&exec.ctx).ok().filter(|s| {
            super::scope::session_panes(&tree, *s)
                .iter()
                .any(|p| exec.scope.allows(*p))
        });
        (
            if exec.scope.is_all() {
                pane
            } else {
                caller.or(pane)
            },
            session,
        )
    };
    let created = match placement {
        Placement::Split {
            target: None,
            direction,
            size,
        } => match my_pane {
            Some(p) => split_or_window(exec, Some(Target::Pane(p)), *direction, *size, spawn),
            None if !exec.scope.is_all() => new_session(exec, spawn),
            None => split_or_window(exec, None, *direction, *size, spawn),
        },
        Placement::Split {
            target,
            direction,
            size,
        } => split_or_window(exec, target.clone(), *direction, *size, spawn),
        Placement::Window { session: None } => match my_session {
            Some(s) => window(exec, Some(Target::SessionId(s)), spawn),
            None if !exec.scope.is_all() => new_session(exec, spawn),
            None => window(exec, None, spawn),
        },
        Placement::Window { session } => window(exec, session.clone(), spawn),
        Placement::Session { name } => sessions::new_session(
            exec,
            NewSession {
                name: name.clone(),
                window_name: None,
                size: None,
                spawn,
                existing: false,
                client_env: None,
                group: None,
            },
        ),
        Placement::Auto => {
            let caller = {
                let tree = exec.server.mux.tree();
                exec.ctx
                    .caller_pane
                    .filter(|p| tree.panes.contains_key(p) && exec.scope.allows(*p))
            };
            match (caller, my_session) {
                (Some(p), _) => {
                    split_or_window(exec, Some(Target::Pane(p)), Direction::Right, None, spawn)
                }
                (None, Some(s)) => window(exec, Some(Target::SessionId(s)), spawn),
                (None, None) => new_session(exec, spawn),
            }
        }
    }?;
    match created {
        Response::Created(c) => Ok(c),
        _ => Err(CommandError::internal(
            "creating the pane answered unexpectedly",
        )),
    }
}

fn window(
    exec: &mut Exec<'_>,
    session: Option<Target>,
    spawn: Spawn,
) -> Result<Response, CommandError> {
    let name = spawn.title.clone();
    sessions::new_window(
        exec,
        NewWindow {
            target: session,
            name,
            select: false,
            spawn,
            ..Default::default()
        },
    )
}

/// A split, or a new window in the same session when the pane has no room left.
fn split_or_window(
    exec: &mut Exec<'_>,
    target: Option<Target>,
    direction: Direction,
    size: Option<u8>,
    spawn: Spawn,
) -> Result<Response, CommandError> {
    let split = panes::split(
        exec,
        SplitPane {
            target: target.clone(),
            direction,
            size: size.map(SplitSize::Percent),
            select: false,
            zoom: false,
            full: false,
            spawn: spawn.clone(),
            task: None,
        },
    );
    match split {
        Err(e) if e.code == ErrorCode::LimitExceeded => {
            let session = {
                let tree = exec.server.mux.tree();
                let pane = tree.resolve_pane(target.as_ref(), &exec.ctx)?;
                tree.locate(pane).map(|(s, _)| Target::SessionId(s))
            };
            window(exec, session, spawn)
        }
        other => other,
    }
}

pub async fn spawn_agent(exec: &mut Exec<'_>, c: SpawnAgent) -> Result<Response, CommandError> {
    let server = Arc::clone(exec.server);
    let config = server.config();
    let preset = config
        .agents
        .get(&c.agent)
        .cloned()
        .ok_or_else(|| unknown_preset(&config.agents.names(), &c.agent))?;
    if let Some(n) = &c.name
        && (n.chars().any(char::is_control) || n.len() > 256 || n.trim().is_empty())
    {
        return Err(CommandError::invalid_argument(
            "name",
            "expected 1 to 256 bytes without control characters",
        ));
    }
    validate_tags(&c.tags)?;
    // Control characters are never typed for an agent (see io::clean_text).
    let task = c
        .task
        .as_deref()
        .map(io::clean_text)
        .filter(|t| !t.trim().is_empty());
    if task.as_ref().is_some_and(|t| t.len() > io::MAX_INPUT) {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!("the task is over the limit of {} bytes", io::MAX_INPUT),
        )
        .with_suggestion("write it to a file and ask the agent to read that"));
    }
    let deps = resolve_deps(exec, &c.depends_on)?;
    if let Some(t) = &task {
        agent_task::check_placeholders(t, &deps)?;
    }
    let heuristics = Heuristics::from_preset(&preset)?;
    let cap = config.waits.max_timeout_ms;
    let started = Instant::now();
    // Readiness may take the preset's ready_timeout_ms, whatever the default wait is;
    // a caller may ask for less, and the server's cap bounds both.
    let ready_ms = preset
        .ready_timeout_ms
        .min(c.timeout_ms.unwrap_or(u64::MAX))
        .min(cap);
    let ready_by = started + Duration::from_millis(ready_ms);
    let pending: Vec<PaneId> = deps
        .iter()
        .copied()
        .filter(|d| server.agents.result_of(*d).is_none())
        .collect();
    // With every result here, the task is complete now, and its size known at once.
    let argument = preset.deliver == TaskDelivery::Argument;
    let limit = if argument {
        MAX_ARG_BYTES
    } else {
        io::MAX_INPUT
    };
    let complete = match &task {
        Some(t) if pending.is_empty() => {
            let results: Vec<(PaneId, String)> = deps
                .iter()
                .filter_map(|d| server.agents.result_of(*d).map(|r| (*d, r.result)))
                .collect();
            Some(agent_task::substitute(t, &results, limit)?)
        }
        _ => None,
    };
    let held = task.is_some() && complete.is_none();
    let command = match (&complete, argument) {
        (Some(t), true) => {
            let args = agent_task::task_args(&preset, &c.agent, &agent_task::as_argument(t))?;
            agent_task::argv(&preset, &args)
        }
        _ => agent_task::program(&preset),
    };
    let mut env: Vec<(String, String)> = preset.env.clone().into_iter().collect();
    env.push(("FUGUE_AGENT".into(), c.agent.clone()));
    let made = match &c.worktree {
        Some(spec) => Some(make_worktree(exec, &c, spec).await?),
        None => None,
    };
    let mut spawn = Spawn {
        command,
        cwd: match &made {
            Some(m) => Some(m.start.to_string_lossy().into_owned()),
            None => c
                .cwd
                .clone()
                .or_else(|| (!preset.cwd.is_empty()).then(|| preset.cwd.clone())),
        },
        env,
        title: Some(c.name.clone().unwrap_or_else(|| c.agent.clone())),
        sideband: Some(preset.sideband),
        // An agent that ends stays, showing its status, so its state and last words
        // can be read.
        remain: Some(true),
    };
    if held && argument {
        // The program cannot start before its task exists: a wrapper waits for it on
        // the pane's task pipe (see held_task).
        let program = agent_task::program(&preset);
        if program.is_empty() {
            return Err(CommandError::invalid_argument(
                "agent",
                format!(
                    "preset `{}` has no command to give its task to on a command line",
                    c.agent
                ),
            )
            .with_suggestion(format!(
                "set `command` under [agents.{}], or deliver = \"paste\"",
                c.agent
            )));
        }
        spawn.command = held_task::wrapper_argv(&program, &preset.task_args);
    }
    exec.agent = Some(AgentSetup {
        preset: c.agent.clone(),
        task_pipe: held && argument,
        pipe: None,
    });
    let created = place(exec, &c.placement, spawn).map_err(|e| {
        if e.code == ErrorCode::InvalidArgument && e.message.contains("`command`") {
            CommandError::invalid_argument(
                "agent",
                format!(
                    "preset `{}` runs `{}`, which could not be started: {}",
                    c.agent, preset.command, e.message
                ),
            )
            .with_suggestion(format!(
                "install it, or point `command` under [agents.{}] at it",
                c.agent
            ))
        } else {
            e
        }
    });
    let pipe = exec.agent.take().and_then(|a| a.pipe);
    let created = match (created, &made) {
        (Err(e), Some(m)) => {
            worktree::discard(m).await;
            return Err(e);
        }
        (created, _) => created?,
    };
    let pane = created.pane;
    exec.resolved = Some(pane.to_string());
    let worktree_info = match made {
        Some(m) => {
            let record = Record { pane, ..m.record };
            let info = worktree::info(&record).await;
            server.agents.worktrees.add(record);
            Some(info)
        }
        None => None,
    };
    let tracked = server.agents.track(
        &server.mux,
        pane,
        TrackSpec {
            preset: Some(c.agent.clone()),
            tags: c.tags.clone(),
            heuristics,
            agent: true,
            ready: false,
        },
    )?;
    let answer = |t: &Tracked, task: TaskStatus, waiting_for: Vec<PaneId>, cursor| {
        Response::AgentSpawned(Box::new(AgentSpawned {
            pane,
            session: created.session,
            session_name: created.session_name.clone(),
            window: created.window,
            window_index: created.window_index,
            agent: c.agent.clone(),
            state: t.view().state,
            task,
            waiting_for,
            worktree: worktree_info.clone(),
            cursor,
        }))
    };
    if held {
        tracked.set_task(TaskStatus::Waiting, pending.clone());
        tracked.hold(&server.mux, true);
    }
    let Some(task) = task else {
        if !argument {
            wait_ready(&tracked, started, ready_by, &c.agent, cap).await?;
        }
        return Ok(answer(&tracked, TaskStatus::None, Vec::new(), None));
    };
    let held = Held {
        server: Arc::clone(&server),
        t: Arc::clone(&tracked),
        task,
        deps,
        preset,
    };
    if argument {
        if let Some(pipe) = pipe {
            tokio::spawn(held.give_to_wrapper(pipe));
            return Ok(answer(&tracked, TaskStatus::Waiting, pending, None));
        }
        tracked.set_task(TaskStatus::Delivered, Vec::new());
        tracked.started_with_task(&server.mux);
        return Ok(answer(&tracked, TaskStatus::Delivered, Vec::new(), None));
    }
    if let Err(e) = wait_ready(&tracked, started, ready_by, &c.agent, cap).await {
        tracked.set_task(TaskStatus::Failed, Vec::new());
        tracked.hold(&server.mux, false);
        return Err(e);
    }
    let Some(text) = complete else {
        tokio::spawn(held.type_when_ready());
        return Ok(answer(&tracked, TaskStatus::Waiting, pending, None));
    };
    let moment = task_moment(&server, Some(ready_by.max(Instant::now())));
    // Taken before the task is typed: a text wait from it sees the agent's answer
    // (and whatever the agent prints between its readiness and the task).
    let cursor = super::io::cursor_now(&server, pane, &tracked.shared);
    if let Err(e) = type_task(&server, &tracked, &text, &moment).await {
        tracked.set_task(TaskStatus::Failed, Vec::new());
        // `timeout` only when the time ran out; a pane that ended (or took no input)
        // says so with its own code, and there is nothing to send a message to.
        let suggestion = if e.code == ErrorCode::Timeout {
            format!(
                "the agent runs in pane {pane}; give it the task with send_message when it is free"
            )
        } else {
            format!("read_pane {pane} shows what it printed; spawn the agent again")
        };
        return Err(CommandError::new(
            e.code,
            format!("the task was not typed into pane {pane}: {}", e.message),
        )
        .with_suggestion(suggestion));
    }
    Ok(answer(
        &tracked,
        TaskStatus::Delivered,
        Vec::new(),
        Some(cursor),
    ))
}

/// The worktree `spawn-agent` asked for, of the repository the given `cwd` or else
/// the caller's pane is in.
async fn make_worktree(
    exec: &Exec<'_>,
    c: &SpawnAgent,
    spec: &fugue_protocol::WorktreeSpec,
) -> Result<worktree::Made, CommandError> {
    let from = match &c.cwd {
        Some(d) => Some(std::path::PathBuf::from(d)),
        None => {
            let tree = exec.server.mux.tree();
            exec.ctx
                .caller_pane
                .and_then(|p| tree.panes.get(&p))
                .and_then(|p| p.current_cwd())
        }
    };
    let from = from.ok_or_else(|| {
        CommandError::invalid_argument(
            "worktree",
            "the caller runs in no pane, so there is no repository to make a worktree of",
        )
        .with_suggestion("pass `cwd`: a folder inside the git repository")
    })?;
    let dir = exec.server.config().worktrees.dir.clone();
    worktree::create(&dir, &from, spec, &c.agent).await
}

/// The gate a task goes through: the messages' (see moment), with no quiet time of its
/// own (the agent has just shown it is ready).
fn task_moment(server: &Server, deadline: Option<Instant>) -> Moment {
    Moment {
        want: Want::Task,
        quiescence: Duration::ZERO,
        human_pause: Duration::from_millis(server.config().messages.human_pause_ms),
        deadline,
    }
}

/// Types a task into a ready agent, at a moment that tramples no one (the same gate
/// and turn as messages): a paste, then Enter as its own key.
async fn type_task(
    server: &Arc<Server>,
    t: &Tracked,
    text: &str,
    moment: &Moment,
) -> Result<(), CommandError> {
    // The held task's cursor has no caller to go to: the answer went out before.
    type_at_moment(server, t, text, moment)
        .await
        .map_err(|e| CommandError::new(e.code, e.reason))?;
    t.set_task(TaskStatus::Delivered, Vec::new());
    // Busy from the moment it has its task (submitted above), then released.
    t.hold(&server.mux, false);
    Ok(())
}

/// A task held until the results it needs have come.
struct Held {
    server: Arc<Server>,
    t: Arc<Tracked>,
    task: String,
    deps: Vec<PaneId>,
    preset: Preset,
}

impl Held {
    /// Resolves when the agent's own pane has ended.
    async fn gone(t: Arc<Tracked>) {
        let mut own = t.watch();
        let _ = own.wait_for(|v| v.state == AgentState::Exited).await;
    }

    fn ended_first(&self) -> CommandError {
        CommandError::new(
            ErrorCode::PaneExited,
            format!(
                "pane {} ended before its dependencies reported",
                self.t.pane
            ),
        )
    }

    fn failed(&self, e: &CommandError) {
        tracing::warn!(
            "pane {}: its task was not given: {}",
            self.t.pane,
            e.message
        );
        self.t.set_task(TaskStatus::Failed, Vec::new());
        self.t.hold(&self.server.mux, false);
    }

    /// The task with the results in it, within `limit` bytes.
    async fn complete(&self, limit: usize) -> Result<String, CommandError> {
        let results = results_of(&self.server, &self.deps, None).await?;
        agent_task::substitute(&self.task, &results, limit)
    }

    /// A typed task: typed when the results have come and the agent is free.
    async fn type_when_ready(self) {
        let gone = Held::gone(Arc::clone(&self.t));
        let outcome = tokio::select! {
            r = async {
                let text = self.complete(io::MAX_INPUT).await?;
                let moment = task_moment(&self.server, None);
                type_task(&self.server, &self.t, &text, &moment).await
            } => r,
            _ = gone => Err(self.ended_first()),
        };
        if let Err(e) = outcome {
            self.failed(&e);
        }
    }

    /// A task on the command line: written to the wrapper waiting on the pane's task
    /// pipe, whose end is kept until the pane ends (see held_task).
    async fn give_to_wrapper(self, mut pipe: held_task::TaskPipe) {
        let gone = Held::gone(Arc::clone(&self.t));
        tokio::pin!(gone);
        let agent = self.t.preset.clone().unwrap_or_default();
        let outcome = tokio::select! {
            r = async {
                let text = self.complete(MAX_ARG_BYTES).await?;
                let arg = agent_task::as_argument(&text);
                agent_task::task_args(&self.preset, &agent, &arg)?;
                pipe.give(&arg).await.map_err(|e| {
                    CommandError::internal(format!("cannot write to the task pipe: {e}"))
                })
            } => r,
            _ = &mut gone => Err(self.ended_first()),
        };
        match outcome {
            Ok(()) => {
                self.t.set_task(TaskStatus::Delivered, Vec::new());
                self.t.hold(&self.server.mux, false);
                self.t.started_with_task(&self.server.mux);
            }
            Err(e) => {
                self.failed(&e);
                if self.t.view().state == AgentState::Exited {
                    return;
                }
                // Started without a task, after saying why.
                let why = e.display_with_suggestion();
                tokio::select! {
                    _ = pipe.refuse(&why) => {}
                    _ = &mut gone => return,
                }
            }
        }
        gone.await;
        drop(pipe);
    }
}

/// Waits until the agent has shown it is ready (idle, awaiting input, or reported).
async fn wait_ready(
    t: &Tracked,
    started: Instant,
    deadline: Instant,
    agent: &str,
    cap: u64,
) -> Result<(), CommandError> {
    let mut rx = t.watch();
    let waited = tokio::time::timeout_at(
        deadline.into(),
        rx.wait_for(|v| v.ready || v.state == AgentState::Exited),
    )
    .await;
    match waited {
        Ok(Ok(v)) if v.state == AgentState::Exited => Err(CommandError::new(
            ErrorCode::PaneExited,
            format!(
                "agent `{agent}` in pane {} exited{} before it was ready",
                t.pane,
                v.exit_code
                    .map(|c| format!(" (status {c})"))
                    .unwrap_or_default()
            ),
        )
        .with_suggestion(format!("read_pane {} shows what it printed", t.pane))),
        Ok(Ok(_)) => Ok(()),
        Ok(Err(_)) => Err(CommandError::internal("the agent's tracker went away")),
        Err(_) => {
            let ms = deadline.saturating_duration_since(started).as_millis() as u64;
            Err(timed_out(
                format!("agent `{agent}` did not show it was ready"),
                t.pane,
                ms,
                cap,
            )
            .with_suggestion(format!(
                "it still runs in pane {}: read_pane it; have it run `fugue report --state idle` when ready, or adjust `prompt`/`quiet_ms` under [agents.{agent}]",
                t.pane
            )))
        }
    }
}

/// Panes in `depends_on`: live panes, or closed ones whose result is kept.
fn resolve_deps(exec: &Exec<'_>, deps: &[Target]) -> Result<Vec<PaneId>, CommandError> {
    let tree = exec.server.mux.tree();
    let mut out = Vec::new();
    for t in deps {
        let pane = match tree.resolve_pane(Some(t), &exec.ctx) {
            Ok(p) => p,
            Err(e) => match t {
                Target::Pane(p) if exec.server.agents.result_of(*p).is_some() => {
                    let lineage = exec.server.agents.closed_lineage(*p).unwrap_or_default();
                    if !exec.scope.allows_lineage(*p, &lineage) {
                        return Err(exec.scope.refuse(*p));
                    }
                    *p
                }
                _ => return Err(e),
            },
        };
        if Some(pane) == exec.ctx.caller_pane {
            return Err(CommandError::invalid_argument(
                "depends_on",
                format!("{pane} is the caller's own pane: an agent's task cannot depend on itself (it would wait for a result that comes only after it, until it timed out)"),
            )
            .with_suggestion("put what you know in the task itself, or name the agents whose results it needs"));
        }
        if !out.contains(&pane) {
            out.push(pane);
        }
    }
    Ok(out)
}

super::handler!(fugue_protocol::SpawnAgent, |exec, c| spawn_agent(exec, c)
    .await);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_short_words() {
        validate_tags(&["review".into(), "a.b-c_d".into()]).unwrap();
        assert!(validate_tags(&["has space".into()]).is_err());
        assert!(validate_tags(&[String::new()]).is_err());
    }
}
