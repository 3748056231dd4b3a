//! Harness bodies for the fuzz targets in `fuzz/` (not part of the API).
//!
//! Each function takes arbitrary bytes, drives one part of the server the way its real
//! caller does, and panics only when an invariant breaks. The same functions run as
//! ordinary tests over the committed corpus (`tests/it/fuzz_corpus.rs`), so the
//! harnesses cannot rot when cargo-fuzz is not installed.

use crate::config::Config;
use crate::pane::state::PaneState;
use crate::pane::tags::{Scanner, Tag};
use crate::surfaces::mcp;
use fugue_protocol::{LineBound, PaneId, codec};
use std::path::Path;

/// Reads the harness's input a byte or a slice at a time.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }
}

/// Output, tags and overflows of scanning `input` in reads of `chunk` bytes, then
/// releasing what is held. Checks the held candidate's bound after every read.
fn scan(input: &[u8], chunk: usize, max: usize) -> (Vec<u8>, Vec<Tag>, u32) {
    let mut s = Scanner::new(max);
    let mut out = Vec::new();
    let mut tags = Vec::new();
    let mut overflows = 0;
    for piece in input.chunks(chunk.max(1)) {
        let found = s.feed(piece, |b| out.extend_from_slice(b));
        assert!(
            s.held_bytes() <= max.max(16),
            "the scanner holds {} bytes, over its bound of {max}",
            s.held_bytes()
        );
        assert_eq!(s.has_pending(), s.held_bytes() > 0);
        tags.extend(found.tags);
        overflows += found.overflows;
    }
    s.flush(|b| out.extend_from_slice(b));
    assert!(!s.has_pending());
    (out, tags, overflows)
}

/// The sideband scanner between a pane's PTY and vt100. The first byte picks the size
/// bound, the second the read size. Without a complete tag every byte comes out as it
/// went in; tags only ever remove bytes; how reads are cut changes nothing.
pub fn scanner(data: &[u8]) {
    let mut input = Input(data);
    let (Some(bound), Some(cut)) = (input.byte(), input.byte()) else {
        return;
    };
    let max = 16usize << (bound % 8);
    let stream = input.0;
    let (out, tags, overflows) = scan(stream, usize::from(cut) + 1, max);
    if tags.is_empty() {
        assert_eq!(out, stream, "text without tags was changed");
    } else {
        assert!(
            out.len() < stream.len(),
            "a tag was found but nothing removed"
        );
    }
    for tag in &tags {
        let size: usize = tag.name.len()
            + tag
                .attrs
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>()
            + tag.content.as_ref().map_or(0, String::len);
        assert!(size <= max.max(16), "a tag larger than the bound: {size}");
    }
    let whole = scan(stream, stream.len(), max);
    assert_eq!(
        (out, tags, overflows),
        whole,
        "read size changed the result"
    );
}

/// Operations of the pane harness: a byte below [`OP_BASE`] is a chunk of that many
/// output bytes; the others act on the pane.
const OP_BASE: u8 = 0xf0;
const OP_RESIZE: u8 = 0xf0;
const OP_SCAN_ON: u8 = 0xf1;
const OP_SCAN_OFF: u8 = 0xf2;
const OP_RELEASE: u8 = 0xf3;
const OP_READ: u8 = 0xf4;
const OP_TAG_LIMIT: u8 = 0xf5;

/// Most bytes a row of `cols` cells can hold in history: vt100 keeps at most 22 bytes of
/// text per cell; a layout byte and a style run per cell; doubled for `Vec` growth.
fn row_bound(cols: usize) -> usize {
    2 * cols * (22 + 1 + std::mem::size_of::<fugue_protocol::screen::StyleRun>()) + 64
}

/// Checks what must hold after any operation: history within its limit in rows and in
/// bytes, a cursor on the screen, a title within its cap, a held tag within its bound.
fn check_pane(p: &PaneState, limit: usize, widest: usize, tag_max: usize) {
    let h = p.history();
    assert!(
        h.len() <= limit,
        "history has {} rows, limit {limit}",
        h.len()
    );
    let bytes = h.heap_bytes();
    // The ring keeps its capacity when emptied (`clear` sends CSI 3 J): bound it by the
    // limit, not by what it holds now.
    let ring = (limit + 1).next_power_of_two().max(4)
        * std::mem::size_of::<crate::pane::history::HistoryRow>()
        * 2;
    assert!(
        bytes <= limit * row_bound(widest) + ring,
        "history holds {bytes} bytes for {} rows of at most {widest} columns",
        h.len()
    );
    let (cols, rows) = p.size();
    assert!(cols >= 1 && rows >= 1);
    let cursor = p.cursor();
    assert!(
        cursor.row < rows && cursor.col <= cols,
        "cursor {cursor:?} off a {cols}x{rows} screen"
    );
    if let Some(title) = p.title() {
        assert!(
            title.chars().count() <= 256,
            "title of {} chars",
            title.len()
        );
    }
    assert!(p.held_tag_bytes() <= tag_max.max(16));
}

/// A pane's byte pipeline: output (optionally scanned for sideband tags) into vt100 and
/// fugue's history, with resizes (and so reflows) and reads in between, all chosen by
/// the input. Three header bytes give the starting width, height and history limit.
pub fn pane(data: &[u8]) {
    let mut input = Input(data);
    let (Some(c), Some(r), Some(l)) = (input.byte(), input.byte(), input.byte()) else {
        return;
    };
    let (mut cols, mut rows) = (u16::from(c % 160), u16::from(r % 64));
    let limit = usize::from(l % 64);
    let mut p = PaneState::new(cols, rows, limit);
    // A known key, so that keyed tags in the input run through the scanner's whole path.
    p.set_sideband(64 * 1024, fuzz_key());
    let mut widest = usize::from(cols.max(1));
    let mut tag_max = 64 * 1024;
    let mut scan = false;
    let mut fed = 0usize;
    let mut replied = 0usize;
    while let Some(op) = input.byte() {
        match op {
            OP_RESIZE => {
                cols = u16::from(input.byte().unwrap_or(0) % 200);
                rows = u16::from(input.byte().unwrap_or(0) % 80);
                p.resize(cols, rows);
                widest = widest.max(usize::from(cols.max(1)));
                assert_eq!(
                    p.size(),
                    (cols.max(1), rows.max(1)),
                    "resize was not applied"
                );
            }
            OP_SCAN_ON => scan = true,
            OP_SCAN_OFF => scan = false,
            OP_RELEASE => {
                let held = p.holds_tag();
                assert_eq!(p.release_held(), held);
                assert!(!p.holds_tag());
            }
            OP_READ => read_pane(&mut p, input.byte().unwrap_or(0), limit),
            OP_TAG_LIMIT => {
                tag_max = usize::from(input.byte().unwrap_or(0)) * 64;
                p.set_sideband(tag_max, fuzz_key());
            }
            n if n < OP_BASE => {
                let chunk = input.take(usize::from(n));
                fed += chunk.len();
                let seq = p.seq();
                let out = p.process_scanning(chunk, scan);
                assert!(p.seq() > seq, "output did not move the sequence number");
                // Every answer is owed to a query of at least 3 bytes and is at most 25
                // (a query split across reads is answered after its last byte, so the
                // bound holds over the whole stream, not per read).
                replied += out.replies.len();
                assert!(
                    replied <= 16 * fed,
                    "{replied} reply bytes for {fed} output bytes"
                );
                let tags = &out.sideband.tags;
                let tag_bytes: usize = tags.iter().map(|t| t.text.len()).sum();
                assert!(tags.is_empty() || scan, "tags found while not scanning");
                assert!(tag_bytes <= 8 * fed + 64, "tags larger than the output");
            }
            // Reserved operations do nothing, so the fuzzer's mutations stay meaningful.
            _ => {}
        }
        check_pane(&p, limit, widest, tag_max);
    }
    read_pane(&mut p, 0, limit);
}

/// The sideband key the pane harness's panes have (corpora may carry tags keyed with it).
pub const FUZZ_KEY: &str = "fuzzkey0123456789abcdef0123456789";

fn fuzz_key() -> Option<crate::pane::tags::SidebandKey> {
    crate::pane::tags::SidebandKey::new(FUZZ_KEY)
}

/// Everything clients and agents read from a pane, checked against its size.
fn read_pane(p: &mut PaneState, arg: u8, limit: usize) {
    let (cols, rows) = p.size();
    let full = p.update_since(PaneId(1), 0);
    assert!(full.full);
    assert_eq!((full.cols, full.rows), (cols, rows));
    assert_eq!(
        full.changed.len(),
        usize::from(rows),
        "a full update lacks rows"
    );
    let delta = p.update_since(PaneId(1), u64::from(arg));
    assert!(delta.changed.len() <= usize::from(rows));
    let hist = p.history().len();
    let all = p.capture(Some(LineBound::Edge), None, arg & 1 == 1, arg & 2 == 2);
    assert!(all.matches('\n').count() <= hist + usize::from(rows));
    let lines = i64::from(arg) - 128;
    let some = p.capture(
        Some(LineBound::Line(lines)),
        Some(LineBound::Line(-lines)),
        false,
        false,
    );
    assert!(some.matches('\n').count() <= limit + usize::from(rows));
    let reply = p.read_rows(lines, u32::from(arg), false);
    assert!(reply.rows.len() <= usize::from(arg));
    assert_eq!(reply.history, hist as u64);
    // Where a reflow moved lines, for any line a wait may hold.
    let moved = p.moved();
    let total = p.history().total();
    let _ = moved.map(total.saturating_add(u64::from(arg)), u16::from(arg));
}

/// The configuration file: whatever parses is usable (key table, presets, default
/// program); whatever does not is refused naming the file.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.toml");
    match Config::parse(text, path) {
        Ok(config) => {
            let _ = config.keys.table();
            for name in config.agents.names() {
                assert!(
                    config.agents.get(name).is_some(),
                    "preset {name} is listed but missing"
                );
            }
            assert!(!config.default_argv().is_empty());
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains("fuzz.toml"),
                "an error that does not name the file: {msg}"
            );
        }
    }
}

/// MCP tool arguments: the first byte picks the tool, the rest is the JSON of its
/// arguments. A call either builds a command of the tier its tool is listed by, which
/// survives the wire, or is refused with an error that names what was wrong.
pub fn mcp_args(data: &[u8]) {
    let Some((&pick, json)) = data.split_first() else {
        return;
    };
    let tools: Vec<_> = mcp::tools::all().collect();
    let tool = tools[usize::from(pick) % tools.len()];
    let Ok(serde_json::Value::Object(args)) = serde_json::from_slice(json) else {
        return;
    };
    match mcp::build_command(tool, &args) {
        Ok(command) => {
            // A tool may build a sibling of the command it names (`rename` renames a
            // session, a window or a pane), but never one of another tier: the tool's
            // visibility follows the tier of the command it names.
            let named = fugue_protocol::COMMANDS
                .iter()
                .find(|c| c.name == tool.command)
                .expect("every tool names a command of the table");
            assert_eq!(
                command.tier(),
                named.tier,
                "{} built {}, of another tier than {}",
                tool.name,
                command.name(),
                named.name
            );
            let bytes = codec::encode(&command).expect("a built command encodes");
            let back: fugue_protocol::Command = codec::decode(&bytes).expect("and decodes");
            assert_eq!(back, command, "a built command changed on the wire");
        }
        Err(e) => assert!(
            e.message.contains('`'),
            "an error that names nothing: {}",
            e.message
        ),
    }
}
