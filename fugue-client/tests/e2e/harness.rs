//! Test fixtures: an isolated server per test, CLI calls, and a terminal client in a
//! PTY whose screen is parsed with vt100.

use parking_lot::{Condvar, Mutex};
use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The most output of a terminal client a test keeps (older bytes are dropped).
pub const RAW_KEEP: usize = 8 << 20;

pub fn fugue_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_fugue"))
}

/// The variables that tell programs they run under CI (`CI`, `CONTINUOUS_INTEGRATION`,
/// any `CI_*`: the `is-in-ci` package's test). A pane is a person's terminal: under
/// them, ink-based CLIs such as Gemini CLI refuse their interactive mode and exit.
pub fn ci_variables() -> Vec<std::ffi::OsString> {
    std::env::vars_os()
        .map(|(k, _)| k)
        .filter(|k| {
            let k = k.to_string_lossy();
            k == "CI" || k == "CONTINUOUS_INTEGRATION" || k.starts_with("CI_")
        })
        .collect()
}

/// Removing many variables from a command's environment.
trait EnvRemoveAll {
    fn env_remove_all(&mut self, keys: Vec<std::ffi::OsString>) -> &mut Self;
}

impl EnvRemoveAll for Command {
    fn env_remove_all(&mut self, keys: Vec<std::ffi::OsString>) -> &mut Self {
        for k in keys {
            self.env_remove(k);
        }
        self
    }
}

/// One isolated fugue world: its own socket, state, config and runtime folders.
pub struct World {
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
}

impl World {
    pub fn new() -> World {
        let server = fugue_bin().with_file_name("fugue-server");
        assert!(
            server.is_file(),
            "{} is missing: build the whole workspace first (cargo test --workspace builds it)",
            server.display()
        );
        let dir = tempfile::tempdir().expect("temp dir");
        for sub in ["run", "state", "config", "home"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        let socket = dir.path().join("run/fugue/test");
        World { dir, socket }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn state_dir(&self) -> PathBuf {
        self.path("state/fugue")
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.state_dir().join("server-test.log")).unwrap_or_default()
    }

    fn envs(&self) -> Vec<(&'static str, String)> {
        let p = |s: &str| self.path(s).to_string_lossy().into_owned();
        vec![
            ("XDG_RUNTIME_DIR", p("run")),
            // tmux's socket folder, where `tmux -L NAME` links its socket.
            ("TMUX_TMPDIR", p("run")),
            ("XDG_STATE_HOME", p("state")),
            ("XDG_CONFIG_HOME", p("config")),
            ("HOME", p("home")),
            ("SHELL", "/bin/sh".into()),
            ("TERM", "xterm-256color".into()),
            ("PS1", "$ ".into()),
            ("ENV", String::new()),
        ]
    }

    /// A `fugue` command against this world's server.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = self.cmd_unaddressed(&[]);
        c.arg("-S").arg(&self.socket).args(args);
        c
    }

    /// A `fugue` command in this world's environment that names no socket: the server
    /// it reaches is the one its own flags (`-L`) or the default name pick.
    pub fn cmd_unaddressed(&self, args: &[&str]) -> Command {
        let mut c = Command::new(fugue_bin());
        c.args(args);
        c.env_remove("FUGUE_PANE_ID")
            .env_remove("FUGUE_SOCKET")
            .env_remove("TMUX");
        for k in ci_variables() {
            c.env_remove(k);
        }
        for (k, v) in self.envs() {
            c.env(k, v);
        }
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().expect("run fugue")
    }

    /// Runs a verb that must succeed and returns its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "fugue {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Panes as `list-panes -a --json` reports them.
    pub fn panes(&self) -> Vec<serde_json::Value> {
        let out = self.ok(&["list-panes", "-a", "--json"]);
        serde_json::from_str(&out).expect("list-panes json")
    }

    /// Starts a terminal client in a PTY of the given size, a terminal that answers
    /// no query.
    pub fn tui(&self, args: &[&str], cols: u16, rows: u16) -> Tui {
        self.tui_in(Answers::None, args, cols, rows)
    }

    /// Starts a terminal client in a PTY that answers queries as `answers` says.
    pub fn tui_in(&self, answers: Answers, args: &[&str], cols: u16, rows: u16) -> Tui {
        let mut cmd = CommandBuilder::new(fugue_bin());
        cmd.arg("-S");
        cmd.arg(&self.socket);
        for a in args {
            cmd.arg(a);
        }
        cmd.env_remove("FUGUE_PANE_ID");
        cmd.env_remove("FUGUE_SOCKET");
        for (k, v) in self.envs() {
            cmd.env(k, v);
        }
        cmd.cwd(self.dir.path());
        Tui::spawn_answering(cmd, cols, rows, answers)
    }

    /// Runs a shell script in a PTY, with this world's environment and `$FUGUE` set
    /// to `fugue -S SOCKET`.
    pub fn sh(&self, script: &str, cols: u16, rows: u16) -> Tui {
        let mut cmd = CommandBuilder::new("/bin/sh");
        cmd.arg("-c");
        cmd.arg(script);
        cmd.env_remove("FUGUE_PANE_ID");
        cmd.env_remove("FUGUE_SOCKET");
        for (k, v) in self.envs() {
            cmd.env(k, v);
        }
        cmd.env(
            "FUGUE",
            format!("{} -S {}", fugue_bin().display(), self.socket.display()),
        );
        cmd.cwd(self.dir.path());
        Tui::spawn(cmd, cols, rows)
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]).output();
        // Whatever else the test started here (fugue servers under other names, tmux
        // servers with their sockets in this folder, a server that did not hear
        // kill-server) would outlive the test, and the folder, otherwise.
        stop_servers(self.dir.path());
    }
}

/// Stops every tmux or fugue server listening on a Unix socket at `path` or under it
/// (a test's own folder or socket): waits two seconds for them to go by themselves,
/// then signals them (SIGTERM, and SIGKILL a few seconds later). For Drop guards: a server a test started must not outlive it, pass or
/// fail (three full runs once left 81 tmux servers behind). Servers are found by the
/// socket they listen on (/proc/net/unix keeps a socket's path after its file is
/// removed), so no other process is touched. Best effort: never panics.
pub fn stop_servers(path: &Path) {
    // A server told to stop (kill-server) takes a moment to close its panes and go:
    // give it that before signalling.
    let grace = Instant::now() + Duration::from_secs(2);
    let pids = loop {
        let pids = servers_listening_at(path);
        if pids.is_empty() {
            return;
        }
        if Instant::now() >= grace {
            break pids;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    eprintln!(
        "stopping servers left running under {}: {pids:?}",
        path.display()
    );
    for &pid in &pids {
        // SAFETY: kill(2) with a pid read from /proc just now; no memory is shared.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for &pid in pids.iter().filter(|&&p| running(p)) {
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// Whether a process exists and is not a zombie (a zombie holds no socket).
fn running(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses and may hold any
        // character: look after the last `)`.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// The tmux and fugue server processes (not this one) holding a listening Unix socket
/// bound at `path` or under it.
fn servers_listening_at(path: &Path) -> Vec<libc::pid_t> {
    let path = path.to_string_lossy();
    let under = format!("{}/", path.trim_end_matches('/'));
    let Ok(table) = std::fs::read_to_string("/proc/net/unix") else {
        return Vec::new();
    };
    // Num RefCount Protocol Flags Type St Inode Path: the inodes of sockets bound here.
    let inodes: std::collections::HashSet<String> = table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let bound = *fields.get(7)?;
            (bound == path || bound.starts_with(&under)).then(|| fields[6].to_string())
        })
        .collect();
    if inodes.is_empty() {
        return Vec::new();
    }
    let me = std::process::id();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for entry in procs.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        // Only servers: tmux's server calls itself `tmux: server`; fugue's is its binary.
        let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        if !(comm.starts_with("tmux") || comm.trim_end() == "fugue-server") {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        let holds = fds.flatten().any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|l| {
                l.to_str()
                    .and_then(|l| l.strip_prefix("socket:["))
                    .and_then(|l| l.strip_suffix(']'))
                    .is_some_and(|inode| inodes.contains(inode))
            })
        });
        if holds {
            pids.extend(libc::pid_t::try_from(pid).ok());
        }
    }
    pids
}

/// Where `tmux -L name` with `TMUX_TMPDIR=tmpdir` puts its socket.
pub fn tmux_socket(tmpdir: &Path, name: &str) -> PathBuf {
    // SAFETY: getuid cannot fail and touches no memory.
    let uid = unsafe { libc::getuid() };
    tmpdir.join(format!("tmux-{uid}")).join(name)
}

/// Waits for a condition that depends on the server's state, re-checking it briefly.
/// (Screens of terminal clients are awaited with [`Tui::wait`], which is event-driven.)
pub fn eventually<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < TIMEOUT, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long [`settle_for_negative_check`] lets the system run.
pub const SETTLE: Duration = Duration::from_millis(500);

/// Lets the system run for [`SETTLE`] before a test checks that something did NOT
/// happen, where no later event can prove the earlier input was handled (each caller
/// says why none can). Never a wait for something to happen: those wait on the event
/// ([`eventually`], [`Tui::wait`], [`Tui::typed_through`]), with the one [`TIMEOUT`].
/// A check after it can miss a late wrong effect, never report a false one.
pub fn settle_for_negative_check() {
    std::thread::sleep(SETTLE);
}

struct Screen {
    parser: Mutex<vt100::Parser>,
    /// Every byte the program wrote to its terminal (the last [`RAW_KEEP`] of them).
    raw: Mutex<Vec<u8>>,
    changed: Condvar,
    /// The client process closed the PTY.
    closed: Mutex<bool>,
    /// Everything the client wrote, and the terminal's answers to its queries.
    term: Mutex<Term>,
}

/// Which queries the test's terminal answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// None (the client must not wait for answers).
    None,
    /// Device attributes, as every terminal does: a terminal without the kitty
    /// keyboard protocol.
    Plain,
    /// Device attributes and the kitty keyboard protocol's `CSI ? u`, keeping the
    /// stack of flags the client pushes and pops.
    Kitty,
    /// Device attributes, and a light theme's colours when asked (OSC 10: black
    /// text, OSC 11: [`LIGHT_BG`]), as a person's light-coloured terminal does.
    Light,
}

/// The background a [`Answers::Light`] terminal answers OSC 11 with.
pub const LIGHT_BG: &str = "rgb:ffff/ffff/dddd";

/// The test's terminal beyond the screen: what the client wrote, and its queries'
/// answers.
struct Term {
    answers: Answers,
    /// Everything the client wrote (tests are short; capped at 16 MiB all the same).
    written: Vec<u8>,
    /// How far `written` has been scanned for queries.
    scanned: usize,
    kitty: Vec<u16>,
    /// How far `written` has been scanned for colour queries.
    osc_scanned: usize,
}

impl Term {
    /// Answers OSC 10/11 colour queries in new output, for a [`Answers::Light`]
    /// terminal.
    fn scan_colors(&mut self) -> Vec<u8> {
        let mut answers = Vec::new();
        if self.answers != Answers::Light {
            return answers;
        }
        const QUERY: usize = b"\x1b]10;?\x1b\\".len();
        let w = &self.written;
        let mut i = self.osc_scanned;
        while let Some(at) = w[i..]
            .windows(QUERY)
            .position(|q| q == b"\x1b]10;?\x1b\\" || q == b"\x1b]11;?\x1b\\")
        {
            let q = &w[i + at..i + at + QUERY];
            let (n, color) = if q[3] == b'0' {
                ("10", "rgb:0000/0000/0000")
            } else {
                ("11", LIGHT_BG)
            };
            answers.extend_from_slice(format!("\x1b]{n};{color}\x1b\\").as_bytes());
            i += at + QUERY;
        }
        // A query cut at the end is looked at again when the rest comes.
        self.osc_scanned = i.max(w.len().saturating_sub(QUERY - 1));
        answers
    }

    /// Scans new output for the queries and kitty protocol requests this terminal
    /// knows; returns the answers to write back.
    fn scan(&mut self) -> Vec<u8> {
        let mut answers = Vec::new();
        let w = &self.written;
        let mut i = self.scanned;
        while let Some(at) = w[i..].windows(2).position(|p| p == b"\x1b[") {
            let start = i + at + 2;
            // Private marker, parameters, final byte.
            let mut j = start;
            let marker = w.get(j).copied().filter(|b| b"<=>?".contains(b));
            if marker.is_some() {
                j += 1;
            }
            while w.get(j).is_some_and(|b| b.is_ascii_digit() || *b == b';') {
                j += 1;
            }
            let Some(&fin) = w.get(j) else {
                // Incomplete: look again when more comes.
                self.scanned = i + at;
                return answers;
            };
            let param: u16 = std::str::from_utf8(&w[start + usize::from(marker.is_some())..j])
                .ok()
                .and_then(|s| s.split(';').next()?.parse().ok())
                .unwrap_or(0);
            match (self.answers, marker, fin) {
                (Answers::Plain | Answers::Kitty | Answers::Light, None, b'c') => {
                    answers.extend_from_slice(b"\x1b[?62;22c")
                }
                (Answers::Kitty, Some(b'?'), b'u') => {
                    let flags = self.kitty.last().copied().unwrap_or(0);
                    answers.extend_from_slice(format!("\x1b[?{flags}u").as_bytes());
                }
                (Answers::Kitty, Some(b'>'), b'u') => self.kitty.push(param),
                (Answers::Kitty, Some(b'<'), b'u') => {
                    let n = usize::from(param.max(1));
                    self.kitty.truncate(self.kitty.len().saturating_sub(n));
                }
                _ => {}
            }
            i = j + 1;
        }
        // Keep a trailing ESC for the next scan.
        self.scanned = w.len().saturating_sub(1).max(i.min(w.len()));
        answers
    }
}

/// A terminal client running in a PTY.
pub struct Tui {
    master: Box<dyn MasterPty + Send>,
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    screen: Arc<Screen>,
}

impl Tui {
    /// Runs any program in a PTY (tmux, to compare with), a terminal that answers no
    /// queries.
    pub fn spawn(cmd: CommandBuilder, cols: u16, rows: u16) -> Tui {
        Tui::spawn_answering(cmd, cols, rows, Answers::None)
    }

    fn spawn_answering(cmd: CommandBuilder, cols: u16, rows: u16, answers: Answers) -> Tui {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let child = pair.slave.spawn_command(cmd).expect("spawn fugue");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = Arc::new(Mutex::new(pair.master.take_writer().expect("writer")));
        let screen = Arc::new(Screen {
            parser: Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)),
            raw: Mutex::new(Vec::new()),
            changed: Condvar::new(),
            closed: Mutex::new(false),
            term: Mutex::new(Term {
                answers,
                written: Vec::new(),
                scanned: 0,
                kitty: Vec::new(),
                osc_scanned: 0,
            }),
        });
        let s = Arc::clone(&screen);
        let answer = Arc::clone(&writer);
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let replies = {
                            let mut term = s.term.lock();
                            if term.written.len() < 16 << 20 {
                                term.written.extend_from_slice(&buf[..n]);
                            }
                            let mut replies = term.scan_colors();
                            replies.extend(term.scan());
                            replies
                        };
                        if !replies.is_empty() {
                            let mut w = answer.lock();
                            let _ = w.write_all(&replies);
                            let _ = w.flush();
                        }
                        s.parser.lock().process(&buf[..n]);
                        {
                            let mut raw = s.raw.lock();
                            if raw.len() + n > RAW_KEEP {
                                let cut = (raw.len() + n - RAW_KEEP).min(raw.len());
                                raw.drain(..cut);
                            }
                            raw.extend_from_slice(&buf[..n]);
                        }
                        s.changed.notify_all();
                    }
                }
            }
            *s.closed.lock() = true;
            s.changed.notify_all();
        });
        Tui {
            master: pair.master,
            writer,
            child,
            screen,
        }
    }

    /// Types bytes as if on the keyboard.
    pub fn send(&mut self, bytes: &[u8]) {
        let mut w = self.writer.lock();
        w.write_all(bytes).expect("write to client");
        w.flush().expect("flush");
    }

    /// Everything the client has written to its terminal.
    pub fn written(&self) -> Vec<u8> {
        self.screen.term.lock().written.clone()
    }

    /// The kitty keyboard flags the client has pushed and not popped (with
    /// [`Answers::Kitty`]).
    pub fn kitty_stack(&self) -> Vec<u16> {
        self.screen.term.lock().kitty.clone()
    }

    /// The prefix, then a key.
    pub fn prefix(&mut self, key: &[u8]) {
        self.send(b"\x02");
        self.send(key);
    }

    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.screen
            .parser
            .lock()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize");
    }

    /// Writes bytes to the test's copy of the terminal as if some other program had
    /// written them (the client does not know).
    pub fn feed(&self, bytes: &[u8]) {
        self.screen.parser.lock().process(bytes);
    }

    pub fn contents(&self) -> String {
        self.screen.parser.lock().screen().contents()
    }

    /// The client's process id (to stop and continue it).
    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    pub fn screen<T>(&self, f: impl FnOnce(&vt100::Screen) -> T) -> T {
        f(self.screen.parser.lock().screen())
    }

    /// Waits until `pred` holds for the screen; panics with the screen if it does not.
    pub fn wait(&self, what: &str, pred: impl Fn(&vt100::Screen) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        let mut parser = self.screen.parser.lock();
        loop {
            if pred(parser.screen()) {
                return;
            }
            if Instant::now() >= deadline {
                panic!(
                    "timed out waiting for {what}; the screen was:\n{}",
                    parser.screen().contents()
                );
            }
            self.screen.changed.wait_until(&mut parser, deadline);
        }
    }

    /// The bytes the program wrote to its terminal so far (the last [`RAW_KEEP`]).
    pub fn raw(&self) -> Vec<u8> {
        self.screen.raw.lock().clone()
    }

    /// Waits until `pred` holds for the bytes written so far; panics with them if not.
    pub fn wait_raw(&self, what: &str, pred: impl Fn(&[u8]) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        let mut parser = self.screen.parser.lock();
        loop {
            if pred(&self.screen.raw.lock()) {
                return;
            }
            if Instant::now() >= deadline {
                let raw = self.raw();
                let tail = &raw[raw.len().saturating_sub(2000)..];
                panic!(
                    "timed out waiting for {what}; the last bytes were:\n{}",
                    String::from_utf8_lossy(tail).escape_debug()
                );
            }
            self.screen.changed.wait_until(&mut parser, deadline);
        }
    }

    /// Types a line into the shell of the pane the client shows and waits for its
    /// output: every key typed before it has been handled by then (the client and the
    /// server take keys in order). A positive marker for tests that check that some
    /// key did nothing, where a fixed sleep would only guess. ^U first clears what the
    /// line discipline holds of earlier keys.
    pub fn typed_through(&mut self) {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.send(format!("\x15echo typed-through-$(({n}*11))\r").as_bytes());
        self.wait_text(&format!("typed-through-{}", n * 11));
    }

    pub fn wait_text(&self, text: &str) {
        self.wait(&format!("`{text}` on screen"), |s| {
            s.contents().contains(text)
        });
    }

    /// Waits for the client process to exit and returns its status code.
    pub fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // The client's last bytes (leaving the alternate screen) may still be
                // on their way through the PTY: read to its end before looking.
                let mut closed = self.screen.closed.lock();
                let drained = Instant::now() + Duration::from_secs(5);
                while !*closed && Instant::now() < drained {
                    self.screen
                        .changed
                        .wait_for(&mut closed, Duration::from_millis(50));
                }
                return status.exit_code();
            }
            assert!(
                Instant::now() < deadline,
                "client did not exit; screen:\n{}",
                self.contents()
            );
            let mut closed = self.screen.closed.lock();
            if !*closed {
                self.screen
                    .changed
                    .wait_for(&mut closed, Duration::from_millis(50));
            }
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The bottom row of a screen: a client's status line.
pub fn status_line(s: &vt100::Screen) -> String {
    let (rows, cols) = s.size();
    s.rows(0, cols.get())
        .nth(usize::from(rows.get()) - 1)
        .unwrap_or_default()
}

/// Number of pane boxes on a screen: top-left corners of borders.
pub fn count_boxes(screen: &vt100::Screen) -> usize {
    screen.contents().matches('┌').count()
}

pub fn nz(v: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(v).unwrap_or(std::num::NonZeroU16::MIN)
}

/// Writes the world's config file (`$XDG_CONFIG_HOME/fugue/config.toml`), read by the
/// next server that starts in it.
pub fn write_config(w: &World, text: &str) {
    let dir = w.path("config/fugue");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

/// A tmux server of a test's own, to compare with: socket `t` in the world's folder,
/// started with `conf` (written there), and killed when dropped, however the test ends.
pub struct TestTmux {
    dir: PathBuf,
    conf: PathBuf,
}

impl TestTmux {
    pub fn new(w: &World, conf: &str) -> TestTmux {
        let path = w.path("tmux.conf");
        std::fs::write(&path, conf).expect("tmux.conf");
        TestTmux {
            dir: w.dir.path().to_path_buf(),
            conf: path,
        }
    }

    /// A shell line that runs `tmux ARGS` (already quoted for sh) in the foreground,
    /// for a PTY: `new-session "program"`, `attach -t s`.
    pub fn script(&self, args: &str) -> String {
        format!(
            "TMUX_TMPDIR='{}' exec tmux -L t -f '{}' {args}",
            self.dir.display(),
            self.conf.display()
        )
    }

    /// Runs a tmux command against this server. The server it starts gives its panes
    /// the shell fugue's test panes run (World's SHELL, PS1 and ENV), as the PTY started
    /// by [`TestTmux::script`] does: not the machine's login shell, whose start-up files
    /// (here bash running `pyenv init`) took over 15 s beside two CPU hogs and whose
    /// prompt names the working directory.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .env("TMUX_TMPDIR", &self.dir)
            .env("SHELL", "/bin/sh")
            .env("PS1", "$ ")
            .env("ENV", "")
            .env_remove("TMUX")
            .env_remove_all(ci_variables())
            .arg("-L")
            .arg("t")
            .arg("-f")
            .arg(&self.conf)
            .args(args)
            .output()
            .expect("tmux")
    }

    /// Runs a tmux command that must succeed; its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for TestTmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .env("TMUX_TMPDIR", &self.dir)
            .args(["-L", "t", "kill-server"])
            .output();
        // kill-server misses a server still starting, or one whose folder is gone.
        stop_servers(&tmux_socket(&self.dir, "t"));
    }
}
