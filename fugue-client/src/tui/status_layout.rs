//! Where the parts of the status line go: tmux 3.3a's `format_draw` for the default
//! `status-format`, with the parts fugue draws (left, the window list, right).
//!
//! Each part is a run of cells. The window list goes after the left part (`left`),
//! between left and right (`centre`), before the right part (`right`) or in the
//! middle of the whole line (`absolute-centre`), as `status-justify` says. When the
//! parts do not fit, tmux trims the list first, then the right part (from its left
//! edge), then the left part (from its right edge); a trimmed list keeps the current
//! window in view, with `<` and `>` where windows are cut off.

use fugue_protocol::status_line::StatusJustify;
use ratatui::style::Style;

/// One column of the status line. A wide character's second column is a cell with
/// empty text.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    pub style: Style,
    /// The window whose label this cell is part of (a click here selects it).
    pub window: Option<u32>,
    /// Part of `status-left` or `status-right` (tmux's `range=left`/`range=right`,
    /// which name the mouse keys `...StatusLeft` and `...StatusRight`).
    pub side: Option<Side>,
}

/// Which end of the line a cell belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// Cells for `text` in `style`, one per column.
pub fn cells(text: &str, style: Style, window: Option<u32>) -> Vec<Cell> {
    use unicode_width::UnicodeWidthChar;
    let mut out = Vec::new();
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if w == 0 {
            // Combining marks join the previous cell; control characters are dropped.
            if !ch.is_control()
                && let Some(last) = out.last_mut().map(|c: &mut Cell| &mut c.text)
            {
                last.push(ch);
            }
            continue;
        }
        out.push(Cell {
            text: ch.to_string(),
            style,
            window,
            side: None,
        });
        for _ in 1..w {
            out.push(Cell {
                text: String::new(),
                style,
                window,
                side: None,
            });
        }
    }
    out
}

/// The parts of the line.
pub struct Parts {
    pub left: Vec<Cell>,
    pub right: Vec<Cell>,
    /// The windows' labels and separators, in order.
    pub list: Vec<Cell>,
    /// The columns of the current window within `list`.
    pub focus: Option<(usize, usize)>,
    /// `<` and `>`, drawn where the list is cut.
    pub marker_left: Vec<Cell>,
    pub marker_right: Vec<Cell>,
}

/// Copies `src[start..start + width]` to `line` at `offset`.
fn put(line: &mut [Option<Cell>], offset: usize, src: &[Cell], start: usize, width: usize) {
    for (i, c) in src.iter().skip(start).take(width).enumerate() {
        if let Some(slot) = line.get_mut(offset + i) {
            *slot = Some(c.clone());
        }
    }
}

/// tmux's format_draw_put_list: the list in `width` columns at `offset`, keeping the
/// focus in view and marking what is cut.
fn put_list(line: &mut [Option<Cell>], mut offset: usize, mut width: usize, p: &Parts) {
    let len = p.list.len();
    if width >= len {
        put(line, offset, &p.list, 0, width);
        return;
    }
    let (fs, fe) = p.focus.unwrap_or((0, 0));
    let centre = fs + fe.saturating_sub(fs) / 2;
    let mut start = centre.saturating_sub(width / 2);
    if start + width > len {
        start = len - width;
    }
    let (ml, mr) = (p.marker_left.len(), p.marker_right.len());
    if start != 0 && width > ml {
        put(line, offset, &p.marker_left, 0, ml);
        offset += ml;
        start += ml;
        width -= ml;
    }
    if start + width < len && width > mr {
        put(line, offset + width - mr, &p.marker_right, 0, mr);
        width -= mr;
    }
    put(line, offset, &p.list, start, width);
}

/// The line of `available` columns; None where nothing is drawn (the line's own style
/// shows there).
pub fn layout(p: &Parts, available: usize, justify: StatusJustify) -> Vec<Option<Cell>> {
    let mut line: Vec<Option<Cell>> = vec![None; available];
    let (mut wl, mut wr, mut wlist) = (p.left.len(), p.right.len(), p.list.len());
    if justify == StatusJustify::AbsoluteCentre {
        // The list is drawn over the rest, trimmed on its own.
        while wl + wr > available {
            if wr > 0 {
                wr -= 1;
            } else {
                wl -= 1;
            }
        }
        wlist = wlist.min(available);
    } else {
        // Centre trims the list first too; left and right: the list, then the right,
        // then the left (there is no centre part or text after the list here).
        while wl + wr + wlist > available {
            if wlist > 0 {
                wlist -= 1;
            } else if wr > 0 {
                wr -= 1;
            } else {
                wl -= 1;
            }
        }
    }
    put(&mut line, 0, &p.left, 0, wl);
    put(&mut line, available - wr, &p.right, p.right.len() - wr, wr);
    if wlist == 0 {
        return line;
    }
    let at = match justify {
        StatusJustify::Left => wl,
        StatusJustify::Centre => {
            let middle = wl + (available - wr - wl) / 2;
            middle - wlist / 2
        }
        StatusJustify::Right => available - wr - wlist,
        StatusJustify::AbsoluteCentre => (available - wlist) / 2,
    };
    put_list(&mut line, at, wlist, p);
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(left: &str, list: &[&str], current: usize, right: &str) -> Parts {
        let st = Style::default();
        let mut cells_list = Vec::new();
        let mut focus = None;
        for (i, w) in list.iter().enumerate() {
            if i > 0 {
                cells_list.extend(cells(" ", st, None));
            }
            let start = cells_list.len();
            cells_list.extend(cells(w, st, u32::try_from(i).ok()));
            if i == current {
                focus = Some((start, cells_list.len()));
            }
        }
        Parts {
            left: cells(left, st, None),
            right: cells(right, st, None),
            list: cells_list,
            focus,
            marker_left: cells("<", st, None),
            marker_right: cells(">", st, None),
        }
    }

    fn text(line: &[Option<Cell>]) -> String {
        line.iter()
            .map(|c| c.as_ref().map_or(" ", |c| c.text.as_str()))
            .collect()
    }

    #[test]
    fn left_list_right_as_tmux_lays_them_out() {
        let p = parts("[s] ", &["0:sh-", "1:vi*"], 1, "\"t\" 12:00");
        let line = layout(&p, 30, StatusJustify::Left);
        assert_eq!(text(&line), "[s] 0:sh- 1:vi*      \"t\" 12:00");
        // Clicks find the window under them; the separator belongs to none.
        assert_eq!(line[4].as_ref().and_then(|c| c.window), Some(0));
        assert_eq!(line[9].as_ref().and_then(|c| c.window), None);
        assert_eq!(line[14].as_ref().and_then(|c| c.window), Some(1));
    }

    #[test]
    fn justify_moves_the_list() {
        let p = parts("L", &["ab", "cd"], 0, "R");
        assert_eq!(text(&layout(&p, 12, StatusJustify::Right)), "L     ab cdR");
        // Centre: halfway between the left (1) and the right (11): middle 6, list 5.
        assert_eq!(text(&layout(&p, 12, StatusJustify::Centre)), "L   ab cd  R");
        assert_eq!(
            text(&layout(&p, 13, StatusJustify::AbsoluteCentre)),
            "L   ab cd   R"
        );
    }

    #[test]
    fn the_list_is_trimmed_first_keeping_the_current_window_with_markers() {
        let p = parts("[s] ", &["0:a", "1:b", "2:c", "3:d", "4:e"], 4, "RR");
        // 4 + 19 + 2 = 25 > 16: the list gets 10 columns, ending at the focus.
        let line = layout(&p, 16, StatusJustify::Left);
        assert_eq!(text(&line), "[s] <c 3:d 4:eRR");
        let p = parts("[s] ", &["0:a", "1:b", "2:c", "3:d", "4:e"], 0, "RR");
        // tmux cuts the list mid-label and puts the marker in its last column.
        assert_eq!(
            text(&layout(&p, 16, StatusJustify::Left)),
            "[s] 0:a 1:b 2>RR"
        );
    }

    #[test]
    fn then_the_right_from_its_left_edge_then_the_left() {
        let p = parts("LEFT", &[], 0, "RIGHT");
        assert_eq!(text(&layout(&p, 7, StatusJustify::Left)), "LEFTGHT");
        assert_eq!(text(&layout(&p, 3, StatusJustify::Left)), "LEF");
    }

    #[test]
    fn wide_characters_take_two_cells() {
        let c = cells("日x", Style::default(), None);
        assert_eq!(c.len(), 3);
        assert_eq!(c[1].text, "");
    }
}
