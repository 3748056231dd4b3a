//! Bells and clipboard requests from programs, passed on to the attached clients'
//! terminals as `[passthrough]` says (tmux's `bell-action`, `set-clipboard` and
//! `get-clipboard`; docs/terminal.md, "Passthrough to your terminal").
//!
//! A pane's reader thread calls in here (with no lock held) only for a chunk of output
//! that rang or touched the clipboard; screens never come this way.

use crate::attached::Control;
use crate::buffers::Viewer;
use crate::config::{GetClipboard, SetClipboard};
use crate::pane::passthrough::Signals;
use crate::server::Server;
use fugue_protocol::PaneId;
use fugue_protocol::passthrough::ClipboardCopy;
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
            // tmux's `set-clipboard on`: a program's copy becomes a paste buffer too
            // ("external" passes nothing on from programs, as tmux).
            self.copy_to_buffer(&copy);
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
        let shown = self.mux.attached.shown_sessions();
        // tmux's monitor-bell: off, a bell in the window is no alert at all.
        let window = self.mux.tree().panes.get(&pane).map(|p| p.window);
        let Some(window) = window else { return };
        let monitored = self
            .options
            .lock()
            .effective(crate::options::Level::Window(window), "monitor-bell")
            .is_none_or(|(v, _)| v.flag());
        if !monitored {
            return;
        }
        let Some(rang) = self.mux.tree().bell(pane, |s| shown.contains(&s)) else {
            return;
        };
        if rang.flagged {
            self.mux.changed();
        }
        // Each session holding the window rings, tells and runs its hook, as tmux's
        // alerts go to every winlink of the window.
        for (session, current) in rang.sessions {
            if action.rings(current) {
                self.mux.attached.tell(Some(session), Control::Bell);
            }
            let visual = self
                .options
                .lock()
                .effective(crate::options::Level::Session(session), "visual-bell")
                .map(|(v, _)| v.text())
                .unwrap_or_default();
            if visual != "off" && rang.flagged {
                let index = self
                    .mux
                    .tree()
                    .session(session)
                    .and_then(|s| s.index_of(window));
                if let Some(i) = index {
                    self.mux.attached.tell(
                        Some(session),
                        Control::Notice(format!("Bell in window {i}")),
                    );
                }
            }
            self.hub.event(crate::hub::Event::new(
                "alert-bell",
                crate::hooks::Object {
                    session: Some(session),
                    window: Some(window),
                    pane: Some(pane),
                },
            ));
        }
    }

    /// Keeps a program's copy as the server's clipboard and sends it to the clients
    /// that show the pane (tmux sends it to the terminals the pane is drawn on).
    fn pane_copy(&self, pane: PaneId, copy: ClipboardCopy) {
        let copy = Arc::new(copy);
        // One copy per server, at most `server.max_osc_bytes` (the OSC it came in).
        *self.clipboard.lock() = Some(Arc::clone(&copy));
        // Every session showing the pane: a linked window may be current in several.
        let shown: Vec<fugue_protocol::SessionId> = {
            let tree = self.mux.tree();
            match tree.panes.get(&pane) {
                Some(p) => tree
                    .sessions_of_window(p.window)
                    .filter(|s| s.active == p.window)
                    .filter(|s| {
                        tree.window(s.active).is_some_and(|w| {
                            w.layout.contains(pane) && (!w.zoomed || w.active == pane)
                        })
                    })
                    .map(|s| s.id)
                    .collect(),
                None => Vec::new(),
            }
        };
        for session in shown {
            self.mux
                .attached
                .tell(Some(session), Control::Clipboard(Arc::clone(&copy)));
        }
    }

    /// A program's copy as a new automatic paste buffer, owned by nobody (as a person's
    /// copy): text only, so bytes that are not UTF-8 are replaced; a copy the buffer
    /// limits refuse is logged and dropped.
    fn copy_to_buffer(&self, copy: &ClipboardCopy) {
        let Some(bytes) = fugue_protocol::base64::decode(&copy.data) else {
            return;
        };
        let text = String::from_utf8_lossy(&bytes);
        let limit = self.config().server.buffer_limit;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let stored = self
            .buffers
            .lock()
            .set(None, &text, false, limit, &Viewer::default(), now);
        if let Err(e) = stored {
            tracing::warn!("a program's clipboard copy was not kept as a buffer: {e}");
        }
    }

    /// The OSC 52 answer to a program asking for `selection`: the most recent paste
    /// buffer, as tmux's `get-clipboard buffer` (empty when there is none). A program's
    /// copy with `set_clipboard = "on"` is one; so is every copy from copy mode.
    fn clipboard_answer(&self, selection: &str) -> Vec<u8> {
        let data = self
            .buffers
            .lock()
            .get(None, &Viewer::default())
            .map(|b| fugue_protocol::base64::encode(b.data.as_bytes()))
            .unwrap_or_default();
        let mut out = Vec::with_capacity(data.len() + 16);
        out.extend_from_slice(b"\x1b]52;");
        out.extend_from_slice(selection.as_bytes());
        out.push(b';');
        out.extend_from_slice(&data);
        out.extend_from_slice(b"\x1b\\");
        out
    }

    /// The server's clipboard: the last copy a program made with `set_clipboard =
    /// "on"`, kept with no client attached too (for a future paste and copy mode).
    pub fn clipboard(&self) -> Option<Arc<ClipboardCopy>> {
        self.clipboard.lock().clone()
    }
}
