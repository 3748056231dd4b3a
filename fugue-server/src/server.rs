//! The server's shared state and the events that change it outside of commands (a
//! pane's program exiting).

use crate::attached::{ClientEntry, Control};
use crate::audit::Audit;
use crate::config::Config;
use crate::mux::Mux;
use crate::origin::Origin;
use crate::session::resolve::Context;
use fugue_protocol::{ClientKind, PaneId, SessionId};
use parking_lot::{Mutex, RwLock};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tokio::sync::{Notify, mpsc};

/// Events from pane threads: one per pane, so the channel stays small. (Sideband tags,
/// which a pane can print without end, do not come this way: see
/// [`crate::hub::Hub::tags_found`].)
#[derive(Debug)]
pub enum ServerEvent {
    /// `generation`: which of the pane's programs exited (`respawn-pane` starts another
    /// in the same pane; the old one's exit must not close it).
    PaneExited {
        pane: PaneId,
        status: i32,
        generation: u32,
    },
}

pub struct Server {
    /// The session tree and the attached clients.
    pub mux: Arc<Mux>,
    config: RwLock<Arc<Config>>,
    pub socket: PathBuf,
    pub audit: Audit,
    pub events: mpsc::UnboundedSender<ServerEvent>,
    /// Set once a session has existed, so an empty server knows it may exit.
    had_sessions: AtomicBool,
    /// When the server started: one that never had a session may exit once
    /// [`IDLE_START_EXIT`] has passed since.
    started: std::time::Instant,
    pub shutdown: Notify,
    shutting_down: AtomicBool,
    /// Client requests being answered, so a shutdown can let their answers go out.
    in_flight: std::sync::atomic::AtomicUsize,
    answered: Notify,
    /// Pane events for subscribers (the sideband surface).
    pub hub: crate::hub::Hub,
    /// Agent panes: states, results.
    pub agents: crate::agents::Agents,
    /// The person's terminal colours, as attached clients report them: what panes'
    /// programs read with OSC 10/11/12 (`client-colors`).
    pub outer_colors: Arc<crate::pane::colors::OuterColors>,
    /// Open MCP connections and the pane each caller runs in.
    mcp: Mutex<HashMap<u64, Option<PaneId>>>,
    /// Distinguishes this server's cursors from those of an earlier one on the same socket.
    pub instance: u32,
    nonce: AtomicU64,
    /// The last clipboard copy a program made (`passthrough.rs`).
    pub(crate) clipboard: Mutex<Option<Arc<fugue_protocol::passthrough::ClipboardCopy>>>,
    /// Paste buffers (`buffers.rs`).
    pub buffers: Mutex<crate::buffers::Buffers>,
    /// tmux's `wait-for` channels.
    pub channels: crate::channels::Channels,
    /// tmux's global and session environments (`set-environment`).
    pub environment: Mutex<crate::environment::Environment>,
    /// The key tables (from the config's `[keys]`, then `bind-key`/`unbind-key`).
    pub keys: Mutex<fugue_protocol::KeyTable>,
    /// Options (`options/`); global values are also written into `config`.
    pub options: Mutex<crate::options::Store>,
    /// Hooks (`set-hook`); run by the hooks surface when the hub publishes an event.
    pub hooks: Mutex<crate::hooks::Store>,
    /// Activity and silence monitoring (`alerts.rs`).
    pub alerts: crate::alerts::Alerts,
    /// The panes focused at the last [`Server::update_focus`], for `pane-focus-in/out`.
    focused: Mutex<std::collections::HashSet<PaneId>>,
    /// The journal and the sessions it can restore (`persist.rs`).
    pub persist: crate::persist::Persist,
    /// The exit statuses of the last [`RECENT_EXITS`] programs that ended, so a
    /// `wait_for exit` asked just after a quick program closed its pane still gets
    /// its status instead of "no such pane".
    pub recent_exits: Mutex<std::collections::VecDeque<(PaneId, i32)>>,
    /// `pipe-pane`'s pipes (`pipes.rs`).
    pub pipes: crate::pipes::Pipes,
    /// tmux's message log (`show-messages`), `records.rs`.
    pub messages: Mutex<crate::records::MessageLog>,
    /// The command prompt's history, shared by every client as tmux's is.
    pub prompt_history: Mutex<crate::records::PromptHistories>,
}

/// How long a server that never got a session waits before exiting.
pub const IDLE_START_EXIT: std::time::Duration = std::time::Duration::from_secs(15);

/// How many ended programs' statuses [`Server::recent_exits`] keeps.
pub const RECENT_EXITS: usize = 256;

impl Server {
    pub fn new(
        config: Config,
        socket: PathBuf,
        audit: Audit,
    ) -> (Arc<Server>, mpsc::UnboundedReceiver<ServerEvent>) {
        let (events, rx) = mpsc::unbounded_channel();
        // A configuration from a file was checked when it was parsed; one built in
        // code (tests) that sets no option by name cannot fail.
        let options = crate::options::apply::from_config(&config).unwrap_or_else(|e| {
            tracing::warn!("options from the configuration: {e}; using the defaults");
            crate::options::Store::new()
        });
        let mux = Mux::default();
        mux.tree().borders = match config.server.pane_borders {
            crate::config::PaneBorders::Boxed => crate::session::layout::Borders::Boxed,
            crate::config::PaneBorders::Shared => crate::session::layout::Borders::Shared,
        };
        let hub = crate::hub::Hub::default();
        let pipes = crate::pipes::Pipes::new(Arc::clone(&hub.tap));
        let server = Arc::new(Server {
            mux: Arc::new(mux),
            keys: Mutex::new(config.keys.table()),
            config: RwLock::new(Arc::new(config)),
            socket,
            audit,
            events,
            had_sessions: AtomicBool::new(false),
            started: std::time::Instant::now(),
            shutdown: Notify::new(),
            shutting_down: AtomicBool::new(false),
            in_flight: std::sync::atomic::AtomicUsize::new(0),
            recent_exits: Mutex::new(std::collections::VecDeque::new()),
            pipes,
            answered: Notify::new(),
            mcp: Mutex::new(HashMap::new()),
            hub,
            agents: Default::default(),
            outer_colors: Default::default(),
            instance: instance_id(),
            nonce: AtomicU64::new(u64::from(instance_id())),
            clipboard: Mutex::new(None),
            buffers: Mutex::default(),
            channels: Default::default(),
            environment: Mutex::default(),
            options: Mutex::new(options),
            hooks: Mutex::default(),
            focused: Mutex::default(),
            alerts: Default::default(),
            persist: Default::default(),
            messages: Mutex::default(),
            prompt_history: Mutex::default(),
        });
        (server, rx)
    }

    /// A global server option's number (`message-limit`), as a count.
    pub fn server_limit(&self, name: &str) -> usize {
        let n = self.options.lock().global(name).map_or(0, |v| v.number());
        usize::try_from(n).unwrap_or(0)
    }

    /// Adds a line to the message log (`show-messages`).
    pub fn log_message(&self, text: &str) {
        let limit = self.server_limit("message-limit");
        self.messages.lock().add(text, limit);
    }

    pub fn config(&self) -> Arc<Config> {
        Arc::clone(&self.config.read())
    }

    /// Replaces the configuration (a `set-option` wrote a global value into it).
    pub fn set_config(&self, config: Config) {
        *self.config.write() = Arc::new(config);
    }

    /// A client went: the mode it showed over a pane (`#{pane_in_mode}`) went with it.
    pub fn forget_shown_mode(&self, client: u64) {
        self.mux.tree().shown_modes.remove(&client);
    }

    /// Tells panes that gained or lost focus, if their programs asked (mode 1004). As
    /// in tmux, a pane has focus when it is the active pane of the current window of
    /// a session that a terminal client with focus is attached to. Runs on its own
    /// task, woken by every change clients draw ([`crate::attached::Attached::changed`]).
    pub fn update_focus(&self) {
        // The clients' lock is never held while the tree's is taken (the tree's holder
        // may take the clients').
        let sessions: Vec<SessionId> = self
            .mux
            .attached
            .lock()
            .values()
            .filter(|c| c.kind == ClientKind::Tui && c.focused)
            .filter_map(|c| c.session)
            .collect();
        let tree = self.mux.tree();
        let focused: std::collections::HashSet<PaneId> = tree
            .sessions
            .iter()
            .filter(|s| sessions.contains(&s.id))
            .filter_map(|s| tree.window(s.active).map(|w| w.active))
            .collect();
        for (id, pane) in &tree.panes {
            let report = pane.shared.state.lock().focus_changed(focused.contains(id));
            if let Some(bytes) = report {
                // A program that stopped reading loses the report, as it would a key.
                let _ = pane.pty.write(bytes.to_vec());
            }
        }
        let mut events = Vec::new();
        {
            let mut last = self.focused.lock();
            if *last != focused {
                let object = |p: PaneId| {
                    let (session, window) = tree.locate(p).unzip();
                    crate::hooks::Object {
                        session,
                        window,
                        pane: Some(p),
                    }
                };
                // A pane that closed loses focus without an event, as in tmux.
                for p in last
                    .difference(&focused)
                    .filter(|p| tree.panes.contains_key(p))
                {
                    events.push(crate::hub::Event::new("pane-focus-out", object(*p)));
                }
                for p in focused.difference(&last) {
                    events.push(crate::hub::Event::new("pane-focus-in", object(*p)));
                }
                *last = focused;
            }
        }
        drop(tree);
        for e in events {
            self.hub.event(e);
        }
    }

    /// A number not handed out before by this server (markers, generated ids).
    pub fn next_nonce(&self) -> u64 {
        self.nonce.fetch_add(0x9e37_79b9, Ordering::Relaxed)
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
            ctx.client_session = self.mux.attached.session_of(id);
        }
        if let Origin::Hook { object, .. } = origin {
            ctx.client_session = object.session;
        }
        ctx
    }

    /// Runs the `client-attached` hook of `session` for `client` (other control
    /// clients hear `%client-session-changed`).
    pub fn client_attached(&self, client: u64, session: SessionId) {
        let mut e = crate::hub::Event::new(
            "client-attached",
            crate::hooks::Object {
                session: Some(session),
                ..Default::default()
            },
        );
        e.client = Some(client);
        e.client_name = self.mux.attached.name_of(client);
        self.hub.event(e);
    }

    /// Runs the `client-detached` hook of `session` for `client`.
    pub fn client_detached(&self, client: u64, name: String, session: SessionId) {
        let mut e = crate::hub::Event::new(
            "client-detached",
            crate::hooks::Object {
                session: Some(session),
                ..Default::default()
            },
        );
        e.client = Some(client);
        e.client_name = Some(name);
        self.hub.event(e);
    }

    /// A client attached to `session` went: the session takes the size of the
    /// clients left.
    pub fn client_left(&self, session: SessionId) {
        let mut tree = self.mux.tree();
        self.resize_session_to_clients(&mut tree, session);
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
        true
    }

    /// Registers a client connection (see [`Server::mcp_connected`]); false when the
    /// server is exiting.
    pub fn client_connected(&self, id: u64, entry: ClientEntry) -> bool {
        let mut clients = self.mux.attached.lock();
        if self.is_shutting_down() {
            return false;
        }
        clients.insert(id, entry);
        true
    }

    /// Forgets an MCP connection; true when it was the last one from its pane (the
    /// surface then unmarks the pane with `sideband-mcp`). Call
    /// [`Server::maybe_exit`] after.
    pub fn mcp_disconnected(&self, id: u64) -> bool {
        let mut mcp = self.mcp.lock();
        let pane = mcp.remove(&id).flatten();
        pane.is_some_and(|p| !mcp.values().any(|v| *v == Some(p)))
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

    /// Forgets what the server keeps per pane outside the tree once panes are gone.
    /// Call with the tree unlocked: the panes' folders are removed here (on a blocking
    /// thread when there is a runtime), and a folder can be slow to remove.
    pub fn panes_closed(&self, panes: &[PaneId]) {
        // A popup whose session or window closed goes with it (its program ended).
        let orphans = self.mux.tree().take_orphan_popups();
        for p in &orphans {
            p.pty.kill();
        }
        let panes: Vec<PaneId> = panes
            .iter()
            .copied()
            .chain(orphans.iter().map(|p| p.id))
            .collect();
        let panes = panes.as_slice();
        // A mode a client showed over a closed pane is gone with it (a restored pane
        // may get the id back).
        self.mux
            .tree()
            .shown_modes
            .retain(|_, (p, _)| !panes.contains(p));
        let dirs: Vec<PathBuf> = panes.iter().map(|p| self.sideband_dir(*p)).collect();
        for p in panes {
            self.agents.closed(*p);
            self.pipes.close(*p);
            // An agent's worktree outlives its pane: never removed here, only offered.
            if let Some(w) = self.agents.worktrees.closed(*p) {
                self.mux.attached.tell(
                    None,
                    crate::attached::Control::Notice(format!(
                        "{p} closed; its worktree {} (branch {}) is kept: fugue agent worktree -t {p} --merge | --remove | --keep",
                        w.path.display(),
                        w.branch
                    )),
                );
            }
        }
        self.hub.panes_closed(panes);
        let remove = move || {
            for d in dirs {
                match std::fs::remove_dir_all(&d) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => tracing::warn!("cannot remove {}: {e}", d.display()),
                }
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => drop(rt.spawn_blocking(remove)),
            Err(_) => remove(),
        }
    }

    /// True while an MCP connection runs in `pane`. Takes the MCP lock: call it
    /// with the tree locked or not, never with the client registry locked.
    pub fn mcp_has_pane(&self, pane: PaneId) -> bool {
        self.mcp.lock().values().any(|v| *v == Some(pane))
    }

    /// Panes whose agent is connected over MCP.
    pub fn mcp_panes(&self) -> Vec<PaneId> {
        self.mcp.lock().values().flatten().copied().collect()
    }

    /// True when nothing keeps the server alive: no sessions, and no MCP connection
    /// (an agent connected over MCP may create sessions later).
    pub fn is_idle(&self) -> bool {
        self.mux.tree().sessions.is_empty() && self.mcp.lock().is_empty()
    }

    /// Called after sessions or MCP connections may have gone: the server exits with
    /// its last session (once no MCP client is connected).
    /// A server that never had a session is given [`IDLE_START_EXIT`] from its start
    /// (a client that started it makes its first session in that time); after it, the
    /// last client or MCP connection leaving ends it as the last session would.
    pub fn maybe_exit(&self) {
        if self.had_sessions.load(Ordering::Acquire) {
            self.exit_if_unused("the last session ended");
        } else if self.started.elapsed() >= IDLE_START_EXIT {
            self.exit_if_unused("no sessions and no clients");
        }
    }

    /// Exits when no session, MCP connection or client connection is left. A client
    /// connected keeps the server: the CLI that killed the last session gets its answer
    /// before the server exits, and a client that connected as the last session ended
    /// is served, not dropped. Decided under the locks registration takes (tree, then
    /// MCP connections, then clients): a connection is counted or refused, never lost.
    pub fn exit_if_unused(&self, reason: &str) -> bool {
        {
            let tree = self.mux.tree();
            let mcp = self.mcp.lock();
            let clients = self.mux.attached.lock();
            if !tree.sessions.is_empty() || !mcp.is_empty() || !clients.is_empty() {
                return false;
            }
            if self.shutting_down.swap(true, Ordering::AcqRel) {
                return false;
            }
        }
        // Nothing is left: the journal keeps that (no session to restore).
        if let Some(j) = self.persist.journal() {
            j.stop(crate::journal::Stop::Capture);
        }
        self.shut_down(reason);
        true
    }

    /// Shuts down; `journal` says what the journal keeps (a signal keeps the
    /// sessions restorable, kill-server forgets them).
    pub fn begin_shutdown(&self, reason: &str, journal: crate::journal::Stop) {
        if self.shutting_down.swap(true, Ordering::AcqRel) {
            return;
        }
        // Stopped before the tree is emptied.
        if let Some(j) = self.persist.journal() {
            if journal == crate::journal::Stop::Keep {
                j.flush(std::time::Duration::from_secs(2));
            }
            j.stop(journal);
        }
        self.shut_down(reason);
    }

    fn shut_down(&self, reason: &str) {
        tracing::info!("shutting down: {reason}");
        self.mux.attached.tell(
            None,
            Control::Detached(format!("server exited ({reason})"), Default::default()),
        );
        let panes: Vec<_> = {
            let mut tree = self.mux.tree();
            tree.sessions.clear();
            tree.panes.drain().map(|(_, p)| p).collect()
        };
        for p in &panes {
            p.pty.kill();
        }
        self.panes_closed(&panes.iter().map(|p| p.id).collect::<Vec<_>>());
        // Removed here as well, not only on a blocking thread: the runtime is about to
        // stop, and may drop blocking work it has not started.
        if let Some(all) = self.sideband_dir(PaneId(0)).parent() {
            let _ = std::fs::remove_dir_all(all);
        }
        crate::tmux_shim::remove(self);
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
    pub fn pane_exited(&self, pane: PaneId, status: i32, generation: u32) {
        tracing::info!("pane {pane} exited with status {status}");
        let mut closed_sessions: Vec<SessionId> = Vec::new();
        let mut closed = false;
        let mut events = Vec::new();
        {
            let mut tree = self.mux.tree();
            let Some(p) = tree.panes.get_mut(&pane) else {
                return;
            };
            if p.generation != generation {
                // A program respawn-pane replaced: the pane lives on.
                return;
            }
            if p.pty.is_starting() {
                // Heard before the command starting it attached the program: it
                // sends the exit again once it has (dispatch::spawn::with_new_pane).
                p.pty.exited_before_attach(status);
                return;
            }
            {
                let mut recent = self.recent_exits.lock();
                if recent.len() >= RECENT_EXITS {
                    recent.pop_front();
                }
                recent.push_back((pane, status));
            }
            // A popup's program: it closes with -E (-EE: on success), else stays,
            // showing what the program left, until a key closes it. No hooks: tmux's
            // pane hooks are for panes in windows.
            if let Some(sid) = tree.popup_of(pane) {
                let close = tree.popups.get_mut(&sid).is_some_and(|pp| {
                    pp.exited = true;
                    pp.close_on_exit == 1 || (pp.close_on_exit >= 2 && status == 0)
                });
                let gone = if close {
                    tree.popups.remove(&sid);
                    tree.panes.remove(&pane)
                } else {
                    if let Some(p) = tree.panes.get_mut(&pane) {
                        p.exit_status = Some(status);
                    }
                    None
                };
                drop(tree);
                if gone.is_some() {
                    self.panes_closed(&[pane]);
                }
                self.mux.changed();
                return;
            }
            // tmux's remain-on-exit for this pane (its own value, its window's, the
            // global one): `failed` keeps only a pane whose program failed.
            let own = tree.panes.get(&pane).and_then(|p| p.remain);
            let remain = own.unwrap_or_else(|| {
                let window = tree.locate(pane).map(|(_, w)| w);
                let options = self.options.lock();
                let value = window.and_then(|w| {
                    options
                        .effective(crate::options::Level::Pane(pane, w), "remain-on-exit")
                        .map(|(v, _)| v.text())
                });
                match value.as_deref() {
                    Some("on") => true,
                    Some("failed") => status != 0,
                    _ => false,
                }
            });
            let (sid, wid) = tree.locate(pane).unzip();
            let Some(p) = tree.panes.get_mut(&pane) else {
                return;
            };
            let object = crate::hooks::Object {
                session: sid,
                window: wid,
                pane: Some(pane),
            };
            if remain {
                events.push(crate::hub::Event::new("pane-died", object));
                p.exit_status = Some(status);
                // An agent's worktree is offered where the person looks: its pane.
                let worktree = self.agents.worktrees.get(pane).map(|w| {
                    format!(
                        "\r\nworktree {} (branch {}) kept: fugue agent worktree -t {pane} --merge | --remove | --keep",
                        w.path.display(),
                        w.branch
                    )
                });
                let seq = {
                    let mut st = p.shared.state.lock();
                    st.process(
                        format!("\r\n\x1b[0;7mPane is dead (status {status})\x1b[0m").as_bytes(),
                    );
                    if let Some(w) = &worktree {
                        st.process(w.as_bytes());
                    }
                    st.seq()
                };
                p.shared.changed(seq, false);
            } else {
                // Every session showing the window, with its name (a session that
                // closes is gone before its hook runs): a linked window closes in each.
                let holders: Vec<(SessionId, String)> = wid
                    .map(|w| {
                        tree.sessions_of_window(w)
                            .map(|s| (s.id, s.name.clone()))
                            .collect()
                    })
                    .unwrap_or_default();
                events.push(crate::hub::Event::new("pane-exited", object));
                if let Some((_, removed)) = tree.remove_pane(pane) {
                    closed_sessions = removed.sessions_closed;
                    closed = true;
                    for (s, name) in &holders {
                        if removed.window_closed
                            && let Some(w) = wid
                        {
                            events.push(crate::hub::Event::new(
                                "window-unlinked",
                                crate::hooks::Object {
                                    session: Some(*s),
                                    window: Some(w),
                                    pane: None,
                                },
                            ));
                        }
                        if closed_sessions.contains(s) {
                            let mut e = crate::hub::Event::new(
                                "session-closed",
                                crate::hooks::Object::default(),
                            );
                            e.session_name = Some(name.clone());
                            events.push(e);
                        }
                    }
                    let open = holders
                        .iter()
                        .map(|(s, _)| *s)
                        .filter(|s| !closed_sessions.contains(s));
                    for sid in open.collect::<Vec<_>>().iter() {
                        if removed.window_closed {
                            self.window_closed(&mut tree, *sid);
                        }
                        self.relayout(&mut tree, *sid);
                    }
                }
            }
        }
        if closed {
            self.panes_closed(&[pane]);
        }
        self.persist.changed();
        for sid in closed_sessions {
            // tmux's word for a session whose programs all exited; clients print `[exited]`.
            self.mux.attached.detach_session(sid, "exited");
        }
        self.mux.changed();
        if closed {
            self.alerts_changed();
        }
        for e in events {
            self.hub.event(e);
        }
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

/// Keeps panes' focus current (mode 1004): after any change clients draw, which is
/// when the active pane can change. Changes that come while a check runs cost one more
/// check, however many there are.
pub async fn run_focus(server: std::sync::Weak<Server>) {
    let Some(changed) = server
        .upgrade()
        .map(|s| Arc::clone(&s.mux.attached.changed_any))
    else {
        return;
    };
    loop {
        changed.notified().await;
        let Some(server) = server.upgrade() else {
            break;
        };
        server.update_focus();
    }
}

/// Handles events from pane threads until the server stops.
pub async fn run_events(server: Arc<Server>, mut rx: mpsc::UnboundedReceiver<ServerEvent>) {
    while let Some(ev) = rx.recv().await {
        match ev {
            ServerEvent::PaneExited {
                pane,
                status,
                generation,
            } => server.pane_exited(pane, status, generation),
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
