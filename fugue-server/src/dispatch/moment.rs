//! Typing into an agent's pane at a moment that tramples no one.
//!
//! Messages (`send-message`) and tasks (`spawn-agent`, typed when the agent is ready or
//! when the results a held task needs arrive) go through the same gate and take the
//! same per-pane turn, one at a time. The text is typed only when all of these hold:
//!
//! - the agent is `idle` (a held task: idle underneath its hold);
//! - the pane has printed nothing for the quiescence time;
//! - no person has typed in it for `[messages] human_pause_ms`;
//! - no person has an unsent draft on its input line (typed since their last Enter,
//!   C-c or C-u, and not yet taken by the agent, see [`super::io::draft_after`]): a
//!   person always wins.
//!
//! It goes as a bracketed paste with Enter as its own key. Nothing here polls: the
//! wait wakes on the agent's state, on the draft changing, and at the one moment the
//! quiet or the pause runs out.

use super::io;
use crate::agents::{Tracked, View};
use crate::server::Server;
use fugue_protocol::{AgentState, ErrorCode, InputPart, Key, MessageStatus};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the agent must be doing before the text goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// `idle` (a message).
    Idle,
    /// A task: ready, and idle underneath the hold that keeps its pane `starting`.
    Task,
}

#[derive(Clone, Debug)]
pub struct Moment {
    pub want: Want,
    pub quiescence: Duration,
    pub human_pause: Duration,
    /// None: as long as it takes (a held task, which already waited for results).
    pub deadline: Option<Instant>,
}

/// Why the text was not typed.
#[derive(Debug)]
pub struct NotTyped {
    pub status: MessageStatus,
    /// The error code a caller that fails on it (`spawn-agent`) answers with:
    /// `timeout` only when the time ran out.
    pub code: ErrorCode,
    pub reason: String,
}

impl NotTyped {
    fn timeout(reason: String) -> NotTyped {
        NotTyped {
            status: MessageStatus::Timeout,
            code: ErrorCode::Timeout,
            reason,
        }
    }

    fn gone(reason: String) -> NotTyped {
        NotTyped {
            status: MessageStatus::Failed,
            code: ErrorCode::PaneExited,
            reason,
        }
    }
}

/// What the gate says now.
enum Gate {
    Open,
    /// Closed for `reason`; it may open by itself at `wake` (the quiet or the pause
    /// running out), otherwise only when the state or the draft changes.
    Closed {
        reason: String,
        wake: Option<Instant>,
    },
}

fn look(t: &Tracked, m: &Moment, v: &View, drafted: bool) -> Result<Gate, NotTyped> {
    let pane = t.pane;
    if v.state == AgentState::Exited || t.is_closed() {
        return Err(NotTyped::gone(format!("pane {pane} exited")));
    }
    let now = Instant::now();
    let (state, ok) = match m.want {
        Want::Idle => (v.state, v.state == AgentState::Idle),
        Want::Task => (v.underneath, v.ready && v.underneath == AgentState::Idle),
    };
    // A person's draft first: it is why the agent looks busy (its prompt line is not
    // empty), and the reason a person can do something about.
    if drafted {
        return Ok(Gate::Closed {
            reason: format!("a person has an unsent draft in pane {pane}"),
            wake: None,
        });
    }
    if !ok {
        return Ok(Gate::Closed {
            reason: format!("pane {pane} stayed {state}"),
            wake: None,
        });
    }
    let human = t.shared.last_human_input().map(|h| h + m.human_pause);
    let quiet = t
        .shared
        .has_output()
        .then(|| t.shared.last_output() + m.quiescence);
    Ok(
        match (human.filter(|h| *h > now), quiet.filter(|q| *q > now)) {
            (None, None) => Gate::Open,
            (Some(h), q) => Gate::Closed {
                reason: format!("a person kept typing in pane {pane}"),
                wake: Some(q.map_or(h, |q| q.max(h))),
            },
            (None, Some(q)) => Gate::Closed {
                reason: format!("pane {pane} kept printing"),
                wake: Some(q),
            },
        },
    )
}

/// Waits for the moment, then for the pane's turn, then types `text` and Enter.
///
/// The turn is taken only once the gate is open, and the gate looked at again under
/// it: a message waiting for an agent to become idle must not hold the turn, or a held
/// task (which keeps the pane `starting`, so that message waits) could never be typed
/// until the message gave up. Whoever types first makes the agent busy, so the others,
/// on getting the turn, find the gate closed and wait again.
pub async fn type_at_moment(
    server: &Arc<Server>,
    t: &Tracked,
    text: &str,
    m: &Moment,
) -> Result<String, NotTyped> {
    let pane = t.pane;
    let until = |at: Option<Instant>| async move {
        match at {
            Some(at) => tokio::time::sleep_until(at.into()).await,
            None => std::future::pending().await,
        }
    };
    let closed = || NotTyped::gone(format!("pane {pane} closed"));
    let mut rx = t.watch();
    let mut draft = t.shared.watch_draft();
    loop {
        let v = rx.borrow_and_update().clone();
        let drafted = *draft.borrow_and_update() > 0;
        let (reason, wake) = match look(t, m, &v, drafted)? {
            Gate::Closed { reason, wake } => (reason, wake),
            Gate::Open => {
                let turn = match m.deadline {
                    Some(d) => tokio::time::timeout_at(d.into(), t.turn.lock())
                        .await
                        .map_err(|_| {
                            NotTyped::timeout(format!(
                                "earlier messages for {pane} were still being typed"
                            ))
                        })?,
                    None => t.turn.lock().await,
                };
                // Another message or task may have gone while this one waited for
                // the turn: the agent is busy with it now.
                let drafted = *t.shared.watch_draft().borrow() > 0;
                if let Gate::Open = look(t, m, &t.view(), drafted)? {
                    let typed = type_now(server, t, text).await;
                    drop(turn);
                    return typed;
                }
                continue;
            }
        };
        tokio::select! {
            r = rx.changed() => if r.is_err() { return Err(closed()) },
            r = draft.changed() => if r.is_err() { return Err(closed()) },
            _ = until(wake) => {}
            _ = until(m.deadline) => return Err(NotTyped::timeout(reason)),
        }
    }
}

/// Types the text and Enter; the cursor of the line it went to.
async fn type_now(server: &Arc<Server>, t: &Tracked, text: &str) -> Result<String, NotTyped> {
    let enter = Key::new(
        fugue_protocol::keys::KeyCode::Enter,
        fugue_protocol::keys::Mods::NONE,
    );
    let parts = [InputPart::Paste(text.to_string()), InputPart::Key(enter)];
    let cursor = io::deliver(server, t.pane, &parts)
        .await
        .map_err(|e| NotTyped {
            status: MessageStatus::Failed,
            code: e.code,
            reason: e.message,
        })?;
    t.submitted(&server.mux);
    Ok(cursor)
}
