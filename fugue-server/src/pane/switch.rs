//! Whether a pane's output is scanned for sideband tags right now.
//!
//! A pane is scanned when it asked for it (`--sideband`, `sideband: true`), or when the
//! program in its foreground is one named in the config's `enable_for` (an agent such
//! as `claude` started from a shell). A spawn that said `sideband="false"` is never
//! scanned. In `auto` mode a pane stops being scanned once its agent connects through
//! `fugue mcp`. The foreground is looked up only when output arrives, at most every
//! quarter second: tags can only appear in output.

use super::process;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

const RECHECK_MS: u64 = 250;

pub struct SidebandSwitch {
    /// Set at spawn: Some(true) asked for, Some(false) refused, None decided by program.
    explicit: Option<bool>,
    off: bool,
    mcp_wins: bool,
    enable_for: Arc<[String]>,
    /// An agent in this pane is connected over MCP.
    mcp: AtomicBool,
    fg_matches: AtomicBool,
    /// Milliseconds (pane clock) of the last foreground check; u64::MAX: never.
    checked: AtomicU64,
    /// How long a possible tag is held while the program prints nothing more.
    release_after: Duration,
}

impl SidebandSwitch {
    pub fn new(
        explicit: Option<bool>,
        off: bool,
        mcp_wins: bool,
        enable_for: Arc<[String]>,
    ) -> SidebandSwitch {
        SidebandSwitch {
            explicit,
            off,
            mcp_wins,
            enable_for,
            mcp: AtomicBool::new(false),
            fg_matches: AtomicBool::new(false),
            checked: AtomicU64::new(u64::MAX),
            release_after: Duration::from_millis(750),
        }
    }

    /// Sets how long a possible tag is held while the program prints nothing more.
    pub fn with_release_after(mut self, after: Duration) -> SidebandSwitch {
        self.release_after = after;
        self
    }

    pub fn release_after(&self) -> Duration {
        self.release_after
    }

    /// A switch that never scans (tests and benchmarks of the plain path).
    pub fn never() -> SidebandSwitch {
        SidebandSwitch::new(Some(false), true, false, Arc::from(Vec::new()))
    }

    pub fn set_mcp(&self, connected: bool) {
        self.mcp.store(connected, Ordering::Release);
    }

    /// Whether the pane asked for scanning or runs an agent named in the config.
    pub fn configured(&self) -> bool {
        self.explicit == Some(true)
    }

    /// Whether to scan output arriving now. `fd` is the PTY master, for the foreground.
    pub fn active(&self, fd: Option<i32>, now_ms: u64) -> bool {
        if self.off || (self.mcp_wins && self.mcp.load(Ordering::Acquire)) {
            return false;
        }
        match self.explicit {
            Some(on) => on,
            None if self.enable_for.is_empty() => false,
            None => {
                let last = self.checked.load(Ordering::Relaxed);
                if last == u64::MAX || now_ms.saturating_sub(last) >= RECHECK_MS {
                    self.checked.store(now_ms, Ordering::Relaxed);
                    let matches = fd
                        .and_then(process::foreground_group)
                        .map(|pid| {
                            process::names(pid)
                                .iter()
                                .any(|n| self.enable_for.iter().any(|e| e == n))
                        })
                        .unwrap_or(false);
                    self.fg_matches.store(matches, Ordering::Relaxed);
                }
                self.fg_matches.load(Ordering::Relaxed)
            }
        }
    }
}
