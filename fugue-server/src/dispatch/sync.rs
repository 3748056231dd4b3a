//! tmux's `synchronize-panes`: input to a pane whose option is on goes to every pane
//! of its window whose option is on too (keys and text, not mouse events, as in tmux).

use super::Exec;
use crate::options::Level;
use crate::session::Tree;
use fugue_protocol::cmd;
use fugue_protocol::{CommandError, InputPart, PaneId, Response, SendInput, Target};

fn synchronized(exec: &Exec<'_>, pane: PaneId, window: fugue_protocol::WindowId) -> bool {
    exec.server
        .options
        .lock()
        .effective(Level::Pane(pane, window), "synchronize-panes")
        .is_some_and(|(v, _)| v.flag())
}

/// `send-keys` and typed keys, copied to the synchronized panes of the window.
pub async fn send_input(exec: &mut Exec<'_>, c: SendInput) -> Result<Response, CommandError> {
    let (answer, others) = super::io::send_one(exec, &c, true).await?;
    let resolved = exec.resolved.take();
    for p in others {
        let copy = SendInput {
            target: Some(Target::Pane(p)),
            parts: c.parts.clone(),
        };
        // A pane that went meanwhile misses the copy; the target got its input.
        let _ = super::io::send_one(exec, &copy, false).await;
    }
    exec.resolved = resolved;
    Ok(answer)
}

/// The other panes of `pane`'s window that hear input sent to it: all of the
/// window's live panes in scope whose `synchronize-panes` is on, when the pane's is
/// (keys and text, not mouse events, as in tmux). Run under the tree's lock that
/// `send-keys` takes anyway.
pub(super) fn others(exec: &Exec<'_>, tree: &Tree, id: PaneId, parts: &[InputPart]) -> Vec<PaneId> {
    if parts.iter().any(|p| matches!(p, InputPart::Mouse(_))) {
        return Vec::new();
    }
    let Some((_, wid)) = tree.locate(id) else {
        return Vec::new();
    };
    if !synchronized(exec, id, wid) {
        return Vec::new();
    }
    tree.window(wid)
        .map(|w| w.layout.panes())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            *p != id
                && exec.scope.allows(*p)
                && tree.panes.get(p).is_some_and(|p| p.alive())
                && synchronized(exec, *p, wid)
        })
        .collect()
}

/// `send-prefix [-2]`: the session's `prefix` (or `prefix2`) key, typed into the
/// pane as `send-keys` types it; `prefix2` set to None types nothing, as in tmux.
pub async fn send_prefix(
    exec: &mut Exec<'_>,
    target: Option<Target>,
    secondary: bool,
) -> Result<Response, CommandError> {
    let session = {
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(target.as_ref(), &exec.ctx)?;
        tree.locate(pane).map(|(s, _)| s)
    };
    let name = if secondary { "prefix2" } else { "prefix" };
    let text = {
        let options = exec.server.options.lock();
        let level = session.map_or(Level::GlobalSession, Level::Session);
        options.effective(level, name).map(|(v, _)| v.text())
    };
    let Some(key) = text.as_deref().and_then(fugue_protocol::keys::Key::parse) else {
        return Ok(Response::Done);
    };
    send_input(
        exec,
        SendInput {
            target,
            parts: vec![InputPart::Key(key)],
        },
    )
    .await
}

super::handler!(fugue_protocol::SendInput, |exec, c| send_input(exec, c)
    .await);
super::handler!(
    cmd::SendPrefix,
    |exec, cmd::SendPrefix { target, secondary }| send_prefix(exec, target, secondary).await
);
