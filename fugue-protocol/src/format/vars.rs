//! tmux's variables over fugue's info types: a [`Snapshot`] of what a caller knows
//! (sessions, panes, buffers, server-wide values) and a [`Scope`] in it (the current
//! session, window, pane or buffer) that is a [`FormatContext`].

use super::{FormatContext, LoopItem};
use crate::{BufferInfo, ClientInfo, PaneId, PaneInfo, SessionId, SessionInfo, WindowId};
use std::collections::HashMap;

/// What a format may be expanded against.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub sessions: Vec<SessionInfo>,
    /// Every pane known, grouped by session then window, in reading order.
    pub panes: Vec<PaneInfo>,
    pub buffers: Vec<BufferInfo>,
    /// Attached terminal clients (`list-clients`).
    pub clients: Vec<ClientInfo>,
    /// Server- and client-wide variables (`host`, `host_short`, `pid`, `version`,
    /// `client_*`, ...) and anything else a caller adds (options, `@user` values).
    pub globals: HashMap<String, String>,
    /// Seconds since the epoch, and the local zone's offset east of UTC.
    pub now: i64,
    pub utc_offset: i64,
}

/// Where in a [`Snapshot`] a format is expanded.
#[derive(Clone, Copy, Debug)]
pub struct Scope<'a> {
    snap: &'a Snapshot,
    session: Option<SessionId>,
    window: Option<WindowId>,
    pane: Option<PaneId>,
    /// The window's index in the session: a window linked twice into one session
    /// (`link-window`) is told apart by it, and a linked window's panes are listed
    /// once per link, so rows are matched on session and index too.
    index: Option<u32>,
    buffer: Option<usize>,
    client: Option<usize>,
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

impl Snapshot {
    /// Nothing current: only server-wide variables (and `#{S:}`).
    pub fn global(&self) -> Scope<'_> {
        Scope {
            snap: self,
            session: None,
            window: None,
            pane: None,
            index: None,
            buffer: None,
            client: None,
        }
    }

    /// A pane with its window and session (the first row of it: a pane of a linked
    /// window has a row for each link).
    pub fn pane(&self, id: PaneId) -> Scope<'_> {
        let p = self.panes.iter().position(|p| p.id == id);
        match p {
            Some(row) => self.pane_row(row),
            None => Scope {
                pane: Some(id),
                ..self.global()
            },
        }
    }

    /// The pane of row `row` of [`Snapshot::panes`], through that row's link.
    pub fn pane_row(&self, row: usize) -> Scope<'_> {
        let p = self.panes.get(row);
        Scope {
            snap: self,
            session: p.map(|p| p.session_id),
            window: p.map(|p| p.window_id),
            pane: p.map(|p| p.id),
            index: p.map(|p| p.window_index),
            buffer: None,
            client: None,
        }
    }

    /// A window (its active pane current) with its session.
    pub fn window(&self, id: WindowId) -> Scope<'_> {
        let panes: Vec<&PaneInfo> = self.panes.iter().filter(|p| p.window_id == id).collect();
        let p = panes.iter().find(|p| p.active).or(panes.first());
        match p {
            Some(p) => self.winlink(p.session_id, id, p.window_index),
            None => Scope {
                window: Some(id),
                ..self.global()
            },
        }
    }

    /// Window `id` at `index` in session `session` (its active pane current).
    pub fn winlink(&self, session: SessionId, id: WindowId, index: u32) -> Scope<'_> {
        let at =
            |p: &&PaneInfo| p.window_id == id && p.session_id == session && p.window_index == index;
        let p = self
            .panes
            .iter()
            .filter(at)
            .find(|p| p.active)
            .or_else(|| self.panes.iter().find(at));
        Scope {
            snap: self,
            session: Some(session),
            window: Some(id),
            pane: p.map(|p| p.id),
            index: Some(index),
            buffer: None,
            client: None,
        }
    }

    /// A session (its active window and that window's active pane current).
    pub fn session(&self, id: SessionId) -> Scope<'_> {
        let p = self
            .panes
            .iter()
            .find(|p| p.session_id == id && p.window_active && p.active);
        Scope {
            snap: self,
            session: Some(id),
            window: p.map(|p| p.window_id),
            pane: p.map(|p| p.id),
            index: p.map(|p| p.window_index),
            buffer: None,
            client: None,
        }
    }

    /// The `i`th paste buffer.
    pub fn buffer(&self, i: usize) -> Scope<'_> {
        Scope {
            snap: self,
            session: None,
            window: None,
            pane: None,
            index: None,
            buffer: Some(i),
            client: None,
        }
    }

    /// The `i`th client, with its session (that session's active window and pane
    /// current), as tmux's list-clients expands its lines.
    pub fn client(&self, i: usize) -> Scope<'_> {
        let session = self.clients.get(i).and_then(|c| c.session);
        let mut scope = match session {
            Some(s) => self.session(s),
            None => self.global(),
        };
        scope.client = Some(i);
        scope
    }

    fn session_ids(&self) -> Vec<SessionId> {
        let mut ids: Vec<(String, SessionId)> = self
            .sessions
            .iter()
            .map(|s| (s.name.clone(), s.id))
            .collect();
        for p in &self.panes {
            if !ids.iter().any(|(_, id)| *id == p.session_id) {
                ids.push((p.session.clone(), p.session_id));
            }
        }
        // tmux lists sessions by name.
        ids.sort();
        ids.into_iter().map(|(_, id)| id).collect()
    }
}

impl<'a> Scope<'a> {
    /// The sessions in `s`'s group, in the order they joined it (those this
    /// snapshot has).
    fn group_members(&self, s: &SessionInfo) -> Vec<&'a SessionInfo> {
        s.group_members
            .iter()
            .filter_map(|name| self.snap.sessions.iter().find(|m| &m.name == name))
            .collect()
    }

    /// The clients attached to `s`'s group.
    fn group_attached(&self, s: &SessionInfo) -> u32 {
        self.group_members(s).iter().map(|m| m.attached).sum()
    }

    /// The same place with pane `pane` current (a window's other pane).
    pub fn with_pane(self, pane: PaneId) -> Scope<'a> {
        Scope {
            pane: Some(pane),
            ..self
        }
    }

    /// Whether row `p` is seen through this scope's link (when it has one).
    fn through_link(&self, p: &PaneInfo) -> bool {
        self.session.is_none_or(|s| s == p.session_id)
            && self.index.is_none_or(|i| i == p.window_index)
    }

    fn pane_info(&self) -> Option<&'a PaneInfo> {
        let id = self.pane?;
        let rows = || self.snap.panes.iter().filter(move |p| p.id == id);
        rows()
            .find(|p| self.through_link(p))
            .or_else(|| rows().next())
    }

    fn window_panes(&self) -> impl Iterator<Item = &'a PaneInfo> + use<'a> {
        let w = self.window;
        let (session, index) = (self.session, self.index);
        let linked = self.snap.panes.iter().any(|p| {
            Some(p.window_id) == w
                && session.is_none_or(|s| s == p.session_id)
                && index.is_none_or(|i| i == p.window_index)
        });
        // Through this scope's link when the snapshot has it (a window linked twice
        // lists its panes twice); else every row of the window, as before links.
        self.snap.panes.iter().filter(move |p| {
            Some(p.window_id) == w
                && (!linked
                    || (session.is_none_or(|s| s == p.session_id)
                        && index.is_none_or(|i| i == p.window_index)))
        })
    }

    /// A pane of the window: the window's own variables are read from it.
    fn window_pane(&self) -> Option<&'a PaneInfo> {
        self.pane_info().or_else(|| self.window_panes().next())
    }

    fn session_info(&self) -> Option<&'a SessionInfo> {
        let id = self.session?;
        self.snap.sessions.iter().find(|s| s.id == id)
    }

    fn pane_var(&self, name: &str) -> Option<String> {
        let p = self.pane_info()?;
        let agent = p.agent.as_ref();
        Some(match name {
            "pane_id" => p.id.to_string(),
            "pane_index" => p.index.to_string(),
            "pane_width" => p.width.to_string(),
            "pane_height" => p.height.to_string(),
            "pane_left" => p.left.to_string(),
            "pane_top" => p.top.to_string(),
            "pane_right" => (u32::from(p.left) + u32::from(p.width))
                .saturating_sub(1)
                .to_string(),
            "pane_bottom" => (u32::from(p.top) + u32::from(p.height))
                .saturating_sub(1)
                .to_string(),
            "pane_at_left" => flag(p.left == 0),
            "pane_at_top" => flag(p.top == 0),
            "pane_at_right" => flag(p.at_right),
            "pane_at_bottom" => flag(p.at_bottom),
            "history_limit" => p.history_limit.to_string(),
            "history_size" => p.history_size.to_string(),
            "history_bytes" => p.history_bytes.to_string(),
            "pane_title" => p.title.clone(),
            "pane_current_command" => p.command.clone(),
            "pane_current_path" | "pane_path" => p.cwd.clone().unwrap_or_default(),
            "pane_start_command" => p.start_command.clone(),
            "pane_pid" => p.pid.map(|p| p.to_string()).unwrap_or_default(),
            "pane_tty" => p.tty.clone().unwrap_or_default(),
            "pane_active" => flag(p.active),
            "pane_dead" => flag(!p.alive),
            "pane_dead_status" => p.exit_status.map(|s| s.to_string()).unwrap_or_default(),
            // A mode a terminal client shows over the pane (it tells the server), or
            // one the pane keeps for the next client (`copy-mode` with none attached).
            "pane_in_mode" => flag(p.mode.is_some()),
            "pane_mode" => p.mode.clone().unwrap_or_default(),
            "pane_format" => "1".to_string(),
            "pane_sideband" => flag(p.sideband),
            "pane_created_by" => p.created_by.clone(),
            "pane_parent" => p.parent.map(|p| p.to_string()).unwrap_or_default(),
            "pane_agent" | "agent" => agent.and_then(|a| a.preset.clone()).unwrap_or_default(),
            "pane_agent_state" | "agent_state" => {
                agent.map(|a| a.state.to_string()).unwrap_or_default()
            }
            "pane_agent_tags" | "agent_tags" => agent.map(|a| a.tags.join(",")).unwrap_or_default(),
            "cursor_x" => p.cursor_col.to_string(),
            "cursor_y" => p.cursor_row.to_string(),
            "alternate_on" => flag(p.alternate_screen),
            "pane_marked" => flag(p.marked),
            "pane_marked_set" => flag(p.marked_set),
            "pane_input_off" => flag(p.input_off),
            _ => return None,
        })
    }

    fn window_var(&self, name: &str) -> Option<String> {
        let p = self.window_pane()?;
        Some(match name {
            "window_index" => p.window_index.to_string(),
            "window_name" => p.window_name.clone(),
            "window_id" => p.window_id.to_string(),
            "window_active" => flag(p.window_active),
            "window_panes" => self.window_panes().count().to_string(),
            "window_width" => p.window_width.to_string(),
            "window_height" => p.window_height.to_string(),
            "window_zoomed_flag" => flag(p.window_zoomed),
            "window_linked" => flag(p.window_linked),
            "window_linked_sessions" => p.window_linked_sessions.len().max(1).to_string(),
            "window_linked_sessions_list" => match p.window_linked_sessions.as_slice() {
                [] => p.session.clone(),
                many => many.join(","),
            },
            "window_last_flag" => flag(p.window_last),
            "window_bell_flag" => flag(p.window_bell),
            "window_activity_flag" => flag(p.window_activity_flag),
            "window_silence_flag" => flag(p.window_silence),
            "window_activity" => p.window_activity.to_string(),
            "window_layout" | "window_visible_layout" => p.window_layout.clone(),
            "window_flags" => window_flags(p, self.window_marked(p.window_id)).replace('#', "##"),
            "window_raw_flags" => window_flags(p, self.window_marked(p.window_id)),
            "window_format" => "1".to_string(),
            "window_marked_flag" => flag(self.window_marked(p.window_id)),
            "window_start_flag" | "window_end_flag" => {
                let idx: Vec<u32> = self
                    .snap
                    .panes
                    .iter()
                    .filter(|q| q.session_id == p.session_id)
                    .map(|q| q.window_index)
                    .collect();
                let edge = if name == "window_start_flag" {
                    idx.iter().min()
                } else {
                    idx.iter().max()
                };
                flag(edge == Some(&p.window_index))
            }
            _ => return None,
        })
    }

    fn session_var(&self, name: &str) -> Option<String> {
        if let Some(v) = self.session_window_var(name) {
            return Some(v);
        }
        if let Some(s) = self.session_info() {
            let v = match name {
                "session_name" => s.name.clone(),
                "session_id" => s.id.to_string(),
                "session_windows" => s.windows.to_string(),
                "session_created" => s.created.to_string(),
                "session_attached" => s.attached.to_string(),
                "session_many_attached" => flag(s.attached > 1),
                "session_width" => s.width.to_string(),
                "session_height" => s.height.to_string(),
                "session_format" => "1".to_string(),
                "session_grouped" => flag(s.group.is_some()),
                "session_group" => s.group.clone().unwrap_or_default(),
                "session_group_size"
                | "session_group_list"
                | "session_group_attached"
                | "session_group_many_attached"
                    if s.group.is_none() =>
                {
                    String::new()
                }
                "session_group_size" => s.group_members.len().to_string(),
                "session_group_list" => s.group_members.join(","),
                "session_group_attached" => self.group_attached(s).to_string(),
                "session_group_many_attached" => flag(self.group_attached(s) > 1),
                "session_marked" => flag(s.marked),
                _ => return None,
            };
            return Some(v);
        }
        // Without a SessionInfo, what a pane of the session knows.
        let sid = self.session?;
        let p = self.snap.panes.iter().find(|p| p.session_id == sid)?;
        Some(match name {
            "session_name" => p.session.clone(),
            "session_id" => p.session_id.to_string(),
            "session_format" => "1".to_string(),
            "session_windows" => {
                let mut w: Vec<WindowId> = self
                    .snap
                    .panes
                    .iter()
                    .filter(|q| q.session_id == sid)
                    .map(|q| q.window_id)
                    .collect();
                w.sort();
                w.dedup();
                w.len().to_string()
            }
            _ => return None,
        })
    }

    fn client_var(&self, name: &str) -> Option<String> {
        let c = self.snap.clients.get(self.client?)?;
        Some(match name {
            "client_name" => c.name.clone(),
            "client_tty" => c.tty.clone(),
            "client_pid" => c.pid.map(|p| p.to_string()).unwrap_or_default(),
            "client_session" => c.session_name.clone().unwrap_or_default(),
            "client_width" => c.width.to_string(),
            // A control client has no terminal rows (tmux leaves it empty too).
            "client_height" if c.control_mode => String::new(),
            "client_height" => c.height.to_string(),
            "client_termname" => c.termname.clone(),
            "client_created" => c.created.to_string(),
            "client_activity" => c.activity.to_string(),
            // tmux's words for what fugue's clients are: attached, UTF-8, focused
            // when their terminal said so.
            "client_flags" => {
                let mut f = vec!["attached"];
                if c.focused {
                    f.push("focused");
                }
                if c.control_mode {
                    f.push("control-mode");
                }
                f.push("UTF-8");
                f.join(",")
            }
            "client_control_mode" => u8::from(c.control_mode).to_string(),
            "client_readonly" | "client_prefix" => "0".to_string(),
            "client_utf8" => "1".to_string(),
            "client_key_table" => "root".to_string(),
            "client_written" | "client_discarded" => "0".to_string(),
            // The client runs as the server's user (the socket admits no other).
            "client_uid" => self.snap.globals.get("uid").cloned().unwrap_or_default(),
            "client_user" => self.snap.globals.get("user").cloned().unwrap_or_default(),
            _ => return None,
        })
    }

    /// A session's window indexes: its current window's (`active_window_index`) and
    /// its highest (`last_window_index`), from the panes known.
    fn session_window_var(&self, name: &str) -> Option<String> {
        let sid = self.session?;
        let mut panes = self.snap.panes.iter().filter(|p| p.session_id == sid);
        match name {
            "active_window_index" => panes
                .find(|p| p.window_active)
                .map(|p| p.window_index.to_string()),
            "last_window_index" => panes.map(|p| p.window_index).max().map(|i| i.to_string()),
            _ => None,
        }
    }

    fn buffer_var(&self, name: &str) -> Option<String> {
        let b = self.snap.buffers.get(self.buffer?)?;
        Some(match name {
            "buffer_name" => b.name.clone(),
            "buffer_size" => b.size.to_string(),
            "buffer_sample" => b.sample.clone(),
            "buffer_created" => b.created.to_string(),
            _ => return None,
        })
    }

    fn item(&self, scope: Scope<'a>, current: bool) -> LoopItem<'a> {
        LoopItem {
            ctx: Box::new(scope),
            current,
        }
    }
}

fn window_flags(p: &PaneInfo, marked: bool) -> String {
    super::window_flags(super::WindowFlags {
        marked,
        activity: p.window_activity_flag,
        bell: p.window_bell,
        silence: p.window_silence,
        current: p.window_active,
        last: p.window_last,
        zoomed: p.window_zoomed,
    })
}

impl Scope<'_> {
    /// An option or environment value the listing asked the server for
    /// ([`crate::format::value_names`]): the pane's, or in a window's scope its
    /// active pane's (a pane inherits its window's options).
    fn listed_value(&self, name: &str) -> Option<String> {
        let pane = self
            .pane_info()
            .or_else(|| self.window_panes().find(|p| p.active))?;
        pane.values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }

    /// Whether the marked pane is in this window (of the panes the snapshot holds).
    fn window_marked(&self, w: WindowId) -> bool {
        self.snap.panes.iter().any(|q| q.marked && q.window_id == w)
    }
}

impl FormatContext for Scope<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.client_var(name)
            .or_else(|| self.pane_var(name))
            .or_else(|| self.pane_info().and_then(|p| p.detail.var(name)))
            .or_else(|| self.window_var(name))
            .or_else(|| self.session_var(name))
            .or_else(|| self.buffer_var(name))
            .or_else(|| self.listed_value(name))
            .or_else(|| self.snap.globals.get(name).cloned())
    }

    fn sessions(&self) -> Vec<LoopItem<'_>> {
        self.snap
            .session_ids()
            .into_iter()
            .map(|id| self.item(self.snap.session(id), Some(id) == self.session))
            .collect()
    }

    fn windows(&self) -> Vec<LoopItem<'_>> {
        let mut seen: Vec<(WindowId, u32)> = Vec::new();
        let mut out = Vec::new();
        for p in self
            .snap
            .panes
            .iter()
            .filter(|p| Some(p.session_id) == self.session)
        {
            if !seen.contains(&(p.window_id, p.window_index)) {
                seen.push((p.window_id, p.window_index));
                out.push(self.item(
                    self.snap.winlink(p.session_id, p.window_id, p.window_index),
                    p.window_active,
                ));
            }
        }
        out
    }

    fn panes(&self) -> Vec<LoopItem<'_>> {
        self.window_panes()
            .map(|p| {
                let scope = Scope {
                    pane: Some(p.id),
                    ..self.snap.winlink(p.session_id, p.window_id, p.window_index)
                };
                self.item(scope, p.active)
            })
            .collect()
    }

    fn now(&self) -> i64 {
        self.snap.now
    }

    fn utc_offset(&self, _at: i64) -> i64 {
        self.snap.utc_offset
    }
}
