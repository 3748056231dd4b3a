//! How the CLI shows a successful answer: formats, JSON, tmux's default lines.

use super::format;
use anyhow::bail;
use fugue_protocol::Response;
use fugue_protocol::SessionInfo;
use fugue_verbs::Printer;
use std::io::Write;

/// `sessions`: every session, for the formats of pane and window lines (tmux's
/// `#{session_created}` and the rest); empty for other answers.
pub(super) fn print(
    out: &mut impl Write,
    printer: &Printer,
    resp: &Response,
    sessions: &[SessionInfo],
) -> anyhow::Result<()> {
    match (printer, resp) {
        (Printer::Pane(f), Response::Panes(list)) => {
            let Some(p) = list.first() else {
                bail!("no such pane (or not one this caller may see)");
            };
            writeln!(out, "{}", format::message_line(f, p, sessions))?;
        }
        (Printer::Sessions { json: true, .. }, Response::Sessions(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
        }
        (Printer::Sessions { format, .. }, Response::Sessions(list)) => {
            for line in format::session_lines(format, list) {
                writeln!(out, "{line}")?;
            }
        }
        (Printer::Windows { format, json, .. }, Response::Panes(list)) => {
            super::windows::print(out, list, format, *json, sessions)?
        }
        (Printer::Panes { json: true, .. }, Response::Panes(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
        }
        (Printer::Panes { format, .. }, Response::Panes(list)) => {
            for line in format::pane_lines(format, list, sessions) {
                writeln!(out, "{line}")?;
            }
        }
        // tmux's `-p` ends what it prints with one newline (an empty capture, `-a -q`
        // with no alternate screen, is one empty line).
        (Printer::Captured, Response::Captured(text)) => out.write_all(text.as_bytes())?,
        (Printer::CapturedPane, Response::Captured(text)) => {
            out.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                out.write_all(b"\n")?;
            }
        }
        (Printer::Agent(p), r) => super::agent::print(out, p, r)?,
        (Printer::Buffers(p), r) => super::buffers::print(out, p, r)?,
        (Printer::Options(p), r) => super::options::print(out, p, r)?,
        (Printer::Restore(p), r) => super::restore::print(out, p, r)?,
        (Printer::Json(true), r) => writeln!(out, "{}", answer_json(r)?)?,
        (Printer::Json(false), Response::Read(t)) => writeln!(out, "{}", t.text)?,
        // `send-keys -P`: the cursor for `wait-for --after`.
        (Printer::Json(false), Response::Sent(s)) => writeln!(out, "{}", s.cursor)?,
        (Printer::Json(false), Response::Waited(w)) => match (&w.line, w.exit_status, w.state) {
            (Some(line), _, _) => writeln!(out, "{line}")?,
            (None, _, Some(state)) => writeln!(out, "{state}")?,
            (None, Some(status), None) => writeln!(out, "exited {status}")?,
            (None, None, None) => {}
        },
        (Printer::Json(false), Response::Ran(r)) if !r.output.is_empty() => {
            writeln!(out, "{}", r.output)?
        }
        (Printer::Json(false), Response::Found(f)) => {
            for m in &f.matches {
                writeln!(out, "{}:{}: {}", m.pane, m.line, m.text)?;
            }
            if let Some(next) = f.next_offset {
                writeln!(
                    out,
                    "... {} matches in all; more with --offset {next}",
                    f.total
                )?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn answer_json(r: &Response) -> anyhow::Result<String> {
    Ok(match r {
        Response::Read(t) => serde_json::to_string_pretty(t)?,
        Response::Waited(w) => serde_json::to_string_pretty(w)?,
        Response::Ran(r) => serde_json::to_string_pretty(r)?,
        Response::Found(f) => serde_json::to_string_pretty(f)?,
        Response::Sent(s) => serde_json::to_string_pretty(s)?,
        other => serde_json::to_string_pretty(&format!("{other:?}"))?,
    })
}
