//! Starting a program in a new pane.

use crate::pane::PaneShared;
use crate::pane::pty::{Pty, SpawnSpec};
use crate::pane::state::PaneState;
use crate::server::{Server, ServerEvent};
use crate::session::tree::{Pane, Tree};
use fugue_protocol::{CommandError, PaneId, Spawn, WindowId};
use std::path::PathBuf;
use std::sync::Arc;

/// argv for a spawn request: the default program, a shell command line, or argv.
pub fn resolve_argv(server: &Server, spawn: &Spawn) -> Result<Vec<String>, CommandError> {
    match spawn.command.as_slice() {
        [] => Ok(server.config().default_argv()),
        [line] if line.trim().is_empty() => {
            Err(CommandError::invalid_argument("command", "it is empty"))
        }
        // One string with spaces is a shell command line, as in tmux.
        [line] if line.contains(char::is_whitespace) => {
            let shell = server
                .config()
                .default_argv()
                .into_iter()
                .next()
                .unwrap_or_else(|| "/bin/sh".into());
            Ok(vec![shell, "-c".into(), line.clone()])
        }
        argv => Ok(argv.to_vec()),
    }
}

fn validate_cwd(cwd: &str) -> Result<PathBuf, CommandError> {
    let path = PathBuf::from(cwd);
    if !path.is_absolute() {
        return Err(CommandError::invalid_argument(
            "cwd",
            format!("`{cwd}` is not an absolute path"),
        ));
    }
    if !path.is_dir() {
        return Err(CommandError::invalid_argument(
            "cwd",
            format!("`{cwd}` is not a directory that exists"),
        ));
    }
    Ok(path)
}

/// Spawns a pane for `window` with inner size `size` and adds it to the tree (but not
/// to any layout: the caller places it).
pub fn spawn_pane(
    server: &Arc<Server>,
    tree: &mut Tree,
    window: WindowId,
    spawn: &Spawn,
    size: (u16, u16),
    default_cwd: Option<PathBuf>,
) -> Result<PaneId, CommandError> {
    let argv = resolve_argv(server, spawn)?;
    let cwd = match &spawn.cwd {
        Some(c) => Some(validate_cwd(c)?),
        None => default_cwd.filter(|d| d.is_dir()),
    };
    for (k, _) in &spawn.env {
        if k.is_empty() || k.contains('=') || k.contains('\0') {
            return Err(CommandError::invalid_argument(
                "env",
                format!("`{k}` is not a valid variable name"),
            ));
        }
    }
    let config = server.config();
    let id = tree.new_pane_id();
    let mut env = vec![
        ("TERM".to_string(), config.server.term.clone()),
        ("COLORTERM".to_string(), "truecolor".to_string()),
        ("FUGUE_PANE_ID".to_string(), id.to_string()),
        (
            "FUGUE_SOCKET".to_string(),
            server.socket.to_string_lossy().into_owned(),
        ),
    ];
    env.extend(spawn.env.iter().cloned());
    let (cols, rows) = (size.0.max(1), size.1.max(1));
    let shared = PaneShared::new(id, PaneState::new(cols, rows, config.server.history_limit));
    let events = server.events.clone();
    let pty = Pty::spawn(
        SpawnSpec {
            argv: argv.clone(),
            cwd: cwd.clone(),
            env,
            cols,
            rows,
        },
        Arc::clone(&shared),
        move |status| {
            let _ = events.send(ServerEvent::PaneExited { pane: id, status });
        },
    )
    .map_err(|e| CommandError::invalid_argument("command", e))?;
    let mut pane = Pane::new(id, shared, pty, window, (cols, rows), argv, cwd);
    pane.title = spawn.title.clone().filter(|t| !t.is_empty());
    pane.sideband = spawn.sideband.unwrap_or(false);
    pane.remain = spawn.remain;
    tree.panes.insert(id, pane);
    Ok(id)
}
