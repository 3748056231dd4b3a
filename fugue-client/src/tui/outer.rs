//! Input modes of the outer terminal that the client switches on: the kitty keyboard
//! protocol when the terminal speaks it, so keys arrive unambiguous (Tab apart from
//! C-i, Escape apart from M-[, modified Enter); mouse reporting while the active
//! pane's program wants the mouse; focus events.
//!
//! Sans-IO: what is to be written to the terminal collects in [`Outer::take`], which
//! the client's loop writes before it draws. Everything switched on here is switched
//! off by `crate::reset::MODES_OFF`, which the client writes whenever it gives the
//! terminal back (exit, detach, suspend, a panic): it pops every kitty level.

use fugue_protocol::keys::kitty;
use fugue_protocol::mouse::MouseTracking;
use std::time::{Duration, Instant};

/// What the client asks of a terminal that speaks the kitty protocol: keys told apart,
/// and repeats and releases (passed on to panes whose programs asked for them).
/// Not "all keys as escape codes": termina drops the text such a report carries, and
/// without it the character Shift makes on the user's layout would be lost.
pub const KITTY_FLAGS: u8 = kitty::DISAMBIGUATE | kitty::EVENT_TYPES;

/// How long the client waits for the terminal to answer whether it speaks the kitty
/// protocol. The answer comes with the answer to a device attributes query, which
/// every terminal gives; this bounds the wait for one that gives neither. Nothing
/// waits meanwhile: keys typed before the answer arrive in legacy form.
pub const PROBE_TIME: Duration = Duration::from_millis(1000);

/// Asks the terminal for its foreground and background colours (OSC 10, OSC 11).
pub const COLOR_QUERIES: &[u8] = b"\x1b]10;?\x1b\\\x1b]11;?\x1b\\";

/// What the client knows of the terminal's kitty protocol support.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kitty {
    /// Not asked yet.
    Unknown,
    /// Asked; an answer after the deadline counts for nothing.
    Asked(Instant),
    Supported,
    Unsupported,
}

/// An answer from the terminal to the client's queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `CSI ? flags u`: the terminal speaks the kitty keyboard protocol.
    KittyFlags,
    /// `CSI ? ... c`: the device attributes, which a terminal sends after its answer
    /// to `CSI ? u` if it has one.
    DeviceAttributes,
}

pub struct Outer {
    pub kitty: Kitty,
    /// Mouse reporting switched on, for the active pane's program.
    mouse: MouseTracking,
    out: Vec<u8>,
}

impl Default for Outer {
    fn default() -> Self {
        Outer::new()
    }
}

impl Outer {
    pub fn new() -> Outer {
        Outer {
            kitty: Kitty::Unknown,
            mouse: MouseTracking::None,
            out: Vec::new(),
        }
    }

    /// After the terminal was set up (at start, and after a suspend, when the shell
    /// may have reset it): asks it what it supports, the first time, or switches on
    /// again what it does.
    pub fn set_up(&mut self, now: Instant) {
        // The terminal's colours, which panes' programs ask fugue for (OSC 10/11):
        // asked each time, as the person may have changed the theme while suspended.
        // A terminal that does not know these ignores them.
        self.out.extend_from_slice(COLOR_QUERIES);
        match self.kitty {
            Kitty::Unknown | Kitty::Asked(_) => {
                self.out.extend_from_slice(b"\x1b[?u\x1b[c");
                self.kitty = Kitty::Asked(now + PROBE_TIME);
            }
            Kitty::Supported => self.push_kitty(),
            Kitty::Unsupported => {}
        }
        // The set-up switched mouse reporting off: on again if it was.
        let mouse = std::mem::take(&mut self.mouse);
        self.want_mouse(mouse);
        // Focus events, always: the server tells the focused pane's program when the
        // terminal gains or loses focus (if it asked, mode 1004).
        self.out.extend_from_slice(b"\x1b[?1004h");
    }

    /// Mouse reporting on the terminal for a program that asked for `tracking` (the
    /// active pane's), off when it asked for none. The terminal reports in SGR,
    /// which says any cell unambiguously; the server writes each event as the
    /// program asked. X10 mode (9) is asked as 1000: the server drops the releases.
    pub fn want_mouse(&mut self, tracking: MouseTracking) {
        let tracking = match tracking {
            MouseTracking::Press => MouseTracking::PressRelease,
            t => t,
        };
        if tracking == self.mouse {
            return;
        }
        if let Some(old) = self.mouse.mode() {
            self.out
                .extend_from_slice(format!("\x1b[?{old}l").as_bytes());
        }
        match tracking.mode() {
            Some(new) => {
                if self.mouse == MouseTracking::None {
                    self.out.extend_from_slice(b"\x1b[?1006h");
                }
                self.out
                    .extend_from_slice(format!("\x1b[?{new}h").as_bytes());
            }
            None => self.out.extend_from_slice(b"\x1b[?1006l"),
        }
        self.mouse = tracking;
    }

    /// An answer from the terminal.
    pub fn on_reply(&mut self, reply: Reply, now: Instant) {
        let Kitty::Asked(deadline) = self.kitty else {
            return;
        };
        self.kitty = match reply {
            Reply::KittyFlags if now <= deadline => {
                self.push_kitty();
                Kitty::Supported
            }
            Reply::KittyFlags | Reply::DeviceAttributes => Kitty::Unsupported,
        };
    }

    fn push_kitty(&mut self) {
        self.out
            .extend_from_slice(format!("\x1b[>{KITTY_FLAGS}u").as_bytes());
    }

    /// Bytes to write to the terminal.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mouse_reporting_follows_what_the_active_pane_asked() {
        let t0 = Instant::now();
        let mut o = Outer::new();
        o.kitty = Kitty::Unsupported;
        let step = |o: &mut Outer, t| {
            o.want_mouse(t);
            String::from_utf8_lossy(&o.take()).replace('\x1b', "^[")
        };
        assert_eq!(step(&mut o, MouseTracking::None), "");
        assert_eq!(step(&mut o, MouseTracking::Press), "^[[?1006h^[[?1000h");
        assert_eq!(step(&mut o, MouseTracking::PressRelease), "");
        assert_eq!(step(&mut o, MouseTracking::AnyMotion), "^[[?1000l^[[?1003h");
        // After a suspend (MODES_OFF switched it off): on again.
        o.set_up(t0);
        assert_eq!(
            String::from_utf8_lossy(&o.take()),
            "\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b[?1006h\x1b[?1003h\x1b[?1004h"
        );
        assert_eq!(step(&mut o, MouseTracking::None), "^[[?1003l^[[?1006l");
    }

    #[test]
    fn the_protocol_is_switched_on_only_when_the_terminal_answers_in_time() {
        let t0 = Instant::now();
        let mut o = Outer::new();
        o.set_up(t0);
        assert_eq!(
            o.take(),
            [COLOR_QUERIES, b"\x1b[?u\x1b[c\x1b[?1004h"].concat()
        );
        o.on_reply(Reply::KittyFlags, t0);
        assert_eq!(o.kitty, Kitty::Supported);
        assert_eq!(o.take(), b"\x1b[>3u");
        // The device attributes that follow change nothing.
        o.on_reply(Reply::DeviceAttributes, t0);
        assert_eq!(o.kitty, Kitty::Supported);
        // After a suspend, on again without asking (the colours are asked again).
        o.set_up(t0);
        assert_eq!(o.take(), [COLOR_QUERIES, b"\x1b[>3u\x1b[?1004h"].concat());

        let mut o = Outer::new();
        o.set_up(t0);
        o.take();
        o.on_reply(Reply::DeviceAttributes, t0);
        o.on_reply(Reply::KittyFlags, t0);
        assert_eq!((o.kitty, o.take()), (Kitty::Unsupported, Vec::new()));
        o.set_up(t0);
        assert_eq!(o.take(), [COLOR_QUERIES, b"\x1b[?1004h"].concat());

        let mut o = Outer::new();
        o.set_up(t0);
        o.take();
        o.on_reply(Reply::KittyFlags, t0 + PROBE_TIME * 2);
        assert_eq!((o.kitty, o.take()), (Kitty::Unsupported, Vec::new()));
    }
}
