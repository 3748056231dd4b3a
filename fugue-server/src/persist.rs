//! What ties the journal (`journal/`) to the server: the capture of the server's
//! state as a journal model, the sessions a restart can bring back, and opening the
//! journal at start. Restoring them is a command (`dispatch/restore.rs`).

use crate::journal::model::{
    AgentRec, BufferRec, Item, Key, Mark, Model, PaneRec, RuntimeRec, SessionRec, WindowRec,
};
use crate::journal::{self, Journal};
use crate::server::Server;
use parking_lot::Mutex;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, Weak};
use std::time::UNIX_EPOCH;
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Persist {
    journal: OnceLock<Journal>,
    /// Sessions (with their windows and panes) the journal holds that are not
    /// running: restorable with `fugue restore NAME`. Paste buffers and runtime
    /// settings not yet restored wait here too.
    pub restorable: Mutex<Model>,
    /// `set-option`, `bind-key`, `unbind-key` commands run since start, oldest first,
    /// as JSON of the `Command` (at most `MAX_RUNTIME_COMMANDS`).
    runtime: Mutex<VecDeque<serde_json::Value>>,
    /// The buffers as last copied, and the `Buffers::version` they were copied at.
    buffers: Mutex<(u64, Vec<BufferRec>)>,
    /// How the previous server started (from its `started` mark).
    pub previous: Mutex<Option<Mark>>,
    /// The start kept the sessions restorable to ask a person (`restore = "ask"`,
    /// or `"auto"` after a reboot); plain `fugue` asks.
    pub ask: std::sync::atomic::AtomicBool,
}

/// What the journal can restore, for `--list` and MCP's answers.
pub fn restorable(model: &Model) -> Vec<fugue_protocol::restore::RestorableSession> {
    model
        .sessions()
        .map(|s| {
            let windows = model.windows_of(s.id);
            let panes: Vec<&PaneRec> = windows.iter().flat_map(|w| model.panes_of(w.id)).collect();
            fugue_protocol::restore::RestorableSession {
                name: s.name.clone(),
                windows: windows.len() as u32,
                panes: panes.len() as u32,
                agents: panes.iter().filter(|p| p.agent.is_some()).count() as u32,
                created_ms: s.created_ms,
            }
        })
        .collect()
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// This boot's id: a different one in the journal means the machine rebooted since.
pub fn boot_id() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|s| s.trim().to_string())
}

pub fn mark(what: &str) -> Mark {
    Mark {
        what: what.into(),
        pid: std::process::id(),
        boot_id: boot_id(),
        at_ms: now_ms(),
        panes: Vec::new(),
        sessions: Vec::new(),
    }
}

impl Persist {
    /// The journal, once opened.
    pub fn journal(&self) -> Option<&Journal> {
        self.journal.get()
    }

    /// The one observation point: something the journal keeps changed. Cheap and
    /// never blocking (see `Journal::changed`).
    pub fn changed(&self) {
        if let Some(j) = self.journal.get() {
            j.changed();
        }
    }

    /// Keeps a runtime settings command (`set-option`, `bind-key`, `unbind-key`)
    /// for a restore.
    pub fn runtime_command(&self, command: &fugue_protocol::Command) {
        let Ok(v) = serde_json::to_value(command) else {
            return;
        };
        let mut r = self.runtime.lock();
        r.push_back(v);
        while r.len() > journal::model::MAX_RUNTIME_COMMANDS {
            r.pop_front();
        }
    }

    /// `answer` with `restorable` (the sessions the journal could bring back) and a
    /// hint, when there are any; unchanged otherwise.
    pub fn with_restorable(&self, answer: serde_json::Value) -> serde_json::Value {
        let list = restorable(&self.restorable.lock());
        let serde_json::Value::Object(mut map) = answer else {
            return answer;
        };
        if list.is_empty() {
            return serde_json::Value::Object(map);
        }
        map.insert(
            "restorable".into(),
            serde_json::to_value(&list).unwrap_or_default(),
        );
        map.insert(
            "restorable_hint".into(),
            serde_json::Value::String(
                "sessions the previous server left (it was killed, crashed or the machine rebooted); a person brings them back with `fugue restore NAME` or forgets them with `fugue restore --discard`".into(),
            ),
        );
        serde_json::Value::Object(map)
    }

    pub fn runtime_commands(&self) -> Vec<serde_json::Value> {
        self.runtime.lock().iter().cloned().collect()
    }
}

/// Opens the journal in `state_dir` for server `label` and starts its writer. What it
/// holds becomes restorable. Returns the journal's folder, or None (logged) when it
/// cannot be used: the server runs on without one.
pub fn open(server: &Arc<Server>, state_dir: &Path, label: &str) -> Option<PathBuf> {
    let dir = state_dir.join(format!("journal-{label}"));
    let (store, loaded) = match journal::store::Store::open(&dir) {
        Ok(x) => x,
        Err(e) => {
            tracing::error!(
                "journal: cannot open {}: {e}; this server keeps no journal (the files are left as they are)",
                dir.display()
            );
            return None;
        }
    };
    for note in &loaded.notes {
        tracing::warn!("journal: {note}");
    }
    let sessions = loaded.model.sessions().count();
    tracing::info!(
        "journal: {} read ({} entries, {sessions} sessions not running)",
        dir.display(),
        loaded.entries
    );
    let (s, w, p) = loaded.model.max_ids();
    server.mux.tree().number_past(s, w, p);
    *server.persist.previous.lock() = loaded.model.last_start.clone();
    *server.persist.restorable.lock() = loaded.model.clone();
    let weak: Weak<Server> = Arc::downgrade(server);
    let mut saved = HashMap::new();
    let journal_dir = dir.clone();
    let capture = Box::new(move || match weak.upgrade() {
        Some(server) => {
            let m = capture(&server);
            save_scrollback(&server, &journal_dir, &m, &mut saved);
            m
        }
        None => Model::default(),
    });
    let weak: Weak<Server> = Arc::downgrade(server);
    let trouble = Box::new(move |msg: &str| {
        if let Some(server) = weak.upgrade() {
            server
                .mux
                .attached
                .tell(None, crate::attached::Control::Notice(msg.to_string()));
        }
    });
    let j = Journal::start(store, loaded.model, capture, trouble);
    j.mark(mark("started"));
    let _ = server.persist.journal.set(j);
    Some(dir)
}

/// Undelivered messages as the journal keeps them: the oldest that fit the bounds.
fn bounded_messages(texts: Vec<Arc<str>>) -> Vec<String> {
    use crate::journal::model::{MAX_JOURNALED_MESSAGE_BYTES, MAX_JOURNALED_MESSAGES};
    let mut bytes = 0usize;
    texts
        .iter()
        .take(MAX_JOURNALED_MESSAGES)
        .take_while(|t| {
            bytes = bytes.saturating_add(t.len());
            bytes <= MAX_JOURNALED_MESSAGE_BYTES
        })
        .map(|t| t.to_string())
        .collect()
}

/// The server's state as the journal keeps it: what is running, plus what is
/// restorable and not yet restored.
pub fn capture(server: &Server) -> Model {
    let mut m = server.persist.restorable.lock().clone();
    let mut pids = Vec::new();
    {
        let tree = server.mux.tree();
        // Windows written by this capture (the restorable items it starts from are
        // other sessions', never skipped for).
        let mut written = std::collections::HashSet::new();
        for s in &tree.sessions {
            let created_ms = s
                .created
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0);
            let mut rec = SessionRec {
                id: s.id.0,
                name: s.name.clone(),
                created_ms,
                size: s.size,
                active_window: s.active.0,
                links: Vec::new(),
                group: s.group.clone(),
            };
            // A window linked into several sessions is written with the first; the
            // others keep a link to it, made again when they are restored.
            for l in &s.windows {
                let Some(w) = tree.window(l.id) else {
                    continue;
                };
                if !written.insert(w.id) {
                    rec.links.push((l.index, w.id.0));
                    continue;
                }
                let rec = WindowRec {
                    id: w.id.0,
                    session: s.id.0,
                    index: l.index,
                    name: w.name.clone(),
                    auto_name: w.auto_name,
                    layout: serde_json::to_value(&w.layout).unwrap_or_default(),
                    zoomed: w.zoomed,
                    active_pane: w.active.0,
                };
                m.items.insert(Key::Window(w.id.0), Item::Window(rec));
            }
            m.items.insert(Key::Session(s.id.0), Item::Session(rec));
        }
        for (id, p) in &tree.panes {
            // A placeholder whose program is starting is in no layout yet.
            if p.pty.is_starting() {
                continue;
            }
            let program_title = p
                .shared
                .state
                .lock()
                .title()
                .filter(|t| !t.is_empty())
                .map(str::to_string);
            let rec = PaneRec {
                id: id.0,
                window: p.window.0,
                size: p.size,
                title: p.title.clone(),
                program_title,
                cwd: p.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
                argv: p.argv.clone(),
                start_command: p.start_command.clone(),
                env: p.env.clone(),
                remain: p.remain,
                exit_status: p.exit_status,
                sideband: p.sideband,
                creator: p.creator.describe(),
                depth: p.depth,
                agent: None,
            };
            pids.push((id.0, p.foreground_pid()));
            m.items.insert(Key::Pane(id.0), Item::Pane(Box::new(rec)));
        }
    }
    for t in server.agents.all() {
        if !t.is_agent() || t.is_closed() {
            continue;
        }
        if let Some(Item::Pane(p)) = m.items.get_mut(&Key::Pane(t.pane.0)) {
            let v = t.view();
            p.agent = Some(AgentRec {
                preset: t.preset.clone(),
                tags: t.tags.clone(),
                ancestors: t.lineage.ancestors.iter().map(|a| a.0).collect(),
                state: v.state.name().to_string(),
                exit_code: v.exit_code,
                result: t.result().map(|r| (r.text.clone(), r.at_ms)),
                pending_messages: t
                    .pending_messages
                    .load(std::sync::atomic::Ordering::Relaxed),
                messages: bounded_messages(t.queued_texts()),
            });
        }
    }
    // Read off the tree's lock: /proc may be slow for a process being torn down.
    for (id, pid) in pids {
        if let Some(cwd) = pid.and_then(crate::pane::process::cwd)
            && let Some(Item::Pane(p)) = m.items.get_mut(&Key::Pane(id))
        {
            p.cwd = Some(cwd.to_string_lossy().into_owned());
        }
    }
    {
        let buffers = server.buffers.lock();
        let mut cache = server.persist.buffers.lock();
        if cache.0 != buffers.version() {
            cache.1 = buffers
                .all()
                .iter()
                .map(|b| BufferRec {
                    name: b.name.clone(),
                    data: b.data.clone(),
                    created: b.created,
                    automatic: b.automatic,
                    owner: b.owner.clone(),
                })
                .collect();
            cache.0 = buffers.version();
        }
        for b in &cache.1 {
            m.items
                .insert(Key::Buffer(b.name.clone()), Item::Buffer(b.clone()));
        }
    }
    let commands = server.persist.runtime_commands();
    if !commands.is_empty() {
        let mut all = match m.items.get(&Key::Runtime) {
            Some(Item::Runtime(r)) => r.commands.clone(),
            _ => Vec::new(),
        };
        all.extend(commands);
        let excess = all
            .len()
            .saturating_sub(journal::model::MAX_RUNTIME_COMMANDS);
        all.drain(..excess);
        m.items
            .insert(Key::Runtime, Item::Runtime(RuntimeRec { commands: all }));
    }
    m
}

/// Saves panes' contents (`[server] persist_scrollback`) whose screens changed, each
/// at most once a second, and removes the files of panes the journal no longer holds.
/// Runs on the journal's writer thread, after the capture, off the tree's lock.
fn save_scrollback(
    server: &Server,
    dir: &Path,
    model: &Model,
    saved: &mut HashMap<u32, (u64, Instant)>,
) {
    use crate::config::PersistScrollback;
    use fugue_protocol::LineBound;
    let mode = server.config().server.persist_scrollback;
    let keep: HashSet<u32> = if mode == PersistScrollback::Off {
        HashSet::new()
    } else {
        model
            .items
            .keys()
            .filter_map(|k| match k {
                Key::Pane(id) => Some(*id),
                _ => None,
            })
            .collect()
    };
    let start = match mode {
        PersistScrollback::Off => None,
        PersistScrollback::Visible => Some(None),
        PersistScrollback::Lines(n) => Some(Some(LineBound::Line(-i64::from(n)))),
    };
    if let Some(start) = start {
        let panes: Vec<(u32, Arc<crate::pane::PaneShared>)> = server
            .mux
            .tree()
            .panes
            .iter()
            .filter(|(_, p)| !p.pty.is_starting())
            .map(|(id, p)| (id.0, Arc::clone(&p.shared)))
            .collect();
        for (id, shared) in panes {
            let seq = shared.state.lock().seq();
            if saved
                .get(&id)
                .is_some_and(|(s, at)| *s == seq || at.elapsed() < Duration::from_secs(1))
            {
                continue;
            }
            let text = shared.state.lock().capture(start, None, true, false);
            let trimmed = text.trim_end_matches(['\n', ' ']);
            if let Err(e) = crate::journal::scrollback::save(dir, id, now_ms(), trimmed) {
                tracing::debug!("journal: saving pane {id}'s content: {e}");
            }
            saved.insert(id, (seq, Instant::now()));
        }
    }
    saved.retain(|id, _| keep.contains(id));
    crate::journal::scrollback::prune(dir, &keep);
}

/// What a restored pane shows first: its saved content, then a divider.
pub fn preload(dir: &Path, pane: u32) -> Option<Vec<u8>> {
    let (at_ms, text) = crate::journal::scrollback::load(dir, pane)?;
    if text.is_empty() {
        return None;
    }
    let when = humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(at_ms));
    let mut out = text.replace('\n', "\r\n").into_bytes();
    out.extend_from_slice(
        format!(
            "\x1b[0m\r\n\x1b[2m\u{2500}\u{2500} restored from {when} \u{2500}\u{2500}\x1b[0m\r\n"
        )
        .as_bytes(),
    );
    Some(out)
}
