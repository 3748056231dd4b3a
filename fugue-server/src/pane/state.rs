//! A pane's terminal state, free of I/O.
//!
//! [`PaneState`] takes the bytes a program wrote and turns them into a screen, history
//! and answers owed to the program; it never touches a file descriptor, so it can be
//! driven the same way by the reader thread, by tests and by benchmarks.

mod capture;

use super::history::History;
use super::rows::{RowCache, screen_row};
use super::tags::{Scanned, Scanner, SidebandKey};
use super::terminal::Terminal;
use fugue_protocol::mouse::{MouseEncoding, MouseTracking};
use fugue_protocol::screen::{Cursor, PaneUpdate};
use fugue_protocol::{PaneId, RowsReply};
use std::num::NonZeroU16;
use std::sync::Arc;

/// What processing a chunk of output produced besides screen changes.
#[derive(Debug, Default)]
pub struct Processed {
    /// Bytes to write back to the program (terminal answers).
    pub replies: Vec<u8>,
    /// The program set its title.
    pub title_changed: bool,
    /// Sideband tags found (and removed from the screen), and what was shown as text
    /// instead: possible tags past the size bound, tags without the pane's key.
    pub sideband: Scanned,
    /// Bell and clipboard requests, for the person's terminal (`passthrough.rs`).
    pub signals: super::passthrough::Signals,
}

/// How input is encoded for a pane's program, as its modes say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputEncoding {
    pub keys: fugue_protocol::keys::KeyModes,
    /// Bracketed paste (2004).
    pub paste: bool,
    pub mouse: (MouseTracking, MouseEncoding),
}

/// A pane's history limit and the rows it holds.
#[derive(Clone, Copy, Debug)]
pub struct HistoryCounts {
    pub limit: u32,
    pub size: u32,
    pub bytes: u64,
}

pub struct PaneState {
    pub(super) parser: vt100::Parser<Terminal>,
    cache: RowCache,
    seq: u64,
    scanner: Scanner,
    /// Whether the last output was scanned.
    scanning: bool,
    /// Where the last reflow moved lines (for waits scanning them).
    moved: super::reflow::Moved,
    /// The main screen as it was at the first resize behind the alternate screen,
    /// printed again when the program leaves it.
    main_kept: Option<super::reflow::MainScreen>,
}

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN)
}

impl PaneState {
    /// A pane of `cols` x `rows` (clamped to the documented maxima: a screen is
    /// allocated in proportion to its size, so no caller's number reaches it unchecked).
    pub fn new(cols: u16, rows: u16, history_limit: usize) -> Self {
        let (cols, rows) = fugue_protocol::limits::clamp_size(cols, rows);
        let history_limit = history_limit.min(fugue_protocol::limits::MAX_HISTORY_LINES);
        let mut parser =
            vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, Terminal::new(history_limit));
        parser.set_osc_limit(fugue_protocol::limits::DEFAULT_OSC_BYTES);
        PaneState {
            // vt100 keeps no scrollback: rows scrolling off go to our compact history.
            parser,
            cache: RowCache::default(),
            seq: 1,
            scanner: Scanner::new(64 * 1024),
            scanning: false,
            moved: Default::default(),
            main_kept: None,
        }
    }

    /// Caps one OSC string a program prints (a title, a clipboard copy); a longer one
    /// is dropped whole. See `vendor/vte` and docs/reliability.md.
    pub fn set_osc_limit(&mut self, max: usize) {
        self.parser
            .set_osc_limit(max.min(fugue_protocol::limits::MAX_OSC_BYTES));
    }

    /// Answers the program's colour queries from the person's terminal's colours.
    pub fn set_outer_colors(&mut self, outer: std::sync::Arc<super::colors::OuterColors>) {
        self.parser.callbacks_mut().colors.set_outer(outer);
    }

    /// Whether the program may read its title and icon name back (`CSI 21 t`,
    /// `CSI 20 t`; `server.allow_title_reports`).
    pub fn set_title_reports(&mut self, allow: bool) {
        self.parser.callbacks_mut().title_reports = allow;
    }

    /// How many OSC strings were dropped for passing the cap.
    pub fn osc_dropped(&self) -> u64 {
        self.parser.osc_dropped()
    }

    /// Memory held for an OSC string being read.
    pub fn osc_buffer_bytes(&self) -> usize {
        self.parser.osc_capacity()
    }

    /// Sets the size bound of a possible sideband tag and the pane's key: only tags
    /// that carry it run (None: none run).
    pub fn set_sideband(&mut self, max: usize, key: Option<SidebandKey>) {
        self.scanner = Scanner::new(max);
        self.scanner.set_key(key);
    }

    /// Feeds program output.
    pub fn process(&mut self, bytes: &[u8]) -> Processed {
        self.process_scanning(bytes, false)
    }

    /// Feeds program output, first taking sideband tags out of it when `scan`.
    pub fn process_scanning(&mut self, bytes: &[u8], scan: bool) -> Processed {
        let title_before = self.parser.callbacks().title_changes;
        let mut found = Scanned::default();
        let parser = &mut self.parser;
        let (kept, moved) = (&mut self.main_kept, &mut self.moved);
        let mut feed = |bytes: &[u8]| {
            if let Some(m) = super::reflow::feed(parser, kept, moved.epoch + 1, bytes) {
                *moved = m;
            }
        };
        if scan {
            if !self.scanning {
                self.scanner.restart();
            }
            // What the scanner lets through goes straight to vt100, uncopied.
            found = self.scanner.feed(bytes, &mut feed);
        } else {
            // Scanning was switched off with a possible tag held: show it first.
            self.scanner.flush(&mut feed);
            feed(bytes);
        }
        self.scanning = scan;
        self.seq += 1;
        let cb = self.parser.callbacks_mut();
        Processed {
            replies: std::mem::take(&mut cb.replies),
            title_changed: cb.title_changes != title_before,
            sideband: found,
            signals: cb.passthrough.take_signals(),
        }
    }

    /// Whether a possible sideband tag is held back from the screen.
    pub fn holds_tag(&self) -> bool {
        self.scanner.has_pending()
    }

    /// Bytes of the possible sideband tag held back from the screen.
    pub fn held_tag_bytes(&self) -> usize {
        self.scanner.held_bytes()
    }

    /// Shows a held possible tag as it was printed (the program went quiet before it
    /// was complete). True if there was one.
    pub fn release_held(&mut self) -> bool {
        let parser = &mut self.parser;
        if !self.scanner.flush(|held| parser.process(held)) {
            return false;
        }
        self.seq += 1;
        true
    }

    pub fn resize(&mut self, cols: u16, rows: u16) {
        let (cols, rows) = fugue_protocol::limits::clamp_size(cols, rows);
        let (r, c) = self.parser.screen().size();
        if (r.get(), c.get()) == (rows, cols) {
            return;
        }
        if self.parser.screen().alternate_screen() {
            // vt100 cuts the main screen behind it at the new width: keep it whole.
            if self.main_kept.is_none() {
                self.main_kept = Some(super::reflow::MainScreen::of(self.parser.screen()));
            }
            self.parser.set_size(nz(rows), nz(cols));
        } else {
            let epoch = self.moved.epoch + 1;
            self.moved = super::reflow::reflow(&mut self.parser, cols, rows, epoch);
        }
        self.seq += 1;
        self.cache.invalidate(self.seq);
    }

    /// Where the last reflow moved lines; its `epoch` tells a wait whether one happened
    /// since it last looked.
    pub fn moved(&self) -> &super::reflow::Moved {
        &self.moved
    }

    /// Bumped by every change; clients and waiters compare it.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub fn size(&self) -> (u16, u16) {
        let (r, c) = self.parser.screen().size();
        (c.get(), r.get())
    }

    /// tmux's `history_limit` and `history_size`.
    pub fn history_counts(&self) -> HistoryCounts {
        let h = self.history();
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        HistoryCounts {
            limit: clamp(h.limit()),
            size: clamp(h.len()),
            bytes: h.bytes() as u64,
        }
    }

    /// tmux's `clear-history`: the history goes, the screen stays.
    pub fn clear_history(&mut self) {
        let t = self.parser.callbacks_mut();
        t.history.clear();
        t.pullable = 0;
        self.seq += 1;
    }

    pub fn history(&self) -> &History {
        &self.parser.callbacks().history
    }

    pub fn title(&self) -> Option<&str> {
        self.parser.callbacks().title.as_deref()
    }

    /// The cursor's style and colour as the program set them.
    pub fn cursor_look(&self) -> fugue_protocol::passthrough::CursorLook {
        let style = self.parser.screen().cursor_style();
        self.parser.callbacks().passthrough.cursor_look(style)
    }

    /// When the synchronized update in progress (mode 2026) began.
    pub fn sync_since(&self) -> Option<std::time::Instant> {
        self.parser.callbacks().passthrough.sync_since()
    }

    pub fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.parser.callbacks_mut().bell)
    }

    pub fn cursor(&self) -> Cursor {
        let s = self.parser.screen();
        let (row, col) = s.cursor_position();
        Cursor {
            row,
            col,
            visible: !s.hide_cursor(),
        }
    }

    /// What changed since `since` (0: everything).
    pub fn update_since(&mut self, pane: PaneId, since: u64) -> PaneUpdate {
        self.cache.sync(self.parser.screen(), self.seq);
        let (full, changed) = self.cache.changed_since(since);
        let (cols, rows) = self.size();
        let screen = self.parser.screen();
        let links = super::rows::links_of(changed.iter().map(|(_, r)| &**r), screen);
        PaneUpdate {
            pane,
            seq: self.seq,
            cols,
            rows,
            full,
            changed,
            cursor: self.cursor(),
            alternate_screen: screen.alternate_screen(),
            mouse: screen.mouse_protocol_mode() != vt100::MouseProtocolMode::None,
            input: self.pane_input(),
            cursor_look: self.cursor_look(),
            links,
        }
    }

    /// What the program asked of its terminal's input, for clients.
    pub fn pane_input(&self) -> fugue_protocol::screen::PaneInput {
        let modes = &self.parser.callbacks().input;
        fugue_protocol::screen::PaneInput {
            kitty: modes.kitty(self.parser.screen().alternate_screen()),
            focus: modes.focus,
            mouse: self.mouse_modes().0,
        }
    }

    /// Which mouse events the program asked for, and how they are to be written.
    pub fn mouse_modes(&self) -> (MouseTracking, MouseEncoding) {
        let s = self.parser.screen();
        let tracking = match s.mouse_protocol_mode() {
            vt100::MouseProtocolMode::None => MouseTracking::None,
            vt100::MouseProtocolMode::Press => MouseTracking::Press,
            vt100::MouseProtocolMode::PressRelease => MouseTracking::PressRelease,
            vt100::MouseProtocolMode::ButtonMotion => MouseTracking::ButtonMotion,
            vt100::MouseProtocolMode::AnyMotion => MouseTracking::AnyMotion,
        };
        // SGR first, as xterm prefers it; urxvt's (which vt100 does not track) next.
        let encoding = match s.mouse_protocol_encoding() {
            vt100::MouseProtocolEncoding::Sgr => MouseEncoding::Sgr,
            _ if self.parser.callbacks().input.urxvt_mouse => MouseEncoding::Urxvt,
            vt100::MouseProtocolEncoding::Utf8 => MouseEncoding::Utf8,
            vt100::MouseProtocolEncoding::Default => MouseEncoding::X10,
        };
        (tracking, encoding)
    }

    /// Everything input is encoded by, for the program now.
    pub fn input_encoding(&self) -> InputEncoding {
        InputEncoding {
            keys: self.key_modes(),
            paste: self.parser.screen().bracketed_paste(),
            mouse: self.mouse_modes(),
        }
    }

    /// How keys are to be encoded for the program now.
    pub fn key_modes(&self) -> fugue_protocol::keys::KeyModes {
        let s = self.parser.screen();
        fugue_protocol::keys::KeyModes {
            app_cursor: s.application_cursor(),
            app_keypad: s.application_keypad(),
            kitty: self.parser.callbacks().input.kitty(s.alternate_screen()),
        }
    }

    /// The pane gained or lost focus: returns the report its program asked for, if it
    /// did (and if focus did change).
    pub fn focus_changed(&mut self, focused: bool) -> Option<&'static [u8]> {
        let cb = self.parser.callbacks_mut();
        if cb.focused == focused {
            return None;
        }
        cb.focused = focused;
        cb.input
            .focus
            .then(|| super::terminal::focus_report(focused))
    }

    /// The input modes vt100 leaves to fugue.
    pub fn input_modes(&self) -> &super::input_modes::InputModes {
        &self.parser.callbacks().input
    }

    /// Rows for scroll mode: `count` rows starting at line `start` (relative to the
    /// screen's top, or with `absolute` an absolute line number).
    pub fn read_rows(&self, start: i64, count: u32, absolute: bool) -> RowsReply {
        let hist = self.history().len() as i64;
        let rows = i64::from(self.size().1);
        let total = self.history().total();
        let start = if absolute {
            // Absolute numbers past i64 cannot exist (a line a nanosecond for 292 years).
            start.saturating_sub(i64::try_from(total).unwrap_or(i64::MAX))
        } else {
            start
        };
        let start = start.clamp(-hist, rows);
        let end = (start + i64::from(count)).min(rows);
        let rows = (start..end)
            .map(|n| {
                Arc::new(if n < 0 {
                    self.history()
                        .get((hist + n) as usize)
                        .map(|r| r.to_row())
                        .unwrap_or_default()
                } else {
                    screen_row(self.parser.screen(), n as u16)
                })
            })
            .collect::<Vec<Arc<fugue_protocol::Row>>>();
        RowsReply {
            start,
            history: hist as u64,
            links: super::rows::links_of(rows.iter().map(|r| &**r), self.parser.screen()),
            rows,
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::LineBound;

    #[test]
    fn scrolled_rows_land_in_compact_history() {
        let mut p = PaneState::new(10, 3, 100);
        p.process(b"one\r\ntwo\r\nthree\r\nfour\r\nfive");
        assert_eq!(p.history().len(), 2);
        assert_eq!(
            p.capture(Some(LineBound::Edge), None, false, false),
            "one\ntwo\nthree\nfour\nfive\n"
        );
        assert_eq!(
            p.capture(
                Some(LineBound::Line(-1)),
                Some(LineBound::Line(0)),
                false,
                false
            ),
            "two\nthree\n"
        );
    }

    /// Copy mode's frozen view reads lines by absolute number: the same line while
    /// output moves on, wherever it now is relative to the screen.
    #[test]
    fn rows_by_absolute_number_stay_the_same_lines_as_output_moves_on() {
        let mut p = PaneState::new(10, 3, 2);
        p.process(b"one\r\ntwo\r\nthree\r\nfour");
        let r = p.read_rows(1, 1, true);
        assert_eq!((r.total, r.start, r.history), (1, 0, 1));
        assert_eq!(r.rows[0].to_plain(), "two");
        p.process(b"\r\nfive\r\nsix");
        let r = p.read_rows(1, 2, true);
        assert_eq!((r.total, r.start), (3, -2));
        let text: Vec<String> = r.rows.iter().map(|r| r.to_plain()).collect();
        assert_eq!(text, ["two", "three"]);
        // Line 0 was dropped by the history limit: the read starts at the oldest kept.
        let r = p.read_rows(0, 1, true);
        assert_eq!(
            (r.total as i64 + r.start, r.rows[0].to_plain().as_str()),
            (1, "two")
        );
        // Relative reads say the absolute number too.
        let r = p.read_rows(0, 1, false);
        assert_eq!((r.total, r.rows[0].to_plain().as_str()), (3, "four"));
    }

    #[test]
    fn answers_cursor_position_and_device_attributes() {
        let mut p = PaneState::new(20, 5, 0);
        let out = p.process(b"ab\x1b[6n\x1b[c\x1b[>c");
        assert_eq!(out.replies, b"\x1b[1;3R\x1b[?1;2c\x1b[>84;0;0c"); // DECID, the VT100's older request, as xterm answers it (issue 29, item 6).
        let out = p.process(b"\x1bZ");
        assert_eq!(out.replies, b"\x1b[?1;2c");
    }

    #[test]
    fn colors_survive_capture_with_escapes() {
        let mut p = PaneState::new(20, 2, 10);
        p.process(b"\x1b[31mred\x1b[0m\r\n");
        let cap = p.capture(None, None, true, false);
        // tmux's codes: no reset at the end of a line, the next look written from
        // the one before.
        assert!(cap.starts_with("\x1b[31mred\n"), "{cap:?}");
        // ...and after scrolling into history.
        p.process(b"x\r\ny\r\n");
        let cap = p.capture(Some(LineBound::Edge), None, true, false);
        assert!(cap.contains("\x1b[31mred\n\x1b[39mx\n"), "{cap:?}");
    }

    #[test]
    fn join_wrapped_lines() {
        let mut p = PaneState::new(4, 3, 10);
        p.process(b"abcdefg");
        assert_eq!(
            p.capture(
                Some(LineBound::Line(0)),
                Some(LineBound::Line(1)),
                false,
                true
            ),
            "abcdefg\n"
        );
        assert_eq!(
            p.capture(
                Some(LineBound::Line(0)),
                Some(LineBound::Line(1)),
                false,
                false
            ),
            "abcd\nefg\n"
        );
    }

    #[test]
    fn updates_carry_only_changed_rows() {
        let mut p = PaneState::new(10, 4, 10);
        let full = p.update_since(PaneId(1), 0);
        assert!(full.full);
        assert_eq!(full.changed.len(), 4);
        p.process(b"\x1b[3;1Hhi");
        let delta = p.update_since(PaneId(1), full.seq);
        assert!(!delta.full);
        assert_eq!(
            delta.changed.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![2]
        );
        assert_eq!(delta.cursor.row, 2);
        p.resize(12, 4);
        assert!(p.update_since(PaneId(1), delta.seq).full);
    }

    #[test]
    fn a_held_possible_tag_is_shown_when_released() {
        let mut p = PaneState::new(40, 3, 10);
        p.process_scanning(b"usage: <fugue:notify>message\r\nnext", true);
        assert!(p.holds_tag());
        assert_eq!(p.capture(None, None, false, false), "usage:\n\n\n");
        let seq = p.seq();
        assert!(p.release_held());
        assert!(p.seq() > seq);
        assert!(!p.holds_tag());
        assert_eq!(
            p.capture(None, None, false, false),
            "usage: <fugue:notify>message\nnext\n\n"
        );
        assert!(!p.release_held());
    }

    #[test]
    fn alternate_screen_does_not_feed_history() {
        let mut p = PaneState::new(10, 2, 10);
        p.process(b"\x1b[?1049h1\r\n2\r\n3\r\n4\x1b[?1049l");
        assert_eq!(p.history().len(), 0);
    }
}
