//! Descriptions of the tree for `list-*` commands and for attached clients.

use super::layout::Borders;
use super::links::Winlink;
use super::tree::{Session, Tree, Window};
use crate::pane::PaneShared;
use fugue_protocol::screen::{ClientLayout, PaneRect, WindowTab};
use fugue_protocol::{PaneId, PaneInfo, SessionId, SessionInfo, WindowId};
use std::sync::Arc;
use std::time::UNIX_EPOCH;

/// What an attached client shows: the layout and the panes to stream.
pub struct ClientView {
    pub layout: ClientLayout,
    pub panes: Vec<(PaneId, Arc<PaneShared>)>,
}

/// An instant as seconds since the Unix epoch (instants are not wall-clock times).
fn unix_secs(at: std::time::Instant) -> u64 {
    let ago = at.elapsed();
    std::time::SystemTime::now()
        .checked_sub(ago)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Tree {
    /// A window's name: its own, or what its active pane runs.
    pub fn window_name(&self, w: &Window) -> String {
        if w.auto_name {
            if let Some(p) = self.panes.get(&w.active) {
                return p.current_command();
            }
        }
        w.name.clone()
    }

    /// A pane as `list-panes` describes it, in its window's best session and link
    /// (see [`Tree::resolve_winlink`]).
    pub fn pane_info(&self, pane: PaneId) -> Option<PaneInfo> {
        let window = self.panes.get(&pane)?.window;
        let s = self.session_of_window(window)?;
        self.pane_info_at(pane, s, *s.link(window)?)
    }

    /// A pane as seen through one link of its window: `list-panes -a` gives a pane
    /// once for every place its window is linked, as tmux does.
    pub fn pane_info_at(&self, pane: PaneId, s: &Session, link: Winlink) -> Option<PaneInfo> {
        let p = self.panes.get(&pane)?;
        let w = self.window(p.window)?;
        let index = (w
            .layout
            .panes()
            .iter()
            .position(|x| *x == pane)
            .unwrap_or(0) as u32)
            .saturating_add(self.pane_base_index);
        let area = w.shown_area(s.area());
        let frame = self.frame(w.id);
        // Where the pane is drawn: tmux's pane_left/pane_top (a zoomed window's
        // hidden panes keep their place in the layout); fugue's boxes give the box's.
        let shown = |r| match frame.borders {
            Borders::Boxed => r,
            Borders::Shared => frame.content(r, area),
        };
        let rect = w
            .visible(area, frame)
            .into_iter()
            .chain(w.layout.geometry(frame.layout_area(area)))
            .find(|(id, _)| *id == pane)
            .map(|(_, r)| shown(r));
        let (alternate_screen, cursor, history, mut detail) = {
            let st = p.shared.state.lock();
            (
                st.screen().alternate_screen(),
                st.cursor(),
                st.history_counts(),
                crate::pane::detail::of_screen(st.screen()),
            )
        };
        detail.last = w.last_active == Some(pane);
        detail.start_path = p
            .cwd
            .as_ref()
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        let outer = w
            .layout
            .geometry(frame.layout_area(area))
            .into_iter()
            .find(|(id, _)| *id == pane);
        let edge = |f: fn(&crate::session::layout::Rect) -> u32, whole: u16| {
            outer
                .as_ref()
                .is_some_and(|(_, r)| f(r) >= u32::from(whole))
        };
        let activity = w
            .layout
            .panes()
            .iter()
            .filter_map(|id| self.panes.get(id))
            .map(|q| q.shared.last_output())
            .max();
        Some(PaneInfo {
            id: pane,
            session: s.name.clone(),
            session_id: s.id,
            window_index: link.index,
            window_name: self.window_name(w),
            window_id: w.id,
            window_active: s.current().is_some_and(|c| *c == link),
            index,
            title: p.display_title(),
            command: p.current_command(),
            pid: p.pty.pid(),
            cwd: p.current_cwd().map(|c| c.to_string_lossy().into_owned()),
            width: p.size.0,
            height: p.size.1,
            active: w.active == pane,
            alive: p.alive(),
            exit_status: p.exit_status,
            alternate_screen,
            cursor_row: cursor.row,
            cursor_col: cursor.col,
            sideband: p.sideband,
            created_by: p.creator.describe(),
            parent: p.creator.pane(),
            agent: None,
            left: rect.map(|r| r.x).unwrap_or(0),
            top: rect.map(|r| r.y).unwrap_or(0),
            window_width: area.width,
            window_height: area.height,
            window_zoomed: w.zoomed,
            window_last: Some(w.id) == s.last_window,
            window_bell: self.bells.contains(&w.id),
            start_command: p.start_command.clone(),
            tty: p.pty.tty_name(),
            window_activity_flag: self.activity.contains(&w.id),
            window_silence: self.silence.contains(&w.id),
            window_activity: activity.map(unix_secs).unwrap_or(0),
            window_layout: w.layout.tmux_string(area, frame.borders),
            history_limit: history.limit,
            history_size: history.size,
            history_bytes: history.bytes,
            at_right: edge(|r| u32::from(r.x) + u32::from(r.width), area.width),
            at_bottom: edge(|r| u32::from(r.y) + u32::from(r.height), area.height),
            values: Vec::new(),
            detail,
            input_off: p.input_off,
            marked: self.marked() == Some(pane),
            marked_set: self.marked().is_some(),
            window_linked_sessions: {
                let names: Vec<String> = self.links_of(w.id).map(|(h, _)| h.name.clone()).collect();
                if names.len() > 1 { names } else { Vec::new() }
            },
            window_linked: self.links_of(w.id).count() != self.group_of(s).len().max(1),
            mode: p
                .held_mode
                .as_deref()
                .and_then(fugue_verbs::pane_modes::mode_name)
                .or_else(|| {
                    // Two clients in different modes over one pane: the first client's.
                    self.shown_modes
                        .iter()
                        .filter(|(_, (shown, _))| *shown == pane)
                        .min_by_key(|(client, _)| **client)
                        .map(|(_, (_, m))| *m)
                })
                .map(String::from),
        })
    }

    /// Panes of one window, in reading order, in its best session.
    pub fn window_pane_infos(&self, w: &Window) -> Vec<PaneInfo> {
        match self
            .session_of_window(w.id)
            .and_then(|s| Some((s, *s.link(w.id)?)))
        {
            Some((s, link)) => self.link_pane_infos(s, link),
            None => Vec::new(),
        }
    }

    /// Panes of the window at one link of `s`, in reading order.
    pub fn link_pane_infos(&self, s: &Session, link: Winlink) -> Vec<PaneInfo> {
        self.window(link.id)
            .map(|w| w.layout.panes())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|p| self.pane_info_at(p, s, link))
            .collect()
    }

    /// Panes of every window of `s`, a window linked twice twice.
    pub fn session_pane_infos(&self, s: &Session) -> Vec<PaneInfo> {
        s.windows
            .iter()
            .flat_map(|l| self.link_pane_infos(s, *l))
            .collect()
    }

    /// Panes of every session, as `list-panes -a` gives them: sessions in name
    /// order, as tmux keeps them.
    pub fn all_pane_infos(&self) -> Vec<PaneInfo> {
        let mut sessions: Vec<&Session> = self.sessions.iter().collect();
        sessions.sort_by(|a, b| a.name.cmp(&b.name));
        sessions
            .into_iter()
            .flat_map(|s| self.session_pane_infos(s))
            .collect()
    }

    pub fn session_info(&self, s: &Session, attached: u32) -> SessionInfo {
        SessionInfo {
            id: s.id,
            name: s.name.clone(),
            windows: s.windows.len() as u32,
            created: s
                .created
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            attached,
            width: s.size.0,
            height: s.size.1,
            marked: self
                .marked()
                .and_then(|p| self.locate(p))
                .is_some_and(|(sid, _)| sid == s.id),
            group: s.group.clone(),
            group_members: self.group_of(s).iter().map(|m| m.name.clone()).collect(),
        }
    }

    /// Every link of window `id`, with its session.
    fn links_of(&self, id: WindowId) -> impl Iterator<Item = (&Session, &Winlink)> {
        self.sessions.iter().flat_map(move |h| {
            h.windows
                .iter()
                .filter(move |l| l.id == id)
                .map(move |l| (h, l))
        })
    }

    /// The sessions of `s`'s group, in the order they joined it (none when it is in
    /// no group).
    pub fn group_of(&self, s: &Session) -> Vec<&Session> {
        match &s.group {
            Some(g) => self
                .sessions
                .iter()
                .filter(|m| m.group.as_ref() == Some(g))
                .collect(),
            None => Vec::new(),
        }
    }

    /// What a client attached to `session` should draw.
    pub fn client_view(&self, session: SessionId) -> Option<ClientView> {
        let s = self.session(session)?;
        let w = self.window(s.active)?;
        let current = s.current().copied();
        let windows = s
            .windows
            .iter()
            .filter_map(|l| Some((l, self.window(l.id)?)))
            .map(|(l, win)| WindowTab {
                index: l.index,
                name: self.window_name(win),
                active: Some(*l) == current,
                last: Some(win.id) == s.last_window,
                zoomed: win.zoomed,
                activity: self.activity.contains(&win.id),
                bell: self.bells.contains(&win.id),
                silence: self.silence.contains(&win.id),
                marked: self.marked().is_some_and(|p| win.layout.contains(p)),
            })
            .collect();
        let mut rects = Vec::new();
        let mut panes = Vec::new();
        let order = w.layout.panes();
        let (area, frame) = (w.shown_area(s.area()), self.frame(w.id));
        for (id, tile) in w.visible(area, frame) {
            let r = match frame.borders {
                Borders::Boxed => tile,
                Borders::Shared => frame.content(tile, area),
            };
            let Some(p) = self.panes.get(&id) else {
                continue;
            };
            let seen = p.shared.foreground_seen();
            rects.push(PaneRect {
                pane: id,
                x: r.x,
                y: r.y,
                width: r.width,
                height: r.height,
                title: p.display_title(),
                active: id == w.active,
                exit_status: p.exit_status,
                // An exited pane's border says so already.
                badge: p.badge.clone().filter(|_| p.exit_status.is_none()),
                index: (order.iter().position(|x| *x == id).unwrap_or(0) as u32)
                    .saturating_add(self.pane_base_index),
                command: seen.as_ref().map(|s| s.0.clone()).unwrap_or_default(),
                path: seen
                    .and_then(|s| s.1)
                    .or_else(|| p.cwd.clone())
                    .map(|c| c.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                pid: p.pty.pid(),
                border_style: String::new(),
                active_border_style: String::new(),
                border_text: String::new(),
            });
            panes.push((id, Arc::clone(&p.shared)));
        }
        let popup = self
            .popups
            .get(&session)
            .and_then(|pp| Some((pp, self.panes.get(&pp.pane)?)))
            .map(|(pp, p)| {
                panes.push((pp.pane, Arc::clone(&p.shared)));
                fugue_protocol::popup::PopupRect {
                    pane: pp.pane,
                    x: pp.x,
                    y: pp.y,
                    width: pp.width,
                    height: pp.height,
                    title: pp.title.clone(),
                    border: pp.border,
                    exited: pp.exited,
                }
            });
        Some(ClientView {
            layout: ClientLayout {
                popup,
                session: s.id,
                session_name: s.name.clone(),
                windows,
                panes: rects,
                cols: area.width,
                rows: area.height,
                // The window's words are filled in by `dispatch::borders`, which reads
                // the options.
                shared_borders: (frame.borders == Borders::Shared).then(Box::default),
            },
            panes,
        })
    }
}
