//! `send-keys -X NAME` from a command line (a script, an agent's `tmux` tool): a
//! copy-mode command for the copy mode a pane is in, as tmux runs it. fugue's copy
//! mode lives in the client showing it, which runs the command as its bindings do;
//! a copy mode the pane keeps for the next client (no client attached) is left by
//! `cancel` and the `...-and-cancel` commands, the rest have nothing to act on. A
//! pane in no copy mode is tmux's error, `not in a mode`.

use super::Exec;
use fugue_protocol::popup::ClientCommandLine;
use fugue_protocol::{CommandError, ErrorCode, Response};

pub fn run(exec: &mut Exec<'_>, c: ClientCommandLine) -> Result<Response, CommandError> {
    let name = c
        .argv
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-'))
        .cloned()
        .ok_or_else(|| {
            CommandError::invalid_argument("command", "send-keys -X needs a copy-mode command")
        })?;
    let (pane, clients, held) = {
        let mut tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        let clients: Vec<u64> = tree
            .shown_modes
            .iter()
            .filter(|(_, (p, m))| *p == pane && *m == "copy-mode")
            .map(|(id, _)| *id)
            .collect();
        let held = tree
            .panes
            .get(&pane)
            .and_then(|p| p.held_mode.as_ref())
            .is_some_and(|argv| argv.first().is_some_and(|a| a == "copy-mode"));
        if clients.is_empty() && held && name.ends_with("cancel") {
            super::held_modes::release(&mut tree, pane);
        }
        (pane, clients, held)
    };
    exec.resolved = Some(format!("{pane} {name}"));
    if !clients.is_empty() {
        for id in clients {
            super::held_modes::post(exec.server, id, c.argv.clone());
        }
        return Ok(Response::Done);
    }
    if held {
        if !name.ends_with("cancel") {
            // tmux would move or select in the pane's copy mode; fugue's is drawn by a
            // client, and none shows it yet.
            exec.server.log_message(&format!(
                "{pane}: send-keys -X {name} has no client showing the copy mode to run it; the mode stays"
            ));
        }
        exec.server.mux.changed();
        return Ok(Response::Done);
    }
    // tmux's words.
    Err(
        CommandError::new(ErrorCode::InvalidArgument, "not in a mode")
            .with_suggestion(format!("`copy-mode -t {pane}` enters copy mode first")),
    )
}

super::handler!(fugue_protocol::cmd::CopyModeCommand, |exec, c| run(
    exec,
    fugue_protocol::popup::ClientCommandLine {
        target: c.target,
        client: c.client,
        argv: c.argv,
    }
));
