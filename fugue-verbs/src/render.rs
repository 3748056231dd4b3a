//! A successful answer as the verb prints it, as text: tmux's default lines, `-F`
//! formats, option and buffer lines. The one renderer for the CLI (which adds what
//! needs the caller's terminal or files: JSON, `save-buffer`, agent and restore
//! tables) and the MCP `tmux` tool, which runs verbs in the server.

use crate::{BufferPrinter, OptionPrinter, Printer};
use fugue_protocol::format;
use fugue_protocol::format::local::snapshot;
use fugue_protocol::{BufferInfo, PaneInfo, Response, SessionId, SessionInfo, WindowId};

/// `fmt` for each pane of `list` (list-panes -F), with `sessions` for the session
/// variables.
pub fn pane_lines(fmt: &str, list: &[PaneInfo], sessions: &[SessionInfo]) -> Vec<String> {
    filtered_pane_lines(fmt, None, list, sessions)
}

/// Whether an item stays in a listing: tmux's `-f` keeps those for which the filter,
/// expanded in the item's scope, is true (neither empty nor `0`); no filter keeps all.
fn kept(filter: Option<&str>, ctx: &dyn format::FormatContext) -> bool {
    filter.is_none_or(|f| format::is_true(&format::expand(f, ctx)))
}

/// [`pane_lines`] of the panes `filter` (list-panes -f) leaves in.
pub fn filtered_pane_lines(
    fmt: &str,
    filter: Option<&str>,
    list: &[PaneInfo],
    sessions: &[SessionInfo],
) -> Vec<String> {
    let snap = snapshot(sessions.to_vec(), list.to_vec(), Vec::new());
    // By row: a pane of a window linked into two sessions has a row for each.
    (0..list.len())
        .map(|row| snap.pane_row(row))
        .filter(|ctx| kept(filter, ctx))
        .map(|ctx| format::expand(fmt, &ctx))
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

/// `fmt` for each session of `list` (list-sessions -F) that `filter` (-f) leaves in.
pub fn session_lines(fmt: &str, filter: Option<&str>, list: &[SessionInfo]) -> Vec<String> {
    session_lines_with(fmt, filter, list, Vec::new())
}

/// [`session_lines`] with the panes, for a format that names window or pane
/// variables (tmux gives a session's line its active window's and pane's).
pub fn session_lines_with(
    fmt: &str,
    filter: Option<&str>,
    list: &[SessionInfo],
    panes: Vec<PaneInfo>,
) -> Vec<String> {
    let snap = snapshot(list.to_vec(), panes, Vec::new());
    list.iter()
        .map(|s| snap.session(s.id))
        .filter(|ctx| kept(filter, ctx))
        .map(|ctx| format::expand(fmt, &ctx))
        .collect()
}

/// `fmt` for each window of `panes`, in order (list-windows -F), that `filter` (-f)
/// leaves in.
pub fn window_lines(
    fmt: &str,
    filter: Option<&str>,
    panes: &[PaneInfo],
    windows: &[Winlink],
    sessions: &[SessionInfo],
) -> Vec<String> {
    let snap = snapshot(sessions.to_vec(), panes.to_vec(), Vec::new());
    windows
        .iter()
        .map(|w| snap.winlink(w.0, w.1, w.2))
        .filter(|ctx| kept(filter, ctx))
        .map(|ctx| format::expand(fmt, &ctx))
        .collect()
}

/// A window where a session holds it: (session, window, index).
pub type Winlink = (SessionId, WindowId, u32);

/// The windows of a pane listing, in the order their panes come (sessions, then
/// windows), each link once (a window linked into two sessions is listed in both,
/// as tmux's `list-windows -a` does): `list-windows` needs no Command of its own.
pub fn window_ids(list: &[PaneInfo]) -> Vec<Winlink> {
    let mut out: Vec<Winlink> = Vec::new();
    for p in list {
        let link = (p.session_id, p.window_id, p.window_index);
        if out.last() != Some(&link) {
            out.push(link);
        }
    }
    out
}

/// `fmt` for each paste buffer (list-buffers -F) that `filter` (-f) leaves in.
pub fn buffer_lines(fmt: &str, filter: Option<&str>, list: &[BufferInfo]) -> Vec<String> {
    let snap = snapshot(Vec::new(), Vec::new(), list.to_vec());
    (0..list.len())
        .map(|i| snap.buffer(i))
        .filter(|ctx| kept(filter, ctx))
        .map(|ctx| format::expand(fmt, &ctx))
        .collect()
}

/// tmux's default `list-buffers` format ([`buffer_default_line`] writes the same).
const DEFAULT_BUFFER_LINE: &str = "#{buffer_name}: #{buffer_size} bytes: \"#{buffer_sample}\"";

/// A buffer as `list-buffers` prints it by default (also `C-b #` in the client).
pub fn buffer_default_line(b: &BufferInfo) -> String {
    format!("{}: {} bytes: \"{}\"", b.name, b.size, b.sample)
}

/// `display-message -p`: the message expanded for the pane, through strftime first as
/// tmux's display-message does.
pub fn message_line(fmt: &str, p: &PaneInfo, sessions: &[SessionInfo]) -> String {
    let snap = snapshot(sessions.to_vec(), vec![p.clone()], Vec::new());
    format::expand_time(fmt, &snap.pane(p.id))
}

/// Whether the printer needs every session (for the session variables of pane and
/// window lines).
pub fn needs_sessions(printer: &Printer) -> bool {
    matches!(
        printer,
        Printer::Pane(_) | Printer::Panes { .. } | Printer::Windows { .. }
    )
}

/// The answer's text, or `None` when it is not plain text this renderer makes (JSON,
/// a file to save, an agent or restore table: the CLI's own). `Err` when the answer
/// cannot be shown (a `display-message` of a pane the caller may not see).
pub fn text(
    printer: &Printer,
    resp: &Response,
    sessions: &[SessionInfo],
) -> Option<Result<String, String>> {
    let lines = |v: Vec<String>| {
        let mut s = String::new();
        for l in v {
            s.push_str(&l);
            s.push('\n');
        }
        s
    };
    Some(Ok(match (printer, resp) {
        (Printer::Pane(f), Response::Panes(list)) => match list.first() {
            Some(p) => lines(vec![message_line(f, p, sessions)]),
            None => return Some(Err("no such pane (or not one this caller may see)".into())),
        },
        (
            Printer::Sessions {
                json: false,
                format,
                filter,
            },
            Response::Sessions(list),
        ) => lines(session_lines(format, filter.as_deref(), list)),
        (
            Printer::Windows {
                format,
                filter,
                json: false,
                ..
            },
            Response::Panes(list),
        ) => lines(window_lines(
            format,
            filter.as_deref(),
            list,
            &window_ids(list),
            sessions,
        )),
        (
            Printer::Panes {
                format,
                filter,
                json: false,
            },
            Response::Panes(list),
        ) => lines(filtered_pane_lines(
            format,
            filter.as_deref(),
            list,
            sessions,
        )),
        (Printer::Captured | Printer::Answer, Response::Captured(text)) => text.clone(),
        (Printer::Answer, Response::PromptHistory(h)) => {
            fugue_protocol::admin::print_prompt_history(h)
        }
        // show-buffer: the text as it is.
        (Printer::Answer, Response::Buffer(b)) => b.data.clone(),
        (Printer::Answer, _) => String::new(),
        // tmux's `-p` ends what it prints with one newline (an empty capture, `-a -q`
        // with no alternate screen, is one empty line).
        (Printer::CapturedPane, Response::Captured(text)) if text.ends_with('\n') => text.clone(),
        (Printer::CapturedPane, Response::Captured(text)) => format!("{text}\n"),
        (Printer::Clients { format, filter }, Response::Clients(list)) => lines(client_lines(
            format,
            filter.as_deref(),
            list,
            sessions.to_vec(),
            Vec::new(),
        )),
        (Printer::Options(OptionPrinter::Lines { value_only }), Response::Options(list)) => lines(
            list.iter()
                .filter_map(|l| match (value_only, &l.value) {
                    (true, v) => v.clone(),
                    (false, _) => Some(l.line()),
                })
                .collect(),
        ),
        (
            Printer::Buffers(BufferPrinter::List {
                format,
                filter,
                json: false,
            }),
            Response::Buffers(list),
        ) => match (format, filter) {
            (Some(f), _) => lines(buffer_lines(f, filter.as_deref(), list)),
            (None, None) => lines(list.iter().map(buffer_default_line).collect()),
            (None, Some(_)) => lines(buffer_lines(DEFAULT_BUFFER_LINE, filter.as_deref(), list)),
        },
        (Printer::Json(false), Response::Read(t)) => lines(vec![t.text.clone()]),
        // `send-keys -P`: the cursor for `wait-for --after`.
        (Printer::Json(false), Response::Sent(s)) => lines(vec![s.cursor.to_string()]),
        (Printer::Json(false), Response::Waited(w)) => match (&w.line, w.exit_status, w.state) {
            (Some(line), _, _) => lines(vec![line.clone()]),
            (None, _, Some(state)) => lines(vec![state.to_string()]),
            (None, Some(status), None) => lines(vec![format!("exited {status}")]),
            (None, None, None) => String::new(),
        },
        (Printer::Json(false), Response::Ran(r)) if !r.output.is_empty() => {
            lines(vec![r.output.clone()])
        }
        (Printer::Json(false), Response::Found(f)) => {
            let mut v: Vec<String> = f
                .matches
                .iter()
                .map(|m| format!("{}:{}: {}", m.pane, m.line, m.text))
                .collect();
            if let Some(next) = f.next_offset {
                v.push(format!(
                    "... {} matches in all; more with --offset {next}",
                    f.total
                ));
            }
            lines(v)
        }
        // Verbs that print nothing in tmux (set-buffer, set-option, new-session -d).
        (Printer::Nothing | Printer::Quiet, _)
        | (Printer::Buffers(BufferPrinter::Nothing), _)
        | (Printer::Options(OptionPrinter::Nothing), _)
        | (Printer::Created { print: false, .. }, _)
        // `new-window -S` that found its window: tmux prints nothing.
        | (Printer::Created { .. }, Response::Done) => String::new(),
        (Printer::Json(false), _) => String::new(),
        _ => return None,
    }))
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
            values: Vec::new(),
            detail: Default::default(),
            input_off: false,
            marked: false,
            marked_set: false,
            window_linked_sessions: Vec::new(),
            window_linked: false,
            mode: None,
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
            None,
            &list,
            &window_ids(&list),
            &[],
        );
        assert_eq!(w, ["0:2:[%1]%2", "1:1:[%3]"]);
        assert_eq!(pane_lines("#{W:#W#F }", &list[..1], &[]), ["w0* "]);
    }

    /// A window linked into a second session (`link-window`) and again at another
    /// index of the first is listed once per link, each line with its own session
    /// and index, as tmux's `list-windows -a` and `list-panes -a` print it.
    #[test]
    fn a_linked_window_is_a_line_for_each_link() {
        let home = pane(1, 0, 0, true);
        let again = PaneInfo {
            window_index: 5,
            window_active: false,
            ..home.clone()
        };
        let guest = PaneInfo {
            session: "g".into(),
            session_id: SessionId(2),
            window_index: 3,
            ..home.clone()
        };
        let list = [home, again, guest];
        let fmt = "#{session_id}:#{window_index} #{window_id} #{window_panes} #{pane_id}";
        let want = ["$1:0 @0 1 %1", "$1:5 @0 1 %1", "$2:3 @0 1 %1"];
        assert_eq!(pane_lines(fmt, &list, &[]), want);
        assert_eq!(
            window_lines(fmt, None, &list, &window_ids(&list), &[]),
            want
        );
        assert_eq!(pane_lines("#{W:#{window_index} }", &list, &[])[0], "0 5 ");
    }

    #[test]
    fn the_default_line_is_tmuxs_format() {
        let b = fugue_protocol::BufferInfo {
            name: "buffer0".into(),
            size: 5,
            created: 1,
            automatic: true,
            sample: "hello".into(),
            head: "hello".into(),
        };
        assert_eq!(
            buffer_lines(DEFAULT_BUFFER_LINE, None, std::slice::from_ref(&b))[0],
            buffer_default_line(&b)
        );
    }
}
