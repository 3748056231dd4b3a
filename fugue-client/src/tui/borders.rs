//! tmux's shared pane borders (`pane-borders shared`): the cells of the window no pane
//! covers, drawn as tmux 3.5's `screen-redraw.c` draws them. Which cells are borders,
//! which pane a border cell belongs to (the active pane first), the line character
//! from the borders around a cell (`pane-border-lines`), the active pane's border
//! style (`pane-active-border-style`) on its border and the other panes' style
//! elsewhere, the active half of the border between two panes
//! (`pane-border-indicators colour`), arrows pointing at the active pane (`arrows`),
//! and each pane's `pane-border-format` on the border row above or below it
//! (`pane-border-status`). The rules are tmux's; the code is fugue's.
//!
//! Styles are the pane's own values (the server resolves a pane's, its window's or
//! the global one): Claude Code's agent teams colour each teammate's border.

use super::status_fmt::{self, option_style};
use super::status_layout::cells;
use fugue_protocol::format;
use fugue_protocol::screen::{PaneRect, SharedBorders};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;

/// tmux's `pane-border-status`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Off,
    Top,
    Bottom,
}

/// Where a cell is relative to one pane (tmux's `screen_redraw_border_type`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Inside,
    Outside,
    Left,
    Right,
    Top,
    Bottom,
}

/// tmux's cell types, by the borders around a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    TopBottom,
    LeftRight,
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
    TopJoin,
    BottomJoin,
    LeftJoin,
    RightJoin,
    Join,
    Outside,
}

impl Kind {
    /// The character for this cell in `lines` (`single` for any other word).
    fn glyph(self, lines: &str) -> &'static str {
        let i = self as usize;
        let set: [&str; 12] = match lines {
            "double" => ["║", "═", "╔", "╗", "╚", "╝", "╦", "╩", "╠", "╣", "╬", "·"],
            "heavy" => ["┃", "━", "┏", "┓", "┗", "┛", "┳", "┻", "┣", "┫", "╋", "·"],
            "simple" => ["|", "-", "+", "+", "+", "+", "+", "+", "+", "+", "+", "."],
            _ => ["│", "─", "┌", "┐", "└", "┘", "┬", "┴", "├", "┤", "┼", "·"],
        };
        set.get(i).copied().unwrap_or(" ")
    }
}

/// One window's panes as the border rules see them: coordinates relative to the
/// window, in the layout's order (tmux's pane list).
struct Window<'a> {
    sx: u32,
    sy: u32,
    status: Status,
    /// `pane-border-indicators` `colour` or `both`: two panes share their border half
    /// and half.
    split: bool,
    panes: &'a [PaneRect],
    active: usize,
}

fn span(r: &PaneRect) -> (u32, u32, u32, u32) {
    let (x, y) = (u32::from(r.x), u32::from(r.y));
    (x, y, x + u32::from(r.width), y + u32::from(r.height))
}

impl Window<'_> {
    /// Whether the window's second pane is beside (direction 0) or below (1) the
    /// first, with no third (tmux's `screen_redraw_two_panes`).
    fn two_panes(&self, below: bool) -> bool {
        match self.panes {
            [_, second] => {
                if below {
                    second.y != 0
                } else {
                    second.x != 0
                }
            }
            _ => false,
        }
    }

    /// Where (`px`, `py`) is relative to pane `i` (tmux's `screen_redraw_pane_border`).
    fn side(&self, i: usize, px: u32, py: u32) -> Side {
        let Some(p) = self.panes.get(i) else {
            return Side::Outside;
        };
        let (xoff, yoff, ex, ey) = span(p);
        let (sx, sy) = (u32::from(p.width), u32::from(p.height));
        if px >= xoff && px < ex && py >= yoff && py < ey {
            return Side::Inside;
        }
        let left_of = |px: u32| xoff != 0 && px + 1 == xoff;
        let above = |py: u32| yoff != 0 && py + 1 == yoff;
        let rows = (yoff == 0 || py + 1 >= yoff) && py <= ey;
        let cols = (xoff == 0 || px + 1 >= xoff) && px <= ex;
        if self.status == Status::Off && self.split && self.two_panes(false) {
            if xoff == 0 && px == sx && py <= sy / 2 {
                return Side::Right;
            }
            if left_of(px) && py > sy / 2 {
                return Side::Left;
            }
        } else if rows {
            if left_of(px) {
                return Side::Left;
            }
            if px == ex {
                return Side::Right;
            }
        }
        match self.status {
            Status::Off if self.split && self.two_panes(true) => {
                if yoff == 0 && py == sy && px <= sx / 2 {
                    return Side::Bottom;
                }
                if above(py) && px > sx / 2 {
                    return Side::Top;
                }
            }
            Status::Off => {
                if cols && above(py) {
                    return Side::Top;
                }
                if cols && py == ey {
                    return Side::Bottom;
                }
            }
            Status::Top if cols && above(py) => return Side::Top,
            Status::Bottom if cols && py == ey => return Side::Bottom,
            _ => {}
        }
        Side::Outside
    }

    /// Whether a cell is a border (tmux's `screen_redraw_cell_border`).
    fn is_border(&self, px: u32, py: u32) -> bool {
        if px > self.sx || py > self.sy {
            return false;
        }
        if px == self.sx || py == self.sy {
            return true;
        }
        for i in 0..self.panes.len() {
            match self.side(i, px, py) {
                Side::Inside => return false,
                Side::Outside => {}
                _ => return true,
            }
        }
        false
    }

    /// The cell's kind from the borders around it (tmux's
    /// `screen_redraw_type_of_cell`; the window's edges count as borders beyond).
    fn kind(&self, px: u32, py: u32) -> Kind {
        if px > self.sx || py > self.sy {
            return Kind::Outside;
        }
        let left = px == 0 || self.is_border(px - 1, py);
        let right = self.is_border(px + 1, py);
        let up = match self.status {
            Status::Top => py != 0 && self.is_border(px, py - 1),
            _ => py == 0 || self.is_border(px, py - 1),
        };
        let down = match self.status {
            Status::Bottom => py + 1 != self.sy && self.is_border(px, py + 1),
            _ => self.is_border(px, py + 1),
        };
        match (left, right, up, down) {
            (true, true, true, true) => Kind::Join,
            (true, true, true, false) => Kind::BottomJoin,
            (true, true, false, true) => Kind::TopJoin,
            (true, true, false, false) => Kind::LeftRight,
            (true, false, true, true) => Kind::RightJoin,
            (true, false, true, false) => Kind::BottomRight,
            (true, false, false, true) => Kind::TopRight,
            (false, true, true, true) => Kind::LeftJoin,
            (false, true, true, false) => Kind::BottomLeft,
            (false, true, false, true) => Kind::TopLeft,
            (false, false, true, true) => Kind::TopBottom,
            _ => Kind::Outside,
        }
    }

    /// The panes from the active one on, wrapping (tmux looks at the active first).
    fn active_first(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.panes.len();
        (0..n).map(move |k| (self.active + k) % n.max(1))
    }

    /// The row and columns of pane `i`'s status text: `pane-border-format` goes on
    /// its border row, two cells in, four cells narrower than the pane.
    fn status_span(&self, i: usize) -> Option<(u32, u32, u32)> {
        let p = self.panes.get(i)?;
        let (xoff, yoff, _, ey) = span(p);
        let width = u32::from(p.width).checked_sub(4)?;
        let row = match self.status {
            Status::Off => return None,
            Status::Top => yoff.checked_sub(1)?,
            Status::Bottom => ey,
        };
        Some((row, xoff + 2, width))
    }

    /// What to draw at a cell that is no pane's: None inside a pane or a status text;
    /// else the cell's kind and the pane it belongs to (tmux's
    /// `screen_redraw_check_cell`).
    fn cell(&self, px: u32, py: u32) -> Option<(Kind, Option<usize>)> {
        if px > self.sx || py > self.sy {
            return Some((Kind::Outside, None));
        }
        for i in self.active_first() {
            if let Some((row, x, w)) = self.status_span(i)
                && py == row
                && px >= x
                && px < x + w
            {
                return None;
            }
        }
        for i in self.active_first() {
            match self.side(i, px, py) {
                Side::Inside => return None,
                Side::Outside => {}
                _ => return Some((self.kind(px, py), Some(i))),
            }
        }
        Some((Kind::Outside, None))
    }

    /// Whether a cell is on the active pane's border (tmux's `screen_redraw_check_is`).
    fn on_active(&self, px: u32, py: u32) -> bool {
        !matches!(self.side(self.active, px, py), Side::Inside | Side::Outside)
    }

    /// tmux's arrow on the active pane's border, one cell in from the pane's corner.
    fn arrow(&self, owner: usize, kind: Kind, px: u32, py: u32) -> Option<&'static str> {
        let p = self.panes.get(owner)?;
        let border = self.side(self.active, px, py);
        let across = px == u32::from(p.x) + 1
            && (kind == Kind::LeftRight
                || (kind == Kind::TopJoin && border == Side::Bottom)
                || (kind == Kind::BottomJoin && border == Side::Top));
        let down = py == u32::from(p.y) + 1
            && (kind == Kind::TopBottom
                || (kind == Kind::LeftJoin && border == Side::Right)
                || (kind == Kind::RightJoin && border == Side::Left));
        if !(across || down) || !self.on_active(px, py) {
            return None;
        }
        match border {
            Side::Left => Some("→"),
            Side::Right => Some("←"),
            Side::Top => Some("↓"),
            Side::Bottom => Some("↑"),
            _ => None,
        }
    }
}

/// The glyph for a border cell of `owner`'s in `lines`: `number` draws the pane's
/// index.
fn glyph(lines: &str, kind: Kind, owner: Option<&PaneRect>) -> String {
    if lines == "number" && kind != Kind::Outside {
        return owner.map_or("*".to_string(), |p| (p.index % 10).to_string());
    }
    kind.glyph(lines).to_string()
}

/// Draws the borders and status texts of `panes`, laid out in a window of
/// `cols` x `rows` at `area`'s corner (cells outside `area` are left alone).
pub fn draw(
    buf: &mut Buffer,
    look: &SharedBorders,
    panes: &[PaneRect],
    (cols, rows): (u16, u16),
    area: Rect,
) {
    let Some(active) = panes.iter().position(|p| p.active) else {
        return;
    };
    let w = Window {
        sx: u32::from(cols),
        sy: u32::from(rows),
        status: match look.status.as_str() {
            "top" => Status::Top,
            "bottom" => Status::Bottom,
            _ => Status::Off,
        },
        split: matches!(look.indicators.as_str(), "colour" | "both"),
        panes,
        active,
    };
    let arrows = matches!(look.indicators.as_str(), "arrows" | "both");
    let style_of = |p: &PaneRect, active: bool| {
        option_style(
            Style::default(),
            if active {
                &p.active_border_style
            } else {
                &p.border_style
            },
        )
    };
    let width = cols.min(area.width);
    let height = rows.min(area.height);
    for y in 0..height {
        for x in 0..width {
            let (px, py) = (u32::from(x), u32::from(y));
            let Some((kind, owner)) = w.cell(px, py) else {
                continue;
            };
            let pane = owner.and_then(|i| panes.get(i));
            let style = match pane.or(panes.get(active)) {
                Some(p) => style_of(p, pane.is_some() && w.on_active(px, py)),
                None => Style::default(),
            };
            let mut text = glyph(&look.lines, kind, pane);
            if arrows && let Some(a) = owner.and_then(|i| w.arrow(i, kind, px, py)) {
                text = a.to_string();
            }
            if let Some(c) = buf.cell_mut(Position::new(area.x + x, area.y + y)) {
                c.reset();
                c.set_symbol(&text);
                c.set_style(style);
            }
        }
    }
    for (i, p) in panes.iter().enumerate() {
        draw_status(buf, &w, i, &look.lines, style_of(p, i == active), area);
    }
}

/// Pane `i`'s status text: border lines in the pane's border style, the expanded
/// `pane-border-format` over them (its `#[...]` styles on that style).
fn draw_status(buf: &mut Buffer, w: &Window<'_>, i: usize, lines: &str, base: Style, area: Rect) {
    let (Some((row, x0, width)), Some(p)) = (w.status_span(i), w.panes.get(i)) else {
        return;
    };
    let mut line: Vec<(String, Style)> = (0..width)
        .map(|k| (glyph(lines, w.kind(x0 + k, row), Some(p)), base))
        .collect();
    let mut at = 0usize;
    for s in format::spans(&p.border_text) {
        let style = status_fmt::apply(base, &s.style);
        for c in cells(&s.text, style, None) {
            if let Some(slot) = line.get_mut(at) {
                *slot = (c.text, c.style);
            }
            at += 1;
        }
    }
    for (k, (text, style)) in line.into_iter().enumerate() {
        let (Ok(dx), Ok(x0), Ok(y)) = (u16::try_from(k), u16::try_from(x0), u16::try_from(row))
        else {
            continue;
        };
        let (x, y) = (x0.saturating_add(dx), y);
        if x >= area.width || y >= area.height {
            continue;
        }
        if let Some(c) = buf.cell_mut(Position::new(area.x + x, area.y + y)) {
            if text.is_empty() {
                c.reset();
            } else {
                c.set_symbol(&text);
            }
            c.set_style(style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::PaneId;

    fn pane(id: u32, x: u16, y: u16, width: u16, height: u16, active: bool) -> PaneRect {
        PaneRect {
            pane: PaneId(id),
            x,
            y,
            width,
            height,
            title: String::new(),
            active,
            exit_status: None,
            badge: None,
            index: id,
            command: String::new(),
            path: String::new(),
            pid: None,
            border_style: String::new(),
            active_border_style: "fg=green".into(),
            border_text: String::new(),
        }
    }

    fn screen(look: &SharedBorders, panes: &[PaneRect], cols: u16, rows: u16) -> Vec<String> {
        let area = Rect::new(0, 0, cols, rows);
        let mut buf = Buffer::empty(area);
        draw(&mut buf, look, panes, (cols, rows), area);
        (0..rows)
            .map(|y| {
                (0..cols)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect()
            })
            .collect()
    }

    fn look(status: &str, lines: &str, indicators: &str) -> SharedBorders {
        SharedBorders {
            status: status.into(),
            lines: lines.into(),
            indicators: indicators.into(),
        }
    }

    #[test]
    fn a_side_by_side_split_has_one_divider_with_a_join() {
        // %0 left, %1 top right, %2 bottom right, in a 9x5 window.
        let panes = [
            pane(0, 0, 0, 4, 5, true),
            pane(1, 5, 0, 4, 2, false),
            pane(2, 5, 3, 4, 2, false),
        ];
        let s = screen(&look("off", "single", "colour"), &panes, 9, 5);
        let col: Vec<String> = s.iter().map(|l| l.chars().nth(4).unwrap().into()).collect();
        assert_eq!(col, ["│", "│", "├", "│", "│"]);
        assert_eq!(s[2], "    ├────");
    }

    #[test]
    fn line_sets_and_the_number_set() {
        let panes = [pane(0, 0, 0, 3, 3, true), pane(1, 4, 0, 3, 3, false)];
        let double = screen(&look("off", "double", "off"), &panes, 7, 3);
        assert!(double.iter().all(|l| l.contains('║')), "{double:?}");
        let number = screen(&look("off", "number", "off"), &panes, 7, 3);
        assert!(number.iter().all(|l| l.contains('0')), "{number:?}");
    }

    #[test]
    fn the_status_text_goes_two_cells_in_on_the_row_above() {
        let mut panes = [pane(0, 0, 1, 10, 3, true)];
        panes[0].border_text = "ab".into();
        let s = screen(&look("top", "single", "colour"), &panes, 10, 4);
        assert_eq!(s[0], "──ab──────");
    }

    #[test]
    fn arrows_point_at_the_active_pane() {
        let panes = [pane(0, 0, 0, 4, 5, false), pane(1, 5, 0, 4, 5, true)];
        let s = screen(&look("off", "single", "arrows"), &panes, 9, 5);
        assert_eq!(s[1].chars().nth(4), Some('→'), "{s:?}");
    }
}
