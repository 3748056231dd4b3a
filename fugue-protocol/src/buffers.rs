//! Paste buffers: the commands that fill, read, list, delete and paste them, and what
//! they answer. The store itself is the server's (`fugue-server/src/buffers.rs`);
//! semantics follow tmux 3.5's `set-buffer`, `show-buffer`, `list-buffers`,
//! `delete-buffer` and `paste-buffer`.

use crate::observe::CapturePane;
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// The most bytes one buffer holds. A copy of a whole 10 000-line history of wide
/// lines is a few MB; past this, `set-buffer` is refused with `limit_exceeded` rather
/// than the server holding any amount a caller sends. Well under the 32 MiB frame, so
/// a full buffer always fits in one answer.
pub const MAX_BUFFER_BYTES: usize = 8 * 1024 * 1024;

/// The most bytes all buffers hold together (named ones are not evicted by
/// `buffer_limit`, so this bounds them). Each buffer also counts its name and
/// [`BUFFER_OVERHEAD`] bytes, so many empty named buffers cannot grow without bound.
pub const MAX_BUFFERS_BYTES: usize = 64 * 1024 * 1024;

/// What a buffer costs besides its data and name, for [`MAX_BUFFERS_BYTES`].
pub const BUFFER_OVERHEAD: usize = 64;

/// The longest buffer name.
pub const MAX_BUFFER_NAME: usize = 128;

/// The most bytes of a buffer's start that `list-buffers` carries for previews
/// (`C-b =`).
pub const PREVIEW_BYTES: usize = 1024;

/// Where `set-buffer`'s data comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BufferData {
    /// This text (the CLI's argument, `load-buffer`'s file, a client's copy).
    Text(String),
    /// A region of a pane, as `capture-pane` reads it (without escapes): an agent
    /// copies from one pane into a buffer without the text passing through it.
    Pane(CapturePane),
}

/// `set-buffer`: store data in a buffer, append to one, or rename one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetBuffer {
    /// `-b`: the buffer; None: a new automatic buffer (`bufferN`), or with `append`
    /// the most recent buffer.
    pub name: Option<String>,
    /// `-a`: append to the buffer instead of replacing it.
    pub append: bool,
    /// `-n`: rename the buffer (`name`, or the most recent) to this; no data then.
    pub rename: Option<String>,
    /// None only with `rename`.
    pub data: Option<BufferData>,
    /// `-w`: the buffer also goes to a client's terminal's clipboard (OSC 52).
    #[serde(default)]
    pub clipboard: bool,
    /// `-t`: that client, by name; default the calling client, else the most
    /// recently active one.
    #[serde(default)]
    pub client: Option<String>,
}

/// `paste-buffer`: type a buffer into a pane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasteBuffer {
    /// `-b`; None: the most recent buffer.
    pub name: Option<String>,
    /// `-t`: the pane; default the caller's.
    pub target: Option<Target>,
    /// `-p`: wrap in bracketed-paste markers if the pane's program asked for them
    /// (mode 2004).
    pub bracketed: bool,
    /// `-d`: delete the buffer after pasting.
    pub delete: bool,
    /// `-s`: what each line feed becomes; None: a carriage return, as tmux (`-r` is
    /// `Some("\n")`: no replacement).
    pub separator: Option<String>,
}

/// A buffer's content, as `show-buffer` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferContent {
    pub name: String,
    pub data: String,
}

/// A buffer, as `list-buffers` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferInfo {
    pub name: String,
    /// Bytes.
    pub size: u64,
    /// Seconds since the Unix epoch (tmux's `buffer_created`).
    pub created: u64,
    /// Named by fugue (`bufferN`), and so evicted past `buffer_limit`.
    pub automatic: bool,
    /// tmux's `buffer_sample`: the start, escaped (`\n`, `\t`, `\001`), at most 200
    /// characters then `...`.
    pub sample: String,
    /// The first [`PREVIEW_BYTES`] bytes (cut at a character), for previews.
    pub head: String,
}

/// tmux's `buffer_sample` of `data`: control characters escaped as `strvisx` does with
/// `VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL` (C escapes for the common ones, octal
/// for the rest), at most 200 characters, `...` when cut.
pub fn sample(data: &str) -> String {
    const WIDTH: usize = 200;
    let mut out = String::new();
    let mut chars = data.chars();
    for c in chars.by_ref().take(WIDTH) {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\0' => out.push_str("\\000"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c => out.push(c),
        }
    }
    if chars.next().is_some() {
        out.push_str("...");
    }
    out
}

/// The first `max` bytes of `s`, cut at a character boundary.
pub fn head(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_escape_as_tmux_and_stop_at_200_characters() {
        assert_eq!(sample("a\nb\tc\u{1}"), "a\\nb\\tc\\001");
        assert_eq!(sample("é日x"), "é日x");
        let long = "y".repeat(250);
        assert_eq!(sample(&long), format!("{}...", "y".repeat(200)));
        assert_eq!(sample(&"y".repeat(200)), "y".repeat(200));
    }

    #[test]
    fn heads_cut_at_characters() {
        assert_eq!(head("日本", 4), "日");
        assert_eq!(head("ab", 4), "ab");
    }
}
