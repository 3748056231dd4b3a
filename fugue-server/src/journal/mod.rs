//! The journal: every change to what the server holds (sessions, windows, layouts,
//! panes, agents, paste buffers, runtime settings) written to disk as it happens, so
//! a server killed with -9, crashed or rebooted away can be brought back
//! ([docs/reliability.md](../../docs/reliability.md#the-journal)).
//!
//! - [`format`]: framing (length, CRC-32, version); [`model`]: the records;
//!   [`store`]: the files (log, snapshot, compaction); [`migrate`]: older versions.
//! - [`Journal`]: the writer, a thread of its own. [`Journal::changed`] is the one
//!   observation point: cheap, never blocking, callable under any lock. The writer
//!   then asks the capture function (`crate::capture`) for the state, diffs it against
//!   what it last wrote, and appends the difference. Nothing is written under the tree's
//!   lock or on the async runtime.
//!
//! Channel and limits: change notices coalesce into one flag (a burst of 1,000
//! changes is one or a few captures: each capture holds the whole state, so nothing
//! is lost by coalescing); marks and control messages go through a channel of
//! [`QUEUE`] entries, whose senders wait when it is full (they are rare: a server
//! start, a restore, a discard, a stop).

pub mod format;
pub mod migrate;
pub mod model;
pub mod scrollback;
pub mod store;
mod writer;

use model::{Mark, Model};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::time::Duration;

/// Written data is synced (fdatasync) at most this long after it was written: a
/// power loss loses at most the changes of the last interval. A kill (-9 or a
/// crash) loses only what the writer had not yet written, since written data is in
/// the kernel's page cache.
pub const FSYNC_INTERVAL: Duration = Duration::from_millis(5);
/// How often the writer captures without being told: titles and working
/// directories programs change on their own are seen within this.
pub const TICK: Duration = Duration::from_secs(1);
/// Messages (marks, flushes, the stop) waiting for the writer.
pub const QUEUE: usize = 64;

pub type Capture = Box<dyn FnMut() -> Model + Send>;
pub type Trouble = Box<dyn Fn(&str) + Send>;

enum Msg {
    Changed,
    Mark(Mark),
    /// Capture, write and sync now; answer when done.
    Flush(SyncSender<()>),
    Stop(Stop),
}

/// How the writer stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Keep what was written: a shutdown by signal (a reboot, a logout) empties the
    /// tree, and that must not erase the sessions a restart brings back.
    Keep,
    /// Capture once more: the state now is the one to keep (the last session ended).
    Capture,
    /// Forget everything (`kill-server`, which ends every session on purpose).
    Forget,
}

pub struct Journal {
    tx: SyncSender<Msg>,
    /// A change notice is queued and not yet taken.
    pending: Arc<AtomicBool>,
    /// Stopped: nothing more is captured (a shutdown is emptying the tree).
    stopped: Arc<AtomicBool>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// The journal's folder.
    pub dir: std::path::PathBuf,
}

impl Journal {
    /// Starts the writer over `store`, whose state it last wrote is `written`.
    pub fn start(
        store: store::Store,
        written: Model,
        capture: Capture,
        trouble: Trouble,
    ) -> Journal {
        let (tx, rx) = sync_channel(QUEUE);
        let pending = Arc::new(AtomicBool::new(false));
        let stopped = Arc::new(AtomicBool::new(false));
        let dir = store.dir().to_path_buf();
        let w = writer::Writer {
            store,
            written,
            capture,
            trouble,
            pending: Arc::clone(&pending),
            stopped: Arc::clone(&stopped),
            outage: None,
            marks: Vec::new(),
        };
        let thread = std::thread::Builder::new()
            .name("journal".into())
            .spawn(move || writer::run(w, rx))
            .map_err(|e| {
                tracing::error!("journal: cannot start its writer: {e}; nothing will be journaled")
            })
            .ok();
        Journal {
            tx,
            pending,
            stopped,
            thread: Mutex::new(thread),
            dir,
        }
    }

    /// Something the journal keeps changed. Never blocks; many calls in a burst are
    /// one capture.
    pub fn changed(&self) {
        if !self.pending.swap(true, Ordering::AcqRel) {
            match self.tx.try_send(Msg::Changed) {
                // Full: the writer is behind and will capture after what is queued.
                Ok(()) | Err(TrySendError::Full(_)) => {}
                Err(TrySendError::Disconnected(_)) => {}
            }
        }
    }

    pub fn mark(&self, mark: Mark) {
        let _ = self.tx.send(Msg::Mark(mark));
    }

    /// Captures, writes and syncs, and waits for it (at most `limit`).
    pub fn flush(&self, limit: Duration) {
        let (ack, done) = sync_channel(1);
        if self.tx.send(Msg::Flush(ack)).is_ok() {
            let _ = done.recv_timeout(limit);
        }
    }

    /// Stops the writer and waits for it (see [`Stop`]).
    pub fn stop(&self, how: Stop) {
        if how != Stop::Capture {
            self.stopped.store(true, Ordering::Release);
        }
        let _ = self.tx.send(Msg::Stop(how));
        if let Some(t) = self.thread.lock().take() {
            let _ = t.join();
        }
        self.stopped.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests;
