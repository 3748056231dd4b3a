//! The server's shared state and the events that change it outside of commands (a
//! pane's program exiting).

use crate::audit::Audit;
use crate::config::Config;
use crate::origin::Origin;
use crate::session::Tree;
use crate::session::layout::Rect;
use crate::session::resolve::Context;
use fugue_protocol::{ClientKind, PaneId, SessionId};
use parking_lot::{Mutex, RwLock};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tokio::sync::{Notify, mpsc};

/// Something pushed to an attached client outside of frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Notice(String),
    Detached(String),
    /// Draw everything again (`refresh-client`).
    Redraw,
}

/// What waits to be pushed to an attached client besides frames. The latest notice
/// wins: a client that stopped reading costs one notice however many are posted, and a
/// detach never waits behind notices (a stopped client once queued 60,000 of them and
/// took minutes to act on the detach it was asked for).
#[derive(Default)]
pub struct Mailbox {
    slot: Mutex<Slot>,
    /// Wakes the client's frame task.
    pub wake: Notify,
}

#[derive(Default)]
struct Slot {
    detached: Option<String>,
    notice: Option<String>,
    /// Any number of redraw requests cost one redraw.
    redraw: bool,
}

impl Mailbox {
    pub fn post(&self, msg: Control) {
        {
            let mut slot = self.slot.lock();
            match msg {
                Control::Notice(text) => slot.notice = Some(text),
                Control::Detached(reason) => {
                    // A notice posted before the detach is about the session left.
                    slot.notice = None;
                    slot.redraw = false;
                    slot.detached = Some(reason);
                }
                Control::Redraw => slot.redraw = true,
            }
        }
        self.wake.notify_one();
    }

    /// The next message to push: a detach first.
    pub fn take(&self) -> Option<Control> {
        let mut slot = self.slot.lock();
        if let Some(reason) = slot.detached.take() {
            return Some(Control::Detached(reason));
        }
        if std::mem::take(&mut slot.redraw) {
            return Some(Control::Redraw);
        }
        slot.notice.take().map(Control::Notice)
    }
}

/// A connected client.
pub struct ClientEntry {
    pub kind: ClientKind,
    pub caller_pane: Option<PaneId>,
    pub session: Option<SessionId>,
    /// The client's terminal size.
    pub size: Option<(u16, u16)>,
    /// Wakes the client's frame task.
    pub notify: Arc<Notify>,
    pub control: Arc<Mailbox>,
    /// The client's terminal has focus (as far as it said; true until it says not).
    pub focused: bool,
}

/// Events from pane threads: one per pane, so the channel stays small. (Sideband tags,
/// which a pane can print without end, do not come this way: see
/// [`Server::sideband_printed`].)
#[derive(Debug)]
pub enum ServerEvent {
    PaneExited {
        pane: PaneId,
        status: i32,
    },
    /// Which panes have focus may have changed (see [`Server::update_focus`]).
    Focus,
}

pub struct Server {
    pub tree: Mutex<Tree>,
    config: RwLock<Arc<Config>>,
    pub socket: PathBuf,
    pub audit: Audit,
    pub clients: Mutex<HashMap<u64, ClientEntry>>,
    next_client: AtomicU64,
    pub events: mpsc::UnboundedSender<ServerEvent>,
    /// Bumped on every change to the tree that clients draw.
    generation: AtomicU64,
    /// Set once a session has existed, so an empty server knows it may exit.
    had_sessions: AtomicBool,
    pub shutdown: Notify,
    shutting_down: AtomicBool,
    /// Client requests being answered, so a shutdown can let their answers go out.
    in_flight: std::sync::atomic::AtomicUsize,
    answered: Notify,
    /// Sideband tags waiting to run, per pane.
    pub sideband: crate::surfaces::sideband::Sideband,
    /// Agent panes: states, results.
    pub agents: crate::agents::Agents,
    /// Open MCP connections and the pane each caller runs in.
    mcp: Mutex<HashMap<u64, Option<PaneId>>>,
    /// Distinguishes this server's cursors from those of an earlier one on the same socket.
    pub instance: u32,
    nonce: AtomicU64,
    /// A focus check is queued (see [`Server::changed`]).
    focus_pending: AtomicBool,
}

impl Server {
    pub fn new(
        config: Config,
        socket: PathBuf,
        audit: Audit,
    ) -> (Arc<Server>, mpsc::UnboundedReceiver<ServerEvent>) {
        let (events, rx) = mpsc::unbounded_channel();
        let server = Arc::new(Server {
            tree: Mutex::new(Tree::default()),
            config: RwLock::new(Arc::new(config)),
            socket,
            audit,
            clients: Mutex::new(HashMap::new()),
            next_client: AtomicU64::new(1),
            events,
            generation: AtomicU64::new(1),
            had_sessions: AtomicBool::new(false),
            shutdown: Notify::new(),
            shutting_down: AtomicBool::new(false),
            in_flight: std::sync::atomic::AtomicUsize::new(0),
            answered: Notify::new(),
            mcp: Mutex::new(HashMap::new()),
            sideband: Default::default(),
            agents: Default::default(),
            instance: instance_id(),
            nonce: AtomicU64::new(u64::from(instance_id())),
            focus_pending: AtomicBool::new(false),
        });
        (server, rx)
    }

    pub fn config(&self) -> Arc<Config> {
        Arc::clone(&self.config.read())
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Records that the tree changed and wakes every attached client.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        for c in self.clients.lock().values() {
            c.notify.notify_one();
        }
        // The active pane may have changed. Looked at from the event task, not here:
        // callers may hold locks `update_focus` takes. One check pending is enough.
        if !self.focus_pending.swap(true, Ordering::AcqRel) {
            let _ = self.events.send(ServerEvent::Focus);
        }
    }

    /// Tells panes that gained or lost focus, if their programs asked (mode 1004). As
    /// in tmux, a pane has focus when it is the active pane of the current window of
    /// a session that a terminal client with focus is attached to.
    pub fn update_focus(&self) {
        self.focus_pending.store(false, Ordering::Release);
        // The clients' lock is never held while the tree's is taken (the tree's holder
        // may take the clients').
        let sessions: Vec<SessionId> = self
            .clients
            .lock()
            .values()
            .filter(|c| c.kind == ClientKind::Tui && c.focused)
            .filter_map(|c| c.session)
            .collect();
        let tree = self.tree.lock();
        let focused: std::collections::HashSet<PaneId> = tree
            .sessions
            .iter()
            .filter(|s| sessions.contains(&s.id))
            .filter_map(|s| s.active_window().map(|w| w.active))
            .collect();
        for (id, pane) in &tree.panes {
            let report = pane.shared.state.lock().focus_changed(focused.contains(id));
            if let Some(bytes) = report {
                // A program that stopped reading loses the report, as it would a key.
                let _ = pane.pty.write(bytes.to_vec());
            }
        }
    }

    /// A number not handed out before by this server (markers, generated ids).
    pub fn next_nonce(&self) -> u64 {
        self.nonce.fetch_add(0x9e37_79b9, Ordering::Relaxed)
    }

    pub fn next_client_id(&self) -> u64 {
        self.next_client.fetch_add(1, Ordering::Relaxed)
    }

    pub fn mark_had_sessions(&self) {
        self.had_sessions.store(true, Ordering::Release);
    }

    /// Who is asking, for resolving targets.
    pub fn context(&self, origin: &Origin) -> Context {
        let mut ctx = Context {
            caller_pane: origin.caller_pane(),
            client_session: None,
        };
        if let Some(id) = origin.client_id() {
            ctx.client_session = self.clients.lock().get(&id).and_then(|c| c.session);
        }
        ctx
    }

    /// Sends a control message to every client attached to `session` (or to all).
    pub fn tell_clients(&self, session: Option<SessionId>, msg: Control) {
        for c in self.clients.lock().values() {
            if session.is_none() || c.session == session {
                c.control.post(msg.clone());
            }
        }
    }

    /// Detaches every client attached to `session`.
    pub fn detach_session_clients(&self, session: SessionId, reason: &str) {
        for c in self.clients.lock().values_mut() {
            if c.session == Some(session) {
                c.session = None;
                c.control.post(Control::Detached(reason.to_string()));
            }
        }
    }

    /// The window area of a session: the smallest attached client (less its status
    /// bar), or what the session has when none is attached.
    pub fn session_area_from_clients(&self, session: SessionId) -> Option<(u16, u16)> {
        let status_rows = u16::from(self.config().status.enabled);
        self.clients
            .lock()
            .values()
            .filter(|c| c.session == Some(session))
            .filter_map(|c| c.size)
            .map(|(c, r)| (c.max(1), r.saturating_sub(status_rows).max(1)))
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))
    }

    /// Gives every pane of the session the size its rect in the layout implies.
    pub fn relayout(&self, tree: &mut Tree, session: SessionId) {
        let Some(s) = tree.session(session) else {
            return;
        };
        let area = s.area();
        let mut sizes: Vec<(PaneId, Rect)> = Vec::new();
        for w in &s.windows {
            // A zoomed pane is sized straight to the whole area: passing through its
            // unzoomed size would shrink its screen and push rows into history.
            let zoomed = w.zoomed.then_some(w.active);
            sizes.extend(
                w.layout
                    .geometry(area)
                    .into_iter()
                    .filter(|(id, _)| Some(*id) != zoomed),
            );
            if let Some(active) = zoomed {
                sizes.push((active, area));
            }
        }
        for (id, r) in sizes {
            let inner = (
                r.width.saturating_sub(2).max(1),
                r.height.saturating_sub(2).max(1),
            );
            if let Some(p) = tree.panes.get_mut(&id)
                && p.size != inner
            {
                p.size = inner;
                p.pty.resize(inner.0, inner.1);
                let seq = {
                    let mut st = p.shared.state.lock();
                    st.resize(inner.0, inner.1);
                    st.seq()
                };
                p.shared.changed(seq, false);
            }
        }
    }

    /// Re-reads attached clients' sizes into the session and relayouts if it changed.
    pub fn resize_session_to_clients(&self, tree: &mut Tree, session: SessionId) {
        let Some(area) = self.session_area_from_clients(session) else {
            return;
        };
        if let Some(s) = tree.session_mut(session)
            && s.size != area
        {
            s.size = area;
            self.relayout(tree, session);
        }
    }

    /// Registers an MCP connection; false when the server is exiting (the caller is
    /// told to start a new one). Checked under the lock [`Server::maybe_exit`] decides
    /// under, so a connection is either counted before the server decides to exit or
    /// refused: never welcomed by a server about to go.
    pub fn mcp_connected(&self, id: u64, caller_pane: Option<PaneId>) -> bool {
        {
            let mut mcp = self.mcp.lock();
            if self.is_shutting_down() {
                return false;
            }
            mcp.insert(id, caller_pane);
        }
        self.mark_mcp_pane(caller_pane, true);
        true
    }

    /// Registers a client connection (see [`Server::mcp_connected`]); false when the
    /// server is exiting.
    pub fn client_connected(&self, id: u64, entry: ClientEntry) -> bool {
        let mut clients = self.clients.lock();
        if self.is_shutting_down() {
            return false;
        }
        clients.insert(id, entry);
        true
    }

    pub fn mcp_disconnected(&self, id: u64) {
        let pane = self.mcp.lock().remove(&id).flatten();
        let still = pane.is_some_and(|p| self.mcp.lock().values().any(|v| *v == Some(p)));
        if !still {
            self.mark_mcp_pane(pane, false);
        }
        self.maybe_exit();
    }

    /// In `auto` sideband mode an agent connected over MCP is not scanned for tags.
    fn mark_mcp_pane(&self, pane: Option<PaneId>, connected: bool) {
        if let Some(p) = pane
            && let Some(p) = self.tree.lock().panes.get(&p)
        {
            p.shared.sideband.set_mcp(connected);
        }
    }

    /// Where a pane's sideband results go: a private folder next to the socket.
    pub fn sideband_dir(&self, pane: PaneId) -> PathBuf {
        let name = self
            .socket
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.socket
            .with_file_name(format!("{name}.sideband"))
            .join(format!("pane-{}", pane.0))
    }

    /// Sideband tags found in a pane's output (and possible tags that overflowed the size
    /// bound or lacked the pane's key). Called from the pane's reader thread.
    pub fn sideband_printed(self: &Arc<Self>, pane: PaneId, found: crate::pane::tags::Scanned) {
        crate::surfaces::sideband::offer(self, pane, found);
    }

    /// Forgets what the server keeps per pane outside the tree once panes are gone.
    pub fn panes_closed(&self, panes: &[PaneId]) {
        for p in panes {
            self.agents.closed(*p);
            crate::surfaces::sideband::forget(self, *p);
            let _ = std::fs::remove_dir_all(self.sideband_dir(*p));
        }
    }

    /// Panes whose agent is connected over MCP.
    pub fn mcp_panes(&self) -> Vec<PaneId> {
        self.mcp.lock().values().flatten().copied().collect()
    }

    /// True when nothing keeps the server alive: no sessions, and no MCP connection
    /// (an agent connected over MCP may create sessions later).
    pub fn is_idle(&self) -> bool {
        self.tree.lock().sessions.is_empty() && self.mcp.lock().is_empty()
    }

    /// Called after sessions or MCP connections may have gone: the server exits with
    /// its last session (once no MCP client is connected).
    pub fn maybe_exit(&self) {
        if self.had_sessions.load(Ordering::Acquire) {
            self.exit_if_unused("the last session ended");
        }
    }

    /// Exits when no session, MCP connection or client connection is left. A client
    /// connected keeps the server: the CLI that killed the last session gets its answer
    /// before the server exits, and a client that connected as the last session ended
    /// is served, not dropped. Decided under the locks registration takes (tree, then
    /// MCP connections, then clients): a connection is counted or refused, never lost.
    pub fn exit_if_unused(&self, reason: &str) -> bool {
        {
            let tree = self.tree.lock();
            let mcp = self.mcp.lock();
            let clients = self.clients.lock();
            if !tree.sessions.is_empty() || !mcp.is_empty() || !clients.is_empty() {
                return false;
            }
            if self.shutting_down.swap(true, Ordering::AcqRel) {
                return false;
            }
        }
        self.shut_down(reason);
        true
    }

    pub fn begin_shutdown(&self, reason: &str) {
        if self.shutting_down.swap(true, Ordering::AcqRel) {
            return;
        }
        self.shut_down(reason);
    }

    fn shut_down(&self, reason: &str) {
        tracing::info!("shutting down: {reason}");
        self.tell_clients(None, Control::Detached(format!("server exited ({reason})")));
        let panes: Vec<_> = {
            let mut tree = self.tree.lock();
            tree.sessions.clear();
            tree.panes.drain().map(|(_, p)| p).collect()
        };
        for p in &panes {
            p.pty.kill();
        }
        self.panes_closed(&panes.iter().map(|p| p.id).collect::<Vec<_>>());
        self.shutdown.notify_waiters();
        self.shutdown.notify_one();
    }

    /// Counts a client request until the guard is dropped (after its answer was sent).
    pub fn answering(&self) -> Answering<'_> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        Answering(self)
    }

    /// Waits until no client request is being answered, at most `limit`: the request
    /// that ended the last session (`kill-pane`, `kill-session`) gets its answer
    /// instead of a reset connection.
    pub async fn requests_answered(&self, limit: std::time::Duration) {
        let _ = tokio::time::timeout(limit, async {
            loop {
                let answered = self.answered.notified();
                if self.in_flight.load(Ordering::Acquire) == 0 {
                    return;
                }
                answered.await;
            }
        })
        .await;
    }

    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Acquire)
    }

    /// A pane's program ended: keep the pane (remain-on-exit) or close it, and with it
    /// an emptied window and session.
    pub fn pane_exited(&self, pane: PaneId, status: i32) {
        tracing::info!("pane {pane} exited with status {status}");
        let remain_default = self.config().server.remain_on_exit;
        let mut closed_session = None;
        {
            let mut tree = self.tree.lock();
            let Some(p) = tree.panes.get_mut(&pane) else {
                return;
            };
            if p.remain.unwrap_or(remain_default) {
                p.exit_status = Some(status);
                let seq = {
                    let mut st = p.shared.state.lock();
                    st.process(
                        format!("\r\n\x1b[0;7mPane is dead (status {status})\x1b[0m").as_bytes(),
                    );
                    st.seq()
                };
                p.shared.changed(seq, false);
            } else {
                let sid = tree.locate(pane).map(|(s, _)| s);
                if let Some((_, removed)) = tree.remove_pane(pane) {
                    closed_session = removed.session_closed;
                    self.panes_closed(&[pane]);
                    if let Some(sid) = sid.filter(|s| Some(*s) != closed_session) {
                        self.relayout(&mut tree, sid);
                    }
                }
            }
        }
        if let Some(sid) = closed_session {
            // tmux's word for a session whose programs all exited; clients print `[exited]`.
            self.detach_session_clients(sid, "exited");
        }
        self.changed();
        self.maybe_exit();
    }
}

fn instance_id() -> u32 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos() ^ d.as_secs() as u32)
        .unwrap_or(0);
    (t ^ std::process::id().rotate_left(16)) & 0x00ff_ffff
}

/// Handles events from pane threads until the server stops.
pub async fn run_events(server: Arc<Server>, mut rx: mpsc::UnboundedReceiver<ServerEvent>) {
    while let Some(ev) = rx.recv().await {
        match ev {
            ServerEvent::PaneExited { pane, status } => server.pane_exited(pane, status),
            ServerEvent::Focus => server.update_focus(),
        }
    }
}

/// A client request being answered (see [`Server::answering`]).
pub struct Answering<'a>(&'a Server);

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.answered.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mailbox_keeps_the_latest_notice_and_puts_a_detach_first() {
        let m = Mailbox::default();
        for i in 0..10_000 {
            m.post(Control::Notice(format!("n{i}")));
        }
        assert_eq!(m.take(), Some(Control::Notice("n9999".into())));
        assert_eq!(m.take(), None);
        m.post(Control::Notice("before".into()));
        m.post(Control::Detached("detached".into()));
        m.post(Control::Notice("after".into()));
        assert_eq!(m.take(), Some(Control::Detached("detached".into())));
        assert_eq!(m.take(), Some(Control::Notice("after".into())));
        assert_eq!(m.take(), None);
    }
}
