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
//!
//! termina's events become fugue's own types straight away ([`Input`], and
//! [`keymap::to_key`] for keys): no hop through crossterm's key type, which would drop
//! what fugue's does not (issue 12).

use super::{keymap, outer};
use fugue_protocol::keys::Key;
use fugue_protocol::mouse::{MouseAction, MouseButton, MouseEvent};
use std::collections::VecDeque;
use std::os::fd::{AsRawFd, RawFd};
use termina::escape::csi::{
    Csi, DecModeSetting, DecPrivateMode, DecPrivateModeCode, Device, Keyboard, Mode,
};
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
    ready: VecDeque<Input>,
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
            if let Some(ev) = to_input(ev) {
                self.ready.push_back(ev);
            }
        }
    }

    /// The next event; None when the terminal is gone.
    pub async fn next(&mut self) -> Option<Input> {
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
                        self.ready.push_back(Input::Resize(cols, rows));
                    }
                }
            }
        }
    }

    /// An event that is ready now, without waiting.
    pub fn try_next(&mut self) -> Option<Input> {
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

/// What the client reads from its terminal, in fugue's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Key(Key),
    Paste(String),
    Resize(u16, u16),
    FocusIn,
    FocusOut,
    /// The terminal answered one of the client's queries.
    Reply(outer::Reply),
    /// A mouse event at a cell of the terminal (0-based).
    Mouse(MouseEvent),
    /// The terminal's answer to the client's DECRQM for synchronized output (mode
    /// 2026): whether it knows the mode.
    SyncOutput(bool),
    /// The terminal's foreground (OSC 10) or background (OSC 11) colour, asked at
    /// set-up, 16 bits per component: panes' programs read it when they ask.
    Color {
        background: bool,
        rgb: [u16; 3],
    },
}

/// termina's event as fugue's, with nothing termina reports about a key lost (see
/// [`keymap::to_key`]); None for what the client does not use (mouse, replies to
/// queries).
fn to_input(ev: termina::Event) -> Option<Input> {
    match ev {
        termina::Event::Key(k) => Some(Input::Key(keymap::to_key(&k))),
        termina::Event::Paste(text) => Some(Input::Paste(text)),
        termina::Event::FocusIn => Some(Input::FocusIn),
        termina::Event::FocusOut => Some(Input::FocusOut),
        termina::Event::Mouse(m) => Some(Input::Mouse(mouse_event(&m))),
        termina::Event::Csi(Csi::Keyboard(Keyboard::ReportFlags(_))) => {
            Some(Input::Reply(outer::Reply::KittyFlags))
        }
        termina::Event::Csi(Csi::Device(Device::DeviceAttributes(()))) => {
            Some(Input::Reply(outer::Reply::DeviceAttributes))
        }
        termina::Event::Csi(Csi::Mode(Mode::ReportDecPrivateMode {
            mode: DecPrivateMode::Code(DecPrivateModeCode::SynchronizedOutput),
            setting,
        })) => Some(Input::SyncOutput(setting != DecModeSetting::NotRecognized)),
        termina::Event::Osc(termina::escape::osc::Osc::ChangeDynamicColors(which, colors)) => {
            use termina::escape::osc::{ColorOrQuery, DynamicColorNumber as N};
            let background = match which {
                N::TextForegroundColor => false,
                N::TextBackgroundColor => true,
                _ => return None,
            };
            match colors.first()? {
                ColorOrQuery::Color(c) => Some(Input::Color {
                    background,
                    rgb: [c.red, c.green, c.blue].map(|v| u16::from(v) * 257),
                }),
                ColorOrQuery::Query => None,
            }
        }
        _ => None,
    }
}

/// termina's mouse event as fugue's, in terminal coordinates.
fn mouse_event(m: &termina::event::MouseEvent) -> MouseEvent {
    use termina::event::{MouseButton as TB, MouseEventKind as TK};
    let button = |b: TB| match b {
        TB::Left => MouseButton::Left,
        TB::Middle => MouseButton::Middle,
        TB::Right => MouseButton::Right,
    };
    let action = match m.kind {
        TK::Down(b) => MouseAction::Down(button(b)),
        TK::Up(b) => MouseAction::Up(button(b)),
        TK::Drag(b) => MouseAction::Drag(button(b)),
        TK::Moved => MouseAction::Moved,
        TK::ScrollUp => MouseAction::ScrollUp,
        TK::ScrollDown => MouseAction::ScrollDown,
        TK::ScrollLeft => MouseAction::ScrollLeft,
        TK::ScrollRight => MouseAction::ScrollRight,
    };
    MouseEvent {
        action,
        col: m.column,
        row: m.row,
        shift: m.modifiers.contains(termina::event::Modifiers::SHIFT),
        alt: m.modifiers.contains(termina::event::Modifiers::ALT),
        ctrl: m.modifiers.contains(termina::event::Modifiers::CONTROL),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Vec<Input> {
        let mut p = termina::Parser::default();
        p.parse(bytes, false);
        std::iter::from_fn(|| p.pop())
            .filter_map(to_input)
            .collect()
    }

    fn names(bytes: &[u8]) -> Vec<String> {
        parse(bytes)
            .iter()
            .filter_map(|e| match e {
                Input::Key(k) => Some(k.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn keys_arrive_as_the_client_knows_them() {
        assert_eq!(
            names(b"a\x02\x1b[1;5A\x1bOP\x1bx\x7f\r"),
            ["a", "C-b", "C-Up", "F1", "M-x", "BSpace", "Enter"]
        );
    }

    /// What legacy terminals could not say, the kitty keyboard protocol does, and it
    /// reaches fugue's key whole: Super, Hyper, Meta, lock states, event kinds, the
    /// keypad, F13..F35, media and modifier keys, Menu.
    #[test]
    fn kitty_encoded_keys_lose_nothing() {
        assert_eq!(
            names(
                b"\x1b[97;9u\x1b[97;17u\x1b[97;33u\x1b[98;69u\x1b[98;133u\
                  \x1b[97;1:2u\x1b[97;1:3u\x1b[57399u\x1b[57414;3u\x1b[57427u\
                  \x1b[57398u\x1b[57428u\x1b[57441;2u\x1b[57363u\x1b[9;5u\x1b[105;5u\
                  \x1b[27u\x1b[91;3u\x1b[13;2u\x1b[97;6u\x1b[1;2:3A"
            ),
            [
                "Super-a",
                "Hyper-a",
                "Meta-a",
                "C-CapsLock-b",
                "C-NumLock-b",
                "a:repeat",
                "a:release",
                "KP0",
                "M-KPEnter",
                "KPBegin",
                "F35",
                "MediaPlay",
                "S-LeftShift",
                "Menu",
                "C-Tab",
                "C-i",
                "Escape",
                "M-[",
                "S-Enter",
                "C-A",
                "S-Up:release",
            ]
        );
    }

    #[test]
    fn a_bracketed_paste_is_one_event() {
        let evs = parse(b"\x1b[200~line one\rline two\x1b[201~z");
        assert_eq!(evs.len(), 2);
        assert!(matches!(&evs[0], Input::Paste(t) if t == "line one\rline two"));
    }

    /// termina reads 0 and 4 for mode 2026 as "not recognized".
    #[test]
    fn the_answer_about_synchronized_output_is_read() {
        assert_eq!(
            parse(b"\x1b[?2026;2$y\x1b[?2026;0$y\x1b[?2026;1$y\x1b[?2026;4$y"),
            [
                Input::SyncOutput(true),
                Input::SyncOutput(false),
                Input::SyncOutput(true),
                Input::SyncOutput(false),
            ]
        );
    }

    #[test]
    fn the_terminals_colours_are_read_from_its_answers() {
        assert_eq!(
            parse(b"\x1b]10;rgb:0000/0000/0000\x1b\\\x1b]11;rgb:ffff/fafa/f0f0\x07"),
            [
                Input::Color {
                    background: false,
                    rgb: [0; 3]
                },
                Input::Color {
                    background: true,
                    rgb: [0xffff, 0xfafa, 0xf0f0]
                },
            ]
        );
    }

    #[test]
    fn answers_to_the_clients_queries_are_told_apart() {
        assert_eq!(
            parse(b"\x1b[?0u\x1b[?62;22c\x1b[?3u"),
            [
                Input::Reply(outer::Reply::KittyFlags),
                Input::Reply(outer::Reply::DeviceAttributes),
                Input::Reply(outer::Reply::KittyFlags)
            ]
        );
    }

    #[test]
    fn sgr_mouse_reports_arrive_in_terminal_cells() {
        let evs = parse(b"\x1b[<0;11;6M\x1b[<6;2;3m\x1b[<65;1;1M");
        let m = |action, col, row, shift| {
            Input::Mouse(MouseEvent {
                action,
                col,
                row,
                shift,
                alt: false,
                ctrl: false,
            })
        };
        assert_eq!(
            evs,
            [
                m(MouseAction::Down(MouseButton::Left), 10, 5, false),
                m(MouseAction::Up(MouseButton::Right), 1, 2, true),
                m(MouseAction::ScrollDown, 0, 0, false),
            ]
        );
    }

    #[test]
    fn focus_changes_are_reported() {
        assert_eq!(parse(b"\x1b[I\x1b[O"), [Input::FocusIn, Input::FocusOut]);
    }
}
