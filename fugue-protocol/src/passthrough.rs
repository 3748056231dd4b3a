//! What reaches the person's own terminal (the outer terminal) from the programs in
//! panes, through the attached client: the cursor's look, clipboard copies, bells and
//! the title (docs/terminal.md, "Passthrough to your terminal").
//!
//! Every field added to an older message here is optional on the wire (`serde`
//! defaults, left out when empty), so a frame without passthrough is the frame it was.

use serde::{Deserialize, Serialize};

/// The longest OSC 12 cursor colour kept (`rgb:ffff/ffff/ffff` is 18 bytes; X11 colour
/// names are shorter than this).
pub const MAX_CURSOR_COLOR: usize = 64;

/// The look a pane's program gave its cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CursorLook {
    /// DECSCUSR's parameter (`CSI Ps SP q`): 0 the terminal's default, 1/2 blinking or
    /// steady block, 3/4 underline, 5/6 bar.
    #[serde(default)]
    pub style: u8,
    /// The OSC 12 colour as the program gave it (see [`cursor_color`]); None: the
    /// terminal's default.
    #[serde(default)]
    pub color: Option<String>,
}

impl CursorLook {
    pub fn is_default(&self) -> bool {
        self.style == 0 && self.color.is_none()
    }
}

/// An OSC 12 colour a program set, if it is one fugue passes on: a colour name or a
/// numeric spec (`#rrggbb`, `rgb:rr/gg/bb`), at most [`MAX_CURSOR_COLOR`] bytes of
/// letters, digits, `#`, `:`, `/`, `.`, `-` and spaces. Anything else (a query, control
/// characters, an escape meant for the outer terminal) is not a colour.
pub fn cursor_color(spec: &[u8]) -> Option<String> {
    let ok = |b: &u8| b.is_ascii_alphanumeric() || b"#:/.- ".contains(b);
    (!spec.is_empty()
        && spec.len() <= MAX_CURSOR_COLOR
        && spec.iter().all(ok)
        && spec.iter().any(u8::is_ascii_alphanumeric))
    .then(|| String::from_utf8_lossy(spec).into_owned())
}

/// A program's OSC 52 request to set the clipboard, passed on as it came: the
/// selection (tmux's allowed set `cpqs01234567`; empty means the terminal's default)
/// and the base64 text, never decoded on the way. Its size is bounded by
/// `server.max_osc_bytes`, the longest OSC string a pane may print.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClipboardCopy {
    pub selection: String,
    #[serde(with = "serde_bytes")]
    pub data: Vec<u8>,
}

/// The selections of OSC 52 that are passed on (as tmux: clipboard, primary,
/// secondary, select, cut buffers 0-7); others are left out of the selection.
pub const CLIPBOARD_SELECTIONS: &[u8] = b"cpqs01234567";

impl ClipboardCopy {
    /// The OSC 52 sequence that sets the outer terminal's clipboard (BEL-terminated,
    /// as tmux writes it).
    pub fn sequence(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.data.len() + 16);
        out.extend_from_slice(b"\x1b]52;");
        out.extend(
            self.selection
                .bytes()
                .filter(|b| CLIPBOARD_SELECTIONS.contains(b)),
        );
        out.push(b';');
        out.extend_from_slice(&self.data);
        out.push(0x07);
        out
    }
}

/// What the outer terminal is to do besides drawing, pushed in a [`crate::screen::Frame`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OuterEvents {
    /// Ring the terminal's bell (a pane rang, and `bell_action` says this client hears).
    #[serde(default)]
    pub bell: bool,
    /// Set the terminal's clipboard (`set_clipboard = "on"`).
    #[serde(default)]
    pub clipboard: Option<ClipboardCopy>,
}

impl OuterEvents {
    pub fn is_empty(&self) -> bool {
        !self.bell && self.clipboard.is_none()
    }
}

/// The short names tmux formats have (`#S`), and the variables they stand for.
pub const FORMAT_ALIASES: &[(char, &str)] = &[
    ('D', "pane_id"),
    ('F', "window_flags"),
    ('I', "window_index"),
    ('P', "pane_index"),
    ('S', "session_name"),
    ('T', "pane_title"),
    ('W', "window_name"),
];

/// The variable an alias (`S` of `#S`) stands for.
pub fn format_alias(c: char) -> Option<&'static str> {
    FORMAT_ALIASES
        .iter()
        .find(|(a, _)| *a == c)
        .map(|(_, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_colour_specs_pass() {
        assert_eq!(cursor_color(b"#ff0000").as_deref(), Some("#ff0000"));
        assert_eq!(
            cursor_color(b"rgb:ff/00/00").as_deref(),
            Some("rgb:ff/00/00")
        );
        assert_eq!(cursor_color(b"dark green").as_deref(), Some("dark green"));
        assert_eq!(cursor_color(b"?"), None);
        assert_eq!(cursor_color(b""), None);
        assert_eq!(cursor_color(b"red\x1b]52;c;eA==\x07"), None);
        assert_eq!(cursor_color(&[b'a'; MAX_CURSOR_COLOR + 1]), None);
    }

    #[test]
    fn a_copy_keeps_only_known_selections() {
        let c = ClipboardCopy {
            selection: "c;x\x1bp".into(),
            data: b"aGk=".to_vec(),
        };
        assert_eq!(c.sequence(), b"\x1b]52;cp;aGk=\x07");
    }
}
