//! Starting a pane's program on a PTY, and the three threads that serve it.
//!
//! PTY reads block, so each pane has its own reader thread that feeds the pane's state
//! directly; nothing on the async runtime ever waits for a program, and a reader never
//! waits for a client. Writes that may block go through a writer thread so that a
//! program that stops reading its input cannot stall the dispatcher (see `writer.rs`).
//! A waiter thread collects the exit status. The program itself is started with
//! `posix_spawn` (see `child.rs`).

use super::PaneShared;
use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// What to run and where.
#[derive(Clone, Debug)]
pub struct SpawnSpec {
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub cols: u16,
    pub rows: u16,
    /// The most input bytes that may wait for the program (`server.max_input_bytes`).
    pub max_input_bytes: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("could not open a pseudo-terminal: {0}")]
    Pty(String),
    #[error("could not start `{program}`: {reason}")]
    Program { program: String, reason: String },
}

pub use super::writer::{InputError, PtyInput, WriteJob};

/// The server's handle on a running pane program.
pub struct Pty {
    master: Box<dyn MasterPty + Send>,
    /// The master's descriptor again, for [`Resizer`]: the terminal is sized with the
    /// tree's lock released.
    winsize: Resizer,
    input: PtyInput,
    pid: Option<u32>,
    exited: Arc<AtomicBool>,
}

/// Sets a pane's terminal size (`TIOCSWINSZ`, which signals the program `SIGWINCH`)
/// through its own descriptor of the master, so the tree need not be locked for it.
/// None: a placeholder whose program has not started (it is sized when it attaches).
#[derive(Clone, Debug, Default)]
pub struct Resizer(Option<Arc<std::os::fd::OwnedFd>>);

impl Resizer {
    pub fn set(&self, cols: u16, rows: u16) {
        let Some(fd) = &self.0 else {
            return;
        };
        let size = libc::winsize {
            ws_row: rows.max(1),
            ws_col: cols.max(1),
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCSWINSZ reads `size` and writes nothing of ours.
        let r = unsafe {
            libc::ioctl(
                std::os::fd::AsRawFd::as_raw_fd(&**fd),
                libc::TIOCSWINSZ,
                &size,
            )
        };
        if r != 0 {
            tracing::debug!(error = %std::io::Error::last_os_error(), "resizing a pane's terminal");
        }
    }
}

/// How long to wait after the program exits for the rest of its output to be read.
const DRAIN_GRACE: Duration = Duration::from_millis(250);
/// How long a killed program gets to exit after SIGHUP before SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(2);

fn decode_status(status: i32) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        -1
    }
}

fn wait_pid(pid: i32) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: waitpid writes only to `status`.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            return decode_status(status);
        }
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return -1;
    }
}

impl Pty {
    /// Starts the program. `on_exit` is called once, from the waiter thread, with the
    /// exit status (128+N for signal N) after the program's output has been read.
    pub fn spawn(
        spec: SpawnSpec,
        shared: Arc<PaneShared>,
        events: PaneEvents,
    ) -> Result<Pty, SpawnError> {
        let PaneEvents {
            on_exit,
            on_tags,
            on_signals,
            tap,
        } = events;
        let program = spec.argv.first().cloned().unwrap_or_default();
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: spec.rows.max(1),
                cols: spec.cols.max(1),
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| SpawnError::Pty(e.to_string()))?;
        let pid = start_program(&spec, &program, pair.slave, &*pair.master)?;
        let reader = pair
            .master
            .try_clone_reader()
            .map_err(|e| SpawnError::Pty(e.to_string()))?;
        let writer = pair
            .master
            .take_writer()
            .map_err(|e| SpawnError::Pty(e.to_string()))?;
        let (eof_tx, eof_rx) = mpsc::channel::<()>();
        let exited = Arc::new(AtomicBool::new(false));
        let name = format!("{}", shared.id);
        let master_fd = pair.master.as_raw_fd();
        let input = PtyInput::start(
            format!("pane-writer {name}"),
            writer,
            master_fd.and_then(super::writer::dup_cloexec),
            spec.max_input_bytes,
        )
        .map_err(|e| SpawnError::Pty(format!("could not start a thread: {e}")))?;
        let replies = input.clone();
        let reader_shared = Arc::clone(&shared);
        // The reader's own handle on the master, to see what runs in the foreground.
        let fg_fd = master_fd.and_then(super::writer::dup_cloexec);
        spawn_thread(format!("pane-reader {name}"), move || {
            reader_loop(
                reader,
                &reader_shared,
                &replies,
                (fg_fd, pid),
                &*on_tags,
                &*on_signals,
                &tap,
            );
            let _ = eof_tx.send(());
        })?;
        let exited_flag = Arc::clone(&exited);
        let waiter_shared = Arc::clone(&shared);
        spawn_thread(format!("pane-waiter {name}"), move || {
            let status = wait_pid(pid);
            exited_flag.store(true, Ordering::Release);
            let _ = eof_rx.recv_timeout(DRAIN_GRACE);
            waiter_shared.exited(status);
            on_exit(status);
        })?;
        Ok(Pty {
            master: pair.master,
            winsize: Resizer(master_fd.and_then(super::writer::dup_cloexec).map(Arc::new)),
            input,
            pid: u32::try_from(pid).ok(),
            exited,
        })
    }

    /// Writes bytes for the program.
    pub fn write(&self, bytes: Vec<u8>) -> Result<(), super::writer::InputError> {
        self.input.write(bytes)
    }

    pub fn input(&self) -> PtyInput {
        self.input.clone()
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        let _ = self.master.resize(PtySize {
            rows: rows.max(1),
            cols: cols.max(1),
            pixel_width: 0,
            pixel_height: 0,
        });
    }

    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// A handle that sizes this terminal from anywhere (see [`Resizer`]).
    pub fn resizer(&self) -> Resizer {
        self.winsize.clone()
    }

    pub fn has_exited(&self) -> bool {
        self.exited.load(Ordering::Acquire)
    }

    /// The pane's terminal device (`/dev/pts/N`, tmux's `pane_tty`).
    pub fn tty_name(&self) -> Option<String> {
        self.master
            .tty_name()
            .map(|p| p.to_string_lossy().into_owned())
    }

    /// The process group in the foreground of the pane's terminal.
    pub fn foreground_pgrp(&self) -> Option<i32> {
        self.master
            .as_raw_fd()
            .and_then(super::process::foreground_group)
    }

    /// Ends the program the way closing a terminal does: SIGHUP to the program and
    /// whatever runs in the foreground, then SIGKILL if it is still there after a grace
    /// period.
    pub fn kill(&self) {
        let Some(pid) = self.pid else { return };
        let pid = pid as i32;
        let fg = self.foreground_pgrp();
        for pgrp in [Some(pid), fg].into_iter().flatten() {
            super::process::signal_group(pgrp, libc::SIGHUP);
            super::process::signal_group(pgrp, libc::SIGCONT);
        }
        let exited = Arc::clone(&self.exited);
        let _ = std::thread::Builder::new()
            .name("pane-killer".into())
            .spawn(move || {
                std::thread::sleep(KILL_GRACE);
                if !exited.load(Ordering::Acquire) {
                    super::process::signal_group(pid, libc::SIGKILL);
                }
            });
    }
}

/// Starts the program on the PTY's slave side; returns its pid. The server's copy of
/// the slave is closed afterwards, or the reader would never see the end of output.
fn start_program(
    spec: &SpawnSpec,
    program: &str,
    slave: Box<dyn portable_pty::SlavePty + Send>,
    master: &(dyn MasterPty + Send),
) -> Result<i32, SpawnError> {
    let failed = |reason: String| SpawnError::Program {
        program: program.to_string(),
        reason,
    };
    let pid = match master.tty_name() {
        Some(tty) => super::child::spawn(&super::child::ChildSpec {
            argv: &spec.argv,
            env: &spec.env,
            cwd: spec.cwd.as_deref(),
            tty: &tty,
        })
        .map_err(|e| failed(e.to_string()))?,
        // A PTY without a name to open: let portable-pty fork and set it up.
        None => {
            let mut cmd = CommandBuilder::new(program);
            cmd.args(spec.argv.iter().skip(1));
            if let Some(cwd) = &spec.cwd {
                cmd.cwd(cwd);
            }
            for (k, v) in &spec.env {
                cmd.env(k, v);
            }
            let child = slave
                .spawn_command(cmd)
                .map_err(|e| failed(e.to_string()))?;
            // Reaped with waitpid by the waiter thread, for the real signal number.
            child
                .process_id()
                .and_then(|p| i32::try_from(p).ok())
                .ok_or_else(|| failed("it has no process id".into()))?
        }
    };
    Ok(pid)
}

fn spawn_thread(name: String, f: impl FnOnce() + Send + 'static) -> Result<(), SpawnError> {
    std::thread::Builder::new()
        .name(name)
        .spawn(f)
        .map(|_| ())
        .map_err(|e| SpawnError::Pty(format!("could not start a thread: {e}")))
}

/// What a pane's threads report to the server.
pub struct PaneEvents {
    /// Called once, from the waiter thread, with the exit status (128+N for signal N)
    /// after the program's output has been read.
    pub on_exit: Box<dyn FnOnce(i32) + Send>,
    /// Called from the reader thread with sideband tags found in the output (and how
    /// many possible tags overflowed the size bound or lacked the pane's key).
    pub on_tags: Box<dyn Fn(super::tags::Scanned) + Send>,
    /// Called from the reader thread when the output rang the bell or asked to set or
    /// read the clipboard (never with the pane's lock held); returns an answer to write
    /// back to the program (the clipboard, when the config lets programs read it).
    pub on_signals: Box<dyn Fn(super::passthrough::Signals) -> Option<Vec<u8>> + Send>,
    /// The server's raw-output tap (control clients' `%output`).
    pub tap: std::sync::Arc<super::tap::OutputTap>,
}

fn reader_loop(
    mut reader: Box<dyn Read + Send>,
    shared: &PaneShared,
    replies: &PtyInput,
    (fg_fd, pid): (Option<std::os::fd::OwnedFd>, i32),
    on_tags: &(dyn Fn(super::tags::Scanned) + Send),
    on_signals: &(dyn Fn(super::passthrough::Signals) -> Option<Vec<u8>> + Send),
    tap: &super::tap::OutputTap,
) {
    use std::os::fd::AsRawFd;
    let fd = fg_fd.as_ref().map(|f| f.as_raw_fd());
    let quiet = shared.sideband.release_after().as_millis() as u64;
    let mut buf = vec![0u8; 64 * 1024];
    let mut dropped_replies: u64 = 0;
    let mut osc_dropped: u64 = 0;
    // Whether the scanner holds back a possible tag: then the read waits at most `quiet`
    // after the last output for more, and shows what it holds if none comes.
    let mut holding = false;
    let mut last_read = 0u64;
    // When to look at what runs in the foreground (`foreground.rs`): armed by output,
    // so a quiet pane's reader only blocks in `read`.
    let mut looks = super::foreground::Looks::new();
    loop {
        let now = shared.now_ms();
        if let Some(fd) = fd
            && looks.due().is_some_and(|due| due <= now)
        {
            looks.looked(now);
            // Output came from a program that has run its own code, so no look sees
            // our own child between fork and exec.
            let pgrp = super::process::foreground_group(fd).unwrap_or(pid);
            if let Some(found) = super::foreground::Foreground::of(pgrp) {
                shared.record_foreground(found);
            }
        }
        let release = holding.then(|| last_read + quiet);
        if release.is_some_and(|at| at <= now) {
            let seq = {
                let mut state = shared.state.lock();
                state.release_held().then(|| state.seq())
            };
            if let Some(seq) = seq {
                tracing::debug!(
                    "pane {}: a possible sideband tag was still open after {quiet} ms of quiet; shown as text",
                    shared.id,
                );
                shared.changed(seq, false);
            }
            holding = false;
        }
        // Until the next look or release, if any, wait for output with a deadline.
        let wake = [looks.due(), holding.then(|| last_read + quiet)]
            .into_iter()
            .flatten()
            .min();
        if let (Some(wake), Some(fd)) = (wake, fd)
            && !readable_within(fd, Duration::from_millis(wake.saturating_sub(now)))
        {
            continue;
        }
        let n = match reader.read(&mut buf) {
            Ok(n) if n > 0 => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // End of file, or EIO once every process has closed the terminal: what the
            // scanner still holds was the program's last word, and is shown.
            _ => {
                let seq = {
                    let mut state = shared.state.lock();
                    state.release_held().then(|| state.seq())
                };
                if let Some(seq) = seq {
                    shared.changed(seq, false);
                }
                return;
            }
        };
        // Control clients hear the bytes as the program wrote them: one relaxed load
        // per read while none is attached.
        if tap.is_on() {
            tap.send(shared.id, &buf[..n]);
        }
        last_read = shared.now_ms();
        looks.output(last_read);
        let scan = shared.sideband.active(fd, last_read);
        let (mut out, seq, dropped) = {
            let mut state = shared.state.lock();
            let out = state.process_scanning(&buf[..n], scan);
            holding = state.holds_tag();
            shared.set_synchronized(state.sync_since());
            (out, state.seq(), state.osc_dropped())
        };
        if !out.signals.is_empty()
            && let Some(answer) = on_signals(std::mem::take(&mut out.signals))
        {
            out.replies.extend(answer);
        }
        if !out.replies.is_empty()
            && let Err(e) = replies.write(out.replies)
        {
            // A program that asks its terminal questions without reading the answers
            // (or has exited): the answers are dropped, not queued without bound.
            dropped_replies = dropped_replies.saturating_add(1);
            if dropped_replies.is_power_of_two() {
                tracing::warn!(
                    "pane {}: {dropped_replies} terminal answer(s) dropped so far: {e}",
                    shared.id
                );
            }
        }
        if dropped > osc_dropped {
            osc_dropped = dropped;
            if dropped.is_power_of_two() {
                tracing::warn!(
                    "pane {}: dropped {dropped} OSC string(s) longer than the limit (server.max_osc_bytes)",
                    shared.id
                );
            }
        }
        shared.changed(seq, true);
        if out.title_changed {
            shared.announce(crate::hub::Change::Title(shared.id));
        }
        if !out.sideband.is_empty() {
            on_tags(out.sideband);
        }
    }
}

/// Waits until the terminal `fd` has output (or has closed) or `timeout` passes; false
/// when it passed with nothing to read.
fn readable_within(fd: i32, timeout: Duration) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
    loop {
        // SAFETY: poll reads and writes only the one pollfd, which outlives the call.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        // Readable, hung up or failed: the read that follows tells which.
        return r != 0;
    }
}
