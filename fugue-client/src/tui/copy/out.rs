//! Where a copy goes: a paste buffer on the server (`set-buffer`), the terminal's
//! clipboard (OSC 52, written by the client to its own terminal when
//! `set_clipboard` lets fugue's copies through), and `copy_command` (tmux's
//! `copy-pipe`), run by the client with the text on its stdin.

use crate::tui::input::Request;
use crate::tui::state::{App, Pending};
use fugue_protocol::Command;
use fugue_protocol::buffers::{BufferData, SetBuffer};
use std::time::Duration;

/// The largest copy sent to the terminal's clipboard (its base64 is 4/3 of it). Many
/// terminals take far less; beyond this none would, and the copy still reaches the
/// paste buffer and the command.
pub const MAX_CLIPBOARD_BYTES: usize = 1024 * 1024;
/// How long `copy_command` may take before it is killed and the failure shown.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(5);

/// Sends a copy where it goes; `append` adds it to the latest paste buffer instead of
/// making a new one (`A`). Returns the requests to send.
pub fn copy_out(app: &mut App, text: String, append: bool) -> Vec<Request> {
    if text.is_empty() {
        return Vec::new();
    }
    if app.copy_options.clipboard {
        if text.len() <= MAX_CLIPBOARD_BYTES {
            app.terminal_out.extend(osc52(text.as_bytes()));
        } else {
            app.notice("copy too large for the clipboard (over 1 MiB)");
        }
    }
    if !app.copy_options.copy_command.is_empty() {
        run_command(app, app.copy_options.copy_command.clone(), text.clone());
    }
    buffer_request(text, append).into_iter().collect()
}

/// The copy as a paste buffer: tmux's copy-selection makes a new automatic buffer,
/// append-selection adds to the latest (`set-buffer [-a]`).
fn buffer_request(text: String, append: bool) -> Option<Request> {
    Some(Request {
        command: Command::SetBuffer(SetBuffer {
            name: None,
            append,
            rename: None,
            data: Some(BufferData::Text(text)),
            clipboard: false,
            client: None,
        }),
        pending: Pending::Action("set-buffer"),
    })
}

/// `OSC 52 ; c ; base64 BEL`, as tmux writes it.
pub fn osc52(data: &[u8]) -> Vec<u8> {
    let mut out = b"\x1b]52;c;".to_vec();
    out.extend(fugue_protocol::base64::encode(data));
    out.push(0x07);
    out
}

/// Runs `argv` with `text` on its stdin, off the client's loop; a failure (cannot
/// start, exit status, timeout) comes back as a notice.
fn run_command(app: &App, argv: Vec<String>, text: String) {
    let tell = app.notices.clone();
    tokio::spawn(async move {
        if let Err(e) = pipe(&argv, text).await {
            let name = argv.first().map_or("", String::as_str);
            let _ = tell.send(format!("copy_command {name}: {e}"));
        }
    });
}

async fn pipe(argv: &[String], text: String) -> Result<(), String> {
    use tokio::io::AsyncWriteExt;
    use tokio::process::Command;
    let (program, args) = argv.split_first().ok_or("empty")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| e.to_string())?;
    let work = async {
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(text.as_bytes())
                .await
                .map_err(|e| e.to_string())?;
        }
        child.wait().await.map_err(|e| e.to_string())
    };
    match tokio::time::timeout(COMMAND_TIMEOUT, work).await {
        Ok(Ok(status)) if status.success() => Ok(()),
        Ok(Ok(status)) => Err(format!("failed ({status})")),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(format!("timed out after {}s", COMMAND_TIMEOUT.as_secs())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_is_base64_of_the_text() {
        assert_eq!(osc52(b"hi"), b"\x1b]52;c;aGk=\x07");
        assert_eq!(osc52("日".as_bytes()), b"\x1b]52;c;5pel\x07");
    }
}
