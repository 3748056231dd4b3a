//! tmux's `automatic-rename` option and fugue's `Window::auto_name`, kept in step.
//!
//! The tree keeps whether a window follows its program (`auto_name`) because it is
//! read each time a name is drawn, under the tree's lock alone. The option is the
//! person's view of it: a window given a name (`new-window -n`, `rename-window`,
//! `break-pane -n`, `new-session -n`) has `automatic-rename off` as its own value, as in
//! tmux, so `show -w automatic-rename` and `#{automatic-rename}` say so, and `set -w
//! automatic-rename on` makes it follow its program again.

use crate::options::{Level, SetMode, table};
use crate::server::Server;
use crate::session::Tree;
use fugue_protocol::WindowId;

const NAME: &str = "automatic-rename";

/// Whether a window made now without a name follows its program (the global value).
pub fn by_default(server: &Server) -> bool {
    server
        .options
        .lock()
        .effective(Level::GlobalWindow, NAME)
        .is_none_or(|(v, _)| v.flag())
}

/// A window was given its name: its own `automatic-rename` is off. The caller holds
/// the tree (the lock order: the tree, then the options).
pub fn name_given(server: &Server, window: WindowId) {
    let set = server.options.lock().set(
        Level::Window(window),
        table::find(NAME),
        NAME,
        Some("off"),
        SetMode::default(),
    );
    if let Err(e) = set {
        tracing::warn!("window {window}: automatic-rename not turned off: {e}");
    }
}

/// After `automatic-rename` was set or unset anywhere: every window follows its
/// effective value.
pub fn follow_option(server: &Server, tree: &mut Tree) {
    let store = server.options.lock();
    for w in tree.windows.values_mut() {
        w.auto_name = store
            .effective(Level::Window(w.id), NAME)
            .is_none_or(|(v, _)| v.flag());
    }
    drop(store);
    server.mux.changed();
}
