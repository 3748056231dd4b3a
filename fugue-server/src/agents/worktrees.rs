//! The git worktrees agents were started in (`spawn-agent` with `worktree`), kept past
//! their panes so whoever reviews the work can keep, merge or remove them.

use fugue_protocol::PaneId;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::path::PathBuf;

/// Records kept. Past it the oldest record of a closed pane is forgotten (its worktree
/// and branch stay on disk, where `git worktree list` shows them).
pub const MAX_RECORDS: usize = 256;

/// One agent's worktree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub pane: PaneId,
    pub path: PathBuf,
    pub branch: String,
    /// The repository's folder it was made from, where a merge lands.
    pub repo: PathBuf,
    /// The commit it was made from.
    pub base: String,
    pub pane_open: bool,
}

#[derive(Default)]
pub struct Worktrees {
    records: Mutex<VecDeque<Record>>,
}

impl Worktrees {
    pub fn add(&self, r: Record) {
        let mut records = self.records.lock();
        records.retain(|x| x.pane != r.pane);
        if records.len() >= MAX_RECORDS
            && let Some(i) = records.iter().position(|x| !x.pane_open)
        {
            records.remove(i);
        }
        records.push_back(r);
    }

    pub fn get(&self, pane: PaneId) -> Option<Record> {
        self.records.lock().iter().find(|r| r.pane == pane).cloned()
    }

    /// The pane closed: its record stays, marked; returned for telling people.
    pub fn closed(&self, pane: PaneId) -> Option<Record> {
        let mut records = self.records.lock();
        let r = records.iter_mut().find(|r| r.pane == pane)?;
        r.pane_open = false;
        Some(r.clone())
    }

    pub fn forget(&self, pane: PaneId) {
        self.records.lock().retain(|r| r.pane != pane);
    }
}
