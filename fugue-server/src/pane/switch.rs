//! Whether a pane's output is scanned for sideband tags right now.
//!
//! A pane is scanned when it asked for it (`--sideband`, `sideband: true`), or when the
//! program in its foreground is one named in the config's `enable_for` (an agent such
//! as `claude` started from a shell). A spawn that said `sideband="false"` is never
//! scanned. In `auto` mode a pane stops being scanned once its agent connects through
//! `fugue mcp`. Being scanned is not being trusted: only tags that carry the pane's key
//! run (see `tags/key.rs`), so `enable_for` says where to look for keyed tags.
//!
//! The foreground is decided on every read, because a stale answer is an injection: with
//! a cached "yes", `claude; cat evil.txt` had cat's output scanned after the agent
//! exited. Reading the terminal's foreground process group is one ioctl; the program's
//! name (from /proc) is read again only when that group changes. One exception, in the
//! safe direction: a group that did not match is looked at again after a moment, since
//! a shell hands the terminal to a new job before the job's program is exec'd, and the
//! first look may see the shell's name rather than the agent's.

use super::process;
use super::tags::SidebandKey;
use fugue_protocol::InputPart;
use fugue_protocol::keys::{KeyCode, Mods};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How soon a foreground group that did not match is looked at again.
const RECHECK_UNMATCHED_MS: u64 = 250;

/// What the reader last found in the foreground.
#[derive(Clone, Copy, Debug, Default)]
struct Foreground {
    /// The process group (0: none yet).
    pgrp: i32,
    matches: bool,
    /// Pane clock of the last look at the program's name.
    checked_ms: u64,
}

pub struct SidebandSwitch {
    /// Set at spawn: Some(true) asked for, Some(false) refused, None decided by program.
    explicit: Option<bool>,
    off: bool,
    mcp_wins: bool,
    enable_for: Arc<[String]>,
    /// An agent in this pane is connected over MCP.
    mcp: AtomicBool,
    /// Used by the reader thread alone; a lock only to keep the switch shareable.
    fg: Mutex<Foreground>,
    /// How long a possible tag is held while the program prints nothing more.
    release_after: Duration,
    /// The pane's sideband key (in its environment), if it may be scanned.
    key: Option<SidebandKey>,
    /// The last bytes of text typed into the pane, fewer than the key has.
    typed_tail: Mutex<Vec<u8>>,
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
            fg: Mutex::new(Foreground::default()),
            release_after: Duration::from_millis(750),
            key: None,
            typed_tail: Mutex::new(Vec::new()),
        }
    }

    /// Whether the pane may ever be scanned, and so needs a key.
    pub fn may_scan(&self) -> bool {
        !self.off
            && match self.explicit {
                Some(on) => on,
                None => !self.enable_for.is_empty(),
            }
    }

    /// Sets the pane's key (see [`Self::key`]).
    pub fn with_key(mut self, key: Option<SidebandKey>) -> SidebandSwitch {
        self.key = key;
        self
    }

    /// The pane's key.
    pub fn key(&self) -> Option<&SidebandKey> {
        self.key.as_ref()
    }

    /// Whether input about to be typed into the pane holds its key, with the end of the
    /// input typed before (a key typed a character at a time, as a person's keys come).
    /// Such input is refused: its echo would pass for a tag the program printed.
    /// Input that does not hold it is remembered; a refusal forgets the end.
    pub fn input_carries_key(&self, parts: &[InputPart]) -> bool {
        let Some(key) = &self.key else {
            return false;
        };
        let mut tail = self.typed_tail.lock();
        let mut text = std::mem::take(&mut *tail);
        let mut buf = [0u8; 4];
        for part in parts {
            match part {
                InputPart::Text(t) | InputPart::Paste(t) => text.extend_from_slice(t.as_bytes()),
                InputPart::Mouse(_) | InputPart::Reset => {}
                InputPart::Key(k) => {
                    // As typed: a keypad digit is the digit, a release types nothing.
                    if let Some(k) = k.legacy()
                        && let KeyCode::Char(c) = k.code
                        && !k.mods.contains(Mods::CTRL)
                        && !k.mods.contains(Mods::ALT)
                    {
                        text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
            }
        }
        if key.found_in(&text) {
            return true;
        }
        let keep = key.expose().len().saturating_sub(1);
        text.drain(..text.len().saturating_sub(keep));
        *tail = text;
        false
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

    /// Whether to scan output read just now. `fd` is the PTY master, for the foreground.
    pub fn active(&self, fd: Option<i32>, now_ms: u64) -> bool {
        self.decide(
            || fd.and_then(process::foreground_group),
            now_ms,
            process::names,
        )
    }

    /// [`Self::active`] with the foreground group from `pgrp` and a group's program
    /// names from `names`.
    fn decide(
        &self,
        pgrp: impl FnOnce() -> Option<i32>,
        now_ms: u64,
        names: impl FnOnce(i32) -> Vec<String>,
    ) -> bool {
        if self.off || (self.mcp_wins && self.mcp.load(Ordering::Acquire)) {
            return false;
        }
        match self.explicit {
            Some(on) => on,
            None if self.enable_for.is_empty() => false,
            None => {
                let Some(pgrp) = pgrp() else {
                    return false;
                };
                let mut fg = self.fg.lock();
                let look = pgrp != fg.pgrp
                    || (!fg.matches
                        && now_ms.saturating_sub(fg.checked_ms) >= RECHECK_UNMATCHED_MS);
                if look {
                    let matches = names(pgrp)
                        .iter()
                        .any(|n| self.enable_for.iter().any(|e| e == n));
                    *fg = Foreground {
                        pgrp,
                        matches,
                        checked_ms: now_ms,
                    };
                }
                fg.matches
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn agents() -> SidebandSwitch {
        SidebandSwitch::new(None, false, true, Arc::from(vec!["claude".to_string()]))
    }

    /// Decides for `pgrp` at `now`, with group 7 running claude and any other a shell;
    /// returns the answer and whether /proc was read.
    fn ask(s: &SidebandSwitch, pgrp: i32, now: u64) -> (bool, bool) {
        let looked = Cell::new(false);
        let on = s.decide(
            || Some(pgrp),
            now,
            |p| {
                looked.set(true);
                vec![if p == 7 { "claude" } else { "sh" }.to_string()]
            },
        );
        (on, looked.get())
    }

    #[test]
    fn the_agent_leaving_the_foreground_ends_scanning_at_the_next_read() {
        let s = agents();
        assert_eq!(ask(&s, 7, 0), (true, true));
        // The same group: one ioctl, no /proc.
        assert_eq!(ask(&s, 7, 1), (true, false));
        assert_eq!(ask(&s, 7, 10_000), (true, false));
        // `claude; cat evil.txt`: cat's group takes the terminal a millisecond later.
        assert_eq!(ask(&s, 9, 10_001), (false, true));
        assert_eq!(ask(&s, 9, 10_002), (false, false));
    }

    #[test]
    fn an_unmatched_group_is_looked_at_again_after_a_moment() {
        let s = agents();
        // A job's group may get the terminal before its program is exec'd.
        let looked = Cell::new(0);
        let name = |n: &'static str| {
            let looked = &looked;
            move |_| {
                looked.set(looked.get() + 1);
                vec![n.to_string()]
            }
        };
        assert!(!s.decide(|| Some(5), 0, name("sh")));
        assert!(!s.decide(|| Some(5), 100, name("claude")));
        assert!(s.decide(|| Some(5), 300, name("claude")));
        assert_eq!(looked.get(), 2);
    }

    #[test]
    fn input_holding_the_key_is_caught_even_a_character_at_a_time() {
        let key = "0123456789abcdef0123456789abcdef";
        let s = agents().with_key(SidebandKey::new(key));
        let text = |t: &str| vec![InputPart::Text(t.to_string())];
        assert!(!s.input_carries_key(&text("hello <fugue:list key=\"")));
        assert!(s.input_carries_key(&[InputPart::Paste(format!("x{key}y"))]));
        // Typed one key at a time, as an attached client sends a person's keys.
        let mut caught = false;
        for c in key.chars() {
            let k = fugue_protocol::Key::new(KeyCode::Char(c), Mods::NONE);
            caught = s.input_carries_key(&[InputPart::Key(k)]);
        }
        assert!(caught, "the last character completes the key");
        assert!(!s.input_carries_key(&text(&key[..31])));
        // A pane without a key takes anything.
        assert!(!agents().input_carries_key(&text(key)));
    }

    #[test]
    fn explicit_choices_and_mcp_win() {
        let on = SidebandSwitch::new(Some(true), false, true, Arc::from(Vec::new()));
        assert!(on.decide(|| None, 0, |_| unreachable!()));
        on.set_mcp(true);
        assert!(!on.decide(|| None, 0, |_| unreachable!()));
        let refused = SidebandSwitch::new(Some(false), false, true, agents().enable_for);
        assert!(!refused.decide(|| Some(7), 0, |_| unreachable!()));
        assert!(!agents().decide(|| None, 0, |_| unreachable!()));
    }
}
