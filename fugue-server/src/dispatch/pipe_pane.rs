//! `pipe-pane` (the pipes themselves are `crate::pipes`).

use super::Exec;
use crate::pipes::PipeSpec;
use fugue_protocol::cmd;
use fugue_protocol::{CommandError, ErrorCode, Response, Target};

pub fn pipe_pane(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    command: Option<String>,
    input: bool,
    output: bool,
    toggle: bool,
) -> Result<Response, CommandError> {
    let (pane, cwd, pty_input) = {
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        let p = tree
            .panes
            .get(&pane)
            .ok_or_else(|| CommandError::internal("pane vanished"))?;
        let pty_input = if input && command.is_some() {
            Some(p.pty.input().map_err(|e| {
                CommandError::new(
                    ErrorCode::PaneExited,
                    format!("pane {pane} takes no input ({e:?}), so -I has nowhere to type"),
                )
                .with_suggestion("pipe its output only (-O), or respawn-pane it first")
            })?)
        } else {
            None
        };
        (pane, p.current_cwd(), pty_input)
    };
    let pipes = &exec.server.pipes;
    // tmux: no command closes the pipe; -o opens one only if there is none, so one key
    // toggles it.
    let Some(command) = command else {
        pipes.close(pane);
        return Ok(Response::Done);
    };
    if toggle && pipes.close(pane) {
        return Ok(Response::Done);
    }
    pipes
        .open(PipeSpec {
            pane,
            command,
            cwd,
            output,
            input: pty_input,
        })
        .map_err(|e| {
            let code = if e.starts_with("cannot start") {
                ErrorCode::Internal
            } else {
                ErrorCode::LimitExceeded
            };
            CommandError::new(code, e)
        })?;
    Ok(Response::Done)
}

super::handler!(cmd::PipePane, |exec,
                                cmd::PipePane {
                                    target,
                                    command,
                                    input,
                                    output,
                                    toggle,
                                }| pipe_pane(
    exec,
    target.as_ref(),
    command,
    input,
    output,
    toggle
));
