//! Paste buffer commands: `set-buffer`, `show-buffer`, `list-buffers`,
//! `delete-buffer`, `paste-buffer` (tmux 3.5's semantics; the store is
//! `crate::buffers`). The audit log gets each buffer's name and size, never its text.

use super::Exec;
use crate::buffers::Viewer;
use fugue_protocol::buffers::{BufferContent, BufferData, PasteBuffer, SetBuffer};
use fugue_protocol::cmd;
use fugue_protocol::{CapturePane, CommandError, InputPart, Response};

/// Who sees which buffers: an agent limited to its own panes (`mcp_scope` or
/// `sideband_scope` = "own") sees only the buffers it made, so it cannot read what a
/// person copied.
fn viewer(exec: &Exec<'_>) -> Viewer {
    if exec.scope.is_all() {
        Viewer::default()
    } else {
        Viewer {
            only: Some(exec.origin.to_string()),
        }
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// What the audit record says about a buffer: its name and size.
fn note(exec: &mut Exec<'_>, name: &str, bytes: usize) {
    exec.detail = Some(serde_json::json!({ "buffer": name, "buffer_bytes": bytes }));
}

pub fn set_buffer(exec: &mut Exec<'_>, c: SetBuffer) -> Result<Response, CommandError> {
    let viewer = viewer(exec);
    if let Some(to) = &c.rename {
        if c.data.is_some() {
            return Err(CommandError::invalid_argument(
                "-n",
                "renaming takes no data; rename and fill in two calls",
            ));
        }
        let name = exec
            .server
            .buffers
            .lock()
            .rename(c.name.as_deref(), to, &viewer)?;
        exec.resolved = Some(format!("buffer {name}"));
        return Ok(Response::Done);
    }
    let data = match c.data {
        Some(BufferData::Text(t)) => t,
        Some(BufferData::Pane(p)) => match super::io::capture(
            exec,
            CapturePane {
                escapes: false,
                ..p
            },
        )? {
            Response::Captured(t) => t,
            _ => return Err(CommandError::internal("capture-pane answered otherwise")),
        },
        None => {
            return Err(CommandError::invalid_argument(
                "data",
                "give the text to store (or -n to rename)",
            ));
        }
    };
    let limit = exec.server.config().server.buffer_limit;
    let stored = exec.server.buffers.lock().set(
        c.name.as_deref(),
        &data,
        c.append,
        limit,
        &viewer,
        now(),
    )?;
    let Some(name) = stored else {
        return Ok(Response::Buffers(Vec::new()));
    };
    note(exec, &name, data.len());
    if exec.resolved.is_none() {
        exec.resolved = Some(format!("buffer {name}"));
    }
    if c.clipboard {
        to_clipboard(exec, c.client.as_deref(), data.as_bytes())?;
    }
    let info = {
        let buffers = exec.server.buffers.lock();
        let mut info = buffers.get(Some(&name), &viewer)?.info();
        // The caller has the text; only the name and size matter in the answer.
        info.head.clear();
        info
    };
    Ok(Response::Buffers(vec![info]))
}

/// `set-buffer -w` / `load-buffer -w`: the text goes to a client's terminal as OSC 52
/// (the clipboard selection), as tmux's tty_set_selection: the named client, else the
/// calling one, else the most recently active. With no client attached that is
/// tmux's error.
fn to_clipboard(exec: &Exec<'_>, client: Option<&str>, data: &[u8]) -> Result<(), CommandError> {
    let Some(id) = super::clients::find_client(exec, client) else {
        return Err(CommandError::new(
            fugue_protocol::ErrorCode::UnknownTarget,
            match client {
                Some(name) => format!("can't find client: {name}"),
                None => "no current client".to_string(),
            },
        ));
    };
    let copy = fugue_protocol::passthrough::ClipboardCopy {
        selection: "c".into(),
        // OSC 52 carries base64, as a program's copy arrives.
        data: fugue_protocol::base64::encode(data),
    };
    if let Some(c) = exec.server.mux.attached.lock().get(&id) {
        c.control
            .post(crate::attached::Control::Clipboard(std::sync::Arc::new(
                copy,
            )));
    }
    Ok(())
}

pub fn show_buffer(exec: &mut Exec<'_>, name: Option<&str>) -> Result<Response, CommandError> {
    let viewer = viewer(exec);
    let (name, data) = {
        let buffers = exec.server.buffers.lock();
        let b = buffers.get(name, &viewer)?;
        (b.name.clone(), b.data.clone())
    };
    note(exec, &name, data.len());
    exec.resolved = Some(format!("buffer {name}"));
    Ok(Response::Buffer(BufferContent { name, data }))
}

pub fn list_buffers(exec: &mut Exec<'_>) -> Result<Response, CommandError> {
    let viewer = viewer(exec);
    let list = exec
        .server
        .buffers
        .lock()
        .list(&viewer)
        .map(|b| b.info())
        .collect();
    Ok(Response::Buffers(list))
}

pub fn delete_buffer(exec: &mut Exec<'_>, name: Option<&str>) -> Result<Response, CommandError> {
    let viewer = viewer(exec);
    let b = exec.server.buffers.lock().delete(name, &viewer)?;
    note(exec, &b.name, b.data.len());
    exec.resolved = Some(format!("buffer {}", b.name));
    Ok(Response::Done)
}

/// Types a buffer into a pane as tmux's `paste-buffer` does: each line feed becomes
/// the separator (a carriage return unless `-s`/`-r` say otherwise), and with `-p` the
/// whole is a bracketed paste if the program enabled mode 2004.
pub async fn paste_buffer(exec: &mut Exec<'_>, c: PasteBuffer) -> Result<Response, CommandError> {
    let pane = exec
        .server
        .mux
        .tree()
        .resolve_pane(c.target.as_ref(), &exec.ctx)?;
    exec.resolved = Some(pane.to_string());
    let viewer = viewer(exec);
    let found = {
        let buffers = exec.server.buffers.lock();
        match buffers.get(c.name.as_deref(), &viewer) {
            Ok(b) => Some((b.name.clone(), b.data.clone())),
            // tmux pastes nothing, and says nothing, when there is no buffer at all.
            Err(_) if c.name.is_none() => None,
            Err(e) => return Err(e),
        }
    };
    let Some((name, data)) = found else {
        return Ok(Response::Done);
    };
    note(exec, &name, data.len());
    let separator = c.separator.as_deref().unwrap_or("\r");
    // A long separator times many lines must not make an unbounded string.
    let lines = data.bytes().filter(|b| *b == b'\n').count();
    let size = lines
        .saturating_mul(separator.len())
        .saturating_add(data.len().saturating_sub(lines));
    if size > 2 * fugue_protocol::buffers::MAX_BUFFER_BYTES {
        return Err(CommandError::new(
            fugue_protocol::ErrorCode::LimitExceeded,
            format!(
                "with separator -s the paste would be {size} bytes, over the limit of {} bytes",
                2 * fugue_protocol::buffers::MAX_BUFFER_BYTES
            ),
        )
        .with_suggestion("use a shorter separator"));
    }
    let text = if separator == "\n" {
        data
    } else {
        data.replace('\n', separator)
    };
    let part = if c.bracketed {
        InputPart::Paste(text)
    } else {
        InputPart::Text(text)
    };
    // A pane whose input is off (`select-pane -d`) gets nothing, as in tmux; `-d`
    // still deletes the buffer.
    let input_off = exec
        .server
        .mux
        .tree()
        .panes
        .get(&pane)
        .is_some_and(|p| p.input_off);
    if !input_off {
        super::io::deliver(exec.server, pane, std::slice::from_ref(&part)).await?;
    }
    if c.delete {
        // Gone already (deleted meanwhile) is what was asked for.
        let _ = exec.server.buffers.lock().delete(Some(&name), &viewer);
    }
    Ok(Response::Done)
}

super::handler!(fugue_protocol::SetBuffer, |exec, c| set_buffer(exec, c));
super::handler!(cmd::ShowBuffer, |exec, cmd::ShowBuffer { name }| {
    show_buffer(exec, name.as_deref())
});
super::handler!(cmd::ListBuffers, |exec, _| list_buffers(exec));
super::handler!(cmd::DeleteBuffer, |exec, cmd::DeleteBuffer { name }| {
    delete_buffer(exec, name.as_deref())
});
super::handler!(fugue_protocol::PasteBuffer, |exec, c| paste_buffer(exec, c)
    .await);
