//! Finding the server's socket, and starting the server when none runs.

use crate::connection::{ConnectError, Connection};
use anyhow::{Context, bail};
use fugue_protocol::PaneId;
use fugue_protocol::message::ClientKind;
use fugue_protocol::paths::{self, ProcessEnv};
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which server to talk to.
#[derive(Clone, Debug)]
pub struct ServerAddr {
    pub socket: PathBuf,
    pub config: Option<PathBuf>,
    /// tmux's path for this server (`tmux -L NAME` through fugue): a server this
    /// client starts links it to its socket.
    pub tmux_alias: Option<PathBuf>,
    /// Started through the `tmux` name: a server this client starts draws tmux's
    /// shared pane borders and gives panes tmux's sizes (`pane-borders shared`).
    pub tmux_look: bool,
}

impl ServerAddr {
    /// `-S PATH` wins, then `-L NAME`, then the default server.
    pub fn resolve(
        socket: Option<PathBuf>,
        name: Option<String>,
        config: Option<PathBuf>,
    ) -> anyhow::Result<ServerAddr> {
        // Inside a pane, commands talk to the server that runs the pane, as in tmux.
        let inherited =
            std::env::var_os("FUGUE_SOCKET").filter(|s| !s.is_empty() && name.is_none());
        let socket = match socket.or(inherited.map(PathBuf::from)) {
            Some(s) => std::path::absolute(&s)
                .with_context(|| format!("bad socket path {}", s.display()))?,
            None => {
                let name = name.unwrap_or_else(|| paths::DEFAULT_SERVER_NAME.into());
                if name.is_empty() || name.contains('/') {
                    bail!(
                        "invalid server name `{name}`: it must be non-empty and contain no `/` (use -S for a path)"
                    );
                }
                // SAFETY: getuid cannot fail.
                let uid = unsafe { libc::getuid() };
                paths::socket_path(&ProcessEnv, uid, &name)
            }
        };
        let config = match config {
            Some(c) => Some(
                std::path::absolute(&c)
                    .with_context(|| format!("bad config path {}", c.display()))?,
            ),
            None => None,
        };
        Ok(ServerAddr {
            socket,
            config,
            tmux_alias: None,
            tmux_look: false,
        })
    }

    /// The pane this process runs in, if it runs in one of this server's panes.
    pub fn caller_pane(&self) -> Option<PaneId> {
        let socket = std::env::var_os("FUGUE_SOCKET")?;
        if Path::new(&socket) != self.socket {
            return None;
        }
        std::env::var("FUGUE_PANE_ID").ok()?.parse().ok()
    }
}

/// How long a client keeps at a server that is exiting, and at starting a new one
/// after it: the old one lets its socket go within about two seconds.
const RESTART_PATIENCE: Duration = Duration::from_secs(10);
/// Between two tries while a server exits.
const RETRY_PAUSE: Duration = Duration::from_millis(20);

/// Where the server at `addr` writes its log.
pub fn log_path(addr: &ServerAddr) -> PathBuf {
    crate::connection::log_path(&addr.socket)
}

/// Connects to a running server. One that is exiting (its last session ended as we
/// connected, or it went away mid-handshake) is waited out: then there is no server.
pub async fn connect(addr: &ServerAddr, kind: ClientKind) -> Result<Connection, ConnectError> {
    let deadline = Instant::now() + RESTART_PATIENCE;
    loop {
        match Connection::open(&addr.socket, kind, addr.caller_pane()).await {
            Err(ConnectError::Exiting(_) | ConnectError::Closed) if Instant::now() < deadline => {
                tokio::time::sleep(RETRY_PAUSE).await;
            }
            other => return other,
        }
    }
}

/// Connects, starting the server first when none runs (again, when the one found was
/// exiting: a new one starts once the old one released the socket's lock).
pub async fn connect_or_start(addr: &ServerAddr, kind: ClientKind) -> anyhow::Result<Connection> {
    let deadline = Instant::now() + RESTART_PATIENCE;
    loop {
        match connect(addr, kind).await {
            Err(ConnectError::NoServer(_)) => {}
            other => return Ok(other?),
        }
        let addr2 = addr.clone();
        let started = tokio::task::spawn_blocking(move || start_server(&addr2)).await?;
        match started {
            Ok(()) => {}
            // Another server holds the lock: the one exiting, or one another client
            // is starting. Look again.
            Err(e) if is_lock_held(&e) && Instant::now() < deadline => {
                tokio::time::sleep(RETRY_PAUSE).await;
            }
            Err(e) => return Err(e),
        }
        if Instant::now() >= deadline {
            return Ok(connect(addr, kind).await?);
        }
    }
}

/// True when a start failed only because another server holds the socket's lock.
pub fn is_lock_held(e: &anyhow::Error) -> bool {
    e.downcast_ref::<LockHeld>().is_some()
}

/// The server could not start because another holds the socket's lock.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct LockHeld(String);

/// The server binary: next to this one, then on PATH.
fn server_binary() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        let candidate = dir.join("fugue-server");
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join("fugue-server");
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    bail!(
        "cannot find the `fugue-server` binary next to `fugue` or on PATH; install both (cargo install --path fugue-server)"
    )
}

/// Starts a server and waits until it listens (it prints `ready`).
pub fn start_server(addr: &ServerAddr) -> anyhow::Result<()> {
    let bin = server_binary()?;
    let mut cmd = Command::new(&bin);
    cmd.arg("--socket").arg(&addr.socket);
    if let Some(c) = &addr.config {
        cmd.arg("--config").arg(c);
    }
    if let Some(a) = &addr.tmux_alias {
        cmd.arg("--tmux-alias").arg(a);
    }
    if addr.tmux_look {
        cmd.arg("--pane-borders").arg("shared");
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setsid in the child before exec; it touches no memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {}", bin.display()))?;
    let stdout = child.stdout.take().context("no stdout from the server")?;
    let mut line = String::new();
    let mut lines = BufReader::new(stdout);
    // Lines before `ready` are notices for the person (why the previous server ended).
    loop {
        line.clear();
        match lines.read_line(&mut line) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
        match line.trim().strip_prefix("notice: ") {
            Some(notice) => eprintln!("fugue: {notice}"),
            None => break,
        }
    }
    if line.trim() == "ready" {
        // Reap the server whenever it exits, so it never lingers as a zombie of ours.
        std::thread::spawn(move || {
            let _ = child.wait();
        });
        return Ok(());
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let status = child.wait()?;
    let err = err.trim();
    let err = err.strip_prefix("fugue-server: ").unwrap_or(err);
    if status.code() == Some(3) {
        // Another client started it at the same moment; wait until it listens. Or the
        // server that is exiting still holds the lock: the caller tries again.
        for _ in 0..100 {
            if std::os::unix::net::UnixStream::connect(&addr.socket).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        return Err(LockHeld(err.to_string()).into());
    }
    bail!(
        "{}",
        if err.is_empty() {
            format!("the server did not start ({status})")
        } else {
            err.to_string()
        }
    )
}
