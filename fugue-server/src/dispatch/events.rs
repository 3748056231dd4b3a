//! The hook events a command sets off, published once it succeeded: `after-VERB`, and
//! what changed in the tree (sessions and windows made or gone, renamed, a new current
//! window or active pane). Found by comparing the tree before and after, so every
//! surface's commands (keys, CLI, MCP, sideband, hooks) set off the same events.
//!
//! Nothing is looked at while no hook is set: a keystroke pays one lock of the hook
//! store.

use crate::hooks::{Object, names};
use crate::hub::Event;
use crate::origin::Origin;
use crate::server::Server;
use crate::session::Tree;
use crate::session::resolve::Context;
use fugue_protocol::{Command, Exposure, PaneId, Response, SessionId, Target, WindowId};

/// The parts of the tree events are found in.
#[derive(Default)]
pub struct Shape {
    sessions: Vec<SessionShape>,
}

struct SessionShape {
    id: SessionId,
    name: String,
    active: WindowId,
    windows: Vec<(WindowId, String, PaneId)>,
    /// Each window's tmux layout string, in `windows`' order (`%layout-change`).
    layouts: Vec<String>,
}

fn shape(tree: &Tree) -> Shape {
    Shape {
        sessions: tree
            .sessions
            .iter()
            .map(|s| SessionShape {
                id: s.id,
                name: s.name.clone(),
                active: s.active,
                windows: s
                    .windows
                    .iter()
                    .filter_map(|l| tree.window(l.id))
                    .map(|w| (w.id, w.name.clone(), w.active))
                    .collect(),
                layouts: s
                    .windows
                    .iter()
                    .filter_map(|l| tree.window(l.id))
                    .map(|w| {
                        let borders = tree.frame(w.id).borders;
                        w.layout.tmux_string(w.shown_area(s.area()), borders)
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// What a command will compare against, taken before it runs: nothing when no hook is
/// set, or for commands that cannot change sessions, windows, names or focus.
pub fn before(server: &Server, command: &Command) -> Option<Shape> {
    let structural = command.spec().facts.structural;
    // Control clients (`tmux -C`) hear these as notifications, hooks or not.
    if !structural || (server.hooks.lock().is_empty() && !server.hub.has_listeners()) {
        return None;
    }
    Some(shape(&server.mux.tree()))
}

/// The CLI verb a command is (its `after-` hook's name).
fn verb(command: &Command) -> Option<&'static str> {
    match command.spec().surfaces.cli {
        Exposure::As(name) => name.split_whitespace().next(),
        Exposure::Absent(_) | Exposure::Tmux => None,
    }
}

/// What an `after-` hook takes from a command before it runs.
pub struct Done {
    after: Option<&'static str>,
    target: Option<Target>,
}

pub fn done(server: &Server, command: &Command) -> Option<Done> {
    // The common case, on every keystroke: no hook at all, and no name looked up.
    if server.hooks.lock().is_empty() {
        return None;
    }
    let after = match command {
        Command::Report(_) => Some("agent-reported"),
        _ => verb(command).and_then(names::after),
    };
    after?;
    Some(Done {
        after,
        target: command.target().cloned(),
    })
}

/// Publishes the events of a command that succeeded.
pub fn publish(
    server: &Server,
    origin: &Origin,
    ctx: &Context,
    before: Option<Shape>,
    done: Option<Done>,
    response: &Response,
) {
    let depth = match origin {
        Origin::Hook { depth, .. } => depth.saturating_add(1),
        _ => 0,
    };
    let mut events = Vec::new();
    {
        let tree = server.mux.tree();
        if let Some(before) = before {
            diff(&before, &shape(&tree), &mut events);
        }
        // tmux runs no `after-` hook for a command a hook ran (`agent-reported` is
        // an event, not an `after-` hook).
        if let Some(Done {
            after: Some(hook),
            target,
        }) = done
            && (hook == "agent-reported" || !matches!(origin, Origin::Hook { .. }))
        {
            events.push(Event::new(
                hook,
                object_of(&tree, ctx, target.as_ref(), response),
            ));
        }
    }
    for mut e in events {
        e.depth = depth;
        server.hub.event(e);
    }
}

/// A pane and the window and session it is in, as a hook's object.
pub fn object_of_pane(server: &Server, pane: PaneId) -> Object {
    let (session, window) = server.mux.tree().locate(pane).unzip();
    Object {
        session,
        window,
        pane: Some(pane),
    }
}

/// The object an `after-` hook runs on: what the command made, else its target, else
/// the caller's.
fn object_of(tree: &Tree, ctx: &Context, target: Option<&Target>, response: &Response) -> Object {
    if let Response::Created(c) = response {
        return Object {
            session: Some(c.session),
            window: Some(c.window),
            pane: Some(c.pane),
        };
    }
    let mut o = Object::default();
    if let Ok(p) = tree.resolve_pane(target, ctx) {
        o.pane = Some(p);
        if let Some((s, w)) = tree.locate(p) {
            o.session = Some(s);
            o.window = Some(w);
        }
    } else if let Ok(s) = tree.resolve_session(target, ctx) {
        o.session = Some(s);
    }
    o
}

fn diff(before: &Shape, after: &Shape, out: &mut Vec<Event>) {
    let on = |session: SessionId, window: Option<WindowId>, pane: Option<PaneId>| Object {
        session: Some(session),
        window,
        pane,
    };
    for s in &after.sessions {
        let Some(old) = before.sessions.iter().find(|o| o.id == s.id) else {
            out.push(Event::new("session-created", on(s.id, None, None)));
            for (w, _, p) in &s.windows {
                out.push(Event::new("window-linked", on(s.id, Some(*w), Some(*p))));
            }
            continue;
        };
        if old.name != s.name {
            out.push(Event::new("session-renamed", on(s.id, None, None)));
        }
        for (i, (w, name, p)) in s.windows.iter().enumerate() {
            let old_at = old.windows.iter().position(|(ow, ..)| ow == w);
            let old_layout = old_at.and_then(|at| old.layouts.get(at));
            // A new window's first layout is no change (tmux says only `%window-add`).
            if old_layout.is_some() && old_layout != s.layouts.get(i) {
                out.push(Event::new(
                    "window-layout-changed",
                    on(s.id, Some(*w), Some(*p)),
                ));
            }
            match old_at.and_then(|at| old.windows.get(at)) {
                None => out.push(Event::new("window-linked", on(s.id, Some(*w), Some(*p)))),
                Some((_, old_name, old_pane)) => {
                    if old_name != name {
                        out.push(Event::new("window-renamed", on(s.id, Some(*w), Some(*p))));
                    }
                    if old_pane != p {
                        out.push(Event::new(
                            "window-pane-changed",
                            on(s.id, Some(*w), Some(*p)),
                        ));
                    }
                }
            }
        }
        for (w, ..) in &old.windows {
            if !s.windows.iter().any(|(nw, ..)| nw == w) {
                out.push(Event::new("window-unlinked", on(s.id, Some(*w), None)));
            }
        }
        if old.active != s.active {
            let pane = s.windows.iter().find(|(w, ..)| *w == s.active).map(|x| x.2);
            out.push(Event::new(
                "session-window-changed",
                on(s.id, Some(s.active), pane),
            ));
        }
    }
    for old in &before.sessions {
        if !after.sessions.iter().any(|s| s.id == old.id) {
            for (w, ..) in &old.windows {
                out.push(Event::new("window-unlinked", on(old.id, Some(*w), None)));
            }
            let mut e = Event::new("session-closed", Object::default());
            e.session_name = Some(old.name.clone());
            out.push(e);
        }
    }
}
