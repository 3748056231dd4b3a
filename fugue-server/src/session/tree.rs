//! The session tree: sessions hold windows, windows hold a layout of panes.

use super::layout::{Layout, Rect};
use super::links::Winlink;
use crate::pane::PaneShared;
use crate::pane::program::Program;
use fugue_protocol::{LayoutPreset, PaneId, SessionId, WindowId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

/// Who made a pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Creator {
    /// A person: keys of an attached client or a CLI verb, and the pane the CLI ran
    /// in, if any. That pane is kept only for `children` (the agents a person made
    /// from a pane); it is not a parent: a person's panes stay a person's, with no
    /// agent above them for scope or delegation.
    Person {
        pane: Option<PaneId>,
    },
    /// An MCP connection (and the pane its agent runs in, if any).
    Mcp {
        connection: u64,
        pane: Option<PaneId>,
    },
    /// A sideband tag printed in a pane.
    Sideband {
        pane: PaneId,
    },
    /// The `fugue` CLI run by the agent in a pane (or a program acting for it) that
    /// no agent surface created: an agent a person started with `fugue agent spawn`.
    Agent {
        pane: PaneId,
    },
    Server,
}

impl Creator {
    /// How `list-panes` names it.
    pub fn describe(&self) -> String {
        match self {
            Creator::Person { .. } => "person".into(),
            Creator::Mcp {
                connection,
                pane: Some(p),
            } => format!("mcp {connection} in {p}"),
            Creator::Mcp {
                connection,
                pane: None,
            } => format!("mcp {connection}"),
            Creator::Sideband { pane } => format!("sideband {pane}"),
            Creator::Agent { pane } => format!("agent {pane}"),
            Creator::Server => "server".into(),
        }
    }

    /// The agent pane behind this creation, if any.
    pub fn pane(&self) -> Option<PaneId> {
        match self {
            Creator::Mcp { pane, .. } => *pane,
            Creator::Sideband { pane } | Creator::Agent { pane } => Some(*pane),
            _ => None,
        }
    }

    /// The pane this creation was made from, whoever made it: the agent pane behind
    /// it, or the pane a person's CLI ran in.
    pub fn made_from(&self) -> Option<PaneId> {
        match self {
            Creator::Person { pane } => *pane,
            other => other.pane(),
        }
    }

    pub fn is_person(&self) -> bool {
        matches!(self, Creator::Person { .. })
    }
}

/// A pane as the tree knows it.
pub struct Pane {
    pub id: PaneId,
    pub shared: Arc<PaneShared>,
    /// Its program: a placeholder while it starts (see `pane::program`).
    pub pty: Program,
    pub window: WindowId,
    /// Inner size (columns, rows): what the program sees.
    pub size: (u16, u16),
    /// A title set with `select-pane -T` (the program's own title is in its state).
    pub title: Option<String>,
    /// Set once the program has exited and the pane is kept (`remain-on-exit`).
    pub exit_status: Option<i32>,
    pub sideband: bool,
    /// Keep the pane when its program exits (None: the configured default).
    pub remain: Option<bool>,
    pub creator: Creator,
    /// Generations of agent-made panes above this one (0 for a person's pane).
    pub depth: u32,
    pub argv: Vec<String>,
    /// The command as it was given (`#{pane_start_command}`, tmux's quoting; empty
    /// for the default shell), where `argv` is what runs.
    pub start_command: String,
    pub cwd: Option<PathBuf>,
    /// Environment its creator added (`-e`), kept for the journal.
    pub env: Vec<(String, String)>,
    /// A short marker for the border: an agent pane's state.
    pub badge: Option<String>,
    /// The preset its program was started from (`spawn-agent`): the program is an
    /// agent, and a `fugue` CLI it runs acts for it, whoever created the pane.
    pub agent: Option<String>,
    /// How many times `respawn-pane` started a program here: an exit heard for an
    /// earlier one is not this program's.
    pub generation: u32,
    /// `select-pane -d`: input sent to the pane is dropped until `select-pane -e`.
    pub input_off: bool,
    /// A mode asked for while no terminal client showed the pane: the command line
    /// the next client runs to show it (`dispatch/held_modes.rs`).
    pub held_mode: Option<Vec<String>>,
}

/// A command's words as tmux writes them back (`#{pane_start_command}`): a word with
/// blanks or shell characters in double quotes, `"`, `\` and `$` escaped there.
pub fn start_command(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if !w.is_empty()
                && !w
                    .chars()
                    .any(|c| c.is_whitespace() || "\"'\\$;#{}~&|<>()`*?[]".contains(c))
            {
                return w.clone();
            }
            let mut out = String::from("\"");
            for c in w.chars() {
                if matches!(c, '"' | '\\' | '$') {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Pane {
    pub fn new(
        id: PaneId,
        shared: Arc<PaneShared>,
        pty: Program,
        window: WindowId,
        size: (u16, u16),
        argv: Vec<String>,
        cwd: Option<PathBuf>,
    ) -> Pane {
        Pane {
            id,
            shared,
            pty,
            window,
            size,
            title: None,
            exit_status: None,
            sideband: false,
            remain: None,
            creator: Creator::Person { pane: None },
            depth: 0,
            argv,
            start_command: String::new(),
            cwd,
            env: Vec::new(),
            badge: None,
            agent: None,
            generation: 0,
            input_off: false,
            held_mode: None,
        }
    }

    pub fn alive(&self) -> bool {
        self.exit_status.is_none()
    }

    /// The process in the foreground of the pane (or the pane's program).
    pub fn foreground_pid(&self) -> Option<i32> {
        if !self.alive() {
            return None;
        }
        self.pty
            .foreground_pgrp()
            .or(self.pty.pid().map(|p| p as i32))
    }

    /// The name of what runs in the foreground, like tmux's `pane_current_command`:
    /// what the pane's reader found after its last output, or a look now when that is
    /// older than [`FOREGROUND_FRESH`] (a pane quiet since).
    pub fn current_command(&self) -> String {
        if let Some(name) = self.shared.foreground_name(FOREGROUND_FRESH) {
            return name;
        }
        let pid = self.foreground_pid();
        // Between fork and exec the child still carries the server's thread name.
        let Some(pid) = pid.filter(|p| !crate::pane::process::is_unexeced_child(*p)) else {
            return program_name(&self.argv);
        };
        match crate::pane::foreground::Foreground::of(pid) {
            Some(found) => {
                let name = found.name.clone();
                // A change found here is announced as one the reader finds would be.
                self.shared.record_foreground(found);
                name
            }
            None => program_name(&self.argv),
        }
    }

    pub fn current_cwd(&self) -> Option<PathBuf> {
        self.foreground_pid()
            .and_then(crate::pane::process::cwd)
            .or_else(|| self.cwd.clone())
    }

    /// The title shown in the pane's border.
    pub fn display_title(&self) -> String {
        if let Some(t) = &self.title {
            return t.clone();
        }
        if let Some(t) = self.shared.state.lock().title()
            && !t.is_empty()
        {
            return t.to_string();
        }
        self.current_command()
    }
}

/// How old a look at a pane's foreground may be for a query to use it: the pane's
/// reader looks after output, so this is how long a program that starts without
/// writing anything may go unseen by a query.
pub const FOREGROUND_FRESH: std::time::Duration = std::time::Duration::from_secs(1);

/// The base name of a program from its argv.
pub fn program_name(argv: &[String]) -> String {
    let first = argv.first().map(String::as_str).unwrap_or("sh");
    let word = first.split_whitespace().next().unwrap_or(first);
    word.rsplit('/').next().unwrap_or(word).to_string()
}

/// A window: its panes' layout and its own state. Held by the tree; sessions reach it
/// through [`Winlink`]s, so one window can be in several sessions (`link-window`,
/// grouped sessions) or twice in one, as tmux's windows are.
pub struct Window {
    pub id: WindowId,
    pub name: String,
    /// Follow the active pane's program, as tmux's automatic-rename does.
    pub auto_name: bool,
    pub layout: Layout,
    pub active: PaneId,
    pub last_active: Option<PaneId>,
    pub zoomed: bool,
    pub last_preset: Option<LayoutPreset>,
    /// The layout before the last `select-layout`, for `select-layout -o`.
    pub old_layout: Option<Layout>,
    /// The size `resize-window` gave it (tmux's manual_sx/sy with `window-size
    /// manual`): laid out at this size whatever the clients' size; None follows the
    /// session.
    pub manual_size: Option<(u16, u16)>,
    /// The area its panes were last sized for (`Server::relayout`): what every
    /// session showing it draws, since a window linked into several sessions is
    /// laid out for one of them.
    pub laid_out: Option<Rect>,
}

impl Window {
    /// A window of one pane, `pane`, named `name`; `auto_name` follows its program's
    /// name from then on (tmux's automatic-rename).
    pub fn of_pane(id: WindowId, pane: PaneId, name: String, auto_name: bool) -> Window {
        Window {
            id,
            name,
            auto_name,
            layout: Layout::new(pane),
            active: pane,
            last_active: None,
            zoomed: false,
            last_preset: None,
            old_layout: None,
            manual_size: None,
            laid_out: None,
        }
    }

    /// Makes `pane` active, remembering the previous one for `last-pane`.
    pub fn set_active(&mut self, pane: PaneId) {
        if pane != self.active {
            self.last_active = Some(self.active);
            self.active = pane;
        }
    }

    /// The area it is laid out in, within a session of `session` size.
    pub fn area(&self, session: Rect) -> Rect {
        match self.manual_size {
            Some((width, height)) => Rect {
                x: 0,
                y: 0,
                width,
                height,
            },
            None => session,
        }
    }

    /// The area it is drawn in by a session of `session` size: where its panes were
    /// last laid out, else where they would be.
    pub fn shown_area(&self, session: Rect) -> Rect {
        self.laid_out.unwrap_or_else(|| self.area(session))
    }

    /// The panes drawn and their tiles (pane and border) in a window of `area`
    /// framed by `frame`.
    pub fn visible(&self, area: Rect, frame: super::layout::Frame) -> Vec<(PaneId, Rect)> {
        let tiled = frame.layout_area(area);
        if self.zoomed {
            vec![(self.active, tiled)]
        } else {
            self.layout.geometry(tiled)
        }
    }
}

pub struct Session {
    pub id: SessionId,
    pub name: String,
    /// Its windows' links, sorted by index. One window may be linked more than once.
    pub windows: Vec<Winlink>,
    pub active: WindowId,
    /// Which link of `active` is current, when the session holds it at more than one
    /// index (`select-window -t s:5` of a window also at 1). None: the first.
    pub active_index: Option<u32>,
    pub last_window: Option<WindowId>,
    pub created: SystemTime,
    /// Higher is more recent: the default session for callers that name none.
    pub last_used: u64,
    /// The area windows are laid out in (columns, rows), without the status bar.
    pub size: (u16, u16),
    /// The first pane, when a person made the session: protected from agents
    /// (`[policy] protect_first_pane`).
    pub first_pane: Option<PaneId>,
    /// The session group it is in (`new-session -t`): grouped sessions hold the same
    /// windows at the same indexes. Named as tmux names it, after the first session.
    pub group: Option<String>,
}

impl Session {
    /// A new session holding one window at `index`.
    pub fn new(id: SessionId, name: String, window: WindowId, index: u32) -> Session {
        Session {
            id,
            name,
            windows: vec![Winlink { index, id: window }],
            active: window,
            active_index: None,
            last_window: None,
            created: SystemTime::now(),
            last_used: 0,
            size: (80, 24),
            first_pane: None,
            group: None,
        }
    }

    pub fn area(&self) -> Rect {
        Rect {
            x: 0,
            y: 0,
            width: self.size.0,
            height: self.size.1,
        }
    }

    /// The first free window index.
    pub fn free_index(&self) -> u32 {
        (0..)
            .find(|i| !self.windows.iter().any(|w| w.index == *i))
            .unwrap_or(0)
    }

    pub fn set_active(&mut self, window: WindowId) {
        if window != self.active {
            self.last_window = Some(self.active);
            self.active = window;
        }
        self.active_index = None;
    }

    /// The window that becomes current when current window `gone` (at `index`) leaves
    /// it, as tmux picks it: the last used window, else the one before it in index
    /// order, wrapping round to the last.
    pub fn successor(&self, gone: WindowId, index: u32) -> Option<WindowId> {
        self.last_window
            .filter(|l| *l != gone && self.holds(*l))
            .or_else(|| {
                let others = self.windows.iter().filter(|w| w.id != gone);
                others
                    .clone()
                    .filter(|w| w.index < index)
                    .max_by_key(|w| w.index)
                    .or_else(|| others.max_by_key(|w| w.index))
                    .map(|w| w.id)
            })
    }
}

/// Everything that exists.
#[derive(Default)]
pub struct Tree {
    pub sessions: Vec<Session>,
    /// Every window, whichever sessions link it.
    pub windows: HashMap<WindowId, Window>,
    pub panes: HashMap<PaneId, Pane>,
    /// Panes the layout gave a new size while the lock is held: the tree's guard
    /// ([`crate::mux::TreeGuard`]) sizes their terminals and reflows their screens once
    /// it has released the lock.
    pub resized: Vec<(Arc<crate::pane::PaneShared>, crate::pane::pty::Resizer)>,
    next_pane: u32,
    next_window: u32,
    next_session: u32,
    use_counter: u64,
    /// Windows a pane rang the bell in, not shown since (`bells.rs`).
    pub bells: std::collections::HashSet<WindowId>,
    /// Windows with output (`monitor-activity`) or silent (`monitor-silence`) since
    /// they were last shown (`crate::alerts`).
    pub activity: std::collections::HashSet<WindowId>,
    pub silence: std::collections::HashSet<WindowId>,
    /// Each session's popup (`display-popup`): its pane is in `panes` but in no
    /// layout.
    pub popups: HashMap<SessionId, Popup>,
    /// tmux's global `pane-base-index`: the first pane's index in `#{pane_index}` and
    /// in targets (`s:1.1`). Kept here, set by `set-option`, so the tree (which reads
    /// no options) numbers panes with it.
    pub pane_base_index: u32,
    /// fugue's boxes or tmux's shared borders (the server option `pane-borders`), and
    /// tmux's `pane-border-status`: the global value and the windows' own. Kept here,
    /// set by `set-option`, as `pane_base_index`: pane sizes depend on them.
    pub borders: super::layout::Borders,
    pub border_status: super::layout::BorderStatus,
    pub window_border_status: HashMap<WindowId, super::layout::BorderStatus>,
    /// tmux's marked pane (`select-pane -m`): one for the whole server. May name a
    /// pane that is gone; [`Tree::marked`] checks.
    pub marked_pane: Option<PaneId>,
    /// Each session group's windows as last synchronized ([`Tree::sync_groups`]).
    pub group_links: HashMap<String, Vec<Winlink>>,
    /// The pane mode each attached terminal client shows, by client id (the client
    /// says, `client-mode`): fugue's modes are drawn by clients, tmux's are the
    /// pane's, so `#{pane_in_mode}` asks here. One entry per client at most.
    pub shown_modes: HashMap<u64, (PaneId, &'static str)>,
}

/// A floating pane over a session's window (`dispatch/popups.rs`).
#[derive(Clone, Debug)]
pub struct Popup {
    pub pane: PaneId,
    /// The box, border included, in the session's area.
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub title: String,
    pub border: bool,
    /// tmux's `-E` count: 1 closes it when its program exits, 2 only on success.
    pub close_on_exit: u8,
    /// Its program ended and it stays until a key closes it.
    pub exited: bool,
}

impl Tree {
    /// Takes away the popups whose session, window or pane is gone; their panes, for
    /// the caller to end (a popup is in no layout, so closing its window or session
    /// does not reach it otherwise).
    pub fn take_orphan_popups(&mut self) -> Vec<Pane> {
        let orphans: Vec<SessionId> = self
            .popups
            .iter()
            .filter(|(sid, pp)| {
                let Some(s) = self.session(**sid) else {
                    return true;
                };
                self.panes.get(&pp.pane).is_none_or(|p| !s.holds(p.window))
            })
            .map(|(sid, _)| *sid)
            .collect();
        orphans
            .into_iter()
            .filter_map(|sid| {
                let pp = self.popups.remove(&sid)?;
                self.panes.remove(&pp.pane)
            })
            .collect()
    }

    /// The session whose popup `pane` is.
    pub fn popup_of(&self, pane: PaneId) -> Option<SessionId> {
        self.popups
            .iter()
            .find(|(_, p)| p.pane == pane)
            .map(|(s, _)| *s)
    }
}

/// What closing a pane closed with it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Removed {
    pub window_closed: bool,
    /// Sessions that had no other window (a linked window closes in each).
    pub sessions_closed: Vec<SessionId>,
}

impl Tree {
    /// The marked pane, while it exists.
    pub fn marked(&self) -> Option<PaneId> {
        self.marked_pane.filter(|p| self.panes.contains_key(p))
    }

    pub fn new_pane_id(&mut self) -> PaneId {
        self.next_pane += 1;
        PaneId(self.next_pane)
    }

    pub fn new_window_id(&mut self) -> WindowId {
        self.next_window += 1;
        WindowId(self.next_window)
    }

    /// The id the next session will get (a pane made with its session names it in
    /// `TMUX` before the session is in the tree).
    pub fn next_session_id(&self) -> SessionId {
        SessionId(self.next_session)
    }

    /// Numbers new sessions, windows and panes past these (the journal's largest),
    /// so what a restart brings back keeps its ids.
    /// With no session kept (`None`) sessions are numbered from `$0`, as tmux's (a
    /// fresh server's second session is `$1`, which libtmux's fixtures count on).
    pub fn number_past(&mut self, session: Option<u32>, window: u32, pane: u32) {
        // A damaged journal naming id 4294967295 must not leave no ids to hand out.
        const CAP: u32 = 1 << 30;
        let (window, pane) = (window.min(CAP), pane.min(CAP));
        if let Some(session) = session {
            self.next_session = self.next_session.max(session.min(CAP).saturating_add(1));
        }
        self.next_window = self.next_window.max(window);
        self.next_pane = self.next_pane.max(pane);
    }

    /// `wanted` when it is free and below the next new id (a restored pane keeps its
    /// id), else a new one.
    pub fn pane_id_or_new(&mut self, wanted: Option<PaneId>) -> PaneId {
        match wanted {
            Some(w) if w.0 != 0 && w.0 <= self.next_pane && !self.panes.contains_key(&w) => w,
            _ => self.new_pane_id(),
        }
    }

    pub fn window_id_or_new(&mut self, wanted: WindowId) -> WindowId {
        let taken = self.windows.contains_key(&wanted);
        if wanted.0 != 0 && wanted.0 <= self.next_window && !taken {
            wanted
        } else {
            self.new_window_id()
        }
    }

    pub fn session_id_or_new(&mut self, wanted: SessionId) -> SessionId {
        if wanted.0 < self.next_session && self.session(wanted).is_none() {
            wanted
        } else {
            self.new_session_id()
        }
    }

    pub fn new_session_id(&mut self) -> SessionId {
        let id = SessionId(self.next_session);
        self.next_session += 1;
        id
    }

    /// A fresh "recently used" stamp.
    pub fn touch(&mut self) -> u64 {
        self.use_counter += 1;
        self.use_counter
    }

    pub fn session(&self, id: SessionId) -> Option<&Session> {
        self.sessions.iter().find(|s| s.id == id)
    }

    pub fn session_mut(&mut self, id: SessionId) -> Option<&mut Session> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    /// The session a window is taken to be in when only the window is named: the most
    /// recently used of those holding it, as tmux's cmd_find_best_session_with_window.
    pub fn session_of_window(&self, window: WindowId) -> Option<&Session> {
        self.sessions_of_window(window).max_by_key(|s| s.last_used)
    }

    pub fn session_of_window_mut(&mut self, window: WindowId) -> Option<&mut Session> {
        let sid = self.session_of_window(window)?.id;
        self.session_mut(sid)
    }

    pub fn window(&self, id: WindowId) -> Option<&Window> {
        self.windows.get(&id)
    }

    pub fn window_mut(&mut self, id: WindowId) -> Option<&mut Window> {
        self.windows.get_mut(&id)
    }

    /// A session's current window.
    pub fn active_window(&self, session: SessionId) -> Option<&Window> {
        self.window(self.session(session)?.active)
    }

    /// A new window in the tree, linked into `session` at `index`.
    pub fn add_window(&mut self, session: SessionId, index: u32, window: Window) {
        let id = window.id;
        self.windows.insert(id, window);
        if let Some(s) = self.session_mut(session) {
            s.insert_link(Winlink { index, id });
        }
    }

    /// A new session holding `window` (already in the tree) at `index`.
    pub fn add_session(&mut self, session: Session) {
        self.sessions.push(session);
    }

    /// How window `id`'s panes are framed.
    pub fn frame(&self, id: WindowId) -> super::layout::Frame {
        super::layout::Frame {
            borders: self.borders,
            status: self
                .window_border_status
                .get(&id)
                .copied()
                .unwrap_or(self.border_status),
        }
    }

    /// The rectangle window `id`'s layout tiles (its area, grown for shared borders).
    pub fn layout_area(&self, id: WindowId) -> Rect {
        self.frame(id).layout_area(self.window_area(id))
    }

    /// The area window `id` is laid out in; empty if there is no such window.
    pub fn window_area(&self, id: WindowId) -> Rect {
        match (self.session_of_window(id), self.window(id)) {
            (Some(s), Some(w)) => w.shown_area(s.area()),
            _ => Rect::default(),
        }
    }

    /// The sessions holding a pane's window.
    pub fn holders_of_pane(&self, pane: PaneId) -> Vec<SessionId> {
        self.panes
            .get(&pane)
            .map(|p| self.sessions_of_window(p.window).map(|s| s.id).collect())
            .unwrap_or_default()
    }

    /// (session, window) of a pane.
    pub fn locate(&self, pane: PaneId) -> Option<(SessionId, WindowId)> {
        let window = self.panes.get(&pane)?.window;
        Some((self.session_of_window(window)?.id, window))
    }

    /// A free session name: the lowest unused number, as tmux does.
    pub fn free_session_name(&self) -> String {
        (0u32..)
            .map(|i| i.to_string())
            .find(|n| !self.sessions.iter().any(|s| &s.name == n))
            .unwrap_or_default()
    }

    pub fn session_by_name(&self, name: &str) -> Option<&Session> {
        self.sessions.iter().find(|s| s.name == name)
    }

    /// The most recently used session.
    pub fn most_recent_session(&self) -> Option<&Session> {
        self.sessions.iter().max_by_key(|s| s.last_used)
    }

    /// Takes a pane out of its window, closing the window and session when they become
    /// empty. The pane's program is not touched; the caller decides.
    pub fn remove_pane(&mut self, pane: PaneId) -> Option<(Pane, Removed)> {
        let p = self.panes.remove(&pane)?;
        let mut removed = Removed::default();
        let Some(w) = self.windows.get_mut(&p.window) else {
            return Some((p, removed));
        };
        // A placeholder (its program still starting) is in no layout yet.
        if !w.layout.contains(pane) {
            return Some((p, removed));
        }
        if w.layout.len() <= 1 {
            removed.window_closed = true;
            removed.sessions_closed = self.remove_window(p.window);
            return Some((p, removed));
        }
        w.layout.remove(pane);
        if w.active == pane {
            let next = w
                .last_active
                .filter(|l| w.layout.contains(*l))
                .or_else(|| w.layout.panes().first().copied())
                .unwrap_or(pane);
            w.active = next;
            w.last_active = None;
        }
        if w.last_active == Some(pane) {
            w.last_active = None;
        }
        if w.layout.len() <= 1 {
            w.zoomed = false;
        }
        Some((p, removed))
    }

    /// Removes an (already emptied) window from the tree and from every session
    /// linking it; the sessions that had no other window close with it, returned.
    pub fn remove_window(&mut self, window: WindowId) -> Vec<SessionId> {
        self.windows.remove(&window);
        let mut closed = Vec::new();
        for s in self.sessions.iter_mut().filter(|s| s.holds(window)) {
            s.unlink(window);
            if s.windows.is_empty() {
                closed.push(s.id);
            }
        }
        self.sessions.retain(|s| !closed.contains(&s.id));
        closed
    }
}

#[cfg(test)]
mod tests {
    /// As tmux 3.3a writes `#{pane_start_command}` for the same commands.
    #[test]
    fn start_commands_are_written_back_as_tmux_writes_them() {
        let w =
            |v: &[&str]| super::start_command(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(w(&["sleep 1m"]), "\"sleep 1m\"");
        assert_eq!(w(&["sleep", "30"]), "sleep 30");
        assert_eq!(w(&[]), "");
        assert_eq!(
            w(&["sh", "-c", "echo \"hi there\"; sleep 9"]),
            r#"sh -c "echo \"hi there\"; sleep 9""#
        );
    }
}
