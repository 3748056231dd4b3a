//! Formats the server expands itself, as tmux does: `set-option -F`'s value, a new
//! pane's `-c` directory (`-c '#{pane_current_path}'`), and `display-message`'s text.
//! The engine is `fugue_protocol::format`; the variables are the tree's, read under the
//! tree lock the caller holds (expansion is bounded work, no I/O; `#()` is not run).

use crate::session::Tree;
use fugue_protocol::PaneId;
use fugue_protocol::format::{self, vars::Snapshot};

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
/// server's variables when there is no pane.
pub fn expand(tree: &Tree, pane: Option<PaneId>, text: &str) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    let snap = snapshot(tree);
    match pane {
        Some(p) => format::expand(text, &snap.pane(p)),
        None => format::expand(text, &snap.global()),
    }
}
