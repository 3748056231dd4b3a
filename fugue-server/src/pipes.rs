//! `pipe-pane`: a pane's output to a shell command's input, and/or the command's
//! output typed into the pane, as tmux's.
//!
//! The output comes from the raw-output tap (`pane/tap.rs`), which the reader thread
//! calls without blocking: each pipe's sink only queues, bounded, and drops (with a log
//! line) what a command that reads too slowly has not taken. A pane has at most one
//! pipe; a new one replaces it. The command ends when its pipe closes (the pane closes,
//! `pipe-pane` with no command, or the server exits: the child is killed on drop).

use crate::pane::tap::{OutputSink, OutputTap};
use crate::pane::writer::PtyInput;
use fugue_protocol::PaneId;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Pipes open at once, server-wide: each is a process and two tasks.
pub const MAX_PIPES: usize = 64;
/// Output queued for one pipe's command and not yet read by it; past it, output is
/// dropped for that command (the pane is never slowed).
pub const MAX_QUEUED_BYTES: usize = 1 << 20;

/// Hands one pane's output to its pipe's writer task.
struct PipeSink {
    pane: PaneId,
    tx: tokio::sync::mpsc::UnboundedSender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    dropped: AtomicU64,
}

impl OutputSink for PipeSink {
    fn output(&self, pane: PaneId, bytes: &[u8]) {
        if pane != self.pane {
            return;
        }
        let queued = self.queued.load(Ordering::Acquire);
        if queued.saturating_add(bytes.len()) > MAX_QUEUED_BYTES {
            let n = self
                .dropped
                .fetch_add(1, Ordering::Relaxed)
                .saturating_add(1);
            if n.is_power_of_two() {
                tracing::warn!(
                    "pipe-pane {pane}: the command reads too slowly; {n} chunk(s) of output dropped so far"
                );
            }
            return;
        }
        self.queued.fetch_add(bytes.len(), Ordering::AcqRel);
        let _ = self.tx.send(bytes.to_vec());
    }
}

/// An open pipe: dropping it ends the command and its tasks.
struct Pipe {
    sink: Arc<dyn OutputSink>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// Killed when dropped (`kill_on_drop`).
    _child: Arc<tokio::sync::Mutex<tokio::process::Child>>,
}

impl Drop for Pipe {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// What a new pipe does.
pub struct PipeSpec {
    pub pane: PaneId,
    pub command: String,
    pub cwd: Option<std::path::PathBuf>,
    /// The pane's output goes to the command's input.
    pub output: bool,
    /// The command's output is typed into the pane.
    pub input: Option<PtyInput>,
}

pub struct Pipes {
    tap: Arc<OutputTap>,
    open: Mutex<HashMap<PaneId, Pipe>>,
}

impl Pipes {
    pub fn new(tap: Arc<OutputTap>) -> Pipes {
        Pipes {
            tap,
            open: Mutex::new(HashMap::new()),
        }
    }

    pub fn is_open(&self, pane: PaneId) -> bool {
        self.open.lock().contains_key(&pane)
    }

    /// Closes the pane's pipe, if it has one; whether it had.
    pub fn close(&self, pane: PaneId) -> bool {
        let Some(pipe) = self.open.lock().remove(&pane) else {
            return false;
        };
        self.tap.remove(&pipe.sink);
        true
    }

    /// Starts `spec.command` with `/bin/sh -c` as the pane's pipe (replacing one it
    /// had). Must run on the runtime.
    pub fn open(&self, spec: PipeSpec) -> Result<(), String> {
        self.close(spec.pane);
        if self.open.lock().len() >= MAX_PIPES {
            return Err(format!(
                "{MAX_PIPES} panes are piped already; close one with `pipe-pane -t PANE` first"
            ));
        }
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(&spec.command)
            .stdin(if spec.output {
                std::process::Stdio::piped()
            } else {
                std::process::Stdio::null()
            })
            .stdout(if spec.input.is_some() {
                std::process::Stdio::piped()
            } else {
                std::process::Stdio::null()
            })
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        if let Some(dir) = spec.cwd.as_ref().filter(|d| d.is_dir()) {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start /bin/sh for pipe-pane: {e}"))?;
        let pane = spec.pane;
        let mut tasks = Vec::new();
        let queued = Arc::new(AtomicUsize::new(0));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
        if let Some(mut stdin) = child.stdin.take() {
            let queued = Arc::clone(&queued);
            tasks.push(tokio::spawn(async move {
                while let Some(chunk) = rx.recv().await {
                    queued.fetch_sub(chunk.len(), Ordering::AcqRel);
                    if stdin.write_all(&chunk).await.is_err() {
                        tracing::info!("pipe-pane {pane}: the command stopped reading");
                        return;
                    }
                }
            }));
        }
        if let (Some(mut stdout), Some(input)) = (child.stdout.take(), spec.input) {
            tasks.push(tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                loop {
                    match stdout.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => {
                            let bytes = buf.get(..n).unwrap_or_default().to_vec();
                            if let Err(e) = input.write(bytes) {
                                tracing::info!(
                                    "pipe-pane {pane}: the pane takes no more input: {e:?}"
                                );
                                return;
                            }
                        }
                    }
                }
            }));
        }
        let sink: Arc<dyn OutputSink> = Arc::new(PipeSink {
            pane,
            tx,
            queued,
            dropped: AtomicU64::new(0),
        });
        if spec.output {
            self.tap.add(Arc::clone(&sink));
        }
        tracing::info!("pipe-pane {pane}: `{}` started", spec.command);
        self.open.lock().insert(
            pane,
            Pipe {
                sink,
                tasks,
                _child: Arc::new(tokio::sync::Mutex::new(child)),
            },
        );
        Ok(())
    }
}
