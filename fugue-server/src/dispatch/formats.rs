//! Formats the server expands itself, as tmux does: `set-option -F`'s value, a new
//! pane's `-c` directory (`-c '#{pane_current_path}'`), and `display-message`'s text.
//! The engine is `fugue_protocol::format`; the variables are the tree's, read under the
//! tree lock the caller holds (expansion is bounded work, no I/O; `#()` is not run).

use crate::origin::Origin;
use crate::session::Tree;
use fugue_protocol::PaneId;
use fugue_protocol::cmd;
use fugue_protocol::format::{self, FormatContext, LoopItem, vars::Snapshot};

/// The tree's sessions and panes as a format snapshot.
/// Every session and pane as formats see them, agents included (their lock comes
/// after the tree's), so `display -p '#{agent_state}'` answers as `list-panes -F` does.
fn snapshot(server: &crate::server::Server, tree: &Tree) -> Snapshot {
    let sessions = tree
        .sessions
        .iter()
        .map(|s| tree.session_info(s, 0))
        .collect();
    let mut panes = tree.all_pane_infos();
    for p in &mut panes {
        p.agent = server
            .agents
            .get(p.id)
            .filter(|t| t.is_agent())
            .map(|t| t.info());
    }
    format::local::snapshot(sessions, panes, Vec::new())
}

/// `text` expanded in `pane`'s scope (its window and session too), or with only the
/// server's variables when there is no pane. A name no variable has is an option
/// (`#{@user}`, `#{status-left}`, a flag as 1 or 0) and then an environment variable
/// (`set-environment`, the session's then the global one), as tmux looks them up, so
/// `set -F @b 'x#{@a}y'` and theme packs' chains of options work. A hook's commands
/// also see `#{hook}`, `#{hook_pane}`, `#{hook_session_name}` and the rest, as tmux
/// gives them. The tree is the caller's; the options and the environment are locked
/// after it (the lock order).
pub fn expand(
    server: &crate::server::Server,
    tree: &Tree,
    pane: Option<PaneId>,
    text: &str,
    origin: &Origin,
) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    let snap = snapshot(server, tree);
    let scope = match pane {
        Some(p) => snap.pane(p),
        None => snap.global(),
    };
    let located = pane.and_then(|p| tree.locate(p).map(|(s, w)| (p, s, w)));
    let session = located.map(|(_, s, _)| s);
    let store = server.options.lock();
    let env = server.environment.lock();
    let after = |name: &str| {
        option(&store, located.map(|(p, _, w)| (p, w)), session, name)
            .or_else(|| env.lookup(session, name))
    };
    let hook = hook_vars(tree, origin);
    let before = |name: &str| {
        hook.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    };
    format::expand(
        text,
        &Layered {
            inner: &scope,
            before: &before,
            after: &after,
        },
    )
}

/// [`expand`] with the tree locked here (for the surfaces, which never lock it).
pub fn expand_on(
    server: &crate::server::Server,
    pane: Option<PaneId>,
    text: &str,
    origin: &Origin,
) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    expand(server, &server.mux.tree(), pane, text, origin)
}

/// A hook's variables for its commands' formats.
fn hook_vars(tree: &Tree, origin: &Origin) -> Vec<(&'static str, String)> {
    let Origin::Hook {
        hook,
        object: o,
        session_name,
        ..
    } = origin
    else {
        return Vec::new();
    };
    let name = o
        .session
        .and_then(|s| tree.session(s).map(|s| s.name.clone()))
        .or_else(|| session_name.clone())
        .unwrap_or_default();
    let window_name = o
        .window
        .and_then(|w| tree.window(w).map(|w| w.name.clone()))
        .unwrap_or_default();
    let text = |v: Option<String>| v.unwrap_or_default();
    vec![
        ("hook", hook.to_string()),
        ("hook_pane", text(o.pane.map(|p| p.to_string()))),
        ("hook_session", text(o.session.map(|s| s.to_string()))),
        ("hook_session_name", name),
        ("hook_window", text(o.window.map(|w| w.to_string()))),
        ("hook_window_name", window_name),
    ]
}

/// A context that answers some names itself around another: `before` is asked
/// first (a hook's variables shadow the tree's), then the inner context, then
/// `after` (options by name, for names no variable has). Loops and time are the
/// inner context's.
struct Layered<'a> {
    inner: &'a dyn FormatContext,
    before: &'a dyn Fn(&str) -> Option<String>,
    after: &'a dyn Fn(&str) -> Option<String>,
}

impl FormatContext for Layered<'_> {
    fn var(&self, name: &str) -> Option<String> {
        (self.before)(name)
            .or_else(|| self.inner.var(name))
            .or_else(|| (self.after)(name))
    }
    fn sessions(&self) -> Vec<LoopItem<'_>> {
        self.inner.sessions()
    }
    fn windows(&self) -> Vec<LoopItem<'_>> {
        self.inner.windows()
    }
    fn panes(&self) -> Vec<LoopItem<'_>> {
        self.inner.panes()
    }
    fn now(&self) -> i64 {
        self.inner.now()
    }
    fn utc_offset(&self, at: i64) -> i64 {
        self.inner.utc_offset(at)
    }
}

fn nothing(_: &str) -> Option<String> {
    None
}

/// The values a listing asked for (`list-panes`' `values`: the options and
/// environment variables its `-F` format names), for each pane as [`expand`] looks
/// them up in that pane's scope. Called with no tree held (the options, then the
/// environment).
pub fn listed_values(
    server: &crate::server::Server,
    infos: &mut [fugue_protocol::PaneInfo],
    names: &[String],
) {
    if names.is_empty() {
        return;
    }
    let names = names
        .get(..fugue_protocol::limits::MAX_LISTED_VALUES)
        .unwrap_or(names);
    let store = server.options.lock();
    let env = server.environment.lock();
    for i in infos {
        let session = Some(i.session_id);
        i.values = names
            .iter()
            .filter_map(|n| {
                option(&store, Some((i.id, i.window_id)), session, n)
                    .or_else(|| env.lookup(session, n))
                    .map(|v| (n.clone(), v))
            })
            .collect();
    }
}

/// An option by name in a format (`#{@user}`, `#{history-limit}`, `#{status-left}`),
/// as tmux looks one up when no variable has the name: the pane's (then its window's
/// and the global window value), the session's (then the global one), the server's.
fn option(
    store: &crate::options::Store,
    pane: Option<(PaneId, fugue_protocol::WindowId)>,
    session: Option<fugue_protocol::SessionId>,
    name: &str,
) -> Option<String> {
    use crate::options::Level;
    let levels = [
        pane.map_or(Level::GlobalWindow, |(p, w)| Level::Pane(p, w)),
        session.map_or(Level::GlobalSession, Level::Session),
        Level::Server,
    ];
    levels
        .into_iter()
        .find_map(|l| store.effective(l, name))
        .map(|(v, _)| v.in_format())
}

/// `display-message -p`: the text expanded in the target pane's scope, with the whole
/// tree (a window's pane count, `#{P:...}` over its panes) and the options, through
/// strftime first as tmux's display-message does.
pub fn format_text(
    exec: &mut super::Exec<'_>,
    target: Option<&fugue_protocol::Target>,
    text: String,
    mode: format::FormatMode,
) -> Result<fugue_protocol::Response, fugue_protocol::CommandError> {
    // Copied first, so the options' lock is never held with the tree's.
    let store = exec.server.options.lock().clone();
    let tree = exec.server.mux.tree();
    // With no session yet and no target, tmux expands in no session's scope (config
    // scripts probe `#{version}` before the first session).
    let place = if target.is_none() && tree.sessions.is_empty() {
        None
    } else {
        let pane = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        // The session and index tmux would act on: a linked window's pane is in
        // several.
        let (session, window, index) = tree.resolve_winlink(target, &exec.ctx)?;
        Some((pane, session, window, index))
    };
    let mut snap = snapshot(exec.server, &tree);
    drop(tree);
    super::pane_flags::annotate(exec.server, &store, &mut snap.panes);
    // tmux's server variables (libtmux builds `$TMUX` from `#{socket_path}`).
    snap.globals
        .insert("pid".into(), std::process::id().to_string());
    snap.globals.insert(
        "socket_path".into(),
        exec.server.socket.to_string_lossy().into_owned(),
    );
    let scope = match place {
        Some((pane, session, window, index)) => {
            snap.winlink(session, window, index).with_pane(pane)
        }
        None => snap.global(),
    };
    let session = place.map(|p| p.1);
    let env = exec.server.environment.lock();
    let after = |name: &str| {
        option(&store, place.map(|p| (p.0, p.2)), session, name)
            .or_else(|| env.lookup(session, name))
    };
    let ctx = Layered {
        inner: &scope,
        before: &nothing,
        after: &after,
    };
    let out = match mode {
        format::FormatMode::Expand => format!("{}\n", format::expand_time(&text, &ctx)),
        format::FormatMode::Literal => format!("{text}\n"),
        format::FormatMode::List => {
            format::display::list_all(&ctx, snap.globals.keys().map(String::as_str))
        }
        format::FormatMode::Verbose => format::display::verbose(&text, &ctx),
    };
    Ok(fugue_protocol::Response::Captured(out))
}

super::handler!(
    cmd::FormatText,
    |exec, cmd::FormatText { target, text, mode }| {
        format_text(exec, target.as_ref(), text, mode)
    }
);

/// Each text expanded in its pane's scope, as [`expand`] does for one, with one
/// snapshot of the tree for all (`pane-border-format` and the border styles, which
/// are formats in tmux, once per pane).
pub fn expand_each(
    server: &crate::server::Server,
    tree: &Tree,
    items: &[(PaneId, &str)],
) -> Vec<String> {
    if !items.iter().any(|(_, t)| t.contains('#')) {
        return items.iter().map(|(_, t)| t.to_string()).collect();
    }
    let snap = snapshot(server, tree);
    let store = server.options.lock();
    let env = server.environment.lock();
    items
        .iter()
        .map(|&(p, text)| {
            let located = tree.locate(p);
            let session = located.map(|(s, _)| s);
            let after = |name: &str| {
                option(&store, located.map(|(_, w)| (p, w)), session, name)
                    .or_else(|| env.lookup(session, name))
            };
            format::expand(
                text,
                &Layered {
                    inner: &snap.pane(p),
                    before: &nothing,
                    after: &after,
                },
            )
        })
        .collect()
}
