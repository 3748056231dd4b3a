//! Pushing screens to an attached client.
//!
//! On attach the client gets every visible pane in full; afterwards only rows that
//! changed since the sequence number it has. Each pane is paced separately by a bucket
//! of rows: a frame costs the rows it carries, and the bucket refills at `frame_rate`
//! full screens a second. A keystroke's echo (one row) is always sent at once, however
//! fast the typing; a pane redrawing its whole screen is held to `frame_rate`. The task writes one frame at a time and builds the
//! next only when the last is written, so a slow client skips intermediate states
//! instead of queueing them, and never slows a pane.

use super::clients::{Writer, send};
use crate::attached::{Control, Mailbox};
use crate::hub::{Change, ChangeSubscriber, Kinds};
use crate::pane::PaneShared;
use crate::server::Server;
use fugue_protocol::PaneId;
use fugue_protocol::message::ServerMessage;
use fugue_protocol::passthrough::OuterEvents;
use fugue_protocol::screen::{ClientLayout, Frame};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Notes the changes that alter what a client draws besides panes' screens, which are
/// announced on the hub where they happen (a program's title, what runs in a pane's
/// foreground): the frame task recomputes the layout only then, or when the tree
/// changed (`Attached::changed`). Nothing looks at the layout on a timer.
struct Redraw {
    dirty: AtomicBool,
    notify: Arc<Notify>,
}

impl ChangeSubscriber for Redraw {
    fn changed(&self, _: Change) {
        self.dirty.store(true, Ordering::Release);
        self.notify.notify_one();
    }
}

/// The least time between two layouts recomputed for titles or foreground programs
/// alone (a change of the tree is drawn at once): 20 a second, where the layout timer
/// this replaced looked 4 times a second whether anything changed or not.
const TITLE_PACE: Duration = Duration::from_millis(50);

/// The longest a pane's synchronized update (mode 2026) holds its screen back from
/// clients: a program that never ends one is shown anyway (tmux waits 1 s; terminals
/// that implement the mode wait about 150 ms).
pub const SYNC_TIMEOUT: Duration = Duration::from_millis(150);

/// A frame carrying only something for the client's terminal.
fn outer(events: OuterEvents) -> ServerMessage {
    ServerMessage::Frame(Frame {
        layout: None,
        panes: Vec::new(),
        outer: events,
    })
}

/// Full screens a pane may send back to back before it is held to `frame_rate`.
const BURST_SCREENS: f64 = 2.0;

struct PaneSent {
    seq: u64,
    /// Rows the pane may send (below zero: owed by the last frame).
    tokens: f64,
    refilled: Instant,
}

impl PaneSent {
    /// When the pane may send next (now or later), with the bucket refilled to `now`
    /// at `frame_rate` screens of `rows` a second.
    fn next_send(&mut self, now: Instant, frame_rate: f64, rows: u16) -> Instant {
        let per_second = frame_rate * f64::from(rows.max(1));
        let gained = now.duration_since(self.refilled).as_secs_f64() * per_second;
        self.tokens = (self.tokens + gained).min(BURST_SCREENS * f64::from(rows.max(1)));
        self.refilled = now;
        if self.tokens > 0.0 {
            now
        } else {
            now + Duration::from_secs_f64((1.0 - self.tokens) / per_second)
        }
    }
}

pub async fn run(
    server: Arc<Server>,
    client: u64,
    writer: Writer,
    notify: Arc<Notify>,
    mailbox: Arc<Mailbox>,
) {
    let rate = f64::from(server.config().server.frame_rate.max(1));
    let mut sent: HashMap<PaneId, PaneSent> = HashMap::new();
    let mut last_layout: Option<ClientLayout> = None;
    let mut visible: Vec<(PaneId, Arc<PaneShared>)> = Vec::new();
    let mut seen_generation = 0u64;
    let mut deadline: Option<Instant> = None;
    // When the layout was last recomputed (see TITLE_PACE).
    let mut layout_at = Instant::now();
    let redraw = Arc::new(Redraw {
        dirty: AtomicBool::new(false),
        notify: Arc::clone(&notify),
    });
    // A title or foreground program anywhere may be in this client's status line
    // (window names, `#T`) or borders: which, only the layout's formats know.
    let _subscription = server
        .hub
        .watch(Kinds::TITLE.and(Kinds::FOREGROUND), redraw.clone());
    loop {
        tokio::select! {
            _ = notify.notified() => {}
            _ = sleep_until(deadline), if deadline.is_some() => {}
            _ = mailbox.wake.notified() => {
                while let Some(msg) = mailbox.take() {
                    let msg = match msg {
                        Control::Notice(text) => ServerMessage::Notice(text),
                        Control::NoticeFor(text, ms) => ServerMessage::NoticeFor { text, ms },
                        Control::Run(argv) => ServerMessage::Run(argv),
                        Control::Redraw => ServerMessage::Redraw,
                        Control::Lock => ServerMessage::Lock,
                        Control::Suspend => ServerMessage::Suspend,
                        Control::TypeKeys(keys) => ServerMessage::TypeKeys(keys),
                        Control::Keys(keys) => ServerMessage::Keys((*keys).clone()),
                        Control::Options(o) => ServerMessage::Options(*o),
                        Control::Bell => outer(OuterEvents {
                            bell: true,
                            ..Default::default()
                        }),
                        Control::Clipboard(copy) => outer(OuterEvents {
                            clipboard: Some((*copy).clone()),
                            ..Default::default()
                        }),
                        Control::Detached(reason, leave) => {
                            for (_, p) in visible.drain(..) {
                                p.unsubscribe(&notify);
                            }
                            sent.clear();
                            last_layout = None;
                            ServerMessage::Detached { reason, leave }
                        }
                    };
                    if !send(&writer, &msg).await {
                        return;
                    }
                }
                continue;
            }
        }
        deadline = None;
        let session = server.mux.attached.session_of(client);
        let Some(session) = session else { continue };

        let generation = server.mux.attached.generation();
        let mut layout = None;
        // A title or foreground change recomputes the layout at most every
        // TITLE_PACE: a program that rewrites its title for every frame of a spinner
        // (agents' TUIs do) must not cost a look at the whole tree per change per
        // client. The rest waits for a deadline armed by the change, not a timer.
        let mut dirty = redraw.dirty.swap(false, Ordering::AcqRel);
        if dirty && generation == seen_generation {
            let due = layout_at + TITLE_PACE;
            if Instant::now() < due {
                redraw.dirty.store(true, Ordering::Release);
                deadline = Some(deadline.map_or(due, |d| d.min(due)));
                dirty = false;
            }
        }
        if generation != seen_generation || dirty {
            layout_at = Instant::now();
            let view = server.mux.client_view(session);
            let Some(mut view) = view else { continue };
            crate::dispatch::borders::decorate(&server, &mut view.layout);
            seen_generation = generation;
            for (id, p) in &visible {
                if !view.panes.iter().any(|(v, _)| v == id) {
                    p.unsubscribe(&notify);
                }
            }
            for (_, p) in &view.panes {
                p.subscribe(&notify);
            }
            sent.retain(|id, _| view.panes.iter().any(|(v, _)| v == id));
            visible = view.panes;
            if last_layout.as_ref() != Some(&view.layout) {
                last_layout = Some(view.layout.clone());
                layout = Some(view.layout);
            }
        }

        let now = Instant::now();
        let mut panes = Vec::new();
        for (id, shared) in &visible {
            // Inside a synchronized update (mode 2026) the pane is sent when the update
            // ends (its output wakes this task) or times out (the deadline does).
            if let Some(until) = shared.synchronized_since().map(|t| t + SYNC_TIMEOUT)
                && until > now
            {
                deadline = Some(deadline.map_or(until, |d| d.min(until)));
                continue;
            }
            let since = match sent.get_mut(id) {
                Some(s) if s.seq == shared.seq() => continue,
                Some(s) => {
                    let due = s.next_send(now, rate, shared.rows());
                    if due > now {
                        deadline = Some(deadline.map_or(due, |d| d.min(due)));
                        continue;
                    }
                    s.seq
                }
                None => 0,
            };
            let update = {
                let mut state = shared.state.lock();
                // Looked at again under the lock the reader records it under: output
                // that began an update between the look above and this lock must not
                // be sent half done.
                if let Some(until) = state.sync_since().map(|t| t + SYNC_TIMEOUT)
                    && until > now
                {
                    deadline = Some(deadline.map_or(until, |d| d.min(until)));
                    continue;
                }
                state.update_since(*id, since)
            };
            let entry = sent.entry(*id).or_insert(PaneSent {
                seq: 0,
                tokens: BURST_SCREENS * f64::from(update.rows.max(1)),
                refilled: now,
            });
            entry.seq = update.seq;
            entry.tokens -= update.changed.len().max(1) as f64;
            panes.push(update);
        }
        if layout.is_none() && panes.is_empty() {
            continue;
        }
        let frame = Frame {
            layout,
            panes,
            outer: OuterEvents::default(),
        };
        if !send(&writer, &ServerMessage::Frame(frame)).await {
            return;
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d.into()).await,
        None => std::future::pending().await,
    }
}
