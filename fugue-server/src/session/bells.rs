//! Bells: a window one of whose panes rang is flagged (tmux's `!` in the status bar)
//! until a client shows it.

use super::tree::Tree;
use fugue_protocol::{PaneId, SessionId};

/// Where a bell rang.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rang {
    /// Each session holding the window (a linked window is in several), and whether
    /// it is that session's current window.
    pub sessions: Vec<(SessionId, bool)>,
    /// The window was not flagged before: clients must draw their status bars again.
    pub flagged: bool,
}

impl Tree {
    /// `pane` rang its bell. Its window is flagged unless it is the current window of
    /// a session a client shows (`attached`), as tmux does: a person looking at it
    /// heard it. Every session holding the window hears of it.
    pub fn bell(&mut self, pane: PaneId, attached: impl Fn(SessionId) -> bool) -> Option<Rang> {
        let window = self.panes.get(&pane)?.window;
        let sessions: Vec<(SessionId, bool)> = self
            .sessions_of_window(window)
            .map(|s| (s.id, s.active == window))
            .collect();
        if sessions.is_empty() {
            return None;
        }
        let flag = !sessions
            .iter()
            .any(|(session, current)| *current && attached(*session));
        let flagged = flag && self.bells.insert(window);
        if flagged {
            // Windows closed while flagged are forgotten here, the one place the set
            // grows: it never holds more than the windows that exist.
            let all: std::collections::HashSet<_> = self
                .sessions
                .iter()
                .flat_map(|s| s.windows.iter().map(|w| w.id))
                .collect();
            self.bells.retain(|w| all.contains(w));
        }
        Some(Rang { sessions, flagged })
    }

    /// A client shows `session`: the bell, activity and silence of its current window
    /// have been seen.
    pub fn visited(&mut self, session: SessionId) {
        if self.bells.is_empty() && self.activity.is_empty() && self.silence.is_empty() {
            return;
        }
        if let Some(w) = self.session(session).map(|s| s.active) {
            self.bells.remove(&w);
            self.activity.remove(&w);
            self.silence.remove(&w);
        }
    }

    /// Forgets alert flags of windows that no longer exist (called where the sets grow).
    pub fn retain_alert_windows(&mut self) {
        let all: std::collections::HashSet<_> = self
            .sessions
            .iter()
            .flat_map(|s| s.windows.iter().map(|w| w.id))
            .collect();
        self.activity.retain(|w| all.contains(w));
        self.silence.retain(|w| all.contains(w));
    }
}
