//! Pane events for whoever subscribes: the server's layers below the surfaces publish
//! here and never name a surface (issue 12; wezterm's `Mux` notifies subscribers the
//! same way). Surfaces subscribe once, when the server starts (`run.rs`).

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
}

#[derive(Default)]
pub struct Hub {
    subscribers: RwLock<Vec<Arc<dyn PaneSubscriber>>>,
}

impl Hub {
    pub fn subscribe(&self, s: Arc<dyn PaneSubscriber>) {
        self.subscribers.write().push(s);
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

    pub fn panes_closed(&self, panes: &[PaneId]) {
        let subs = self.subscribers.read().clone();
        for s in &subs {
            s.panes_closed(panes);
        }
    }
}
