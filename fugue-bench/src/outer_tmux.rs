//! An outer tmux as the terminal a client runs in: the method the benchmark issue
//! describes ("the client running inside an outer terminal, for example an outer
//! tmux"). Keys go to the client's stdin through the outer tmux (`send-keys -H` on a
//! control-mode connection, no process per key), and what the client writes comes back
//! as `%output` notifications, parsed into the same [`Screen`] as the PTY terminal's.
//! The outer tmux's own relay time is in every figure, for both multiplexers alike.

use crate::mux::Gate;
use crate::term::{Keyboard, Screen};
use anyhow::Context;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

pub struct TmuxOuter {
    tmux: PathBuf,
    socket: PathBuf,
    control: Child,
    stdin: ChildStdin,
    screen: Arc<Screen>,
}

// (`window-size manual` in a config file makes tmux 3.3a exit at start; the control
// client sets its own size instead.)
const CONFIG: &str = "\
set -g status off
set -g default-terminal xterm-256color
set -g escape-time 0
";

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The command line that runs `inner` once the gate opens.
fn shell_line(inner: &Command, gate: &Gate) -> String {
    let mut line = format!("read _ < {}; exec env", quote(&gate.path.to_string_lossy()));
    for (k, v) in inner.get_envs() {
        if let Some(v) = v {
            line.push(' ');
            line.push_str(&quote(&format!(
                "{}={}",
                k.to_string_lossy(),
                v.to_string_lossy()
            )));
        }
    }
    line.push(' ');
    line.push_str(&quote(&inner.get_program().to_string_lossy()));
    for a in inner.get_args() {
        line.push(' ');
        line.push_str(&quote(&a.to_string_lossy()));
    }
    line
}

/// `%output` data: bytes below space and the backslash come as `\ooo`.
fn unescape(data: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < data.len() {
        if data[i] == b'\\'
            && let Some(oct) = data.get(i + 1..i + 4)
            && oct.iter().all(|b| (b'0'..=b'7').contains(b))
        {
            out.push((oct[0] - b'0') * 64 + (oct[1] - b'0') * 8 + (oct[2] - b'0'));
            i += 4;
            continue;
        }
        out.push(data[i]);
        i += 1;
    }
}

impl TmuxOuter {
    /// Runs `inner` (a client) in a new outer tmux of `size` under `dir`.
    pub fn spawn(
        tmux: &Path,
        inner: &Command,
        size: (u16, u16),
        dir: &Path,
    ) -> anyhow::Result<TmuxOuter> {
        let socket = dir.join("outer.sock");
        let config = dir.join("outer.conf");
        std::fs::write(&config, CONFIG)?;
        let gate = Gate::new(dir, "outer-go")?;
        let base = |args: &[&str]| {
            let mut c = Command::new(tmux);
            c.arg("-S").arg(&socket).arg("-f").arg(&config).args(args);
            c.env_remove("TMUX").env("TERM", "xterm-256color");
            c
        };
        let (w, h) = (size.0.to_string(), size.1.to_string());
        let status = base(&[
            "new-session",
            "-d",
            "-s",
            "o",
            "-x",
            &w,
            "-y",
            &h,
            &shell_line(inner, &gate),
        ])
        .stdin(Stdio::null())
        .status()
        .context("start the outer tmux")?;
        anyhow::ensure!(status.success(), "the outer tmux did not start");
        let mut control = base(&["-C", "attach-session", "-t", "o"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("attach a control client to the outer tmux")?;
        let mut stdin = control.stdin.take().context("control stdin")?;
        // A control client is 80x24 unless told; the window follows its latest client.
        writeln!(stdin, "refresh-client -C {w}x{h}")?;
        stdin.flush()?;
        let stdout = control.stdout.take().context("control stdout")?;
        let screen = Screen::new(size, true);
        let s = Arc::clone(&screen);
        std::thread::Builder::new()
            .name("outer-tmux".into())
            .spawn(move || {
                let mut lines = BufReader::new(stdout);
                let mut line = Vec::new();
                let mut bytes = Vec::new();
                loop {
                    line.clear();
                    match lines.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let at = Instant::now();
                    let Some(rest) = line.strip_prefix(b"%output %") else {
                        continue;
                    };
                    let Some(space) = rest.iter().position(|b| *b == b' ') else {
                        continue;
                    };
                    let data = rest[space + 1..]
                        .strip_suffix(b"\n")
                        .unwrap_or(&rest[space + 1..]);
                    bytes.clear();
                    unescape(data, &mut bytes);
                    s.feed(&bytes, at);
                }
                s.close();
            })?;
        // The size must be set before the client draws its first screen.
        std::thread::sleep(std::time::Duration::from_millis(100));
        gate.open()?;
        Ok(TmuxOuter {
            tmux: tmux.to_path_buf(),
            socket,
            control,
            stdin,
            screen,
        })
    }
}

impl Keyboard for TmuxOuter {
    fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(self.stdin, "send-keys -t o -H {}", hex.join(" "))?;
        self.stdin.flush()?;
        Ok(())
    }

    fn screen(&self) -> &Screen {
        &self.screen
    }
}

impl Drop for TmuxOuter {
    fn drop(&mut self) {
        let _ = Command::new(&self.tmux)
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.control.kill();
        let _ = self.control.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_escapes_are_undone() {
        let mut out = Vec::new();
        unescape(b"a\\033[1mb\\134c\\015\\012", &mut out);
        assert_eq!(out, b"a\x1b[1mb\\c\r\n");
        out.clear();
        unescape(b"\\9x\\", &mut out);
        assert_eq!(out, b"\\9x\\");
    }
}
