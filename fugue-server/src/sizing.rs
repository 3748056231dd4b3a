//! How a session's windows are sized and laid out: from its attached clients' sizes
//! (`window-size`), a window's own size (`resize-window`), and the panes' rectangles
//! pushed to their PTYs and screens.

use crate::server::Server;
use crate::session::Tree;
use fugue_protocol::{PaneId, SessionId};

impl Server {
    /// The window area of a session: what its clients give as its active window's
    /// `window-size` picks (less the status bar), or None to keep what it has.
    /// (`aggressive-resize` changes nothing more: a fugue window is shown by one
    /// session only.)
    pub fn session_area_from_clients(&self, tree: &Tree, session: SessionId) -> Option<(u16, u16)> {
        let status_rows = self.config().status.rows();
        let active = tree.active_window(session);
        // A window `resize-window` sized keeps its own size; the session's (which its
        // other windows take) still follows the clients, by the global policy.
        let level = match active {
            Some(w) if w.manual_size.is_none() => crate::options::Level::Window(w.id),
            _ => crate::options::Level::GlobalWindow,
        };
        let policy = {
            let options = self.options.lock();
            options
                .effective(level, "window-size")
                .map(|(v, _)| crate::attached::WindowSize::parse(&v.text()))
                .unwrap_or(crate::attached::WindowSize::Latest)
        };
        self.mux.attached.area_of(session, status_rows, policy)
    }

    /// tmux's session_renumber_windows: `session`'s windows numbered in order from
    /// its `base-index`.
    pub fn renumber_windows(&self, tree: &mut Tree, session: SessionId) {
        let base = {
            let options = self.options.lock();
            options
                .effective(crate::options::Level::Session(session), "base-index")
                .map(|(v, _)| v.number())
                .unwrap_or(0)
        };
        let base = u32::try_from(base).unwrap_or(0);
        if let Some(s) = tree.session_mut(session) {
            for (i, w) in s.windows.iter_mut().enumerate() {
                w.index = base.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
            }
            s.active_index = None;
        }
        tree.sync_groups();
    }

    /// After [`Tree::remove_pane`]: each session that held the pane's window
    /// (`holders`, read before) and is still open renumbers if the window closed and
    /// lays its windows out again.
    pub fn settle_removed(
        &self,
        tree: &mut Tree,
        holders: &[SessionId],
        removed: &crate::session::tree::Removed,
    ) {
        for sid in holders
            .iter()
            .filter(|s| !removed.sessions_closed.contains(s))
        {
            if removed.window_closed {
                self.window_closed(tree, *sid);
            }
            self.relayout(tree, *sid);
        }
    }

    /// A window of `session` closed: with `renumber-windows` on, the rest close up.
    pub fn window_closed(&self, tree: &mut Tree, session: SessionId) {
        let renumber = {
            let options = self.options.lock();
            options
                .effective(crate::options::Level::Session(session), "renumber-windows")
                .is_some_and(|(v, _)| v.flag())
        };
        if renumber && tree.session(session).is_some() {
            self.renumber_windows(tree, session);
        }
    }

    /// Gives every pane of the session the size its rect in the layout implies.
    pub fn relayout(&self, tree: &mut Tree, session: SessionId) {
        // Every change to a session's windows is laid out after: grouped sessions
        // take it up first (cheap when there are no groups).
        tree.sync_groups();
        let Some(s) = tree.session(session) else {
            return;
        };
        let session_area = s.area();
        let mut sizes: Vec<(PaneId, (u16, u16))> = Vec::new();
        // A window linked into several sessions is laid out for one of them, not by
        // each in turn: the most recently used that a client shows, else the most
        // recently used (tmux's `window-size latest` across its sessions).
        let shown = self.mux.attached.shown_sessions();
        let own: Vec<fugue_protocol::WindowId> = s
            .windows
            .iter()
            .filter(|l| {
                tree.sessions_of_window(l.id)
                    .max_by_key(|h| (shown.contains(&h.id), h.last_used))
                    .is_some_and(|b| b.id == session)
            })
            .map(|l| l.id)
            .collect();
        for wid in own {
            let Some(w) = tree.window_mut(wid) else {
                continue;
            };
            let area = w.area(session_area);
            let before = w.laid_out.replace(area);
            let frame = tree.frame(wid);
            // tmux shares a window's new size out its own way, not in proportion.
            if frame.borders == crate::session::layout::Borders::Shared
                && let Some(old) = before.filter(|o| *o != area)
                && let Some(w) = tree.window_mut(wid)
            {
                let (old, new) = (frame.layout_area(old), frame.layout_area(area));
                w.layout.resize_as_tmux(old, new);
            }
            let Some(w) = tree.window(wid) else {
                continue;
            };
            // A zoomed pane is sized straight to the whole area: passing through its
            // unzoomed size would shrink its screen and push rows into history.
            let zoomed = w.zoomed.then_some(w.active);
            let tiled = frame.layout_area(area);
            sizes.extend(
                w.layout
                    .geometry(tiled)
                    .into_iter()
                    .filter(|(id, _)| Some(*id) != zoomed)
                    .map(|(id, r)| (id, frame.pane_size(r, area))),
            );
            if let Some(active) = zoomed {
                sizes.push((active, frame.pane_size(tiled, area)));
            }
        }
        for (id, inner) in sizes {
            if let Some(p) = tree.panes.get_mut(&id)
                && p.size != inner
            {
                // The terminal and the screen (a reflow of its history) follow once the
                // tree's lock is released (`TreeGuard`).
                p.size = inner;
                p.shared.want_size(inner.0, inner.1);
                let job = (std::sync::Arc::clone(&p.shared), p.pty.resizer());
                tree.resized.push(job);
            }
        }
    }

    /// Re-reads attached clients' sizes into the session and relayouts if it changed.
    pub fn resize_session_to_clients(&self, tree: &mut Tree, session: SessionId) {
        let Some(area) = self.session_area_from_clients(tree, session) else {
            return;
        };
        if let Some(s) = tree.session_mut(session)
            && s.size != area
        {
            s.size = area;
            self.relayout(tree, session);
        }
    }
}
