//! The line layer in front of rmcp on an MCP connection.
//!
//! rmcp ignores input that is not JSON (no reply at all, so a caller waits forever) and
//! buffers lines up to 16 MiB. This layer reads the connection's lines itself with a
//! bounded buffer, answers what rmcp would not, and hands only well-formed JSON on:
//!
//! - a line over [`MAX_LINE`] is dropped as it arrives (never held whole) and answered
//!   with JSON-RPC -32600 naming the limit;
//! - nesting deeper than [`MAX_DEPTH`] is answered with -32600 (counted by a flat scan,
//!   so no input can make anything recurse deeply);
//! - anything else that is not JSON (binary, truncated, garbage) gets -32700.
//!
//! These errors have `id: null` (the id cannot be read from a line that does not
//! parse) and never quote the caller's bytes. The connection stays open: the next
//! line is read as usual.

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The longest line (one MCP message) the server reads. `send_input` takes up to 1 MiB
/// of text (`MAX_INPUT`), which JSON escaping can make up to 6 MiB (`\u0000` for each
/// control byte); 8 MiB leaves room for the rest of the message.
pub const MAX_LINE: usize = 8 * 1024 * 1024;

/// The deepest nesting of arrays and objects in one message. MCP messages need about
/// five levels; serde_json stops at 128, and rmcp parses what we pass on.
pub const MAX_DEPTH: usize = 64;

/// One line read from the connection.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// A line without its newline.
    Whole(Vec<u8>),
    /// A line over the limit, dropped; how many bytes it had.
    TooLong(usize),
    Eof,
}

/// Reads lines of at most `max` bytes; longer ones are skipped as they arrive.
pub struct LineReader<R> {
    rd: R,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(rd: R, max: usize) -> LineReader<R> {
        LineReader { rd, max }
    }

    /// The next line. Not cancel safe: call it from one task, not in a `select!`.
    pub async fn next(&mut self) -> std::io::Result<Line> {
        let mut line = Vec::new();
        // Bytes of a line past the limit, counted but not kept.
        let mut dropped: Option<usize> = None;
        loop {
            let (take, newline) = {
                let available = self.rd.fill_buf().await?;
                if available.is_empty() {
                    return Ok(match dropped {
                        Some(n) => Line::TooLong(n),
                        None if line.is_empty() => Line::Eof,
                        // The last line had no newline: it is still a message.
                        None => Line::Whole(line),
                    });
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.unwrap_or(available.len());
                match &mut dropped {
                    Some(n) => *n = n.saturating_add(take),
                    None if line.len().saturating_add(take) > self.max => {
                        dropped = Some(line.len().saturating_add(take));
                        line = Vec::new();
                    }
                    None => line.extend_from_slice(&available[..take]),
                }
                (take, newline.is_some())
            };
            // The newline itself is consumed too.
            self.rd.consume(take + usize::from(newline));
            if newline {
                return Ok(match dropped {
                    Some(n) => Line::TooLong(n),
                    None => Line::Whole(line),
                });
            }
        }
    }
}

/// What to do with a line.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Well-formed JSON: rmcp gets it.
    Forward,
    /// Blank: nothing to do (rmcp skips these too).
    Skip,
    /// Refused: the JSON-RPC error to answer with.
    Refuse(Refusal),
}

#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub code: i64,
    pub message: String,
}

impl Refusal {
    fn new(code: i64, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// A line over [`MAX_LINE`].
    pub fn too_long(bytes: usize) -> Refusal {
        Refusal::new(
            -32600,
            format!(
                "Invalid request: a message of {bytes} bytes or more is over fugue's limit of \
                 {MAX_LINE} bytes (8 MiB) for one MCP message; it was dropped. Send less in \
                 one call (send_input takes at most 1 MiB of text)"
            ),
        )
    }

    /// The JSON-RPC error response, as one line with its newline.
    pub fn response(&self) -> Vec<u8> {
        let v: Value = json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": self.code, "message": self.message },
        });
        let mut out = v.to_string().into_bytes();
        out.push(b'\n');
        out
    }
}

/// Judges one line (without its newline).
pub fn check(line: &[u8]) -> Verdict {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // rmcp accepts a leading byte order mark (RFC 8259 lets parsers ignore it).
    let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    if let Some(depth) = too_deep(body) {
        return Verdict::Refuse(Refusal::new(
            -32600,
            format!(
                "Invalid request: arrays and objects nested more than {MAX_DEPTH} deep \
                 (this one reaches {depth} or more); MCP messages need only a few levels"
            ),
        ));
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        Ok(_) => Verdict::Forward,
        // serde_json's syntax errors name a line and column, never the input.
        Err(e) => Verdict::Refuse(Refusal::new(
            -32700,
            format!("Parse error: the message is not JSON ({e})"),
        )),
    }
}

/// The depth reached, if nesting goes past [`MAX_DEPTH`]. A flat scan: brackets
/// inside strings do not count.
fn too_deep(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(depth);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &[u8]) -> Option<i64> {
        match check(line) {
            Verdict::Refuse(r) => Some(r.code),
            _ => None,
        }
    }

    #[test]
    fn json_passes_and_garbage_does_not() {
        assert_eq!(
            check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Verdict::Forward
        );
        assert_eq!(check(b"{\"a\":\"[[[[\"}\r"), Verdict::Forward);
        assert_eq!(check(b"  \r"), Verdict::Skip);
        assert_eq!(code(b"not json"), Some(-32700));
        assert_eq!(code(b"\x00\xff\xfe binary"), Some(-32700));
        assert_eq!(code(br#"{"a": 1"#), Some(-32700));
    }

    #[test]
    fn deep_nesting_is_refused_without_recursion() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(code(deep.as_bytes()), Some(-32600));
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert_eq!(check(ok.as_bytes()), Verdict::Forward);
        // Brackets in strings, escaped quotes included, are text.
        let s = format!(r#"{{"a":"\"{}"}}"#, "[".repeat(1000));
        assert_eq!(check(s.as_bytes()), Verdict::Forward);
    }

    #[test]
    fn refusals_are_json_rpc_errors_with_a_null_id() {
        let r = Refusal::too_long(100 << 20).response();
        let v: Value = serde_json::from_slice(&r).unwrap();
        assert_eq!(v["id"], Value::Null);
        assert_eq!(v["error"]["code"], -32600);
        assert!(v["error"]["message"].as_str().unwrap().contains("8388608"));
    }

    #[tokio::test]
    async fn long_lines_are_dropped_and_the_next_one_is_read() {
        let mut input = vec![b'x'; 100];
        input.push(b'\n');
        input.extend_from_slice(b"ok\n");
        input.extend(vec![b'y'; 30]);
        // A small buffer: the long line arrives in pieces.
        let rd = tokio::io::BufReader::with_capacity(8, &input[..]);
        let mut lines = LineReader::new(rd, 10);
        assert_eq!(lines.next().await.unwrap(), Line::TooLong(100));
        assert_eq!(lines.next().await.unwrap(), Line::Whole(b"ok".to_vec()));
        assert_eq!(lines.next().await.unwrap(), Line::TooLong(30));
        assert_eq!(lines.next().await.unwrap(), Line::Eof);
    }
}
