//! Formats the server expands itself, as tmux does: `set-option -F`'s value, a new
//! pane's `-c` directory (`-c '#{pane_current_path}'`), and `display-message`'s text.
//! The engine is `fugue_protocol::format`; the variables are the tree's, read under the
//! tree lock the caller holds (expansion is bounded work, no I/O; `#()` is not run).

use crate::origin::Origin;
use crate::session::Tree;
use fugue_protocol::PaneId;
use fugue_protocol::format::{self, FormatContext, LoopItem, vars::Snapshot};

/// The tree's sessions and panes as a format snapshot.
fn snapshot(tree: &Tree) -> Snapshot {
    let sessions = tree
        .sessions
        .iter()
        .map(|s| tree.session_info(s, 0))
        .collect();
    let panes = tree
        .sessions
        .iter()
        .flat_map(|s| s.windows.iter())
        .flat_map(|w| tree.window_pane_infos(w))
        .collect();
    format::local::snapshot(sessions, panes, Vec::new())
}

/// `text` expanded in `pane`'s scope (its window and session too), or with only the
/// server's variables when there is no pane. A hook's commands also see `#{hook}`,
/// `#{hook_pane}`, `#{hook_session_name}` and the rest, as tmux gives them.
pub fn expand(tree: &Tree, pane: Option<PaneId>, text: &str, origin: &Origin) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    let snap = snapshot(tree);
    let scope = match pane {
        Some(p) => snap.pane(p),
        None => snap.global(),
    };
    match origin {
        Origin::Hook { .. } => format::expand(
            text,
            &WithHook {
                hook: hook_vars(tree, origin),
                inner: &scope,
            },
        ),
        _ => format::expand(text, &scope),
    }
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
    expand(&server.mux.tree(), pane, text, origin)
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
        .and_then(|w| {
            tree.sessions
                .iter()
                .find_map(|s| s.window(w).map(|w| w.name.clone()))
        })
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

struct WithHook<'a> {
    hook: Vec<(&'static str, String)>,
    inner: &'a dyn FormatContext,
}

impl FormatContext for WithHook<'_> {
    fn var(&self, name: &str) -> Option<String> {
        match self.hook.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => Some(v.clone()),
            None => self.inner.var(name),
        }
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
