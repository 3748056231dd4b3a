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
//! The scanner is a state machine carried across reads: each byte is looked at a bounded
//! number of times, so its cost is linear in the output whatever a program prints (an
//! earlier version re-parsed the held text on every read and took minutes on a few
//! megabytes of unclosed tags). Text without `<` goes through at memchr speed.
//!
//! Anything that is not a complete valid tag is released byte for byte: a `<` starts a
//! candidate, held back until it is either a tag, not a tag, or over the size bound (then
//! released as is). A candidate that turns out not to be a tag is released up to the
//! byte that proved it, and scanning goes on from that byte, so `<fugue:x<fugue:list/>`
//! still finds the second tag. Tags do not nest: from `<fugue:NAME ...>` on, everything
//! up to `</fugue:NAME>` is content, and if that end never comes the whole candidate is
//! shown as printed, tags inside it included. Escape sequences are tracked across reads,
//! so a `<` inside one (an OSC title, `CSI < u`) never starts a candidate.
//!
//! A complete tag runs only if it carries the pane's key (see [`key`]); one without it,
//! or with a wrong one, is shown as text like any other non-tag, and counted.

mod eol;
pub mod key;

use key::Trust;
pub use key::{KEY_ENV, SidebandKey, Untrusted};

/// Tag names fugue knows; any other name passes through untouched.
pub const TAG_NAMES: &[&str] = &[
    "spawn", "input", "read", "list", "focus", "control", "notify", "message", "report", "result",
    "buffer", "paste",
];

/// No tag name is longer: a longer name is known not to be a tag at once.
const LONGEST_NAME: usize = 7;

const PREFIX: &[u8] = b"fugue:";

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

    /// The tag's name and attribute names, for logs: never values or content, which may
    /// hold what an agent types.
    pub fn shape(&self) -> String {
        let mut s = format!("<fugue:{}", self.name);
        for (k, _) in &self.attrs {
            s.push(' ');
            s.push_str(k);
        }
        s.push_str(if self.content.is_some() { ">…" } else { "/>" });
        s
    }
}

/// What scanning a chunk found besides the bytes to show.
#[derive(Clone, Debug, Default)]
pub struct Scanned {
    pub tags: Vec<Tag>,
    /// Candidates that grew past the size bound and were released to the screen.
    pub overflows: u32,
    /// Complete tags without a key, shown as text.
    pub no_key: u32,
    /// Complete tags with a wrong key, shown as text.
    pub wrong_key: u32,
}

impl Scanned {
    /// Whether there is anything for the sideband surface.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.overflows == 0 && self.no_key == 0 && self.wrong_key == 0
    }
}

/// Escape-sequence state of the stream. As in terminals, an ESC starts a new sequence
/// in any state (it ends a string: ST is ESC then `\\`), so the state after the last ESC
/// does not depend on what came before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Esc {
    #[default]
    Ground,
    /// After ESC.
    Escape,
    /// In a CSI sequence, until its final byte.
    Csi,
    /// In an OSC/DCS/APC/PM/SOS string, until BEL or ST (ESC \\).
    Str,
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
                0x1b => Esc::Escape,
                _ => Esc::Str,
            },
        }
    }
}

/// Where in the grammar a candidate is, after its `<`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Matched this many bytes of `fugue:`.
    Prefix(u8),
    Name,
    /// Between attributes; `spaced` once a space was seen (an attribute needs one).
    Between {
        spaced: bool,
    },
    /// After `/`, wanting `>`.
    Slash,
    Key,
    /// After a key, wanting `=`.
    Eq,
    /// After `=`, wanting a quote.
    Quote,
    Value(u8),
    Content,
    /// In content, matched this many bytes of the end tag (its `<` included).
    EndTag(usize),
}

impl Default for Phase {
    fn default() -> Phase {
        Phase::Prefix(0)
    }
}

/// What one significant byte (outside escape sequences) did to a candidate.
enum Step {
    Next,
    /// The byte cannot continue a tag: release the candidate without it, and look at
    /// the byte again outside.
    Fail,
    /// The byte (kept in the candidate) showed it is not a tag.
    FailAfter,
    /// The byte completed a tag.
    Done(Tag),
}

/// A possible tag, from its `<`. Buffers are kept between candidates.
#[derive(Default)]
struct Candidate {
    /// Every byte since the `<`, as printed: what is shown if this is not a tag.
    held: Vec<u8>,
    /// Escape sequences inside: shown in place of a tag.
    keep: Vec<u8>,
    phase: Phase,
    /// Inside a line break and its indentation.
    wrapping: bool,
    name: String,
    key: String,
    /// The value or content being read.
    raw: Vec<u8>,
    /// Bytes of a possible end tag, content if it is not one.
    maybe_end: Vec<u8>,
    attrs: Vec<(String, String)>,
    /// It was a complete tag (released only for want of the key).
    complete: bool,
}

/// Memory a candidate keeps for the next one; more is given back.
const KEEP_CAPACITY: usize = 4096;

impl Candidate {
    fn reset(&mut self) {
        for v in [&mut self.held, &mut self.keep, &mut self.raw] {
            v.clear();
            v.shrink_to(KEEP_CAPACITY);
        }
        self.maybe_end.clear();
        self.name.clear();
        self.key.clear();
        self.attrs.clear();
        self.phase = Phase::default();
        self.wrapping = false;
        self.complete = false;
    }

    /// How many bytes at the start of `input` are plain content, taken in one piece (at
    /// most `room`); None when the next byte needs a closer look.
    fn plain_content(&self, input: &[u8], room: usize) -> Option<usize> {
        if self.phase != Phase::Content {
            return None;
        }
        let input = &input[..input.len().min(room.max(1))];
        let n = memchr::memchr3(b'<', 0x1b, b'\r', input).unwrap_or(input.len());
        (n > 0).then_some(n)
    }

    /// Whether the candidate got as far as an attribute or content: only then can it
    /// hold the pane's key (in a value, content, or even an attribute's name, since hex
    /// digits make one). `<fugue:spawn,` and other near misses cannot.
    fn past_name(&self) -> bool {
        self.complete
            || !self.attrs.is_empty()
            || !matches!(
                self.phase,
                Phase::Prefix(_) | Phase::Name | Phase::Between { .. } | Phase::Slash
            )
    }

    fn end_tag(&self) -> impl Iterator<Item = u8> + '_ {
        b"</fugue:"
            .iter()
            .copied()
            .chain(self.name.bytes())
            .chain(std::iter::once(b'>'))
    }

    fn end_tag_len(&self) -> usize {
        b"</fugue:>".len() + self.name.len()
    }

    /// Takes one significant byte.
    fn step(&mut self, b: u8) -> Step {
        // Every phase but plain content reads through a TUI's line wrapping.
        if self.phase != Phase::Content {
            if b == b'\r' || b == b'\n' {
                self.wrapping = true;
                if matches!(self.phase, Phase::EndTag(_)) && b == b'\n' {
                    self.maybe_end.push(b);
                }
                return Step::Next;
            }
            if self.wrapping {
                if b == b' ' || b == b'\t' {
                    if matches!(self.phase, Phase::EndTag(_)) {
                        self.maybe_end.push(b);
                    }
                    return Step::Next;
                }
                self.wrapping = false;
            }
        }
        // A phase may hand the byte on to the next one; at most twice.
        loop {
            match self.phase {
                Phase::Prefix(k) => {
                    let k = usize::from(k);
                    if PREFIX.get(k) != Some(&b) {
                        return Step::Fail;
                    }
                    self.phase = if k + 1 == PREFIX.len() {
                        Phase::Name
                    } else {
                        Phase::Prefix((k + 1) as u8)
                    };
                    return Step::Next;
                }
                Phase::Name => {
                    if is_name_byte(b) {
                        if self.name.len() == LONGEST_NAME {
                            return Step::Fail;
                        }
                        self.name.push(b as char);
                        return Step::Next;
                    }
                    if !TAG_NAMES.contains(&self.name.as_str()) {
                        return Step::Fail;
                    }
                    self.phase = Phase::Between { spaced: false };
                }
                Phase::Between { spaced } => {
                    match b {
                        b' ' | b'\t' => self.phase = Phase::Between { spaced: true },
                        b'/' => self.phase = Phase::Slash,
                        b'>' => self.phase = Phase::Content,
                        b if spaced && (b.is_ascii_lowercase() || b == b'_') => {
                            self.key.clear();
                            self.key.push(b as char);
                            self.phase = Phase::Key;
                        }
                        _ => return Step::Fail,
                    }
                    return Step::Next;
                }
                Phase::Slash => {
                    return if b == b'>' {
                        Step::Done(self.finish(None))
                    } else {
                        Step::Fail
                    };
                }
                Phase::Key => {
                    if is_name_byte(b) {
                        self.key.push(b as char);
                        return Step::Next;
                    }
                    self.phase = Phase::Eq;
                }
                Phase::Eq | Phase::Quote => {
                    match (self.phase, b) {
                        (_, b' ' | b'\t') => {}
                        (Phase::Eq, b'=') => self.phase = Phase::Quote,
                        (Phase::Quote, b'"' | b'\'') => {
                            self.raw.clear();
                            self.phase = Phase::Value(b);
                        }
                        _ => return Step::Fail,
                    }
                    return Step::Next;
                }
                Phase::Value(quote) => {
                    if b == b'<' {
                        return Step::Fail;
                    }
                    if b != quote {
                        self.raw.push(b);
                        return Step::Next;
                    }
                    let Some(value) = unescape(&self.raw) else {
                        return Step::FailAfter;
                    };
                    self.raw.clear();
                    self.attrs.push((std::mem::take(&mut self.key), value));
                    self.phase = Phase::Between { spaced: false };
                    return Step::Next;
                }
                Phase::Content => {
                    if b == b'<' {
                        self.maybe_end.clear();
                        self.maybe_end.push(b);
                        self.phase = Phase::EndTag(1);
                    } else if b != b'\r' {
                        // Newlines in content are the agent's, kept; carriage returns go.
                        self.raw.push(b);
                    }
                    return Step::Next;
                }
                Phase::EndTag(k) => {
                    if self.end_tag().nth(k) == Some(b) {
                        self.maybe_end.push(b);
                        if k + 1 < self.end_tag_len() {
                            self.phase = Phase::EndTag(k + 1);
                            return Step::Next;
                        }
                        let Some(content) = unescape(&self.raw) else {
                            return Step::FailAfter;
                        };
                        return Step::Done(self.finish(Some(content)));
                    }
                    // Not the end: what looked like it is content, and so may this byte be.
                    self.raw.append(&mut self.maybe_end);
                    self.wrapping = false;
                    self.phase = Phase::Content;
                }
            }
        }
    }

    fn finish(&mut self, content: Option<String>) -> Tag {
        self.complete = true;
        let name = std::mem::take(&mut self.name);
        let attrs = std::mem::take(&mut self.attrs);
        let mut text = format!("<fugue:{name}");
        // The key is no part of what identifies a tag (nor may it be kept anywhere).
        for (k, v) in attrs.iter().filter(|(k, _)| k != "key") {
            text.push_str(&format!(" {k}=\"{v}\""));
        }
        match &content {
            None => text.push_str("/>"),
            Some(c) => text.push_str(&format!(">{c}</fugue:{name}>")),
        }
        Tag {
            name,
            attrs,
            content,
            text,
        }
    }
}

pub struct Scanner {
    max: usize,
    /// Escape-sequence state of the whole stream, inside candidates and out.
    esc: Esc,
    active: bool,
    cand: Candidate,
    /// Which complete tags run.
    trust: Trust,
    /// The last byte shown was a line break (or none was shown yet).
    line_start: bool,
    /// The line break after a tag that stood alone on its line, still to be removed.
    eol: eol::Eol,
    /// Bytes looked at one by one (tests bound it).
    #[cfg(test)]
    steps: u64,
}

/// How a candidate's reading of a chunk ended.
enum Exit {
    /// The chunk ended with the candidate still open.
    Open,
    /// Not a tag (or too long): its bytes are shown as printed.
    Released,
    /// A tag: its bytes are removed, escape sequences inside it shown.
    Tag,
}

impl Scanner {
    /// A scanner that releases candidates longer than `max` bytes. Until it is given a
    /// key ([`Self::set_key`]) it runs no tag: every one is shown as text.
    pub fn new(max: usize) -> Scanner {
        Scanner {
            max: max.max(16),
            esc: Esc::Ground,
            active: false,
            cand: Candidate::default(),
            trust: Trust::Nothing,
            line_start: true,
            eol: eol::Eol::Nothing,
            #[cfg(test)]
            steps: 0,
        }
    }

    /// Runs tags that carry `key` (and only those); None runs none.
    pub fn set_key(&mut self, key: Option<SidebandKey>) {
        self.trust = key.map_or(Trust::Nothing, Trust::key);
    }

    /// A scanner that runs every well-formed tag, keyed or not (the grammar's tests).
    #[cfg(test)]
    fn trusting(max: usize) -> Scanner {
        let mut s = Scanner::new(max);
        s.trust = Trust::Everything;
        s
    }

    /// Whether a possible tag is held back from the screen.
    pub fn has_pending(&self) -> bool {
        self.active
    }

    /// Bytes of the possible tag held back between reads (bounded by `max`).
    pub fn held_bytes(&self) -> usize {
        self.cand.held.len()
    }

    /// Forgets the escape-sequence state: scanning starts again on a stream it did not
    /// follow (it was switched off), where the best guess is plain text.
    pub fn restart(&mut self) {
        self.esc = Esc::Ground;
    }

    /// Releases a held candidate unchanged (output went quiet, or scanning was switched
    /// off). True if there was one.
    pub fn flush(&mut self, mut show: impl FnMut(&[u8])) -> bool {
        if !self.active {
            return false;
        }
        if self.trust.has_key() && self.cand.past_name() {
            self.trust.redact(&mut self.cand.held);
        }
        if let Some(&last) = self.cand.held.last() {
            self.line_start = last == b'\n';
        }
        show(&self.cand.held);
        self.cand.reset();
        self.active = false;
        true
    }

    /// Scans `input`: bytes to show go to `show` (in order, in as few pieces as it can:
    /// one for a chunk without tags), tags are returned.
    pub fn feed(&mut self, input: &[u8], mut show: impl FnMut(&[u8])) -> Scanned {
        let mut found = Scanned::default();
        // Whether what was shown last ends a line (once per piece shown, not per byte).
        let line_start = std::cell::Cell::new(self.line_start);
        let mut show = |b: &[u8]| {
            if let Some(&last) = b.last() {
                line_start.set(last == b'\n');
            }
            show(b)
        };
        // A line break owed by a tag alone on its line at the end of the last chunk.
        let mut i = eol::skip(&mut self.eol, input, 0);
        // Start of this chunk's bytes not shown yet. Bytes of a candidate that turns out
        // not to be a tag stay in this run, so they are shown with the text around them
        // rather than copied.
        let mut run = i;
        // Where the open candidate's bytes in this chunk begin (0 when it began earlier
        // and its first bytes wait in `cand.held`).
        let mut from = i;
        loop {
            if self.active {
                match self.candidate(input, &mut i, from, &mut found) {
                    Exit::Open => break,
                    Exit::Released if self.trust.has_key() && self.cand.past_name() => {
                        // Text released as not-a-tag may hold the key (a keyed tag cut
                        // short, one inside an unclosed tag's content): it is shown
                        // whole, with the key hidden.
                        if run < from {
                            show(&input[run..from]);
                        }
                        self.cand.held.extend_from_slice(&input[from..i]);
                        self.trust.redact(&mut self.cand.held);
                        show(&self.cand.held);
                        run = i;
                    }
                    Exit::Released => {
                        if !self.cand.held.is_empty() {
                            show(&self.cand.held);
                        }
                    }
                    Exit::Tag => {
                        if run < from {
                            show(&input[run..from]);
                        }
                        let alone = line_start.get() && self.cand.keep.is_empty();
                        if !self.cand.keep.is_empty() {
                            show(&self.cand.keep);
                        }
                        if alone {
                            self.eol = eol::Eol::LineBreak;
                            i = eol::skip(&mut self.eol, input, i);
                        }
                        run = i;
                    }
                }
                self.cand.reset();
                self.active = false;
                continue;
            }
            match self.next_candidate(input, i) {
                None => break,
                Some(at) => {
                    self.active = true;
                    from = at;
                    i = at + 1;
                }
            }
        }
        if self.active {
            if run < from {
                show(&input[run..from]);
            }
            self.cand.held.extend_from_slice(&input[from..]);
        } else if run < input.len() {
            show(&input[run..]);
        }
        self.line_start = line_start.get();
        found
    }

    /// Where the next `<` outside escape sequences is, from `i`; None when there is none
    /// (the escape state is then that at the end of `input`). Text is looked at with
    /// memchr: only the end of an escape sequence before a `<` or at the end of the chunk
    /// is stepped through byte by byte.
    fn next_candidate(&mut self, input: &[u8], mut i: usize) -> Option<usize> {
        loop {
            i = self.finish_escape(input, i);
            if i >= input.len() {
                return None;
            }
            // The escape state is Ground at `i`; it is worked out further on only where it
            // matters: at a `<` that may start a tag, and at the end of the chunk.
            let mut inside_escape = None;
            for off in memchr::memchr_iter(b'<', &input[i..]) {
                let at = i + off;
                // Most `<` in output (`a < b`, HTML) are followed by something no tag
                // can be: pass them by, whether or not they are in an escape sequence.
                if let Some(next) = input.get(at + 1)
                    && !matches!(next, b'f' | 0x1b | b'\r' | b'\n')
                {
                    continue;
                }
                self.esc = self.escape_state(input, i, at);
                if self.esc == Esc::Ground {
                    return Some(at);
                }
                inside_escape = Some(at);
                break;
            }
            match inside_escape {
                // This `<` belongs to an escape sequence: go on from it.
                Some(at) => i = at,
                None => {
                    self.esc = self.escape_state(input, i, input.len());
                    return None;
                }
            }
        }
    }

    /// Steps through the escape sequence in progress at `i`; returns where it ends.
    fn finish_escape(&mut self, input: &[u8], mut i: usize) -> usize {
        while self.esc != Esc::Ground && i < input.len() {
            if self.esc == Esc::Str {
                // Strings (titles, clipboard contents) can be long: jump to their end.
                match memchr::memchr2(0x07, 0x1b, &input[i..]) {
                    Some(off) => i += off,
                    None => return input.len(),
                }
            }
            self.esc = self.esc.step(input[i]);
            i += 1;
            #[cfg(test)]
            {
                self.steps += 1;
            }
        }
        i
    }

    /// The escape state at `to`, given the state is Ground at `i`. Any ESC starts a new
    /// sequence whatever came before, so only the bytes after the last ESC matter.
    fn escape_state(&mut self, input: &[u8], i: usize, to: usize) -> Esc {
        let Some(last) = memchr::memrchr(0x1b, &input[i..to]) else {
            return Esc::Ground;
        };
        let mut esc = Esc::Escape;
        for &b in &input[i + last + 1..to] {
            #[cfg(test)]
            {
                self.steps += 1;
            }
            esc = esc.step(b);
            if esc == Esc::Ground {
                break;
            }
        }
        esc
    }

    /// Feeds the open candidate from `input[*i..]`, leaving `*i` where ground text
    /// resumes (or at the end while the candidate is still open). `from` is where the
    /// candidate's bytes in this chunk begin.
    fn candidate(&mut self, input: &[u8], i: &mut usize, from: usize, found: &mut Scanned) -> Exit {
        while *i < input.len() {
            #[cfg(test)]
            {
                self.steps += 1;
            }
            if let Some(exit) = self.candidate_byte(input, i, from, found) {
                return exit;
            }
            if self.cand.held.len() + (*i - from) > self.max {
                found.overflows += 1;
                return Exit::Released;
            }
        }
        Exit::Open
    }

    /// Takes the candidate's next byte (or run of plain content) at `input[*i]`;
    /// Some when that ended the candidate.
    fn candidate_byte(
        &mut self,
        input: &[u8],
        i: &mut usize,
        from: usize,
        found: &mut Scanned,
    ) -> Option<Exit> {
        let c = &mut self.cand;
        let b = input[*i];
        // Bytes this candidate holds once `b` is taken.
        let held = c.held.len() + (*i + 1 - from);
        let step = if self.esc != Esc::Ground || b == 0x1b {
            let was = self.esc;
            self.esc = self.esc.step(b);
            c.keep.push(b);
            *i += 1;
            // A TUI draws a run of blanks as a jump to the right (`CSI n G`, `CSI n C`):
            // the agent printed a blank there, so the grammar reads one
            // (`<fugue:spawn\e[16Gkey=` is `<fugue:spawn key=`). The move itself is
            // kept with the escapes, shown whatever the candidate turns out to be.
            if !(was == Esc::Csi && self.esc == Esc::Ground && is_horizontal_move(b)) {
                return None;
            }
            match c.step(b' ') {
                // Already taken: released, the move is shown as printed.
                Step::Fail => Step::FailAfter,
                step => step,
            }
        } else if let Some(n) = c.plain_content(&input[*i..], self.max + 1 - (held - 1)) {
            c.raw.extend_from_slice(&input[*i..*i + n]);
            *i += n;
            return None;
        } else {
            let step = c.step(b);
            if !matches!(step, Step::Fail) {
                *i += 1;
            }
            step
        };
        match step {
            Step::Next => None,
            Step::Fail | Step::FailAfter => Some(Exit::Released),
            // A tag without the pane's key is text the agent shows, not the agent's
            // own: it is released like any non-tag.
            Step::Done(mut tag) => Some(match self.trust.admit(&mut tag) {
                Ok(()) => {
                    found.tags.push(tag);
                    Exit::Tag
                }
                Err(Untrusted::NoKey) => {
                    found.no_key += 1;
                    Exit::Released
                }
                Err(Untrusted::WrongKey) => {
                    found.wrong_key += 1;
                    Exit::Released
                }
            }),
        }
    }

    #[cfg(test)]
    fn steps(&self) -> u64 {
        self.steps
    }
}

/// Decodes the five XML entities; None for anything else after `&`, or text that is
/// not UTF-8.
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

/// A CSI final byte that moves the cursor right on its line (CUF, CHA, HPA, HPR).
fn is_horizontal_move(b: u8) -> bool {
    matches!(b, b'C' | b'G' | b'`' | b'a')
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
}

#[cfg(test)]
mod tests;
