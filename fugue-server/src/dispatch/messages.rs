//! Messages between agents, and what agents report.
//!
//! `send-message` types text into agent panes at a moment that tramples no one (the
//! gate in [`super::moment`]: idle, quiet, no person typing or with an unsent draft).
//! Messages for one pane are typed one at a time; each makes the agent busy, so the
//! next waits for it to be idle again.

use super::moment::{Moment, NotTyped, Want, type_at_moment};
use super::wait::timeout_for;
use super::{Exec, io};
use crate::agents::Tracked;
use crate::audit::{self, AuditRecord};
use crate::origin::Origin;
use crate::server::Server;
use fugue_protocol::cmd;
use fugue_protocol::{
    AgentState, CommandError, Delivery, ErrorCode, MessageOutcome, MessageStatus, MessageTo,
    PaneId, RESULT_BYTES_MAX, Report, Response, SendMessage, Target,
};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The panes a message goes to.
fn recipients(
    exec: &mut Exec<'_>,
    to: &MessageTo,
    plain: bool,
) -> Result<Vec<PaneId>, CommandError> {
    let tree = exec.server.mux.tree();
    let agents: Vec<Arc<Tracked>> = exec
        .server
        .agents
        .all()
        .into_iter()
        .filter(|t| t.is_agent() && exec.scope.allows(t.pane) && tree.panes.contains_key(&t.pane))
        .collect();
    let mut panes: Vec<PaneId> = match to {
        MessageTo::Pane(t) => {
            let pane = tree.resolve_pane(Some(t), &exec.ctx)?;
            // A message typed into a shell is a command the shell runs: refused unless
            // the caller says it means that.
            if !plain && !exec.server.agents.get(pane).is_some_and(|t| t.is_agent()) {
                return Err(CommandError::invalid_argument(
                    "to",
                    format!("pane {pane} runs no agent: a message typed there would be run as a command"),
                )
                .with_suggestion(
                    "send_input types into plain panes (run_command runs a command and returns its output); pass plain: true to send the message anyway",
                ));
            }
            vec![pane]
        }
        MessageTo::Tag(tag) => agents
            .iter()
            .filter(|t| t.tags.iter().any(|x| x == tag))
            .map(|t| t.pane)
            .collect(),
        MessageTo::Children => {
            let mine = super::scope::children(&tree, exec.origin);
            agents
                .iter()
                .filter(|t| mine.contains(&t.pane))
                .map(|t| t.pane)
                .collect()
        }
    };
    panes.sort();
    if panes.is_empty() {
        let mut tags: Vec<&str> = agents
            .iter()
            .flat_map(|t| t.tags.iter().map(String::as_str))
            .collect();
        tags.sort_unstable();
        tags.dedup();
        let what = match to {
            MessageTo::Tag(tag) => format!("no agent pane has the tag `{tag}`"),
            _ => "you have no agent panes of your own (children are the agents made from your pane or connection)"
                .to_string(),
        };
        return Err(
            CommandError::unknown_target(what).with_suggestion(if tags.is_empty() {
                "spawn agents with tags (spawn_agent tags), or name a pane".to_string()
            } else {
                format!("tags in use: {}", tags.join(", "))
            }),
        );
    }
    exec.resolved = Some(
        panes
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(","),
    );
    Ok(panes)
}

pub async fn send_message(exec: &mut Exec<'_>, c: SendMessage) -> Result<Response, CommandError> {
    // Control characters are never typed for an agent (see io::clean_text).
    let text = io::clean_text(&c.text);
    if text.trim().is_empty() {
        return Err(CommandError::invalid_argument("text", "it is empty"));
    }
    if text.len() > io::MAX_INPUT {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!("the message is over the limit of {} bytes", io::MAX_INPUT),
        )
        .with_suggestion("write it to a file and send its path"));
    }
    let config = exec.server.config();
    let quiescence = c.quiescence_ms.unwrap_or(config.messages.quiescence_ms);
    if quiescence > 600_000 {
        return Err(CommandError::invalid_argument(
            "quiescence_ms",
            "expected 0 to 600000 ms",
        ));
    }
    let timeout = match (c.delivery, c.timeout_ms) {
        // A queued message may wait as long as any wait may.
        (Delivery::Async, None) => config.waits.max_timeout_ms,
        (_, asked) => timeout_for(exec, asked),
    };
    let panes = recipients(exec, &c.to, c.plain)?;
    let server = Arc::clone(exec.server);
    let deadline = Instant::now() + Duration::from_millis(timeout);
    let job = Job {
        text: Arc::from(text.as_str()),
        moment: Moment {
            want: Want::Idle,
            quiescence: Duration::from_millis(quiescence),
            human_pause: Duration::from_millis(config.messages.human_pause_ms),
            deadline: Some(deadline),
        },
    };
    let mut outcomes = Vec::new();
    let mut jobs = Vec::new();
    for pane in panes {
        let refused = |reason: String| MessageOutcome {
            pane,
            status: MessageStatus::Failed,
            reason: Some(reason),
            waited_ms: 0,
            cursor: None,
        };
        // Tags and children may take in a person's first pane: it is left out.
        if exec.origin.is_agent()
            && config.policy.protect_first_pane
            && super::scope::is_protected(&server.mux.tree(), pane)
        {
            outcomes.push(refused(format!(
                "{pane} is the first pane of a session a person made: protected from agents"
            )));
            continue;
        }
        let t = server.agents.watch(&server.mux, pane)?;
        match Pending::count(
            t,
            config.messages.max_queued,
            server.next_nonce(),
            &job.text,
        ) {
            Ok(p) => jobs.push(p),
            Err(queued) => outcomes.push(refused(format!(
                "{queued} messages already wait for {pane} (the limit is {})",
                config.messages.max_queued
            ))),
        }
    }
    match c.delivery {
        Delivery::Sync => {
            let all = jobs.into_iter().map(|t| deliver(&server, t, &job));
            outcomes.extend(futures::future::join_all(all).await);
        }
        Delivery::Async => {
            for t in jobs {
                outcomes.push(MessageOutcome {
                    pane: t.0.pane,
                    status: MessageStatus::Queued,
                    reason: None,
                    waited_ms: 0,
                    cursor: None,
                });
                let (server, job, origin) = (Arc::clone(&server), job.clone(), exec.origin.clone());
                tokio::spawn(async move {
                    let started = Instant::now();
                    let o = deliver(&server, t, &job).await;
                    record_async(&server, &origin, &o, started);
                });
            }
        }
    }
    outcomes.sort_by_key(|o| o.pane);
    Ok(Response::Messages(outcomes))
}

#[derive(Clone)]
struct Job {
    text: Arc<str>,
    moment: Moment,
}

/// Counts a message in a pane's queue from the moment it is counted until its delivery
/// ends, however it ends (an error on a later recipient, a dropped call).
/// Its text is kept on the tracker meanwhile, for the journal.
struct Pending(Arc<Tracked>, u64);

impl Pending {
    /// Counts a message for `t`, unless `max` already wait (then the count waiting).
    fn count(t: Arc<Tracked>, max: u32, id: u64, text: &Arc<str>) -> Result<Pending, u32> {
        let queued = t.pending_messages.fetch_add(1, Ordering::AcqRel);
        t.queue_text(id, Arc::clone(text));
        let guard = Pending(t, id);
        if queued >= max {
            return Err(queued);
        }
        Ok(guard)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.unqueue_text(self.1);
        self.0.pending_messages.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits for the moment and types the message; never fails the call as a whole.
async fn deliver(server: &Arc<Server>, pending: Pending, job: &Job) -> MessageOutcome {
    let t = &pending.0;
    let started = Instant::now();
    let result = type_at_moment(server, t, &job.text, &job.moment).await;
    let (status, reason, cursor) = match result {
        Ok(cursor) => (MessageStatus::Delivered, None, Some(cursor)),
        Err(NotTyped { status, reason, .. }) => (status, Some(reason), None),
    };
    MessageOutcome {
        pane: t.pane,
        status,
        reason,
        waited_ms: started.elapsed().as_millis() as u64,
        cursor,
    }
}

/// An async delivery's end goes in the audit log like a command of its own.
fn record_async(server: &Server, origin: &Origin, o: &MessageOutcome, started: Instant) {
    let result = match o.status {
        MessageStatus::Delivered => "ok",
        MessageStatus::Timeout => "timeout",
        _ => "failed",
    };
    if o.status != MessageStatus::Delivered {
        tracing::warn!(
            "{origin}: a message for {} was not delivered: {}",
            o.pane,
            o.reason.as_deref().unwrap_or("")
        );
    }
    server.audit.record(&AuditRecord {
        time: audit::now(),
        origin: origin.to_string(),
        command: "send-message",
        target: Some(o.pane.to_string()),
        result,
        duration_us: audit::micros(started.elapsed()),
        via: Some("async delivery"),
        detail: None,
    });
}

pub fn get_result(exec: &mut Exec<'_>, target: Option<&Target>) -> Result<Response, CommandError> {
    let resolved = exec.server.mux.tree().resolve_pane(target, &exec.ctx);
    let pane = match (resolved, target) {
        (Ok(p), _) => p,
        // A closed pane's result is kept for a while.
        (Err(e), Some(Target::Pane(p))) => {
            let Some(lineage) = exec.server.agents.closed_lineage(*p) else {
                return Err(e);
            };
            if !exec.scope.allows_lineage(*p, &lineage) {
                return Err(exec.scope.refuse(*p));
            }
            *p
        }
        (Err(e), _) => return Err(e),
    };
    exec.resolved = Some(pane.to_string());
    if let Some(r) = exec.server.agents.result_of(pane) {
        return Ok(Response::Result(r));
    }
    let state = exec.server.agents.get(pane).map(|t| t.view().state);
    let exited = exec
        .server
        .mux
        .tree()
        .panes
        .get(&pane)
        .is_some_and(|p| p.exit_status.is_some());
    if exited || state == Some(AgentState::Exited) {
        return Err(CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {pane} exited without reporting a result"),
        )
        .with_suggestion("read_pane shows its last output"));
    }
    // A pane that runs no agent (a shell) never reports: waiting for it is a dead end.
    let is_agent = exec.server.agents.get(pane).is_some_and(|t| t.is_agent());
    if !is_agent {
        return Err(CommandError::invalid_argument(
            "pane",
            format!("pane {pane} is not an agent pane: nothing in it reports a result"),
        )
        .with_suggestion(
            "read_pane reads its output; run_command runs a command to completion and returns its output; spawn_agent starts an agent whose result get_result reads",
        ));
    }
    let now = state.map(|s| format!(" (it is {s})")).unwrap_or_default();
    Err(CommandError::new(
        ErrorCode::NotReady,
        format!("pane {pane} has not reported a result yet{now}"),
    )
    .with_suggestion(format!(
        "wait_for {{\"pane\": \"{pane}\", \"state\": \"idle\"}}, then get_result again; agents report with `fugue report --result`"
    )))
}

pub fn report(exec: &mut Exec<'_>, c: Report) -> Result<Response, CommandError> {
    if c.state.is_none() && c.result.is_none() {
        return Err(
            CommandError::invalid_argument("state", "give a state, a result, or both")
                .with_suggestion("state is idle, busy or awaiting_input; result is text"),
        );
    }
    if let Some(s) = c.state
        && !AgentState::REPORTABLE.contains(&s)
    {
        return Err(CommandError::invalid_argument(
            "state",
            format!("`{s}`: an agent reports idle, busy or awaiting_input"),
        )
        .with_suggestion(
            "report idle when done, busy while working, awaiting_input when a person must answer",
        ));
    }
    if let Some(r) = &c.result
        && r.len() > RESULT_BYTES_MAX
    {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "a result of {} bytes is over the limit of {RESULT_BYTES_MAX} bytes",
                r.len()
            ),
        )
        .with_suggestion("report a summary, and write the rest to a file named in it"));
    }
    let mine = exec.ctx.caller_pane;
    if c.target.is_none() && mine.is_none() {
        // The MCP tool has no `pane` argument: an MCP caller outside a pane has nothing
        // to report for, and is told so rather than to name one.
        if exec.origin.surface() == crate::origin::Surface::Mcp {
            return Err(CommandError::new(
                ErrorCode::InvalidArgument,
                "report is for an agent running in a fugue pane, and this MCP connection does not run in one: it has no state or result to report",
            )
            .with_suggestion(
                "to tell the people watching something, use notify; agents you start with spawn_agent report for their own panes",
            ));
        }
        return Err(CommandError::invalid_argument(
            "pane",
            "this caller does not run in a pane, so name the pane to report for",
        )
        .with_suggestion(
            "name it with -t %N; inside a pane, `fugue report` reports for $FUGUE_PANE_ID",
        ));
    }
    let pane = exec
        .server
        .mux
        .tree()
        .resolve_pane(c.target.as_ref(), &exec.ctx)?;
    exec.resolved = Some(pane.to_string());
    if exec.origin.is_agent() && Some(pane) != mine {
        return Err(CommandError::forbidden(format!(
            "an agent reports only for the pane it runs in, not for {pane}"
        ))
        .with_suggestion("leave out the pane"));
    }
    exec.server
        .agents
        .report(&exec.server.mux, pane, c.state, c.result)?;
    Ok(Response::Done)
}

super::handler!(fugue_protocol::SendMessage, |exec, c| send_message(exec, c)
    .await);
super::handler!(
    cmd::GetResult,
    |exec, cmd::GetResult { target }| get_result(exec, target.as_ref())
);
super::handler!(fugue_protocol::Report, |exec, c| report(exec, c));
