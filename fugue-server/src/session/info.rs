//! Descriptions of the tree for `list-*` commands and for attached clients.

use super::tree::{Session, Tree, Window};
use crate::pane::PaneShared;
use fugue_protocol::screen::{ClientLayout, PaneRect, WindowTab};
use fugue_protocol::{PaneId, PaneInfo, SessionId, SessionInfo};
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

    pub fn pane_info(&self, pane: PaneId) -> Option<PaneInfo> {
        let p = self.panes.get(&pane)?;
        let s = self.session_of_window(p.window)?;
        let w = s.window(p.window)?;
        let index = (w
            .layout
            .panes()
            .iter()
            .position(|x| *x == pane)
            .unwrap_or(0) as u32)
            .saturating_add(self.pane_base_index);
        let area = w.area(s.area());
        // Where the pane is drawn: tmux's pane_left/pane_top (a zoomed window's
        // hidden panes keep their place in the layout).
        let rect = w
            .visible(area)
            .into_iter()
            .chain(w.layout.geometry(area))
            .find(|(id, _)| *id == pane)
            .map(|(_, r)| r);
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
            .geometry(area)
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
            window_index: w.index,
            window_name: self.window_name(w),
            window_id: w.id,
            window_active: s.active == w.id,
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
            window_layout: w.layout.tmux_string(area),
            history_limit: history.limit,
            history_size: history.size,
            history_bytes: history.bytes,
            at_right: edge(|r| u32::from(r.x) + u32::from(r.width), area.width),
            at_bottom: edge(|r| u32::from(r.y) + u32::from(r.height), area.height),
            detail,
            input_off: p.input_off,
            marked: self.marked() == Some(pane),
            marked_set: self.marked().is_some(),
        })
    }

    /// Panes of one window, in reading order.
    pub fn window_pane_infos(&self, w: &Window) -> Vec<PaneInfo> {
        w.layout
            .panes()
            .into_iter()
            .filter_map(|p| self.pane_info(p))
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
        }
    }

    /// What a client attached to `session` should draw.
    pub fn client_view(&self, session: SessionId) -> Option<ClientView> {
        let s = self.session(session)?;
        let w = s.active_window()?;
        let windows = s
            .windows
            .iter()
            .map(|win| WindowTab {
                index: win.index,
                name: self.window_name(win),
                active: win.id == s.active,
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
        for (id, r) in w.visible(w.area(s.area())) {
            let Some(p) = self.panes.get(&id) else {
                continue;
            };
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
                cols: w.area(s.area()).width,
                rows: w.area(s.area()).height,
            },
            panes,
        })
    }
}
