//! What the journal keeps: plain records of sessions, windows, panes (with their agent),
//! paste buffers and runtime settings, keyed so a change is one `Put` or `Gone` entry.
//! The model knows nothing of the live tree; `crate::capture` builds one from it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRec {
    pub id: u32,
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// The area windows were laid out in (columns, rows).
    pub size: (u16, u16),
    pub active_window: u32,
    /// Windows this session links whose records are another session's (a window in
    /// several sessions is written once): (index here, window id).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<(u32, u32)>,
    /// Its session group (`new-session -t`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowRec {
    pub id: u32,
    pub session: u32,
    pub index: u32,
    pub name: String,
    pub auto_name: bool,
    /// The split tree, as `session::layout::Layout` serializes it (validated when read).
    pub layout: serde_json::Value,
    pub zoomed: bool,
    pub active_pane: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentRec {
    pub preset: Option<String>,
    pub tags: Vec<String>,
    /// The agent panes above it, nearest first.
    pub ancestors: Vec<u32>,
    /// `starting`, `busy`, `idle`, `awaiting_input`, `exited` or `restored`.
    pub state: String,
    pub exit_code: Option<i32>,
    /// Its last reported result and when (ms since the epoch).
    pub result: Option<(String, u64)>,
    /// Messages sent to it and not yet delivered.
    pub pending_messages: u32,
    /// Their texts, oldest first (at most [`MAX_JOURNALED_MESSAGES`] and
    /// [`MAX_JOURNALED_MESSAGE_BYTES`] together; later ones are not kept).
    #[serde(default)]
    pub messages: Vec<String>,
}

/// Undelivered messages kept per agent pane, and their bytes together: a pane's
/// record stays far below the record limit.
pub const MAX_JOURNALED_MESSAGES: usize = 16;
pub const MAX_JOURNALED_MESSAGE_BYTES: usize = 4 << 20;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneRec {
    pub id: u32,
    pub window: u32,
    /// Inner size (columns, rows).
    pub size: (u16, u16),
    /// Set with `select-pane -T`.
    pub title: Option<String>,
    /// The program's own title (OSC 0/2).
    pub program_title: Option<String>,
    /// The working directory as last seen (`/proc/PID/cwd` of its foreground process),
    /// else the one it started in.
    pub cwd: Option<String>,
    /// The command line it was started with.
    pub argv: Vec<String>,
    /// The command as it was given (`#{pane_start_command}`); empty in journals
    /// written before it was kept, and for the default shell.
    #[serde(default)]
    pub start_command: String,
    /// Environment added by whoever made it (`-e`), not fugue's own variables.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    pub remain: Option<bool>,
    /// Set when the program had exited and the pane was kept.
    pub exit_status: Option<i32>,
    pub sideband: bool,
    /// Who made it (`person`, `mcp 3`, ...).
    pub creator: String,
    pub depth: u32,
    pub agent: Option<AgentRec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferRec {
    pub name: String,
    pub data: String,
    pub created: u64,
    pub automatic: bool,
    pub owner: Option<String>,
}

/// Options and key bindings set at runtime: the `set-option`, `bind-key` and
/// `unbind-key` commands that set them, as JSON of fugue's `Command` (replayed in
/// order on restore), newest last.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeRec {
    pub commands: Vec<serde_json::Value>,
}

/// The most runtime commands kept: the oldest are dropped past it (a script that
/// binds keys in a loop must not grow the journal without end).
pub const MAX_RUNTIME_COMMANDS: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    Session(SessionRec),
    Window(WindowRec),
    /// Boxed: a pane's record is several times the size of the others.
    Pane(Box<PaneRec>),
    Buffer(BufferRec),
    Runtime(RuntimeRec),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Key {
    Session(u32),
    Window(u32),
    Pane(u32),
    Buffer(String),
    Runtime,
}

impl Item {
    pub fn key(&self) -> Key {
        match self {
            Item::Session(s) => Key::Session(s.id),
            Item::Window(w) => Key::Window(w.id),
            Item::Pane(p) => Key::Pane(p.id),
            Item::Buffer(b) => Key::Buffer(b.name.clone()),
            Item::Runtime(_) => Key::Runtime,
        }
    }
}

/// A server's life, as the journal marks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// `started`, `restored`, `discarded` or `kill_server`.
    pub what: String,
    pub pid: u32,
    /// /proc/sys/kernel/random/boot_id: a different one means the machine rebooted.
    pub boot_id: Option<String>,
    pub at_ms: u64,
    /// For `restored`: old pane id → new pane id where they differ.
    #[serde(default)]
    pub panes: Vec<(u32, u32)>,
    /// For `restored`/`discarded`: the sessions concerned.
    #[serde(default)]
    pub sessions: Vec<String>,
}

/// One record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Entry {
    Put { item: Item },
    Gone { key: Key },
    Mark(Mark),
}

/// Everything the journal holds, keyed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub items: BTreeMap<Key, Item>,
    /// The last mark of each kind seen (the last `started` tells how the previous
    /// server began).
    pub last_start: Option<Mark>,
}

impl Model {
    pub fn apply(&mut self, entry: Entry) {
        match entry {
            Entry::Put { item } => {
                self.items.insert(item.key(), item);
            }
            Entry::Gone { key } => {
                self.items.remove(&key);
            }
            Entry::Mark(m) if m.what == "started" => self.last_start = Some(m),
            Entry::Mark(_) => {}
        }
    }

    /// The entries that turn `self` into `next`, removals last (so a reader of a torn
    /// log sees a new pane before its old window goes, never a dangling one).
    pub fn diff(&self, next: &Model) -> Vec<Entry> {
        let mut out: Vec<Entry> = next
            .items
            .iter()
            .filter(|(k, v)| self.items.get(k) != Some(v))
            .map(|(_, v)| Entry::Put { item: v.clone() })
            .collect();
        out.extend(
            self.items
                .keys()
                .filter(|k| !next.items.contains_key(k))
                .map(|k| Entry::Gone { key: k.clone() }),
        );
        out
    }

    /// Every item as a `Put`: what a snapshot holds.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.items
            .values()
            .map(|item| Entry::Put { item: item.clone() })
    }

    pub fn sessions(&self) -> impl Iterator<Item = &SessionRec> {
        self.items.values().filter_map(|i| match i {
            Item::Session(s) => Some(s),
            _ => None,
        })
    }

    pub fn windows_of(&self, session: u32) -> Vec<&WindowRec> {
        let mut w: Vec<&WindowRec> = self
            .items
            .values()
            .filter_map(|i| match i {
                Item::Window(w) if w.session == session => Some(w),
                _ => None,
            })
            .collect();
        w.sort_by_key(|w| w.index);
        w
    }

    pub fn panes_of(&self, window: u32) -> Vec<&PaneRec> {
        self.items
            .values()
            .filter_map(|i| match i {
                Item::Pane(p) if p.window == window => Some(&**p),
                _ => None,
            })
            .collect()
    }

    pub fn buffers(&self) -> impl Iterator<Item = &BufferRec> {
        self.items.values().filter_map(|i| match i {
            Item::Buffer(b) => Some(b),
            _ => None,
        })
    }

    pub fn runtime(&self) -> Option<&RuntimeRec> {
        match self.items.get(&Key::Runtime) {
            Some(Item::Runtime(r)) => Some(r),
            _ => None,
        }
    }

    /// The session named `name` with its windows and panes, as a model of its own.
    pub fn session_named(&self, name: &str) -> Option<Model> {
        let s = self.sessions().find(|s| s.name == name)?;
        let mut out = Model::default();
        out.items
            .insert(Key::Session(s.id), Item::Session(s.clone()));
        for w in self.windows_of(s.id) {
            out.items.insert(Key::Window(w.id), Item::Window(w.clone()));
            for p in self.panes_of(w.id) {
                out.items
                    .insert(Key::Pane(p.id), Item::Pane(Box::new(p.clone())));
            }
        }
        Some(out)
    }

    /// Removes a session, its windows and panes.
    pub fn remove_session(&mut self, id: u32) {
        let windows: Vec<u32> = self.windows_of(id).iter().map(|w| w.id).collect();
        for w in &windows {
            let panes: Vec<u32> = self.panes_of(*w).iter().map(|p| p.id).collect();
            for p in panes {
                self.items.remove(&Key::Pane(p));
            }
            self.items.remove(&Key::Window(*w));
        }
        self.items.remove(&Key::Session(id));
    }

    /// Adds every item of `other` (sessions kept for a later restore).
    pub fn merge(&mut self, other: &Model) {
        for (k, v) in &other.items {
            self.items.insert(k.clone(), v.clone());
        }
    }

    /// The largest session, window and pane ids held, so a new server numbers past
    /// them and a restored pane can keep its id.
    pub fn max_ids(&self) -> (Option<u32>, u32, u32) {
        let mut m = (None, 0, 0);
        for k in self.items.keys() {
            match k {
                // None when no session was kept: session ids start at $0, as tmux's.
                Key::Session(i) => m.0 = Some(m.0.map_or(*i, |s: u32| s.max(*i))),
                Key::Window(i) => m.1 = m.1.max(*i),
                Key::Pane(i) => m.2 = m.2.max(*i),
                _ => {}
            }
        }
        m
    }
}
