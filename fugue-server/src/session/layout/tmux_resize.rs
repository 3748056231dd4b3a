//! A window that changes size, as tmux's `layout_resize` shares the change out: with
//! tmux's shared borders a pane's size after a window resize is then tmux's too.
//!
//! tmux does not scale: a split along the change's axis gives or takes one cell per
//! child in turn, from the first, until the change is spent (taking only from
//! children above their minimum); a split across it passes the whole change to every
//! child. fugue's weights are then set to the cells that gives, so the layout shows
//! exactly that (`rebase`).

use super::sizing::{child_extents, rebase};
use super::{Axis, Layout, Node, Rect};

/// How many cells a subtree can give up along `axis` (tmux's `layout_resize_check`).
fn spare(node: &Node, axis: Axis, extent: u16, rect: Rect) -> u32 {
    match node {
        Node::Pane(_) => u32::from(extent.saturating_sub(axis.min())),
        Node::Split { axis: a, children } => {
            let cells = child_extents(*a, children, rect);
            let mut offset = 0u16;
            let mut each = Vec::with_capacity(children.len());
            for (child, len) in children.iter().zip(&cells) {
                let part = a.slice(rect, offset, *len);
                offset = offset.saturating_add(*len);
                each.push(spare(&child.node, axis, axis.extent(part), part));
            }
            if *a == axis {
                each.iter().sum()
            } else {
                each.into_iter().min().unwrap_or(0)
            }
        }
    }
}

/// Shares `change` cells along `axis` out through the subtree laid out in `rect`
/// (tmux's `layout_resize_adjust`), setting each split's weights to the result.
fn adjust(node: &mut Node, axis: Axis, change: i32, rect: Rect) {
    let Node::Split { axis: a, children } = node else {
        return;
    };
    let cells = child_extents(*a, children, rect);
    let mut offset = 0u16;
    let mut parts = Vec::with_capacity(children.len());
    for len in &cells {
        parts.push(a.slice(rect, offset, *len));
        offset = offset.saturating_add(*len);
    }
    if *a != axis {
        for (child, part) in children.iter_mut().zip(parts) {
            adjust(&mut child.node, axis, change, part);
        }
        return;
    }
    let mut changes = vec![0i32; children.len()];
    let mut left = change;
    let mut room: Vec<u32> = children
        .iter()
        .zip(&parts)
        .map(|(c, p)| spare(&c.node, axis, axis.extent(*p), *p))
        .collect();
    while left != 0 {
        let before = left;
        for (i, c) in changes.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            if left > 0 {
                *c += 1;
                left -= 1;
            } else if room.get(i).is_some_and(|r| *r > 0) {
                room[i] -= 1;
                *c -= 1;
                left += 1;
            }
        }
        if left == before {
            // Nothing can shrink further; tmux clamps the change beforehand.
            break;
        }
    }
    let new: Vec<u16> = cells
        .iter()
        .zip(&changes)
        .map(|(&c, &d)| u16::try_from((i32::from(c) + d).max(1)).unwrap_or(u16::MAX))
        .collect();
    for ((child, part), d) in children.iter_mut().zip(parts).zip(&changes) {
        adjust(&mut child.node, axis, *d, part);
    }
    rebase(children, &new);
}

impl Layout {
    /// The layout tiled `old` and now tiles `new` (same corner): share the change as
    /// tmux does instead of scaling every pane.
    pub fn resize_as_tmux(&mut self, old: Rect, new: Rect) {
        let mut at = old;
        for axis in [Axis::X, Axis::Y] {
            let change = i32::from(axis.extent(new)) - i32::from(axis.extent(at));
            if change == 0 {
                continue;
            }
            let room = spare(&self.root, axis, axis.extent(at), at);
            let change = change.max(-i32::try_from(room).unwrap_or(i32::MAX));
            adjust(&mut self.root, axis, change, at);
            at = match axis {
                Axis::X => Rect {
                    width: new.width,
                    ..at
                },
                Axis::Y => Rect {
                    height: new.height,
                    ..at
                },
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::{Direction, PaneId};

    fn tiles(width: u16, height: u16) -> Rect {
        Rect {
            x: 0,
            y: 0,
            width,
            height,
        }
    }

    #[test]
    fn growth_goes_a_cell_per_pane_in_turn_from_the_first() {
        // Tiles 81 wide: panes of 40 | 39 (tiles 41 | 40 once grown by 3: 43 | 41).
        let mut l = Layout::new(PaneId(0));
        l.split(PaneId(0), PaneId(1), Direction::Right, None, tiles(81, 25))
            .unwrap();
        l.resize_as_tmux(tiles(81, 25), tiles(84, 25));
        let widths: Vec<u16> = l
            .geometry(tiles(84, 25))
            .iter()
            .map(|(_, r)| r.width)
            .collect();
        assert_eq!(widths, [43, 41]);
        // Shrinking takes a cell from each in turn (36 each), none below its minimum.
        l.resize_as_tmux(tiles(84, 25), tiles(12, 25));
        let widths: Vec<u16> = l
            .geometry(tiles(12, 25))
            .iter()
            .map(|(_, r)| r.width)
            .collect();
        assert_eq!(widths, [7, 5]);
    }
}
