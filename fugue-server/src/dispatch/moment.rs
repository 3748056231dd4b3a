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
//!   C-c or C-u, see [`super::io::draft_after`]): a person always wins.
//!
//! It goes as a bracketed paste with Enter as its own key. Nothing here polls: the
//! wait wakes on the agent's state, on the draft changing, and at the one moment the
//! quiet or the pause runs out.

use super::io;
use crate::agents::Tracked;
use crate::server::Server;
use fugue_protocol::{AgentState, InputPart, Key, MessageStatus};
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
    pub reason: String,
}

/// Waits for the pane's turn and the moment, then types `text` and Enter.
pub async fn type_at_moment(
    server: &Arc<Server>,
    t: &Tracked,
    text: &str,
    m: &Moment,
) -> Result<(), NotTyped> {
    let pane = t.pane;
    let until = |at: Option<Instant>| async move {
        match at {
            Some(at) => tokio::time::sleep_until(at.into()).await,
            None => std::future::pending().await,
        }
    };
    let timeout = |reason: String| NotTyped {
        status: MessageStatus::Timeout,
        reason,
    };
    let _turn = match m.deadline {
        Some(d) => tokio::time::timeout_at(d.into(), t.turn.lock())
            .await
            .map_err(|_| timeout(format!("earlier messages for {pane} were still waiting")))?,
        None => t.turn.lock().await,
    };
    let mut rx = t.watch();
    let mut draft = t.shared.watch_draft();
    loop {
        let v = rx.borrow_and_update().clone();
        if v.state == AgentState::Exited || t.is_closed() {
            return Err(NotTyped {
                status: MessageStatus::Failed,
                reason: format!("pane {pane} exited"),
            });
        }
        let now = Instant::now();
        let (state, ok) = match m.want {
            Want::Idle => (v.state, v.state == AgentState::Idle),
            Want::Task => (v.underneath, v.ready && v.underneath == AgentState::Idle),
        };
        let drafted = *draft.borrow_and_update() > 0;
        // A person's draft first: it is why the agent looks busy (its prompt line is
        // not empty), and the reason a person can do something about.
        let (reason, wake) = if drafted {
            (format!("a person has an unsent draft in pane {pane}"), None)
        } else if !ok {
            (format!("pane {pane} stayed {state}"), None)
        } else {
            let human = t.shared.last_human_input().map(|h| h + m.human_pause);
            let quiet = t
                .shared
                .has_output()
                .then(|| t.shared.last_output() + m.quiescence);
            match (human.filter(|h| *h > now), quiet.filter(|q| *q > now)) {
                (None, None) => return type_now(server, t, text).await,
                (Some(h), q) => (
                    format!("a person kept typing in pane {pane}"),
                    Some(q.map_or(h, |q| q.max(h))),
                ),
                (None, Some(q)) => (format!("pane {pane} kept printing"), Some(q)),
            }
        };
        tokio::select! {
            r = rx.changed() => if r.is_err() {
                return Err(NotTyped { status: MessageStatus::Failed, reason: format!("pane {pane} closed") });
            },
            r = draft.changed() => if r.is_err() {
                return Err(NotTyped { status: MessageStatus::Failed, reason: format!("pane {pane} closed") });
            },
            _ = until(wake) => {}
            _ = until(m.deadline) => return Err(timeout(reason)),
        }
    }
}

async fn type_now(server: &Arc<Server>, t: &Tracked, text: &str) -> Result<(), NotTyped> {
    let enter = Key::new(
        fugue_protocol::keys::KeyCode::Enter,
        fugue_protocol::keys::Mods::NONE,
    );
    let parts = [InputPart::Paste(text.to_string()), InputPart::Key(enter)];
    io::deliver(server, t.pane, &parts)
        .await
        .map_err(|e| NotTyped {
            status: MessageStatus::Failed,
            reason: e.message,
        })?;
    t.submitted(server);
    Ok(())
}
