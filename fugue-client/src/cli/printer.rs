//! How the CLI shows a successful answer: formats, JSON, tmux's default lines.

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
    if let Some(text) = fugue_verbs::render::text(printer, resp, sessions) {
        match text {
            Ok(t) => out.write_all(t.as_bytes())?,
            Err(e) => bail!("{e}"),
        }
        return Ok(());
    }
    // What needs the caller's files, or is JSON.
    match (printer, resp) {
        (Printer::Sessions { json: true, .. }, Response::Sessions(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
        }
        (Printer::Windows { json: true, .. }, Response::Panes(list)) => {
            super::windows::print_json(out, list)?
        }
        (Printer::Panes { json: true, .. }, Response::Panes(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
        }
        (Printer::Agent(p), r) => super::agent::print(out, p, r)?,
        (Printer::Buffers(p), r) => super::buffers::print(out, p, r)?,
        (Printer::Restore(p), r) => super::restore::print(out, p, r)?,
        (Printer::Json(true), r) => writeln!(out, "{}", answer_json(r)?)?,
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
