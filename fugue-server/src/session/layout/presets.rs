//! The preset arrangements (`select-layout`).

use super::{Axis, Node};
use fugue_protocol::{LayoutPreset, PaneId};

/// `panes` side by side (X) or stacked (Y) in equal shares.
pub(super) fn even(axis: Axis, panes: &[PaneId]) -> Node {
    match panes {
        [only] => Node::Pane(*only),
        _ => Node::split(axis, panes.iter().map(|&p| (1, Node::Pane(p)))),
    }
}

/// Rearranges the panes (never empty) into `preset`.
pub(super) fn preset_tree(
    preset: LayoutPreset,
    panes: &[PaneId],
    main: PaneId,
    share: (u32, u32),
) -> Node {
    let (axis, main_first) = match preset {
        LayoutPreset::EvenHorizontal => return even(Axis::X, panes),
        LayoutPreset::EvenVertical => return even(Axis::Y, panes),
        LayoutPreset::MainVertical => (Axis::X, main),
        LayoutPreset::MainHorizontal => (Axis::Y, main),
        LayoutPreset::Tiled => {
            let cols = (1..).find(|c| c * c >= panes.len()).unwrap_or(1);
            let mut rows: Vec<Node> = panes.chunks(cols).map(|row| even(Axis::X, row)).collect();
            if rows.len() == 1 {
                return rows.remove(0);
            }
            return Node::split(Axis::Y, rows.into_iter().map(|row| (1, row)));
        }
    };
    let others: Vec<PaneId> = panes.iter().copied().filter(|&p| p != main_first).collect();
    if others.is_empty() {
        return Node::Pane(main_first);
    }
    let rest = even(axis.pick(Axis::Y, Axis::X), &others);
    let main = Node::Pane(main_first);
    Node::split(axis, [(share.0.max(1), main), (share.1.max(1), rest)])
}
