//! Mouse events for a pane, and the bytes a program that asked for mouse reports
//! expects (xterm's protocols: modes 9, 1000, 1002, 1003; encodings X10, UTF-8 (1005),
//! SGR (1006), urxvt (1015)).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseButton {
    Left,
    Middle,
    Right,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MouseAction {
    Down(MouseButton),
    Up(MouseButton),
    /// Moved with the button held.
    Drag(MouseButton),
    /// Moved with no button held.
    Moved,
    ScrollUp,
    ScrollDown,
    ScrollLeft,
    ScrollRight,
}

/// A mouse event at a cell of a pane (0-based, the pane's own coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MouseEvent {
    pub action: MouseAction,
    pub col: u16,
    pub row: u16,
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
}

/// Which mouse events a program asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MouseTracking {
    #[default]
    None,
    /// Mode 9 (X10): presses only, without modifiers.
    Press,
    /// Mode 1000: presses, releases, the wheel.
    PressRelease,
    /// Mode 1002: and moves with a button held.
    ButtonMotion,
    /// Mode 1003: and every move.
    AnyMotion,
}

impl MouseTracking {
    /// The private mode that asks for this tracking (None for none).
    pub fn mode(self) -> Option<u16> {
        match self {
            MouseTracking::None => None,
            MouseTracking::Press => Some(9),
            MouseTracking::PressRelease => Some(1000),
            MouseTracking::ButtonMotion => Some(1002),
            MouseTracking::AnyMotion => Some(1003),
        }
    }
}

/// How a program asked for mouse reports to be written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MouseEncoding {
    /// `CSI M` and three bytes, each 32 more than its value: cells up to 223 only
    /// (1-based).
    #[default]
    X10,
    /// Mode 1005: as X10, values as UTF-8 characters (cells up to 2015, 1-based).
    Utf8,
    /// Mode 1006: `CSI < b ; x ; y M` (release: `m`).
    Sgr,
    /// Mode 1015: `CSI b+32 ; x ; y M`.
    Urxvt,
}

impl MouseEvent {
    /// An event with no modifier held.
    pub fn plain(action: MouseAction, col: u16, row: u16) -> MouseEvent {
        MouseEvent {
            action,
            col,
            row,
            shift: false,
            alt: false,
            ctrl: false,
        }
    }

    /// Appends the report of this event for a program with this tracking and encoding;
    /// nothing if the program did not ask for such events, or if its encoding cannot
    /// say where the event was.
    pub fn encode(&self, tracking: MouseTracking, encoding: MouseEncoding, out: &mut Vec<u8>) {
        use MouseAction as A;
        let wanted = match self.action {
            A::Down(_) | A::ScrollUp | A::ScrollDown | A::ScrollLeft | A::ScrollRight => {
                tracking >= MouseTracking::Press
            }
            A::Up(_) => tracking >= MouseTracking::PressRelease,
            A::Drag(_) => tracking >= MouseTracking::ButtonMotion,
            A::Moved => tracking >= MouseTracking::AnyMotion,
        };
        if !wanted {
            return;
        }
        let button = |b: MouseButton| match b {
            MouseButton::Left => 0u32,
            MouseButton::Middle => 1,
            MouseButton::Right => 2,
        };
        let sgr = encoding == MouseEncoding::Sgr;
        let mut code = match self.action {
            A::Down(b) => button(b),
            // Only SGR says which button came up.
            A::Up(b) if sgr => button(b),
            A::Up(_) => 3,
            A::Drag(b) => button(b) + 32,
            A::Moved => 3 + 32,
            A::ScrollUp => 64,
            A::ScrollDown => 65,
            A::ScrollLeft => 66,
            A::ScrollRight => 67,
        };
        // X10 compatibility mode reports no modifiers.
        if tracking != MouseTracking::Press {
            code += 4 * u32::from(self.shift) + 8 * u32::from(self.alt) + 16 * u32::from(self.ctrl);
        }
        let x = u32::from(self.col) + 1;
        let y = u32::from(self.row) + 1;
        match encoding {
            MouseEncoding::Sgr => {
                let end = if matches!(self.action, A::Up(_)) {
                    'm'
                } else {
                    'M'
                };
                out.extend_from_slice(format!("\x1b[<{code};{x};{y}{end}").as_bytes());
            }
            MouseEncoding::Urxvt => {
                out.extend_from_slice(format!("\x1b[{};{x};{y}M", code + 32).as_bytes());
            }
            MouseEncoding::X10 => {
                let (Ok(c), Ok(x), Ok(y)) = (
                    u8::try_from(code + 32),
                    u8::try_from(x + 32),
                    u8::try_from(y + 32),
                ) else {
                    return;
                };
                out.extend_from_slice(&[0x1b, b'[', b'M', c, x, y]);
            }
            MouseEncoding::Utf8 => {
                // Values past 2047 would need three bytes, which the encoding does not have.
                let chars: Option<Vec<char>> = [code + 32, x + 32, y + 32]
                    .into_iter()
                    .map(|v| (v < 0x800).then(|| char::from_u32(v)).flatten())
                    .collect();
                let Some(chars) = chars else {
                    return;
                };
                out.extend_from_slice(b"\x1b[M");
                let mut buf = [0; 4];
                for c in chars {
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(action: MouseAction, col: u16, row: u16) -> MouseEvent {
        MouseEvent::plain(action, col, row)
    }

    fn enc(e: MouseEvent, t: MouseTracking, c: MouseEncoding) -> String {
        let mut out = Vec::new();
        e.encode(t, c, &mut out);
        String::from_utf8_lossy(&out).replace('\x1b', "^[")
    }

    use MouseAction::*;
    use MouseButton::*;
    use MouseEncoding::*;
    use MouseTracking::*;

    #[test]
    fn sgr_reports_say_which_button_came_up() {
        assert_eq!(enc(ev(Down(Left), 9, 4), PressRelease, Sgr), "^[[<0;10;5M");
        assert_eq!(enc(ev(Up(Right), 9, 4), PressRelease, Sgr), "^[[<2;10;5m");
        assert_eq!(
            enc(ev(Drag(Middle), 0, 0), ButtonMotion, Sgr),
            "^[[<33;1;1M"
        );
        assert_eq!(enc(ev(Moved, 300, 400), AnyMotion, Sgr), "^[[<35;301;401M");
        assert_eq!(enc(ev(ScrollDown, 1, 1), PressRelease, Sgr), "^[[<65;2;2M");
        let mods = MouseEvent {
            shift: true,
            alt: true,
            ctrl: true,
            ..ev(Down(Left), 0, 0)
        };
        assert_eq!(enc(mods, PressRelease, Sgr), "^[[<28;1;1M");
        // X10 compatibility mode: presses only, no modifiers.
        assert_eq!(enc(mods, Press, Sgr), "^[[<0;1;1M");
    }

    #[test]
    fn only_what_the_program_asked_for_is_reported() {
        for (e, least) in [
            (ev(Down(Left), 0, 0), Press),
            (ev(ScrollUp, 0, 0), Press),
            (ev(Up(Left), 0, 0), PressRelease),
            (ev(Drag(Left), 0, 0), ButtonMotion),
            (ev(Moved, 0, 0), AnyMotion),
        ] {
            for t in [None, Press, PressRelease, ButtonMotion, AnyMotion] {
                assert_eq!(!enc(e, t, Sgr).is_empty(), t >= least, "{e:?} in {t:?}");
            }
        }
    }

    #[test]
    fn x10_utf8_and_urxvt_encodings() {
        assert_eq!(enc(ev(Down(Left), 9, 4), PressRelease, X10), "^[[M *%");
        assert_eq!(enc(ev(Up(Left), 9, 4), PressRelease, X10), "^[[M#*%");
        // Past cell 223 X10 cannot say where: nothing is sent.
        assert_eq!(enc(ev(Down(Left), 223, 0), PressRelease, X10), "");
        let raw = |e: MouseEvent, c| {
            let mut out = Vec::new();
            e.encode(PressRelease, c, &mut out);
            out
        };
        assert_eq!(raw(ev(Down(Left), 222, 0), X10), b"\x1b[M \xff!");
        assert_eq!(
            enc(ev(Down(Left), 300, 0), PressRelease, Utf8),
            "^[[M \u{14d}!"
        );
        // UTF-8 says values up to 2047: the 1-based cell 2015 is the last.
        assert_eq!(
            raw(ev(Down(Left), 2014, 0), Utf8),
            "\x1b[M \u{7ff}!".as_bytes()
        );
        assert_eq!(raw(ev(Down(Left), 2015, 0), Utf8), b"");
        assert_eq!(
            enc(ev(Down(Right), 9, 4), PressRelease, Urxvt),
            "^[[34;10;5M"
        );
        assert_eq!(enc(ev(Up(Right), 9, 4), PressRelease, Urxvt), "^[[35;10;5M");
        assert_eq!(
            enc(ev(Down(Left), u16::MAX, u16::MAX), AnyMotion, Urxvt),
            "^[[32;65536;65536M"
        );
    }
}
