//! Writing to a pane's program.
//!
//! A program that stops reading its input must never stall the dispatcher, so writes
//! that may block go through a writer thread. A keystroke, though, is a few bytes that a
//! terminal with room in its input queue takes at once: when nothing is queued ahead of
//! it and the terminal says it has room, it is written right away from the caller, which
//! saves the wake-up of the writer thread on the way of every key.

use parking_lot::Mutex;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

/// Why input could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("the program no longer takes input")]
    Gone,
    /// The pane's program is still being started (see `pane::program`).
    #[error("the program is still starting")]
    Starting,
    /// The program is not reading: `queued` bytes already wait and `limit` is the most
    /// that may (`server.max_input_bytes`).
    #[error("{queued} bytes already wait for the program to read them (the limit is {limit})")]
    Full { queued: usize, limit: usize },
}

/// Bytes for the program, and optionally a signal when they have been written.
pub struct WriteJob {
    pub bytes: Vec<u8>,
    pub done: Option<tokio::sync::oneshot::Sender<()>>,
}

/// The most bytes written without the writer thread (a key, not a paste).
const DIRECT_MAX: usize = 64;

struct Shared {
    /// The terminal, for direct writes.
    fd: Option<OwnedFd>,
    /// Jobs sent to the thread and not yet written.
    queued: AtomicUsize,
    /// Their bytes, bounded by `limit`: a program that stops reading must not make the
    /// server hold every byte callers send it.
    queued_bytes: AtomicUsize,
    limit: usize,
    /// Held for every write, so direct writes and the thread's never interleave.
    order: Mutex<()>,
}

/// A handle for writing to a pane's program, usable without holding the session tree.
#[derive(Clone)]
pub struct PtyInput {
    tx: mpsc::Sender<WriteJob>,
    shared: Arc<Shared>,
}

impl PtyInput {
    /// Starts the writer thread for `writer`; `fd` (the same terminal) is used for
    /// direct writes when given.
    pub fn start(
        name: String,
        mut writer: Box<dyn Write + Send>,
        fd: Option<OwnedFd>,
        limit: usize,
    ) -> std::io::Result<PtyInput> {
        let (tx, jobs) = mpsc::channel::<WriteJob>();
        let shared = Arc::new(Shared {
            fd,
            queued: AtomicUsize::new(0),
            queued_bytes: AtomicUsize::new(0),
            limit,
            order: Mutex::new(()),
        });
        let thread_shared = Arc::clone(&shared);
        std::thread::Builder::new().name(name).spawn(move || {
            for job in jobs {
                let ok = {
                    let _order = thread_shared.order.lock();
                    writer
                        .write_all(&job.bytes)
                        .and_then(|_| writer.flush())
                        .is_ok()
                };
                thread_shared.queued.fetch_sub(1, Ordering::AcqRel);
                thread_shared
                    .queued_bytes
                    .fetch_sub(job.bytes.len(), Ordering::AcqRel);
                if !ok {
                    // Jobs still queued are dropped with the channel when this returns.
                    return;
                }
                if let Some(done) = job.done {
                    let _ = done.send(());
                }
            }
        })?;
        Ok(PtyInput { tx, shared })
    }

    /// Writes bytes, now if that cannot block, else through the thread.
    pub fn write(&self, bytes: Vec<u8>) -> Result<(), InputError> {
        match self.write_direct(bytes) {
            Ok(()) => Ok(()),
            Err(bytes) => self.queue(bytes, None),
        }
    }

    /// Writes bytes and returns a receiver that fires once they have been written.
    pub fn write_acked(
        &self,
        bytes: Vec<u8>,
    ) -> Result<tokio::sync::oneshot::Receiver<()>, InputError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        match self.write_direct(bytes) {
            Ok(()) => {
                let _ = tx.send(());
            }
            Err(bytes) => self.queue(bytes, Some(tx))?,
        }
        Ok(rx)
    }

    /// The terminal's foreground process group (`tcgetpgrp`): a syscall, made
    /// through this handle so that it never runs under the session tree's lock.
    pub fn foreground_pgrp(&self) -> Option<i32> {
        self.shared
            .fd
            .as_ref()
            .and_then(|fd| super::process::foreground_group(fd.as_raw_fd()))
    }

    /// Bytes waiting for the program to read them.
    pub fn queued_bytes(&self) -> usize {
        self.shared.queued_bytes.load(Ordering::Acquire)
    }

    fn queue(
        &self,
        bytes: Vec<u8>,
        done: Option<tokio::sync::oneshot::Sender<()>>,
    ) -> Result<(), InputError> {
        let len = bytes.len();
        let limit = self.shared.limit;
        // Reserve the bytes first, so that concurrent callers cannot all pass the check.
        let before = self.shared.queued_bytes.fetch_add(len, Ordering::AcqRel);
        if before.saturating_add(len) > limit {
            self.shared.queued_bytes.fetch_sub(len, Ordering::AcqRel);
            return Err(InputError::Full {
                queued: before,
                limit,
            });
        }
        self.shared.queued.fetch_add(1, Ordering::AcqRel);
        if self.tx.send(WriteJob { bytes, done }).is_err() {
            self.shared.queued.fetch_sub(1, Ordering::AcqRel);
            self.shared.queued_bytes.fetch_sub(len, Ordering::AcqRel);
            return Err(InputError::Gone);
        }
        Ok(())
    }

    /// Writes `bytes` at once when they are few, nothing is queued before them and the
    /// terminal has room; otherwise hands them back.
    fn write_direct(&self, bytes: Vec<u8>) -> Result<(), Vec<u8>> {
        let Some(fd) = self.shared.fd.as_ref().map(AsRawFd::as_raw_fd) else {
            return Err(bytes);
        };
        if bytes.is_empty() || bytes.len() > DIRECT_MAX {
            return Err(bytes);
        }
        // The thread holds the lock while it writes; then this key waits its turn.
        let Some(_order) = self.shared.order.try_lock() else {
            return Err(bytes);
        };
        if self.shared.queued.load(Ordering::Acquire) != 0 || !has_room(fd) {
            return Err(bytes);
        }
        // SAFETY: writes from a live buffer to a descriptor this handle keeps open.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(n) {
            Ok(n) if n == bytes.len() => Ok(()),
            // The rest is queued while the lock is still held, so nothing overtakes it.
            Ok(n) if n > 0 => {
                // At most DIRECT_MAX bytes: within any limit, but a full queue is logged.
                if let Err(e) = self.queue(bytes[n..].to_vec(), None) {
                    tracing::warn!("the rest of a key could not be queued: {e}");
                }
                Ok(())
            }
            _ => Err(bytes),
        }
    }
}

/// Whether the terminal takes a write now.
fn has_room(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: poll reads and writes only the one pollfd, which outlives the call.
    let r = unsafe { libc::poll(&mut p, 1, 0) };
    r == 1 && p.revents & libc::POLLOUT != 0
}

/// A close-on-exec duplicate of `fd` (programs started later must not inherit it).
pub fn dup_cloexec(fd: i32) -> Option<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor and touches no memory.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    // SAFETY: a fresh descriptor that nobody else owns.
    (new >= 0).then(|| unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(new) })
}
