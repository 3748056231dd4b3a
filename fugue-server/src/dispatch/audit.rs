//! The audit log: one JSON line per executed command.
//!
//! Lines are handed to a writer thread so a slow disk never delays a command; the
//! thread flushes whenever it has caught up, so the log is current within
//! milliseconds. Text typed into panes is never written, only its length.

use serde::Serialize;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::mpsc;
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

pub struct Audit {
    tx: Option<mpsc::Sender<String>>,
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
        std::thread::Builder::new()
            .name("audit".into())
            .spawn(move || {
                let mut out = std::io::BufWriter::new(file);
                while let Ok(line) = rx.recv() {
                    let _ = writeln!(out, "{line}");
                    while let Ok(line) = rx.try_recv() {
                        let _ = writeln!(out, "{line}");
                    }
                    let _ = out.flush();
                }
            })?;
        Ok(Audit { tx: Some(tx) })
    }

    /// An audit log that drops everything (for tests of the pane core).
    pub fn disabled() -> Audit {
        Audit { tx: None }
    }

    pub fn record(&self, rec: &AuditRecord<'_>) {
        if let (Some(tx), Ok(line)) = (&self.tx, serde_json::to_string(rec)) {
            let _ = tx.send(line);
        }
    }
}

/// RFC 3339 time with milliseconds.
pub fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

pub fn micros(d: Duration) -> u64 {
    d.as_micros().min(u128::from(u64::MAX)) as u64
}
