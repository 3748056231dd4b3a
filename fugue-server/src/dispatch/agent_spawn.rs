//! `spawn-agent`: a pane running an agent preset, given its task once it is ready.
//!
//! The pane is placed (split, window, session), tracked from its first moment, and
//! waited on until the agent shows it is ready. A task is then typed as a bracketed
//! paste with Enter as its own key, or, for presets that take it as an argument, put on
//! the command line. With `depends_on`, `{{%N.result}}` in the task becomes the result
//! pane %N reported; a typed task whose dependencies have not reported yet is held (the
//! pane stays `starting`) and typed by the server the moment they have.

use super::wait::{timed_out, timeout_for};
use super::{Exec, io, panes, sessions};
use crate::agents::{Heuristics, TrackSpec, Tracked};
use crate::config::{Preset, TaskDelivery};
use crate::server::Server;
use fugue_protocol::{
    AgentSpawned, AgentState, CommandError, Created, Direction, ErrorCode, InputPart, Key,
    NewSession, NewWindow, PaneId, Placement, Response, Spawn, SpawnAgent, SplitPane, SplitSize,
    Target, TaskStatus,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tags an agent may carry, and how long each may be.
const MAX_TAGS: usize = 16;
const MAX_TAG_LEN: usize = 32;

/// `{{%N.result}}`, spaces allowed inside the braces. A fixed pattern, compiled once;
/// the `None` of a failed compile (impossible for this pattern) leaves tasks as they are.
static PLACEHOLDER: std::sync::LazyLock<Option<regex::Regex>> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"\{\{\s*%(\d+)\.result\s*\}\}").ok());

fn placeholders(task: &str) -> impl Iterator<Item = regex::Captures<'_>> {
    PLACEHOLDER
        .iter()
        .flat_map(move |re| re.captures_iter(task))
}

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

/// The panes `{{%N.result}}` names in a task; each must be a dependency.
fn check_placeholders(task: &str, deps: &[PaneId]) -> Result<(), CommandError> {
    for cap in placeholders(task) {
        let n: u32 = cap[1].parse().map_err(|_| {
            CommandError::invalid_argument("task", format!("`{}` names no pane", &cap[0]))
        })?;
        if !deps.contains(&PaneId(n)) {
            return Err(CommandError::invalid_argument(
                "task",
                format!("`{}` names %{n}, which is not in depends_on", &cap[0]),
            )
            .with_suggestion(format!("add %{n} to depends_on, or remove the placeholder")));
        }
    }
    Ok(())
}

/// The task with each `{{%N.result}}` replaced by that pane's result.
fn substitute(task: &str, results: &[(PaneId, String)]) -> String {
    let Some(re) = PLACEHOLDER.as_ref() else {
        return task.to_string();
    };
    re.replace_all(task, |cap: &regex::Captures<'_>| {
        let pane = cap[1].parse().ok().map(PaneId);
        results
            .iter()
            .find(|(p, _)| Some(*p) == pane)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| cap[0].to_string())
    })
    .into_owned()
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
    let t = server.agents.watch(server, pane).map_err(|_| gone())?;
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

fn argv(preset: &Preset, task: Option<&str>) -> Vec<String> {
    let mut argv = Vec::new();
    if !preset.command.is_empty() {
        argv.push(preset.command.clone());
    }
    argv.extend(preset.args.iter().cloned());
    if let (TaskDelivery::Argument, Some(task)) = (preset.deliver, task) {
        argv.extend(preset.task_args.iter().map(|a| a.replace("{task}", task)));
    }
    argv
}

/// Creates the pane where `placement` says.
fn place(
    exec: &mut Exec<'_>,
    placement: &Placement,
    spawn: Spawn,
) -> Result<Created, CommandError> {
    let created = match placement {
        Placement::Split {
            target,
            direction,
            size,
        } => split_or_window(exec, target.clone(), *direction, *size, spawn),
        Placement::Window { session } => window(exec, session.clone(), spawn),
        Placement::Session { name } => sessions::new_session(
            exec,
            NewSession {
                name: name.clone(),
                window_name: None,
                size: None,
                spawn,
            },
        ),
        Placement::Auto => {
            let (caller, session) = {
                let tree = exec.server.tree.lock();
                let caller = exec
                    .ctx
                    .caller_pane
                    .filter(|p| tree.panes.contains_key(p) && exec.scope.allows(*p));
                let session = tree.current_session(&exec.ctx).ok().filter(|s| {
                    super::scope::session_panes(&tree, *s)
                        .iter()
                        .any(|p| exec.scope.allows(*p))
                });
                (caller, session)
            };
            match (caller, session) {
                (Some(p), _) => {
                    split_or_window(exec, Some(Target::Pane(p)), Direction::Right, None, spawn)
                }
                (None, Some(s)) => window(exec, Some(Target::SessionId(s)), spawn),
                (None, None) => sessions::new_session(
                    exec,
                    NewSession {
                        spawn,
                        ..NewSession::default()
                    },
                ),
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
            spawn: spawn.clone(),
        },
    );
    match split {
        Err(e) if e.code == ErrorCode::LimitExceeded => {
            let session = {
                let tree = exec.server.tree.lock();
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
    let task = c.task.clone().filter(|t| !t.trim().is_empty());
    if task.as_ref().is_some_and(|t| t.len() > io::MAX_INPUT) {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!("the task is over the limit of {} bytes", io::MAX_INPUT),
        )
        .with_suggestion("write it to a file and ask the agent to read that"));
    }
    let deps = resolve_deps(exec, &c.depends_on)?;
    if let Some(t) = &task {
        check_placeholders(t, &deps)?;
    }
    let heuristics = Heuristics::from_preset(&preset)?;
    let timeout = timeout_for(exec, c.timeout_ms);
    let cap = config.waits.max_timeout_ms;
    let started = Instant::now();
    let deadline = started + Duration::from_millis(timeout);

    // A task on the command line must be complete before the program starts.
    let on_command_line = preset.deliver == TaskDelivery::Argument && task.is_some();
    let arg_task = match (&task, on_command_line) {
        (Some(t), true) => Some(substitute(
            t,
            &results_of(&server, &deps, Some(deadline)).await?,
        )),
        _ => None,
    };
    let mut env: Vec<(String, String)> = preset.env.clone().into_iter().collect();
    env.push(("FUGUE_AGENT".into(), c.agent.clone()));
    let spawn = Spawn {
        command: argv(&preset, arg_task.as_deref()),
        cwd: c
            .cwd
            .clone()
            .or_else(|| (!preset.cwd.is_empty()).then(|| preset.cwd.clone())),
        env,
        title: Some(c.name.clone().unwrap_or_else(|| c.agent.clone())),
        sideband: Some(preset.sideband),
        // An agent that ends stays, showing its status, so its state and last words
        // can be read.
        remain: Some(true),
    };
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
    })?;
    let pane = created.pane;
    exec.resolved = Some(pane.to_string());
    let tracked = server.agents.track(
        &server,
        pane,
        TrackSpec {
            preset: Some(c.agent.clone()),
            tags: c.tags.clone(),
            heuristics,
            agent: true,
            ready: false,
        },
    )?;
    let answer = |t: &Tracked, task: TaskStatus, waiting_for: Vec<PaneId>| {
        Response::AgentSpawned(AgentSpawned {
            pane,
            session: created.session,
            session_name: created.session_name.clone(),
            window: created.window,
            window_index: created.window_index,
            agent: c.agent.clone(),
            state: t.view().state,
            task,
            waiting_for,
        })
    };
    if arg_task.is_some() {
        tracked.set_task(TaskStatus::Delivered, Vec::new());
        tracked.started_with_task(&server);
        return Ok(answer(&tracked, TaskStatus::Delivered, Vec::new()));
    }
    let pending: Vec<PaneId> = deps
        .iter()
        .copied()
        .filter(|d| server.agents.result_of(*d).is_none())
        .collect();
    if task.is_some() && !pending.is_empty() {
        tracked.set_task(TaskStatus::Waiting, pending.clone());
        tracked.hold(&server, true);
    }
    let ready_by = deadline.min(started + Duration::from_millis(preset.ready_timeout_ms));
    if let Err(e) = wait_ready(&tracked, started, ready_by, &c.agent, cap).await {
        if task.is_some() {
            tracked.set_task(TaskStatus::Failed, Vec::new());
            tracked.hold(&server, false);
        }
        return Err(e);
    }
    let Some(task) = task else {
        return Ok(answer(&tracked, TaskStatus::None, Vec::new()));
    };
    if pending.is_empty() {
        let text = substitute(&task, &results_of(&server, &deps, Some(deadline)).await?);
        type_task(&server, &tracked, &text).await?;
        return Ok(answer(&tracked, TaskStatus::Delivered, Vec::new()));
    }
    let t = Arc::clone(&tracked);
    tokio::spawn(async move {
        // Given up when the agent's own pane ends first.
        let mut own = t.watch();
        let gone = async move {
            own.wait_for(|v| v.state == AgentState::Exited)
                .await
                .is_ok()
        };
        let outcome = tokio::select! {
            r = results_of(&server, &deps, None) => match r {
                Ok(results) => type_task(&server, &t, &substitute(&task, &results)).await,
                Err(e) => Err(e),
            },
            _ = gone => Err(CommandError::new(
                ErrorCode::PaneExited,
                format!("pane {} ended before its dependencies reported", t.pane),
            )),
        };
        if let Err(e) = outcome {
            tracing::warn!("pane {}: its task was not given: {}", t.pane, e.message);
            t.set_task(TaskStatus::Failed, Vec::new());
            t.hold(&server, false);
        }
    });
    Ok(answer(&tracked, TaskStatus::Waiting, pending))
}

/// Types a task into a ready agent: a paste, then Enter as its own key.
async fn type_task(server: &Arc<Server>, t: &Tracked, text: &str) -> Result<(), CommandError> {
    let enter = Key::new(
        fugue_protocol::keys::KeyCode::Enter,
        fugue_protocol::keys::Mods::NONE,
    );
    io::deliver(
        server,
        t.pane,
        &[InputPart::Paste(text.to_string()), InputPart::Key(enter)],
    )
    .await?;
    t.set_task(TaskStatus::Delivered, Vec::new());
    // Busy from the moment it has its task, then released.
    t.submitted(server);
    t.hold(server, false);
    Ok(())
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
    let tree = exec.server.tree.lock();
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
        if !out.contains(&pane) {
            out.push(pane);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_must_name_dependencies_and_are_replaced() {
        let deps = [PaneId(1), PaneId(2)];
        check_placeholders("a {{%1.result}} b {{ %2.result }}", &deps).unwrap();
        let e = check_placeholders("{{%3.result}}", &deps).unwrap_err();
        assert!(e.message.contains("%3") && e.message.contains("depends_on"));
        let out = substitute(
            "x {{%1.result}} y {{ %2.result }} z {{%1.result}}",
            &[(PaneId(1), "one".into()), (PaneId(2), "two".into())],
        );
        assert_eq!(out, "x one y two z one");
    }

    #[test]
    fn tags_are_short_words() {
        validate_tags(&["review".into(), "a.b-c_d".into()]).unwrap();
        assert!(validate_tags(&["has space".into()]).is_err());
        assert!(validate_tags(&[String::new()]).is_err());
    }
}
