//! `list-windows`: the windows of a session (or of every session, `-a`), gathered from
//! the pane listing, so it needs no Command of its own.

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

/// Prints the windows of `list` as JSON (their text lines are
/// `fugue_verbs::render`'s).
pub fn print_json(out: &mut impl Write, list: &[PaneInfo]) -> anyhow::Result<()> {
    writeln!(out, "{}", serde_json::to_string_pretty(&windows(list))?)?;
    Ok(())
}
