//! `list-windows`: the windows of a session (or of every session, `-a`), gathered from
//! the pane listing, so it needs no Command of its own.

use super::format::expand;
use fugue_protocol::PaneInfo;
use serde::Serialize;
use std::io::Write;

/// A window as `list-windows` shows it.
#[derive(Serialize)]
struct Window<'a> {
    session: &'a str,
    session_id: String,
    index: u32,
    name: &'a str,
    id: String,
    active: bool,
    panes: usize,
}

/// The variables `list-windows -F` knows.
pub const WINDOW_VARS: &[&str] = &[
    "window_index",
    "window_name",
    "window_id",
    "window_active",
    "window_panes",
    "session_name",
    "session_id",
];

/// The windows of `list`, in the order their panes come (sessions, then windows).
fn windows(list: &[PaneInfo]) -> Vec<Window<'_>> {
    let mut out: Vec<Window<'_>> = Vec::new();
    for p in list {
        match out.last_mut() {
            Some(w) if w.id == p.window_id.to_string() => w.panes += 1,
            _ => out.push(Window {
                session: &p.session,
                session_id: p.session_id.to_string(),
                index: p.window_index,
                name: &p.window_name,
                id: p.window_id.to_string(),
                active: p.window_active,
                panes: 1,
            }),
        }
    }
    out
}

fn var(w: &Window<'_>, name: &str) -> Option<String> {
    Some(match name {
        "window_index" => w.index.to_string(),
        "window_name" => w.name.to_string(),
        "window_id" => w.id.clone(),
        "window_active" => if w.active { "1" } else { "0" }.to_string(),
        "window_panes" => w.panes.to_string(),
        "session_name" => w.session.to_string(),
        "session_id" => w.session_id.clone(),
        _ => return None,
    })
}

/// Prints the windows of `list`: as JSON, in `format`, or as tmux's default line.
pub fn print(
    out: &mut impl Write,
    list: &[PaneInfo],
    format: Option<&str>,
    json: bool,
    all: bool,
) -> anyhow::Result<()> {
    let ws = windows(list);
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&ws)?)?;
        return Ok(());
    }
    for w in &ws {
        match format {
            Some(f) => writeln!(out, "{}", expand(f, |n| var(w, n), WINDOW_VARS)?)?,
            None => {
                let prefix = if all {
                    format!("{}:", w.session)
                } else {
                    String::new()
                };
                let s = if w.panes == 1 { "" } else { "s" };
                writeln!(
                    out,
                    "{prefix}{}: {}{} ({} pane{s}) {}{}",
                    w.index,
                    w.name,
                    if w.active { "*" } else { "" },
                    w.panes,
                    w.id,
                    if w.active { " (active)" } else { "" },
                )?;
            }
        }
    }
    Ok(())
}
