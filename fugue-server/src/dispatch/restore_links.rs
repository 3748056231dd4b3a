//! The links and session groups of restored sessions. The journal writes a window
//! linked into several sessions once, with the first; each other session keeps
//! `(index, window)` links to it and its group's name (`journal::model::SessionRec`).
//! After the sessions holding windows are back, the others link them again: a
//! session of only links (a grouped session, most often) is made here, and groups
//! are joined again, so `new-session -t` and `link-window` survive a restart.

use crate::journal::model::SessionRec;
use crate::server::Server;
use crate::session::{Session, Winlink};
use fugue_protocol::{SessionId, WindowId};
use std::collections::HashMap;
use std::time::{Duration, UNIX_EPOCH};

/// The window restored for `old`, if it is in the tree.
fn window_for(
    tree: &crate::session::Tree,
    windows: &HashMap<u32, WindowId>,
    old: u32,
) -> Option<WindowId> {
    windows
        .get(&old)
        .copied()
        .filter(|w| tree.window(*w).is_some())
}

/// Makes session `s`, which holds only links, linking the windows restored for them.
/// An error when none of them is back (their session was not restored).
pub fn session_of_links(
    server: &Server,
    s: &SessionRec,
    windows: &HashMap<u32, WindowId>,
) -> Result<String, String> {
    let mut tree = server.mux.tree();
    let links: Vec<Winlink> = s
        .links
        .iter()
        .filter_map(|(index, old)| {
            window_for(&tree, windows, *old).map(|id| Winlink { index: *index, id })
        })
        .collect();
    let Some(first) = links.first().copied() else {
        return Err(
            "its windows are kept with another session, which was not restored; restore that one with it"
                .to_string(),
        );
    };
    let id = tree.session_id_or_new(SessionId(s.id));
    let name = super::restore::free_name(&tree, &s.name);
    let last_used = tree.touch();
    let mut session = Session::new(id, name.clone(), first.id, first.index);
    session.created = UNIX_EPOCH + Duration::from_millis(s.created_ms);
    session.last_used = last_used;
    session.size = s.size;
    tree.add_session(session);
    server.relayout(&mut tree, id);
    Ok(name)
}

/// Links each restored session's other windows again and puts it back in its group.
/// `linked`: each session's name now and its record.
pub fn relink(server: &Server, linked: &[(String, SessionRec)], windows: &HashMap<u32, WindowId>) {
    if linked.is_empty() {
        return;
    }
    let mut tree = server.mux.tree();
    let mut touched = Vec::new();
    for (name, rec) in linked {
        let Some(sid) = tree.session_by_name(name).map(|s| s.id) else {
            continue;
        };
        for (index, old) in &rec.links {
            let Some(id) = window_for(&tree, windows, *old) else {
                tracing::info!(
                    "restore: window @{old} of {name} was not restored with its session; not linked"
                );
                continue;
            };
            let Some(session) = tree.session_mut(sid) else {
                continue;
            };
            if session.holds(id) && session.index_of(id) == Some(*index) {
                continue;
            }
            let index = if session.link_at(*index).is_some() {
                session.free_index()
            } else {
                *index
            };
            session.insert_link(Winlink { index, id });
        }
        if let Some(active) = windows.get(&rec.active_window).copied()
            && let Some(session) = tree.session_mut(sid)
            && session.holds(active)
        {
            session.active = active;
            session.active_index = session.index_of(active);
        }
        if let Some(group) = &rec.group
            && let Some(session) = tree.session_mut(sid)
        {
            session.group = Some(group.clone());
            let links = session.windows.clone();
            tree.group_links.entry(group.clone()).or_insert(links);
        }
        touched.push(sid);
    }
    for sid in touched {
        server.relayout(&mut tree, sid);
    }
}
