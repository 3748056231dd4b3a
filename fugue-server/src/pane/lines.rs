//! A pane's output as numbered lines, for agents.
//!
//! Every line a pane has ever shown gets an absolute number: history rows in the order
//! they scrolled off (including those the history limit has since dropped), then the
//! rows of the screen. A cursor is such a number, so "what arrived since my last read"
//! is a range of lines, and the number of dropped lines says what was missed.

use super::state::PaneState;
use fugue_protocol::observe::{PaneText, READ_BYTES_MAX, READ_LINES_DEFAULT, READ_LINES_MAX};
use fugue_protocol::{CommandError, PaneId};

/// Where a reader is: a pane of one server instance and an absolute line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCursor {
    pub pane: PaneId,
    pub line: u64,
    pub instance: u32,
    /// The pane's reflow epoch when the cursor was made: a resize since then rewrapped
    /// the lines, and `line` is mapped to where its text went (see [`PaneState::line_of`]).
    pub epoch: u64,
}

impl LineCursor {
    pub fn encode(&self) -> String {
        if self.epoch == 0 {
            format!("{}@{}.{:x}", self.pane, self.line, self.instance)
        } else {
            format!(
                "{}@{}.{:x}.{:x}",
                self.pane, self.line, self.instance, self.epoch
            )
        }
    }

    pub fn decode(s: &str) -> Result<LineCursor, CommandError> {
        let bad = || {
            CommandError::invalid_argument(
                "cursor",
                format!("`{s}` is not a cursor returned by read_pane or wait_for"),
            )
            .with_suggestion(
                "pass the `cursor` field of an earlier answer unchanged, or read without a cursor",
            )
        };
        let (pane, rest) = s.split_once('@').ok_or_else(bad)?;
        let (line, rest) = rest.split_once('.').ok_or_else(bad)?;
        let (instance, epoch) = match rest.split_once('.') {
            Some((i, e)) => (i, u64::from_str_radix(e, 16).map_err(|_| bad())?),
            None => (rest, 0),
        };
        Ok(LineCursor {
            pane: pane.parse().map_err(|_| bad())?,
            line: line.parse().map_err(|_| bad())?,
            instance: u32::from_str_radix(instance, 16).map_err(|_| bad())?,
            epoch,
        })
    }
}

/// A page of lines an answer left out: read forward from `start` (a cursor) up to,
/// not including, line `end`. Written `%1@START-END.instance[.epoch]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageCursor {
    pub start: LineCursor,
    pub end: u64,
}

impl PageCursor {
    pub fn encode(&self) -> String {
        let line = self.start.encode();
        // Insert "-END" after the start line: "%1@5.ab" -> "%1@5-9.ab".
        match line.split_once('.') {
            Some((head, tail)) => format!("{head}-{}.{tail}", self.end),
            None => line,
        }
    }

    /// A page cursor, or None for anything else (a plain cursor, garbage).
    pub fn decode(s: &str) -> Option<PageCursor> {
        let (pane, rest) = s.split_once('@')?;
        let (lines, tail) = rest.split_once('.')?;
        let (start, end) = lines.split_once('-')?;
        let start = LineCursor::decode(&format!("{pane}@{start}.{tail}")).ok()?;
        Some(PageCursor {
            start,
            end: end.parse().ok()?,
        })
    }
}

/// What [`PaneState::lines_between`] found.
pub struct LineSpan {
    pub lines: Vec<String>,
    /// Lines asked for that the history had already dropped.
    pub missed: u64,
    pub truncated: bool,
    /// The row the first returned line starts on (rows before it and after `from`
    /// were left out, still retained).
    pub first_row: u64,
}

impl PaneState {
    /// The line `c` points at now. A resize since it was made rewrapped the lines: one
    /// resize is followed exactly; after several, the top of the screen is the safe
    /// place (lines may be read twice, none is skipped).
    pub fn line_of(&self, c: &LineCursor) -> u64 {
        let moved = self.moved();
        if c.epoch == moved.epoch {
            c.line
        } else if c.epoch + 1 == moved.epoch {
            moved.map(c.line, 0).0
        } else {
            c.line.min(self.history_total())
        }
    }

    /// Rows that ever scrolled into history.
    pub fn history_total(&self) -> u64 {
        self.history().total()
    }

    /// History rows dropped by the limit.
    pub fn history_dropped(&self) -> u64 {
        self.history().total() - self.history().len() as u64
    }

    /// The absolute number of the screen row the cursor is on.
    pub fn cursor_line(&self) -> u64 {
        self.history_total() + u64::from(self.cursor().row)
    }

    /// The last screen row worth reading: the lowest non-blank row or the cursor's row.
    pub fn last_content_line(&self) -> u64 {
        let screen = self.screen();
        let last = (0..self.size().1)
            .rev()
            .find(|r| {
                screen
                    .row_cells(*r)
                    .is_some_and(|cells| cells.iter().any(|c| c.has_contents()))
            })
            .unwrap_or(0);
        self.history_total() + u64::from(last.max(self.cursor().row))
    }

    /// The text of absolute line `n` (None if it was dropped or does not exist).
    pub fn abs_line(&self, n: u64, ansi: bool) -> Option<String> {
        self.abs_row(n, ansi).map(|(text, _)| text)
    }

    /// The text of absolute row `n` and whether it wraps onto the next row.
    fn abs_row(&self, n: u64, ansi: bool) -> Option<(String, bool)> {
        let total = self.history_total();
        if n < self.history_dropped() {
            return None;
        }
        let rel = n as i64 - total as i64;
        if rel >= i64::from(self.size().1) {
            return None;
        }
        Some(self.line(rel, ansi))
    }

    /// Row `n` from column `col` on, ready to have the next row appended when it
    /// wraps: a wrapped row fills the width, so blanks at its end are text.
    fn joinable_row(&self, n: u64, col: u16, ansi: bool) -> Option<(String, bool)> {
        let (mut text, wrapped) = if col == 0 || n < self.history_total() {
            self.abs_row(n, ansi)?
        } else {
            let row = (n - self.history_total()) as u16;
            let r = super::rows::screen_row(self.screen(), row);
            let text: String = r
                .cells()
                .filter(|c| c.col >= col)
                .map(|c| if c.text.is_empty() { " " } else { c.text })
                .collect();
            (text.trim_end().to_string(), r.wrapped)
        };
        if wrapped && !ansi {
            let width = usize::from(self.size().0.saturating_sub(col));
            let have = unicode_width::UnicodeWidthStr::width(text.as_str());
            text.extend(std::iter::repeat_n(' ', width.saturating_sub(have)));
        }
        Some((text, wrapped))
    }

    /// The line that starts at row `n`, from column `col` on, with the rows it wraps
    /// onto joined (up to row `end`), and the last row it covers. A program's long line
    /// is one line for a reader, whatever the pane's width.
    pub fn logical_line(&self, n: u64, end: u64, col: u16) -> Option<(String, u64)> {
        let (mut text, mut wrapped) = self.joinable_row(n, col, false)?;
        let mut last = n;
        while wrapped && last < end {
            let Some((more, w)) = self.joinable_row(last + 1, 0, false) else {
                break;
            };
            text.push_str(&more);
            wrapped = w;
            last += 1;
        }
        let keep = text.trim_end_matches(' ').len();
        text.truncate(keep);
        Some((text, last))
    }

    /// Lines `from..=to`, keeping at most `max` (the last ones) and `READ_BYTES_MAX`.
    /// Rows that wrap are joined with the next, so each returned line is a line the
    /// program wrote.
    pub fn lines_between(&self, from: u64, to: u64, max: u32, ansi: bool) -> LineSpan {
        let dropped = self.history_dropped();
        let missed = dropped
            .saturating_sub(from)
            .min(to.saturating_add(1).saturating_sub(from));
        let start = from.max(dropped);
        let mut truncated = false;
        let first = if to >= start && to - start + 1 > u64::from(max) {
            truncated = true;
            to + 1 - u64::from(max)
        } else {
            start
        };
        let mut lines: Vec<String> = Vec::new();
        // The row each line starts on.
        let mut starts: Vec<u64> = Vec::new();
        let mut current: Option<String> = None;
        for n in first..=to {
            let Some((text, wrapped)) = self.joinable_row(n, 0, ansi) else {
                continue;
            };
            if current.is_none() {
                starts.push(n);
            }
            let line = current.get_or_insert_with(String::new);
            line.push_str(&text);
            if !wrapped || n == to {
                let mut line = current.take().unwrap_or_default();
                if wrapped && !ansi {
                    let keep = line.trim_end_matches(' ').len();
                    line.truncate(keep);
                }
                lines.push(line);
            }
        }
        let mut bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
        let mut cut = 0;
        while bytes > READ_BYTES_MAX && lines.len() - cut > 1 {
            bytes -= lines[cut].len() + 1;
            cut += 1;
            truncated = true;
        }
        lines.drain(..cut);
        LineSpan {
            lines,
            missed,
            truncated,
            first_row: starts.get(cut).copied().unwrap_or(first),
        }
    }

    /// Lines forward from row `from` up to (not including) row `end`: at most `max`
    /// lines and [`READ_BYTES_MAX`] bytes, the oldest first. Returns them with the
    /// row after the last one returned.
    fn lines_forward(&self, from: u64, end: u64, max: u32, ansi: bool) -> (Vec<String>, u64) {
        let mut lines: Vec<String> = Vec::new();
        let mut bytes = 0usize;
        let mut n = from;
        while n < end && lines.len() < max as usize {
            let mut line = String::new();
            let mut row = n;
            // A line is its row and the rows it wraps onto (within the page).
            while let Some((text, wrapped)) = self.joinable_row(row, 0, ansi) {
                line.push_str(&text);
                row += 1;
                if !wrapped || row >= end {
                    break;
                }
            }
            let row = row.max(n + 1);
            if !lines.is_empty() && bytes + line.len() + 1 > READ_BYTES_MAX {
                break;
            }
            bytes += line.len() + 1;
            lines.push(line);
            n = row;
        }
        (lines, n)
    }

    /// A page of lines an earlier answer left out ([`PageCursor`]), oldest first. Its
    /// `next_cursor` is the rest of the page, if any; its `cursor` is the page's end,
    /// where the earlier answer's text began.
    pub fn read_page(
        &self,
        pane: PaneId,
        page: &PageCursor,
        lines: Option<u32>,
        ansi: bool,
        instance: u32,
    ) -> PaneText {
        let max = clamp_lines(lines);
        let start = self.line_of(&page.start);
        // A page cursor comes back from a caller: its end is bounded by what exists.
        let end = self
            .line_of(&LineCursor {
                line: page.end,
                ..page.start
            })
            .min(self.last_content_line().saturating_add(1));
        let dropped = self.history_dropped();
        let from = start.max(dropped);
        let (text, next) = self.lines_forward(from, end, max, ansi);
        let span = LineSpan {
            lines: text,
            missed: dropped.saturating_sub(start).min(end.saturating_sub(start)),
            truncated: next < end,
            first_row: from,
        };
        let mut answer = self.text_answer(pane, span, end, instance);
        if next < end {
            answer.lines_skipped = end - next;
            answer.next_cursor = Some(self.page(pane, next, end, instance));
        }
        answer
    }

    fn page(&self, pane: PaneId, start: u64, end: u64, instance: u32) -> String {
        PageCursor {
            start: LineCursor {
                pane,
                line: start,
                instance,
                epoch: self.moved().epoch,
            },
            end,
        }
        .encode()
    }

    fn text_answer(&self, pane: PaneId, span: LineSpan, next: u64, instance: u32) -> PaneText {
        let (width, height) = self.size();
        let c = self.cursor();
        PaneText {
            pane,
            lines: span.lines.len() as u32,
            text: span.lines.join("\n"),
            cursor: LineCursor {
                pane,
                line: next,
                instance,
                epoch: self.moved().epoch,
            }
            .encode(),
            lines_missed: span.missed,
            lines_skipped: 0,
            next_cursor: None,
            truncated: span.truncated,
            cursor_row: c.row,
            cursor_col: c.col,
            alternate_screen: self.screen().alternate_screen(),
            width,
            height,
        }
    }

    /// The visible screen (trailing blank rows left out).
    pub fn read_screen(
        &self,
        pane: PaneId,
        lines: Option<u32>,
        ansi: bool,
        instance: u32,
    ) -> PaneText {
        let max = clamp_lines(lines);
        let top = self.history_total();
        let end = self.last_content_line();
        let span = self.lines_between(top, end, max, ansi);
        self.text_answer(pane, span, self.cursor_line(), instance)
    }

    /// The last lines of history and screen.
    pub fn read_scrollback(
        &self,
        pane: PaneId,
        lines: Option<u32>,
        ansi: bool,
        instance: u32,
    ) -> PaneText {
        let max = clamp_lines(lines);
        let end = self.last_content_line();
        let from = (end + 1).saturating_sub(u64::from(max));
        let mut span = self.lines_between(from, end, max, ansi);
        span.missed = 0;
        span.truncated = from > self.history_dropped();
        self.text_answer(pane, span, self.cursor_line(), instance)
    }

    /// Lines from `cursor` to the cursor's row. The cursor's row is returned again by
    /// the next read (a line still being written, such as a prompt, is never lost).
    pub fn read_since(
        &self,
        pane: PaneId,
        cursor: u64,
        lines: Option<u32>,
        ansi: bool,
        instance: u32,
    ) -> PaneText {
        let max = clamp_lines(lines);
        let end = self.last_content_line();
        // A cursor past the end means the screen was cleared or redrawn above it: the
        // rows from the top of the screen are new.
        let from = if cursor > end {
            self.history_total().min(end)
        } else {
            cursor
        };
        let span = self.lines_between(from, end, max, ansi);
        // What the answer left out between the cursor and its text (it keeps the
        // newest lines) is still retained: a page cursor reads it forward.
        let kept_from = from.max(self.history_dropped());
        let skipped = (kept_from < span.first_row).then_some((kept_from, span.first_row));
        let mut answer = self.text_answer(pane, span, self.cursor_line(), instance);
        if let Some((start, end)) = skipped {
            answer.lines_skipped = end - start;
            answer.next_cursor = Some(self.page(pane, start, end, instance));
        }
        answer
    }
}

fn clamp_lines(lines: Option<u32>) -> u32 {
    lines.unwrap_or(READ_LINES_DEFAULT).clamp(1, READ_LINES_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: PaneId = PaneId(1);

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = LineCursor {
            pane: P,
            line: 42,
            instance: 0xabc,
            epoch: 0,
        };
        assert_eq!(LineCursor::decode(&c.encode()).unwrap(), c);
        assert_eq!(c.encode(), "%1@42.abc", "unchanged before any reflow");
        let c = LineCursor { epoch: 3, ..c };
        assert_eq!(LineCursor::decode(&c.encode()).unwrap(), c);
        for bad in ["", "%1", "%1@x.1", "x@1.1", "%1@1.zz"] {
            assert!(LineCursor::decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn page_cursors_round_trip_and_a_bogus_end_reads_only_what_exists() {
        let page = PageCursor {
            start: LineCursor {
                pane: P,
                line: 5,
                instance: 0xab,
                epoch: 2,
            },
            end: 9,
        };
        assert_eq!(page.encode(), "%1@5-9.ab.2");
        assert_eq!(PageCursor::decode(&page.encode()), Some(page));
        assert_eq!(PageCursor::decode("%1@5.ab"), None, "a plain cursor");
        let mut p = PaneState::new(20, 4, 100);
        p.process(b"a\r\nb\r\nc\r\nd\r\ne\r\nf");
        let bogus = PageCursor {
            start: LineCursor {
                pane: P,
                line: 0,
                instance: 1,
                epoch: 0,
            },
            end: u64::MAX,
        };
        let read = p.read_page(P, &bogus, Some(2000), false, 1);
        assert_eq!(read.text, "a\nb\nc\nd\ne\nf");
        assert_eq!(read.next_cursor, None);
        // Two lines a page: the rest comes with next_cursor, then nothing more.
        let first = p.read_page(P, &PageCursor { end: 5, ..bogus }, Some(2), false, 1);
        assert_eq!((first.text.as_str(), first.lines_skipped), ("a\nb", 3));
        let rest = PageCursor::decode(first.next_cursor.as_deref().unwrap()).unwrap();
        let second = p.read_page(P, &rest, Some(2), false, 1);
        assert_eq!(second.text, "c\nd");
        let rest = PageCursor::decode(second.next_cursor.as_deref().unwrap()).unwrap();
        let third = p.read_page(P, &rest, Some(2), false, 1);
        assert_eq!((third.text.as_str(), third.next_cursor), ("e", None));
    }

    #[test]
    fn a_cursor_follows_its_text_through_a_resize() {
        let mut p = PaneState::new(40, 6, 100);
        p.process(b"a long line of thirty-five letters.\r\nshort\r\n$ ");
        let cur = LineCursor::decode(&p.read_screen(P, None, false, 1).cursor).unwrap();
        // Narrower: the long line now takes three rows, so the prompt moved down.
        p.resize(15, 6);
        p.process(b"new\r\n$ ");
        let next = p.read_since(P, p.line_of(&cur), None, false, 1);
        assert_eq!(next.text, "$ new\n$");
        // A cursor made after the resize carries the new epoch and needs no mapping.
        let again = LineCursor::decode(&next.cursor).unwrap();
        assert_eq!(p.line_of(&again), again.line);
    }

    #[test]
    fn reads_since_a_cursor_return_only_new_lines() {
        let mut p = PaneState::new(20, 4, 100);
        p.process(b"one\r\ntwo\r\n$ ");
        let first = p.read_screen(P, None, false, 1);
        assert_eq!(first.text, "one\ntwo\n$");
        let cur = LineCursor::decode(&first.cursor).unwrap();
        p.process(b"cmd\r\nout1\r\nout2\r\nout3\r\n$ ");
        let next = p.read_since(P, cur.line, None, false, 1);
        assert_eq!(next.text, "$ cmd\nout1\nout2\nout3\n$");
        assert_eq!(next.lines_missed, 0);
    }

    #[test]
    fn reports_lines_the_history_dropped() {
        let mut p = PaneState::new(20, 2, 3);
        let start = p.read_screen(P, None, false, 1);
        let cur = LineCursor::decode(&start.cursor).unwrap();
        for i in 0..10 {
            p.process(format!("l{i}\r\n").as_bytes());
        }
        let r = p.read_since(P, cur.line, None, false, 1);
        // l0..l8 scrolled into a history of 3: l0..l5 are gone.
        assert_eq!(r.lines_missed, 6);
        assert_eq!(r.text, "l6\nl7\nl8\nl9\n");
    }

    #[test]
    fn long_reads_keep_the_tail() {
        let mut p = PaneState::new(20, 5, 1000);
        for i in 0..300 {
            p.process(format!("line{i}\r\n").as_bytes());
        }
        let r = p.read_scrollback(P, Some(10), false, 1);
        assert_eq!(r.lines, 10);
        assert!(r.truncated);
        assert!(r.text.starts_with("line291"), "{}", r.text);
    }

    /// Issue 3 check: run_command's output came back cut at the pane's width.
    #[test]
    fn wrapped_rows_read_as_one_line() {
        let mut p = PaneState::new(10, 6, 100);
        let long = "A".repeat(25);
        p.process(format!("{long}\r\nab  cd  ef  gh\r\n$ ").as_bytes());
        let r = p.read_screen(P, None, false, 1);
        assert_eq!(r.text, format!("{long}\nab  cd  ef  gh\n$"));
        assert_eq!(r.lines, 3);
        // Blanks at the wrap point are part of the line.
        assert_eq!(
            p.logical_line(p.history_total() + 3, 10, 0).map(|l| l.1),
            Some(4)
        );
        assert_eq!(
            p.logical_line(p.history_total() + 3, 10, 0).map(|l| l.0),
            Some("ab  cd  ef  gh".to_string())
        );
    }

    #[test]
    fn a_cleared_screen_is_read_from_the_top() {
        let mut p = PaneState::new(20, 10, 100);
        p.process(b"a\r\nb\r\nc\r\nd\r\ne\r\n");
        let cur = LineCursor::decode(&p.read_screen(P, None, false, 1).cursor).unwrap();
        p.process(b"\x1b[2J\x1b[Hfresh");
        assert_eq!(p.read_since(P, cur.line, None, false, 1).text, "fresh");
    }
}
