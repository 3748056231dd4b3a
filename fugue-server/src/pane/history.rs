//! Compact scrollback.
//!
//! vt100 keeps scrollback as rows of 32-byte cells (about 62 MB for a 200x50 pane with
//! 10,000 lines). We run vt100 with no scrollback of its own and keep every row that
//! scrolls off the top here, as the "basic formatted" text vt100 hands its `on_scroll`
//! callback: the characters plus SGR sequences where the style changes, which for
//! ordinary output is little more than the text itself.

use fugue_protocol::Row;
use fugue_protocol::screen::{Color, RowBuilder, Style, attr};
use std::collections::VecDeque;
use unicode_width::UnicodeWidthChar;

/// One row of history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    /// Text with SGR sequences; starts from the default style.
    formatted: Box<str>,
    /// The line continues on the next row.
    pub wrapped: bool,
}

impl HistoryRow {
    pub fn new(formatted: &str, wrapped: bool) -> Self {
        HistoryRow {
            formatted: formatted.into(),
            wrapped,
        }
    }

    /// The row without escape sequences, trailing spaces removed.
    pub fn plain(&self) -> String {
        let mut s: String = vt100::capture::basic_formatted_to_plain(&self.formatted).collect();
        let keep = s.trim_end_matches(' ').len();
        s.truncate(keep);
        s
    }

    /// The row with SGR sequences, ending in the default style.
    pub fn ansi(&self) -> String {
        let mut s = String::from(&*self.formatted);
        if s.contains('\x1b') {
            s.push_str("\x1b[0m");
        }
        s
    }

    /// The row as cells, for clients that draw it.
    pub fn to_row(&self) -> Row {
        let mut b = RowBuilder::new();
        let mut style = Style::default();
        let mut rest = &*self.formatted;
        let mut pending: Option<(String, bool, Style)> = None;
        let flush = |b: &mut RowBuilder, p: Option<(String, bool, Style)>| {
            if let Some((text, wide, st)) = p {
                b.push(&text, wide, false, st);
                if wide {
                    b.push("", false, true, st);
                }
            }
        };
        while let Some(c) = rest.chars().next() {
            if c == '\x1b' {
                // Only SGR sequences appear in basic formatted text.
                let body_end = rest.find('m').unwrap_or(rest.len());
                let params = rest.get(2..body_end).unwrap_or("");
                apply_sgr(&mut style, params);
                rest = rest.get(body_end + 1..).unwrap_or("");
                continue;
            }
            rest = &rest[c.len_utf8()..];
            match c.width() {
                Some(0) | None => {
                    // A combining mark belongs to the cell before it.
                    if let Some((text, _, _)) = pending.as_mut() {
                        text.push(c);
                    }
                }
                Some(w) => {
                    flush(&mut b, pending.take());
                    let text = if c == ' ' {
                        String::new()
                    } else {
                        c.to_string()
                    };
                    pending = Some((text, w > 1, style));
                }
            }
        }
        flush(&mut b, pending.take());
        b.finish(self.wrapped)
    }

    pub fn heap_bytes(&self) -> usize {
        self.formatted.len()
    }
}

/// Applies one SGR parameter list (the part between `ESC [` and `m`) to a style.
pub fn apply_sgr(style: &mut Style, params: &str) {
    let nums: Vec<u16> = params
        .split([';', ':'])
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let nums = if nums.is_empty() { vec![0] } else { nums };
    let mut i = 0;
    let byte = |v: Option<&u16>| v.map(|v| (*v).min(255) as u8).unwrap_or(0);
    while i < nums.len() {
        match nums[i] {
            0 => *style = Style::default(),
            1 => style.attrs = (style.attrs & !attr::DIM) | attr::BOLD,
            2 => style.attrs = (style.attrs & !attr::BOLD) | attr::DIM,
            3 => style.attrs |= attr::ITALIC,
            4 => style.attrs |= attr::UNDERLINE,
            7 => style.attrs |= attr::INVERSE,
            22 => style.attrs &= !(attr::BOLD | attr::DIM),
            23 => style.attrs &= !attr::ITALIC,
            24 => style.attrs &= !attr::UNDERLINE,
            27 => style.attrs &= !attr::INVERSE,
            n @ 30..=37 => style.fg = Color::indexed((n - 30) as u8),
            n @ 40..=47 => style.bg = Color::indexed((n - 40) as u8),
            n @ 90..=97 => style.fg = Color::indexed((n - 90 + 8) as u8),
            n @ 100..=107 => style.bg = Color::indexed((n - 100 + 8) as u8),
            39 => style.fg = Color::DEFAULT,
            49 => style.bg = Color::DEFAULT,
            n @ (38 | 48) => {
                let color = match nums.get(i + 1) {
                    Some(5) => {
                        let c = Color::indexed(byte(nums.get(i + 2)));
                        i += 2;
                        c
                    }
                    Some(2) => {
                        let c = Color::rgb(
                            byte(nums.get(i + 2)),
                            byte(nums.get(i + 3)),
                            byte(nums.get(i + 4)),
                        );
                        i += 4;
                        c
                    }
                    _ => Color::DEFAULT,
                };
                if n == 38 {
                    style.fg = color;
                } else {
                    style.bg = color;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Rows that scrolled off the top of a pane, oldest first, bounded by a limit.
#[derive(Debug, Default)]
pub struct History {
    rows: VecDeque<HistoryRow>,
    limit: usize,
    /// Rows ever pushed, so readers can tell how many were dropped.
    total: u64,
    bytes: usize,
}

impl History {
    pub fn new(limit: usize) -> Self {
        History {
            rows: VecDeque::new(),
            limit,
            total: 0,
            bytes: 0,
        }
    }

    pub fn push(&mut self, row: HistoryRow) {
        self.total += 1;
        if self.limit == 0 {
            return;
        }
        if self.rows.len() >= self.limit
            && let Some(old) = self.rows.pop_front()
        {
            self.bytes -= old.heap_bytes();
        }
        self.bytes += row.heap_bytes();
        self.rows.push_back(row);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows ever pushed (retained or dropped).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// `i` counts from the oldest retained row.
    pub fn get(&self, i: usize) -> Option<&HistoryRow> {
        self.rows.get(i)
    }

    pub fn clear(&mut self) {
        self.rows.clear();
        self.bytes = 0;
    }

    pub fn heap_bytes(&self) -> usize {
        self.bytes + self.rows.capacity() * std::mem::size_of::<HistoryRow>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_counts_drops() {
        let mut h = History::new(2);
        for i in 0..5 {
            h.push(HistoryRow::new(&format!("line {i}"), false));
        }
        assert_eq!(h.len(), 2);
        assert_eq!(h.total(), 5);
        assert_eq!(h.get(0).map(|r| r.plain()), Some("line 3".into()));
    }

    #[test]
    fn formatted_rows_become_cells() {
        let r = HistoryRow::new("a\x1b[31mb\x1b[m 日e\u{301}", true);
        assert_eq!(r.plain(), "ab 日e\u{301}");
        let row = r.to_row();
        let cells: Vec<_> = row.cells().map(|c| (c.col, c.text.to_string())).collect();
        assert_eq!(
            cells,
            vec![
                (0, "a".into()),
                (1, "b".into()),
                (2, "".into()),
                (3, "日".into()),
                (5, "e\u{301}".into())
            ]
        );
        assert_eq!(
            row.cells().nth(1).map(|c| c.style.fg),
            Some(Color::indexed(1))
        );
        assert!(row.wrapped);
    }

    #[test]
    fn sgr_parsing_handles_extended_colors_and_garbage() {
        let mut s = Style::default();
        apply_sgr(&mut s, "1;38;2;10;20;30;48;5;200");
        assert_eq!(s.fg, Color::rgb(10, 20, 30));
        assert_eq!(s.bg, Color::indexed(200));
        assert_eq!(s.attrs, attr::BOLD);
        apply_sgr(&mut s, "38;5");
        apply_sgr(&mut s, "x;;999999");
        apply_sgr(&mut s, "");
        assert_eq!(s, Style::default());
    }
}
