//! The paste buffer verbs, with tmux's names, aliases and flags.
//!
//! `save-buffer` and `load-buffer` read and write files here, in the CLI, not in the
//! server as tmux does: the file is the caller's (its path relative to the caller's
//! directory, written with the caller's rights), and the server, which agents reach
//! too, never opens a path for a buffer. A file `save-buffer` creates is 0600: a
//! buffer may hold whatever was on a screen. They run `show-buffer` and `set-buffer`.

use anyhow::Context;
use fugue_protocol::Response;
use fugue_verbs::BufferPrinter;
use std::io::Write;

pub use fugue_verbs::render::buffer_default_line as default_line;

/// Writes `data` to `path`, creating it private (0600).
fn save(path: &std::path::Path, append: bool, data: &str) -> anyhow::Result<()> {
    if path.as_os_str() == "-" {
        return Ok(super::with_out(false, |out| {
            out.write_all(data.as_bytes())
        })?);
    }
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .truncate(!append)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(data.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

pub fn print(out: &mut impl Write, p: &BufferPrinter, resp: &Response) -> anyhow::Result<()> {
    match (p, resp) {
        (BufferPrinter::Save { path, append }, Response::Buffer(b)) => {
            save(path, *append, &b.data)?
        }
        (BufferPrinter::List { json: true, .. }, Response::Buffers(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?
        }
        _ => {}
    }
    Ok(())
}
