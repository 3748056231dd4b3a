//! `send-keys -K -c CLIENT KEY...`: keys pressed at a client as if its person typed
//! them. A terminal client takes them through its own key handling (prefix, key
//! tables, prompts, modes). A control client has none of that: its open question
//! (`confirm-before`, `command-prompt`, asked for it by [`ask`]) takes them here, and
//! without one they are typed into its session's active pane.

use super::Exec;
use super::clients::target_client;
use crate::attached::Control;
use crate::client_prompt::{ClientPrompt, Step};
use fugue_protocol::cmd;
use fugue_protocol::keys::Key;
use fugue_protocol::tmux_cmd::Argv;
use fugue_protocol::{CommandError, ErrorCode, Response};
use fugue_verbs::Caller;
use std::sync::Arc;

/// Most keys one `send-keys -K` presses.
pub const MAX_KEYS: usize = 1024;

pub async fn client_keys(
    exec: &mut Exec<'_>,
    client: Option<String>,
    keys: Vec<String>,
) -> Result<Response, CommandError> {
    if keys.len() > MAX_KEYS {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!("send-keys -K: more than {MAX_KEYS} keys"),
        ));
    }
    let parsed = keys
        .iter()
        .map(|k| {
            Key::parse(k)
                .ok_or_else(|| CommandError::invalid_argument("key", format!("unknown key: {k}")))
        })
        .collect::<Result<Vec<Key>, _>>()?;
    let id = target_client(exec, client.as_deref())?;
    let (control, session) = {
        let clients = exec.server.mux.attached.lock();
        let Some(c) = clients.get(&id) else {
            return Err(CommandError::unknown_target("the client went away"));
        };
        if !c.control_mode {
            c.control.post(Control::TypeKeys(keys));
            return Ok(Response::Done);
        }
        (c.prompt.is_some(), c.session)
    };
    if !control {
        // No question open: typed into the session's active pane, as the root
        // table's unbound keys are.
        let Some(sid) = session else {
            return Err(CommandError::unknown_target("the client has no session"));
        };
        let mut argv = vec!["send-keys".to_string(), "-t".into(), sid.to_string()];
        argv.extend(keys);
        return run_lines(exec, vec![argv]).await;
    }
    for key in parsed {
        let step = {
            let mut clients = exec.server.mux.attached.lock();
            let Some(prompt) = clients.get_mut(&id).and_then(|c| c.prompt.as_mut()) else {
                // Answered or cancelled by an earlier key: the rest are dropped.
                break;
            };
            let step = prompt.key(key);
            if step != Step::Asking
                && let Some(c) = clients.get_mut(&id)
            {
                c.prompt = None;
            }
            step
        };
        match step {
            Step::Asking | Step::Cancelled => {}
            Step::Run(lines) => return run_lines(exec, lines).await,
            Step::Bad(e) => return Err(CommandError::invalid_argument("template", e)),
        }
    }
    Ok(Response::Done)
}

/// Opens a question for a control client, replacing one left open (tmux: a client
/// has one prompt).
pub fn ask(exec: &Exec<'_>, id: u64, prompt: ClientPrompt) {
    if let Some(c) = exec.server.mux.attached.lock().get_mut(&id) {
        c.prompt = Some(prompt);
    }
}

/// Runs answered command lines in order, stopping at the first error (tmux's queue).
async fn run_lines(exec: &mut Exec<'_>, lines: Vec<Argv>) -> Result<Response, CommandError> {
    for argv in lines {
        let command = fugue_verbs::line::command_for_argv(&argv, &Caller::server())
            .map_err(|e| CommandError::invalid_argument("command", e))?;
        crate::reentry::dispatch(Arc::clone(exec.server), exec.origin.clone(), command).await?;
    }
    Ok(Response::Done)
}

super::handler!(cmd::ClientKeys, |exec, cmd::ClientKeys { client, keys }| {
    client_keys(exec, client, keys).await
});
