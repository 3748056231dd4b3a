//! Panes: a program on a PTY and the screen it draws.
//!
//! - [`state`]: the sans-IO terminal state (screen, history, answers).
//! - [`pty`]: spawning the program and the threads that read, write and wait.
//! - [`history`], [`rows`], [`terminal`]: compact history, rows for clients, vt100
//!   callbacks.
//! - [`process`]: what runs in the foreground of a pane.
//! - [`program`]: a pane's program as the tree holds it, starting or running.

pub mod child;
pub mod colors;
pub mod detail;
pub mod foreground;
pub mod history;
pub mod input_modes;
pub mod lines;
pub mod passthrough;
pub mod process;
pub mod program;
pub mod pty;
pub mod queries;
pub mod reflow;
pub mod rows;
pub mod state;
pub mod switch;
pub mod tags;
pub mod tap;
pub mod terminal;
pub mod writer;

use fugue_protocol::PaneId;
use parking_lot::Mutex;
use state::PaneState;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Instant;
use tokio::sync::Notify;

/// The part of a pane that its reader thread and the server's tasks share.
pub struct PaneShared {
    pub id: PaneId,
    pub state: Mutex<PaneState>,
    /// Mirror of the state's sequence number, readable without the lock.
    seq: AtomicU64,
    /// Milliseconds since `epoch` of the last output.
    last_output_ms: AtomicU64,
    /// Milliseconds since `epoch`, plus one, of the start of the synchronized update
    /// (mode 2026) in progress; 0: none. Frame tasks read it without the state's lock.
    sync_ms: AtomicU64,
    /// The size the layout last gave the pane (`cols << 16 | rows`; 0: none yet), set
    /// under the tree's lock and applied to the terminal and screen after it
    /// ([`PaneShared::apply_size`]): reflowing history can take milliseconds.
    wanted_size: AtomicU32,
    epoch: Instant,
    /// Who wants to hear about changes: attached clients and waiters.
    subscribers: Mutex<Vec<Weak<Notify>>>,
    /// The program's exit status, once it has exited and its output was read.
    exit_status: Mutex<Option<i32>>,
    /// The program has written something (a shell's first prompt).
    seen_output: std::sync::atomic::AtomicBool,
    /// Whether output is scanned for sideband tags.
    pub sideband: switch::SidebandSwitch,
    /// Text recently typed into the pane and the line it was typed on: the terminal
    /// echoes typed text, and a wait for output must not match that echo.
    typed: Mutex<std::collections::VecDeque<Typed>>,
    /// Pane clock (ms) of a person's last keystroke here, plus one (0: never). Messages
    /// from agents wait for a pause in a person's typing.
    human_input_ms: AtomicU64,
    /// Roughly how many characters a person has typed on the pane's input line since
    /// they last submitted or cleared it (0: no draft). Agents' messages and held
    /// tasks wait while it is not 0, so they never get appended to a person's line.
    draft: tokio::sync::watch::Sender<u32>,
    /// What was last found in the foreground, and when (the pane's clock, ms).
    foreground: Mutex<Option<(foreground::Foreground, u64)>>,
    /// Announces the pane's changes (title, foreground) where they are found; set
    /// once by whoever starts the pane (the server, to its hub).
    announce: std::sync::OnceLock<Announce>,
}

/// Where a pane announces its changes.
pub type Announce = Box<dyn Fn(crate::hub::Change) + Send + Sync>;

/// Text typed into a pane (see [`PaneShared::typed_on`]).
#[derive(Clone, Debug)]
pub struct Typed {
    pub text: String,
    /// The absolute line the cursor was on when it was typed.
    pub line: u64,
    at: Instant,
}

/// How many typed texts a pane remembers, and for how long.
const TYPED_KEEP: usize = 8;
const TYPED_FOR: std::time::Duration = std::time::Duration::from_secs(120);

impl PaneShared {
    pub fn new(id: PaneId, state: PaneState, sideband: switch::SidebandSwitch) -> Arc<Self> {
        let seq = state.seq();
        Arc::new(PaneShared {
            id,
            state: Mutex::new(state),
            seq: AtomicU64::new(seq),
            last_output_ms: AtomicU64::new(0),
            sync_ms: AtomicU64::new(0),
            wanted_size: AtomicU32::new(0),
            epoch: Instant::now(),
            subscribers: Mutex::new(Vec::new()),
            exit_status: Mutex::new(None),
            seen_output: std::sync::atomic::AtomicBool::new(false),
            sideband,
            typed: Mutex::new(std::collections::VecDeque::new()),
            human_input_ms: AtomicU64::new(0),
            draft: tokio::sync::watch::Sender::new(0),
            foreground: Mutex::new(None),
            announce: std::sync::OnceLock::new(),
        })
    }

    /// Where the pane's changes are announced from now on (once; later calls are
    /// ignored).
    pub fn set_announce(&self, announce: Announce) {
        let _ = self.announce.set(announce);
    }

    /// Announces a change of the pane, if anyone listens.
    pub fn announce(&self, change: crate::hub::Change) {
        if let Some(a) = self.announce.get() {
            a(change);
        }
    }

    /// Records what a look found in the foreground; announces it when it shows
    /// differently from the last look (or is the first).
    pub fn record_foreground(&self, found: foreground::Foreground) {
        let now = self.now_ms();
        let changed = {
            let mut fg = self.foreground.lock();
            let changed = fg.as_ref().is_none_or(|(f, _)| f.shows_differently(&found));
            *fg = Some((found, now));
            changed
        };
        if changed {
            self.announce(crate::hub::Change::Foreground(self.id));
        }
    }

    /// The foreground program's name and directory as the last look found them,
    /// however old (no process is looked at: callers hold the tree).
    pub fn foreground_seen(&self) -> Option<(String, Option<std::path::PathBuf>)> {
        let fg = self.foreground.lock();
        fg.as_ref().map(|(f, _)| (f.name.clone(), f.cwd.clone()))
    }

    /// What the last look found, if it is at most `fresh` old.
    pub fn foreground_name(&self, fresh: std::time::Duration) -> Option<String> {
        let fg = self.foreground.lock();
        let (f, at) = fg.as_ref()?;
        (self.now_ms().saturating_sub(*at) <= fresh.as_millis() as u64).then(|| f.name.clone())
    }

    /// Changes the size of a person's unsent draft (see [`PaneShared::watch_draft`]).
    pub fn set_draft(&self, f: impl FnOnce(u32) -> u32) {
        self.draft.send_if_modified(|d| {
            let new = f(*d);
            let changed = new != *d;
            *d = new;
            changed
        });
    }

    /// The size of a person's unsent draft in the pane, and its changes.
    pub fn watch_draft(&self) -> tokio::sync::watch::Receiver<u32> {
        self.draft.subscribe()
    }

    /// Remembers text typed into the pane at absolute line `line`. Single keystrokes
    /// are not worth it: they are a person typing, and too short to tell apart.
    pub fn record_typed(&self, text: &str, line: u64) {
        let text = text.trim();
        if text.chars().count() < 2 {
            return;
        }
        let mut typed = self.typed.lock();
        if typed.len() >= TYPED_KEEP {
            typed.pop_front();
        }
        typed.push_back(Typed {
            text: text.chars().take(4096).collect(),
            line,
            at: Instant::now(),
        });
    }

    /// Texts typed on lines `first..=last` (recently): their echo is on those lines.
    pub fn typed_on(&self, first: u64, last: u64) -> Vec<Typed> {
        self.typed
            .lock()
            .iter()
            .filter(|t| t.line >= first && t.line <= last && t.at.elapsed() < TYPED_FOR)
            .cloned()
            .collect()
    }

    /// A person typed into the pane (keys of an attached client, a person's CLI call).
    pub fn record_human_input(&self) {
        let ms = self.epoch.elapsed().as_millis() as u64 + 1;
        self.human_input_ms.store(ms, Ordering::Release);
    }

    /// When a person last typed into the pane.
    pub fn last_human_input(&self) -> Option<Instant> {
        match self.human_input_ms.load(Ordering::Acquire) {
            0 => None,
            ms => Some(self.epoch + std::time::Duration::from_millis(ms - 1)),
        }
    }

    /// Whether the program has written anything yet.
    pub fn has_output(&self) -> bool {
        self.seen_output.load(Ordering::Acquire)
    }

    /// Milliseconds since the pane was created (the pane's own clock).
    pub fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Waits (boundedly: `grace` from the pane's start) until a new pane's program has
    /// written something, or is blocked reading its terminal (`reading`: a program
    /// such as `cat` prints nothing until it gets input, and made every first send wait
    /// out the whole grace, issue 18). Shells set up their terminal before the first
    /// prompt and may discard input typed earlier (tcsetattr's TCSAFLUSH: the lost start
    /// commands of anthropics/claude-code#40168 on tmux), so input to a pane that has
    /// not spoken yet is held until then (`input-ready-wait`).
    ///
    /// Output wakes the wait at once; whether the program reads can only be looked up
    /// (/proc), so that is looked at every [`Self::READING_CHECK`] meanwhile.
    pub async fn ready_for_input(&self, grace: std::time::Duration, reading: impl Fn() -> bool) {
        let deadline = self.epoch + grace;
        if self.seen_output.load(Ordering::Acquire) || std::time::Instant::now() >= deadline {
            return;
        }
        let notify = Arc::new(Notify::new());
        self.subscribe(&notify);
        while !self.seen_output.load(Ordering::Acquire) && self.exit_status().is_none() {
            if reading() {
                break;
            }
            let next = (std::time::Instant::now() + Self::READING_CHECK).min(deadline);
            let woken = tokio::time::timeout_at(next.into(), notify.notified()).await;
            if woken.is_err() && std::time::Instant::now() >= deadline {
                break;
            }
        }
        self.unsubscribe(&notify);
    }

    /// How often [`Self::ready_for_input`] looks whether the program reads its terminal.
    pub const READING_CHECK: std::time::Duration = std::time::Duration::from_millis(3);

    /// Records the exit status, wakes waiters and announces it.
    pub fn exited(&self, status: i32) {
        *self.exit_status.lock() = Some(status);
        self.notify();
        self.announce(crate::hub::Change::Exited(self.id));
    }

    /// A new program starts in the pane (`respawn-pane`): it has neither exited nor
    /// spoken yet.
    pub fn respawned(&self) {
        *self.exit_status.lock() = None;
        self.seen_output.store(false, Ordering::Release);
        // The old program's foreground is not the new one's.
        *self.foreground.lock() = None;
        self.notify();
    }

    pub fn exit_status(&self) -> Option<i32> {
        *self.exit_status.lock()
    }

    pub fn seq(&self) -> u64 {
        self.seq.load(Ordering::Acquire)
    }

    /// The pane's height, for pacing its frames (read under the state's lock).
    pub fn rows(&self) -> u16 {
        self.state.lock().size().1
    }

    /// When the program last wrote anything.
    pub fn last_output(&self) -> Instant {
        self.epoch + std::time::Duration::from_millis(self.last_output_ms.load(Ordering::Relaxed))
    }

    /// Records the start of the synchronized update in progress (None: none), before
    /// [`PaneShared::changed`] wakes the frame tasks that look at it.
    pub fn set_synchronized(&self, since: Option<Instant>) {
        let ms = since.map_or(0, |t| {
            t.saturating_duration_since(self.epoch).as_millis() as u64 + 1
        });
        self.sync_ms.store(ms, Ordering::Release);
    }

    /// When the synchronized update in progress began: clients are not sent the
    /// pane's screen until it ends or times out (`surfaces/frames.rs`).
    pub fn synchronized_since(&self) -> Option<Instant> {
        match self.sync_ms.load(Ordering::Acquire) {
            0 => None,
            ms => Some(self.epoch + std::time::Duration::from_millis(ms - 1)),
        }
    }

    /// Records that the state reached `seq` and wakes everyone subscribed.
    /// Records the size the layout gives the pane (no lock: the tree's is held).
    pub fn want_size(&self, cols: u16, rows: u16) {
        let packed = (u32::from(cols) << 16) | u32::from(rows);
        self.wanted_size.store(packed, Ordering::Release);
    }

    /// Sizes the terminal and the screen (reflowing history) to the last size wanted.
    /// Read under the pane's lock, so of two callers the later applies the latest
    /// size whatever order they run in.
    pub fn apply_size(&self, resizer: &pty::Resizer) {
        let mut st = self.state.lock();
        let packed = self.wanted_size.load(Ordering::Acquire);
        if packed == 0 {
            return;
        }
        let (cols, rows) = ((packed >> 16) as u16, (packed & 0xffff) as u16);
        resizer.set(cols, rows);
        let before = st.seq();
        st.resize(cols, rows);
        let seq = st.seq();
        drop(st);
        if seq != before {
            self.changed(seq, false);
        }
    }

    pub fn changed(&self, seq: u64, output: bool) {
        if output {
            let ms = self.epoch.elapsed().as_millis() as u64;
            self.last_output_ms.store(ms, Ordering::Relaxed);
            self.seen_output.store(true, Ordering::Release);
        }
        self.seq.store(seq, Ordering::Release);
        self.notify();
    }

    fn notify(&self) {
        self.subscribers.lock().retain(|w| match w.upgrade() {
            Some(n) => {
                n.notify_one();
                true
            }
            None => false,
        });
    }

    /// Wakes `notify` on every change until it is dropped or unsubscribed.
    pub fn subscribe(&self, notify: &Arc<Notify>) {
        let mut subs = self.subscribers.lock();
        if !subs.iter().any(|w| w.as_ptr() == Arc::as_ptr(notify)) {
            subs.push(Arc::downgrade(notify));
        }
    }

    pub fn unsubscribe(&self, notify: &Arc<Notify>) {
        self.subscribers
            .lock()
            .retain(|w| w.as_ptr() != Arc::as_ptr(notify) && w.strong_count() > 0);
    }
}
