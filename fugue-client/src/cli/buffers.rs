//! The paste buffer verbs, with tmux's names, aliases and flags.
//!
//! `save-buffer` and `load-buffer` read and write files here, in the CLI, not in the
//! server as tmux does: the file is the caller's (its path relative to the caller's
//! directory, written with the caller's rights), and the server, which agents reach
//! too, never opens a path for a buffer. A file `save-buffer` creates is 0600: a
//! buffer may hold whatever was on a screen. They run `show-buffer` and `set-buffer`.

use super::format;
use anyhow::Context;
use fugue_protocol::Response;
use fugue_protocol::buffers::BufferInfo;
use fugue_verbs::BufferPrinter;
use std::io::Write;

/// A buffer as `list-buffers` prints it by default (also `C-b #` in the client).
pub fn default_line(b: &BufferInfo) -> String {
    format!("{}: {} bytes: \"{}\"", b.name, b.size, b.sample)
}

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
        (BufferPrinter::Show, Response::Buffer(b)) => out.write_all(b.data.as_bytes())?,
        (BufferPrinter::Save { path, append }, Response::Buffer(b)) => {
            save(path, *append, &b.data)?
        }
        (BufferPrinter::List { json: true, .. }, Response::Buffers(list)) => {
            writeln!(out, "{}", serde_json::to_string_pretty(list)?)?
        }
        (BufferPrinter::List { format, .. }, Response::Buffers(list)) => {
            let lines = format.as_deref().map(|f| format::buffer_lines(f, list));
            for (i, b) in list.iter().enumerate() {
                match &lines {
                    Some(l) => writeln!(out, "{}", l.get(i).map_or("", String::as_str))?,
                    None => writeln!(out, "{}", default_line(b))?,
                }
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tmux's default `list-buffers` format.
    const DEFAULT_FORMAT: &str = "#{buffer_name}: #{buffer_size} bytes: \"#{buffer_sample}\"";

    #[test]
    fn the_default_line_is_tmuxs_format() {
        let b = BufferInfo {
            name: "buffer0".into(),
            size: 5,
            created: 1,
            automatic: true,
            sample: "hello".into(),
            head: "hello".into(),
        };
        assert_eq!(
            format::buffer_lines(DEFAULT_FORMAT, std::slice::from_ref(&b))[0],
            default_line(&b)
        );
    }
}
