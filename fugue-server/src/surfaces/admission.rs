//! Who gets in: a bound on connections, and what happens when descriptors run out.
//!
//! Every connection costs a descriptor and a little memory, and panes need descriptors
//! too (a PTY and its duplicates). So the server raises its soft descriptor limit to the
//! hard one when it starts, admits at most [`Admission::limit`] connections at once
//! (the configured `max_connections`, and never more than half the descriptors, so
//! panes always have room), and tells a connection past that why it is refused rather
//! than leaving it hanging. If descriptors run out anyway (`EMFILE`), a descriptor kept
//! in reserve is given up for a moment to accept the waiting connection, refuse it with
//! a reason and close it: otherwise the listener stays readable, the accept loop spins
//! and every caller waits. The warning is logged at most once every 10 seconds.

use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::Semaphore;

/// How often the "refused" warning may be logged.
const WARN_EVERY: Duration = Duration::from_secs(10);

/// Raises the soft limit on open descriptors to the hard limit; returns the new soft
/// limit.
pub fn raise_nofile_limit() -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit read and write only `lim`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return 1024;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
    }
    lim.rlim_cur
}

pub struct Admission {
    live: AtomicUsize,
    limit: usize,
    /// Bytes of frames being read, shared by all connections (see `inbound.rs`).
    pub frame_budget: Arc<Semaphore>,
    reserve: Mutex<Option<std::fs::File>>,
    refused: AtomicU64,
    last_warning: Mutex<Option<Instant>>,
}

/// An admitted connection; dropping it makes room for another.
pub struct Ticket(Arc<Admission>);

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Admission {
    /// `max_connections` from the config; `nofile`, the descriptor limit in force.
    pub fn new(max_connections: usize, nofile: u64) -> Arc<Admission> {
        let half = usize::try_from(nofile / 2).unwrap_or(usize::MAX).max(8);
        Arc::new(Admission {
            live: AtomicUsize::new(0),
            limit: max_connections.min(half),
            frame_budget: super::inbound::budget(),
            reserve: Mutex::new(std::fs::File::open("/dev/null").ok()),
            refused: AtomicU64::new(0),
            last_warning: Mutex::new(None),
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn live(&self) -> usize {
        self.live.load(Ordering::Acquire)
    }

    /// A ticket for one more connection, or why there is none.
    pub fn admit(self: &Arc<Self>) -> Result<Ticket, String> {
        let before = self.live.fetch_add(1, Ordering::AcqRel);
        if before >= self.limit {
            self.live.fetch_sub(1, Ordering::AcqRel);
            let why = format!(
                "the server has {before} connections, its limit (server.max_connections, at most half the descriptor limit): close idle clients and try again"
            );
            self.warn(&why);
            return Err(why);
        }
        Ok(Ticket(Arc::clone(self)))
    }

    /// Accepts the next connection. Out of descriptors, it accepts and closes the
    /// waiting one with `refuse` (which tells it why) using the reserve descriptor.
    /// `None` only if accepting fails for another reason (after a short pause).
    pub async fn accept<F, Fut>(&self, listener: &UnixListener, refuse: F) -> Option<UnixStream>
    where
        F: Fn(UnixStream, String) -> Fut,
        Fut: std::future::Future<Output = ()>,
    {
        match listener.accept().await {
            Ok((s, _)) => Some(s),
            Err(e) if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) => {
                let why = "the server is out of file descriptors; close idle clients or panes and try again".to_string();
                self.warn(&format!("accept failed: {e}: {why}"));
                let reserve = self.reserve.lock().take();
                drop(reserve);
                if let Ok((s, _)) = listener.accept().await {
                    refuse(s, why).await;
                }
                *self.reserve.lock() = std::fs::File::open("/dev/null").ok();
                // Let closing connections give descriptors back before trying again.
                tokio::time::sleep(Duration::from_millis(20)).await;
                None
            }
            Err(e) => {
                self.warn(&format!("accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                None
            }
        }
    }

    /// Logs a refusal at most once every [`WARN_EVERY`], with how many were refused.
    fn warn(&self, why: &str) {
        let n = self.refused.fetch_add(1, Ordering::AcqRel) + 1;
        let mut last = self.last_warning.lock();
        if last.is_none_or(|t| t.elapsed() >= WARN_EVERY) {
            *last = Some(Instant::now());
            tracing::warn!("refused a connection ({n} refused so far): {why}");
        }
    }
}
