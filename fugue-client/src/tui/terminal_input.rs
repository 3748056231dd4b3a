//! Keys and resizes from the terminal, read on the client's own thread.
//!
//! The main loop waits for the terminal to be readable (or for SIGWINCH), then reads
//! every byte the terminal holds and parses them into events: no thread of its own and
//! no hop per keystroke.
//!
//! The client reads the bytes itself, with termina's parser, instead of asking
//! crossterm for events: crossterm reads one 1024-byte chunk, returns the first event in
//! it and, its epoll being edge-triggered, does not look at the terminal again until
//! more input arrives. A paste of a few thousand bytes without bracketed paste then
//! stopped after 2048 bytes, the rest waiting in the terminal for the next keystroke.
//! Here readiness is checked level-triggered (`poll`) until nothing is left.

use ratatui::crossterm::event::{
    Event, KeyCode as CtCode, KeyEvent as CtKey, KeyEventKind as CtKind, KeyEventState,
    KeyModifiers,
};
use std::collections::VecDeque;
use std::os::fd::{AsRawFd, RawFd};
use termina::event::{KeyCode, KeyEventKind, Modifiers};
use tokio::io::unix::AsyncFd;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// The terminal's descriptor, watched for readiness.
struct Stdin;

impl AsRawFd for Stdin {
    fn as_raw_fd(&self) -> RawFd {
        0
    }
}

/// Bytes read at once; a read that fills it says more of a sequence may follow.
const CHUNK: usize = 16 * 1024;

pub struct TerminalInput {
    fd: AsyncFd<Stdin>,
    winch: Signal,
    parser: termina::Parser,
    /// Read buffer, kept so a keystroke costs no allocation.
    buf: Box<[u8]>,
    ready: VecDeque<Event>,
    /// The terminal hung up (or reading it failed): no more events.
    gone: bool,
}

impl TerminalInput {
    pub fn new() -> std::io::Result<TerminalInput> {
        Ok(TerminalInput {
            // SAFETY: descriptor 0 is the client's terminal and stays open, unchanged, for
            // the client's whole life, longer than this value.
            fd: unsafe { AsyncFd::register_with_interest(Stdin, tokio::io::Interest::READABLE) }
                .map_err(|e| e.into_parts().1)?,
            winch: signal(SignalKind::window_change())?,
            parser: termina::Parser::default(),
            buf: vec![0u8; CHUNK].into_boxed_slice(),
            ready: VecDeque::new(),
            gone: false,
        })
    }

    /// Reads everything the terminal holds now and queues its events.
    ///
    /// The descriptor stays blocking (making it non-blocking would change it for the
    /// shell that shares it after the client exits); `poll` says before every read that
    /// it will not block, and in raw mode a read returns what is there.
    fn drain(&mut self) {
        let buf = &mut self.buf;
        while !self.gone && readable() {
            // SAFETY: reads into a live buffer of the given length.
            let n = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
            match usize::try_from(n) {
                Ok(0) => self.gone = true,
                Ok(n) => self.parser.parse(&buf[..n], n == buf.len()),
                Err(_) => {
                    let e = std::io::Error::last_os_error();
                    if !matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                    ) {
                        self.gone = true;
                    }
                }
            }
        }
        while let Some(ev) = self.parser.pop() {
            if let Some(ev) = to_crossterm(ev) {
                self.ready.push_back(ev);
            }
        }
    }

    /// The next event; None when the terminal is gone.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(ev) = self.ready.pop_front() {
                return Some(ev);
            }
            if self.gone {
                return None;
            }
            tokio::select! {
                guard = self.fd.readable() => {
                    let mut guard = guard.ok()?;
                    // Cleared before reading: bytes that arrive after the drain make a
                    // new edge, so none is missed.
                    guard.clear_ready();
                    self.drain();
                }
                _ = self.winch.recv() => {
                    if let Ok((cols, rows)) = ratatui::crossterm::terminal::size() {
                        self.ready.push_back(Event::Resize(cols, rows));
                    }
                }
            }
        }
    }

    /// An event that is ready now, without waiting.
    pub fn try_next(&mut self) -> Option<Event> {
        if self.ready.is_empty() {
            self.drain();
        }
        self.ready.pop_front()
    }
}

/// Whether a read of the terminal returns at once (data, or the hang-up's end of file).
fn readable() -> bool {
    let mut p = libc::pollfd {
        fd: 0,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll reads and writes only the one pollfd, which outlives the call.
    let r = unsafe { libc::poll(&mut p, 1, 0) };
    r == 1 && p.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0
}

/// termina's event as the crossterm event the rest of the client handles; None for
/// what the client does not use (mouse, replies to queries).
fn to_crossterm(ev: termina::Event) -> Option<Event> {
    match ev {
        termina::Event::Key(k) => {
            let code = match k.code {
                KeyCode::Char(c) => CtCode::Char(c),
                KeyCode::Enter => CtCode::Enter,
                KeyCode::Backspace => CtCode::Backspace,
                KeyCode::Tab => CtCode::Tab,
                KeyCode::BackTab => CtCode::BackTab,
                KeyCode::Escape => CtCode::Esc,
                KeyCode::Left => CtCode::Left,
                KeyCode::Right => CtCode::Right,
                KeyCode::Up => CtCode::Up,
                KeyCode::Down => CtCode::Down,
                KeyCode::Home => CtCode::Home,
                KeyCode::End => CtCode::End,
                KeyCode::PageUp => CtCode::PageUp,
                KeyCode::PageDown => CtCode::PageDown,
                KeyCode::Insert => CtCode::Insert,
                KeyCode::Delete => CtCode::Delete,
                KeyCode::Function(n) => CtCode::F(n),
                KeyCode::Null => CtCode::Null,
                _ => return None,
            };
            let mut mods = KeyModifiers::NONE;
            for (from, to) in [
                (Modifiers::SHIFT, KeyModifiers::SHIFT),
                (Modifiers::ALT, KeyModifiers::ALT),
                (Modifiers::CONTROL, KeyModifiers::CONTROL),
                (Modifiers::SUPER, KeyModifiers::SUPER),
                (Modifiers::HYPER, KeyModifiers::HYPER),
                (Modifiers::META, KeyModifiers::META),
            ] {
                if k.modifiers.contains(from) {
                    mods |= to;
                }
            }
            let kind = match k.kind {
                KeyEventKind::Press => CtKind::Press,
                KeyEventKind::Repeat => CtKind::Repeat,
                KeyEventKind::Release => CtKind::Release,
            };
            Some(Event::Key(CtKey::new_with_kind_and_state(
                code,
                mods,
                kind,
                KeyEventState::NONE,
            )))
        }
        termina::Event::Paste(text) => Some(Event::Paste(text)),
        termina::Event::FocusIn => Some(Event::FocusGained),
        termina::Event::FocusOut => Some(Event::FocusLost),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Vec<Event> {
        let mut p = termina::Parser::default();
        p.parse(bytes, false);
        std::iter::from_fn(|| p.pop())
            .filter_map(to_crossterm)
            .collect()
    }

    #[test]
    fn keys_arrive_as_the_client_knows_them() {
        let evs = parse(b"a\x02\x1b[1;5A\x1bOP\x1bx\x7f\r");
        let keys: Vec<String> = evs
            .iter()
            .filter_map(|e| match e {
                Event::Key(k) => super::super::keymap::to_key(k).map(|k| k.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(keys, ["a", "C-b", "C-Up", "F1", "M-x", "BSpace", "Enter"]);
    }

    #[test]
    fn a_bracketed_paste_is_one_event() {
        let evs = parse(b"\x1b[200~line one\rline two\x1b[201~z");
        assert_eq!(evs.len(), 2);
        assert!(matches!(&evs[0], Event::Paste(t) if t == "line one\rline two"));
    }
}
