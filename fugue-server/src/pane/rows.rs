//! Reading vt100's cells into compact rows, and keeping track of which rows changed.
//!
//! Every attached client asks "what changed since sequence N". Rather than keep a copy
//! of the screen per client, the pane keeps one cache of its rows with the sequence
//! number at which each last changed; a client gets the rows newer than what it has.
//! Rows are shared (`Arc`) between the cache and every frame that carries them.

use fugue_protocol::Row;
use fugue_protocol::screen::{Color, Extra, Extras, Hyperlink, Style, StyleRun, attr, cell};
use std::sync::Arc;

fn color(c: vt100::Color) -> Color {
    match c {
        vt100::Color::Default => Color::DEFAULT,
        vt100::Color::Idx(i) => Color::indexed(i),
        vt100::Color::Rgb(r, g, b) => Color::rgb(r, g, b),
    }
}

// vt100's flag byte (`Cell::flags`) has the protocol's bit layout, so a cell's flags
// are copied as they are.
const _: () = assert!(
    attr::BOLD == 1
        && attr::DIM == 2
        && attr::ITALIC == 4
        && attr::UNDERLINE == 8
        && attr::INVERSE == 16
        && attr::STRIKETHROUGH == 32
        && attr::BLINK == 64
        && attr::HIDDEN == 128
);

/// The look of `cell`; `extra` reads its rare attributes from the screen's table.
#[inline(always)]
fn style(
    cell: &vt100::Cell,
    extra: &impl Fn(&vt100::Cell) -> vt100::Extra,
    extras: &mut Extras,
) -> Style {
    let mut s = Style {
        fg: color(cell.fgcolor()),
        bg: color(cell.bgcolor()),
        attrs: u16::from(cell.flags()),
        extra: 0,
    };
    if cell.has_extra() {
        rare_style(cell, extra, extras, &mut s);
    }
    s
}

/// The underline style, overline, underline colour and hyperlink of a cell that has
/// some: out of line, as few cells do.
#[cold]
#[inline(never)]
fn rare_style(
    cell: &vt100::Cell,
    extra: &impl Fn(&vt100::Cell) -> vt100::Extra,
    extras: &mut Extras,
    s: &mut Style,
) {
    let e = extra(cell);
    if e.overline {
        s.attrs |= attr::OVERLINE;
    }
    if cell.underline() {
        s.attrs |= match e.underline_style {
            vt100::UnderlineStyle::Single => 0,
            vt100::UnderlineStyle::Double => attr::DOUBLE,
            vt100::UnderlineStyle::Curly => attr::CURLY,
            vt100::UnderlineStyle::Dotted => attr::DOTTED,
            vt100::UnderlineStyle::Dashed => attr::DASHED,
        };
    }
    s.extra = extras.number(Extra {
        underline: color(e.underline_color),
        link: e.hyperlink,
    });
}

/// Fills `row` (reusing its buffers) from vt100 cells; trailing cleared cells are
/// left out. This runs for every row that scrolls into history, so the common case is
/// kept to a few instructions per cell: a narrow ASCII cell is one byte pushed, and a
/// cell's style is worked out only when its attributes differ from the cell before.
/// `extra` reads a cell's rare attributes (underline style and colour, overline,
/// hyperlink) from the screen's table, for the few cells that have them.
pub fn fill_row(
    row: &mut Row,
    cells: &[vt100::Cell],
    wrapped: bool,
    extra: impl Fn(&vt100::Cell) -> vt100::Extra,
) {
    let mut extras = Extras::default();
    fill_cells(row, cells, wrapped, &extra, &mut extras);
    extras.finish(row);
}

fn fill_cells(
    row: &mut Row,
    cells: &[vt100::Cell],
    wrapped: bool,
    extra: &impl Fn(&vt100::Cell) -> vt100::Extra,
    extras: &mut Extras,
) {
    row.text.clear();
    row.cells.clear();
    row.styles.clear();
    row.wrapped = wrapped;
    let end = cells
        .iter()
        .rposition(|c| !c.is_default())
        .map_or(0, |i| i + 1);
    let cells = &cells[..end];
    row.text.reserve(end);
    let mut current = Style::default();
    let mut prev: Option<&vt100::Cell> = None;
    let mut col = 0usize;
    // The simple form: every cell one narrow character (blank cells as spaces).
    while let Some(cell) = cells.get(col) {
        if !prev.is_some_and(|p| p.same_look(cell)) {
            note_style(row, cell, col, &mut current, extra, extras);
        }
        prev = Some(cell);
        let byte = match cell.ascii() {
            Some(b) => b,
            None if !cell.has_contents() && !cell.is_wide_continuation() => b' ',
            None => break,
        };
        // SAFETY: an ASCII byte is a whole UTF-8 character.
        unsafe { row.text.as_mut_vec().push(byte) };
        col += 1;
    }
    if col == cells.len() {
        return;
    }
    // Some cell is wide, combining or non-ASCII: describe the rest cell by cell.
    row.cells.extend(std::iter::repeat_n(1u8, col));
    for (col, cell) in cells.iter().enumerate().skip(col) {
        if !prev.is_some_and(|p| p.same_look(cell)) {
            note_style(row, cell, col, &mut current, extra, extras);
        }
        prev = Some(cell);
        let text = std::str::from_utf8(cell.contents_bytes()).unwrap_or("");
        let mut b = (text.len().min(usize::from(cell::LEN_MASK))) as u8;
        if cell.is_wide() {
            b |= cell::WIDE;
        }
        if cell.is_wide_continuation() {
            b |= cell::CONTINUATION;
        }
        row.text.push_str(text);
        row.cells.push(b);
    }
}

// Inlined: it runs at every change of look (a colored line has dozens), and out of line
// its call cost 5% of the colored workload.
#[inline(always)]
fn note_style(
    row: &mut Row,
    cell: &vt100::Cell,
    col: usize,
    current: &mut Style,
    extra: &impl Fn(&vt100::Cell) -> vt100::Extra,
    extras: &mut Extras,
) {
    let s = style(cell, extra, extras);
    if s != *current {
        row.styles.push(StyleRun {
            start: col as u16,
            style: s,
        });
        *current = s;
    }
}

/// A compact row from cells of `screen`.
pub fn row_from_cells(screen: &vt100::Screen, cells: &[vt100::Cell], wrapped: bool) -> Row {
    let mut row = Row::default();
    fill_row(&mut row, cells, wrapped, |c| screen.extra(c));
    row
}

/// Row `row` of the visible screen.
pub fn screen_row(screen: &vt100::Screen, row: u16) -> Row {
    match screen.row_cells(row) {
        Some(cells) => row_from_cells(screen, cells, screen.row_wrapped(row)),
        None => Row::default(),
    }
}

/// `row` with SGR sequences and its hyperlinks, which `screen` holds (see
/// `Row::to_ansi_with`).
pub fn ansi(row: &Row, screen: &vt100::Screen) -> String {
    row.to_ansi_with(|n| screen.hyperlink(n).map(|l| (l.id.as_str(), l.uri.as_str())))
}

/// `row` as tmux's `capture-pane -e` writes it after a row that ended in look
/// `last` (see `Row::to_ansi_after`).
pub fn ansi_after(
    row: &Row,
    screen: &vt100::Screen,
    last: &mut (fugue_protocol::Style, fugue_protocol::screen::Color),
) -> String {
    row.to_ansi_after(last, |n| {
        screen.hyperlink(n).map(|l| (l.id.as_str(), l.uri.as_str()))
    })
}

/// The codes that go from look `last` to the default one (none if it is already),
/// as tmux's `capture-pane -e` writes them; `last` becomes the default.
pub fn sgr_to_default(
    last: &mut (fugue_protocol::Style, fugue_protocol::screen::Color),
    out: &mut String,
) {
    let default = (
        fugue_protocol::Style::default(),
        fugue_protocol::screen::Color::DEFAULT,
    );
    if *last != default {
        default.0.write_sgr_after(default.1, *last, out);
        *last = default;
    }
}

/// The hyperlinks `rows` carry that `screen` still knows, for a client to draw them.
pub fn links_of<'a>(rows: impl Iterator<Item = &'a Row>, screen: &vt100::Screen) -> Vec<Hyperlink> {
    let mut numbers: Vec<u32> = rows.flat_map(|r| r.links()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
        .into_iter()
        .filter_map(|number| {
            screen.hyperlink(number).map(|l| Hyperlink {
                number,
                id: l.id.clone(),
                uri: l.uri.clone(),
            })
        })
        .collect()
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
        let mut scratch = Row::default();
        for (i, (cached, version)) in self
            .rows
            .iter_mut()
            .zip(self.versions.iter_mut())
            .enumerate()
        {
            let i = i as u16;
            match screen.row_cells(i) {
                Some(cells) => fill_row(&mut scratch, cells, screen.row_wrapped(i), |c| {
                    screen.extra(c)
                }),
                None => scratch = Row::default(),
            }
            if **cached != scratch {
                *cached = Arc::new(std::mem::take(&mut scratch));
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

#[cfg(test)]
mod tests {
    use super::super::state::PaneState;
    use fugue_protocol::LineBound;

    /// Everything, history included, with escapes.
    fn capture_e(p: &PaneState) -> String {
        p.capture(Some(LineBound::Edge), None, true, false)
    }

    /// Issue 13: hyperlinks are kept in history and on the screen, written back as
    /// OSC 8, closed at the end of each line.
    #[test]
    fn links_survive_history_and_come_back_as_osc_8() {
        let mut p = PaneState::new(20, 3, 100);
        p.process(b"a \x1b]8;id=7;http://x/a;b\x1b\\link\x1b]8;;\x1b\\ b\r\n");
        p.process(b"\x1b[4:3;58;5;2mcurly\x1b[0m\r\n\r\n\r\n");
        p.process(b"\x1b]8;;http://y\x1b\\on screen\x1b]8;;\x1b\\");
        let out = capture_e(&p);
        assert!(
            out.starts_with("a \x1b]8;id=7;http://x/a;b\x1b\\link\x1b]8;;\x1b\\ b\n"),
            "{out:?}"
        );
        // tmux 3.5's codes: the attribute, then the underline colour; no reset at
        // the line's end, the next look written from this one.
        assert!(out.contains("\x1b[4:3m\x1b[58;5;2mcurly\n"), "{out:?}");
        assert!(out.contains("\x1b[0m\x1b]8;;http://y"), "{out:?}");
        assert!(
            out.contains("\x1b]8;;http://y\x1b\\on screen\x1b]8;;\x1b\\"),
            "{out:?}"
        );
    }

    /// tmux 3.3a's `capture-pane -e` writes codes for every cell the program wrote
    /// (erased ones too), then trims the trailing spaces: a styled space stays when
    /// cells were written after it (a; b, whose later cells were then erased by EL:
    /// Claude Code's drawn cursor), and goes when it was written last (c) or when
    /// the whole line was cleared since (d). Compared with tmux 3.3a by hand.
    #[test]
    fn a_styled_space_at_a_lines_end_is_kept_as_tmux_keeps_it() {
        let mut p = PaneState::new(20, 5, 100);
        p.process(b"a\x1b[7m \x1b[0m   \r\n");
        p.process(b"b\x1b[7m \x1b[0m\x1b[5CX\x1b[2D\x1b[K\r\n");
        p.process(b"c\x1b[7m \x1b[0m\r\n");
        p.process(b"d\x1b[7m \x1b[0mXYZ\x1b[2K\rd\x1b[7m \x1b[0m");
        let out = capture_e(&p);
        assert!(
            out.starts_with("a\x1b[7m \x1b[0m\nb\x1b[7m \x1b[0m\nc\x1b[7m\n\x1b[0md\x1b[7m\n"),
            "{out:?}"
        );
    }

    /// Each flag of a cell lands on its own attribute bit.
    #[test]
    fn every_flag_is_copied_to_its_attribute() {
        use fugue_protocol::screen::attr;
        for (sgr, bit) in [
            ("1", attr::BOLD),
            ("2", attr::DIM),
            ("3", attr::ITALIC),
            ("4", attr::UNDERLINE),
            ("7", attr::INVERSE),
            ("9", attr::STRIKETHROUGH),
            ("5", attr::BLINK),
            ("8", attr::HIDDEN),
            ("53", attr::OVERLINE),
            ("4:3", attr::UNDERLINE | attr::CURLY),
        ] {
            let mut p = PaneState::new(10, 2, 10);
            p.process(format!("\x1b[{sgr}mx").as_bytes());
            let row = super::screen_row(p.screen(), 0);
            let style = row.cells().next().map(|c| c.style.attrs);
            assert_eq!(style, Some(bit), "SGR {sgr}");
        }
    }

    /// A link across a wrap, and a resize that prints the lines again, keep it.
    #[test]
    fn links_survive_a_reflow() {
        let mut p = PaneState::new(10, 4, 100);
        p.process(b"\x1b]8;;http://long\x1b\\0123456789abcde\x1b]8;;\x1b\\ x\x1b[4:2;53mu\x1b[0m");
        p.resize(20, 4);
        let joined = p.capture(Some(LineBound::Edge), None, true, true);
        assert!(
            joined.starts_with(
                "\x1b]8;;http://long\x1b\\0123456789abcde\x1b]8;;\x1b\\ x\x1b[4:2;53mu"
            ),
            "{joined:?}"
        );
        p.resize(6, 4);
        let rows = capture_e(&p);
        assert!(
            rows.contains(
                "\x1b]8;;http://long\x1b\\012345\x1b]8;;\x1b\\\n\x1b]8;;http://long\x1b\\6789ab"
            ),
            "{rows:?}"
        );
    }
}
