//! `-F` formats: the CLI's side of the one format engine
//! (`fugue_protocol::format`, docs/formats.md). The answers of list verbs become a
//! [`Snapshot`](fugue_protocol::format::vars::Snapshot); each line is the format expanded in one object's scope. As in tmux, a
//! format is never refused: unknown variables are empty.

use crate::connection::Connection;
use anyhow::bail;
use fugue_protocol::format::{self, FormatContext};
use fugue_protocol::{
    BufferInfo, Command, Created, PaneInfo, PaneScope, Response, SessionInfo, Target, WindowId,
};

pub use fugue_protocol::format::local::{host, now, utc_offset};

/// The protocol's snapshot with the server's own variables (`pid`, `socket_path`)
/// as its handshake said them.
pub fn snapshot(
    sessions: Vec<SessionInfo>,
    panes: Vec<PaneInfo>,
    buffers: Vec<BufferInfo>,
) -> fugue_protocol::format::vars::Snapshot {
    let mut snap = fugue_protocol::format::local::snapshot(sessions, panes, buffers);
    if let Some(s) = crate::connection::SERVER.get() {
        snap.globals.insert("pid".into(), s.pid.to_string());
        snap.globals.insert("socket_path".into(), s.socket.clone());
    }
    snap
}

/// `fmt` for each pane of `list` (list-panes -F), with `sessions` for the session
/// variables.
pub fn pane_lines(fmt: &str, list: &[PaneInfo], sessions: &[SessionInfo]) -> Vec<String> {
    let snap = snapshot(sessions.to_vec(), list.to_vec(), Vec::new());
    list.iter()
        .map(|p| format::expand(fmt, &snap.pane(p.id)))
        .collect()
}

/// `fmt` for each client of `list` (list-clients -F), those `filter` (a format)
/// leaves in, in its session's scope (`sessions` and `panes` give that scope its
/// variables).
pub fn client_lines(
    fmt: &str,
    filter: Option<&str>,
    list: &[fugue_protocol::ClientInfo],
    sessions: Vec<SessionInfo>,
    panes: Vec<PaneInfo>,
) -> Vec<String> {
    let mut snap = snapshot(sessions, panes, Vec::new());
    snap.clients = list.to_vec();
    (0..list.len())
        .filter(|i| filter.is_none_or(|f| format::is_true(&format::expand(f, &snap.client(*i)))))
        .map(|i| format::expand(fmt, &snap.client(i)))
        .collect()
}

/// `fmt` for each session of `list` (list-sessions -F).
pub fn session_lines(fmt: &str, list: &[SessionInfo]) -> Vec<String> {
    session_lines_with(fmt, list, Vec::new())
}

/// [`session_lines`] with the panes, for a format that names window or pane
/// variables (tmux gives a session's line its active window's and pane's).
pub fn session_lines_with(fmt: &str, list: &[SessionInfo], panes: Vec<PaneInfo>) -> Vec<String> {
    let snap = snapshot(list.to_vec(), panes, Vec::new());
    list.iter()
        .map(|s| format::expand(fmt, &snap.session(s.id)))
        .collect()
}

/// `fmt` for each window of `panes`, in order (list-windows -F).
pub fn window_lines(
    fmt: &str,
    panes: &[PaneInfo],
    windows: &[WindowId],
    sessions: &[SessionInfo],
) -> Vec<String> {
    let snap = snapshot(sessions.to_vec(), panes.to_vec(), Vec::new());
    windows
        .iter()
        .map(|w| format::expand(fmt, &snap.window(*w)))
        .collect()
}

/// `fmt` for each paste buffer (list-buffers -F).
pub fn buffer_lines(fmt: &str, list: &[BufferInfo]) -> Vec<String> {
    let snap = snapshot(Vec::new(), Vec::new(), list.to_vec());
    (0..list.len())
        .map(|i| format::expand(fmt, &snap.buffer(i)))
        .collect()
}

/// `display-message -p`: the message expanded for the pane, through strftime first as
/// tmux's display-message does.
pub fn message_line(fmt: &str, p: &PaneInfo, sessions: &[SessionInfo]) -> String {
    let snap = snapshot(sessions.to_vec(), vec![p.clone()], Vec::new());
    format::expand_time(fmt, &snap.pane(p.id))
}

/// A context of one lookup function (titles).
pub struct Lookup<F: Fn(&str) -> Option<String>>(pub F);

impl<F: Fn(&str) -> Option<String>> FormatContext for Lookup<F> {
    fn var(&self, name: &str) -> Option<String> {
        (self.0)(name)
    }
    fn now(&self) -> i64 {
        now()
    }
    fn utc_offset(&self, at: i64) -> i64 {
        utc_offset(at)
    }
}

/// Prints what `-P` asks for: the new pane in `-F`, read back from the server since the
/// answer holds only ids.
pub async fn created_line(
    conn: &mut Connection,
    c: &Created,
    fmt: Option<&str>,
) -> anyhow::Result<String> {
    let Some(fmt) = fmt else {
        return Ok(c.pane.to_string());
    };
    let list = match conn
        .call(Command::ListPanes {
            target: Some(Target::Pane(c.pane)),
            scope: PaneScope::Pane,
        })
        .await?
    {
        Ok(Response::Panes(list)) => list,
        Ok(other) => bail!("unexpected answer to list-panes: {other:?}"),
        Err(e) => bail!(
            "{} was created, but -F could not read it back: {}",
            c.pane,
            e.display_with_suggestion()
        ),
    };
    if list.is_empty() {
        bail!("{} was created, but it is gone already", c.pane);
    }
    let sessions = match conn.call(Command::ListSessions).await? {
        Ok(Response::Sessions(s)) => s,
        _ => Vec::new(),
    };
    Ok(pane_lines(fmt, &list, &sessions)
        .into_iter()
        .next()
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::{PaneId, SessionId};

    fn pane(id: u32, window: u32, index: u32, active: bool) -> PaneInfo {
        PaneInfo {
            id: PaneId(id),
            session: "s".into(),
            session_id: SessionId(1),
            window_index: window,
            window_name: format!("w{window}"),
            window_id: WindowId(window),
            window_active: window == 0,
            index,
            title: "t".into(),
            command: "sh".into(),
            pid: None,
            cwd: Some("/home/u/src".into()),
            width: 40,
            height: 24,
            active,
            alive: true,
            exit_status: None,
            alternate_screen: false,
            cursor_row: 0,
            cursor_col: 0,
            sideband: false,
            created_by: "person".into(),
            parent: None,
            agent: None,
            left: 41 * index as u16,
            top: 0,
            window_width: 81,
            window_height: 24,
            window_zoomed: false,
            window_last: window == 1,
            window_bell: false,
            start_command: String::new(),
            tty: None,
            window_activity_flag: false,
            window_silence: false,
            window_activity: 0,
            window_layout: String::new(),
            history_limit: 2000,
            history_size: 0,
            history_bytes: 0,
            at_right: false,
            at_bottom: false,
        }
    }

    /// Unknown names are empty now, as in tmux (fugue used to refuse them).
    #[test]
    fn lines_expand_tmux_variables_and_unknown_names_are_empty() {
        let list = [
            pane(1, 0, 0, true),
            pane(2, 0, 1, false),
            pane(3, 1, 0, true),
        ];
        let lines = pane_lines(
            "#S:#I.#P #{pane_left},#{pane_right} #{b:pane_current_path}#{nope} #F",
            &list,
            &[],
        );
        assert_eq!(
            lines,
            ["s:0.0 0,39 src *", "s:0.1 41,80 src *", "s:1.0 0,39 src -"]
        );
        let w = window_lines(
            "#{window_index}:#{window_panes}:#{P:#D,[#D]}",
            &list,
            &[WindowId(0), WindowId(1)],
            &[],
        );
        assert_eq!(w, ["0:2:[%1]%2", "1:1:[%3]"]);
        assert_eq!(pane_lines("#{W:#W#F }", &list[..1], &[]), ["w0* "]);
    }
}
