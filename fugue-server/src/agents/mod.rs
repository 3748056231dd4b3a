//! Agent panes: their states, the results they report, and who may see them.
//!
//! A pane is tracked when it was started from a preset (`spawn-agent`), when its
//! program reports (`fugue report`), or when someone asks about its state (`wait-for
//! --state`, `send-message`). Each tracked pane has a sans-IO [`machine::Machine`] and a
//! monitor task that feeds it: woken by the pane's change notifications, by reports and
//! submitted input, and by one timer for the moment the pane becomes quiet. Nothing
//! polls. State changes go to a watch channel (waiters), the pane's border badge
//! (attached clients), and a short history (`list-panes`).

pub mod machine;
mod monitor;
pub mod worktrees;

use crate::attached::Control;
use crate::mux::Mux;
use crate::pane::PaneShared;
use crate::session::tree::{Creator, Tree};
use fugue_protocol::{
    AgentInfo, AgentResult, AgentState, CommandError, PaneId, StateChange, StateSource, TaskStatus,
};
use machine::{Machine, Observation};
use parking_lot::Mutex;
use regex::Regex;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::{Notify, watch};

/// State changes kept per pane for `list-panes`.
const HISTORY: usize = 8;
/// Results of closed panes kept for `get-result` and `depends_on` (each at most
/// RESULT_BYTES_MAX: 16 MiB at worst, usually a few KiB).
const CLOSED_KEPT: usize = 64;
/// Lines at the bottom of the screen searched for a question to a person.
const ASK_LINES: usize = 10;
/// Quiet time of a pane watched without a preset.
const DEFAULT_QUIET: Duration = Duration::from_millis(500);

pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A pane's state as watchers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub state: AgentState,
    pub by: StateSource,
    pub since_ms: u64,
    pub exit_code: Option<i32>,
    /// The agent has been ready for work at least once (a held task may be typed).
    pub ready: bool,
    /// The state without a held task's hold: a held task is typed when this is idle.
    pub underneath: AgentState,
}

/// A reported result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub text: String,
    pub at_ms: u64,
}

/// How the heuristics read a pane.
pub struct Heuristics {
    pub quiet: Duration,
    pub prompt: Option<Regex>,
    pub awaiting: Option<Regex>,
}

impl Heuristics {
    pub fn plain() -> Heuristics {
        Heuristics {
            quiet: DEFAULT_QUIET,
            prompt: None,
            awaiting: None,
        }
    }

    pub fn from_preset(p: &crate::config::Preset) -> Result<Heuristics, CommandError> {
        let compile = |what: &str, re: &str| {
            (!re.is_empty())
                .then(|| {
                    regex::RegexBuilder::new(re)
                        .size_limit(1 << 20)
                        .build()
                        .map_err(|e| CommandError::internal(format!("preset {what}: {e}")))
                })
                .transpose()
        };
        Ok(Heuristics {
            quiet: Duration::from_millis(p.quiet_ms),
            prompt: compile("prompt", &p.prompt)?,
            awaiting: compile("awaiting_input", &p.awaiting_input)?,
        })
    }
}

/// Where a tracked pane came from, kept so its result stays scoped after it closes.
#[derive(Clone, Debug, Default)]
pub struct Lineage {
    /// The agent panes above it, nearest first.
    pub ancestors: Vec<PaneId>,
    /// The MCP connection that created it (or one above it).
    pub connections: Vec<u64>,
}

impl Lineage {
    pub fn of(tree: &Tree, pane: PaneId) -> Lineage {
        let mut l = Lineage::default();
        let mut at = tree.panes.get(&pane).map(|p| p.creator.clone());
        while let Some(creator) = at.take() {
            if let Creator::Mcp { connection, .. } = creator {
                l.connections.push(connection);
            }
            if let Some(parent) = creator.pane() {
                if l.ancestors.contains(&parent) || l.ancestors.len() > 64 {
                    break;
                }
                l.ancestors.push(parent);
                at = tree.panes.get(&parent).map(|p| p.creator.clone());
            }
        }
        l
    }
}

pub struct Tracked {
    pub pane: PaneId,
    pub preset: Option<String>,
    pub tags: Vec<String>,
    pub lineage: Lineage,
    /// Shown as an agent (badge, `fugue agent list`): from a preset, or it reported.
    agent: AtomicBool,
    heuristics: Heuristics,
    machine: Mutex<Machine>,
    view: watch::Sender<View>,
    result: watch::Sender<Option<Arc<Stored>>>,
    history: Mutex<VecDeque<StateChange>>,
    task: Mutex<(TaskStatus, Vec<PaneId>)>,
    pub pending_messages: AtomicU32,
    /// Reports, submitted input and closing wake the monitor.
    wake: Notify,
    closed: AtomicBool,
    /// Messages are typed one at a time.
    pub turn: tokio::sync::Mutex<()>,
    pub shared: Arc<PaneShared>,
    changes: tokio::sync::broadcast::Sender<(PaneId, AgentState)>,
    /// When a restart restored it from the journal (ms since the epoch).
    restored: Mutex<Option<u64>>,
    /// The texts of messages queued for it and not yet typed, by a number of the
    /// sender's, so the journal keeps what a restart must deliver.
    queued_texts: Mutex<Vec<(u64, Arc<str>)>>,
}

impl Tracked {
    /// A message's text waits for this pane (see `queued_texts`).
    pub fn queue_text(&self, id: u64, text: Arc<str>) {
        self.queued_texts.lock().push((id, text));
    }

    /// It was typed, or given up.
    pub fn unqueue_text(&self, id: u64) {
        self.queued_texts.lock().retain(|(i, _)| *i != id);
    }

    /// The texts waiting, oldest first.
    pub fn queued_texts(&self) -> Vec<Arc<str>> {
        self.queued_texts
            .lock()
            .iter()
            .map(|(_, t)| Arc::clone(t))
            .collect()
    }

    /// Marks it restored, with the result it had reported before (text, when).
    pub fn restored(&self, result: Option<(String, u64)>) {
        *self.restored.lock() = Some(unix_ms());
        if let Some((text, at_ms)) = result {
            self.result
                .send_replace(Some(Arc::new(Stored { text, at_ms })));
        }
    }

    pub fn view(&self) -> View {
        self.view.borrow().clone()
    }

    pub fn watch(&self) -> watch::Receiver<View> {
        self.view.subscribe()
    }

    pub fn result(&self) -> Option<Arc<Stored>> {
        self.result.borrow().clone()
    }

    pub fn watch_result(&self) -> watch::Receiver<Option<Arc<Stored>>> {
        self.result.subscribe()
    }

    pub fn is_agent(&self) -> bool {
        self.agent.load(Ordering::Acquire)
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    pub fn set_task(&self, status: TaskStatus, waiting_for: Vec<PaneId>) {
        *self.task.lock() = (status, waiting_for);
    }

    /// Holds the pane in `starting` while its task waits (or releases it).
    pub fn hold(&self, mux: &Mux, held: bool) {
        self.machine.lock().hold(held);
        self.evaluate(mux);
    }

    /// The agent has its task from the start (on its command line): it is working, not
    /// loading, until it is first idle.
    pub fn started_with_task(&self, mux: &Mux) {
        {
            let mut m = self.machine.lock();
            m.assume_ready();
            m.input(Instant::now());
        }
        self.evaluate(mux);
        self.wake.notify_one();
    }

    /// Input was submitted (a task, a message, a person's Enter): the agent works.
    pub fn submitted(&self, mux: &Mux) {
        self.machine.lock().input(Instant::now());
        self.evaluate(mux);
        self.wake.notify_one();
    }

    fn observe(&self, mux: &Mux, now: Instant) -> Observation {
        let last_output = self.shared.has_output().then(|| self.shared.last_output());
        let mut obs = Observation {
            last_output,
            exited: self.shared.exit_status(),
            ..Observation::default()
        };
        if obs.exited.is_some() || !self.machine.lock().needs_screen(now, last_output) {
            return obs;
        }
        // The handles under the tree's lock; the terminal asked (a syscall) after.
        let handles = {
            let tree = mux.tree();
            tree.panes
                .get(&self.pane)
                .map(|p| (p.pty.input().ok(), p.pty.pid()))
        };
        let fg = handles.map(|(input, pid)| (input.and_then(|i| i.foreground_pgrp()), pid));
        obs.foreground_child = matches!(fg, Some((Some(g), Some(pid))) if g != pid as i32);
        let st = self.shared.state.lock();
        let screen = st.screen();
        obs.alternate_screen = screen.alternate_screen();
        let (_, cols) = screen.size();
        let rows: Vec<String> = screen.rows(0, cols.get()).collect();
        if let Some(re) = &self.heuristics.prompt {
            // The cursor's line; when that is empty (a prompt printed on a line of its
            // own, input below it), the last line above it that is not.
            let row = usize::from(screen.cursor_position().0);
            let line = rows
                .get(..=row.min(rows.len().saturating_sub(1)))
                .unwrap_or_default()
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(String::as_str);
            // With or without the trailing spaces a prompt often ends with.
            obs.prompt = line.is_some_and(|l| re.is_match(l) || re.is_match(l.trim_end()));
        }
        if let Some(re) = &self.heuristics.awaiting {
            let last: Vec<&str> = rows
                .iter()
                .map(|r| r.trim_end())
                .filter(|r| !r.is_empty())
                .collect();
            let from = last.len().saturating_sub(ASK_LINES);
            obs.asks = re.is_match(&last[from..].join("\n"));
        }
        obs
    }

    /// Brings the state up to date; returns when to look again if nothing happens.
    pub fn evaluate(&self, mux: &Mux) -> Option<Instant> {
        let now = Instant::now();
        let obs = self.observe(mux, now);
        // Decided and published under the machine's lock: two evaluations racing each
        // other reach the view in the order they decided, so the view never keeps an
        // older decision than the machine's. A finished machine decides nothing more.
        let (next, changed) = {
            let mut m = self.machine.lock();
            if m.is_finished() {
                return None;
            }
            let change = m.update(now, &obs);
            let next = m.next_check(now, obs.last_output);
            let (state, by, exit_code, ready, underneath) = (
                m.state(),
                m.source(),
                m.exit_code(),
                m.ready(),
                m.underneath(),
            );
            let before = self.view();
            let changed = change.is_some() && state != before.state;
            if changed
                && before.state == AgentState::AwaitingInput
                && matches!(state, AgentState::Busy | AgentState::Idle)
            {
                // The agent took its answer and moved on: what a person typed while
                // it asked (a menu's "1") was that answer, not a draft on its input
                // line, and must not hold messages back from now on.
                self.shared.set_draft(|_| 0);
            }
            if changed {
                self.record(state, by, exit_code, ready, underneath);
            } else if by != before.by || ready != before.ready || underneath != before.underneath {
                // The same state, now known another way (a report confirming a guess),
                // or a held task's pane changing underneath its hold.
                self.view.send_modify(|v| {
                    v.by = by;
                    v.ready = ready;
                    v.underneath = underneath;
                });
            }
            (next, changed.then_some(state))
        };
        if let Some(state) = changed {
            self.announce(mux, state);
            // None listening is not an error.
            let _ = self.changes.send((self.pane, state));
        }
        next
    }

    /// Records a new state in the history and the view (under the machine's lock).
    fn record(
        &self,
        state: AgentState,
        by: StateSource,
        exit_code: Option<i32>,
        ready: bool,
        underneath: AgentState,
    ) {
        let at_ms = unix_ms();
        tracing::debug!("pane {}: {state} ({by:?})", self.pane);
        {
            let mut h = self.history.lock();
            if h.len() >= HISTORY {
                h.pop_front();
            }
            h.push_back(StateChange { state, at_ms, by });
        }
        self.view.send_replace(View {
            state,
            by,
            since_ms: at_ms,
            exit_code,
            ready,
            underneath,
        });
    }

    /// Shows a new state to people: the border badge, and a notice when the agent
    /// starts waiting for them.
    fn announce(&self, mux: &Mux, state: AgentState) {
        if !self.is_agent() {
            return;
        }
        let session = {
            let mut tree = mux.tree();
            // Read under the tree's lock: of two announcements racing, the one that
            // writes last reads the newest view, so the badge ends current.
            let v = self.view();
            if let Some(p) = tree.panes.get_mut(&self.pane) {
                p.badge = Some(badge(v.state, v.exit_code));
            }
            tree.locate(self.pane).map(|(s, _)| s)
        };
        mux.changed();
        if state == AgentState::AwaitingInput
            && let Some(s) = session
        {
            let name = self.preset.as_deref().unwrap_or("agent");
            mux.attached.tell(
                Some(s),
                Control::Notice(format!("{} ({name}) is waiting for you", self.pane)),
            );
        }
    }

    pub fn info(&self) -> AgentInfo {
        let v = self.view();
        let (task, waiting_for) = self.task.lock().clone();
        AgentInfo {
            preset: self.preset.clone(),
            state: v.state,
            exit_status: v.exit_code,
            by: v.by,
            since_ms: v.since_ms,
            tags: self.tags.clone(),
            result_at_ms: self.result().map(|r| r.at_ms),
            task,
            waiting_for,
            pending_messages: self.pending_messages.load(Ordering::Relaxed),
            history: self.history.lock().iter().cloned().collect(),
            worktree: None,
            restored_at_ms: *self.restored.lock(),
        }
    }

    fn agent_result(&self) -> Option<AgentResult> {
        let r = self.result()?;
        Some(AgentResult {
            pane: self.pane,
            agent: self.preset.clone(),
            result: r.text.clone(),
            reported_at_ms: r.at_ms,
            state: self.view().state,
        })
    }
}

/// The border badge of an agent pane.
pub fn badge(state: AgentState, exit_code: Option<i32>) -> String {
    match (state, exit_code) {
        (AgentState::Exited, Some(c)) => format!("exited {c}"),
        (AgentState::AwaitingInput, _) => "awaiting input".into(),
        (s, _) => s.name().into(),
    }
}

/// A closed pane's result.
pub struct Closed {
    pub result: AgentResult,
    pub lineage: Lineage,
}

/// Every tracked pane.
pub struct Agents {
    panes: Mutex<HashMap<PaneId, Arc<Tracked>>>,
    closed: Mutex<VecDeque<Closed>>,
    /// State changes, for the `agent-state-changed` hook. A listener that falls more
    /// than [`CHANGES_KEPT`] behind loses the oldest (and logs it).
    changes: tokio::sync::broadcast::Sender<(PaneId, AgentState)>,
    /// Agents' git worktrees, kept past their panes.
    pub worktrees: worktrees::Worktrees,
}

/// State changes kept for a slow listener.
pub const CHANGES_KEPT: usize = 256;

impl Default for Agents {
    fn default() -> Self {
        Agents {
            panes: Mutex::default(),
            closed: Mutex::default(),
            changes: tokio::sync::broadcast::channel(CHANGES_KEPT).0,
            worktrees: Default::default(),
        }
    }
}

/// How to start tracking a pane.
pub struct TrackSpec {
    pub preset: Option<String>,
    pub tags: Vec<String>,
    pub heuristics: Heuristics,
    /// Shown as an agent from the start.
    pub agent: bool,
    /// Past loading already (a pane watched on demand that has printed).
    pub ready: bool,
}

impl Agents {
    pub fn get(&self, pane: PaneId) -> Option<Arc<Tracked>> {
        self.panes.lock().get(&pane).cloned()
    }

    /// Agents' state changes from now on.
    pub fn changes(&self) -> tokio::sync::broadcast::Receiver<(PaneId, AgentState)> {
        self.changes.subscribe()
    }

    /// Every tracked pane.
    pub fn all(&self) -> Vec<Arc<Tracked>> {
        self.panes.lock().values().cloned().collect()
    }

    /// Starts tracking a live pane (or returns it if it is tracked already).
    pub fn track(
        &self,
        mux: &Arc<Mux>,
        pane: PaneId,
        spec: TrackSpec,
    ) -> Result<Arc<Tracked>, CommandError> {
        let (shared, lineage) = {
            let tree = mux.tree();
            let p = tree
                .panes
                .get(&pane)
                .ok_or_else(|| CommandError::unknown_target(format!("pane {pane} is gone")))?;
            (Arc::clone(&p.shared), Lineage::of(&tree, pane))
        };
        let tracked = {
            let mut panes = self.panes.lock();
            if let Some(t) = panes.get(&pane) {
                if spec.agent {
                    t.agent.store(true, Ordering::Release);
                }
                return Ok(Arc::clone(t));
            }
            let has_prompt = spec.heuristics.prompt.is_some();
            let (view, _) = watch::channel(View {
                state: AgentState::Starting,
                by: StateSource::Heuristic,
                since_ms: unix_ms(),
                exit_code: None,
                ready: false,
                underneath: AgentState::Starting,
            });
            let (result, _) = watch::channel(None);
            let t = Arc::new(Tracked {
                pane,
                preset: spec.preset,
                tags: spec.tags,
                lineage,
                agent: AtomicBool::new(spec.agent),
                machine: Mutex::new({
                    let mut m = Machine::new(spec.heuristics.quiet, has_prompt);
                    if spec.ready {
                        m.assume_ready();
                    }
                    m
                }),
                heuristics: spec.heuristics,
                view,
                result,
                history: Mutex::new(VecDeque::from([StateChange {
                    state: AgentState::Starting,
                    at_ms: unix_ms(),
                    by: StateSource::Heuristic,
                }])),
                task: Mutex::new((TaskStatus::None, Vec::new())),
                pending_messages: AtomicU32::new(0),
                wake: Notify::new(),
                closed: AtomicBool::new(false),
                turn: tokio::sync::Mutex::new(()),
                shared,
                changes: self.changes.clone(),
                restored: Mutex::new(None),
                queued_texts: Mutex::new(Vec::new()),
            });
            panes.insert(pane, Arc::clone(&t));
            t
        };
        // The pane may have closed after the look above and before the insert, when
        // `closed` found nothing to forget: look again, or the entry (and the pane's
        // screen it holds) would stay for good.
        if !mux.tree().panes.contains_key(&pane) {
            self.closed(pane);
            return Err(CommandError::unknown_target(format!("pane {pane} is gone")));
        }
        if tracked.is_agent() {
            if let Some(p) = mux.tree().panes.get_mut(&pane) {
                p.badge = Some(badge(AgentState::Starting, None));
            }
            mux.changed();
        }
        tracked.evaluate(mux);
        tokio::spawn(monitor::run(Arc::downgrade(mux), Arc::clone(&tracked)));
        Ok(tracked)
    }

    /// The pane's tracker, starting one with plain heuristics if there is none.
    pub fn watch(&self, mux: &Arc<Mux>, pane: PaneId) -> Result<Arc<Tracked>, CommandError> {
        if let Some(t) = self.get(pane) {
            return Ok(t);
        }
        let printed = mux
            .tree()
            .panes
            .get(&pane)
            .is_some_and(|p| p.shared.has_output());
        self.track(
            mux,
            pane,
            TrackSpec {
                preset: None,
                tags: Vec::new(),
                heuristics: Heuristics::plain(),
                agent: false,
                ready: printed,
            },
        )
    }

    /// An agent reports its state and/or result.
    pub fn report(
        &self,
        mux: &Arc<Mux>,
        pane: PaneId,
        state: Option<AgentState>,
        result: Option<String>,
    ) -> Result<View, CommandError> {
        let t = self.watch(mux, pane)?;
        let newly = !t.agent.swap(true, Ordering::AcqRel);
        if let Some(text) = result {
            t.result.send_replace(Some(Arc::new(Stored {
                text,
                at_ms: unix_ms(),
            })));
        }
        if let Some(s) = state {
            t.machine.lock().report(s, Instant::now());
            if s == AgentState::Busy {
                // Agents report busy when their input was submitted (Claude Code's
                // UserPromptSubmit hook, a menu answer taken): their input line is
                // empty, whoever typed it, so no person's draft is left there.
                t.shared.set_draft(|_| 0);
            }
        }
        if newly {
            // It became an agent: its border shows the state from now on.
            let v = t.view();
            if let Some(p) = mux.tree().panes.get_mut(&pane) {
                p.badge = Some(badge(v.state, v.exit_code));
            }
            mux.changed();
        }
        t.evaluate(mux);
        t.wake.notify_one();
        Ok(t.view())
    }

    /// Input was submitted to a pane (tracked or not).
    pub fn submitted(&self, mux: &Mux, pane: PaneId) {
        if let Some(t) = self.get(pane) {
            t.submitted(mux);
        }
    }

    /// The result a pane reported, live or closed.
    pub fn result_of(&self, pane: PaneId) -> Option<AgentResult> {
        if let Some(t) = self.get(pane) {
            return t.agent_result();
        }
        self.closed
            .lock()
            .iter()
            .find(|c| c.result.pane == pane)
            .map(|c| c.result.clone())
    }

    /// The lineage of a closed pane whose result is kept.
    pub fn closed_lineage(&self, pane: PaneId) -> Option<Lineage> {
        self.closed
            .lock()
            .iter()
            .find(|c| c.result.pane == pane)
            .map(|c| c.lineage.clone())
    }

    /// A pane closed: its watchers learn it exited, its result is kept a while.
    pub fn closed(&self, pane: PaneId) {
        let Some(t) = self.panes.lock().remove(&pane) else {
            return;
        };
        {
            // Under the machine's lock, as every publication is: no evaluation still
            // running can publish after this, so `exited` is final.
            let mut m = t.machine.lock();
            t.closed.store(true, Ordering::Release);
            m.finish(t.shared.exit_status());
            let v = t.view();
            if v.state != AgentState::Exited {
                t.record(
                    AgentState::Exited,
                    StateSource::Heuristic,
                    m.exit_code(),
                    v.ready,
                    AgentState::Exited,
                );
            }
        }
        t.wake.notify_one();
        if let Some(mut result) = t.agent_result() {
            result.state = AgentState::Exited;
            let mut closed = self.closed.lock();
            if closed.len() >= CLOSED_KEPT {
                closed.pop_front();
            }
            closed.push_back(Closed {
                result,
                lineage: t.lineage.clone(),
            });
        }
    }
}
