//! Which panes an agent may see and control.
//!
//! With `[policy] mcp_scope` (or `sideband_scope`) = "own", an agent sees and controls
//! only its own pane, the panes it created, and their descendants (lineage through
//! each pane's creator). Lists and searches leave other panes out; a command naming
//! one is refused with `forbidden`. Separately, the first pane of a session a person
//! made is protected from agents (`[policy] protect_first_pane`): they may not type
//! into it, close it or kill it.

use super::observe::target_or_cursor;
use crate::agents::Lineage;
use crate::config::{Config, Scope as ScopeSetting};
use crate::origin::{Agent, Origin, Surface};
use crate::session::Tree;
use crate::session::resolve::Context;
use crate::session::tree::Creator;
use fugue_protocol::cmd;
use fugue_protocol::{Command, CommandError, MessageTo, PaneId, Target, TargetKind};
use std::collections::{HashMap, HashSet};

/// The panes an origin may see and control.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// None: every pane.
    own: Option<Own>,
}

#[derive(Clone, Debug)]
struct Own {
    panes: HashSet<PaneId>,
    /// The agent's MCP connection.
    connection: Option<u64>,
    surface: &'static str,
}

/// The agent an origin acts for: its MCP connection and its pane.
pub(super) fn identity(tree: &Tree, origin: &Origin) -> (Option<u64>, Option<PaneId>) {
    match origin {
        Origin::Mcp {
            connection,
            caller_pane,
            ..
        } => (Some(*connection), *caller_pane),
        Origin::Sideband { pane } => (None, Some(*pane)),
        // An agent's own pane is its identity, whoever started it.
        Origin::Delegated { pane, .. }
            if tree.panes.get(pane).is_some_and(|p| p.agent.is_some()) =>
        {
            (None, Some(*pane))
        }
        Origin::Delegated {
            agent: Agent::Pane { pane: by },
            ..
        } => (None, Some(*by)),
        // A program in a pane an agent made acts for that agent.
        Origin::Delegated { pane, agent, .. } => {
            match tree.panes.get(pane).map(|p| p.creator.clone()) {
                Some(Creator::Mcp { connection, pane }) => (Some(connection), pane),
                Some(Creator::Sideband { pane }) => (None, Some(pane)),
                _ => match agent {
                    Agent::Mcp { connection } => (Some(*connection), Some(*pane)),
                    _ => (None, Some(*pane)),
                },
            }
        }
        Origin::Client { .. } | Origin::Hook { .. } | Origin::Server => (None, None),
    }
}

impl Scope {
    pub fn all() -> Scope {
        Scope::default()
    }

    /// Whether `origin` is limited to its own panes (decided without the tree, so a
    /// person's keystroke costs no extra lock).
    pub fn limited(config: &Config, origin: &Origin) -> bool {
        let setting = match origin.surface() {
            Surface::Mcp => config.policy.mcp_scope,
            Surface::Sideband => config.policy.sideband_scope,
            _ => ScopeSetting::All,
        };
        setting == ScopeSetting::Own
    }

    /// The scope of `origin` under the config.
    pub fn of(config: &Config, tree: &Tree, origin: &Origin) -> Scope {
        if !Scope::limited(config, origin) {
            return Scope::all();
        }
        let (connection, me) = identity(tree, origin);
        let me = me.filter(|p| tree.panes.contains_key(p));
        let mut children: HashMap<PaneId, Vec<PaneId>> = HashMap::new();
        let mut panes: HashSet<PaneId> = me.into_iter().collect();
        for (id, p) in &tree.panes {
            if let Some(parent) = p.creator.pane() {
                children.entry(parent).or_default().push(*id);
            }
            let by_me = match &p.creator {
                Creator::Mcp { connection: c, .. } => Some(*c) == connection,
                c => c.pane().is_some() && c.pane() == me,
            };
            if by_me {
                panes.insert(*id);
            }
        }
        let mut todo: Vec<PaneId> = panes.iter().copied().collect();
        while let Some(p) = todo.pop() {
            for c in children.get(&p).into_iter().flatten() {
                if panes.insert(*c) {
                    todo.push(*c);
                }
            }
        }
        Scope {
            own: Some(Own {
                panes,
                connection,
                surface: origin.surface().name(),
            }),
        }
    }

    pub fn is_all(&self) -> bool {
        self.own.is_none()
    }

    pub fn allows(&self, pane: PaneId) -> bool {
        self.own.as_ref().is_none_or(|o| o.panes.contains(&pane))
    }

    /// Whether a closed pane with this lineage was in scope.
    pub fn allows_lineage(&self, pane: PaneId, l: &Lineage) -> bool {
        let Some(o) = &self.own else { return true };
        o.panes.contains(&pane)
            || l.ancestors.iter().any(|a| o.panes.contains(a))
            || o.connection.is_some_and(|c| l.connections.contains(&c))
    }

    /// The refusal for a pane out of scope.
    pub fn refuse(&self, pane: PaneId) -> CommandError {
        let surface = self.own.as_ref().map(|o| o.surface).unwrap_or("mcp");
        CommandError::forbidden(format!(
            "pane {pane} is not yours: with scope \"own\" an agent sees and controls only its own pane, the panes it created and their descendants"
        ))
        .with_suggestion(format!(
            "work with panes you created (spawn_agent, create_pane); a person can widen it with `{surface}_scope = \"all\"` under [policy]"
        ))
    }

    /// "panes you may use: ..." for an unknown target under scope "own".
    pub fn describe(&self) -> Option<String> {
        let o = self.own.as_ref()?;
        let mut mine: Vec<PaneId> = o.panes.iter().copied().collect();
        mine.sort();
        let list: Vec<String> = mine.iter().take(20).map(|p| p.to_string()).collect();
        Some(if list.is_empty() {
            "you have no panes yet (scope \"own\"); create one with spawn_agent, create_pane or create_session".into()
        } else {
            format!("panes you may use (scope \"own\"): {}", list.join(", "))
        })
    }
}

/// Refuses a command that names a pane, window or session out of scope.
pub fn check(
    tree: &Tree,
    ctx: &Context,
    scope: &Scope,
    command: &Command,
) -> Result<(), CommandError> {
    if scope.is_all() {
        return Ok(());
    }
    if matches!(command, Command::KillServer) {
        return Err(CommandError::forbidden(
            "with scope \"own\" an agent may not kill the server: it holds other people's panes",
        ));
    }
    if matches!(command, Command::KillOtherSessions(_)) {
        return Err(CommandError::forbidden(
            "with scope \"own\" an agent may not kill every other session: they hold other people's panes",
        )
        .with_suggestion("kill the sessions you made one at a time (kill-session -t)"));
    }
    let first_foreign = |panes: Vec<PaneId>, all: bool| -> Option<PaneId> {
        let foreign = panes.iter().copied().find(|p| !scope.allows(*p));
        let any_own = panes.iter().any(|p| scope.allows(*p));
        match (all, foreign) {
            (true, f) => f,
            (false, f) if !any_own => f,
            _ => None,
        }
    };
    let mut refused = None;
    command.each_target(&mut |u| {
        if refused.is_some() {
            return;
        }
        let target = match u.cursor {
            Some(c) => target_or_cursor(u.target.cloned(), Some(c)),
            None => u.target.cloned(),
        };
        // Unknown targets are left to the command, which says what exists.
        refused = match u.kind {
            TargetKind::Listed => None,
            TargetKind::Pane => match tree.resolve_pane(target.as_ref(), ctx) {
                Ok(p) => (!scope.allows(p)).then_some(p),
                Err(_) => None,
            },
            TargetKind::WindowAll => match tree.resolve_window(target.as_ref(), ctx) {
                Ok((_, w)) => first_foreign(window_panes(tree, w), true),
                Err(_) => None,
            },
            TargetKind::SessionAll | TargetKind::SessionAny => {
                match tree.resolve_session(target.as_ref(), ctx) {
                    Ok(s) => {
                        first_foreign(session_panes(tree, s), u.kind == TargetKind::SessionAll)
                    }
                    Err(_) => None,
                }
            }
        };
    });
    match refused {
        Some(p) => Err(scope.refuse(p)),
        None => Ok(()),
    }
}

/// The window `new-window -k -t s:N` replaces: the one at the index the target
/// names (a target naming no index replaces nothing).
pub(super) fn replaced_window(
    tree: &Tree,
    ctx: &Context,
    target: Option<&Target>,
) -> Option<fugue_protocol::WindowId> {
    match target {
        Some(Target::Path {
            window: Some(fugue_protocol::WindowSpec::Index(_)),
            pane: None,
            ..
        }) => tree.resolve_window(target, ctx).ok().map(|(_, w)| w),
        _ => None,
    }
}

pub(super) fn window_panes(tree: &Tree, w: fugue_protocol::WindowId) -> Vec<PaneId> {
    tree.window(w).map(|w| w.layout.panes()).unwrap_or_default()
}

pub fn session_panes(tree: &Tree, s: fugue_protocol::SessionId) -> Vec<PaneId> {
    tree.session(s)
        .map(|s| {
            s.windows
                .iter()
                .filter_map(|l| tree.window(l.id))
                .flat_map(|w| w.layout.panes())
                .collect()
        })
        .unwrap_or_default()
}

/// Refuses an agent's typing into, closing or killing the first pane of a session a
/// person made.
pub fn check_protected(tree: &Tree, ctx: &Context, command: &Command) -> Result<(), CommandError> {
    let protected: Vec<(PaneId, &str)> = tree
        .sessions
        .iter()
        .filter_map(|s| s.first_pane.map(|p| (p, s.name.as_str())))
        .filter(|(p, _)| tree.panes.contains_key(p))
        .collect();
    if protected.is_empty() {
        return Ok(());
    }
    let refuse = |(pane, session): (PaneId, &str), what: &str| {
        Err(CommandError::forbidden(format!(
            "pane {pane} is the first pane of session `{session}`, which a person made: agents may not {what} it"
        ))
        .with_suggestion(
            "work in a pane of your own (spawn_agent, create_pane), or a person can allow it with `protect_first_pane = false` under [policy]",
        ))
    };
    let pane_is = |t: Option<&Target>| {
        tree.resolve_pane(t, ctx)
            .ok()
            .and_then(|p| protected.iter().copied().find(|(q, _)| *q == p))
    };
    let within = |panes: Vec<PaneId>| protected.iter().copied().find(|(p, _)| panes.contains(p));
    let hit = match command {
        Command::SendInput(c) => pane_is(c.target.as_ref()).map(|h| (h, "type into")),
        Command::SendPrefix(cmd::SendPrefix { target, .. }) => {
            pane_is(target.as_ref()).map(|h| (h, "type into"))
        }
        Command::PasteBuffer(c) => pane_is(c.target.as_ref()).map(|h| (h, "paste into")),
        Command::RunCommand(c) if c.pane.is_some() => {
            pane_is(c.pane.as_ref()).map(|h| (h, "run commands in"))
        }
        Command::SendMessage(c) => match &c.to {
            MessageTo::Pane(t) => pane_is(Some(t)).map(|h| (h, "send messages to")),
            _ => None,
        },
        Command::KillPane(cmd::KillPane { target }) => {
            pane_is(target.as_ref()).map(|h| (h, "close"))
        }
        Command::Respawn(c) => pane_is(c.target.as_ref()).map(|h| (h, "respawn")),
        Command::KillOtherPanes(cmd::KillOtherPanes { target }) => {
            let keep = tree.resolve_pane(target.as_ref(), ctx).ok();
            tree.resolve_window(target.as_ref(), ctx)
                .ok()
                .and_then(|(_, w)| {
                    let mut panes = window_panes(tree, w);
                    panes.retain(|p| Some(*p) != keep);
                    within(panes)
                })
                .map(|h| (h, "close"))
        }
        Command::KillWindow(cmd::KillWindow { target })
        | Command::UnlinkWindow(cmd::UnlinkWindow { target, kill: true }) => tree
            .resolve_window(target.as_ref(), ctx)
            .ok()
            .and_then(|(_, w)| within(window_panes(tree, w)))
            .map(|h| (h, "close the window of")),
        Command::KillSession(cmd::KillSession { target }) => tree
            .resolve_session(target.as_ref(), ctx)
            .ok()
            .and_then(|s| within(session_panes(tree, s)))
            .map(|h| (h, "kill the session of")),
        Command::NewWindow(c) if c.kill => replaced_window(tree, ctx, c.target.as_ref())
            .and_then(|w| within(window_panes(tree, w)))
            .map(|h| (h, "replace the window of")),
        Command::KillOtherWindows(cmd::KillOtherWindows { target }) => tree
            .resolve_window(target.as_ref(), ctx)
            .ok()
            .and_then(|(s, keep)| {
                let windows = tree.session(s).map(|s| s.windows.as_slice()).unwrap_or(&[]);
                within(
                    windows
                        .iter()
                        .filter(|w| w.id != keep)
                        .filter_map(|l| tree.window(l.id))
                        .flat_map(|w| w.layout.panes())
                        .collect(),
                )
            })
            .map(|h| (h, "close the window of")),
        Command::KillOtherSessions(cmd::KillOtherSessions { target }) => tree
            .resolve_session(target.as_ref(), ctx)
            .ok()
            .and_then(|keep| {
                within(
                    tree.sessions
                        .iter()
                        .filter(|s| s.id != keep)
                        .flat_map(|s| session_panes(tree, s.id))
                        .collect(),
                )
            })
            .map(|h| (h, "kill the session of")),
        Command::KillServer => protected.first().copied().map(|h| (h, "kill")),
        _ => None,
    };
    match hit {
        Some((h, what)) => refuse(h, what),
        None => Ok(()),
    }
}

/// Whether a pane is a protected first pane.
pub fn is_protected(tree: &Tree, pane: PaneId) -> bool {
    tree.sessions.iter().any(|s| s.first_pane == Some(pane))
}

/// The live panes the caller created directly (`send-message to children`): those
/// made from the caller's pane (by the agent there, or by a person's CLI run there),
/// or, for an MCP client outside any pane, those its connection made. Panes made from
/// a child's pane (by its CLI or its own MCP client) are grandchildren, not children.
pub fn children(tree: &Tree, origin: &Origin) -> Vec<PaneId> {
    let (connection, me) = match origin {
        Origin::Mcp {
            connection,
            caller_pane,
            ..
        } => (Some(*connection), *caller_pane),
        other => (None, other.caller_pane()),
    };
    let mut out: Vec<PaneId> = tree
        .panes
        .iter()
        .filter(|(_, p)| match (&p.creator, me) {
            (c, Some(me)) => c.made_from() == Some(me),
            (
                Creator::Mcp {
                    connection: c,
                    pane: None,
                },
                None,
            ) => Some(*c) == connection,
            _ => false,
        })
        .map(|(id, _)| *id)
        .collect();
    out.sort();
    out
}
