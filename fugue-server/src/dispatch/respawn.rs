//! `respawn-pane` and `respawn-window`: a new program in a pane that keeps its id, its
//! place, its screen and its history, as in tmux (Claude Code's agent teams split a
//! pane running `cat`, then `respawn-pane -k -t %N -- 'claude ...'`, and go on
//! naming `%N`).
//!
//! The old program's exit must not close the pane: every program a pane runs has a
//! generation (`Pane::generation`) and an exit heard for an older one is ignored
//! (`Server::pane_exited`). The old program is ended first and its last output read,
//! so the new program's output never mixes with it.

use super::Exec;
use super::spawn::relaunch;
use crate::pane::program::Program;
use crate::server::ServerEvent;
use fugue_protocol::{CommandError, ErrorCode, PaneId, Respawn, Response};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the old program gets to exit and have its output read after the kill: the
/// kill's own grace before SIGKILL (2 s) and the reader's drain (250 ms), plus margin.
const OLD_PROGRAM_WAIT: Duration = Duration::from_millis(3000);

pub async fn respawn(exec: &mut Exec<'_>, c: Respawn) -> Result<Response, CommandError> {
    let server = Arc::clone(exec.server);
    // Under the lock: check, take the old program(s) out, and raise the generation.
    let (id, old, shared, gone) = {
        let mut tree = server.mux.tree();
        let target = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        let (sid, wid) = tree
            .locate(target)
            .ok_or_else(|| CommandError::internal("pane has no window"))?;
        let panes = tree
            .window(wid)
            .map(|w| w.layout.panes())
            .unwrap_or_default();
        // respawn-window keeps the window's first pane, as tmux does.
        let id = if c.window {
            panes.first().copied().unwrap_or(target)
        } else {
            target
        };
        exec.resolved = Some(if c.window {
            wid.to_string()
        } else {
            id.to_string()
        });
        let checked: &[PaneId] = if c.window { &panes } else { &[id] };
        let live = checked
            .iter()
            .any(|p| tree.panes.get(p).is_some_and(|p| p.alive()));
        if live && !c.kill {
            let what = match tree
                .session(sid)
                .and_then(|s| s.index_of(wid).map(|index| (s, index)))
            {
                Some((s, index)) if c.window => format!("window {}:{index} still active", s.name),
                Some((s, index)) => {
                    let i = panes.iter().position(|p| *p == id).unwrap_or(0);
                    format!("pane {}:{index}.{i} still active", s.name)
                }
                None => format!("pane {id} still active"),
            };
            return Err(CommandError::new(ErrorCode::InvalidArgument, what)
                .with_suggestion("add -k to end the program that runs there"));
        }
        let mut gone = Vec::new();
        if c.window {
            for p in panes.iter().filter(|p| **p != id) {
                if let Some((pane, _)) = tree.remove_pane(*p) {
                    gone.push(pane);
                }
            }
            if let Some(w) = tree.window_mut(wid) {
                w.zoomed = false;
                w.set_active(id);
            }
        }
        let p = tree
            .panes
            .get_mut(&id)
            .ok_or_else(|| CommandError::internal("pane vanished"))?;
        p.generation = p.generation.wrapping_add(1);
        p.exit_status = None;
        let old = std::mem::replace(&mut p.pty, Program::starting());
        let shared = Arc::clone(&p.shared);
        server.relayout(&mut tree, sid);
        (id, old, shared, gone)
    };
    let gone_ids: Vec<PaneId> = gone.iter().map(|p| p.id).collect();
    for p in &gone {
        p.pty.kill();
    }
    if !gone_ids.is_empty() {
        server.panes_closed(&gone_ids);
    }
    // Off the lock and off the async worker: end the old program and let its reader
    // put the last of its output on the screen.
    let block = |f: &mut dyn FnMut()| match tokio::runtime::Handle::try_current()
        .map(|h| h.runtime_flavor())
    {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        _ => f(),
    };
    // Its exit (recorded once its last output is read) wakes this wait: no polling.
    old.kill();
    let exit = Arc::new(tokio::sync::Notify::new());
    shared.subscribe(&exit);
    let deadline = Instant::now() + OLD_PROGRAM_WAIT;
    while shared.exit_status().is_none() && old.pid().is_some() {
        if tokio::time::timeout_at(deadline.into(), exit.notified())
            .await
            .is_err()
        {
            tracing::warn!(
                "pane {id}: the old program had not exited {} ms after its kill; the new one starts anyway",
                OLD_PROGRAM_WAIT.as_millis()
            );
            break;
        }
    }
    shared.unsubscribe(&exit);
    drop(old);
    // A new program starts on a reset terminal (tmux reinitialises the screen): modes
    // the old one set (the alternate screen, mouse, keyboard) are not the new one's.
    {
        let seq = {
            let mut st = shared.state.lock();
            st.process(b"\x1bc");
            st.seq()
        };
        shared.respawned();
        shared.changed(seq, false);
    }
    let launch = {
        let tree = server.mux.tree();
        relaunch(exec, &tree, id, &c.spawn)?
    };
    let (argv, cwd) = {
        let (a, c) = launch.program();
        (a.to_vec(), c.cloned())
    };
    let _starting = server.mux.starting();
    let mut launch = Some(launch);
    let mut started = None;
    block(&mut || started = launch.take().map(|l| l.start()));
    let mut tree = server.mux.tree();
    let Some(p) = tree.panes.get_mut(&id) else {
        if let Some(Ok(pty)) = started {
            pty.kill();
        }
        return Err(CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {id} was closed while its program started"),
        ));
    };
    match started {
        Some(Ok(pty)) => {
            if let Some(status) = p.pty.attach(pty) {
                let _ = server.events.send(ServerEvent::PaneExited {
                    pane: id,
                    status,
                    generation: p.generation,
                });
            }
            p.argv = argv;
            // Its last command runs again when none is given, as in tmux.
            if !c.spawn.command.is_empty() {
                p.start_command = crate::session::tree::start_command(&c.spawn.command);
            }
            p.cwd = cwd;
            let size = p.size;
            p.pty.resize(size.0, size.1);
        }
        Some(Err(e)) => {
            // The pane stays, dead, as tmux leaves it when the program cannot start.
            p.exit_status = Some(127);
            return Err(e);
        }
        None => return Err(CommandError::internal("the program did not start")),
    }
    drop(tree);
    server.mux.changed();
    Ok(Response::Done)
}

super::handler!(fugue_protocol::manage::Respawn, |exec, c| respawn(exec, c)
    .await);
