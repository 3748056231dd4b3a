//! The attached-client registry: who is connected, to which session, at what size, and
//! how to reach them (a mailbox and a wake-up per client). Below the dispatcher and the
//! surfaces; knows nothing of either.

use fugue_protocol::{ClientKind, PaneId, SessionId};
use parking_lot::{Mutex, MutexGuard};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::Notify;

/// Something pushed to an attached client outside of frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Notice(String),
    /// A message shown for this many milliseconds (0: until a key), `display -d`.
    NoticeFor(String, u32),
    /// A tmux command line the client runs as a binding's (`confirm-before`,
    /// `display-menu` from the CLI: questions for the person at the terminal).
    Run(Vec<String>),
    /// The client is detached, and why; how it leaves (`detach-client -P/-E`).
    Detached(String, fugue_protocol::Leave),
    /// Draw everything again (`refresh-client`).
    Redraw,
    /// Run the session's `lock-command` in the client's terminal (`lock-server`).
    Lock,
    /// Stop until the shell continues the client (`suspend-client`).
    Suspend,
    /// Keys to handle as if typed at the client (`send-keys -K`), by tmux name.
    TypeKeys(Vec<String>),
    /// Ring the client's terminal (a pane rang, and `bell_action` lets it through).
    Bell,
    /// Set the client's terminal's clipboard (a program's OSC 52, `set_clipboard`).
    Clipboard(Arc<fugue_protocol::passthrough::ClipboardCopy>),
    /// The key tables changed (`bind-key`, `unbind-key`, `source-file`).
    Keys(Arc<fugue_protocol::KeyTable>),
    /// Options the client acts on changed (`set-option`).
    Options(Box<fugue_protocol::ClientOptions>),
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
    detached: Option<(String, fugue_protocol::Leave)>,
    /// The latest notice, and how long it stays when it said so.
    notice: Option<(String, Option<u32>)>,
    /// The latest command line to run: a question replaces an unanswered one.
    run: Option<Vec<String>>,
    /// Any number of redraw requests cost one redraw.
    redraw: bool,
    /// Any number of locks (or suspends) cost one.
    lock: bool,
    suspend: bool,
    /// Keys sent to be typed, in order; bounded by [`MAX_TYPED`].
    typed: Vec<String>,
    /// Any number of bells cost one ring, and the latest clipboard copy wins: a client
    /// that stopped reading holds one of each however often programs ring or copy.
    bell: bool,
    clipboard: Option<Arc<fugue_protocol::passthrough::ClipboardCopy>>,
    /// The latest key tables: any number of changes cost one message.
    keys: Option<Arc<fugue_protocol::KeyTable>>,
    /// The latest options win: each message carries the whole set.
    options: Option<Box<fugue_protocol::ClientOptions>>,
}

impl Mailbox {
    pub fn post(&self, msg: Control) {
        {
            let mut slot = self.slot.lock();
            match msg {
                Control::Notice(text) => slot.notice = Some((text, None)),
                Control::NoticeFor(text, ms) => slot.notice = Some((text, Some(ms))),
                Control::Run(argv) => slot.run = Some(argv),
                Control::Detached(reason, leave) => {
                    // A notice posted before the detach is about the session left.
                    slot.notice = None;
                    slot.run = None;
                    slot.redraw = false;
                    slot.lock = false;
                    slot.typed.clear();
                    slot.suspend = false;
                    slot.bell = false;
                    slot.clipboard = None;
                    slot.options = None;
                    slot.detached = Some((reason, leave));
                }
                Control::Redraw => slot.redraw = true,
                Control::Lock => slot.lock = true,
                Control::Suspend => slot.suspend = true,
                Control::TypeKeys(keys) => {
                    // A client that stopped reading keeps the first MAX_TYPED keys;
                    // the rest are dropped, not queued without end.
                    let room = MAX_TYPED.saturating_sub(slot.typed.len());
                    slot.typed.extend(keys.into_iter().take(room));
                }
                Control::Bell => slot.bell = true,
                Control::Clipboard(copy) => slot.clipboard = Some(copy),
                Control::Keys(keys) => slot.keys = Some(keys),
                Control::Options(o) => {
                    // The options carry the key tables as they are now: an older
                    // pending Keys must not be delivered after them.
                    slot.keys = None;
                    slot.options = Some(o);
                }
            }
        }
        self.wake.notify_one();
    }

    /// The next message to push: a detach first.
    pub fn take(&self) -> Option<Control> {
        let mut slot = self.slot.lock();
        if let Some((reason, leave)) = slot.detached.take() {
            return Some(Control::Detached(reason, leave));
        }
        // Options before a redraw: the redraw then draws with them (a status bar
        // switched off is not drawn once more).
        if let Some(o) = slot.options.take() {
            return Some(Control::Options(o));
        }
        if std::mem::take(&mut slot.redraw) {
            return Some(Control::Redraw);
        }
        if !slot.typed.is_empty() {
            return Some(Control::TypeKeys(std::mem::take(&mut slot.typed)));
        }
        if std::mem::take(&mut slot.lock) {
            return Some(Control::Lock);
        }
        if std::mem::take(&mut slot.suspend) {
            return Some(Control::Suspend);
        }
        if std::mem::take(&mut slot.bell) {
            return Some(Control::Bell);
        }
        if let Some(keys) = slot.keys.take() {
            return Some(Control::Keys(keys));
        }
        if let Some(copy) = slot.clipboard.take() {
            return Some(Control::Clipboard(copy));
        }
        if let Some(argv) = slot.run.take() {
            return Some(Control::Run(argv));
        }
        slot.notice.take().map(|n| match n {
            (text, None) => Control::Notice(text),
            (text, Some(ms)) => Control::NoticeFor(text, ms),
        })
    }
}

/// Most keys waiting to be typed at one client (`send-keys -K`).
pub const MAX_TYPED: usize = 4096;

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
    /// When it last attached, typed or resized (higher is later): `window-size latest`
    /// follows the latest client.
    pub active_at: u64,
    /// What `list-clients` shows: the peer's pid, its terminal and `TERM` (said when
    /// it attaches), and when it connected and was last active (Unix seconds).
    pub pid: Option<u32>,
    pub tty: Option<String>,
    pub termname: Option<String>,
    pub created: u64,
    pub activity: u64,
    /// A control-mode client (`tmux -C`): listed, but it draws nothing and has no
    /// size until it says one.
    pub control_mode: bool,
    /// A control client's open question (`confirm-before`, `command-prompt`), which
    /// `send-keys -K` answers.
    pub prompt: Option<crate::client_prompt::ClientPrompt>,
}

impl ClientEntry {
    /// tmux's client name: its terminal, else `client-PID` for a control client
    /// (tmux's own name for one), else `client-ID`.
    pub fn name(&self, id: u64) -> String {
        match (self.tty.as_deref(), self.pid) {
            (Some(tty), _) if !tty.is_empty() => tty.to_string(),
            (_, Some(pid)) if self.control_mode => format!("client-{pid}"),
            _ => format!("client-{id}"),
        }
    }
}

/// Seconds since the Unix epoch, for clients' times.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// tmux's `window-size`: which attached clients size a session's windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowSize {
    /// The client that attached, typed or resized last (tmux 3.3's default).
    Latest,
    Largest,
    Smallest,
    /// No client: the session keeps the size it has (`new-session -x/-y`).
    Manual,
}

impl WindowSize {
    pub fn parse(s: &str) -> WindowSize {
        match s {
            "largest" => WindowSize::Largest,
            "smallest" => WindowSize::Smallest,
            "manual" => WindowSize::Manual,
            _ => WindowSize::Latest,
        }
    }
}

/// Every connected client, and the generation of what they draw.
pub struct Attached {
    /// Woken (one stored permit) by every change clients draw: the server's focus
    /// task waits on it.
    pub changed_any: Arc<Notify>,
    clients: Mutex<HashMap<u64, ClientEntry>>,
    next_client: AtomicU64,
    /// Bumped on every change to the tree that clients draw.
    generation: AtomicU64,
    /// Stamps for `ClientEntry::active_at`.
    activity: AtomicU64,
}

impl Default for Attached {
    fn default() -> Attached {
        Attached {
            changed_any: Arc::new(Notify::new()),
            clients: Mutex::new(HashMap::new()),
            next_client: AtomicU64::new(1),
            generation: AtomicU64::new(1),
            activity: AtomicU64::new(1),
        }
    }
}

impl Attached {
    /// The registry itself, for the commands that attach, detach and resize clients.
    pub fn lock(&self) -> MutexGuard<'_, HashMap<u64, ClientEntry>> {
        self.clients.lock()
    }

    pub fn next_id(&self) -> u64 {
        self.next_client.fetch_add(1, Ordering::Relaxed)
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Records that what clients draw changed and wakes every client.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        for c in self.clients.lock().values() {
            c.notify.notify_one();
        }
        self.changed_any.notify_one();
    }

    /// The sessions some client (terminal or control) is attached to.
    pub fn shown_sessions(&self) -> std::collections::HashSet<SessionId> {
        self.clients
            .lock()
            .values()
            .filter_map(|c| c.session)
            .collect()
    }

    /// The session a client is attached to.
    pub fn session_of(&self, client: u64) -> Option<SessionId> {
        self.clients.lock().get(&client).and_then(|c| c.session)
    }

    pub fn remove(&self, client: u64) -> Option<ClientEntry> {
        self.clients.lock().remove(&client)
    }

    /// Client `id` became a control client of `session` (tmux -C): `list-clients`
    /// shows it from now on. Without a size it sizes no window.
    pub fn control_attached(&self, id: u64, session: SessionId, term: Option<String>) {
        if let Some(c) = self.clients.lock().get_mut(&id) {
            c.session = Some(session);
            c.control_mode = true;
            c.termname = term.or(c.termname.take());
        }
    }

    /// A connected client's name (`list-clients`), if it is still connected.
    pub fn name_of(&self, id: u64) -> Option<String> {
        self.clients.lock().get(&id).map(|c| c.name(id))
    }

    /// Sends a control message to every client attached to `session` (or to all).
    pub fn tell(&self, session: Option<SessionId>, msg: Control) {
        for c in self.clients.lock().values() {
            if session.is_none() || c.session == session {
                c.control.post(msg.clone());
            }
        }
    }

    /// Detaches every client attached to `session`.
    pub fn detach_session(&self, session: SessionId, reason: &str) {
        for c in self.clients.lock().values_mut() {
            if c.session == Some(session) {
                c.session = None;
                c.control
                    .post(Control::Detached(reason.to_string(), Default::default()));
            }
        }
    }

    /// Marks a client as the latest active one (it attached, typed or resized); its
    /// session when another client of it was the latest before.
    pub fn touch(&self, client: u64) -> Option<SessionId> {
        let stamp = self.activity.fetch_add(1, Ordering::Relaxed);
        let mut clients = self.clients.lock();
        let me = clients.get_mut(&client)?;
        let before = std::mem::replace(&mut me.active_at, stamp);
        me.activity = unix_now();
        let session = me.session?;
        let latest = clients
            .iter()
            .filter(|(id, c)| c.session == Some(session) && **id != client)
            .map(|(_, c)| c.active_at)
            .max();
        // Another client was the latest until now: the session follows this one
        // (typing on in the same client changes nothing).
        latest.is_some_and(|l| l > before).then_some(session)
    }

    /// The window area of a session as `policy` picks it from the attached clients'
    /// terminals less `status_rows`, or None when no client is attached (or with
    /// `manual`). A larger client than the area shows a margin; a smaller one shows
    /// part of it.
    pub fn area_of(
        &self,
        session: SessionId,
        status_rows: u16,
        policy: WindowSize,
    ) -> Option<(u16, u16)> {
        let clients = self.clients.lock();
        let sizes = clients
            .values()
            .filter(|c| c.session == Some(session))
            // A control client draws no status line: its size is all window (tmux's).
            .filter_map(|c| {
                let status = if c.control_mode { 0 } else { status_rows };
                c.size.map(|s| (c.active_at, s, status))
            })
            .map(|(at, (c, r), status)| (at, (c.max(1), r.saturating_sub(status).max(1))));
        match policy {
            WindowSize::Manual => None,
            WindowSize::Latest => sizes.max_by_key(|(at, _)| *at).map(|(_, s)| s),
            WindowSize::Smallest => sizes
                .map(|(_, s)| s)
                .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1))),
            WindowSize::Largest => sizes
                .map(|(_, s)| s)
                .reduce(|a, b| (a.0.max(b.0), a.1.max(b.1))),
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
        m.post(Control::Detached("detached".into(), Default::default()));
        m.post(Control::Notice("after".into()));
        assert_eq!(
            m.take(),
            Some(Control::Detached("detached".into(), Default::default()))
        );
        assert_eq!(m.take(), Some(Control::Notice("after".into())));
        assert_eq!(m.take(), None);
    }
}
