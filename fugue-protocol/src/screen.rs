//! Compact screen rows, the unit in which screens travel and history is stored.
//!
//! A row is its text plus one byte of layout per cell and a list of style runs. Plain
//! ASCII rows need no layout bytes at all, which keeps both the wire and the server's
//! history small (vt100's own cells are 32 bytes each).

use crate::ids::{PaneId, SessionId};
use crate::passthrough::{CursorLook, OuterEvents};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

mod style;
pub use style::{Color, ColorKind, Extra, Hyperlink, Style, attr, write_osc8};

/// A style that applies from `start` (a cell column) to the next run.
///
/// [`Row::styles`] also holds the row's [`Extra`]s, after its runs: entries whose
/// `start` is [`EXTRA_START`], no column, so that finding a column's run never meets
/// them. A row without extras (nearly all) pays nothing for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StyleRun {
    pub start: u16,
    pub style: Style,
}

/// The `start` of the entries of [`Row::styles`] that hold the row's extras.
pub const EXTRA_START: u16 = u16::MAX;

impl StyleRun {
    /// The entry that holds `e` (its underline colour as `fg`, its link as `bg`).
    fn holding(e: Extra) -> StyleRun {
        StyleRun {
            start: EXTRA_START,
            style: Style {
                fg: e.underline,
                bg: Color(e.link),
                attrs: 0,
                extra: 0,
            },
        }
    }

    fn held(&self) -> Extra {
        Extra {
            underline: self.style.fg,
            link: self.style.bg.0,
        }
    }
}

/// A row's extras while it is built, appended to its styles when it is finished.
#[derive(Default, Debug)]
pub struct Extras(Vec<Extra>);

impl Extras {
    /// The number `e` has in the row (0 for none), adding it. Past `u16::MAX - 1`
    /// extras in one row (a row has fewer cells than that) `e` is dropped.
    pub fn number(&mut self, e: Extra) -> u16 {
        if e.is_none() {
            return 0;
        }
        let i = match self.0.iter().position(|x| *x == e) {
            Some(i) => i,
            None => {
                self.0.push(e);
                self.0.len() - 1
            }
        };
        u16::try_from(i + 1).unwrap_or(0)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Appends the extras to `row`'s styles (after every run).
    pub fn finish(&mut self, row: &mut Row) {
        row.styles.extend(self.0.drain(..).map(StyleRun::holding));
    }
}

/// Layout bits of one cell in [`Row::cells`].
pub mod cell {
    /// Byte length of the cell's contents in [`super::Row::text`].
    pub const LEN_MASK: u8 = 0b0001_1111;
    /// The cell holds a double-width character.
    pub const WIDE: u8 = 0b1000_0000;
    /// The cell is the right half of a double-width character (and holds no text).
    pub const CONTINUATION: u8 = 0b0100_0000;
}

/// One row of a screen or of history.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Row {
    /// The contents of every cell, concatenated. An empty cell contributes nothing.
    pub text: String,
    /// One layout byte per cell (see [`cell`]). Empty when every cell is one
    /// single-width char of `text`, the common case.
    #[serde(with = "serde_bytes")]
    pub cells: Vec<u8>,
    /// Style runs in column order; columns before the first run are default style.
    pub styles: Vec<StyleRun>,
    /// The line continues on the next row (soft wrap).
    pub wrapped: bool,
}

/// A cell as read back from a [`Row`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRef<'a> {
    pub col: u16,
    /// Empty for a blank cell.
    pub text: &'a str,
    pub wide: bool,
    pub style: Style,
    /// The rare parts of the cell's look.
    pub extra: Extra,
}

impl CellRef<'_> {
    /// The cell's look, comparable across rows (`style.extra` is not).
    pub fn look(&self) -> (Style, Extra) {
        (
            Style {
                extra: 0,
                ..self.style
            },
            self.extra,
        )
    }
}

/// Builds a [`Row`] cell by cell, trimming trailing blank default cells.
#[derive(Default)]
pub struct RowBuilder {
    row: Row,
    ncells: u16,
    simple: bool,
    current: Style,
    extras: Extras,
    /// Length of `text`/`cells`/`styles` after the last cell that was not blank-default,
    /// so trailing blanks can be cut off at the end.
    keep: (usize, usize, usize, u16),
}

impl RowBuilder {
    pub fn new() -> Self {
        RowBuilder {
            simple: true,
            ..Default::default()
        }
    }

    /// Appends a cell. `text` is empty for a blank cell.
    pub fn push(&mut self, text: &str, wide: bool, continuation: bool, style: Style) {
        self.push_with(text, wide, continuation, style, Extra::default());
    }

    /// Appends a cell with the rare parts of its look (`style.extra` is set here).
    pub fn push_with(
        &mut self,
        text: &str,
        wide: bool,
        continuation: bool,
        mut style: Style,
        extra: Extra,
    ) {
        style.extra = self.extras.number(extra);
        let col = self.ncells;
        if style != self.current {
            self.row.styles.push(StyleRun { start: col, style });
            self.current = style;
        }
        let single = !wide
            && !continuation
            && {
                let mut chars = text.chars();
                matches!((chars.next(), chars.next()), (Some(c), None) if unicode_width::UnicodeWidthChar::width(c) == Some(1))
            };
        if self.simple && !single {
            // Switch to explicit layout: describe every cell pushed so far.
            self.simple = false;
            self.row.cells = self.row.text.chars().map(|c| c.len_utf8() as u8).collect();
        }
        self.row.text.push_str(text);
        if !self.simple {
            let len = (text.len().min(usize::from(cell::LEN_MASK))) as u8;
            let mut b = len;
            if wide {
                b |= cell::WIDE;
            }
            if continuation {
                b |= cell::CONTINUATION;
            }
            self.row.cells.push(b);
        }
        self.ncells += 1;
        if !(text.is_empty() || text == " ") || continuation || !style.is_default() {
            self.keep = (
                self.row.text.len(),
                self.row.cells.len(),
                self.row.styles.len(),
                self.ncells,
            );
        }
    }

    pub fn finish(mut self, wrapped: bool) -> Row {
        let (t, c, s, n) = self.keep;
        if n < self.ncells {
            self.row.text.truncate(t);
            self.row.cells.truncate(c);
            self.row.styles.truncate(s);
        }
        if self.simple {
            self.row.cells.clear();
        }
        self.row.wrapped = wrapped;
        self.extras.finish(&mut self.row);
        self.row
    }
}

impl Row {
    /// A row holding `text` in the default style (every char one cell).
    pub fn plain(text: &str) -> Row {
        let mut b = RowBuilder::new();
        for c in text.chars() {
            let mut buf = [0u8; 4];
            b.push(c.encode_utf8(&mut buf), false, false, Style::default());
        }
        b.finish(false)
    }

    /// Number of cells the row describes (trailing blank cells are not stored).
    pub fn len(&self) -> usize {
        if self.cells.is_empty() {
            self.text.chars().count()
        } else {
            self.cells.len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cells of the row, without the right halves of wide characters.
    pub fn cells(&self) -> impl Iterator<Item = CellRef<'_>> + '_ {
        let mut styles = self.styles.iter().peekable();
        let mut style = Style::default();
        let mut style_at = move |col: u16| {
            while let Some(run) = styles.peek() {
                if run.start <= col {
                    style = run.style;
                    styles.next();
                } else {
                    break;
                }
            }
            style
        };
        let simple = self.cells.is_empty();
        let mut offset = 0usize;
        let mut chars = self.text.char_indices();
        let mut layout = self.cells.iter();
        let mut col: u16 = 0;
        std::iter::from_fn(move || {
            loop {
                let here = col;
                let (text, wide, cont) = if simple {
                    let (i, c) = chars.next()?;
                    (&self.text[i..i + c.len_utf8()], false, false)
                } else {
                    let b = *layout.next()?;
                    let len = usize::from(b & cell::LEN_MASK);
                    let end = (offset + len).min(self.text.len());
                    let text = self.text.get(offset..end).unwrap_or("");
                    offset = end;
                    (text, b & cell::WIDE != 0, b & cell::CONTINUATION != 0)
                };
                col = col.saturating_add(1);
                let style = style_at(here);
                if cont {
                    continue;
                }
                return Some(CellRef {
                    col: here,
                    text,
                    wide,
                    style,
                    extra: self.extra(style.extra),
                });
            }
        })
    }

    /// The row as plain text, blank cells as spaces, trailing spaces removed.
    pub fn to_plain(&self) -> String {
        let mut out = self.to_plain_untrimmed();
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out
    }

    /// The row's text with the spaces it stores at its end (tmux's `capture-pane -N`).
    pub fn to_plain_untrimmed(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        if self.cells.is_empty() {
            out.push_str(&self.text);
        } else {
            for c in self.cells() {
                out.push_str(if c.text.is_empty() { " " } else { c.text });
            }
        }
        out
    }

    /// The row with SGR escape sequences, ending in the default style, without its
    /// hyperlinks.
    pub fn to_ansi(&self) -> String {
        self.to_ansi_with(|_| None)
    }

    /// The row with SGR escape sequences and its hyperlinks (`OSC 8`), which `link`
    /// looks up by number (a link it does not know is left out), ending in the
    /// default style with no link open.
    pub fn to_ansi_with<'a>(&self, link: impl Fn(u32) -> Option<(&'a str, &'a str)>) -> String {
        let mut current = (Style::default(), Color::DEFAULT);
        let mut out = self.write_ansi(&mut current, link, |look, _, out| {
            look.0.write_sgr(look.1, out)
        });
        if current != (Style::default(), Color::DEFAULT) {
            out.push_str("\x1b[0m");
        }
        out
    }

    /// The row as tmux 3.5's `capture-pane -e` writes it: each change of look as
    /// tmux writes it from the look before (`last`, carried from the row before and
    /// left at this row's last look: tmux does not reset at the end of a line), and
    /// its hyperlinks as [`Row::to_ansi_with`].
    pub fn to_ansi_after<'a>(
        &self,
        last: &mut (Style, Color),
        link: impl Fn(u32) -> Option<(&'a str, &'a str)>,
    ) -> String {
        self.write_ansi(last, link, |look, before, out| {
            look.0.write_sgr_after(look.1, before, out)
        })
    }

    /// The row's text with `sgr` written at every change of look (from `current`,
    /// which it leaves at the last look) and its hyperlinks opened and closed.
    fn write_ansi<'a>(
        &self,
        current: &mut (Style, Color),
        link: impl Fn(u32) -> Option<(&'a str, &'a str)>,
        sgr: impl Fn((Style, Color), (Style, Color), &mut String),
    ) -> String {
        let mut out = String::with_capacity(self.text.len() + 16 * self.styles.len());
        let mut open = 0u32;
        for c in self.cells() {
            let (style, extra) = c.look();
            if (style, extra.underline) != *current {
                sgr((style, extra.underline), *current, &mut out);
                *current = (style, extra.underline);
            }
            if extra.link != open {
                match link(extra.link) {
                    Some((id, uri)) => {
                        write_osc8(&mut out, id, uri);
                        open = extra.link;
                    }
                    None if open != 0 => {
                        write_osc8(&mut out, "", "");
                        open = 0;
                    }
                    None => {}
                }
            }
            out.push_str(if c.text.is_empty() { " " } else { c.text });
        }
        if open != 0 {
            write_osc8(&mut out, "", "");
        }
        out
    }

    /// The row's extra number `n` (1 is the first; 0 and unknown numbers give none).
    pub fn extra(&self, n: u16) -> Extra {
        if n == 0 {
            return Extra::default();
        }
        let first = self.styles.len() - self.extra_count();
        self.styles
            .get(first + usize::from(n) - 1)
            .filter(|r| r.start == EXTRA_START)
            .map(StyleRun::held)
            .unwrap_or_default()
    }

    /// Entries at the end of `styles` that hold extras rather than runs.
    fn extra_count(&self) -> usize {
        self.styles
            .iter()
            .rev()
            .take_while(|r| r.start == EXTRA_START)
            .count()
    }

    /// The hyperlink numbers the row's cells carry.
    pub fn links(&self) -> impl Iterator<Item = u32> + '_ {
        self.styles[self.styles.len() - self.extra_count()..]
            .iter()
            .map(|r| r.held().link)
            .filter(|&l| l != 0)
    }

    /// Approximate heap bytes held by this row (for memory accounting).
    pub fn heap_size(&self) -> usize {
        self.text.capacity()
            + self.cells.capacity()
            + self.styles.capacity() * std::mem::size_of::<StyleRun>()
    }
}

/// Cursor position within a pane, 0-based.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub row: u16,
    pub col: u16,
    pub visible: bool,
}

/// What changed in one pane since the sequence number the client last saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaneUpdate {
    pub pane: PaneId,
    /// The pane's sequence number these rows bring the client up to.
    pub seq: u64,
    pub cols: u16,
    pub rows: u16,
    /// `changed` holds every row: replace everything the client had.
    pub full: bool,
    pub changed: Vec<(u16, Arc<Row>)>,
    pub cursor: Cursor,
    pub alternate_screen: bool,
    /// The program asked for mouse reports (any mode).
    pub mouse: bool,
    /// What the program asked of its terminal's input. Absent from older servers:
    /// then nothing was asked.
    #[serde(default)]
    pub input: PaneInput,
    /// The cursor's style and colour as the program set them (passthrough).
    #[serde(default, skip_serializing_if = "CursorLook::is_default")]
    pub cursor_look: CursorLook,
    /// The hyperlinks the rows in `changed` carry (those the pane still knows).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Hyperlink>,
}

/// What a pane's program asked of its terminal's input, which an attached client needs
/// to know to pass input on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneInput {
    /// The kitty keyboard protocol's flags in force (`keys::kitty`); 0: legacy keys.
    #[serde(default)]
    pub kitty: u8,
    /// Focus events (mode 1004).
    #[serde(default)]
    pub focus: bool,
    /// Which mouse events the program asked for.
    #[serde(default)]
    pub mouse: crate::mouse::MouseTracking,
}

/// A window's entry in the status bar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowTab {
    pub index: u32,
    pub name: String,
    pub active: bool,
    pub last: bool,
    pub zoomed: bool,
    pub activity: bool,
    /// A pane of the window rang its bell since the window was last shown (tmux's `!`).
    #[serde(default)]
    pub bell: bool,
    /// The window was silent for `monitor-silence` seconds (tmux's `~`).
    #[serde(default)]
    pub silence: bool,
    /// The window holds the server's marked pane (`select-pane -m`, tmux's `M`).
    #[serde(default)]
    pub marked: bool,
}

/// Where a pane is drawn, its box included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneRect {
    pub pane: PaneId,
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub title: String,
    pub active: bool,
    /// Exit status when the program has exited and the pane was kept.
    pub exit_status: Option<i32>,
    /// A short marker shown in the border (for example an agent state).
    pub badge: Option<String>,
    /// tmux's `pane_index` (pane-base-index counted), which `display-panes` shows.
    #[serde(default)]
    pub index: u32,
    /// What the status line's `#{pane_current_command}`, `#{pane_current_path}` and
    /// `#{pane_pid}` show: the foreground program and its directory as the server last
    /// saw them (a change sends a new layout), and the pane's first process.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub command: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// With tmux's shared borders: the pane's `pane-border-style` and
    /// `pane-active-border-style` (its own, else its window's, else the global ones) and
    /// its `pane-border-format` expanded for it (drawn when `pane-border-status` is on;
    /// `#[...]` style directives left in).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub border_style: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub active_border_style: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub border_text: String,
}

/// How a window's panes are framed when they share tmux's one-cell borders: the
/// window's `pane-border-status`, `pane-border-lines` and `pane-border-indicators`, as
/// tmux's words (`top`, `double`, `arrows`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedBorders {
    pub status: String,
    pub lines: String,
    pub indicators: String,
}

/// Everything an attached client needs to draw the chrome around the panes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientLayout {
    pub session: SessionId,
    pub session_name: String,
    pub windows: Vec<WindowTab>,
    pub panes: Vec<PaneRect>,
    pub cols: u16,
    pub rows: u16,
    /// The session's popup (`display-popup`), drawn over the panes.
    #[serde(default)]
    pub popup: Option<crate::popup::PopupRect>,
    /// None: each pane's rect is its box, border included (fugue's look). Some: the
    /// panes share tmux's one-cell borders and each rect is the pane's own cells
    /// (tmux's `pane_left`, `pane_top`, `pane_width`, `pane_height`); the borders
    /// are the cells of the window no pane covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_borders: Option<Box<SharedBorders>>,
}

/// One push of screen state to an attached client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Present when the layout changed since the client's last frame.
    pub layout: Option<ClientLayout>,
    pub panes: Vec<PaneUpdate>,
    /// A bell to ring, a clipboard to set on the client's terminal.
    #[serde(default, skip_serializing_if = "OuterEvents::is_empty")]
    pub outer: OuterEvents,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rows_need_no_layout_bytes() {
        let r = Row::plain("hello  ");
        assert!(r.cells.is_empty());
        assert_eq!(r.text, "hello");
        assert_eq!(r.to_plain(), "hello");
    }

    #[test]
    fn wide_and_blank_cells_keep_their_columns() {
        let red = Style {
            fg: Color::indexed(1),
            ..Style::default()
        };
        let mut b = RowBuilder::new();
        b.push("a", false, false, Style::default());
        b.push("", false, false, Style::default());
        b.push("日", true, false, red);
        b.push("", false, true, red);
        b.push("b", false, false, Style::default());
        b.push("", false, false, Style::default());
        let r = b.finish(true);
        let cells: Vec<_> = r
            .cells()
            .map(|c| (c.col, c.text, c.wide, c.style == red))
            .collect();
        assert_eq!(
            cells,
            vec![
                (0, "a", false, false),
                (1, "", false, false),
                (2, "日", true, true),
                (4, "b", false, false)
            ]
        );
        assert_eq!(r.to_plain(), "a 日b");
        assert!(r.wrapped);
        assert_eq!(r.to_ansi(), "a \x1b[0;31m日\x1b[0mb");
    }

    #[test]
    fn trailing_styled_blanks_are_kept() {
        let bg = Style {
            bg: Color::indexed(4),
            ..Style::default()
        };
        let mut b = RowBuilder::new();
        b.push("x", false, false, Style::default());
        b.push("", false, false, bg);
        b.push("", false, false, Style::default());
        let r = b.finish(false);
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn extras_are_kept_once_per_row_after_its_runs() {
        let curly = Style {
            attrs: attr::UNDERLINE | attr::CURLY,
            ..Style::default()
        };
        let red = Extra {
            underline: Color::indexed(1),
            link: 0,
        };
        let linked = Extra {
            underline: Color::DEFAULT,
            link: 7,
        };
        let mut b = RowBuilder::new();
        b.push_with("a", false, false, curly, red);
        b.push_with("b", false, false, Style::default(), linked);
        b.push_with("c", false, false, curly, red);
        b.push("d", false, false, Style::default());
        let r = b.finish(false);
        // Two extras for three runs that use them, held once each at the end.
        assert_eq!(
            r.styles.iter().filter(|s| s.start == EXTRA_START).count(),
            2
        );
        let looks: Vec<_> = r.cells().map(|c| (c.text, c.look())).collect();
        assert_eq!(looks[0], ("a", (curly, red)));
        assert_eq!(looks[1], ("b", (Style::default(), linked)));
        assert_eq!(looks[2], ("c", (curly, red)));
        assert_eq!(looks[3], ("d", (Style::default(), Extra::default())));
        assert_eq!(r.links().collect::<Vec<_>>(), vec![7]);
        assert_eq!(r.to_plain(), "abcd");
        // Links are written only when the caller knows them, and closed at the end.
        let uri = |n: u32| (n == 7).then_some(("", "http://x"));
        assert_eq!(
            r.to_ansi_with(uri),
            "\x1b[0;4:3;58;5;1ma\x1b[0m\x1b]8;;http://x\x1b\\b\x1b[0;4:3;58;5;1m\x1b]8;;\x1b\\c\x1b[0md"
        );
        assert_eq!(
            r.to_ansi(),
            "\x1b[0;4:3;58;5;1ma\x1b[0mb\x1b[0;4:3;58;5;1mc\x1b[0md"
        );
    }
}
