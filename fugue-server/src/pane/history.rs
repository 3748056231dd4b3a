//! Compact scrollback.
//!
//! vt100 keeps scrollback as rows of 32-byte cells (about 62 MB for a 200x50 pane with
//! 10,000 lines). We run vt100 with no scrollback of its own and keep every row that
//! scrolls off the top here, as a compact [`Row`]: its text, one layout byte per cell
//! only when some cell is not a single narrow character, and style runs only where the
//! style changes. A plain 100-character line costs about 100 bytes plus a fixed header.

use fugue_protocol::Row;
use std::collections::VecDeque;

/// One row of history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow(Row);

impl HistoryRow {
    pub fn new(row: Row) -> Self {
        HistoryRow(row)
    }

    pub fn row_mut(&mut self) -> &mut Row {
        &mut self.0
    }

    /// The line continues on the next row.
    pub fn wrapped(&self) -> bool {
        self.0.wrapped
    }

    /// The row without escape sequences, trailing spaces removed.
    pub fn plain(&self) -> String {
        self.0.to_plain()
    }

    /// The row with SGR sequences and hyperlinks, ending in the default style.
    pub fn ansi(&self, screen: &vt100::Screen) -> String {
        super::rows::ansi(&self.0, screen)
    }

    /// The row as cells, for clients that draw it.
    pub fn to_row(&self) -> Row {
        self.0.clone()
    }

    pub fn heap_bytes(&self) -> usize {
        self.0.heap_size()
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

    /// Bytes the kept rows take.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The most rows kept.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether pushed rows are kept at all.
    pub fn keeps_rows(&self) -> bool {
        self.limit > 0
    }

    /// Counts a row that is not kept (history off).
    pub fn skip(&mut self) {
        self.total += 1;
    }

    /// A row to fill and push: the one about to be dropped when history is full, so
    /// that a full history reuses its buffers instead of allocating.
    pub fn recycle(&mut self) -> HistoryRow {
        if self.limit > 0
            && self.rows.len() >= self.limit
            && let Some(old) = self.rows.pop_front()
        {
            self.bytes -= old.heap_bytes();
            return old;
        }
        HistoryRow(Row::default())
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

    /// The newest row.
    pub fn last(&self) -> Option<&HistoryRow> {
        self.rows.back()
    }

    /// Takes the newest row back out, as if it had never scrolled off (a reflow prints
    /// it again, and it comes back here if it still does not fit).
    pub fn pop_back(&mut self) -> Option<HistoryRow> {
        let row = self.rows.pop_back()?;
        self.bytes -= row.heap_bytes();
        self.total -= 1;
        Some(row)
    }

    pub fn clear(&mut self) {
        self.rows.clear();
        self.bytes = 0;
    }

    /// Heap bytes held by the rows and the ring itself.
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
            h.push(HistoryRow::new(Row::plain(&format!("line {i}"))));
        }
        assert_eq!(h.len(), 2);
        assert_eq!(h.total(), 5);
        assert_eq!(h.get(0).map(|r| r.plain()), Some("line 3".into()));
    }
}
