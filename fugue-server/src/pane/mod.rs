//! Panes: a program on a PTY and the screen it draws.
//!
//! - [`state`]: the sans-IO terminal state (screen, history, answers).
//! - [`pty`]: spawning the program and the threads that read, write and wait.
//! - [`history`], [`rows`], [`terminal`]: compact history, rows for clients, vt100
//!   callbacks.
//! - [`process`]: what runs in the foreground of a pane.

pub mod history;
pub mod process;
pub mod pty;
pub mod rows;
pub mod state;
pub mod terminal;

use fugue_protocol::PaneId;
use parking_lot::Mutex;
use state::PaneState;
use std::sync::atomic::{AtomicU64, Ordering};
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
    epoch: Instant,
    /// Who wants to hear about changes: attached clients and waiters.
    subscribers: Mutex<Vec<Weak<Notify>>>,
}

impl PaneShared {
    pub fn new(id: PaneId, state: PaneState) -> Arc<Self> {
        let seq = state.seq();
        Arc::new(PaneShared {
            id,
            state: Mutex::new(state),
            seq: AtomicU64::new(seq),
            last_output_ms: AtomicU64::new(0),
            epoch: Instant::now(),
            subscribers: Mutex::new(Vec::new()),
        })
    }

    pub fn seq(&self) -> u64 {
        self.seq.load(Ordering::Acquire)
    }

    /// When the program last wrote anything.
    pub fn last_output(&self) -> Instant {
        self.epoch + std::time::Duration::from_millis(self.last_output_ms.load(Ordering::Relaxed))
    }

    /// Records that the state reached `seq` and wakes everyone subscribed.
    pub fn changed(&self, seq: u64, output: bool) {
        if output {
            let ms = self.epoch.elapsed().as_millis() as u64;
            self.last_output_ms.store(ms, Ordering::Relaxed);
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
