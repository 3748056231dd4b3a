//! Rewrapping the main screen when a pane changes size, as tmux does.
//!
//! vt100 resizes by cutting rows at the new width and, when growing, inserts blank rows
//! at the top (it keeps no scrollback of its own here: rows go to [`History`]). So a
//! pane narrowed and widened again lost the ends of its lines, and a pane made taller
//! showed blank rows above lines that sat in history. Instead, the logical lines of the
//! screen (rows joined where they wrap), with as many lines from the end of history as
//! the new height can show, are printed again at the new size: the terminal wraps them
//! at the new width and rows that do not fit scroll into history as usual.
//!
//! The alternate screen is left to vt100: full-screen programs redraw on SIGWINCH.
//! Older history keeps the width it was written at (`capture-pane -J` still joins it).

use super::history::{History, HistoryRow};
use super::terminal::Terminal;
use fugue_protocol::Row;
use std::num::NonZeroU16;

/// Where lines moved to in the last reflow, so a wait that was scanning them carries on
/// from the same text.
#[derive(Debug, Default, Clone)]
pub struct Moved {
    /// Bumped by every reflow.
    pub epoch: u64,
    /// Absolute line numbers before this one did not move.
    start: u64,
    old_cols: u16,
    new_cols: u16,
    /// Per logical line: first absolute row before, rows before, first absolute row
    /// after.
    lines: Vec<(u64, u64, u64)>,
}

impl Moved {
    /// Where position (`line`, `col`) of the layout before the reflow is now.
    pub fn map(&self, line: u64, col: u16) -> (u64, u16) {
        if line < self.start || self.lines.is_empty() {
            return (line, col);
        }
        let old_cols = u64::from(self.old_cols.max(1));
        let new_cols = u64::from(self.new_cols.max(1));
        for &(old_start, old_rows, new_start) in &self.lines {
            if line < old_start + old_rows {
                let offset = line.saturating_sub(old_start) * old_cols + u64::from(col);
                return (new_start + offset / new_cols, (offset % new_cols) as u16);
            }
        }
        // Past the last line that was moved: the row after it.
        let &(old_start, old_rows, new_start) = self.lines.last().unwrap_or(&(0, 0, 0));
        let new_rows = (old_rows * old_cols).div_ceil(new_cols).max(1);
        (
            new_start + new_rows + line.saturating_sub(old_start + old_rows),
            col,
        )
    }
}

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN)
}

/// One logical line: its rows as they were, in order.
struct Line {
    rows: Vec<Row>,
}

impl Line {
    /// Cells it covers at the old width (every row but the last is full).
    fn cells(&self, old_cols: u16) -> usize {
        let full = self.rows.len().saturating_sub(1) * usize::from(old_cols);
        full + self.rows.last().map_or(0, Row::len)
    }

    /// Rows it takes at width `cols`.
    fn rows_at(&self, old_cols: u16, cols: u16) -> usize {
        self.cells(old_cols)
            .div_ceil(usize::from(cols.max(1)))
            .max(1)
    }

    /// The line as the program would print it again: every row but the last padded to
    /// the old width (trailing blanks are not stored), no newline. Hyperlinks are
    /// looked up in `screen`, where printing them again finds the same numbers.
    fn bytes(&self, old_cols: u16, screen: &vt100::Screen) -> String {
        let mut out = String::new();
        let last = self.rows.len().saturating_sub(1);
        for (i, row) in self.rows.iter().enumerate() {
            out.push_str(&super::rows::ansi(row, screen));
            if i < last {
                let mut pad = usize::from(old_cols).saturating_sub(row.len());
                // One empty column before a wide character that did not fit there: not
                // a space the program printed.
                let wide_next = self.rows[i + 1].cells().next().is_some_and(|c| c.wide);
                if pad == 1 && wide_next {
                    pad = 0;
                }
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out
    }
}

/// Groups rows into logical lines.
fn lines_of(rows: Vec<Row>) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut open = false;
    for row in rows {
        let wraps = row.wrapped;
        match out.last_mut() {
            Some(line) if open => line.rows.push(row),
            _ => out.push(Line { rows: vec![row] }),
        }
        open = wraps;
    }
    out
}

/// Takes whole logical lines off the end of history: the one the screen's first row
/// continues (always), then more while the new height has `room` for them. Returns
/// their rows oldest first.
fn pull_from_history(
    history: &mut History,
    pullable: usize,
    mut room: usize,
    old_cols: u16,
    cols: u16,
) -> Vec<Row> {
    let mut pulled: Vec<Row> = Vec::new();
    let mut continued = history.last().is_some_and(HistoryRow::wrapped);
    while continued || (room > 0 && pulled.len() < pullable) {
        let Some(end) = history.pop_back() else { break };
        let mut rows = vec![end.to_row()];
        // Rows that wrap belong to the line after them: this one.
        while history.last().is_some_and(HistoryRow::wrapped) {
            match history.pop_back() {
                Some(r) => rows.push(r.to_row()),
                None => break,
            }
        }
        rows.reverse();
        if !continued {
            room = room.saturating_sub(Line { rows: rows.clone() }.rows_at(old_cols, cols));
        }
        continued = false;
        pulled.splice(0..0, rows);
    }
    pulled
}

/// The main screen's lines as they were, to print again at another size.
#[derive(Debug, Clone)]
pub struct MainScreen {
    rows: Vec<Row>,
    cursor: (u16, u16),
    cols: u16,
}

impl MainScreen {
    /// The main screen of `screen`, which may be behind the alternate screen (vt100
    /// cuts it at the new width on every resize, so it is kept from the first one).
    pub fn of(screen: &vt100::Screen) -> MainScreen {
        let (rows, cols) = {
            let (r, c) = screen.size();
            (r.get(), c.get())
        };
        let alt = screen.alternate_screen();
        let cells = |r: u16| {
            if alt {
                screen.main_row_cells(r)
            } else {
                screen.row_cells(r)
            }
        };
        let cursor = if alt {
            screen.main_cursor_position()
        } else {
            screen.cursor_position()
        };
        let last_used = (0..rows)
            .rev()
            .find(|r| cells(*r).is_some_and(|cells| cells.iter().any(|c| c.has_contents())))
            .unwrap_or(0)
            .max(cursor.0);
        let rows = (0..=last_used)
            .map(|r| match cells(r) {
                Some(c) => {
                    let wrapped = if alt {
                        screen.main_row_wrapped(r)
                    } else {
                        screen.row_wrapped(r)
                    };
                    super::rows::row_from_cells(screen, c, wrapped)
                }
                None => Row::default(),
            })
            .collect();
        MainScreen { rows, cursor, cols }
    }
}

/// Resizes the main screen of `parser` to `cols` x `rows`, rewrapping its lines.
/// Returns where lines moved, for waits in progress.
pub fn reflow(parser: &mut vt100::Parser<Terminal>, cols: u16, rows: u16, epoch: u64) -> Moved {
    let main = MainScreen::of(parser.screen());
    print_again(parser, main, cols, rows, epoch)
}

/// Prints `main` again on the (main) screen of `parser` at `cols` x `rows`, with as
/// many lines from the end of history as the height has room for.
pub fn print_again(
    parser: &mut vt100::Parser<Terminal>,
    main: MainScreen,
    cols: u16,
    rows: u16,
    epoch: u64,
) -> Moved {
    let attrs = parser.screen().attributes_formatted();
    // The program may have left line drawing in GL, insert mode on or autowrap off:
    // the screen's own text is printed again plain, and those put back after.
    let print_state = parser.screen_mut().take_print_state();
    let MainScreen {
        rows: screen_rows,
        cursor: (cur_row, cur_col),
        cols: old_cols,
    } = main;

    let terminal = parser.callbacks_mut();
    let pullable = terminal.pullable;
    let history = &mut terminal.history;
    let total_before = history.total();
    // Room the new height leaves above the screen's own lines.
    let screen_need: usize = lines_of(screen_rows.clone())
        .iter()
        .map(|l| l.rows_at(old_cols, cols))
        .sum();
    let room = usize::from(rows).saturating_sub(screen_need);
    let pulled = pull_from_history(history, pullable, room, old_cols, cols);
    let start = history.total();
    // Older rows that were pullable stay so; the clears below reset the count, and
    // what scrolls off while the lines are printed again is added back at the end.
    let still_pullable = pullable.saturating_sub(pulled.len());
    debug_assert_eq!(start, total_before - pulled.len() as u64);

    // The cursor's logical line and its offset in cells within it.
    let cursor_abs_row = pulled.len() + usize::from(cur_row);
    let all: Vec<Row> = pulled.into_iter().chain(screen_rows).collect();
    let lines = lines_of(all);
    let mut cursor_at = (0usize, usize::from(cur_col));
    let mut first_row = 0usize;
    for (i, line) in lines.iter().enumerate() {
        let n = line.rows.len();
        if cursor_abs_row < first_row + n {
            cursor_at = (
                i,
                (cursor_abs_row - first_row) * usize::from(old_cols) + usize::from(cur_col),
            );
            break;
        }
        first_row += n;
    }

    // Clear before resizing so that shrinking scrolls nothing into history, then print
    // the lines again from the top.
    // SGR 0 leaves a hyperlink open: OSC 8 closes it.
    // These clears are fugue's own: the lines are in hand, not to be scrolled into
    // history as a program's clear is (scroll-on-clear).
    parser.callbacks_mut().reflowing = true;
    parser.process(b"\x1b[m\x1b]8;;\x1b\\\x1b[H\x1b[2J");
    parser.set_size(nz(rows), nz(cols));
    parser.process(b"\x1b[H\x1b[2J");
    parser.callbacks_mut().reflowing = false;
    let mut moved = Moved {
        epoch,
        start,
        old_cols,
        new_cols: cols,
        lines: Vec::with_capacity(lines.len()),
    };
    let mut old_start = start;
    let mut cursor_line_start = start;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            parser.process(b"\r\n");
        }
        let here =
            parser.callbacks().history.total() + u64::from(parser.screen().cursor_position().0);
        moved.lines.push((old_start, line.rows.len() as u64, here));
        old_start += line.rows.len() as u64;
        if i == cursor_at.0 {
            cursor_line_start = here;
        }
        let bytes = line.bytes(old_cols, parser.screen());
        parser.process(bytes.as_bytes());
    }
    // Put the cursor where its text went.
    let c = usize::from(cols.max(1));
    let want = cursor_line_start + (cursor_at.1 / c) as u64;
    let top = parser.callbacks().history.total();
    let row = want
        .saturating_sub(top)
        .min(u64::from(rows.saturating_sub(1)));
    let col = (cursor_at.1 % c).min(c - 1);
    let mut restore = format!("\x1b[{};{}H", row + 1, col + 1);
    restore.push_str(&attrs);
    parser.process(restore.as_bytes());
    parser.screen_mut().restore_print_state(print_state);
    let terminal = parser.callbacks_mut();
    let reprinted = terminal.history.total().saturating_sub(start) as usize;
    terminal.pullable = (still_pullable + reprinted).min(terminal.history.len());
    moved
}

/// The sequences that leave the alternate screen.
const ALT_EXITS: [&[u8]; 3] = [b"\x1b[?1049l", b"\x1b[?1047l", b"\x1b[?47l"];

/// Feeds program output to `parser`. While `kept` holds the main screen as it was
/// before a resize behind the alternate screen, the program leaving the alternate
/// screen has the main screen printed again at the new size, before any output that
/// follows in the same chunk. Returns where lines moved, if they did.
pub fn feed(
    parser: &mut vt100::Parser<Terminal>,
    kept: &mut Option<MainScreen>,
    epoch: u64,
    bytes: &[u8],
) -> Option<Moved> {
    if kept.is_none() {
        parser.process(bytes);
        return None;
    }
    let exit = ALT_EXITS
        .iter()
        .filter_map(|seq| memchr::memmem::find(bytes, seq).map(|at| at + seq.len()))
        .min();
    let (now, later) = bytes.split_at(exit.unwrap_or(bytes.len()));
    parser.process(now);
    let moved = if parser.screen().alternate_screen() {
        None
    } else {
        kept.take().map(|main| {
            let (rows, cols) = parser.screen().size();
            print_again(parser, main, cols.get(), rows.get(), epoch)
        })
    };
    parser.process(later);
    moved
}

#[cfg(test)]
mod tests {
    use super::super::rows::screen_row;
    use super::*;

    fn parser(cols: u16, rows: u16) -> vt100::Parser<Terminal> {
        vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, Terminal::new(1000))
    }

    fn visible(p: &vt100::Parser<Terminal>) -> Vec<String> {
        let (rows, _) = p.screen().size();
        (0..rows.get())
            .map(|r| screen_row(p.screen(), r).to_plain())
            .collect()
    }

    fn history(p: &vt100::Parser<Terminal>) -> Vec<String> {
        let h = &p.callbacks().history;
        (0..h.len())
            .filter_map(|i| h.get(i).map(HistoryRow::plain))
            .collect()
    }

    #[test]
    fn narrowing_and_widening_again_gives_the_line_back() {
        let mut p = parser(80, 10);
        let line: String = (1..=29).map(|n| format!("{n},")).collect();
        p.process(format!("{line}\r\n$ ").as_bytes());
        reflow(&mut p, 40, 10, 1);
        assert_eq!(visible(&p)[0].len(), 40);
        reflow(&mut p, 80, 10, 2);
        assert_eq!(visible(&p)[0], line);
        assert_eq!(visible(&p)[1], "$");
        assert_eq!(p.screen().cursor_position(), (1, 2));
        assert!(history(&p).is_empty(), "{:?}", history(&p));
    }

    #[test]
    fn growing_taller_brings_lines_back_from_history() {
        let mut p = parser(100, 20);
        for n in 1..=30 {
            p.process(format!("{n}\r\n").as_bytes());
        }
        // 30 lines and the cursor's empty one: 11 went to history.
        assert_eq!(history(&p).len(), 11);
        reflow(&mut p, 100, 41, 1);
        let v = visible(&p);
        assert_eq!(v[0], "1");
        assert_eq!(v[29], "30");
        assert_eq!(p.screen().cursor_position(), (30, 0));
        assert!(history(&p).is_empty());
        // And shorter again: the top lines go back to history, the cursor stays.
        reflow(&mut p, 100, 10, 2);
        assert_eq!(visible(&p)[8], "30");
        assert_eq!(p.screen().cursor_position(), (9, 0));
        assert_eq!(history(&p).len(), 21);
    }

    #[test]
    fn a_line_split_between_history_and_screen_is_rewrapped_whole() {
        let mut p = parser(10, 3);
        p.process(b"0123456789abcdefghijABCDEFGHIJ\r\nend");
        // Rows: 0123456789 / abcdefghij (history) ABCDEFGHIJ / end (screen), wrapped.
        reflow(&mut p, 15, 3, 1);
        let mut all = history(&p);
        all.extend(visible(&p));
        let joined: String = all.iter().map(String::as_str).collect::<Vec<_>>().join("|");
        assert!(
            joined.starts_with("0123456789abcde|fghijABCDEFGHIJ|end"),
            "{joined}"
        );
    }

    #[test]
    fn colors_survive_and_the_drawing_style_is_restored() {
        let mut p = parser(20, 5);
        p.process(b"\x1b[31mred text that wraps around\x1b[0m\r\n\x1b[1m");
        reflow(&mut p, 10, 5, 1);
        let cell = p.screen().cell(0, 0).map(|c| c.fgcolor());
        assert_eq!(cell, Some(vt100::Color::Idx(1)));
        p.process(b"x");
        let (r, c) = p.screen().cursor_position();
        assert!(p.screen().cell(r, c - 1).is_some_and(|c| c.bold()));
    }

    #[test]
    fn moved_positions_follow_their_text() {
        let mut p = parser(20, 5);
        p.process(b"aaaaaaaaaabbbbbbbbbbcc\r\nnext");
        // 'c' at absolute row 1, col 0 (the line wraps once at width 20).
        let m = reflow(&mut p, 10, 5, 1);
        let (line, col) = m.map(1, 0);
        let top = p.callbacks().history.total();
        let row = (line - top) as u16;
        assert_eq!(p.screen().cell(row, col).map(|c| c.contents()), Some("c"));
        // "next" starts a new line: its first cell moves with it.
        let (line, col) = m.map(2, 0);
        let row = (line - top) as u16;
        assert_eq!(p.screen().cell(row, col).map(|c| c.contents()), Some("n"));
    }

    /// The logical lines of history and screen, rows joined where they wrap.
    fn logical(p: &vt100::Parser<Terminal>) -> Vec<String> {
        let h = &p.callbacks().history;
        let mut rows: Vec<Row> = (0..h.len())
            .filter_map(|i| h.get(i).map(HistoryRow::to_row))
            .collect();
        let (n, _) = p.screen().size();
        rows.extend((0..n.get()).map(|r| screen_row(p.screen(), r)));
        let mut out = Vec::new();
        let mut open = false;
        for row in rows {
            let text = row.to_plain();
            match out.last_mut() {
                Some(last) if open => {
                    let last: &mut String = last;
                    // A wrapped row is full: its trailing blanks were cells.
                    last.push_str(&text);
                }
                _ => out.push(text),
            }
            open = row.wrapped;
        }
        while out.last().is_some_and(String::is_empty) {
            out.pop();
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// However often a pane changes size, its lines come out as they went in. (Blanks
        /// are compared out: a wrapped row read back here does not say how wide it was,
        /// so its trailing blanks cannot be told from none; the unit tests above check
        /// the padding.)
        #[test]
        fn any_sequence_of_sizes_keeps_every_line(
            lines in proptest::collection::vec("[a-z漢字]{0,6}( [a-z漢字]{1,6}){0,12}", 1..40),
            sizes in proptest::collection::vec((2u16..90, 2u16..30), 1..6),
            cols in 2u16..90,
            rows in 2u16..30,
        ) {
            // History large enough that no row is dropped.
            let mut p = vt100::Parser::new_with_callbacks(nz(rows), nz(cols), 0, Terminal::new(1 << 20));
            p.process(lines.join("\r\n").as_bytes());
            for (i, (c, r)) in sizes.iter().enumerate() {
                reflow(&mut p, *c, *r, i as u64 + 1);
            }
            let squeeze = |v: Vec<String>| -> Vec<String> {
                let mut v: Vec<String> = v.iter().map(|l| l.replace(' ', "")).collect();
                while v.last().is_some_and(String::is_empty) {
                    v.pop();
                }
                v
            };
            proptest::prop_assert_eq!(squeeze(logical(&p)), squeeze(lines.clone()));
        }
    }

    #[test]
    fn a_cleared_screen_stays_clear_when_the_pane_grows() {
        let mut p = parser(80, 10);
        for n in 1..=30 {
            p.process(format!("{n}\r\n").as_bytes());
        }
        p.process(b"\x1b[H\x1b[2JAFTERCLEAR\r\n$ ");
        reflow(&mut p, 70, 20, 1);
        let v = visible(&p);
        assert_eq!(v[0], "AFTERCLEAR");
        assert_eq!(v[1], "$");
        assert_eq!(p.screen().cursor_position(), (1, 2));
        // The history before the clear is still there to scroll back to, and what
        // the clear erased from the screen went into it (tmux's scroll-on-clear).
        assert_eq!(history(&p).last().map(String::as_str), Some("30"));
        assert_eq!(history(&p).iter().filter(|l| *l == "30").count(), 1);
    }

    /// `clear -x` (CSI H CSI 2 J) scrolls the screen, down to its last written row,
    /// into history, as tmux's scroll-on-clear; the alternate screen's does not; a
    /// reflow's own clear adds nothing.
    #[test]
    fn clearing_the_screen_scrolls_it_into_history() {
        let mut p = parser(80, 10);
        p.process(b"$ printf x\r\nx\r\n$ clear -x\r\n");
        assert!(history(&p).is_empty());
        p.process(b"\x1b[H\x1b[2J$ ");
        assert_eq!(history(&p), ["$ printf x", "x", "$ clear -x"]);
        assert_eq!(visible(&p)[0], "$");
        // An empty screen adds nothing.
        p.process(b"\x1b[H\x1b[2J");
        p.process(b"\x1b[H\x1b[2J");
        assert_eq!(history(&p).len(), 4);
        reflow(&mut p, 70, 12, 1);
        assert_eq!(history(&p).len(), 4);
        p.process(b"\x1b[?1049hfull screen\x1b[H\x1b[2J\x1b[?1049l");
        assert_eq!(history(&p).len(), 4);
    }

    #[test]
    fn erasing_the_scrollback_empties_history() {
        let mut p = parser(80, 5);
        for n in 1..=30 {
            p.process(format!("{n}\r\n").as_bytes());
        }
        assert!(!history(&p).is_empty());
        p.process(b"\x1b[H\x1b[2J\x1b[3J");
        assert!(history(&p).is_empty());
    }

    #[test]
    fn a_wide_character_on_the_wrap_keeps_its_line_whole() {
        let mut p = parser(10, 5);
        p.process("xxxxxxxxx漢字 end".as_bytes());
        assert!(p.screen().row_wrapped(0));
        reflow(&mut p, 7, 5, 1);
        reflow(&mut p, 30, 5, 2);
        assert_eq!(visible(&p)[0], "xxxxxxxxx漢字 end");
    }

    #[test]
    fn the_main_screen_is_rewrapped_when_a_program_leaves_the_alternate_screen() {
        let mut p = parser(40, 5);
        let line = "0123456789".repeat(3) + "-END";
        p.process(format!("{line}\r\n$ ").as_bytes());
        p.process(b"\x1b[?1049h\x1b[Hfull screen program");
        // Resized twice behind the alternate screen: vt100 cuts the main screen.
        let mut kept = Some(MainScreen::of(p.screen()));
        p.set_size(nz(5), nz(12));
        p.set_size(nz(5), nz(40));
        let moved = feed(&mut p, &mut kept, 1, b"\x1b[?1049lafter");
        assert!(moved.is_some() && kept.is_none());
        let v = visible(&p);
        assert_eq!(v[0], line);
        assert_eq!(v[1], "$ after");
    }
}
