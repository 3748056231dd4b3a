//! Events for whoever subscribes: the server's layers below the surfaces publish here
//! and never name a surface (issue 12; wezterm's `Mux` notifies subscribers the same
//! way). Surfaces subscribe once, when the server starts (`run.rs`), or for as long as
//! they live (a client's frame task).
//!
//! Two kinds of subscriber: a [`PaneSubscriber`] hears sideband tags, closed panes and
//! hook events; a [`ChangeSubscriber`] hears the [`Change`]s it asked for, announced
//! where they happen (issue 26: nothing looks for them on a timer).

use crate::hooks::Object;
use crate::pane::tags::Scanned;
use fugue_protocol::PaneId;
use parking_lot::RwLock;
use std::sync::Arc;

/// What a subscriber hears. Both are called from wherever the event happens (a pane's
/// reader thread, a command's task) and must not block.
pub trait PaneSubscriber: Send + Sync {
    /// Sideband tags (and counts of possible ones refused) found in a pane's output.
    fn tags_found(&self, pane: PaneId, found: Scanned);
    /// Panes that are gone from the tree; forget what is kept for them.
    fn panes_closed(&self, panes: &[PaneId]);
    /// An event a hook may run for (tmux's hook names: `pane-exited`,
    /// `after-new-window`, ...).
    fn event(&self, _event: &Event) {}
}

/// Something happened that a hook of this name runs for.
#[derive(Clone, Debug)]
pub struct Event {
    /// The hook's name (`names::HOOKS`).
    pub hook: &'static str,
    /// What it happened to: the default target of the hook's commands.
    pub object: Object,
    /// The attached client it concerns (`client-attached`), if any.
    pub client: Option<u64>,
    /// That client's name (`%client-detached NAME`): taken when the event is made,
    /// since a client that left is no longer there to ask.
    pub client_name: Option<String>,
    /// A session that is gone (`session-closed`): its name for `#{hook_session_name}`.
    pub session_name: Option<String>,
    /// How many hooks deep the cause runs (0: not caused by a hook's command): hooks
    /// that set off hooks stop at `hooks::MAX_DEPTH`.
    pub depth: u8,
}

impl Event {
    pub fn new(hook: &'static str, object: Object) -> Event {
        Event {
            hook,
            object,
            client: None,
            client_name: None,
            session_name: None,
            depth: 0,
        }
    }
}

/// Something that changed, announced where it happened. A pane's output is not here:
/// it is heard per pane ([`crate::pane::PaneShared::subscribe`]), since a pane's reader
/// may not pay for a hub per read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A pane's title: its program's (OSC 0/2, `CSI 23 t`) or `select-pane -T`'s.
    Title(PaneId),
    /// What runs in a pane's foreground, or its working directory: looked at after the
    /// pane's own output (`pane/foreground.rs`), since the kernel announces neither.
    Foreground(PaneId),
    /// A pane's program exited and its last output was read.
    Exited(PaneId),
}

impl Change {
    fn kind(self) -> Kinds {
        match self {
            Change::Title(_) => Kinds::TITLE,
            Change::Foreground(_) => Kinds::FOREGROUND,
            Change::Exited(_) => Kinds::EXITED,
        }
    }
}

/// Which changes a subscriber hears (a set of bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds(u8);

impl Kinds {
    pub const TITLE: Kinds = Kinds(1);
    pub const FOREGROUND: Kinds = Kinds(2);
    pub const EXITED: Kinds = Kinds(4);

    pub const fn and(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    fn has(self, other: Kinds) -> bool {
        self.0 & other.0 != 0
    }
}

/// Hears the changes it subscribed to. Called from wherever the change happens (a
/// pane's reader thread, a command's task, a query under the tree's lock): it must
/// only note the change and wake its owner, never block or take the tree's lock.
pub trait ChangeSubscriber: Send + Sync {
    fn changed(&self, change: Change);
}

/// A change subscription; dropping it unsubscribes.
pub struct Subscription {
    hub: std::sync::Weak<ChangeList>,
    id: u64,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(list) = self.hub.upgrade() {
            list.subs.write().retain(|(id, _, _)| *id != self.id);
        }
    }
}

/// A subscription's id, the kinds it hears, and who hears them.
type Subscribed = (u64, Kinds, Arc<dyn ChangeSubscriber>);

#[derive(Default)]
struct ChangeList {
    subs: RwLock<Vec<Subscribed>>,
    next: std::sync::atomic::AtomicU64,
}

#[derive(Default)]
pub struct Hub {
    subscribers: RwLock<Vec<Arc<dyn PaneSubscriber>>>,
    changes: Arc<ChangeList>,
    /// Raw pane output for control clients (`pane/tap.rs`).
    pub tap: Arc<crate::pane::tap::OutputTap>,
    /// How many listeners want the tree's events even with no hook set (control
    /// clients): `dispatch/events.rs` compares the tree only when one does.
    listeners: std::sync::atomic::AtomicUsize,
}

impl Hub {
    /// Whether anything wants tree events besides hooks (a control client).
    pub fn has_listeners(&self) -> bool {
        self.listeners.load(std::sync::atomic::Ordering::Relaxed) > 0
    }

    pub fn listen(&self, on: bool) {
        use std::sync::atomic::Ordering;
        if on {
            self.listeners.fetch_add(1, Ordering::Relaxed);
        } else {
            let _ = self
                .listeners
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        }
    }

    /// Hears `kinds` of change until the subscription is dropped.
    pub fn watch(&self, kinds: Kinds, s: Arc<dyn ChangeSubscriber>) -> Subscription {
        let id = self
            .changes
            .next
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.changes.subs.write().push((id, kinds, s));
        Subscription {
            hub: Arc::downgrade(&self.changes),
            id,
        }
    }

    /// Tells every subscriber to the change's kind. The list is read under a read lock
    /// and nothing is cloned: subscribers only note the change.
    pub fn publish(&self, change: Change) {
        let kind = change.kind();
        for (_, kinds, s) in self.changes.subs.read().iter() {
            if kinds.has(kind) {
                s.changed(change);
            }
        }
    }

    pub fn subscribe(&self, s: Arc<dyn PaneSubscriber>) {
        self.subscribers.write().push(s);
    }

    pub fn unsubscribe(&self, s: &Arc<dyn PaneSubscriber>) {
        self.subscribers.write().retain(|x| !Arc::ptr_eq(x, s));
    }

    pub fn tags_found(&self, pane: PaneId, found: Scanned) {
        let subs = self.subscribers.read().clone();
        // The last subscriber takes the tags; any before it get a copy (there is one
        // today, the sideband surface).
        if let Some((last, rest)) = subs.split_last() {
            for s in rest {
                s.tags_found(pane, found.clone());
            }
            last.tags_found(pane, found);
        }
    }

    pub fn event(&self, event: Event) {
        let subs = self.subscribers.read().clone();
        for s in &subs {
            s.event(&event);
        }
    }

    pub fn panes_closed(&self, panes: &[PaneId]) {
        let subs = self.subscribers.read().clone();
        for s in &subs {
            s.panes_closed(panes);
        }
    }
}
