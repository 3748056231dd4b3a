//! How the CLI shows a successful answer: formats, JSON, tmux's default lines.

use super::format;
use anyhow::bail;
use fugue_protocol::Response;
use std::io::Write;

/// How to show a successful answer.
pub(super) enum Printer {
    Nothing,
    /// Print nothing, and fail without a message (has-session).
    Quiet,
    /// The one pane of a `PaneScope::Pane` listing, in this format.
    Pane(String),
    Created {
        print: bool,
        format: Option<String>,
        attach: bool,
    },
    Sessions {
        format: Option<String>,
        json: bool,
    },
    Panes {
        format: Option<String>,
        json: bool,
        all: bool,
    },
    Windows {
        format: Option<String>,
        json: bool,
        all: bool,
    },
    Captured,
    /// Text for people, or the whole answer as JSON.
    Json(bool),
    Agent(super::agent::AgentPrinter),
    Buffers(super::buffers::BufferPrinter),
    Options(super::options::OptionPrinter),
    Restore(super::restore::RestorePrinter),
}

impl Printer {
    /// Refuses a bad `-F` before the verb runs. tmux refuses no format (a malformed
    /// one ends where it breaks, an unknown variable is empty), so neither does fugue
    /// any more; kept as the place a verb's other output checks would go.
    pub(super) fn validate(&self) -> anyhow::Result<()> {
        Ok(())
    }
}

pub(super) fn print(
    out: &mut impl Write,
    printer: &Printer,
    resp: &Response,
) -> anyhow::Result<()> {
    match (printer, resp) {
        (Printer::Pane(f), Response::Panes(list)) => {
            let Some(p) = list.first() else {
                bail!("no such pane (or not one this caller may see)");
            };
            writeln!(out, "{}", format::message_line(f, p))?;
        }
        (Printer::Sessions { format, json }, Response::Sessions(list)) => {
            if *json {
                writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
            }
            let lines = format.as_deref().map(|f| format::session_lines(f, list));
            for (i, s) in list.iter().enumerate().filter(|_| !*json) {
                match &lines {
                    Some(l) => writeln!(out, "{}", l.get(i).map_or("", String::as_str))?,
                    None => writeln!(
                        out,
                        "{}: {} windows [{}x{}]{}",
                        s.name,
                        s.windows,
                        s.width,
                        s.height,
                        if s.attached > 0 { " (attached)" } else { "" }
                    )?,
                }
            }
        }
        (Printer::Windows { format, json, all }, Response::Panes(list)) => {
            super::windows::print(out, list, format.as_deref(), *json, *all)?
        }
        (Printer::Panes { format, json, all }, Response::Panes(list)) => {
            if *json {
                writeln!(out, "{}", serde_json::to_string_pretty(list)?)?;
            }
            let lines = format.as_deref().map(|f| format::pane_lines(f, list));
            for (i, p) in list.iter().enumerate().filter(|_| !*json) {
                match &lines {
                    Some(l) => writeln!(out, "{}", l.get(i).map_or("", String::as_str))?,
                    None => {
                        let prefix = if *all {
                            format!("{}:{}.", p.session, p.window_index)
                        } else {
                            String::new()
                        };
                        writeln!(
                            out,
                            "{prefix}{}: [{}x{}] {} {}{}{}",
                            p.index,
                            p.width,
                            p.height,
                            p.id,
                            p.command,
                            if p.active { " (active)" } else { "" },
                            p.exit_status
                                .map(|s| format!(" (dead: {s})"))
                                .unwrap_or_default()
                        )?
                    }
                }
            }
        }
        (Printer::Captured, Response::Captured(text)) => out.write_all(text.as_bytes())?,
        (Printer::Agent(p), r) => super::agent::print(out, p, r)?,
        (Printer::Buffers(p), r) => super::buffers::print(out, p, r)?,
        (Printer::Options(p), r) => super::options::print(out, p, r)?,
        (Printer::Restore(p), r) => super::restore::print(out, p, r)?,
        (Printer::Json(true), r) => writeln!(out, "{}", answer_json(r)?)?,
        (Printer::Json(false), Response::Read(t)) => writeln!(out, "{}", t.text)?,
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
