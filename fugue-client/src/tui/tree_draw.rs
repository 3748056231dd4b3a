//! Drawing `choose-tree` and `find-window` (`tree.rs`) as tmux's tree mode lays
//! them out: the list at the top (each of the first ten items with its key in
//! parentheses, the tree drawn with `├─>` / `└─>`, `+` / `-` on items that have
//! children), the selected line in tmux's `mode-style` (black on yellow), tagged
//! items bold, and a box below with the selected item's preview, titled with its name
//! and the sort order. Questions and prompts go on the status line.

use super::tree::{Line, Shown, Tree};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line as TextLine;
use ratatui::widgets::{Block, Clear, Widget};

/// The list's height on a screen of `sy` rows, as tmux's mode-tree computes it:
/// two thirds, half when the list is shorter than that, all of it when too little
/// room would be left for the preview.
fn list_height(sy: u16, lines: usize, preview: bool) -> u16 {
    if !preview {
        return sy;
    }
    let mut h = (sy / 3) * 2;
    if usize::from(h) > lines {
        h = sy / 2;
    }
    if h < 10 || sy.saturating_sub(h) < 2 {
        h = sy;
    }
    h
}

/// The first line of the list shown on `area` (the selection stays in view) and the
/// list's height.
pub fn shown_lines(tree: &Tree, area: Rect) -> (usize, u16) {
    let h = list_height(area.height, tree.lines.len(), tree.preview);
    let at = tree.position();
    let rows = usize::from(h);
    (if at >= rows { at + 1 - rows } else { 0 }, h)
}

/// The tree's drawing prefix for each line: `├─> ` / `└─> ` and, for a pane, the
/// `│   ` of its window's column.
fn prefixes(lines: &[Line]) -> Vec<String> {
    let mut window_last = false;
    lines
        .iter()
        .map(|l| {
            let branch = if l.last { "└─> " } else { "├─> " };
            let mut p = match l.depth {
                0 => String::new(),
                1 => {
                    window_last = l.last;
                    branch.to_string()
                }
                _ => format!("{}{branch}", if window_last { "    " } else { "│   " }),
            };
            p.push_str(match l.expanded {
                Some(true) => "- ",
                Some(false) => "+ ",
                None if l.pad => "  ",
                None => "",
            });
            p
        })
        .collect()
}

fn put(buf: &mut Buffer, area: Rect, y: u16, text: &str, style: Style) {
    let line = TextLine::styled(text.to_string(), style);
    let row = Rect::new(area.x, y, area.width, 1);
    buf.set_style(row, style);
    line.render(row, buf);
}

/// Draws the tree over `area` (the panes' area) and its question on `status`.
pub fn draw(
    buf: &mut Buffer,
    tree: &Tree,
    area: Rect,
    status: Option<Rect>,
    colours: (Color, Color),
) {
    Clear.render(area, buf);
    if tree.sessions.is_none() || tree.panes.is_none() {
        put(buf, area, area.y, "...", Style::default());
        return;
    }
    let (top, h) = shown_lines(tree, area);
    let at = tree.position();
    let rows = usize::from(h);
    let prefixes = prefixes(&tree.lines);
    let selected = Style::default().bg(Color::Yellow).fg(Color::Black);
    for (i, (l, prefix)) in tree
        .lines
        .iter()
        .zip(&prefixes)
        .enumerate()
        .skip(top)
        .take(rows)
    {
        let key = if i < 10 {
            format!("({i}) ")
        } else {
            "    ".to_string()
        };
        let text = format!("{key}{prefix}{}: {}", l.name, l.text);
        let mut style = Style::default();
        if tree.tagged.contains(&l.node) {
            style = style.add_modifier(Modifier::BOLD);
        }
        if i == at {
            style = selected.patch(style);
        }
        let Ok(dy) = u16::try_from(i - top) else {
            break;
        };
        put(buf, area, area.y + dy, &text, style);
    }
    if h < area.height {
        let r = Rect::new(area.x, area.y + h, area.width, area.height - h);
        let name = tree
            .lines
            .get(at)
            .map(|l| l.name.clone())
            .unwrap_or_default();
        let block = Block::bordered().title(format!(" {name} (sort: {}) ", tree.sort.name()));
        let inner = block.inner(r);
        block.render(r, buf);
        // tmux leaves a column free inside each side of the box.
        let room = Rect::new(
            inner.x + 1,
            inner.y,
            inner.width.saturating_sub(2),
            inner.height,
        );
        draw_preview(buf, tree, room, colours);
    }
    if let (Some(ask), Some(s)) = (&tree.ask, status) {
        let (prompt, text) = ask.shown(tree);
        let style = Style::default().bg(Color::Yellow).fg(Color::Black);
        put(buf, s, s.y, &format!("{prompt}{text}"), style);
    }
}

/// The preview, as tmux's window tree draws it: the panes side by side (as many as
/// fit 24 columns each, around the active one), a line between them, each showing the
/// part of its screen around its cursor, its index in a box in the middle.
fn draw_preview(buf: &mut Buffer, tree: &Tree, area: Rect, (colour, active): (Color, Color)) {
    let items = tree.preview_items();
    let total = items.len();
    if total == 0 || area.width == 0 || area.height == 0 {
        return;
    }
    let sx = usize::from(area.width);
    let visible = if sx / total < 24 {
        (sx / 24).max(1)
    } else {
        total
    };
    let current = items.iter().position(|s| s.active).unwrap_or(0);
    let start = if current < visible {
        0
    } else if current >= total - visible {
        total - visible
    } else {
        current - visible / 2
    };
    let shown = &items[start..(start + visible).min(total)];
    let each = sx / shown.len().max(1);
    let remaining = sx - each * shown.len();
    for (i, item) in shown.iter().enumerate() {
        let last = i + 1 == shown.len();
        let width = if last {
            each + remaining
        } else {
            each.saturating_sub(1)
        };
        let (Ok(x), Ok(w)) = (u16::try_from(i * each), u16::try_from(width)) else {
            break;
        };
        let col = Rect::new(area.x + x, area.y, w, area.height);
        if let Some(text) = tree.previews.get(&item.pane.id) {
            screen_part(buf, col, item, text);
        }
        if let Some(label) = item.label {
            let c = if item.active { active } else { colour };
            draw_label(
                buf,
                Rect::new(col.x, col.y, u16::try_from(each).unwrap_or(w), col.height),
                &format!(" {label} "),
                c,
            );
        }
        if !last {
            for dy in 0..area.height {
                if let Some(cell) = buf.cell_mut((col.x + w, area.y + dy)) {
                    cell.set_char('│');
                }
            }
        }
    }
}

/// The part of a pane's screen that fits `col`: around its cursor, as tmux's
/// `screen_write_preview` picks it.
fn screen_part(buf: &mut Buffer, col: Rect, item: &Shown, text: &str) {
    let (nx, ny) = (usize::from(col.width), usize::from(col.height));
    let (sx, sy) = (usize::from(item.pane.width), usize::from(item.pane.height));
    let around = |c: usize, n: usize, size: usize| {
        let p = c.saturating_sub(n / 3);
        if p + n > size {
            size.saturating_sub(n)
        } else {
            p
        }
    };
    let px = around(usize::from(item.pane.cursor_col), nx, sx);
    let py = around(usize::from(item.pane.cursor_row), ny, sy);
    for (dy, line) in text.lines().skip(py).take(ny).enumerate() {
        let Ok(dy) = u16::try_from(dy) else { break };
        let clean: String = line.chars().filter(|c| !c.is_control()).skip(px).collect();
        buf.set_stringn(col.x, col.y + dy, clean, nx, Style::default());
    }
}

/// A label in a box in the middle of `area`, as tmux's `window_tree_draw_label`.
fn draw_label(buf: &mut Buffer, area: Rect, label: &str, colour: Color) {
    let len = u16::try_from(label.chars().count()).unwrap_or(u16::MAX);
    let (sx, sy) = (area.width, area.height);
    if sx == 0 || sy == 1 || len > sx {
        return;
    }
    let ox = (sx - len).div_ceil(2);
    let oy = sy.div_ceil(2);
    if ox > 1 && ox + len < sx.saturating_sub(1) && sy >= 3 {
        let r = Rect::new(area.x + ox - 1, area.y + oy - 1, len + 2, 3);
        Clear.render(r, buf);
        Block::bordered().render(r, buf);
    }
    buf.set_string(area.x + ox, area.y + oy, label, Style::default().fg(colour));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::tree::Node;
    use fugue_protocol::{PaneId, SessionId, WindowId};

    #[test]
    fn the_list_takes_what_tmuxs_mode_tree_gives_it() {
        // tmux 3.3a at 80x24 (23 rows for the tree), five items: the list has 11 rows.
        assert_eq!(list_height(23, 5, true), 11);
        assert_eq!(list_height(23, 20, true), 14);
        // Too small to share: the list takes it all.
        assert_eq!(list_height(12, 3, true), 12);
        assert_eq!(list_height(23, 5, false), 23);
    }

    fn line(node: Node, depth: u8, expanded: Option<bool>, last: bool, pad: bool) -> Line {
        Line {
            node,
            depth,
            expanded,
            last,
            pad,
            name: String::new(),
            text: String::new(),
        }
    }

    #[test]
    fn the_tree_is_drawn_with_tmuxs_branches() {
        let lines = [
            line(Node::Session(SessionId(1)), 0, Some(true), false, true),
            line(Node::Window(WindowId(1)), 1, Some(true), false, true),
            line(Node::Pane(PaneId(1)), 2, None, false, false),
            line(Node::Pane(PaneId(2)), 2, None, true, false),
            line(Node::Window(WindowId(2)), 1, None, true, true),
            line(Node::Session(SessionId(2)), 0, Some(false), true, true),
        ];
        assert_eq!(
            prefixes(&lines),
            ["- ", "├─> - ", "│   ├─> ", "│   └─> ", "└─>   ", "+ "]
        );
    }
}
