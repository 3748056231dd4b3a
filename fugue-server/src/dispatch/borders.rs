//! What a client needs to draw tmux's shared pane borders: the window's
//! `pane-border-status`, `pane-border-lines` and `pane-border-indicators`, each pane's
//! border styles (a pane's own `set -p` value, else its window's, else the global one)
//! and its `pane-border-format` expanded in its scope. Claude Code's agent teams give
//! each teammate's pane a border colour and name it in the format.
//!
//! The tree gives the layout (`Tree::client_view`), which reads no options; this fills
//! in what the options say, with the tree and then the options locked (the lock order).

use crate::options::Level;
use crate::server::Server;
use fugue_protocol::screen::ClientLayout;

/// Fills in `layout`'s border words and its panes' styles and texts; nothing when
/// its panes have boxes of their own.
pub fn decorate(server: &Server, layout: &mut ClientLayout) {
    let Some(shared) = layout.shared_borders.as_mut() else {
        return;
    };
    let tree = server.mux.tree();
    let Some(wid) = layout
        .panes
        .first()
        .and_then(|r| tree.panes.get(&r.pane))
        .map(|p| p.window)
    else {
        return;
    };
    let word = |store: &crate::options::Store, level: Level, name: &str| {
        store
            .effective(level, name)
            .map(|(v, _)| v.text())
            .unwrap_or_default()
    };
    {
        let store = server.options.lock();
        shared.status = word(&store, Level::Window(wid), "pane-border-status");
        shared.lines = word(&store, Level::Window(wid), "pane-border-lines");
        shared.indicators = word(&store, Level::Window(wid), "pane-border-indicators");
        let status = shared.status != "off";
        for r in &mut layout.panes {
            let at = Level::Pane(r.pane, wid);
            r.border_style = word(&store, at, "pane-border-style");
            r.active_border_style = word(&store, at, "pane-active-border-style");
            // A pane's own format, as tmux's (`wp->options`); expanded below.
            r.border_text = match status {
                true => word(&store, at, "pane-border-format"),
                false => String::new(),
            };
        }
    }
    // tmux's styles may be formats (the active border's default is one).
    let mut items: Vec<(fugue_protocol::PaneId, &str)> = Vec::new();
    for r in &layout.panes {
        items.push((r.pane, &r.border_style));
        items.push((r.pane, &r.active_border_style));
        items.push((r.pane, &r.border_text));
    }
    let mut texts = super::formats::expand_each(server, &tree, &items).into_iter();
    for r in &mut layout.panes {
        r.border_style = texts.next().unwrap_or_default();
        r.active_border_style = texts.next().unwrap_or_default();
        r.border_text = texts.next().unwrap_or_default();
    }
}
