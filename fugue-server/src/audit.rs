//! The audit log: one JSON line per executed command.
//!
//! Lines are handed to a writer thread so a slow disk never delays a command; the
//! thread flushes whenever it has caught up, so the log is current within
//! milliseconds. Text typed into panes is never written, only its length.
//!
//! A record that cannot be written (a full disk) is counted, not silently dropped: the
//! first loss is logged and shown on attached clients' status line, and once writing
//! works again a gap record, `{"gap": N, "since": ..., "until": ..., "error": ...}`,
//! says how many records are missing and when.

use serde::Serialize;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, SystemTime};

#[derive(Serialize)]
pub struct AuditRecord<'a> {
    pub time: String,
    pub origin: String,
    pub command: &'a str,
    pub target: Option<String>,
    /// `ok` or the error code.
    pub result: &'a str,
    pub duration_us: u64,
    /// The MCP tool or sideband tag the command came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<serde_json::Value>,
}

/// Told that records are being lost.
type Tell = Box<dyn Fn(&str) + Send + Sync>;

/// What the audit log shares with its writer thread.
#[derive(Default)]
struct Shared {
    /// Records that could not be written, since the server started.
    lost: AtomicU64,
    /// Told (once per outage) that records are being lost.
    on_trouble: OnceLock<Tell>,
}

pub struct Audit {
    tx: Option<mpsc::Sender<String>>,
    shared: Arc<Shared>,
}

impl Audit {
    /// Appends to `path` (created 0600).
    pub fn open(path: &Path) -> std::io::Result<Audit> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        let (tx, rx) = mpsc::channel::<String>();
        let shared = Arc::new(Shared::default());
        let mut writer = Writer {
            file,
            path: path.to_path_buf(),
            shared: Arc::clone(&shared),
            gap: None,
        };
        std::thread::Builder::new()
            .name("audit".into())
            .spawn(move || {
                while let Ok(line) = rx.recv() {
                    let mut batch = vec![line];
                    batch.extend(rx.try_iter());
                    writer.write(&batch);
                }
            })?;
        Ok(Audit {
            tx: Some(tx),
            shared,
        })
    }

    /// An audit log that drops everything (for tests of the pane core).
    pub fn disabled() -> Audit {
        Audit {
            tx: None,
            shared: Arc::default(),
        }
    }

    pub fn record(&self, rec: &AuditRecord<'_>) {
        if let (Some(tx), Ok(line)) = (&self.tx, serde_json::to_string(rec)) {
            let _ = tx.send(line);
        }
    }

    /// How many records could not be written since the server started.
    pub fn lost(&self) -> u64 {
        self.shared.lost.load(Ordering::Relaxed)
    }

    /// Sets what is told, once per outage, that records are being lost (attached
    /// clients' status line). Called from the writer thread.
    pub fn on_trouble(&self, tell: impl Fn(&str) + Send + Sync + 'static) {
        let _ = self.shared.on_trouble.set(Box::new(tell));
    }
}

/// Records lost in an outage not yet closed by a gap record.
struct Gap {
    lost: u64,
    since: String,
    error: String,
}

/// The writer thread's side. Records go to the file whole or not at all: a record a
/// full disk cut short is truncated away, so every line stays JSON.
struct Writer {
    file: File,
    path: PathBuf,
    shared: Arc<Shared>,
    gap: Option<Gap>,
}

impl Writer {
    fn write(&mut self, records: &[String]) {
        // After an outage, the first thing written says what is missing.
        let gap_line = self.gap.as_ref().map(|g| {
            serde_json::json!({
                "gap": g.lost,
                "since": g.since,
                "until": now(),
                "error": g.error,
            })
            .to_string()
        });
        let mut batch = String::new();
        let mut ends = Vec::with_capacity(records.len() + 1);
        for line in gap_line.iter().chain(records) {
            batch.push_str(line);
            batch.push('\n');
            ends.push(batch.len());
        }
        let start = self.file.metadata().map(|m| m.len()).ok();
        let (written, error) = write_counting(&mut self.file, batch.as_bytes());
        let mut whole = ends.iter().take_while(|&&e| e <= written).count();
        // A gap record alone proves little (it is short): the outage is over when a
        // record after it is written too. Until then it is taken back.
        if gap_line.is_some() && whole == 1 {
            whole = 0;
        }
        let kept = whole.checked_sub(1).map_or(0, |i| ends[i]);
        if written > kept
            && let Some(start) = start
        {
            // Drop the torn record; if even that fails the next line starts fresh.
            if self.file.set_len(start + kept as u64).is_err() {
                let _ = self.file.write_all(b"\n");
            }
        }
        let gap_written = gap_line.is_some() && whole > 0;
        if gap_written && let Some(g) = self.gap.take() {
            tracing::warn!(
                "audit log {}: writing again; {} records written from {} on were lost (a gap record says so)",
                self.path.display(),
                g.lost,
                g.since
            );
        }
        let saved = whole - usize::from(gap_written);
        let lost = (records.len() - saved) as u64;
        if lost == 0 {
            return;
        }
        self.shared.lost.fetch_add(lost, Ordering::Relaxed);
        match &mut self.gap {
            Some(g) => g.lost += lost,
            None => {
                let error = error.map_or_else(|| "short write".into(), |e| e.to_string());
                let msg = format!(
                    "audit log {}: cannot write ({error}); counting lost records until it can",
                    self.path.display()
                );
                tracing::warn!("{msg}");
                if let Some(tell) = self.shared.on_trouble.get() {
                    tell(&msg);
                }
                self.gap = Some(Gap {
                    lost,
                    since: now(),
                    error,
                });
            }
        }
    }
}

/// Writes as much of `buf` as the file takes: the bytes written and the error that
/// stopped it.
fn write_counting(file: &mut File, buf: &[u8]) -> (usize, Option<std::io::Error>) {
    let mut written = 0;
    while written < buf.len() {
        match file.write(&buf[written..]) {
            Ok(0) => return (written, Some(std::io::ErrorKind::WriteZero.into())),
            Ok(n) => written += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return (written, Some(e)),
        }
    }
    (written, None)
}

/// RFC 3339 time with milliseconds.
pub fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

pub fn micros(d: Duration) -> u64 {
    d.as_micros().min(u128::from(u64::MAX)) as u64
}
