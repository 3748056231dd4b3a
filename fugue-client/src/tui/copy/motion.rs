//! Cursor motions of copy mode on a grid of rows, as tmux's copy-mode-vi moves
//! (checked against tmux 3.3a with `send -X`; the expectations in the tests below are
//! what tmux did on the same text).
//!
//! Words are tmux's: runs of word characters, runs of separators (tmux's default
//! `word-separators`), and blanks between them; "space" motions (`W` `B` `E`) know only
//! blanks. Rows that wrap onto the next row are one line for words and for `0` and `$`.

use fugue_protocol::Row;

/// tmux's default `word-separators`.
pub const WORD_SEPARATORS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~";

/// Lines a motion looks through before it gives up (a paragraph or bracket search in a
/// million lines of history must not stall the client).
pub const MAX_SCAN_LINES: u64 = 10_000;

/// A cell position: an absolute line number and a column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    pub line: u64,
    pub col: u16,
}

impl Point {
    pub fn new(line: u64, col: u16) -> Point {
        Point { line, col }
    }
}

/// The lines copy mode moves over.
pub trait Grid {
    /// The first and last line numbers (inclusive).
    fn bounds(&self) -> (u64, u64);
    /// A line's row; None when it is not known (not fetched yet): motions stop there.
    fn row(&self, line: u64) -> Option<&Row>;
    /// Columns of the pane.
    fn width(&self) -> u16;
}

/// One cell of a row as motions see it: where it starts, how wide it is, its first
/// character (a blank cell is a space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub col: u16,
    pub width: u16,
    pub ch: char,
}

/// The cells of a row, blanks included, up to its last stored cell.
pub fn cells(row: &Row) -> Vec<Cell> {
    let mut out = Vec::with_capacity(row.len());
    let mut col = 0u16;
    for c in row.cells() {
        while col < c.col {
            out.push(Cell {
                col,
                width: 1,
                ch: ' ',
            });
            col += 1;
        }
        let width = if c.wide { 2 } else { 1 };
        out.push(Cell {
            col: c.col,
            width,
            ch: c.text.chars().next().unwrap_or(' '),
        });
        col = c.col.saturating_add(width);
    }
    out
}

/// Columns a row's text takes, trailing blanks left out (tmux's line length: where `$`
/// and `G` go, and where a shorter line holds the cursor).
pub fn length(row: &Row) -> u16 {
    cells(row)
        .iter()
        .rev()
        .find(|c| c.ch != ' ')
        .map_or(0, |c| c.col.saturating_add(c.width))
}

fn class(c: char, big: bool) -> u8 {
    if c == ' ' || c == '\0' {
        0
    } else if !big && WORD_SEPARATORS.contains(c) {
        1
    } else {
        2
    }
}

/// A step of a walk over the grid: a cell, or the end of a line that does not wrap
/// (which separates words as a blank does).
#[derive(Clone, Copy, Debug)]
struct Step {
    at: Option<Point>,
    width: u16,
    class: u8,
}

/// The steps of line `line` (None when the line is not known).
fn steps(grid: &dyn Grid, line: u64, big: bool) -> Option<Vec<Step>> {
    let row = grid.row(line)?;
    let mut v: Vec<Step> = cells(row)
        .into_iter()
        .map(|c| Step {
            at: Some(Point::new(line, c.col)),
            width: c.width,
            class: class(c.ch, big),
        })
        .collect();
    if !row.wrapped {
        v.push(Step {
            at: None,
            width: 0,
            class: 0,
        });
    }
    Some(v)
}

/// Steps forward from the cell at `p` (included), through known lines.
fn forward(grid: &dyn Grid, p: Point, big: bool) -> impl Iterator<Item = Step> + '_ {
    let (_, last) = grid.bounds();
    let end = last.min(p.line.saturating_add(MAX_SCAN_LINES));
    (p.line..=end)
        .map_while(move |l| steps(grid, l, big))
        .flatten()
        // The cell the cursor is in (a wide character's right half is in it).
        .skip_while(move |s| {
            s.at.is_some_and(|a| a.line == p.line && a.col.saturating_add(s.width) <= p.col)
        })
}

/// Steps backward from the cell at `p` (included).
fn backward(grid: &dyn Grid, p: Point, big: bool) -> impl Iterator<Item = Step> + '_ {
    let (first, _) = grid.bounds();
    let start = first.max(p.line.saturating_sub(MAX_SCAN_LINES));
    (start..=p.line)
        .rev()
        .map_while(move |l| steps(grid, l, big))
        .flat_map(|v| v.into_iter().rev())
        .skip_while(move |s| match s.at {
            Some(a) => a.line == p.line && a.col > p.col,
            None => true,
        })
}

/// `w` (`W` with `big`): the start of the next word.
pub fn next_word(grid: &dyn Grid, p: Point, big: bool) -> Point {
    let mut it = forward(grid, p, big);
    let Some(first) = it.next() else { return p };
    let mut last = first.at.unwrap_or(p);
    let mut left_word = first.class == 0;
    for s in it {
        if let Some(a) = s.at {
            last = a;
        }
        if !left_word {
            if s.class == first.class {
                continue;
            }
            left_word = true;
        }
        if s.class != 0
            && let Some(a) = s.at
        {
            return a;
        }
    }
    last
}

/// `e` (`E`): the last cell of this word or the next.
pub fn next_word_end(grid: &dyn Grid, p: Point, big: bool) -> Point {
    let mut it = forward(grid, p, big).skip(1).skip_while(|s| s.class == 0);
    let Some(first) = it.next() else { return p };
    let mut end = first.at.unwrap_or(p);
    for s in it {
        match s.at {
            Some(a) if s.class == first.class => end = a,
            _ => break,
        }
    }
    end
}

/// `b` (`B`): the start of this word or the previous one.
pub fn previous_word(grid: &dyn Grid, p: Point, big: bool) -> Point {
    let mut it = backward(grid, p, big).skip(1).skip_while(|s| s.class == 0);
    let Some(first) = it.next() else { return p };
    let mut start = first.at.unwrap_or(p);
    for s in it {
        match s.at {
            Some(a) if s.class == first.class => start = a,
            _ => break,
        }
    }
    start
}

/// The first row of the line (rows wrapped onto each other) that row `line` is in.
pub fn line_start(grid: &dyn Grid, line: u64) -> u64 {
    let (first, _) = grid.bounds();
    let mut l = line;
    while l > first && line - l < MAX_SCAN_LINES {
        match grid.row(l - 1) {
            Some(r) if r.wrapped => l -= 1,
            _ => break,
        }
    }
    l
}

/// `0`: the start of the line, wrapped rows included.
pub fn start_of_line(grid: &dyn Grid, p: Point) -> Point {
    Point::new(line_start(grid, p.line), 0)
}

/// `$`: after the line's last character, wrapped rows included (tmux's vi mode too).
pub fn end_of_line(grid: &dyn Grid, p: Point) -> Point {
    let (_, last) = grid.bounds();
    let mut l = p.line;
    while l < last && l - p.line < MAX_SCAN_LINES && grid.row(l).is_some_and(|r| r.wrapped) {
        l += 1;
    }
    let len = grid.row(l).map_or(0, length);
    Point::new(l, len.min(grid.width().saturating_sub(1)))
}

/// `^`: the first non-blank cell of the row.
pub fn back_to_indentation(grid: &dyn Grid, p: Point) -> Point {
    let col = grid
        .row(p.line)
        .and_then(|r| cells(r).into_iter().find(|c| c.ch != ' '))
        .map_or(0, |c| c.col);
    Point::new(p.line, col)
}

fn blank(grid: &dyn Grid, line: u64) -> bool {
    grid.row(line).is_none_or(|r| length(r) == 0)
}

/// `{`: up to the blank line before the paragraph.
pub fn previous_paragraph(grid: &dyn Grid, p: Point) -> Point {
    let (first, _) = grid.bounds();
    let stop = first.max(p.line.saturating_sub(MAX_SCAN_LINES));
    let mut l = p.line;
    while l > stop && blank(grid, l) && grid.row(l - 1).is_some() {
        l -= 1;
    }
    while l > stop && !blank(grid, l) && grid.row(l - 1).is_some() {
        l -= 1;
    }
    Point::new(l, 0)
}

/// `}`: down to the blank line after the paragraph (or the end of the last line).
pub fn next_paragraph(grid: &dyn Grid, p: Point) -> Point {
    let (_, last) = grid.bounds();
    let stop = last.min(p.line.saturating_add(MAX_SCAN_LINES));
    let mut l = p.line;
    while l < stop && blank(grid, l) && grid.row(l + 1).is_some() {
        l += 1;
    }
    while l < stop && !blank(grid, l) && grid.row(l + 1).is_some() {
        l += 1;
    }
    Point::new(l, grid.row(l).map_or(0, length))
}

const BRACKETS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('{', '}')];

/// `%`: the bracket matching the one under the cursor, or the first bracket after it
/// on the row; None when there is none.
pub fn matching_bracket(grid: &dyn Grid, p: Point) -> Option<Point> {
    let row = grid.row(p.line)?;
    let on = cells(row)
        .into_iter()
        .filter(|c| c.col + c.width > p.col)
        .find(|c| BRACKETS.iter().any(|(o, e)| c.ch == *o || c.ch == *e))?;
    let at = Point::new(p.line, on.col);
    let (open, close, ahead) = BRACKETS.iter().find_map(|(o, e)| {
        (on.ch == *o)
            .then_some((*o, *e, true))
            .or((on.ch == *e).then_some((*o, *e, false)))
    })?;
    let mut depth = 0usize;
    let walk: Box<dyn Iterator<Item = Step>> = if ahead {
        Box::new(forward(grid, at, false))
    } else {
        Box::new(backward(grid, at, false))
    };
    for s in walk {
        let Some(a) = s.at else { continue };
        let ch = grid
            .row(a.line)
            .and_then(|r| cells(r).into_iter().find(|c| c.col == a.col))
            .map_or(' ', |c| c.ch);
        if ch == open || ch == close {
            let opens = (ch == open) == ahead;
            if opens {
                depth += 1;
            } else {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(a);
                }
            }
        }
    }
    None
}

/// The kinds of `f` `F` `t` `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    Forward,
    Backward,
    ToForward,
    ToBackward,
}

impl Jump {
    pub fn reversed(self) -> Jump {
        match self {
            Jump::Forward => Jump::Backward,
            Jump::Backward => Jump::Forward,
            Jump::ToForward => Jump::ToBackward,
            Jump::ToBackward => Jump::ToForward,
        }
    }
}

/// `f` `F` `t` `T`: to (or next to) the next `target` on the row; None when absent.
pub fn jump(grid: &dyn Grid, p: Point, kind: Jump, target: char) -> Option<Point> {
    let cs = cells(grid.row(p.line)?);
    let found = match kind {
        Jump::Forward => cs.iter().find(|c| c.col > p.col && c.ch == target),
        // `t` again from next to a match looks past it, as tmux does.
        Jump::ToForward => cs.iter().find(|c| c.col > p.col + 1 && c.ch == target),
        Jump::Backward => cs.iter().rev().find(|c| c.col < p.col && c.ch == target),
        Jump::ToBackward => cs
            .iter()
            .rev()
            .find(|c| c.col + 1 < p.col && c.ch == target),
    }?;
    let i = cs.iter().position(|c| c.col == found.col)?;
    let col = match kind {
        Jump::Forward | Jump::Backward => found.col,
        Jump::ToForward => cs.get(i.checked_sub(1)?)?.col,
        Jump::ToBackward => cs.get(i + 1).map_or(found.col + found.width, |c| c.col),
    };
    Some(Point::new(p.line, col))
}

/// The word under the cursor, as tmux's double click selects it: its first and last
/// cells (a blank selects the blank run).
pub fn word_at(grid: &dyn Grid, p: Point) -> (Point, Point) {
    let Some(row) = grid.row(p.line) else {
        return (p, p);
    };
    let cs = cells(row);
    let Some(i) = cs.iter().position(|c| c.col + c.width > p.col) else {
        return (p, p);
    };
    let k = class(cs[i].ch, false);
    let mut a = i;
    while a > 0 && class(cs[a - 1].ch, false) == k {
        a -= 1;
    }
    let mut b = i;
    while b + 1 < cs.len() && class(cs[b + 1].ch, false) == k {
        b += 1;
    }
    (Point::new(p.line, cs[a].col), Point::new(p.line, cs[b].col))
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A grid of plain rows (`\` at a row's end marks it wrapped), numbered from 0.
    pub struct Text {
        pub rows: Vec<Row>,
        pub width: u16,
    }

    impl Text {
        pub fn new(lines: &[&str], width: u16) -> Text {
            let rows = lines
                .iter()
                .map(|l| match l.strip_suffix('\\') {
                    Some(l) => {
                        let mut r = Row::plain(l);
                        r.wrapped = true;
                        r
                    }
                    None => Row::plain(l),
                })
                .collect();
            Text { rows, width }
        }
    }

    impl Grid for Text {
        fn bounds(&self) -> (u64, u64) {
            (0, self.rows.len().saturating_sub(1) as u64)
        }
        fn row(&self, line: u64) -> Option<&Row> {
            self.rows.get(line as usize)
        }
        fn width(&self) -> u16 {
            self.width
        }
    }

    fn walk(g: &Text, from: Point, f: impl Fn(&Text, Point) -> Point, n: usize) -> Vec<u16> {
        let mut p = from;
        (0..n)
            .map(|_| {
                p = f(g, p);
                p.col
            })
            .collect()
    }

    /// The line tmux 3.3a was given (`printf 'foo.bar  baz-qux (a[b]c)\n\nsecond
    /// para x\nthird\n'` in a 40-column pane, `mode-keys vi`), and where its `send -X`
    /// commands put the cursor.
    fn tmux_text() -> Text {
        Text::new(
            &["foo.bar  baz-qux (a[b]c)", "", "second para x", "third", ""],
            40,
        )
    }

    #[test]
    fn word_motions_are_tmuxs() {
        let g = tmux_text();
        let o = Point::new(0, 0);
        assert_eq!(
            walk(&g, o, |g, p| next_word(g, p, false), 6),
            [3, 4, 9, 12, 13, 17]
        );
        assert_eq!(walk(&g, o, |g, p| next_word_end(g, p, false), 3), [2, 3, 6]);
        let p = Point::new(0, 9);
        assert_eq!(next_word(&g, Point::new(0, 6), true), p);
        assert_eq!(next_word_end(&g, p, true).col, 15);
        let p = Point::new(0, 15);
        assert_eq!(walk(&g, p, |g, p| previous_word(g, p, false), 2), [13, 12]);
        assert_eq!(previous_word(&g, Point::new(0, 12), true).col, 9);
        // Past the row's end a word goes on to the next line with text.
        assert_eq!(next_word(&g, Point::new(0, 23), false), Point::new(2, 0));
        assert_eq!(
            previous_word(&g, Point::new(2, 0), false),
            Point::new(0, 23)
        );
    }

    #[test]
    fn lines_paragraphs_and_brackets_are_tmuxs() {
        let g = tmux_text();
        let o = Point::new(0, 5);
        assert_eq!(end_of_line(&g, o), Point::new(0, 24));
        // A line's trailing blanks are not part of it (tmux's find_length).
        let mut b = fugue_protocol::screen::RowBuilder::new();
        b.push("$", false, false, Default::default());
        b.push(" ", false, false, Default::default());
        let prompt = Text {
            rows: vec![b.finish(false)],
            width: 20,
        };
        assert_eq!(end_of_line(&prompt, Point::new(0, 0)), Point::new(0, 1));
        assert_eq!(start_of_line(&g, o), Point::new(0, 0));
        assert_eq!(next_paragraph(&g, o), Point::new(1, 0));
        assert_eq!(next_paragraph(&g, Point::new(1, 0)), Point::new(4, 0));
        assert_eq!(previous_paragraph(&g, Point::new(4, 0)), Point::new(1, 0));
        let paren = jump(&g, Point::new(0, 0), Jump::Forward, '(').unwrap();
        assert_eq!(paren.col, 17);
        assert_eq!(matching_bracket(&g, paren), Some(Point::new(0, 23)));
        assert_eq!(matching_bracket(&g, Point::new(0, 23)), Some(paren));
        // Not on a bracket: the first one after the cursor, then its match.
        assert_eq!(
            matching_bracket(&g, Point::new(0, 0)),
            Some(Point::new(0, 23))
        );
        assert_eq!(
            matching_bracket(&g, Point::new(0, 19)),
            Some(Point::new(0, 21))
        );
        assert_eq!(matching_bracket(&g, Point::new(2, 0)), None);
    }

    #[test]
    fn brackets_match_across_lines_and_nesting() {
        let g = Text::new(&["fn a() {", "  if x { y }", "}"], 20);
        assert_eq!(
            matching_bracket(&g, Point::new(0, 7)),
            Some(Point::new(2, 0))
        );
        assert_eq!(
            matching_bracket(&g, Point::new(2, 0)),
            Some(Point::new(0, 7))
        );
    }

    #[test]
    fn jumps_find_a_character_on_the_row() {
        let g = Text::new(&["a,b,c,d"], 20);
        let o = Point::new(0, 0);
        assert_eq!(jump(&g, o, Jump::Forward, ',').map(|p| p.col), Some(1));
        assert_eq!(jump(&g, o, Jump::ToForward, 'c').map(|p| p.col), Some(3));
        let e = Point::new(0, 6);
        assert_eq!(jump(&g, e, Jump::Backward, ',').map(|p| p.col), Some(5));
        assert_eq!(jump(&g, e, Jump::ToBackward, 'b').map(|p| p.col), Some(3));
        assert_eq!(jump(&g, o, Jump::Forward, 'z'), None);
        // `t` again does not stick next to the same match.
        assert_eq!(
            jump(&g, Point::new(0, 2), Jump::ToForward, ',').map(|p| p.col),
            Some(4)
        );
    }

    #[test]
    fn wrapped_rows_are_one_line() {
        let g = Text::new(&["abcde\\", "fgh ij", "next"], 5);
        assert_eq!(start_of_line(&g, Point::new(1, 2)), Point::new(0, 0));
        assert_eq!(end_of_line(&g, Point::new(0, 1)).line, 1);
        // A word does not end at a wrap.
        assert_eq!(next_word_end(&g, Point::new(0, 1), false), Point::new(1, 2));
        assert_eq!(
            word_at(&g, Point::new(1, 5)),
            (Point::new(1, 4), Point::new(1, 5))
        );
    }
}
