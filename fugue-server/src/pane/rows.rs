//! Reading vt100's screen into compact rows, and keeping track of which rows changed.
//!
//! Every attached client asks "what changed since sequence N". Rather than keep a copy
//! of the screen per client, the pane keeps one cache of its rows with the sequence
//! number at which each last changed; a client gets the rows newer than what it has.
//! Rows are shared (`Arc`) between the cache and every frame that carries them.

use fugue_protocol::Row;
use fugue_protocol::screen::{Color, RowBuilder, Style, attr};
use std::sync::Arc;

fn color(c: vt100::Color) -> Color {
    match c {
        vt100::Color::Default => Color::DEFAULT,
        vt100::Color::Idx(i) => Color::indexed(i),
        vt100::Color::Rgb(r, g, b) => Color::rgb(r, g, b),
    }
}

fn style(cell: &vt100::Cell) -> Style {
    let mut attrs = 0;
    if cell.bold() {
        attrs |= attr::BOLD;
    }
    if cell.dim() {
        attrs |= attr::DIM;
    }
    if cell.italic() {
        attrs |= attr::ITALIC;
    }
    if cell.underline() {
        attrs |= attr::UNDERLINE;
    }
    if cell.inverse() {
        attrs |= attr::INVERSE;
    }
    Style {
        fg: color(cell.fgcolor()),
        bg: color(cell.bgcolor()),
        attrs,
    }
}

/// Row `row` of the visible screen.
pub fn screen_row(screen: &vt100::Screen, row: u16) -> Row {
    let (_, cols) = screen.size();
    let mut b = RowBuilder::new();
    for col in 0..cols.get() {
        match screen.cell(row, col) {
            Some(cell) => b.push(
                cell.contents(),
                cell.is_wide(),
                cell.is_wide_continuation(),
                style(cell),
            ),
            None => b.push("", false, false, Style::default()),
        }
    }
    b.finish(screen.row_wrapped(row))
}

/// The visible rows and the sequence number at which each last changed.
#[derive(Debug, Default)]
pub struct RowCache {
    rows: Vec<Arc<Row>>,
    versions: Vec<u64>,
    /// The pane sequence number the cache reflects.
    synced: u64,
    /// Sequence number of the last size change: clients older than it need everything.
    reset: u64,
}

impl RowCache {
    /// Brings the cache up to date with the screen at sequence `seq`.
    pub fn sync(&mut self, screen: &vt100::Screen, seq: u64) {
        if seq == self.synced && !self.rows.is_empty() {
            return;
        }
        let (rows, _) = screen.size();
        let rows = usize::from(rows.get());
        if rows != self.rows.len() {
            // Rows are immutable once shared, so one blank row can stand for all of them.
            let blank = Arc::new(Row::default());
            self.rows = (0..rows).map(|_| Arc::clone(&blank)).collect();
            self.versions = vec![seq; rows];
            self.reset = seq;
        }
        for (i, (cached, version)) in self
            .rows
            .iter_mut()
            .zip(self.versions.iter_mut())
            .enumerate()
        {
            let row = screen_row(screen, i as u16);
            if **cached != row {
                *cached = Arc::new(row);
                *version = seq;
            }
        }
        self.synced = seq;
    }

    /// Marks every row changed (after a resize the client must redraw everything).
    pub fn invalidate(&mut self, seq: u64) {
        self.rows.clear();
        self.versions.clear();
        self.reset = seq;
    }

    /// Rows changed after `since`; `full` when the client needs every row.
    pub fn changed_since(&self, since: u64) -> (bool, Vec<(u16, Arc<Row>)>) {
        let full = since == 0 || since < self.reset;
        let rows = self
            .rows
            .iter()
            .zip(&self.versions)
            .enumerate()
            .filter(|(_, (_, v))| full || **v > since)
            .map(|(i, (r, _))| (i as u16, Arc::clone(r)))
            .collect();
        (full, rows)
    }

    pub fn rows(&self) -> &[Arc<Row>] {
        &self.rows
    }
}
