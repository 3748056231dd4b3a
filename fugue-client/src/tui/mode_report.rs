//! Tells the server which pane mode this client shows. fugue's modes (copy mode,
//! the choosers, the clock) are drawn by the client; tmux's are the pane's, and
//! scripts ask `#{pane_in_mode}` / `#{pane_mode}` before sending keys (an
//! `if -F '#{pane_in_mode}' 'send -X cancel'` binding, a navigator plugin). The
//! server answers those from what each client last said here.

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::{Command, PaneId};

impl App {
    /// The mode shown now and the pane it is over, by tmux's name for it.
    fn shown_mode(&self) -> Option<(PaneId, &'static str)> {
        let on_active = |name| self.active_pane().map(|p| (p, name));
        let shown = match &self.mode {
            Mode::Copy(c) => Some((c.pane, "copy-mode")),
            Mode::Tree(_) => on_active("tree-mode"),
            Mode::Buffers(_) => on_active("buffer-mode"),
            Mode::Clients(_) => on_active("client-mode"),
            Mode::Options(c) => Some((c.pane, "options-mode")),
            _ => self.clock.as_ref().map(|c| (c.pane, "clock-mode")),
        };
        // Only over a pane this client shows.
        shown.filter(|(p, _)| self.panes.contains_key(p))
    }

    /// A request saying what changed since the last one, if anything did.
    pub fn mode_report(&mut self) -> Option<Request> {
        let now = self.shown_mode();
        if now == self.reported_mode {
            return None;
        }
        self.reported_mode = now;
        Some(Request {
            command: Command::ClientMode(cmd::ClientMode {
                pane: now.map(|(p, _)| p),
                mode: now.map(|(_, m)| m.to_string()),
            }),
            pending: Pending::Action("mode"),
        })
    }
}
