//! Short excerpts of caller-supplied values, for error messages and logs.
//!
//! A caller can send a megabyte where a pane name belongs. Errors and log lines name
//! what was wrong, but quoting the whole value would hand the megabyte back (and to
//! the log) several times over: a 10 MB argument once made a 28 MB error. So values
//! are quoted as an excerpt of at most [`EXCERPT_CHARS`] characters and their size.

use crate::error::CommandError;
use std::borrow::Cow;

/// The most characters of one caller value an error or log line quotes.
pub const EXCERPT_CHARS: usize = 200;

/// The most bytes of one error message or suggestion, whatever it quotes.
pub const MAX_ERROR_TEXT: usize = 8 * 1024;

/// `s` if it has at most `max` characters, else its first `max` characters followed
/// by `… (N bytes)`.
pub fn excerpt_to(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((cut, _)) => Cow::Owned(format!("{}… ({} bytes)", &s[..cut], s.len())),
    }
}

/// [`excerpt_to`] with [`EXCERPT_CHARS`].
pub fn excerpt(s: &str) -> Cow<'_, str> {
    excerpt_to(s, EXCERPT_CHARS)
}

/// Shortens every `` `quoted` `` span longer than [`EXCERPT_CHARS`] (messages quote
/// caller values in backticks), then the whole text to [`MAX_ERROR_TEXT`] bytes.
pub fn bound_text(text: &str) -> Cow<'_, str> {
    if text.len() <= EXCERPT_CHARS {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(MAX_ERROR_TEXT + 64));
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // An unclosed quote runs to the end of the text.
        let close = rest.find('`').unwrap_or(rest.len());
        out.push_str(&excerpt(&rest[..close]));
        rest = &rest[close..];
        if let Some(tail) = rest.strip_prefix('`') {
            out.push('`');
            rest = tail;
        }
    }
    out.push_str(rest);
    if out.len() > MAX_ERROR_TEXT {
        let mut cut = MAX_ERROR_TEXT;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        let total = out.len();
        out.truncate(cut);
        out.push_str(&format!("… ({total} bytes)"));
    }
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

impl CommandError {
    /// This error with caller values in its message and suggestion cut to excerpts
    /// (see [`bound_text`]). Every surface answers with bounded errors.
    pub fn bounded(mut self) -> CommandError {
        if let Cow::Owned(m) = bound_text(&self.message) {
            self.message = m;
        }
        if let Some(s) = &self.suggestion
            && let Cow::Owned(b) = bound_text(s)
        {
            self.suggestion = Some(b);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_whole() {
        assert_eq!(excerpt("%3"), "%3");
        assert_eq!(bound_text("unknown target `x`"), "unknown target `x`");
    }

    #[test]
    fn long_values_become_an_excerpt_and_their_size() {
        let long = "é".repeat(1_000_000);
        let e = excerpt(&long);
        assert!(e.len() < 500, "{}", e.len());
        assert!(e.ends_with("… (2000000 bytes)"), "{e}");
        let msg = format!("unknown target `{long}`: no such pane");
        let b = bound_text(&msg);
        assert!(b.len() < 600, "{}", b.len());
        assert!(b.starts_with("unknown target `éé"));
        assert!(b.ends_with("(2000000 bytes)`: no such pane"), "{b}");
    }

    #[test]
    fn an_unclosed_quote_and_a_long_unquoted_text_are_bounded() {
        let unclosed = format!("`{}", "x".repeat(50_000));
        assert!(bound_text(&unclosed).len() < 300);
        let plain = "y".repeat(50_000);
        let b = bound_text(&plain);
        assert!(b.len() <= MAX_ERROR_TEXT + 40, "{}", b.len());
        assert!(b.ends_with("(50000 bytes)"));
    }

    #[test]
    fn a_bounded_error_keeps_its_code() {
        let e = CommandError::invalid_argument(
            "keys",
            format!("`{}` is not a key name", "k".repeat(10_000_000)),
        )
        .with_suggestion(format!("try `{}`", "s".repeat(1000)))
        .bounded();
        assert_eq!(e.code, crate::ErrorCode::InvalidArgument);
        assert!(e.message.len() < 600);
        assert!(e.suggestion.is_some_and(|s| s.len() < 600));
    }
}
