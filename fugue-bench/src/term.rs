//! The outer terminal: a PTY that a multiplexer's client runs in, as it would in a
//! terminal emulator. Its output is either drained (read and thrown away, as fast as a
//! terminal would take it) or parsed with vt100 so the benchmark can see the screen.

use parking_lot::{Condvar, Mutex};
use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A condition on the screen, checked by the reader thread after every chunk so the
/// time it became true is the time the chunk arrived, not when a waiter woke up.
struct Probe {
    pred: Box<dyn Fn(&vt100::Screen) -> bool + Send>,
    hit: Option<Instant>,
}

/// What an outer terminal shows: the client's output parsed (or only counted), and the
/// probes waiting on it.
pub struct Screen {
    parser: Mutex<Option<vt100::Parser>>,
    probe: Mutex<Option<Probe>>,
    changed: Condvar,
    bytes: AtomicU64,
    closed: Mutex<bool>,
}

impl Screen {
    pub fn new((cols, rows): (u16, u16), parse: bool) -> Arc<Screen> {
        Arc::new(Screen {
            parser: Mutex::new(parse.then(|| vt100::Parser::new(nz(rows), nz(cols), 0))),
            probe: Mutex::new(None),
            changed: Condvar::new(),
            bytes: AtomicU64::new(0),
            closed: Mutex::new(false),
        })
    }

    /// Output of the client that arrived at `at`.
    pub fn feed(&self, chunk: &[u8], at: Instant) {
        self.bytes.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        let mut parser = self.parser.lock();
        if let Some(p) = parser.as_mut() {
            p.process(chunk);
            let mut probe = self.probe.lock();
            if let Some(pr) = probe.as_mut().filter(|p| p.hit.is_none())
                && (pr.pred)(p.screen())
            {
                pr.hit = Some(at);
            }
        }
        drop(parser);
        self.changed.notify_all();
    }

    /// The client's output ended.
    pub fn close(&self) {
        *self.closed.lock() = true;
        self.changed.notify_all();
    }

    /// Bytes the client has written to its terminal so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Waits until the client has written at least `n` bytes.
    pub fn wait_bytes(&self, n: u64, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut closed = self.closed.lock();
        while self.bytes() < n {
            if *closed || Instant::now() >= deadline {
                return false;
            }
            self.changed
                .wait_for(&mut closed, Duration::from_millis(20));
        }
        true
    }

    /// Arms a probe: from now on, the first chunk after which `pred` holds is timed.
    pub fn arm(&self, pred: impl Fn(&vt100::Screen) -> bool + Send + 'static) {
        *self.probe.lock() = Some(Probe {
            pred: Box::new(pred),
            hit: None,
        });
    }

    /// Waits for the armed probe; returns when its condition became true.
    pub fn wait_probe(&self, timeout: Duration) -> Option<Instant> {
        let deadline = Instant::now() + timeout;
        let mut parser = self.parser.lock();
        loop {
            if let Some(hit) = self.probe.lock().as_ref().and_then(|p| p.hit) {
                return Some(hit);
            }
            if Instant::now() >= deadline {
                return None;
            }
            self.changed.wait_until(&mut parser, deadline);
        }
    }

    pub fn contents(&self) -> String {
        self.parser
            .lock()
            .as_ref()
            .map(|p| p.screen().contents())
            .unwrap_or_default()
    }
}

/// Something keys can be typed into whose screen can be watched.
pub trait Keyboard {
    fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()>;
    fn screen(&self) -> &Screen;
}

/// A client running in a PTY.
pub struct Outer {
    /// Kept open: closing the master would hang up the client.
    _master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    shared: Arc<Screen>,
}

fn nz(v: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(v).unwrap_or(std::num::NonZeroU16::MIN)
}

/// Startup queries a client may make of its terminal, and our answers (a terminal
/// that never answers makes some clients wait).
const ANSWERS: &[(&[u8], &[u8])] = &[(b"\x1b[c", b"\x1b[?62;22c"), (b"\x1b[>c", b"\x1b[>0;10;1c")];

impl Outer {
    pub fn spawn(
        command: std::process::Command,
        (cols, rows): (u16, u16),
        parse: bool,
    ) -> anyhow::Result<Outer> {
        let pair = native_pty_system().openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })?;
        let mut cmd = CommandBuilder::new(command.get_program());
        cmd.args(command.get_args());
        for (k, v) in command.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            }
        }
        if let Some(dir) = command.get_current_dir() {
            cmd.cwd(dir);
        }
        let child = pair.slave.spawn_command(cmd)?;
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader()?;
        let mut answer = pair.master.take_writer()?;
        let writer = answer_writer(&*pair.master)?;
        let shared = Screen::new((cols, rows), parse);
        let s = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("outer-terminal".into())
            .spawn(move || {
                let mut buf = vec![0u8; 1 << 16];
                let mut startup = 0usize;
                loop {
                    let n = match reader.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    let at = Instant::now();
                    let chunk = &buf[..n];
                    if startup < 1 << 16 {
                        startup += n;
                        for (q, a) in ANSWERS {
                            if memchr::memmem::find(chunk, q).is_some() {
                                let _ = answer.write_all(a);
                                let _ = answer.flush();
                            }
                        }
                    }
                    s.feed(chunk, at);
                }
                s.close();
            })?;
        Ok(Outer {
            _master: pair.master,
            writer,
            child,
            shared,
        })
    }

    /// Bytes the client has written to its terminal so far.
    pub fn wait_bytes(&self, n: u64, timeout: Duration) -> bool {
        self.shared.wait_bytes(n, timeout)
    }
}

impl Keyboard for Outer {
    fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.writer.write_all(bytes)?;
        self.writer.flush()?;
        Ok(())
    }

    fn screen(&self) -> &Screen {
        &self.shared
    }
}

/// Keys go through their own handle so typing never waits behind the answers.
fn answer_writer(master: &(dyn MasterPty + Send)) -> anyhow::Result<Box<dyn Write + Send>> {
    let fd = master
        .as_raw_fd()
        .ok_or_else(|| anyhow::anyhow!("the PTY has no descriptor"))?;
    // SAFETY: dup of a descriptor the master owns; the File owns the copy.
    let dup = unsafe { libc::dup(fd) };
    if dup < 0 {
        anyhow::bail!("dup: {}", std::io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(Box::new(unsafe {
        <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(dup)
    }))
}

impl Drop for Outer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
