//! The preset arrangements (`select-layout`).

use super::{Axis, Node};
use fugue_protocol::{LayoutPreset, PaneId};

/// `panes` side by side (X) or stacked (Y) in equal shares. With tmux's `tiles` (the
/// extent the split tiles with shared borders) the shares are tmux's: every pane
/// `extent / n` tiles and the last what is left (`layout_spread_cell`), so the sizes
/// match tmux's exactly.
pub(super) fn even(axis: Axis, panes: &[PaneId], tiles: Option<u16>) -> Node {
    match panes {
        [only] => Node::Pane(*only),
        _ => Node::split(
            axis,
            panes
                .iter()
                .zip(shares(panes.len(), tiles))
                .map(|(&p, w)| (w, Node::Pane(p))),
        ),
    }
}

/// Weights of `n` even children: all 1, or tmux's cells for `tiles`.
fn shares(n: usize, tiles: Option<u16>) -> Vec<u32> {
    let (Some(extent), Ok(count)) = (tiles, u32::try_from(n)) else {
        return vec![1; n];
    };
    let each = (u32::from(extent) / count.max(1)).max(1);
    let rest = u32::from(extent).saturating_sub(each.saturating_mul(count.saturating_sub(1)));
    let mut out = vec![each; n];
    if let Some(last) = out.last_mut() {
        *last = rest.max(1);
    }
    out
}

/// tmux's grid for `n` panes (`layout_set_tiled`): rows grow before columns.
fn tmux_grid(n: usize) -> (usize, usize) {
    let (mut rows, mut cols) = (1usize, 1usize);
    while rows * cols < n {
        rows += 1;
        if rows * cols < n {
            cols += 1;
        }
    }
    (rows, cols)
}

/// Rearranges the panes (never empty) into `preset`. `tiles`: the area's extents
/// with tmux's shared borders, whose even shares and grid are then tmux's own.
pub(super) fn preset_tree(
    preset: LayoutPreset,
    panes: &[PaneId],
    main: PaneId,
    share: (u32, u32),
    tiles: Option<(u16, u16)>,
) -> Node {
    let (tx, ty) = (tiles.map(|t| t.0), tiles.map(|t| t.1));
    let (axis, main_first) = match preset {
        LayoutPreset::EvenHorizontal => return even(Axis::X, panes, tx),
        LayoutPreset::EvenVertical => return even(Axis::Y, panes, ty),
        LayoutPreset::MainVertical => (Axis::X, main),
        LayoutPreset::MainHorizontal => (Axis::Y, main),
        LayoutPreset::Tiled => {
            let cols = match tiles {
                Some(_) => tmux_grid(panes.len()).1,
                None => (1..).find(|c| c * c >= panes.len()).unwrap_or(1),
            };
            let mut rows: Vec<Node> = panes
                .chunks(cols)
                .map(|row| even(Axis::X, row, tx))
                .collect();
            if rows.len() == 1 {
                return rows.remove(0);
            }
            let heights = shares(rows.len(), ty);
            return Node::split(Axis::Y, heights.into_iter().zip(rows));
        }
    };
    let others: Vec<PaneId> = panes.iter().copied().filter(|&p| p != main_first).collect();
    if others.is_empty() {
        return Node::Pane(main_first);
    }
    let rest = even(axis.pick(Axis::Y, Axis::X), &others, axis.pick(ty, tx));
    let main = Node::Pane(main_first);
    Node::split(axis, [(share.0.max(1), main), (share.1.max(1), rest)])
}
