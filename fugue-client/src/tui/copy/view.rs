//! Drawing copy mode: the frozen view, search matches in reverse video, the selection
//! in tmux's mode style (black on yellow), the mark underlined, the `[n/m]` indicator
//! at the top right, and the terminal's cursor at copy mode's cursor.

use super::CopyMode;
use super::motion::{Grid, Point};
use crate::tui::paint::Links;
use crate::tui::render::{Canvas, draw_row};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};

/// tmux's `mode-style` (the selection, the indicator).
pub const MODE_STYLE: Style = Style::new().fg(Color::Black).bg(Color::Yellow);

/// Draws copy mode in `inner` (a pane's inside); returns where the cursor goes.
pub fn draw(buf: &mut Buffer, links: &mut Links, inner: Rect, c: &CopyMode) -> Option<Position> {
    for y in 0..inner.height {
        let line = c.top + u64::from(y);
        let sy = inner.y + y;
        match c.row(line) {
            Some(row) => {
                let mut canvas = Canvas {
                    buf: &mut *buf,
                    links: &mut *links,
                    known: &c.links,
                };
                draw_row(&mut canvas, inner, sy, row);
                if let Some(s) = &c.search {
                    for (start, end) in s.matches_in(row) {
                        for x in start..end.min(inner.width) {
                            if let Some(cell) = buf.cell_mut((inner.x + x, sy)) {
                                cell.set_style(Style::default().add_modifier(Modifier::REVERSED));
                            }
                        }
                    }
                }
            }
            None => {
                for x in inner.x..inner.x + inner.width {
                    if let Some(cell) = buf.cell_mut((x, sy)) {
                        cell.reset();
                    }
                }
                links.clear(Rect::new(inner.x, sy, inner.width, 1));
            }
        }
        if let Some(sel) = &c.selection {
            // A wide character shows as selected whole when either half is (the copy
            // takes it whole too), so a rectangle's edge never shows half of one.
            let wide: Vec<u16> = c
                .row(line)
                .map(|r| r.cells().filter(|c| c.wide).map(|c| c.col).collect())
                .unwrap_or_default();
            for x in 0..inner.width {
                let start = if x > 0 && wide.contains(&(x - 1)) {
                    x - 1
                } else {
                    x
                };
                let cols = if wide.contains(&start) {
                    start..start + 2
                } else {
                    x..x + 1
                };
                if cols
                    .clone()
                    .any(|col| sel.contains(c.cursor, Point::new(line, col)))
                {
                    for col in cols.filter(|col| *col < inner.width) {
                        if let Some(cell) = buf.cell_mut((inner.x + col, sy)) {
                            cell.set_style(MODE_STYLE);
                        }
                    }
                }
            }
        }
        if let Some(m) = c.mark
            && m.line == line
            && m.col < inner.width
            && let Some(cell) = buf.cell_mut((inner.x + m.col, sy))
        {
            cell.set_style(Style::default().add_modifier(Modifier::UNDERLINED));
        }
    }
    if c.loaded() {
        // How far the view's top is above the live screen now, and the history.
        let tag = format!("[{}/{}]", c.total_now.saturating_sub(c.top), c.history_now);
        let x = (inner.x + inner.width).saturating_sub(tag.len() as u16);
        buf.set_string(x, inner.y, tag, MODE_STYLE);
    }
    let _ = c.width();
    let line = c.cursor.line.checked_sub(c.top)?;
    (c.loaded() && line < u64::from(inner.height) && c.cursor.col < inner.width)
        .then(|| Position::new(inner.x + c.cursor.col, inner.y + line as u16))
}
