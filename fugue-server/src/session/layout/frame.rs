//! How panes are framed in their window: fugue's own box around each pane, or tmux's
//! shared one-cell borders with no outer frame.
//!
//! The layout tree always tiles a rectangle exactly (see the module above). For tmux's
//! borders that rectangle is the window grown by one column and one row: each pane's
//! tile then holds the pane and the border on its right and below it, and the last
//! column and row fall outside the window. A split of W columns into tiles of
//! (W+1)/2 and the rest gives panes of (W-1)/2 and W-1-(W-1)/2, which are tmux's
//! sizes (layout.c halves a cell as `(size + 1) / 2 - 1`), and a lone pane fills the
//! window. `pane-border-status` takes a row from the panes on the window's top (or
//! bottom) edge only, as tmux's `layout_fix_panes` does: the other panes' status lines
//! are the borders between them.

use super::Rect;
use fugue_protocol::SplitSize;

/// fugue's boxes, or tmux's shared borders (the `pane-borders` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Borders {
    #[default]
    Boxed,
    Shared,
}

/// tmux's `pane-border-status`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BorderStatus {
    #[default]
    Off,
    Top,
    Bottom,
}

impl BorderStatus {
    pub fn from_word(word: &str) -> BorderStatus {
        match word {
            "top" => BorderStatus::Top,
            "bottom" => BorderStatus::Bottom,
            _ => BorderStatus::Off,
        }
    }
}

/// How one window's panes are framed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub borders: Borders,
    pub status: BorderStatus,
}

impl Frame {
    /// The rectangle the layout tiles for a window of `window`.
    pub fn layout_area(self, window: Rect) -> Rect {
        match self.borders {
            Borders::Boxed => window,
            Borders::Shared => Rect {
                width: window.width.saturating_add(1),
                height: window.height.saturating_add(1),
                ..window
            },
        }
    }

    /// Where a pane's screen goes, for its tile `outer` in the layout of a window of
    /// `window` (tmux's `pane_left`, `pane_top`, `pane_width`, `pane_height`).
    pub fn content(self, outer: Rect, window: Rect) -> Rect {
        match self.borders {
            Borders::Boxed => Rect {
                x: outer.x.saturating_add(1),
                y: outer.y.saturating_add(1),
                width: outer.width.saturating_sub(2),
                height: outer.height.saturating_sub(2),
            },
            Borders::Shared => {
                let mut r = Rect {
                    width: outer.width.saturating_sub(1),
                    height: outer.height.saturating_sub(1),
                    ..outer
                };
                // Widened so a window of u16::MAX rows cannot overflow.
                let bottom = |r: Rect| u32::from(r.y) + u32::from(r.height);
                let takes_row = match self.status {
                    BorderStatus::Off => false,
                    BorderStatus::Top => r.y == window.y,
                    BorderStatus::Bottom => bottom(r) >= bottom(window),
                };
                // tmux keeps a pane of one row whole rather than give it none.
                if takes_row && r.height > 1 {
                    r.height -= 1;
                    if self.status == BorderStatus::Top {
                        r.y = r.y.saturating_add(1);
                    }
                }
                r
            }
        }
    }

    /// A pane's terminal size for its tile: never below one cell.
    pub fn pane_size(self, outer: Rect, window: Rect) -> (u16, u16) {
        let r = self.content(outer, window);
        (r.width.max(1), r.height.max(1))
    }

    /// A split's size for the layout, which sizes tiles, from the new pane's own size
    /// (`split-window -l`): cells get their border; with shared borders a percentage
    /// is of the target pane's own `extent`, rounded down as tmux's
    /// `args_percentage` (a box's stays the layout's share of the box).
    pub fn split_size(self, size: Option<SplitSize>, tile_extent: u16) -> Option<SplitSize> {
        match (self.borders, size) {
            (_, Some(SplitSize::Cells(n))) => Some(SplitSize::Cells(self.tile_cells(n))),
            (Borders::Shared, Some(SplitSize::Percent(p))) if (1..100).contains(&p) => {
                let own = u32::from(tile_extent.saturating_sub(1));
                // At most the extent, which came from a u16.
                let n = u16::try_from(own * u32::from(p) / 100).unwrap_or(u16::MAX);
                Some(SplitSize::Cells(self.tile_cells(n)))
            }
            (_, other) => other,
        }
    }

    /// The cells a pane `n` cells wide (or high) takes in the layout: its own and its
    /// border's.
    pub fn tile_cells(self, n: u16) -> u16 {
        match self.borders {
            Borders::Boxed => n.saturating_add(2),
            Borders::Shared => n.saturating_add(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Rect = Rect {
        x: 0,
        y: 0,
        width: 80,
        height: 24,
    };

    #[test]
    fn a_lone_pane_fills_the_window_with_shared_borders() {
        let shared = Frame {
            borders: Borders::Shared,
            status: BorderStatus::Off,
        };
        let tile = shared.layout_area(WINDOW);
        assert_eq!(shared.content(tile, WINDOW), WINDOW);
        let boxed = Frame::default();
        assert_eq!(boxed.pane_size(WINDOW, WINDOW), (78, 22));
    }

    #[test]
    fn the_border_status_takes_a_row_from_the_edge_panes_only() {
        let top = Frame {
            borders: Borders::Shared,
            status: BorderStatus::Top,
        };
        let upper = Rect {
            height: 12,
            ..WINDOW
        };
        let lower = Rect {
            y: 12,
            height: 13,
            ..WINDOW
        };
        assert_eq!(top.content(upper, WINDOW).y, 1);
        assert_eq!(top.content(upper, WINDOW).height, 10);
        assert_eq!(top.content(lower, WINDOW).y, 12);
        assert_eq!(top.content(lower, WINDOW).height, 12);
        let bottom = Frame {
            status: BorderStatus::Bottom,
            ..top
        };
        assert_eq!(bottom.content(upper, WINDOW).height, 11);
        assert_eq!(bottom.content(lower, WINDOW).height, 11);
    }
}
