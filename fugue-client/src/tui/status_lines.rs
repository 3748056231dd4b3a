//! tmux's `status` 2 to 5: the lines after the first, each drawn from its
//! `status-format[N]` (tmux's default for line 1 shows the current window's panes;
//! lines without a format are blank). The first line stays the usual status line
//! (`status.rs`). Spans are placed by their `align=` (left, centre, right) as tmux's
//! `format_draw` places them.

use super::state::App;
use super::status_fmt::{self, StatusCtx, option_style};
use super::status_layout::{Cell, cells};
use fugue_protocol::format::style::Align;
use fugue_protocol::format::{self, FormatContext, LoopItem};
use fugue_protocol::screen::PaneRect;
use fugue_protocol::status_line::DEFAULT_FORMAT_1;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;

/// The status line's context with the current window's panes, for `#{P:}`.
struct LinesCtx<'a> {
    base: StatusCtx<'a>,
    /// The pane of a `#{P:}` iteration, and its index in the layout.
    pane: Option<(&'a PaneRect, usize)>,
}

impl LinesCtx<'_> {
    /// The cells a pane's rect has beyond its screen in each direction.
    fn border(&self) -> u16 {
        match self.base.layout.is_some_and(|l| l.shared_borders.is_some()) {
            true => 0,
            false => 2,
        }
    }

    fn pane_var(&self, name: &str) -> Option<String> {
        let (p, index) = self.pane?;
        Some(match name {
            "pane_index" => index.to_string(),
            "pane_active" => if p.active { "1" } else { "0" }.into(),
            "pane_id" => format!("%{}", p.pane.0),
            "pane_title" => p.title.clone(),
            // The pane's own screen, as tmux's sizes count it: inside its box, or
            // the whole rect with tmux's shared borders.
            "pane_width" => p.width.saturating_sub(self.border()).to_string(),
            "pane_height" => p.height.saturating_sub(self.border()).to_string(),
            _ => return None,
        })
    }
}

impl FormatContext for LinesCtx<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.pane_var(name).or_else(|| self.base.var(name))
    }

    fn windows(&self) -> Vec<LoopItem<'_>> {
        self.base.windows()
    }

    fn panes(&self) -> Vec<LoopItem<'_>> {
        let Some(l) = self.base.layout else {
            return Vec::new();
        };
        l.panes
            .iter()
            .enumerate()
            .map(|(i, p)| LoopItem {
                ctx: Box::new(LinesCtx {
                    base: StatusCtx { ..self.base },
                    pane: Some((p, i)),
                }),
                current: p.active,
            })
            .collect()
    }

    fn shell_output(&self, command: &str) -> Option<String> {
        self.base.shell_output(command)
    }

    fn now(&self) -> i64 {
        self.base.now()
    }

    fn utc_offset(&self, at: i64) -> i64 {
        self.base.utc_offset(at)
    }
}

/// The format of line `n` (from 1).
fn format_of(app: &App, n: usize) -> &str {
    match app.status_opts.formats.get(n).map(String::as_str) {
        Some(f) if !f.is_empty() => f,
        _ if n == 1 => DEFAULT_FORMAT_1,
        _ => "",
    }
}

/// Line `n` (from 1) of `width` columns.
fn line(app: &App, n: usize, width: usize) -> Vec<Option<Cell>> {
    let base = option_style(Style::default(), &app.status_opts.style);
    let ctx = LinesCtx {
        base: app.status_ctx(),
        pane: None,
    };
    let text = format::expand_time(format_of(app, n), &ctx);
    let (mut left, mut centre, mut right) = (Vec::new(), Vec::new(), Vec::new());
    for span in format::spans(&text) {
        let part = match span.style.align {
            Align::Left => &mut left,
            Align::Centre | Align::Absolute => &mut centre,
            Align::Right => &mut right,
        };
        part.extend(cells(
            &span.text,
            status_fmt::apply(base, &span.style),
            None,
        ));
    }
    let mut out: Vec<Option<Cell>> = vec![None; width];
    let mut put = |from: usize, part: Vec<Cell>| {
        for (i, c) in part.into_iter().enumerate() {
            if let Some(slot) = out.get_mut(from + i) {
                *slot = Some(c);
            }
        }
    };
    // tmux's format_draw: half the width less half the part.
    let centre_at = (width / 2).saturating_sub(centre.len() / 2);
    let right_at = width.saturating_sub(right.len());
    put(0, left);
    put(centre_at, centre);
    put(right_at, right);
    out
}

/// Draws lines 1.. of the status line into the rows of `area` after its first.
pub fn draw(buf: &mut Buffer, app: &App, area: Rect) {
    let base = option_style(Style::default(), &app.status_opts.style);
    for dy in 1..area.height {
        let y = area.y + dy;
        let row = Rect::new(area.x, y, area.width, 1);
        buf.set_style(row, base);
        for x in row.x..row.x + row.width {
            if let Some(c) = buf.cell_mut(Position::new(x, y)) {
                c.set_symbol(" ");
            }
        }
        let cells = line(app, usize::from(dy), usize::from(area.width));
        for (i, cell) in cells.into_iter().enumerate() {
            let (Some(cell), Ok(dx)) = (cell, u16::try_from(i)) else {
                continue;
            };
            if let Some(c) = buf.cell_mut(Position::new(area.x + dx, y)) {
                if cell.text.is_empty() {
                    c.reset();
                } else {
                    c.set_symbol(&cell.text);
                }
                c.set_style(cell.style);
            }
        }
    }
}
