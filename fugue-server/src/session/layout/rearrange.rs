//! Moving panes between the cells of a layout without changing the cells
//! (`swap-pane`, `rotate-window`): the shape stays, the panes change places.

use super::{Layout, Node};
use fugue_protocol::PaneId;

fn fill(node: &mut Node, next: &mut impl Iterator<Item = PaneId>) {
    match node {
        Node::Pane(id) => {
            if let Some(p) = next.next() {
                *id = p;
            }
        }
        Node::Split { children, .. } => children.iter_mut().for_each(|c| fill(&mut c.node, next)),
    }
}

impl Layout {
    /// Puts `panes` into the cells in reading order. Refused (false, nothing changed)
    /// unless `panes` is a reordering of the layout's own panes.
    pub fn reassign(&mut self, panes: &[PaneId]) -> bool {
        let mut now = self.panes();
        let mut given = panes.to_vec();
        now.sort_unstable();
        given.sort_unstable();
        if now != given {
            return false;
        }
        fill(&mut self.root, &mut panes.iter().copied());
        true
    }

    /// Swaps two panes of this layout: each takes the other's cell.
    pub fn swap(&mut self, a: PaneId, b: PaneId) -> bool {
        let order: Vec<PaneId> = self
            .panes()
            .into_iter()
            .map(|p| match p {
                p if p == a => b,
                p if p == b => a,
                p => p,
            })
            .collect();
        self.contains(a) && self.contains(b) && self.reassign(&order)
    }

    /// tmux's `select-layout -E`: `pane` and the panes beside it in its split take
    /// equal shares; when they have them already (in `area`), the split above does,
    /// and so on up. False when nothing changed.
    pub fn spread(&mut self, pane: PaneId, area: super::Rect) -> bool {
        let Some(mut path) = self.root.path_to(pane) else {
            return false;
        };
        let before = self.geometry(area);
        while path.pop().is_some() {
            let mut tried = self.clone();
            if let Some(Node::Split { children, .. }) = tried.root.at_mut(&path) {
                children.iter_mut().for_each(|c| c.weight = 1);
            }
            if tried.geometry(area) != before {
                *self = tried;
                return true;
            }
        }
        false
    }

    /// tmux's `rotate-window`: every pane moves one cell back in reading order (the
    /// first to the last cell), or with `down` one cell on (the last to the first).
    pub fn rotate(&mut self, down: bool) {
        let mut order = self.panes();
        if order.len() < 2 {
            return;
        }
        if down {
            order.rotate_right(1);
        } else {
            order.rotate_left(1);
        }
        self.reassign(&order);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rect;
    use super::*;
    use fugue_protocol::Direction;

    const AREA: Rect = Rect {
        x: 0,
        y: 0,
        width: 80,
        height: 24,
    };

    fn three() -> Layout {
        let mut l = Layout::new(PaneId(1));
        l.split(PaneId(1), PaneId(2), Direction::Right, None, AREA)
            .unwrap();
        l.split(PaneId(2), PaneId(3), Direction::Down, None, AREA)
            .unwrap();
        l
    }

    #[test]
    fn swapping_keeps_the_cells_and_trades_the_panes() {
        let mut l = three();
        let before: Vec<Rect> = l.geometry(AREA).into_iter().map(|(_, r)| r).collect();
        assert!(l.swap(PaneId(1), PaneId(3)));
        let after = l.geometry(AREA);
        assert_eq!(
            after.iter().map(|(p, _)| p.0).collect::<Vec<_>>(),
            [3, 2, 1]
        );
        assert_eq!(
            after.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
            before
        );
        assert!(!l.swap(PaneId(1), PaneId(9)));
    }

    #[test]
    fn rotating_moves_every_pane_one_cell() {
        let mut l = three();
        l.rotate(false);
        assert_eq!(l.panes(), [PaneId(2), PaneId(3), PaneId(1)]);
        l.rotate(true);
        l.rotate(true);
        assert_eq!(l.panes(), [PaneId(3), PaneId(1), PaneId(2)]);
        assert!(!l.reassign(&[PaneId(1), PaneId(1), PaneId(2)]));
    }
}
