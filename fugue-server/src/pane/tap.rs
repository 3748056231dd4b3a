//! The raw-output tap: the bytes a pane's program wrote, as it wrote them, for the
//! listeners that want them (tmux control mode's `%output`).
//!
//! The reader thread pays one relaxed atomic load per read (not per byte) while
//! nobody listens; the vt100 byte path is not touched. A listener is called on the
//! reader thread and must never block: it queues (bounded) or drops.

use fugue_protocol::PaneId;
use parking_lot::RwLock;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Hears raw pane output. Called from a pane's reader thread: must not block.
pub trait OutputSink: Send + Sync {
    fn output(&self, pane: PaneId, bytes: &[u8]);
}

/// One for the server, shared by every pane's reader thread.
#[derive(Default)]
pub struct OutputTap {
    /// Whether any sink is registered: the reader's only cost while none is.
    on: AtomicBool,
    sinks: RwLock<Vec<Arc<dyn OutputSink>>>,
}

impl OutputTap {
    /// The reader's check; relaxed: a read that misses a sink registered this instant
    /// is output from before it was registered.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// Hands a chunk to every sink (only called when [`is_on`](Self::is_on)).
    #[cold]
    #[inline(never)]
    pub fn send(&self, pane: PaneId, bytes: &[u8]) {
        for s in self.sinks.read().iter() {
            s.output(pane, bytes);
        }
    }

    pub fn add(&self, sink: Arc<dyn OutputSink>) {
        let mut sinks = self.sinks.write();
        sinks.push(sink);
        self.on.store(true, Ordering::Relaxed);
    }

    pub fn remove(&self, sink: &Arc<dyn OutputSink>) {
        let mut sinks = self.sinks.write();
        sinks.retain(|s| !Arc::ptr_eq(s, sink));
        self.on.store(!sinks.is_empty(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    struct Keep(Mutex<Vec<(PaneId, Vec<u8>)>>);
    impl OutputSink for Keep {
        fn output(&self, pane: PaneId, bytes: &[u8]) {
            self.0.lock().push((pane, bytes.to_vec()));
        }
    }

    #[test]
    fn the_tap_is_off_until_a_sink_listens_and_off_again_after() {
        let tap = OutputTap::default();
        assert!(!tap.is_on());
        let keep = Arc::new(Keep(Mutex::new(Vec::new())));
        let sink: Arc<dyn OutputSink> = keep.clone();
        tap.add(Arc::clone(&sink));
        assert!(tap.is_on());
        tap.send(PaneId(3), b"hi\r\n");
        assert_eq!(keep.0.lock().as_slice(), &[(PaneId(3), b"hi\r\n".to_vec())]);
        tap.remove(&sink);
        assert!(!tap.is_on());
    }
}
