//! Where windows are: a session holds its windows through [`Winlink`]s (tmux's
//! winlinks), so one window can be in several sessions (`link-window`), twice in
//! one, or in every session of a group (`new-session -t`), which
//! [`Tree::sync_groups`] keeps alike.

use super::tree::{Session, Tree, Window};
use fugue_protocol::{SessionId, WindowId};

/// A window's place in a session: tmux's winlink. The window is the tree's
/// ([`Tree::windows`]); its index is the session's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winlink {
    pub index: u32,
    pub id: WindowId,
}

impl Session {
    /// Whether the session holds window `id` (at any index).
    pub fn holds(&self, id: WindowId) -> bool {
        self.windows.iter().any(|w| w.id == id)
    }

    /// The link of window `id`: the current one when `id` is the current window,
    /// else the first, as tmux's cmd_find_best_winlink_with_window picks.
    pub fn link(&self, id: WindowId) -> Option<&Winlink> {
        let current = self.current().filter(|l| l.id == id);
        current.or_else(|| self.windows.iter().find(|w| w.id == id))
    }

    /// The index of window `id` (see [`Session::link`]).
    pub fn index_of(&self, id: WindowId) -> Option<u32> {
        self.link(id).map(|l| l.index)
    }

    /// The link at `index`.
    pub fn link_at(&self, index: u32) -> Option<&Winlink> {
        self.windows.iter().find(|w| w.index == index)
    }

    /// The current link.
    pub fn current(&self) -> Option<&Winlink> {
        self.active_index
            .and_then(|i| self.link_at(i))
            .filter(|l| l.id == self.active)
            .or_else(|| self.windows.iter().find(|w| w.id == self.active))
    }

    /// Makes the link at `index` current (a window linked twice is current at one).
    pub fn select_index(&mut self, index: u32) {
        if let Some(l) = self.link_at(index).copied() {
            self.set_active(l.id);
            self.active_index = Some(index);
        }
    }

    /// Puts a link in, in index order.
    pub fn insert_link(&mut self, link: Winlink) {
        let pos = self
            .windows
            .iter()
            .position(|x| x.index > link.index)
            .unwrap_or(self.windows.len());
        self.windows.insert(pos, link);
    }

    /// Takes out the link at `index`, choosing another current window if it was the
    /// current one. The window itself is not touched.
    pub fn unlink_at(&mut self, index: u32) -> Option<Winlink> {
        let pos = self.windows.iter().position(|w| w.index == index)?;
        let was_current = self.current().is_some_and(|c| c.index == index);
        let gone = self.windows.remove(pos);
        let still_held = self.holds(gone.id);
        if self.last_window == Some(gone.id) && !still_held {
            self.last_window = None;
        }
        if was_current {
            let next = if still_held {
                Some(gone.id)
            } else {
                self.successor(gone.id, index)
            };
            if let Some(next) = next {
                self.active = next;
            }
            self.active_index = None;
            self.last_window = None;
        }
        Some(gone)
    }

    /// Takes out every link of window `id` (see [`Session::unlink_at`]).
    pub fn unlink(&mut self, id: WindowId) {
        while let Some(index) = self.windows.iter().find(|w| w.id == id).map(|w| w.index) {
            self.unlink_at(index);
        }
    }
}

impl Tree {
    /// The sessions holding a window, each once.
    pub fn sessions_of_window(&self, window: WindowId) -> impl Iterator<Item = &Session> {
        self.sessions.iter().filter(move |s| s.holds(window))
    }

    /// Takes the link at `index` out of `session`. A window left in no session leaves
    /// the tree and is returned, for the caller to end its panes; true in the second
    /// place when the session closed (it had no other window).
    pub fn unlink_window(&mut self, session: SessionId, index: u32) -> (Option<Window>, bool) {
        let Some(s) = self.session_mut(session) else {
            return (None, false);
        };
        let Some(link) = s.unlink_at(index) else {
            return (None, false);
        };
        let closed = s.windows.is_empty();
        if closed {
            self.sessions.retain(|s| s.id != session);
        }
        let orphan = if self.sessions.iter().any(|s| s.holds(link.id)) {
            None
        } else {
            self.windows.remove(&link.id)
        };
        (orphan, closed)
    }

    /// Whether a session other than `session` and its group's members holds window
    /// `id` (a window replaced in a grouped session leaves every member with it).
    pub fn held_outside_group(&self, id: WindowId, session: SessionId) -> bool {
        let group = self.session(session).and_then(|s| s.group.clone());
        self.sessions
            .iter()
            .filter(|s| s.id != session && (group.is_none() || s.group != group))
            .any(|s| s.holds(id))
    }

    /// Makes `session`'s group hold what `session` holds now (after a change made
    /// there alone, such as a window replaced with `-k`).
    pub fn sync_group_from(&mut self, session: SessionId) {
        let Some(name) = self.session(session).and_then(|s| s.group.clone()) else {
            return;
        };
        if let Some(source) = self.sessions.iter().position(|s| s.id == session) {
            self.copy_group(&name, source);
        }
        self.end_orphans();
    }

    /// Makes every grouped session hold what the one changed last holds, as tmux's
    /// session_group_synchronize_from: a window made, killed, moved or linked in one
    /// session of a group is so in all of them. Each member keeps its current index
    /// where it still holds a window.
    pub fn sync_groups(&mut self) {
        if self.sessions.iter().all(|s| s.group.is_none()) {
            return;
        }
        let mut names: Vec<String> = self
            .sessions
            .iter()
            .filter_map(|s| s.group.clone())
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            let synced = self.group_links.get(&name);
            // The source: the member whose windows differ from the group's last
            // synchronized set (the most recently used, if several do).
            let members = || {
                (0..self.sessions.len())
                    .filter(|i| self.sessions[*i].group.as_deref() == Some(name.as_str()))
            };
            let source = members()
                .filter(|i| Some(&self.sessions[*i].windows) != synced)
                .max_by_key(|i| self.sessions[*i].last_used)
                .or_else(|| members().next());
            if let Some(source) = source {
                self.copy_group(&name, source);
            }
        }
        let live: Vec<String> = self
            .sessions
            .iter()
            .filter_map(|s| s.group.clone())
            .collect();
        self.group_links.retain(|n, _| live.contains(n));
        self.end_orphans();
    }

    /// Copies session `source`'s links to the other members of group `name`.
    fn copy_group(&mut self, name: &str, source: usize) {
        let Some(links) = self.sessions.get(source).map(|s| s.windows.clone()) else {
            return;
        };
        for s in self
            .sessions
            .iter_mut()
            .filter(|s| s.group.as_deref() == Some(name) && s.windows != links)
        {
            let current = s.current().map(|l| l.index);
            s.windows = links.clone();
            match current.and_then(|c| links.iter().find(|l| l.index == c)) {
                Some(l) => {
                    s.active = l.id;
                    s.active_index = Some(l.index);
                }
                None => {
                    if let Some(l) = links.first() {
                        s.active = l.id;
                        s.active_index = None;
                    }
                }
            }
            if s.last_window.is_some_and(|l| !s.holds(l)) {
                s.last_window = None;
            }
        }
        self.group_links.insert(name.to_string(), links);
    }

    /// A window no session holds any more (a change a group's copy took away) must
    /// not live on unseen: its programs end here, with a trace.
    fn end_orphans(&mut self) {
        let orphans: Vec<WindowId> = self
            .windows
            .keys()
            .copied()
            .filter(|w| !self.sessions.iter().any(|s| s.holds(*w)))
            .collect();
        for w in orphans {
            tracing::warn!("window {w} was left in no session by a group's sync; its panes end");
            let panes = self
                .windows
                .remove(&w)
                .map(|w| w.layout.panes())
                .unwrap_or_default();
            for p in panes {
                if let Some(p) = self.panes.remove(&p) {
                    p.pty.kill();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::PaneId;

    fn window(id: u32) -> Window {
        Window::of_pane(WindowId(id), PaneId(id), format!("w{id}"), false)
    }

    /// Sessions `a` ($0: @1 at 0, @2 at 1) and `b` ($1: @3 at 0).
    fn tree() -> Tree {
        let mut t = Tree::default();
        for (sid, name, wid) in [(0, "a", 1), (1, "b", 3)] {
            t.windows.insert(WindowId(wid), window(wid));
            t.add_session(Session::new(SessionId(sid), name.into(), WindowId(wid), 0));
        }
        t.add_window(SessionId(0), 1, window(2));
        t
    }

    fn links(t: &Tree, sid: u32) -> Vec<(u32, u32)> {
        t.session(SessionId(sid))
            .map(|s| s.windows.iter().map(|l| (l.index, l.id.0)).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_window_linked_twice_is_current_at_the_link_selected() {
        let mut t = tree();
        let s = t.session_mut(SessionId(0)).expect("a");
        s.insert_link(Winlink {
            index: 5,
            id: WindowId(1),
        });
        assert_eq!(s.index_of(WindowId(1)), Some(0), "current, and first");
        s.select_index(5);
        assert_eq!(s.index_of(WindowId(1)), Some(5), "the current link");
        s.select_index(1);
        assert_eq!(s.index_of(WindowId(1)), Some(0), "not current: the first");
        // Unlinking the current link of a window linked twice leaves it current at
        // its other link.
        s.select_index(5);
        s.unlink_at(5);
        assert_eq!(s.current().map(|l| l.index), Some(0));
    }

    #[test]
    fn a_window_in_two_sessions_leaves_the_tree_with_its_last_link() {
        let mut t = tree();
        if let Some(b) = t.session_mut(SessionId(1)) {
            b.insert_link(Winlink {
                index: 4,
                id: WindowId(1),
            });
        }
        let (gone, closed) = t.unlink_window(SessionId(0), 0);
        assert!(gone.is_none() && !closed, "still linked into b");
        assert!(t.window(WindowId(1)).is_some());
        assert_eq!(links(&t, 0), [(1, 2)]);
        let (gone, closed) = t.unlink_window(SessionId(1), 4);
        assert_eq!(gone.map(|w| w.id), Some(WindowId(1)));
        assert!(!closed);
        assert!(t.window(WindowId(1)).is_none());
    }

    #[test]
    fn removing_a_window_closes_each_session_it_was_the_last_of() {
        let mut t = tree();
        if let Some(b) = t.session_mut(SessionId(1)) {
            b.windows = vec![Winlink {
                index: 0,
                id: WindowId(2),
            }];
            b.active = WindowId(2);
        }
        t.windows.remove(&WindowId(3));
        assert_eq!(t.remove_window(WindowId(2)), [SessionId(1)]);
        assert_eq!(links(&t, 0), [(0, 1)]);
        assert_eq!(t.session(SessionId(0)).map(|s| s.active), Some(WindowId(1)));
    }

    #[test]
    fn a_group_takes_up_what_one_member_changed() {
        let mut t = tree();
        let group = Some("a".to_string());
        for s in &mut t.sessions {
            s.group = group.clone();
        }
        if let Some(b) = t.session_mut(SessionId(1)) {
            b.windows = vec![
                Winlink {
                    index: 0,
                    id: WindowId(1),
                },
                Winlink {
                    index: 1,
                    id: WindowId(2),
                },
            ];
            b.select_index(1);
        }
        t.windows.remove(&WindowId(3));
        t.sync_groups();
        assert_eq!(links(&t, 0), links(&t, 1));
        // A window made in b (changed last) reaches a; each keeps its current index.
        t.add_window(SessionId(1), 2, window(4));
        if let Some(b) = t.session_mut(SessionId(1)) {
            b.last_used = 9;
        }
        t.sync_groups();
        assert_eq!(links(&t, 0), [(0, 1), (1, 2), (2, 4)]);
        assert_eq!(
            t.session(SessionId(0))
                .and_then(|s| s.current())
                .map(|l| l.index),
            Some(0)
        );
        assert_eq!(
            t.session(SessionId(1))
                .and_then(|s| s.current())
                .map(|l| l.index),
            Some(1)
        );
        // The tree's copy is what both hold: nothing more to do.
        assert_eq!(t.group_links.get("a").map(|l| l.len()), Some(3));
    }
}
