//! Selections in copy mode and the text they copy.
//!
//! As tmux copies: a character selection runs from one end to the other through
//! whole rows between; rows that wrap onto the next are joined without a line break
//! (as `capture-pane -J`); a rectangle takes the same columns of every row, each row
//! its own line. A cell is copied whole: a wide character half inside a rectangle, or
//! a character with combining marks, is copied entire, never half.

use super::motion::{Grid, Point};

/// The most text one copy takes: a paste buffer's limit (a selection of a million
/// lines must not build a huge string in the client either). Past it the copy is cut
/// at a character boundary and said so.
pub const MAX_COPY_BYTES: usize = fugue_protocol::buffers::MAX_BUFFER_BYTES;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// From one cell to another (`v`, Space).
    Chars,
    /// Whole lines (`V`).
    Lines,
    /// A rectangle (`C-v`, `r`).
    Rect,
}

/// A selection: one end is fixed (`anchor`), the other is the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub anchor: Point,
    pub kind: Kind,
}

impl Selection {
    /// Whether the cell at `p` is selected, with the cursor at `cursor` (for drawing).
    pub fn contains(&self, cursor: Point, p: Point) -> bool {
        let (a, b) = ordered(self.anchor, cursor);
        if p.line < a.line || p.line > b.line {
            return false;
        }
        match self.kind {
            Kind::Lines => true,
            Kind::Rect => {
                let (l, r) = cols(self.anchor, cursor);
                p.col >= l && p.col <= r
            }
            Kind::Chars => {
                (p.line > a.line || p.col >= a.col) && (p.line < b.line || p.col <= b.col)
            }
        }
    }
}

fn ordered(a: Point, b: Point) -> (Point, Point) {
    if a <= b { (a, b) } else { (b, a) }
}

fn cols(a: Point, b: Point) -> (u16, u16) {
    (a.col.min(b.col), a.col.max(b.col))
}

/// The text of a selection from `anchor` to `cursor`; also whether it was cut at
/// [`MAX_COPY_BYTES`]. Lines not known (not fetched) copy as empty lines.
pub fn text(grid: &dyn Grid, sel: Selection, cursor: Point) -> (String, bool) {
    let (a, b) = ordered(sel.anchor, cursor);
    let (left, right) = match sel.kind {
        Kind::Rect => cols(sel.anchor, cursor),
        _ => (0, u16::MAX),
    };
    let mut out = String::new();
    for line in a.line..=b.line {
        let (from, to) = match sel.kind {
            Kind::Lines => (0, u16::MAX),
            Kind::Rect => (left, right),
            Kind::Chars => (
                if line == a.line { a.col } else { 0 },
                if line == b.line { b.col } else { u16::MAX },
            ),
        };
        let row = grid.row(line);
        let mut piece = String::new();
        // Text after the selection on this row: its blanks are inside the line then.
        let more_after = row.is_some_and(|r| {
            r.cells()
                .any(|c| c.col > to && !c.text.is_empty() && c.text != " ")
        });
        if let Some(row) = row {
            let mut col = 0u16;
            for c in row.cells() {
                // Blank cells not stored before this one read as spaces.
                while col < c.col {
                    if col >= from && col <= to {
                        piece.push(' ');
                    }
                    col += 1;
                }
                let width = if c.wide { 2 } else { 1 };
                let last = c.col.saturating_add(width - 1);
                // Any part of the cell inside the columns takes the whole cell.
                if last >= from && c.col <= to {
                    piece.push_str(if c.text.is_empty() { " " } else { c.text });
                }
                col = c.col.saturating_add(width);
            }
        }
        let wraps = row.is_some_and(|r| r.wrapped) && sel.kind != Kind::Rect;
        // A row that wraps keeps its trailing blanks (they are part of the line, as
        // `capture-pane -J` keeps them); others lose those at the line's end, as tmux's
        // copy does, and keep those with text after them (`hello ` of `hello world`).
        if !wraps && !more_after {
            let t = piece.trim_end_matches(' ').len();
            piece.truncate(t);
        }
        out.push_str(&piece);
        if line != b.line && !wraps {
            out.push('\n');
        }
        if out.len() > MAX_COPY_BYTES {
            let cut = (0..=MAX_COPY_BYTES)
                .rev()
                .find(|i| out.is_char_boundary(*i))
                .unwrap_or(0);
            out.truncate(cut);
            return (out, true);
        }
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::super::motion::tests::Text;
    use super::*;
    use fugue_protocol::Row;
    use fugue_protocol::screen::RowBuilder;

    fn sel(kind: Kind, a: (u64, u16)) -> Selection {
        Selection {
            anchor: Point::new(a.0, a.1),
            kind,
        }
    }

    #[test]
    fn characters_lines_and_wrapped_rows() {
        let g = Text::new(&["hello world", "a long line th\\", "at wraps", "end"], 14);
        let t = |k, a, b: (u64, u16)| text(&g, sel(k, a), Point::new(b.0, b.1)).0;
        assert_eq!(t(Kind::Chars, (0, 6), (0, 10)), "world");
        assert_eq!(t(Kind::Chars, (0, 10), (0, 6)), "world");
        assert_eq!(t(Kind::Chars, (0, 6), (1, 1)), "world\na ");
        // The wrapped line is one line of the copy.
        assert_eq!(t(Kind::Lines, (2, 3), (1, 0)), "a long line that wraps");
        assert_eq!(
            t(Kind::Lines, (1, 0), (3, 0)),
            "a long line that wraps\nend"
        );
        assert_eq!(t(Kind::Rect, (0, 2), (1, 4)), "llo\nlon");
        // A blank with text after it on the row is copied, as tmux copies it.
        assert_eq!(t(Kind::Chars, (0, 0), (0, 5)), "hello ");
        assert_eq!(t(Kind::Rect, (0, 4), (3, 5)), "o \nng\nra\n");
    }

    /// A row of cells: (text, wide).
    fn row(cells: &[(&str, bool)]) -> Row {
        let mut b = RowBuilder::new();
        for (t, wide) in cells {
            b.push(t, *wide, false, Default::default());
            if *wide {
                b.push("", false, true, Default::default());
            }
        }
        b.finish(false)
    }

    #[test]
    fn wide_and_combining_characters_are_copied_whole() {
        let g = Text {
            rows: vec![
                row(&[
                    ("a", false),
                    ("日", true),
                    ("b", false),
                    ("e\u{301}", false),
                ]),
                row(&[("x", false), ("y", false), ("本", true), ("z", false)]),
            ],
            width: 10,
        };
        // The rectangle's columns 2..=2 cut 日 (cols 1-2) and 本 (cols 2-3): both whole.
        let (t, cut) = text(&g, sel(Kind::Rect, (0, 2)), Point::new(1, 2));
        assert_eq!((t.as_str(), cut), ("日\n本", false));
        let (t, _) = text(&g, sel(Kind::Chars, (0, 2)), Point::new(0, 4));
        assert_eq!(t, "日be\u{301}");
    }
}
