//! The same program in a fugue pane and in a real tmux pane of the same size, to
//! compare what `capture-pane -p` shows (issue 13). tmux may be missing: then only the
//! fugue side runs and the test says why.

use super::harness::{TIMEOUT, World, eventually};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A private tmux server (its own socket folder, no configuration file) holding one
/// session; killed when dropped.
pub struct Tmux {
    dir: PathBuf,
    socket: String,
}

impl Tmux {
    /// tmux's version line, or None (and a printed reason) when it cannot run.
    pub fn available() -> Option<String> {
        match Command::new("tmux").arg("-V").output() {
            Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).trim().into()),
            _ => {
                eprintln!("tmux is not installed: comparing with tmux skipped");
                None
            }
        }
    }

    /// Starts `sh -c script` in a detached tmux session of `cols` x `rows`.
    pub fn start(dir: &Path, cols: u16, rows: u16, script: &str) -> Option<Tmux> {
        Self::available()?;
        let socket = format!(
            "t{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let t = Tmux {
            dir: dir.to_path_buf(),
            socket,
        };
        let (c, r) = (cols.to_string(), rows.to_string());
        let out = t.run(&["new-session", "-d", "-x", &c, "-y", &r, "sh", "-c", script]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        let size = t.ok(&["display-message", "-p", "#{pane_width}x#{pane_height}"]);
        assert_eq!(size.trim(), format!("{cols}x{rows}"), "tmux pane size");
        Some(t)
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .env("TMUX_TMPDIR", &self.dir)
            .env_remove("TMUX")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("run tmux")
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn capture(&self) -> String {
        self.ok(&["capture-pane", "-p"])
    }
}

impl Tmux {
    /// Types keys (tmux key names, as `send-keys` takes them).
    pub fn send_keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.ok(&args);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        super::harness::stop_servers(&super::harness::tmux_socket(&self.dir, &self.socket));
    }
}

/// Polls `capture` until two reads 150 ms apart agree (the program has gone quiet).
pub fn settled(what: &str, mut capture: impl FnMut() -> String) -> String {
    let start = Instant::now();
    let mut last = capture();
    loop {
        std::thread::sleep(Duration::from_millis(150));
        let now = capture();
        if now == last {
            return now;
        }
        assert!(start.elapsed() < TIMEOUT, "{what} never settled:\n{now}");
        last = now;
    }
}

/// A fugue session `name` whose one pane is `cols` x `rows` and runs `sh -c script`.
pub fn fugue_pane(w: &World, name: &str, cols: u16, rows: u16, script: &str) {
    // Every pane has its own border: the window is two cells larger each way.
    let (x, y) = ((cols + 2).to_string(), (rows + 2).to_string());
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        &x,
        "-y",
        &y,
        "--",
        "sh",
        "-c",
        script,
    ]);
    let panes: Vec<serde_json::Value> =
        serde_json::from_str(&w.ok(&["list-panes", "-t", name, "--json"])).expect("json");
    assert_eq!(
        (panes[0]["width"].as_u64(), panes[0]["height"].as_u64()),
        (Some(u64::from(cols)), Some(u64::from(rows))),
        "fugue pane size"
    );
}

/// What `capture-pane -p` shows after a program printed `bytes` (byte for byte: the
/// terminal is raw, so no newline becomes a carriage return too) in a fugue pane and,
/// if tmux is installed, in a tmux pane.
pub struct Printed {
    pub fugue: String,
    pub tmux: Option<String>,
}

pub fn print_in_both(w: &World, name: &str, cols: u16, rows: u16, bytes: &[u8]) -> Printed {
    let file = w.path(&format!("{name}.bin"));
    std::fs::write(&file, bytes).expect("write bytes");
    let f = file.display();
    let script = |done: &str| {
        format!("stty raw -echo 2>/dev/null; cat '{f}'; : > '{f}.{done}'; exec sleep 600")
    };
    fugue_pane(w, name, cols, rows, &script("fugue"));
    let tmux = Tmux::start(w.dir.path(), cols, rows, &script("tmux"));
    let done = |who: &str| {
        let marker = PathBuf::from(format!("{f}.{who}"));
        eventually(&format!("{name} printed in {who}"), || {
            marker.exists().then_some(())
        });
    };
    done("fugue");
    let fugue = settled(name, || w.ok(&["capture-pane", "-p", "-t", name]));
    let tmux = tmux.map(|t| {
        done("tmux");
        settled(name, || t.capture())
    });
    Printed { fugue, tmux }
}
