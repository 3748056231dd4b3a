//! The session tree and the clients that draw it: what the dispatcher changes, the
//! agents watch and the surfaces read. The tree's lock is taken through [`Mux::tree`]
//! by the layers below the surfaces only; a surface asks one of the short questions
//! below instead, so it never holds the lock (checked by tests/it/layers.rs).

use crate::attached::Attached;
use crate::session::Tree;
use crate::session::info::ClientView;
use fugue_protocol::{PaneId, SessionId, WindowId};
use parking_lot::{Mutex, MutexGuard};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Mux {
    tree: Mutex<Tree>,
    /// How many times the tree's lock was taken: the lock discipline's test counts
    /// them per command (one relaxed add per lock, nothing else).
    locks: AtomicU64,
    pub attached: Attached,
    /// How many panes are placeholders whose program is starting (see
    /// `pane::program`): a connecting process the kernel places in no pane may be one
    /// of their programs, and waits for them (`surfaces/peer.rs`).
    starting: tokio::sync::watch::Sender<usize>,
}

impl Default for Mux {
    fn default() -> Mux {
        Mux {
            tree: Mutex::new(Tree::default()),
            locks: AtomicU64::new(0),
            attached: Attached::default(),
            starting: tokio::sync::watch::Sender::new(0),
        }
    }
}

/// The tree's lock, taken the first time something asks for the tree and then kept
/// until dropped: checks that need the tree only in some cases (an agent's scope, a
/// marked pane) cost a typed key no lock.
pub struct TreeOnDemand<'a> {
    mux: &'a Mux,
    guard: Option<TreeGuard<'a>>,
}

impl<'a> TreeOnDemand<'a> {
    pub fn new(mux: &'a Mux) -> TreeOnDemand<'a> {
        TreeOnDemand { mux, guard: None }
    }

    /// The tree, locking it now if this is the first ask.
    pub fn get(&mut self) -> &mut Tree {
        let mux = self.mux;
        self.guard.get_or_insert_with(|| mux.tree())
    }
}

/// The tree, locked ([`Mux::tree`]). Work the tree may not wait for is queued on it
/// and done when the guard goes, after the lock is released: panes the layout resized
/// get their terminal's size and their screen's reflow there (`Tree::resized`), in
/// the order of the commands, each pane to the last size it was given.
pub struct TreeGuard<'a>(Option<MutexGuard<'a, Tree>>);

impl std::ops::Deref for TreeGuard<'_> {
    type Target = Tree;
    fn deref(&self) -> &Tree {
        match &self.0 {
            Some(g) => g,
            // Taken only in drop.
            None => unreachable!("the tree's guard is used after it was dropped"),
        }
    }
}

impl std::ops::DerefMut for TreeGuard<'_> {
    fn deref_mut(&mut self) -> &mut Tree {
        match &mut self.0 {
            Some(g) => g,
            None => unreachable!("the tree's guard is used after it was dropped"),
        }
    }
}

impl Drop for TreeGuard<'_> {
    fn drop(&mut self) {
        let Some(mut guard) = self.0.take() else {
            return;
        };
        let resized = std::mem::take(&mut guard.resized);
        drop(guard);
        for (pane, resizer) in resized {
            pane.apply_size(&resizer);
        }
    }
}

/// Counts a pane as starting until dropped (see [`Mux::starting`]).
pub struct Starting<'a>(&'a Mux);

impl Drop for Starting<'_> {
    fn drop(&mut self) {
        self.0.starting.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl Mux {
    /// The tree, locked. Nothing slow may run while the guard is held (a spawn, a file
    /// removed, a socket written): every client and command waits for it.
    pub fn tree(&self) -> TreeGuard<'_> {
        self.locks.fetch_add(1, Ordering::Relaxed);
        TreeGuard(Some(self.tree.lock()))
    }

    /// How many times the tree's lock has been taken since the server started.
    pub fn tree_locks(&self) -> u64 {
        self.locks.load(Ordering::Relaxed)
    }

    /// Counts a pane as starting while the guard lives: from its placeholder until
    /// its program is attached and the pane placed.
    pub fn starting(&self) -> Starting<'_> {
        self.starting.send_modify(|n| *n += 1);
        Starting(self)
    }

    /// Watches the number of starting panes.
    pub fn watch_starting(&self) -> tokio::sync::watch::Receiver<usize> {
        self.starting.subscribe()
    }

    /// Records that what clients draw changed and wakes them.
    pub fn changed(&self) {
        self.attached.changed();
    }

    /// True while the pane is in the tree (a placeholder whose program is starting
    /// counts).
    pub fn has_pane(&self, pane: PaneId) -> bool {
        self.tree().panes.contains_key(&pane)
    }

    /// The pane's program is still being started (see `pane::program`).
    pub fn pane_starting(&self, pane: PaneId) -> bool {
        self.tree()
            .panes
            .get(&pane)
            .is_some_and(|p| p.pty.is_starting())
    }

    /// Returns once `pane`'s program is attached (or the pane is gone), or after
    /// `limit`: a program can print before the command starting it has attached it.
    pub async fn until_started(&self, pane: PaneId, limit: std::time::Duration) {
        // Subscribed before looking, so an attach in between still wakes the wait.
        let mut starts = self.watch_starting();
        let wait = async {
            while self.pane_starting(pane) {
                if starts.changed().await.is_err() {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
    }

    /// The session a pane's window is in.
    pub fn session_of_pane(&self, pane: PaneId) -> Option<SessionId> {
        self.tree().locate(pane).map(|(s, _)| s)
    }

    /// What a client attached to `session` draws.
    pub fn client_view(&self, session: SessionId) -> Option<ClientView> {
        let mut tree = self.tree();
        // A client shows the session's current window: a bell there has been seen.
        tree.visited(session);
        tree.client_view(session)
    }

    /// The pid of every live pane's program, and its pane.
    pub fn pane_programs(&self) -> HashMap<i32, PaneId> {
        self.tree()
            .panes
            .iter()
            .filter(|(_, p)| p.alive())
            .filter_map(|(id, p)| Some((p.pty.pid()? as i32, *id)))
            .collect()
    }
}

/// Short questions for control clients (`surfaces/control.rs`), which may not lock
/// the tree themselves.
impl Mux {
    /// Whether `window` is one of `session`'s.
    pub fn window_in_session(&self, window: WindowId, session: SessionId) -> bool {
        self.tree()
            .session(session)
            .is_some_and(|s| s.holds(window))
    }

    /// Marks a session the most recently used, as attaching a client does (commands
    /// with no target then find it).
    pub fn touch_session(&self, session: SessionId) {
        let mut tree = self.tree();
        let stamp = tree.touch();
        if let Some(s) = tree.session_mut(session) {
            s.last_used = stamp;
        }
    }

    /// A window's name as tmux shows it.
    pub fn window_name(&self, window: WindowId) -> Option<String> {
        let tree = self.tree();
        let w = tree.window(window)?;
        Some(tree.window_name(w))
    }

    /// A session's name.
    pub fn session_name(&self, session: SessionId) -> Option<String> {
        self.tree().session(session).map(|s| s.name.clone())
    }

    /// The most recently used session other than `not`.
    pub fn recent_session_besides(&self, not: SessionId) -> Option<(SessionId, String)> {
        let tree = self.tree();
        tree.sessions
            .iter()
            .filter(|s| s.id != not)
            .max_by_key(|s| s.last_used)
            .map(|s| (s.id, s.name.clone()))
    }

    /// The window's panes as `list-panes` describes them (for its formats: tmux's
    /// `%layout-change` is written with `#{window_layout}` and the rest).
    pub fn window_panes(&self, window: WindowId) -> Vec<fugue_protocol::PaneInfo> {
        let tree = self.tree();
        tree.window(window)
            .map(|w| tree.window_pane_infos(w))
            .unwrap_or_default()
    }
}
