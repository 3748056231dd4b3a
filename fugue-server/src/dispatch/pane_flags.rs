//! What a pane's listing needs that the tree does not keep: `pane_synchronized`
//! (the `synchronize-panes` option) and `pane_pipe` (an open `pipe-pane`).

use crate::options::{Level, store::Store};
use crate::server::Server;
use fugue_protocol::PaneInfo;

/// Fills those flags in `infos`. `store` is the options (locked or copied by the
/// caller, never with the tree's lock held).
pub fn annotate(server: &Server, store: &Store, infos: &mut [PaneInfo]) {
    for i in infos {
        i.detail.synchronized = store
            .effective(Level::Pane(i.id, i.window_id), "synchronize-panes")
            .is_some_and(|(v, _)| v.flag());
        i.detail.pipe = server.pipes.is_open(i.id);
    }
}
