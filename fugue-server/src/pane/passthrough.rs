//! What a pane's program asks of the terminal around it that fugue passes on to the
//! person's own terminal (docs/terminal.md, "Passthrough to your terminal"): the
//! cursor's colour (OSC 12; its style, DECSCUSR, vt100 tracks), clipboard copies and
//! questions (OSC 52), the bell, and synchronized updates (mode 2026).
//!
//! All of it arrives through vt100's callbacks for sequences it does not draw, so
//! nothing here is on the per-byte path: a pane pays only when its program sends one
//! of these sequences.

use fugue_protocol::passthrough::{ClipboardCopy, CursorLook, cursor_color};
use std::time::Instant;

/// The pane's passthrough state, kept in its vt100 callbacks.
#[derive(Debug, Default)]
pub struct Passthrough {
    /// OSC 12's colour; None: the terminal's default.
    cursor_color: Option<String>,
    /// When the synchronized update in progress (mode 2026 set) began.
    sync_since: Option<Instant>,
    /// Taken after every chunk of output (see [`Signals`]).
    signals: Signals,
}

/// What a chunk of output asked for beyond the pane's own screen, for the server to
/// pass on (or refuse) by its config.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Signals {
    /// The program rang the bell (BEL).
    pub bell: bool,
    /// The last clipboard copy the chunk asked for (OSC 52 with base64 text).
    pub clipboard: Option<ClipboardCopy>,
    /// The program asked for the clipboard (`OSC 52 ; c ; ?`): the selection asked.
    pub clipboard_query: Option<String>,
}

impl Signals {
    pub fn is_empty(&self) -> bool {
        !self.bell && self.clipboard.is_none() && self.clipboard_query.is_none()
    }
}

/// The mode of synchronized output (https://gist.github.com/christianparpart/d8a62cc1ab659194337d73e399004036).
const SYNCHRONIZED_OUTPUT: u16 = 2026;

impl Passthrough {
    /// OSC 12 (set the cursor colour) and OSC 112 (reset it); false for any other OSC.
    pub fn osc(&mut self, params: &[&[u8]]) -> bool {
        match params {
            [b"12", spec] => {
                // A query (`?`) or a spec fugue does not pass on changes nothing.
                if let Some(c) = cursor_color(spec) {
                    self.cursor_color = Some(c);
                }
                true
            }
            [b"112", ..] => {
                self.cursor_color = None;
                true
            }
            _ => false,
        }
    }

    /// `CSI ? Pm h` (`set`) or `CSI ? Pm l` with modes vt100 does not know: starts or
    /// ends a synchronized update when 2026 is among them.
    pub fn private_mode(&mut self, set: bool, params: &[&[u16]]) {
        if !params
            .iter()
            .any(|p| p.first() == Some(&SYNCHRONIZED_OUTPUT))
        {
            return;
        }
        if !set {
            self.sync_since = None;
        } else if self.sync_since.is_none() {
            // A second `h` inside an update does not extend it: the timeout counts from
            // the first, so a program that never ends its update is not held forever.
            self.sync_since = Some(Instant::now());
        }
    }

    pub fn bell(&mut self) {
        self.signals.bell = true;
    }

    /// OSC 52 with text (vt100 checked the selection and that the text is base64).
    pub fn copy(&mut self, selection: &[u8], data: &[u8]) {
        self.signals.clipboard = Some(ClipboardCopy {
            selection: String::from_utf8_lossy(selection).into_owned(),
            data: data.to_vec(),
        });
    }

    /// OSC 52 with `?`: the program asks what the clipboard holds.
    pub fn paste(&mut self, selection: &[u8]) {
        self.signals.clipboard_query = Some(String::from_utf8_lossy(selection).into_owned());
    }

    pub fn take_signals(&mut self) -> Signals {
        std::mem::take(&mut self.signals)
    }

    /// When the synchronized update in progress began.
    pub fn sync_since(&self) -> Option<Instant> {
        self.sync_since
    }

    /// The cursor's look, with the style vt100 tracks.
    pub fn cursor_look(&self, style: vt100::CursorStyle) -> CursorLook {
        use vt100::CursorStyle as S;
        let style = match style {
            S::Default => 0,
            S::BlinkBlock => 1,
            S::SteadyBlock => 2,
            S::BlinkUnderline => 3,
            S::SteadyUnderline => 4,
            S::BlinkVerticalBar => 5,
            S::SteadyVerticalBar => 6,
        };
        CursorLook {
            style,
            color: self.cursor_color.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::PaneState;

    #[test]
    fn cursor_style_and_colour_follow_the_program() {
        let mut p = PaneState::new(20, 3, 0);
        assert!(p.cursor_look().is_default());
        p.process(b"\x1b[5 q\x1b]12;#ff0000\x07");
        let look = p.cursor_look();
        assert_eq!((look.style, look.color.as_deref()), (5, Some("#ff0000")));
        // A query leaves it; OSC 112 and DECSCUSR 0 put the defaults back.
        p.process(b"\x1b]12;?\x07");
        assert_eq!(p.cursor_look().color.as_deref(), Some("#ff0000"));
        p.process(b"\x1b]112\x07\x1b[0 q");
        assert!(p.cursor_look().is_default());
    }

    #[test]
    fn a_synchronized_update_is_timed_from_its_start() {
        let mut p = PaneState::new(20, 3, 0);
        p.process(b"\x1b[?2026h");
        let since = p.sync_since().expect("in an update");
        p.process(b"more\x1b[?2026h");
        assert_eq!(p.sync_since(), Some(since));
        // Among other modes, and ended.
        p.process(b"\x1b[?25;2026l");
        assert_eq!(p.sync_since(), None);
        p.process(b"\x1b[?1;2026h");
        assert!(p.sync_since().is_some());
    }

    #[test]
    fn bells_and_clipboard_requests_are_signalled_once() {
        let mut p = PaneState::new(20, 3, 0);
        let out = p.process(b"a\x07b\x1b]52;c;aGk=\x07\x1b]52;c;?\x07");
        assert!(out.signals.bell);
        let copy = out.signals.clipboard.expect("a copy");
        assert_eq!(
            (copy.selection.as_str(), &copy.data[..]),
            ("c", &b"aGk="[..])
        );
        assert_eq!(out.signals.clipboard_query.as_deref(), Some("c"));
        assert!(p.process(b"plain").signals.is_empty());
        // Not base64: not a copy.
        assert!(p.process(b"\x1b]52;c;not base64!\x07").signals.is_empty());
    }
}
