//! Finding sideband tags in a pane's output, free of I/O.
//!
//! An agent in a pane prints `<fugue:spawn command="make"/>` or
//! `<fugue:input pane="%3">text</fugue:input>`. The scanner sits between the PTY and
//! vt100: it passes every byte through unchanged, except the bytes of complete, valid
//! tags, which it removes and returns. It works on text with escape sequences skipped,
//! so an agent's TUI may colour a tag or position the cursor inside it; those escape
//! sequences are kept (they still take effect), only the tag's own characters go. A
//! line break followed by indentation inside a tag is a TUI's wrapping and is ignored.
//!
//! Anything that is not a complete valid tag is released byte for byte: a `<` starts a
//! candidate, held back until it is either a tag, not a tag, or over the size bound (then
//! released as is). Escape sequences are tracked across reads, so a `<` inside one (an
//! OSC title, `CSI < u`) never starts a candidate.

/// Tag names fugue knows; any other name passes through untouched.
pub const TAG_NAMES: &[&str] = &[
    "spawn", "input", "read", "list", "focus", "control", "notify",
];

/// A recognised tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// Attribute values with entities decoded, in order.
    pub attrs: Vec<(String, String)>,
    /// Text between the start and end tags (None for `<fugue:x/>`).
    pub content: Option<String>,
    /// The tag as text, escape sequences and wrapping removed (identifies repaints).
    pub text: String,
}

impl Tag {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What scanning a chunk found besides the bytes to show.
#[derive(Debug, Default)]
pub struct Scanned {
    pub tags: Vec<Tag>,
    /// A candidate grew past the size bound and was released to the screen.
    pub overflowed: bool,
}

/// Escape-sequence state of the stream outside candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Esc {
    #[default]
    Ground,
    /// After ESC.
    Escape,
    /// In a CSI sequence, until its final byte.
    Csi,
    /// In an OSC/DCS/APC/PM/SOS string, until BEL or ST.
    Str,
    /// ESC inside a string (maybe the start of ST).
    StrEscape,
}

impl Esc {
    /// The state after `b`.
    fn step(self, b: u8) -> Esc {
        match self {
            Esc::Ground => {
                if b == 0x1b {
                    Esc::Escape
                } else {
                    Esc::Ground
                }
            }
            Esc::Escape => match b {
                b'[' => Esc::Csi,
                b']' | b'P' | b'_' | b'^' | b'X' => Esc::Str,
                // Intermediates keep the sequence open; anything else ends it.
                0x20..=0x2f => Esc::Escape,
                0x1b => Esc::Escape,
                _ => Esc::Ground,
            },
            Esc::Csi => match b {
                0x40..=0x7e => Esc::Ground,
                0x1b => Esc::Escape,
                _ => Esc::Csi,
            },
            Esc::Str => match b {
                0x07 => Esc::Ground,
                0x1b => Esc::StrEscape,
                _ => Esc::Str,
            },
            Esc::StrEscape => match b {
                b'\\' => Esc::Ground,
                0x1b => Esc::StrEscape,
                _ => Esc::Str,
            },
        }
    }
}

/// The outcome of parsing a candidate.
enum Parse {
    /// Consistent with a tag so far; more bytes are needed.
    Incomplete,
    NotATag,
    /// A tag of `len` bytes; `keep` are the escape sequences inside it.
    Tag {
        tag: Tag,
        len: usize,
        keep: Vec<u8>,
    },
}

pub struct Scanner {
    /// Bytes from a `<` that may begin a tag.
    pending: Vec<u8>,
    esc: Esc,
    max: usize,
}

impl Scanner {
    /// A scanner that releases candidates longer than `max` bytes.
    pub fn new(max: usize) -> Scanner {
        Scanner {
            pending: Vec::new(),
            esc: Esc::Ground,
            max: max.max(16),
        }
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Releases a held candidate unchanged (when scanning is switched off).
    pub fn flush(&mut self, out: &mut Vec<u8>) {
        let pending = std::mem::take(&mut self.pending);
        self.ground(&pending, out, &mut Scanned::default(), false);
    }

    /// Scans `input`: bytes to show go to `out`, tags are returned.
    pub fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) -> Scanned {
        let mut found = Scanned::default();
        if self.pending.is_empty() {
            self.ground(input, out, &mut found, true);
        } else {
            self.pending.extend_from_slice(input);
            let pending = std::mem::take(&mut self.pending);
            self.resume(pending, out, &mut found);
        }
        found
    }

    /// Parses a held candidate (starting with `<`) and continues after it.
    fn resume(&mut self, mut buf: Vec<u8>, out: &mut Vec<u8>, found: &mut Scanned) {
        loop {
            match parse(&buf) {
                Parse::Incomplete if buf.len() <= self.max => {
                    self.pending = buf;
                    return;
                }
                Parse::Incomplete => {
                    found.overflowed = true;
                    out.push(b'<');
                    buf.drain(..1);
                }
                Parse::NotATag => {
                    out.push(b'<');
                    buf.drain(..1);
                }
                Parse::Tag { tag, len, keep } => {
                    out.extend_from_slice(&keep);
                    found.tags.push(tag);
                    buf.drain(..len);
                }
            }
            // The rest is ground text again, which may hold further candidates.
            match self.ground_until_candidate(&buf, out) {
                Some(at) => {
                    buf.drain(..at);
                }
                None => return,
            }
        }
    }

    /// Copies ground text to `out` and returns where a candidate starts, if one does.
    fn ground_until_candidate(&mut self, input: &[u8], out: &mut Vec<u8>) -> Option<usize> {
        let mut i = 0;
        while i < input.len() {
            if self.esc == Esc::Ground {
                match memchr::memchr2(b'<', 0x1b, &input[i..]) {
                    None => {
                        out.extend_from_slice(&input[i..]);
                        return None;
                    }
                    Some(off) => {
                        out.extend_from_slice(&input[i..i + off]);
                        i += off;
                        if input[i] == b'<' {
                            return Some(i);
                        }
                    }
                }
            }
            self.esc = self.esc.step(input[i]);
            out.push(input[i]);
            i += 1;
        }
        None
    }

    fn ground(&mut self, input: &[u8], out: &mut Vec<u8>, found: &mut Scanned, scan: bool) {
        if !scan {
            for &b in input {
                self.esc = self.esc.step(b);
            }
            out.extend_from_slice(input);
            return;
        }
        if let Some(at) = self.ground_until_candidate(input, out) {
            self.resume(input[at..].to_vec(), out, found);
        }
    }
}

/// A cursor over a candidate that skips escape sequences (collecting them) and, where
/// asked, a TUI's line wrapping.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    keep: Vec<u8>,
}

/// `None` when the buffer ends: the tag may still be completed by later bytes.
type More<T> = Option<T>;

impl Reader<'_> {
    /// Skips escape sequences at the current position. None if one is cut off.
    fn skip_escapes(&mut self) -> More<()> {
        while self.buf.get(self.pos) == Some(&0x1b) {
            let start = self.pos;
            let mut st = Esc::Ground;
            loop {
                let b = *self.buf.get(self.pos)?;
                st = st.step(b);
                self.pos += 1;
                if st == Esc::Ground {
                    break;
                }
            }
            self.keep.extend_from_slice(&self.buf[start..self.pos]);
        }
        Some(())
    }

    /// The next significant byte (escape sequences skipped; wrapping skipped too when
    /// `unwrap`), without consuming it.
    fn peek(&mut self, unwrap: bool) -> More<u8> {
        loop {
            self.skip_escapes()?;
            let b = *self.buf.get(self.pos)?;
            if unwrap && (b == b'\r' || b == b'\n') {
                self.pos += 1;
                // Indentation after a wrap belongs to the wrap.
                loop {
                    self.skip_escapes()?;
                    match self.buf.get(self.pos) {
                        Some(b' ' | b'\t' | b'\r' | b'\n') => self.pos += 1,
                        Some(_) => break,
                        None => return None,
                    }
                }
                continue;
            }
            return Some(b);
        }
    }

    fn next(&mut self, unwrap: bool) -> More<u8> {
        let b = self.peek(unwrap)?;
        self.pos += 1;
        Some(b)
    }

    /// Consumes `lit` exactly; Some(false) on a mismatch.
    fn literal(&mut self, lit: &[u8], unwrap: bool) -> More<bool> {
        for &want in lit {
            if self.next(unwrap)? != want {
                return Some(false);
            }
        }
        Some(true)
    }

    fn skip_spaces(&mut self) -> More<bool> {
        let mut any = false;
        while matches!(self.peek(true)?, b' ' | b'\t') {
            self.pos += 1;
            any = true;
        }
        Some(any)
    }
}

/// Decodes the five XML entities; None for anything else after `&`.
fn unescape(raw: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(raw).ok()?;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let (ch, len) = [
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&amp;", '&'),
            ("&quot;", '"'),
            ("&apos;", '\''),
        ]
        .iter()
        .find(|(e, _)| after.starts_with(e))
        .map(|(e, c)| (*c, e.len()))?;
        out.push(ch);
        rest = &after[len..];
    }
    out.push_str(rest);
    Some(out)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
}

/// Parses a candidate that starts with `<`.
fn parse(buf: &[u8]) -> Parse {
    match parse_inner(buf) {
        None => Parse::Incomplete,
        Some(None) => Parse::NotATag,
        Some(Some(p)) => p,
    }
}

/// Some(None) is "not a tag", None is "incomplete".
fn parse_inner(buf: &[u8]) -> More<Option<Parse>> {
    let mut r = Reader {
        buf,
        pos: 0,
        keep: Vec::new(),
    };
    let mut text = String::from("<");
    if r.next(false)? != b'<' || !r.literal(b"fugue:", true)? {
        return Some(None);
    }
    text.push_str("fugue:");
    let mut name = String::new();
    while is_name_byte(r.peek(true)?) {
        name.push(r.next(true)? as char);
    }
    if !TAG_NAMES.contains(&name.as_str()) {
        return Some(None);
    }
    text.push_str(&name);
    let mut attrs = Vec::new();
    let self_closing = loop {
        let spaced = r.skip_spaces()?;
        match r.peek(true)? {
            b'/' => {
                r.pos += 1;
                if r.next(true)? != b'>' {
                    return Some(None);
                }
                text.push_str("/>");
                break true;
            }
            b'>' => {
                r.pos += 1;
                text.push('>');
                break false;
            }
            b if spaced && (b.is_ascii_lowercase() || b == b'_') => {
                let mut key = String::new();
                while is_name_byte(r.peek(true)?) {
                    key.push(r.next(true)? as char);
                }
                r.skip_spaces()?;
                if r.next(true)? != b'=' {
                    return Some(None);
                }
                r.skip_spaces()?;
                let quote = r.next(true)?;
                if quote != b'"' && quote != b'\'' {
                    return Some(None);
                }
                let mut raw = Vec::new();
                loop {
                    match r.next(true)? {
                        b if b == quote => break,
                        b'<' => return Some(None),
                        b => raw.push(b),
                    }
                }
                let Some(value) = unescape(&raw) else {
                    return Some(None);
                };
                text.push(' ');
                text.push_str(&key);
                text.push_str("=\"");
                text.push_str(&value);
                text.push('"');
                attrs.push((key, value));
            }
            _ => return Some(None),
        }
    };
    let content = if self_closing {
        None
    } else {
        // Content runs to the matching end tag. Newlines in it are the agent's, kept
        // (carriage returns dropped).
        let end = format!("</fugue:{name}>");
        let mut raw = Vec::new();
        loop {
            let b = r.next(false)?;
            if b == b'<' {
                let save = r.pos;
                let mut closed = true;
                for &want in &end.as_bytes()[1..] {
                    if r.next(true)? != want {
                        closed = false;
                        break;
                    }
                }
                if closed {
                    break;
                }
                r.pos = save;
            }
            if b != b'\r' {
                raw.push(b);
            }
        }
        let Some(content) = unescape(&raw) else {
            return Some(None);
        };
        text.push_str(&content);
        text.push_str(&end);
        Some(content)
    };
    Some(Some(Parse::Tag {
        tag: Tag {
            name,
            attrs,
            content,
            text,
        },
        len: r.pos,
        keep: r.keep,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_chunks(chunks: &[&[u8]]) -> (Vec<u8>, Vec<Tag>) {
        let mut s = Scanner::new(64 * 1024);
        let mut out = Vec::new();
        let mut tags = Vec::new();
        for c in chunks {
            tags.extend(s.feed(c, &mut out).tags);
        }
        (out, tags)
    }

    #[test]
    fn a_self_closing_tag_is_removed_and_returned() {
        let (out, tags) =
            scan_chunks(&[b"before <fugue:spawn command=\"cargo test\" direction='down'/> after"]);
        assert_eq!(out, b"before  after");
        assert_eq!(tags.len(), 1);
        assert_eq!(tags[0].name, "spawn");
        assert_eq!(tags[0].attr("command"), Some("cargo test"));
        assert_eq!(tags[0].attr("direction"), Some("down"));
        assert_eq!(tags[0].content, None);
    }

    #[test]
    fn content_tags_and_entities() {
        let (out, tags) =
            scan_chunks(&[b"<fugue:input pane=\"%3\" submit=\"true\">a &lt;b&gt; &amp; &quot;c&quot;\nline 2</fugue:input>!"]);
        assert_eq!(out, b"!");
        assert_eq!(tags[0].content.as_deref(), Some("a <b> & \"c\"\nline 2"));
        assert_eq!(tags[0].attr("pane"), Some("%3"));
    }

    #[test]
    fn a_tag_split_across_reads() {
        let (out, tags) = scan_chunks(&[b"x <fugue:not", b"ify>hello</fugue:no", b"tify> y"]);
        assert_eq!(out, b"x  y");
        assert_eq!(tags[0].content.as_deref(), Some("hello"));
    }

    #[test]
    fn a_wrapped_tag_with_indentation_and_sgr_keeps_its_escapes() {
        let input = b"\x1b[1m<fugue:spawn com\x1b[0m\r\n    mand=\"make\x1b[32m all\"/>\x1b[0mz";
        let (out, tags) = scan_chunks(&[input]);
        assert_eq!(tags.len(), 1, "{out:?}");
        assert_eq!(tags[0].attr("command"), Some("make all"));
        assert_eq!(out, b"\x1b[1m\x1b[0m\x1b[32m\x1b[0mz");
        assert_eq!(tags[0].text, "<fugue:spawn command=\"make all\"/>");
    }

    #[test]
    fn malformed_and_unknown_tags_pass_through_unchanged() {
        for input in [
            &b"<fugue:frobnicate x=\"1\"/>"[..],
            b"<fugue:spawn command=unquoted/>",
            b"<fugue:spawn command=\"a<b\"/>",
            b"<fugue:spawn command=\"&bogus;\"/>",
            b"<fugue:spawncommand=\"x\"/>",
            b"a < b and <b>html</b> <fugue> <fugue:> <fugue:spawn",
            b"<fugue:notify>no end tag",
            b"\x1b]0;<fugue:spawn command=\"x\"/>\x07",
        ] {
            let mut s = Scanner::new(64 * 1024);
            let mut out = Vec::new();
            let found = s.feed(input, &mut out);
            // A possible tag still open at the end is held back until more output or
            // until scanning stops.
            s.flush(&mut out);
            assert!(
                found.tags.is_empty(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
            assert_eq!(out, input, "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn an_overlong_candidate_is_released() {
        let mut s = Scanner::new(100);
        let mut out = Vec::new();
        let mut input = b"<fugue:notify>".to_vec();
        input.extend(std::iter::repeat_n(b'x', 300));
        let found = s.feed(&input, &mut out);
        assert!(found.overflowed);
        assert!(found.tags.is_empty());
        assert_eq!(out, input);
    }

    #[test]
    fn less_than_in_escape_sequences_is_not_a_candidate() {
        let (out, tags) = scan_chunks(&[b"\x1b[<u", b"<fugue:list/>"]);
        assert_eq!(out, b"\x1b[<u");
        assert_eq!(tags.len(), 1);
    }

    #[test]
    fn every_split_point_gives_the_same_result() {
        let input: &[u8] =
            b"ab\x1b[31m<fugue:read pane=\"%1\" lines=\"5\"/>cd<fugue:notify>hi</fugue:notify>ef<x";
        let (whole, whole_tags) = scan_chunks(&[input]);
        for i in 0..input.len() {
            for j in i..input.len() {
                let (out, tags) = scan_chunks(&[&input[..i], &input[i..j], &input[j..]]);
                assert_eq!(tags, whole_tags, "split at {i},{j}");
                assert_eq!(out, whole, "split at {i},{j}");
            }
        }
        assert_eq!(whole_tags.len(), 2);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Without a complete tag, the scanner is invisible: every byte comes out as it
        /// went in, whatever the chunking; and nothing ever panics.
        #[test]
        fn passthrough_is_exact(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b"<".to_vec()),
                    proptest::strategy::Just(b"<fugue:".to_vec()),
                    proptest::strategy::Just(b"<fugue:spawn".to_vec()),
                    proptest::strategy::Just(b" command=\"".to_vec()),
                    proptest::strategy::Just(b"\"".to_vec()),
                    proptest::strategy::Just(b"/".to_vec()),
                    proptest::strategy::Just(b">".to_vec()),
                    proptest::strategy::Just(b"\x1b[".to_vec()),
                    proptest::strategy::Just(b"\x1b]".to_vec()),
                    proptest::strategy::Just(b"\x07".to_vec()),
                    proptest::strategy::Just(b"\r\n  ".to_vec()),
                    proptest::strategy::Just(b"&amp;".to_vec()),
                    proptest::collection::vec(proptest::num::u8::ANY, 0..8),
                ],
                0..40,
            ),
            cuts in proptest::collection::vec(0usize..400, 0..6),
        ) {
            let input: Vec<u8> = pieces.concat();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(input.len())).collect();
            cuts.sort_unstable();
            let mut s = Scanner::new(256);
            let mut out = Vec::new();
            let mut tags = Vec::new();
            let mut last = 0;
            for c in cuts.into_iter().chain([input.len()]) {
                tags.extend(s.feed(&input[last..c], &mut out).tags);
                last = c;
            }
            s.flush(&mut out);
            if tags.is_empty() {
                proptest::prop_assert_eq!(out, input);
            } else {
                proptest::prop_assert!(out.len() < input.len());
            }
        }
    }
}
