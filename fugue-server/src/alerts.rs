//! tmux's window alerts: `monitor-activity` (output in a window that is not shown,
//! flag `#`), `monitor-silence N` (no output for N seconds, flag `~`) and their hooks
//! (`alert-activity`, `alert-silence`) and `visual-*` messages. Bells (`!`) are
//! flagged where they are heard (`passthrough.rs`).
//!
//! One task watches only the panes of windows where an option asks for it: it hears
//! their output through the same notification clients and waiters use, so with both
//! options off (the defaults) no pane's output wakes it and the byte path pays
//! nothing. It looks again at which windows to watch when told something changed
//! ([`Server::alerts_changed`]: options, new or closed panes, the shown window).

use crate::options::Level;
use crate::server::Server;
use fugue_protocol::{PaneId, SessionId, WindowId};
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

#[derive(Default)]
pub struct Alerts {
    rescan: Arc<Notify>,
    output: Arc<Notify>,
}

impl Server {
    /// Something that decides which windows are watched changed.
    pub fn alerts_changed(&self) {
        self.alerts.rescan.notify_one();
    }
}

struct Watched {
    window: WindowId,
    shared: Arc<crate::pane::PaneShared>,
    seq: u64,
}

#[derive(Clone, Copy)]
struct WindowWatch {
    session: SessionId,
    activity: bool,
    silence: Option<Duration>,
    /// Last output seen in the window (or when watching began).
    last: Instant,
}

/// Runs until the server is gone.
pub async fn run(server: Weak<Server>) {
    let Some(s) = server.upgrade() else { return };
    let output = Arc::clone(&s.alerts.output);
    let rescan = Arc::clone(&s.alerts.rescan);
    drop(s);
    let mut panes: HashMap<PaneId, Watched> = HashMap::new();
    let mut windows: HashMap<WindowId, WindowWatch> = HashMap::new();
    loop {
        let deadline = windows
            .values()
            .filter_map(|w| w.silence.map(|d| w.last + d))
            .min();
        let woke = tokio::select! {
            _ = rescan.notified() => Wake::Rescan,
            _ = output.notified() => Wake::Output,
            _ = sleep_until(deadline) => Wake::Silence,
        };
        let Some(s) = server.upgrade() else { return };
        match woke {
            Wake::Rescan => rescan_watch(&s, &output, &mut panes, &mut windows),
            Wake::Output => output_seen(&s, &mut panes, &mut windows),
            Wake::Silence => silence_check(&s, &mut windows),
        }
    }
}

enum Wake {
    Rescan,
    Output,
    Silence,
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

fn rescan_watch(
    s: &Server,
    output: &Arc<Notify>,
    panes: &mut HashMap<PaneId, Watched>,
    windows: &mut HashMap<WindowId, WindowWatch>,
) {
    let tree = s.mux.tree();
    let options = s.options.lock();
    let mut now_windows = HashMap::new();
    let mut now_panes = HashMap::new();
    for session in &tree.sessions {
        for w in session.windows.iter().filter_map(|l| tree.window(l.id)) {
            let level = Level::Window(w.id);
            let activity = options
                .effective(level, "monitor-activity")
                .is_some_and(|(v, _)| v.flag());
            let secs = options
                .effective(level, "monitor-silence")
                .map_or(0, |(v, _)| v.number());
            let silence = (secs > 0).then(|| Duration::from_secs(secs.unsigned_abs()));
            if !activity && silence.is_none() {
                continue;
            }
            let last = windows.get(&w.id).map_or_else(Instant::now, |o| o.last);
            now_windows.insert(
                w.id,
                WindowWatch {
                    session: session.id,
                    activity,
                    silence,
                    last,
                },
            );
            for id in w.layout.panes() {
                let Some(p) = tree.panes.get(&id) else {
                    continue;
                };
                let seq = panes.get(&id).map_or_else(|| p.shared.seq(), |o| o.seq);
                p.shared.subscribe(output);
                now_panes.insert(
                    id,
                    Watched {
                        window: w.id,
                        shared: Arc::clone(&p.shared),
                        seq,
                    },
                );
            }
        }
    }
    for (id, old) in panes.drain() {
        if !now_panes.contains_key(&id) {
            old.shared.unsubscribe(output);
        }
    }
    *panes = now_panes;
    *windows = now_windows;
}

fn output_seen(
    s: &Server,
    panes: &mut HashMap<PaneId, Watched>,
    windows: &mut HashMap<WindowId, WindowWatch>,
) {
    let mut active: Vec<WindowId> = Vec::new();
    for p in panes.values_mut() {
        let seq = p.shared.seq();
        if seq != p.seq {
            p.seq = seq;
            // A change that was not output (a resize) leaves last_output as it was.
            if let Some(w) = windows.get_mut(&p.window) {
                let at = p.shared.last_output();
                if at > w.last {
                    w.last = at;
                    if w.activity {
                        active.push(p.window);
                    }
                }
            }
        }
    }
    if active.is_empty() {
        return;
    }
    active.sort();
    active.dedup();
    let mut raised = Vec::new();
    {
        let mut tree = s.mux.tree();
        for w in active {
            let Some(watch) = windows.get(&w) else {
                continue;
            };
            if shown(s, &tree, watch.session, w) {
                continue;
            }
            if tree.activity.insert(w) {
                raised.push((watch.session, w));
            }
        }
        if !raised.is_empty() {
            tree.retain_alert_windows();
        }
    }
    announce(s, "alert-activity", "Activity", &raised);
}

fn silence_check(s: &Server, windows: &mut HashMap<WindowId, WindowWatch>) {
    let now = Instant::now();
    let mut raised = Vec::new();
    {
        let mut tree = s.mux.tree();
        for (w, watch) in windows.iter_mut() {
            let Some(d) = watch.silence else { continue };
            if watch.last + d > now {
                continue;
            }
            // Silent again only after more output.
            watch.last = now;
            if shown(s, &tree, watch.session, *w) {
                continue;
            }
            if tree.silence.insert(*w) {
                raised.push((watch.session, *w));
            }
        }
        if !raised.is_empty() {
            tree.retain_alert_windows();
        }
    }
    announce(s, "alert-silence", "Silence", &raised);
}

/// A window a person is looking at raises no alert (tmux: the current window of an
/// attached session).
fn shown(s: &Server, tree: &crate::session::Tree, session: SessionId, window: WindowId) -> bool {
    let current = tree.session(session).is_some_and(|x| x.active == window);
    current
        && s.mux
            .attached
            .area_of(session, 0, crate::attached::WindowSize::Smallest)
            .is_some()
}

/// Redraws the status lines, runs the hook and shows `visual-*` messages.
fn announce(s: &Server, hook: &'static str, word: &str, raised: &[(SessionId, WindowId)]) {
    if raised.is_empty() {
        return;
    }
    s.mux.changed();
    let option = match hook {
        "alert-activity" => "visual-activity",
        _ => "visual-silence",
    };
    for &(session, window) in raised {
        let index = {
            let tree = s.mux.tree();
            tree.session(session).and_then(|x| x.index_of(window))
        };
        let visual = s
            .options
            .lock()
            .effective(Level::Session(session), option)
            .map(|(v, _)| v.text())
            .unwrap_or_default();
        if let Some(index) = index
            && visual != "off"
        {
            s.mux.attached.tell(
                Some(session),
                crate::attached::Control::Notice(format!("{word} in window {index}")),
            );
        }
        s.hub.event(crate::hub::Event::new(
            hook,
            crate::hooks::Object {
                session: Some(session),
                window: Some(window),
                pane: None,
            },
        ));
    }
}
