//! Bells and clipboard requests from programs, passed on to the attached clients'
//! terminals as `[passthrough]` says (tmux's `bell-action`, `set-clipboard` and
//! `get-clipboard`; docs/terminal.md, "Passthrough to your terminal").
//!
//! A pane's reader thread calls in here (with no lock held) only for a chunk of output
//! that rang or touched the clipboard; screens never come this way.

use crate::attached::Control;
use crate::config::{GetClipboard, SetClipboard};
use crate::pane::passthrough::Signals;
use crate::server::Server;
use fugue_protocol::PaneId;
use fugue_protocol::passthrough::ClipboardCopy;
use std::collections::HashSet;
use std::sync::Arc;

impl Server {
    /// What a chunk of `pane`'s output asked of the terminal; returns the answer to a
    /// clipboard question, when the config lets programs read the clipboard.
    pub fn pane_signals(&self, pane: PaneId, signals: Signals) -> Option<Vec<u8>> {
        let config = self.config();
        let pt = &config.passthrough;
        if signals.bell {
            self.pane_bell(pane, pt.bell_action);
        }
        if let Some(copy) = signals.clipboard
            && pt.set_clipboard == SetClipboard::On
        {
            self.pane_copy(pane, copy);
        }
        let asked = signals.clipboard_query?;
        (pt.get_clipboard == GetClipboard::Buffer).then(|| self.clipboard_answer(&asked))
    }

    /// Flags the bell's window and rings the terminals of the clients of its session
    /// that `action` says hear it.
    fn pane_bell(&self, pane: PaneId, action: crate::config::BellAction) {
        // Asked before the tree is locked: the registry's lock is never taken inside
        // the tree's here.
        let shown: HashSet<_> = self
            .mux
            .attached
            .lock()
            .values()
            .filter_map(|c| c.session)
            .collect();
        let Some(rang) = self.mux.tree().bell(pane, |s| shown.contains(&s)) else {
            return;
        };
        if rang.flagged {
            self.mux.changed();
        }
        if action.rings(rang.current) {
            self.mux.attached.tell(Some(rang.session), Control::Bell);
        }
    }

    /// Keeps a program's copy as the server's clipboard and sends it to the clients
    /// that show the pane (tmux sends it to the terminals the pane is drawn on).
    fn pane_copy(&self, pane: PaneId, copy: ClipboardCopy) {
        let copy = Arc::new(copy);
        // One copy per server, at most `server.max_osc_bytes` (the OSC it came in).
        *self.clipboard.lock() = Some(Arc::clone(&copy));
        let shown = {
            let tree = self.mux.tree();
            let p = tree.panes.get(&pane);
            let s = p.and_then(|p| tree.session_of_window(p.window));
            s.and_then(|s| {
                let w = s.window(s.active)?;
                let visible = w.layout.contains(pane) && (!w.zoomed || w.active == pane);
                visible.then_some(s.id)
            })
        };
        if let Some(session) = shown {
            self.mux
                .attached
                .tell(Some(session), Control::Clipboard(copy));
        }
    }

    /// The OSC 52 answer to a program asking for `selection`: the server's clipboard
    /// (empty when nothing was copied).
    fn clipboard_answer(&self, selection: &str) -> Vec<u8> {
        let held = self.clipboard.lock().clone();
        let data = held.as_ref().map_or(&[][..], |c| &c.data[..]);
        let mut out = Vec::with_capacity(data.len() + 16);
        out.extend_from_slice(b"\x1b]52;");
        out.extend_from_slice(selection.as_bytes());
        out.push(b';');
        out.extend_from_slice(data);
        out.extend_from_slice(b"\x1b\\");
        out
    }

    /// The server's clipboard: the last copy a program made with `set_clipboard =
    /// "on"`, kept with no client attached too (for a future paste and copy mode).
    pub fn clipboard(&self) -> Option<Arc<ClipboardCopy>> {
        self.clipboard.lock().clone()
    }
}
