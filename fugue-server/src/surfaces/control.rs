//! tmux control mode (`tmux -C`): a connection that asked `ControlRequest::Attach`
//! hears its session's pane output (`%output`) and the tree's notifications
//! (`%window-add`, `%layout-change`, ...), as tmux's control.c and control-notify.c
//! write them. The client process (`fugue tmux -C`) reads commands and writes the
//! `%begin`/`%end` blocks; the server sends what only it knows.
//!
//! Flow: the pane's reader thread hands raw bytes to [`ControlClient::output`] (a
//! [`pane::tap::OutputSink`](crate::pane::tap::OutputSink)), which only appends to a
//! queue bounded by [`MAX_QUEUED_BYTES`] and never blocks; the client's task sends
//! the queue down the socket. A client that falls too far behind (the queue is full,
//! or with `pause-after` its oldest output is older than that) is paused per pane
//! (`%pause %P`) when it asked for `pause-after`, and otherwise ended with
//! `%exit too far behind`, as tmux does. The pane never waits for a control client.

use super::clients::{Writer, send};
use crate::hub::{Event, PaneSubscriber};
use crate::pane::tags::Scanned;
use crate::pane::tap::OutputSink;
use crate::server::Server;
use fugue_protocol::message::{ControlEvent, PaneFlow, ServerMessage};
use fugue_protocol::{PaneId, SessionId, WindowId};
use parking_lot::Mutex;
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Weak};
use std::time::Instant;
use tokio::sync::Notify;

/// How many bytes of output and notifications may wait for one control client. Past
/// it, the client is too far behind: paused (pause-after) or ended. 4 MiB holds a
/// few seconds of a flooding pane; tmux limits by age (five minutes) with its whole
/// history to draw on, fugue keeps no such copy per client.
pub const MAX_QUEUED_BYTES: usize = 4 << 20;

/// One output message carries at most this much (chunks of a pane are merged up to it).
const MAX_CHUNK: usize = 64 << 10;

enum Item {
    Output {
        pane: PaneId,
        data: Vec<u8>,
        at: Instant,
    },
    Line(String),
    Synced(u64),
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
    bytes: usize,
    /// Panes found in another session: their output is not queued (cleared on every
    /// tree event, since panes move).
    elsewhere: HashSet<PaneId>,
    /// Output of panes not in any session yet (a new pane's program may print before
    /// its window is placed): kept, counted in `bytes`, and queued again after the
    /// tree event that places it (`%window-add` first, then its output, as tmux).
    unplaced: Vec<Item>,
    paused: HashSet<PaneId>,
    off: HashSet<PaneId>,
    pause_after_ms: Option<u32>,
    no_output: bool,
    /// Set once the client is to be ended, with tmux's reason.
    exit: Option<Option<String>>,
}

impl Queue {
    /// Drops a pane's queued output and marks it paused; the `%pause` line is queued.
    fn pause(&mut self, pane: PaneId) {
        if !self.paused.insert(pane) {
            return;
        }
        let mut freed = 0usize;
        let mut keep = |i: &Item| match i {
            Item::Output { pane: p, data, .. } if *p == pane => {
                freed = freed.saturating_add(data.len());
                false
            }
            _ => true,
        };
        self.items.retain(&mut keep);
        self.unplaced.retain(&mut keep);
        self.bytes = self.bytes.saturating_sub(freed);
        self.push_line(format!("%pause {pane}"));
    }

    fn push_line(&mut self, line: String) {
        if self.exit.is_some() {
            return;
        }
        if self.bytes.saturating_add(line.len()) > MAX_QUEUED_BYTES {
            self.too_far_behind();
            return;
        }
        self.bytes += line.len();
        self.items.push_back(Item::Line(line));
    }

    fn too_far_behind(&mut self) {
        self.items.clear();
        self.bytes = 0;
        self.exit = Some(Some("too far behind".into()));
    }
}

pub struct ControlClient {
    server: Weak<Server>,
    /// Its connection's client id (`detach-client` names it).
    id: u64,
    session: Mutex<SessionId>,
    queue: Mutex<Queue>,
    wake: Notify,
    /// Set by the first [`stop`](Self::stop): it unsubscribes once.
    stopped: std::sync::atomic::AtomicBool,
}

impl ControlClient {
    /// Starts a control client for the connection `writer` on `session`: it is
    /// subscribed to the hub and the output tap until [`stop`](Self::stop).
    pub fn start(
        server: &Arc<Server>,
        id: u64,
        session: SessionId,
        writer: Writer,
    ) -> Arc<ControlClient> {
        let client = Arc::new(ControlClient {
            server: Arc::downgrade(server),
            id,
            session: Mutex::new(session),
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
            stopped: std::sync::atomic::AtomicBool::new(false),
        });
        // As a terminal client's attach: commands with no target find this session.
        server.mux.touch_session(session);
        if let Some(name) = server.mux.session_name(session) {
            client
                .queue
                .lock()
                .push_line(format!("%session-changed {session} {name}"));
        }
        server.hub.listen(true);
        server
            .hub
            .subscribe(client.clone() as Arc<dyn PaneSubscriber>);
        server.hub.tap.add(client.clone() as Arc<dyn OutputSink>);
        tokio::spawn(run(Arc::clone(&client), writer));
        client
    }

    /// Unsubscribes; the task ends at its next wake.
    pub fn stop(self: &Arc<Self>, server: &Server) {
        if self.stopped.swap(true, std::sync::atomic::Ordering::AcqRel) {
            return;
        }
        server
            .hub
            .tap
            .remove(&(self.clone() as Arc<dyn OutputSink>));
        server
            .hub
            .unsubscribe(&(self.clone() as Arc<dyn PaneSubscriber>));
        server.hub.listen(false);
        let mut q = self.queue.lock();
        if q.exit.is_none() {
            q.exit = Some(None);
        }
        q.items.clear();
        drop(q);
        self.wake.notify_one();
    }

    pub fn set_flags(&self, pause_after_ms: Option<u32>, no_output: bool) {
        let mut q = self.queue.lock();
        q.pause_after_ms = pause_after_ms;
        q.no_output = no_output;
        if no_output {
            let freed: usize = q
                .items
                .iter()
                .map(|i| match i {
                    Item::Output { data, .. } => data.len(),
                    Item::Line(_) | Item::Synced(_) => 0,
                })
                .sum();
            let unplaced: usize = q
                .unplaced
                .iter()
                .map(|i| match i {
                    Item::Output { data, .. } => data.len(),
                    Item::Line(_) | Item::Synced(_) => 0,
                })
                .sum();
            q.items.retain(|i| !matches!(i, Item::Output { .. }));
            q.unplaced.clear();
            q.bytes = q.bytes.saturating_sub(freed.saturating_add(unplaced));
        }
    }

    /// Moves the client to another session.
    pub fn switch(&self, server: &Server, session: SessionId) {
        let Some(name) = server.mux.session_name(session) else {
            return;
        };
        *self.session.lock() = session;
        server.mux.touch_session(session);
        let mut q = self.queue.lock();
        q.elsewhere.clear();
        q.push_line(format!("%session-changed {session} {name}"));
        let unplaced = std::mem::take(&mut q.unplaced);
        q.items.extend(unplaced);
        drop(q);
        self.wake.notify_one();
    }

    /// Queues the answer to a `Sync` behind everything queued before it.
    pub fn sync(&self, id: u64) {
        self.queue.lock().items.push_back(Item::Synced(id));
        self.wake.notify_one();
    }

    pub fn pane_flow(&self, pane: PaneId, flow: PaneFlow) {
        let mut q = self.queue.lock();
        match flow {
            PaneFlow::On => {
                q.off.remove(&pane);
            }
            PaneFlow::Off => {
                q.off.insert(pane);
            }
            PaneFlow::Pause => q.pause(pane),
            PaneFlow::Continue => {
                if q.paused.remove(&pane) {
                    q.push_line(format!("%continue {pane}"));
                }
            }
        }
        drop(q);
        self.wake.notify_one();
    }

    fn session(&self) -> SessionId {
        *self.session.lock()
    }

    fn lines_for(&self, server: &Server, event: &Event) -> Vec<String> {
        let mine = self.session();
        let window = event.object.window;
        let in_mine = |w: WindowId| server.mux.window_in_session(w, mine);
        let mut out = Vec::new();
        match event.hook {
            "window-linked" => {
                if let Some(w) = window {
                    out.push(match in_mine(w) {
                        true => format!("%window-add {w}"),
                        false => format!("%unlinked-window-add {w}"),
                    });
                }
            }
            "window-unlinked" => {
                if let Some(w) = window {
                    out.push(match in_mine(w) {
                        true => format!("%window-close {w}"),
                        false => format!("%unlinked-window-close {w}"),
                    });
                }
            }
            "window-renamed" => {
                if let Some(w) = window {
                    let name = server.mux.window_name(w).unwrap_or_default();
                    out.push(match in_mine(w) {
                        true => format!("%window-renamed {w} {name}"),
                        false => format!("%unlinked-window-renamed {w} {name}"),
                    });
                }
            }
            "window-layout-changed" => {
                if let Some(w) = window.filter(|w| in_mine(*w))
                    && let Some(line) = layout_line(server, w)
                {
                    out.push(line);
                }
            }
            "window-pane-changed" => {
                if let (Some(w), Some(p)) = (window, event.object.pane) {
                    out.push(format!("%window-pane-changed {w} {p}"));
                }
            }
            "session-created" => out.push("%sessions-changed".into()),
            "session-closed" => {
                out.push("%sessions-changed".into());
                if server.mux.session_name(mine).is_none() {
                    // tmux ends a client whose session ended (`detach-on-destroy on`,
                    // the default), or moves it to another session.
                    let detach = server
                        .options
                        .lock()
                        .global("detach-on-destroy")
                        .is_none_or(|v| v.show() == "on");
                    let other = match detach {
                        true => None,
                        false => server.mux.recent_session_besides(mine),
                    };
                    match other {
                        Some((s, name)) => {
                            *self.session.lock() = s;
                            out.push(format!("%session-changed {s} {name}"));
                        }
                        None => {
                            let mut q = self.queue.lock();
                            for l in out.drain(..) {
                                q.push_line(l);
                            }
                            if q.exit.is_none() {
                                q.exit = Some(None);
                            }
                        }
                    }
                }
            }
            // Another client's comings and goings, by name, as tmux 3.3+ tells them.
            "client-detached" if event.client != Some(self.id) => {
                if let Some(name) = &event.client_name {
                    out.push(format!("%client-detached {name}"));
                }
            }
            "client-attached" if event.client != Some(self.id) => {
                if let (Some(name), Some(s)) = (&event.client_name, event.object.session)
                    && let Some(session) = server.mux.session_name(s)
                {
                    out.push(format!("%client-session-changed {name} {s} {session}"));
                }
            }
            // `detach-client` named this client: it ends, as tmux's does.
            "client-detached" if event.client == Some(self.id) => {
                let mut q = self.queue.lock();
                for l in out.drain(..) {
                    q.push_line(l);
                }
                if q.exit.is_none() {
                    q.exit = Some(None);
                }
            }
            "session-renamed" => {
                if let Some(s) = event.object.session
                    && let Some(name) = server.mux.session_name(s)
                {
                    out.push(format!("%session-renamed {s} {name}"));
                }
            }
            "session-window-changed" => {
                if let (Some(s), Some(w)) = (event.object.session, window) {
                    out.push(format!("%session-window-changed {s} {w}"));
                }
            }
            _ => {}
        }
        out
    }
}

/// tmux's `%layout-change @W LAYOUT VISIBLE-LAYOUT FLAGS`, through the one format
/// engine with tmux's own template.
fn layout_line(server: &Server, window: WindowId) -> Option<String> {
    let panes = server.mux.window_panes(window);
    if panes.is_empty() {
        return None;
    }
    let snap = fugue_protocol::format::local::snapshot(Vec::new(), panes, Vec::new());
    Some(fugue_protocol::format::expand(
        "%layout-change #{window_id} #{window_layout} #{window_visible_layout} #{window_raw_flags}",
        &snap.window(window),
    ))
}

impl OutputSink for ControlClient {
    fn output(&self, pane: PaneId, bytes: &[u8]) {
        let mut q = self.queue.lock();
        if q.exit.is_some()
            || q.no_output
            || q.paused.contains(&pane)
            || q.off.contains(&pane)
            || q.elsewhere.contains(&pane)
        {
            return;
        }
        if q.bytes.saturating_add(bytes.len()) > MAX_QUEUED_BYTES {
            if q.pause_after_ms.is_some() {
                q.pause(pane);
            } else {
                q.too_far_behind();
            }
            drop(q);
            self.wake.notify_one();
            return;
        }
        q.bytes += bytes.len();
        if let Some(Item::Output { pane: p, data, .. }) = q.items.back_mut()
            && *p == pane
            && data.len().saturating_add(bytes.len()) <= MAX_CHUNK
        {
            data.extend_from_slice(bytes);
        } else {
            q.items.push_back(Item::Output {
                pane,
                data: bytes.to_vec(),
                at: Instant::now(),
            });
        }
        drop(q);
        self.wake.notify_one();
    }
}

impl PaneSubscriber for ControlClient {
    fn tags_found(&self, _pane: PaneId, _found: Scanned) {}
    fn panes_closed(&self, panes: &[PaneId]) {
        let mut q = self.queue.lock();
        for p in panes {
            q.paused.remove(p);
            q.off.remove(p);
            q.elsewhere.remove(p);
        }
        let mut freed = 0usize;
        q.unplaced.retain(|i| match i {
            Item::Output { pane, data, .. } if panes.contains(pane) => {
                freed = freed.saturating_add(data.len());
                false
            }
            _ => true,
        });
        q.bytes = q.bytes.saturating_sub(freed);
    }
    fn event(&self, event: &Event) {
        let Some(server) = self.server.upgrade() else {
            return;
        };
        let lines = self.lines_for(&server, event);
        let mut q = self.queue.lock();
        // Panes may have moved between sessions: look again.
        q.elsewhere.clear();
        for l in lines {
            q.push_line(l);
        }
        let unplaced = std::mem::take(&mut q.unplaced);
        q.items.extend(unplaced);
        drop(q);
        self.wake.notify_one();
    }
}

/// What the task sends next.
enum Next {
    Send(ServerMessage),
    Exit(Option<String>),
    Wait,
}

/// Sends the client's queue down its connection until it ends.
async fn run(client: Arc<ControlClient>, writer: Writer) {
    loop {
        let next = next(&client);
        match next {
            Next::Send(msg) => {
                if !send(&writer, &msg).await {
                    return;
                }
            }
            Next::Exit(reason) => {
                let _ = send(
                    &writer,
                    &ServerMessage::Control(ControlEvent::Exit { reason }),
                )
                .await;
                // Closing the write half tells the client the stream ended.
                let _ = futures::SinkExt::close(&mut *writer.lock().await).await;
                if let Some(server) = client.server.upgrade() {
                    client.stop(&server);
                }
                return;
            }
            Next::Wait => client.wake.notified().await,
        }
    }
}

/// Takes the next message off the queue (filtering output of other sessions, and
/// pausing panes whose output is older than `pause-after`).
fn next(client: &ControlClient) -> Next {
    let server = client.server.upgrade();
    let mine = client.session();
    loop {
        let mut q = client.queue.lock();
        if let Some(reason) = q.exit.clone()
            && q.items.is_empty()
        {
            return Next::Exit(reason);
        }
        let Some(item) = q.items.pop_front() else {
            return Next::Wait;
        };
        match item {
            Item::Line(l) => {
                q.bytes = q.bytes.saturating_sub(l.len());
                return Next::Send(ServerMessage::Control(ControlEvent::Line(l)));
            }
            Item::Synced(id) => {
                return Next::Send(ServerMessage::Control(ControlEvent::Synced { id }));
            }
            Item::Output { pane, data, at } => {
                q.bytes = q.bytes.saturating_sub(data.len());
                let age_ms = u64::try_from(at.elapsed().as_millis()).unwrap_or(u64::MAX);
                if let Some(limit) = q.pause_after_ms
                    && age_ms >= u64::from(limit)
                {
                    q.pause(pane);
                    continue;
                }
                let pause_after = q.pause_after_ms.is_some();
                drop(q);
                match server.as_ref().and_then(|s| s.mux.session_of_pane(pane)) {
                    Some(s) if s == mine => {}
                    Some(_) => {
                        client.queue.lock().elsewhere.insert(pane);
                        continue;
                    }
                    None => {
                        let mut q = client.queue.lock();
                        q.bytes = q.bytes.saturating_add(data.len());
                        q.unplaced.push(Item::Output { pane, data, at });
                        continue;
                    }
                }
                return Next::Send(ServerMessage::Control(ControlEvent::Output {
                    pane,
                    data,
                    age_ms: pause_after.then_some(age_ms),
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_pauses_with_pause_after_and_ends_the_client_without() {
        let mut q = Queue {
            pause_after_ms: Some(1000),
            ..Queue::default()
        };
        q.bytes = MAX_QUEUED_BYTES;
        q.items.push_back(Item::Output {
            pane: PaneId(2),
            data: vec![b'x'; 10],
            at: Instant::now(),
        });
        q.pause(PaneId(2));
        assert!(q.paused.contains(&PaneId(2)));
        assert!(matches!(q.items.back(), Some(Item::Line(l)) if l == "%pause %2"));
        let mut q = Queue::default();
        q.too_far_behind();
        assert_eq!(q.exit, Some(Some("too far behind".into())));
        assert!(q.items.is_empty() && q.bytes == 0);
    }
}
