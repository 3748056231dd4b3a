//! tmux's `synchronize-panes`: input to a pane whose option is on goes to every pane
//! of its window whose option is on too (keys and text, not mouse events, as in tmux).

use super::Exec;
use crate::options::Level;
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
    let others: Vec<PaneId> = {
        let tree = exec.server.mux.tree();
        // An unknown target is send-keys' own error to give.
        let target = tree.resolve_pane(c.target.as_ref(), &exec.ctx).ok();
        match target.and_then(|id| tree.locate(id).map(|l| (id, l))) {
            Some((id, (_, wid)))
                if !c.parts.iter().any(|p| matches!(p, InputPart::Mouse(_)))
                    && synchronized(exec, id, wid) =>
            {
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
            _ => Vec::new(),
        }
    };
    let copies: Vec<SendInput> = others
        .into_iter()
        .map(|p| SendInput {
            target: Some(Target::Pane(p)),
            ..c.clone()
        })
        .collect();
    let answer = super::io::send_input(exec, c).await?;
    let resolved = exec.resolved.take();
    for copy in copies {
        // A pane that went meanwhile misses the copy; the target got its input.
        let _ = super::io::send_input(exec, copy).await;
    }
    exec.resolved = resolved;
    Ok(answer)
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
