//! The journal's writer thread (see `mod.rs` for the channel, `store.rs` for files).

use super::model::{Entry, Mark, Model};
use super::store::{COMPACT_BYTES, Store};
use super::{Capture, FSYNC_INTERVAL, Msg, Stop, TICK, Trouble};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

pub struct Writer {
    pub store: Store,
    /// The state as the journal holds it.
    pub written: Model,
    pub capture: Capture,
    pub trouble: Trouble,
    pub pending: Arc<AtomicBool>,
    pub stopped: Arc<AtomicBool>,
    /// Since when writes fail, how many attempts, and the error.
    pub outage: Option<(Instant, u64, String)>,
    /// Marks not yet written (kept across a full disk).
    pub marks: Vec<Mark>,
}

pub fn run(mut w: Writer, rx: Receiver<Msg>) {
    // Since when written data waits for its sync.
    let mut unsynced: Option<Instant> = None;
    loop {
        let wait = match unsynced {
            Some(t) => FSYNC_INTERVAL.saturating_sub(t.elapsed()),
            None => TICK,
        };
        let mut ack = None;
        let mut stop = None;
        match rx.recv_timeout(wait) {
            Ok(Msg::Changed) | Err(RecvTimeoutError::Timeout) => {}
            Ok(Msg::Mark(m)) => w.marks.push(m),
            Ok(Msg::Flush(a)) => ack = Some(a),
            Ok(Msg::Stop(capture)) => stop = Some(capture),
            Err(RecvTimeoutError::Disconnected) => stop = Some(Stop::Keep),
        }
        // Marks queued behind this message are written with this capture.
        while let Ok(m) = rx.try_recv() {
            match m {
                Msg::Mark(m) => w.marks.push(m),
                Msg::Changed => {}
                Msg::Flush(a) => ack = Some(a),
                Msg::Stop(c) => stop = Some(c),
            }
        }
        if stop == Some(Stop::Forget) {
            w.marks.push(super::model::Mark {
                what: "kill_server".into(),
                pid: std::process::id(),
                boot_id: None,
                at_ms: 0,
                panes: Vec::new(),
                sessions: Vec::new(),
            });
            w.capture = Box::new(super::model::Model::default);
        }
        let capture = stop.is_some_and(|s| s != Stop::Keep)
            || (stop.is_none() && !w.stopped.load(Ordering::Acquire));
        if w.write(capture) {
            unsynced.get_or_insert_with(Instant::now);
        }
        let due = unsynced.is_some_and(|t| t.elapsed() >= FSYNC_INTERVAL);
        if (due || ack.is_some() || stop.is_some()) && unsynced.is_some() {
            match w.store.sync() {
                Ok(()) => unsynced = None,
                Err(e) => w.failed(&e),
            }
        }
        if w.store.log_len() > COMPACT_BYTES && w.outage.is_none() {
            if let Err(e) = w.store.compact(&w.written) {
                tracing::warn!(
                    "journal: compaction failed: {e}; the log keeps growing until it works"
                );
            }
        }
        if let Some(a) = ack {
            let _ = a.send(());
        }
        if stop.is_some() {
            return;
        }
    }
}

impl Writer {
    /// Captures (when asked) and appends what changed; true when bytes were written.
    fn write(&mut self, capture: bool) -> bool {
        let mut entries: Vec<Entry> = self.marks.iter().cloned().map(Entry::Mark).collect();
        let next = if capture {
            self.pending.store(false, Ordering::Release);
            let next = (self.capture)();
            entries.extend(self.written.diff(&next));
            Some(next)
        } else {
            None
        };
        if entries.is_empty() {
            return false;
        }
        match self.store.append(&entries) {
            Ok(()) => {
                self.marks.clear();
                if let Some(next) = next {
                    self.written = next;
                }
                if let Some((since, attempts, _)) = self.outage.take() {
                    let msg = format!(
                        "journal: writing again after {} s and {attempts} failed writes; nothing was lost",
                        since.elapsed().as_secs()
                    );
                    tracing::warn!("{msg}");
                    (self.trouble)(&msg);
                }
                true
            }
            Err(e) => {
                // `written` stays: the next capture's diff holds these changes too.
                self.failed(&e);
                false
            }
        }
    }

    fn failed(&mut self, e: &std::io::Error) {
        match &mut self.outage {
            Some((_, n, _)) => *n += 1,
            None => {
                let msg = format!(
                    "journal: cannot write to {}: {e}; the server runs on, and changes will be written once there is room",
                    self.store.dir().display()
                );
                tracing::warn!("{msg}");
                (self.trouble)(&msg);
                self.outage = Some((Instant::now(), 1, e.to_string()));
            }
        }
    }
}
