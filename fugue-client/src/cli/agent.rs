//! How `fugue agent ...` and `fugue report` show their answers.

use fugue_protocol::{AgentState, MessageOutcome, MessageStatus, PaneInfo, Response};
use fugue_verbs::AgentPrinter;
use std::io::Write;

fn status(o: &MessageOutcome) -> &'static str {
    match o.status {
        MessageStatus::Queued => "queued",
        MessageStatus::Delivered => "delivered",
        MessageStatus::Timeout => "timeout",
        MessageStatus::Failed => "failed",
    }
}

fn agents(list: &[PaneInfo]) -> Vec<&PaneInfo> {
    list.iter().filter(|p| p.agent.is_some()).collect()
}

pub fn print(out: &mut impl Write, printer: &AgentPrinter, resp: &Response) -> anyhow::Result<()> {
    match (printer, resp) {
        (AgentPrinter::Spawned { json: true }, Response::AgentSpawned(a)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(a)?)?
        }
        (AgentPrinter::Spawned { json: false }, Response::AgentSpawned(a)) => {
            writeln!(out, "{}", a.pane)?
        }
        (AgentPrinter::Messages { json: true }, Response::Messages(m)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(m)?)?
        }
        (AgentPrinter::Messages { json: false }, Response::Messages(m)) => {
            for o in m {
                match &o.reason {
                    Some(r) => writeln!(out, "{}: {} ({r})", o.pane, status(o))?,
                    None => writeln!(out, "{}: {}", o.pane, status(o))?,
                }
            }
        }
        (AgentPrinter::Result { json: true }, Response::Result(r)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(r)?)?
        }
        (AgentPrinter::Result { json: false }, Response::Result(r)) => {
            writeln!(out, "{}", r.result)?
        }
        (AgentPrinter::Worktree { json: true }, Response::Worktree(w)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(w)?)?
        }
        (AgentPrinter::Worktree { json: false }, Response::Worktree(w)) => {
            let t = &w.worktree;
            writeln!(
                out,
                "{}: {} ({}, branch {})",
                w.pane, w.done, t.path, t.branch
            )?;
            writeln!(
                out,
                "{} uncommitted files, {} commits since {}",
                t.dirty_files,
                t.commits,
                t.base.get(..12).unwrap_or(&t.base)
            )?;
            if !w.choices.is_empty() {
                let c: Vec<String> = w
                    .choices
                    .iter()
                    .map(|c| {
                        format!(
                            "--{}",
                            serde_json::to_value(c)
                                .unwrap_or_default()
                                .as_str()
                                .unwrap_or("")
                        )
                    })
                    .collect();
                writeln!(
                    out,
                    "next: fugue agent worktree -t {} {}",
                    w.pane,
                    c.join(" | ")
                )?;
            }
        }
        (AgentPrinter::List { json: true }, Response::Panes(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(&agents(list))?)?
        }
        (AgentPrinter::List { json: false }, Response::Panes(list)) => {
            for p in agents(list) {
                let Some(a) = &p.agent else { continue };
                let mut state = match (a.state, a.exit_status) {
                    (AgentState::Exited, Some(c)) => format!("exited({c})"),
                    (s, _) => s.to_string(),
                };
                if a.restored_at_ms.is_some() {
                    state = format!("restored,{state}");
                }
                let worktree = a
                    .worktree
                    .as_ref()
                    .map(|w| {
                        let changed = if w.has_changes() { " (changes)" } else { "" };
                        format!(" branch={}{changed}", w.branch)
                    })
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{} {}:{}.{} {} {}{}{}{worktree}",
                    p.id,
                    p.session,
                    p.window_index,
                    p.index,
                    a.preset.as_deref().unwrap_or("-"),
                    state,
                    if a.tags.is_empty() {
                        String::new()
                    } else {
                        format!(" tags={}", a.tags.join(","))
                    },
                    if a.result_at_ms.is_some() {
                        " (result)"
                    } else {
                        ""
                    }
                )?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The exit code of an answer: a message not delivered is a failure.
pub fn exit_code(resp: &Response) -> i32 {
    match resp {
        Response::Messages(m)
            if m.iter()
                .any(|o| matches!(o.status, MessageStatus::Timeout | MessageStatus::Failed)) =>
        {
            1
        }
        _ => 0,
    }
}
