//! Closing what you made: under `[policy] close_own` (the default) an agent may close
//! the panes and windows it created, and those its panes created in turn, without the
//! destroy tier. Everything else still needs the tier: a person's panes, another
//! agent's, a session, the server.
//!
//! "Made by" follows each pane's creator, as scope "own" does, except that a pane a
//! person made is never the agent's, whoever's pane it was made from.

use super::scope::{identity, window_panes};
use crate::origin::Origin;
use crate::session::Tree;
use crate::session::resolve::Context;
use crate::session::tree::Creator;
use fugue_protocol::cmd;
use fugue_protocol::{Command, PaneId};
use std::collections::{HashMap, HashSet};

/// The panes `origin`'s agent created and their descendants; never its own pane.
pub fn made_by(tree: &Tree, origin: &Origin) -> HashSet<PaneId> {
    let (connection, me) = identity(tree, origin);
    let mut children: HashMap<PaneId, Vec<PaneId>> = HashMap::new();
    let mut mine: HashSet<PaneId> = HashSet::new();
    for (id, p) in &tree.panes {
        if matches!(p.creator, Creator::Person { .. } | Creator::Server) {
            continue;
        }
        if let Some(parent) = p.creator.pane() {
            children.entry(parent).or_default().push(*id);
        }
        let by_me = match &p.creator {
            Creator::Mcp { connection: c, .. } if connection.is_some() => Some(*c) == connection,
            c => me.is_some() && c.pane() == me,
        };
        if by_me {
            mine.insert(*id);
        }
    }
    let mut todo: Vec<PaneId> = mine.iter().copied().collect();
    while let Some(p) = todo.pop() {
        for c in children.get(&p).into_iter().flatten() {
            if mine.insert(*c) {
                todo.push(*c);
            }
        }
    }
    if let Some(me) = me {
        mine.remove(&me);
    }
    mine
}

/// Whether `command` closes only panes `origin`'s agent made: a pane it made, or a
/// window whose every pane it made.
pub fn closes_only_its_own(tree: &Tree, ctx: &Context, origin: &Origin, command: &Command) -> bool {
    if !origin.is_agent() {
        return false;
    }
    let panes: Vec<PaneId> = match command {
        Command::KillPane(cmd::KillPane { target }) => {
            match tree.resolve_pane(target.as_ref(), ctx) {
                Ok(p) => vec![p],
                Err(_) => return false,
            }
        }
        Command::KillWindow(cmd::KillWindow { target }) => {
            match tree.resolve_window(target.as_ref(), ctx) {
                Ok((_, w)) => window_panes(tree, w),
                Err(_) => return false,
            }
        }
        _ => return false,
    };
    if panes.is_empty() {
        return false;
    }
    let mine = made_by(tree, origin);
    panes.iter().all(|p| mine.contains(p))
}

/// The commands `close_own` can allow without the destroy tier.
pub fn may_close_own(command_name: &str) -> bool {
    matches!(command_name, "kill-pane" | "kill-window")
}
