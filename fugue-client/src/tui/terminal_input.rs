//! Keys and resizes from the terminal, read on the client's own thread.
//!
//! crossterm's `event::read` blocks, which usually means a thread of its own and a hop
//! to the main loop for every key. Instead the main loop waits for the terminal to be
//! readable (or for SIGWINCH) and then takes whatever crossterm has ready without
//! blocking: one thread fewer on the way of every keystroke.

use ratatui::crossterm::event::{self, Event};
use std::collections::VecDeque;
use std::os::fd::{AsRawFd, RawFd};
use std::time::Duration;
use tokio::io::unix::AsyncFd;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// The terminal's descriptor, watched for readiness only (crossterm does the reading).
struct Stdin;

impl AsRawFd for Stdin {
    fn as_raw_fd(&self) -> RawFd {
        0
    }
}

pub struct TerminalInput {
    fd: AsyncFd<Stdin>,
    winch: Signal,
    ready: VecDeque<Event>,
}

impl TerminalInput {
    pub fn new() -> std::io::Result<TerminalInput> {
        Ok(TerminalInput {
            // SAFETY: descriptor 0 is the client's terminal and stays open, unchanged, for
            // the client's whole life, longer than this value.
            fd: unsafe { AsyncFd::register_with_interest(Stdin, tokio::io::Interest::READABLE) }
                .map_err(|e| e.into_parts().1)?,
            winch: signal(SignalKind::window_change())?,
            ready: VecDeque::new(),
        })
    }

    /// Takes every event crossterm can give without waiting.
    fn drain(&mut self) -> std::io::Result<()> {
        while event::poll(Duration::ZERO)? {
            self.ready.push_back(event::read()?);
        }
        Ok(())
    }

    /// The next event; None when the terminal is gone.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(ev) = self.ready.pop_front() {
                return Some(ev);
            }
            tokio::select! {
                guard = self.fd.readable() => {
                    let mut guard = guard.ok()?;
                    // Cleared before reading: bytes that arrive after the drain make a
                    // new edge, so none is missed.
                    guard.clear_ready();
                }
                _ = self.winch.recv() => {}
            }
            self.drain().ok()?;
            // Readable but nothing to read: end of input (the terminal hung up).
            if self.ready.is_empty() && !alive() {
                return None;
            }
        }
    }

    /// An event that is ready now, without waiting.
    pub fn try_next(&mut self) -> Option<Event> {
        if self.ready.is_empty() {
            let _ = self.drain();
        }
        self.ready.pop_front()
    }
}

/// Whether the terminal is still there.
fn alive() -> bool {
    let mut p = libc::pollfd {
        fd: 0,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll reads and writes only the one pollfd, which outlives the call.
    let r = unsafe { libc::poll(&mut p, 1, 0) };
    !(r == 1 && p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0)
}
