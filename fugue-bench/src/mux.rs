//! The two multiplexers under test, driven the same way: through their command lines,
//! each with its own private socket, state and config, started fresh for every sample.

use anyhow::{Context, bail};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Which multiplexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Fugue,
    Tmux,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Fugue => "fugue",
            Kind::Tmux => "tmux",
        }
    }
}

/// Where the programs are.
#[derive(Clone, Debug)]
pub struct Bins {
    pub fugue: PathBuf,
    pub fugue_server: PathBuf,
    pub tmux: Option<PathBuf>,
    pub valgrind: Option<PathBuf>,
    /// This benchmark binary (its `emit` mode is the busy program of some workloads).
    pub bench: PathBuf,
}

/// Finds a program on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The session every workload runs in.
pub const SESSION: &str = "bench";

/// How a server is started.
#[derive(Clone, Debug, Default)]
pub struct StartOpts {
    /// Run the server under `valgrind --tool=callgrind`, writing counts here.
    pub callgrind: Option<PathBuf>,
    /// Size of the session's windows' panes (columns, rows), without borders.
    pub pane: (u16, u16),
}

/// A running multiplexer server with one session, `bench`, whose first window holds a
/// pane that keeps the server alive.
pub struct Mux {
    pub kind: Kind,
    bins: Bins,
    pub dir: tempfile::TempDir,
    socket: PathBuf,
    config: PathBuf,
    /// The server process when we started it in the foreground (fugue always; tmux
    /// under valgrind).
    server: Option<Child>,
    pub pid: u32,
}

const FUGUE_CONFIG: &str = "\
[server]
history_limit = 10000
[sideband]
mode = \"on\"
[policy]
mcp = [\"read\", \"write\", \"destroy\"]
";

const TMUX_CONFIG: &str = "\
set -g history-limit 10000
set -g status on
";

impl Mux {
    pub fn start(kind: Kind, bins: &Bins, opts: &StartOpts) -> anyhow::Result<Mux> {
        let dir = tempfile::Builder::new().prefix("fugue-bench-").tempdir()?;
        for sub in ["run", "state", "config", "home"] {
            use std::os::unix::fs::DirBuilderExt;
            // Both servers insist on a private socket folder.
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(dir.path().join(sub))?;
        }
        let socket = dir.path().join("run/sock");
        let config = dir.path().join("config/bench.conf");
        std::fs::write(
            &config,
            match kind {
                Kind::Fugue => FUGUE_CONFIG,
                Kind::Tmux => TMUX_CONFIG,
            },
        )?;
        let mut mux = Mux {
            kind,
            bins: bins.clone(),
            dir,
            socket,
            config,
            server: None,
            pid: 0,
        };
        let (w, h) = mux.session_size(opts.pane);
        let (w, h) = (w.to_string(), h.to_string());
        match kind {
            Kind::Fugue => {
                mux.start_fugue_server(opts.callgrind.as_deref())?;
                mux.run(&[
                    "new-session",
                    "-d",
                    "-s",
                    SESSION,
                    "-x",
                    &w,
                    "-y",
                    &h,
                    "--",
                    "sleep 1000000",
                ])?;
            }
            Kind::Tmux => {
                if let Some(out) = &opts.callgrind {
                    mux.start_tmux_foreground(out)?;
                }
                mux.run(&[
                    "new-session",
                    "-d",
                    "-s",
                    SESSION,
                    "-x",
                    &w,
                    "-y",
                    &h,
                    "sleep 1000000",
                ])?;
                if mux.server.is_none() {
                    mux.pid = mux
                        .run(&["display-message", "-p", "#{pid}"])?
                        .trim()
                        .parse()?;
                }
            }
        }
        Ok(mux)
    }

    fn tmux_bin(&self) -> anyhow::Result<&Path> {
        self.bins
            .tmux
            .as_deref()
            .context("tmux is not installed (apt-get install -y tmux)")
    }

    fn envs(&self) -> Vec<(&'static str, PathBuf)> {
        let p = |s: &str| self.dir.path().join(s);
        vec![
            ("XDG_RUNTIME_DIR", p("run")),
            ("XDG_STATE_HOME", p("state")),
            ("XDG_CONFIG_HOME", p("config")),
            ("HOME", p("home")),
            ("SHELL", "/bin/sh".into()),
            ("TERM", "xterm-256color".into()),
        ]
    }

    fn base(&self, program: &Path) -> Command {
        let mut c = Command::new(program);
        for k in [
            "TMUX",
            "TMUX_PANE",
            "FUGUE_SOCKET",
            "FUGUE_PANE_ID",
            "FUGUE_LOG",
        ] {
            c.env_remove(k);
        }
        for (k, v) in self.envs() {
            c.env(k, v);
        }
        c.current_dir(self.dir.path());
        c
    }

    fn start_fugue_server(&mut self, callgrind: Option<&Path>) -> anyhow::Result<()> {
        let mut c = match (callgrind, &self.bins.valgrind) {
            (Some(out), Some(vg)) => {
                let mut c = self.base(vg);
                c.arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}.%p", out.display()))
                    .arg(&self.bins.fugue_server);
                c
            }
            (Some(_), None) => bail!("valgrind is not installed"),
            (None, _) => self.base(&self.bins.fugue_server),
        };
        c.arg("--socket")
            .arg(&self.socket)
            .arg("--config")
            .arg(&self.config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().context("start fugue-server")?;
        let out = child.stdout.take().context("server stdout")?;
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line)?;
        if line.trim() != "ready" {
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            bail!("fugue-server did not start: {}", err.trim());
        }
        // Nothing more is read from it; the server detaches from both pipes.
        drop(child.stderr.take());
        self.pid = child.id();
        self.server = Some(child);
        Ok(())
    }

    fn start_tmux_foreground(&mut self, callgrind: &Path) -> anyhow::Result<()> {
        let vg = self
            .bins
            .valgrind
            .clone()
            .context("valgrind is not installed")?;
        let tmux = self.tmux_bin()?.to_path_buf();
        let mut c = self.base(&vg);
        c.arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}.%p", callgrind.display()))
            .arg(tmux)
            .arg("-S")
            .arg(&self.socket)
            .arg("-f")
            .arg(&self.config)
            .arg("-D")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let child = c.spawn().context("start tmux under valgrind")?;
        self.pid = child.id();
        self.server = Some(child);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.socket.exists() {
            if Instant::now() > deadline {
                bail!("tmux did not create its socket under valgrind");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// The session size that gives a one-pane window panes of `pane` size: fugue
    /// draws a border around every pane.
    pub fn session_size(&self, pane: (u16, u16)) -> (u16, u16) {
        match self.kind {
            Kind::Fugue => (pane.0 + 2, pane.1 + 2),
            Kind::Tmux => pane,
        }
    }

    /// The terminal size of a client whose one-pane window has panes of `pane` size
    /// (borders and the status bar added).
    pub fn client_size(&self, pane: (u16, u16)) -> (u16, u16) {
        let (w, h) = self.session_size(pane);
        (w, h + 1)
    }

    /// A command line for this multiplexer: `fugue -S SOCK ...` or `tmux -S SOCK ...`.
    pub fn cli(&self, args: &[&str]) -> Command {
        let program = match self.kind {
            Kind::Fugue => self.bins.fugue.clone(),
            Kind::Tmux => self.bins.tmux.clone().unwrap_or_else(|| "tmux".into()),
        };
        let mut c = self.base(&program);
        c.arg("-S").arg(&self.socket);
        if self.kind == Kind::Tmux {
            c.arg("-f").arg(&self.config);
        }
        c.args(args);
        c
    }

    /// Runs a verb that must succeed; returns its output.
    pub fn run(&self, args: &[&str]) -> anyhow::Result<String> {
        let out = self
            .cli(args)
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("run {} {args:?}", self.kind.name()))?;
        if !out.status.success() {
            bail!(
                "{} {args:?} failed: {}",
                self.kind.name(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The arguments that end a verb with a shell command for the new pane.
    fn with_command<'a>(&self, mut args: Vec<&'a str>, command: &'a str) -> Vec<&'a str> {
        if self.kind == Kind::Fugue {
            args.push("--");
        }
        args.push(command);
        args
    }

    /// A new window in the bench session running `command` (a shell command line);
    /// returns its pane id.
    pub fn new_window(&self, command: &str, select: bool) -> anyhow::Result<String> {
        self.new_window_with(command, select, &[])
    }

    /// [`Self::new_window`] with extra flags (e.g. `--sideband`).
    pub fn new_window_with(
        &self,
        command: &str,
        select: bool,
        flags: &[&str],
    ) -> anyhow::Result<String> {
        let mut args = vec!["new-window", "-t", SESSION, "-P", "-F", "#{pane_id}"];
        if !select {
            args.push("-d");
        }
        args.extend_from_slice(flags);
        Ok(self
            .run(&self.with_command(args, command))?
            .trim()
            .to_string())
    }

    /// Splits `target` (side by side), leaving the active pane as it is.
    pub fn split(&self, target: &str, command: &str) -> anyhow::Result<String> {
        let args = vec![
            "split-window",
            "-h",
            "-d",
            "-t",
            target,
            "-P",
            "-F",
            "#{pane_id}",
        ];
        Ok(self
            .run(&self.with_command(args, command))?
            .trim()
            .to_string())
    }

    /// The command that splits `target` with `command` (not run).
    pub fn split_command(&self, target: &str, command: &str) -> Command {
        let args = vec!["split-window", "-d", "-t", target];
        self.cli(&self.with_command(args, command))
    }

    /// The command that makes a new window running `command` (not run).
    pub fn new_window_command(&self, command: &str) -> Command {
        let args = vec!["new-window", "-d", "-t", SESSION];
        self.cli(&self.with_command(args, command))
    }

    pub fn tiled(&self, target: &str) -> anyhow::Result<()> {
        self.run(&["select-layout", "-t", target, "tiled"])
            .map(|_| ())
    }

    /// The pane's visible screen as text.
    pub fn capture(&self, pane: &str) -> anyhow::Result<String> {
        self.run(&["capture-pane", "-p", "-t", pane])
    }

    /// Waits until `text` is on the pane's screen.
    pub fn wait_screen(&self, pane: &str, text: &str, timeout: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            if self.capture(pane)?.contains(text) {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!(
                    "{}: `{text}` did not appear on pane {pane} within {timeout:?}",
                    self.kind.name()
                );
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The command that attaches a client to the bench session.
    pub fn attach_command(&self) -> Command {
        let mut c = self.cli(&["attach-session", "-t", SESSION]);
        c.env("TERM", "xterm-256color");
        c
    }

    /// Starts a client attached to the bench session, in a terminal of `size`.
    pub fn attach(&self, size: (u16, u16), parse: bool) -> anyhow::Result<crate::term::Outer> {
        crate::term::Outer::spawn(self.attach_command(), size, parse)
    }

    /// The server's resident memory, in bytes.
    pub fn rss(&self) -> anyhow::Result<u64> {
        crate::proc::rss(self.pid)
    }

    /// CPU time the server has used so far.
    pub fn cpu(&self) -> anyhow::Result<Duration> {
        crate::proc::cpu_time(self.pid)
    }

    /// Ends the server and waits for it to go (under valgrind, that writes the counts).
    pub fn stop(mut self) -> anyhow::Result<()> {
        self.stop_inner()
    }

    fn stop_inner(&mut self) -> anyhow::Result<()> {
        if self.pid == 0 {
            return Ok(());
        }
        let _ = self
            .cli(&["kill-server"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let gone = match &mut self.server {
                Some(child) => child.try_wait()?.is_some(),
                None => !crate::proc::alive(self.pid),
            };
            if gone {
                break;
            }
            if Instant::now() > deadline {
                crate::proc::kill(self.pid);
                bail!("{} server {} did not exit", self.kind.name(), self.pid);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.pid = 0;
        Ok(())
    }
}

impl Drop for Mux {
    fn drop(&mut self) {
        if self.pid != 0 {
            let _ = self.stop_inner();
        }
    }
}

/// A named pipe the pane's program blocks on until the benchmark says go, so that the
/// clock starts with the program's output and not with the pane's creation.
pub struct Gate {
    pub path: PathBuf,
}

impl Gate {
    pub fn new(dir: &Path, name: &str) -> anyhow::Result<Gate> {
        let path = dir.join(name);
        crate::proc::mkfifo(&path)?;
        Ok(Gate { path })
    }

    /// The shell command that waits for the gate, then runs `then`.
    pub fn guard(&self, then: &str) -> String {
        format!("read _ < {}; {then}", self.path.display())
    }

    /// Opens the gate (blocks until the program is waiting at it).
    pub fn open(&self) -> anyhow::Result<()> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().write(true).open(&self.path)?;
        f.write_all(b"\n")?;
        Ok(())
    }

    /// The shell command that runs `first`, then tells us (and stays, so the pane
    /// does not close).
    pub fn after(&self, first: &str) -> String {
        format!(
            "{first}; echo > {}; exec sleep 1000000",
            self.path.display()
        )
    }

    /// The shell command that tells us it runs by opening the pipe, then runs `then`.
    pub fn signal(&self, then: &str) -> String {
        format!("echo > {}; exec {then}", self.path.display())
    }

    /// Waits until a program opened the pipe with [`Self::signal`] and wrote to it.
    pub fn wait_signal(&self) -> anyhow::Result<()> {
        use std::io::Read;
        let mut f = std::fs::File::open(&self.path)?;
        let mut buf = [0u8; 16];
        let _ = f.read(&mut buf)?;
        Ok(())
    }
}
