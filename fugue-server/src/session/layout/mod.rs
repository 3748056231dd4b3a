//! The layout tree of a window's panes.
//!
//! The panes' tiles tile the layout's area exactly, with no gaps and no overlaps, and a
//! tile needs at least [`MIN_WIDTH`] x [`MIN_HEIGHT`] cells. A tile is a pane and its
//! border: a box of its own (zellij style), or tmux's shared one-cell dividers, for which
//! the area is the window grown by a column and a row ([`Frame`], `frame.rs`).
//!
//! The tree is n-ary: a split lays its children out side by side or stacked, each taking
//! a share of the split's extent in proportion to its weight; the leaves are panes. A
//! split never has fewer than two children and never has a child split along its own axis
//! (such a child is merged into it), so splitting a pane to the right over and over gives
//! one row of panes, as in tmux.
//!
//! Weights are integers, not floats. When a split or resize changes sizes, the weights of
//! the split concerned are reset to the cells its children occupy at that moment, so the
//! window shows exactly what was asked for, and since nothing is ever re-derived from
//! rounded floats, repeated resizing cannot drift. When the window changes size the
//! weights stay put and the cells are shared out again with largest-remainder rounding,
//! so the sizes always add up to the area.

mod frame;
mod presets;
mod rearrange;
mod sizing;
mod tmux_resize;
mod tmux_string;

pub use frame::{BorderStatus, Borders, Frame};
use presets::preset_tree;
use sizing::{child_extents, gcd, rebase};
use std::collections::HashSet;

use serde::{Deserialize, Deserializer, Serialize};

use fugue_protocol::{Direction, LayoutPreset, PaneId, SplitSize};

/// Narrowest a pane's outer box may be: two border columns and room for some content.
pub const MIN_WIDTH: u16 = 5;
/// Shortest a pane's outer box may be: two border rows and one line of content.
pub const MIN_HEIGHT: u16 = 3;

/// Merging a nested split multiplies weights; capping them keeps that from overflowing
/// while leaving far more precision than a terminal has cells.
const WEIGHT_CAP: u64 = 1 << 20;

/// A rectangle of terminal cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("no pane {0} in this window")]
    UnknownPane(PaneId),
    #[error(
        "pane {pane} is too small to split: it has {available} cells and needs {needed}; \
         resize or close panes to make room"
    )]
    NoRoom {
        pane: PaneId,
        needed: u16,
        available: u16,
    },
    #[error("invalid size: {0}")]
    InvalidSize(String),
}

/// How a split lays out its children: X side by side, Y stacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Axis {
    X,
    Y,
}

impl Axis {
    fn of(dir: Direction) -> Axis {
        match dir {
            Direction::Left | Direction::Right => Axis::X,
            Direction::Up | Direction::Down => Axis::Y,
        }
    }

    fn pick<T>(self, x: T, y: T) -> T {
        match self {
            Axis::X => x,
            Axis::Y => y,
        }
    }

    fn min(self) -> u16 {
        self.pick(MIN_WIDTH, MIN_HEIGHT)
    }

    fn extent(self, r: Rect) -> u16 {
        self.pick(r.width, r.height)
    }

    /// The part of `r` that starts `offset` cells in along this axis and is `len` long.
    fn slice(self, r: Rect, offset: u16, len: u16) -> Rect {
        let mut part = r;
        match self {
            Axis::X => (part.x, part.width) = (r.x.saturating_add(offset), len),
            Axis::Y => (part.y, part.height) = (r.y.saturating_add(offset), len),
        }
        part
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Child {
    weight: u32,
    node: Node,
}

impl From<(u32, Node)> for Child {
    fn from((weight, node): (u32, Node)) -> Child {
        Child { weight, node }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Node {
    Pane(PaneId),
    Split { axis: Axis, children: Vec<Child> },
}

impl Node {
    fn split(axis: Axis, children: impl IntoIterator<Item = (u32, Node)>) -> Node {
        let children = children.into_iter().map(Child::from).collect();
        Node::Split { axis, children }
    }

    /// Child indices leading from this node to `pane`.
    fn path_to(&self, pane: PaneId) -> Option<Vec<usize>> {
        match self {
            Node::Pane(id) => (*id == pane).then(Vec::new),
            Node::Split { children, .. } => children.iter().enumerate().find_map(|(i, c)| {
                let mut path = c.node.path_to(pane)?;
                path.insert(0, i);
                Some(path)
            }),
        }
    }

    fn at_mut(&mut self, path: &[usize]) -> Option<&mut Node> {
        let mut node = self;
        for &i in path {
            match node {
                Node::Split { children, .. } => node = &mut children.get_mut(i)?.node,
                Node::Pane(_) => return None,
            }
        }
        Some(node)
    }

    /// The fewest cells along `axis` this subtree needs to give every pane its minimum.
    fn min_extent(&self, axis: Axis) -> u16 {
        let Node::Split { axis: a, children } = self else {
            return axis.min();
        };
        let mins = children.iter().map(|c| c.node.min_extent(axis));
        if *a == axis {
            mins.fold(0, u16::saturating_add)
        } else {
            mins.max().unwrap_or(0)
        }
    }

    fn place(&self, rect: Rect, out: &mut Vec<(PaneId, Rect)>) {
        match self {
            Node::Pane(id) => out.push((*id, rect)),
            Node::Split { axis, children } => {
                let mut offset = 0u16;
                for (child, len) in children.iter().zip(child_extents(*axis, children, rect)) {
                    child.node.place(axis.slice(rect, offset, len), out);
                    offset = offset.saturating_add(len);
                }
            }
        }
    }

    /// The rectangle the node at `path` occupies when this node fills `rect`.
    fn rect_of(&self, path: &[usize], mut rect: Rect) -> Rect {
        let mut node = self;
        for &i in path {
            let Node::Split { axis, children } = node else {
                break;
            };
            let extents = child_extents(*axis, children, rect);
            // The extents add up to the rect's, so this sum cannot overflow.
            let offset = extents.iter().take(i).sum();
            let (Some(child), Some(&len)) = (children.get(i), extents.get(i)) else {
                break;
            };
            rect = axis.slice(rect, offset, len);
            node = &child.node;
        }
        rect
    }
}

/// Merges child splits that share their parent's axis and collapses one-child splits,
/// keeping every pane's share of the window unchanged.
fn normalize(node: &mut Node) {
    let Node::Split { axis, children } = node else {
        return;
    };
    children.iter_mut().for_each(|c| normalize(&mut c.node));
    let same_axis = |c: &Child| matches!(&c.node, Node::Split { axis: a, .. } if a == axis);
    while let Some(i) = children.iter().position(same_axis) {
        let mut outer = std::mem::take(children);
        let Child { weight, node } = outer.remove(i);
        let inner = match node {
            Node::Split { children, .. } => children,
            leaf => vec![Child::from((1, leaf))],
        };
        // Bring both levels to a common denominator so nobody's size changes.
        let inner_sum: u64 = inner.iter().map(|c| u64::from(c.weight)).sum();
        let scale = |c: Child, by: u64| (u64::from(c.weight).saturating_mul(by), c.node);
        let mut merged: Vec<_> = outer.into_iter().map(|c| scale(c, inner_sum)).collect();
        merged.splice(i..i, inner.into_iter().map(|c| scale(c, u64::from(weight))));
        let gcd = merged.iter().fold(0, |g, (w, _)| gcd(g, *w)).max(1);
        let max = merged.iter().map(|(w, _)| w / gcd).max().unwrap_or(1);
        let scale_down = max.div_ceil(WEIGHT_CAP).max(1);
        let weight = |w: u64| u32::try_from((w / gcd / scale_down).max(1)).unwrap_or(u32::MAX);
        *children = merged
            .into_iter()
            .map(|(w, n)| (weight(w), n).into())
            .collect();
    }
    if children.len() == 1 {
        *node = children.remove(0).node;
    }
}

/// Checks what the operations guarantee, so a deserialized layout can be trusted.
fn validate(node: &Node, parent: Option<Axis>, seen: &mut HashSet<PaneId>) -> Result<(), String> {
    match node {
        Node::Pane(id) if !seen.insert(*id) => Err(format!("pane {id} appears twice")),
        Node::Pane(_) => Ok(()),
        Node::Split { children, .. } if children.len() < 2 => Err("a split with one child".into()),
        Node::Split { axis, .. } if Some(*axis) == parent => Err("nested same-axis splits".into()),
        Node::Split { children, .. } if children.iter().any(|c| c.weight == 0) => {
            Err("a child with weight 0".into())
        }
        Node::Split { axis, children } => children
            .iter()
            .try_for_each(|c| validate(&c.node, Some(*axis), seen)),
    }
}

/// The arrangement of one window's panes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    root: Node,
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Repr {
            root: Node,
        }
        let Repr { root } = Repr::deserialize(deserializer)?;
        validate(&root, None, &mut HashSet::new()).map_err(serde::de::Error::custom)?;
        Ok(Layout { root })
    }
}

impl Layout {
    pub fn new(pane: PaneId) -> Layout {
        let root = Node::Pane(pane);
        Layout { root }
    }

    /// Panes in reading order (depth-first: left-to-right / top-to-bottom). This order is
    /// the "pane index" order and the next/previous cycle order.
    pub fn panes(&self) -> Vec<PaneId> {
        // Geometry walks the tree in this order; an empty area makes that walk cheap.
        let geometry = self.geometry(Rect::default());
        geometry.into_iter().map(|(id, _)| id).collect()
    }

    pub fn len(&self) -> usize {
        self.panes().len()
    }

    /// Always false: a layout holds at least one pane.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn contains(&self, pane: PaneId) -> bool {
        self.root.path_to(pane).is_some()
    }

    /// [`Layout::split`], but a pane too small for the share asked that is one of a
    /// row (or column) with room for one more pane gets the new pane next to it and
    /// the row is evened out, instead of a refusal. `split-window` does this: Claude
    /// Code splits its lead pane at 70% once per teammate, which in tmux (whose
    /// panes may be one cell wide) leaves a lead one column wide, and fugue's panes
    /// need their borders. Other panes may move, which `split` never does.
    pub fn split_or_even(
        &mut self,
        target: PaneId,
        new: PaneId,
        dir: Direction,
        size: Option<SplitSize>,
        area: Rect,
    ) -> Result<(), LayoutError> {
        let refused = match self.split(target, new, dir, size, area) {
            Err(e @ LayoutError::NoRoom { .. }) => e,
            other => return other,
        };
        let axis = Axis::of(dir);
        let before = matches!(dir, Direction::Left | Direction::Up);
        let Some(path) = self.root.path_to(target) else {
            return Err(refused);
        };
        let Some((&idx, parent_path)) = path.split_last() else {
            return Err(refused);
        };
        let parent_rect = self.root.rect_of(parent_path, area);
        let cross_fits = axis
            .pick(Axis::Y, Axis::X)
            .extent(self.root.rect_of(&path, area))
            >= axis.pick(Axis::Y, Axis::X).min();
        match self.root.at_mut(parent_path) {
            Some(Node::Split { axis: a, children })
                if *a == axis && idx < children.len() && cross_fits =>
            {
                let count = u16::try_from(children.len().saturating_add(1)).unwrap_or(u16::MAX);
                if axis.extent(parent_rect) < axis.min().saturating_mul(count) {
                    return Err(refused);
                }
                let at = if before { idx } else { idx + 1 };
                children.insert(at, (1, Node::Pane(new)).into());
                for child in children.iter_mut() {
                    child.weight = 1;
                }
                Ok(())
            }
            _ => Err(refused),
        }
    }

    /// Split `target`, placing `new` on side `dir` of it, taking `size` of target's extent
    /// along the split axis (None: half, the pane after the split the smaller half on
    /// odd sizes, as tmux). NoRoom when either
    /// pane would go below the minimum in `area`; InvalidSize for Percent 0 or >= 100, for
    /// Cells below the minimum, and when `new` is already in the layout.
    pub fn split(
        &mut self,
        target: PaneId,
        new: PaneId,
        dir: Direction,
        size: Option<SplitSize>,
        area: Rect,
    ) -> Result<(), LayoutError> {
        self.check_size(new, dir, size)?;
        let Some(path) = self.root.path_to(target) else {
            return Err(LayoutError::UnknownPane(target));
        };
        self.split_at(&path, target, new, dir, size, area)
    }

    /// `split-window -f`: `new` on side `dir` of the whole window, taking `size` of
    /// the window's extent (None: half), so it spans the window's full height or
    /// width; the panes already there keep their shares of what is left. tmux splits
    /// its layout's root cell the same way.
    pub fn split_full(
        &mut self,
        new: PaneId,
        dir: Direction,
        size: Option<SplitSize>,
        area: Rect,
    ) -> Result<(), LayoutError> {
        self.check_size(new, dir, size)?;
        let first = self.panes().first().copied().unwrap_or(new);
        self.split_at(&[], first, new, dir, size, area)?;
        normalize(&mut self.root);
        Ok(())
    }

    /// [`Layout::split`]'s refusals of the size asked for (and of a `new` pane the
    /// layout holds already).
    fn check_size(
        &self,
        new: PaneId,
        dir: Direction,
        size: Option<SplitSize>,
    ) -> Result<(), LayoutError> {
        let axis = Axis::of(dir);
        let min = axis.min();
        let invalid = match size {
            Some(SplitSize::Percent(p)) if p == 0 || p >= 100 => {
                Some(format!("{p}% is not between 1% and 99%"))
            }
            Some(SplitSize::Cells(c)) if c < min => {
                let what = axis.pick("width", "height");
                Some(format!("{c} cells is below the minimum {what} of {min}"))
            }
            _ if self.contains(new) => Some(format!("pane {new} is already in this window")),
            _ => None,
        };
        if let Some(why) = invalid {
            return Err(LayoutError::InvalidSize(why));
        }
        Ok(())
    }

    /// The split of the node at `path` (the pane `target`, or the root for an empty
    /// path), after [`Layout::split`]'s checks of the size asked for.
    fn split_at(
        &mut self,
        path: &[usize],
        target: PaneId,
        new: PaneId,
        dir: Direction,
        size: Option<SplitSize>,
        area: Rect,
    ) -> Result<(), LayoutError> {
        let axis = Axis::of(dir);
        let (min, before) = (axis.min(), matches!(dir, Direction::Left | Direction::Up));
        let path = path.to_vec();
        let rect = self.root.rect_of(&path, area);
        let (extent, cross) = (axis.extent(rect), axis.pick(Axis::Y, Axis::X));
        let no_room = |needed, available| LayoutError::NoRoom {
            pane: target,
            needed,
            available,
        };
        if cross.extent(rect) < cross.min() {
            return Err(no_room(cross.min(), cross.extent(rect)));
        }
        let percent_of = |e: u16, p: u8| ((u32::from(e) * u32::from(p) + 50) / 100) as u16;
        let fits = |e: u16, n: u16| n >= min && e.saturating_sub(n) >= min;
        let new_len = match size {
            // tmux halves a cell so the pane after the split gets the smaller half:
            // a new pane before takes the larger one.
            None if before => extent - extent / 2,
            None => extent / 2,
            Some(SplitSize::Percent(p)) => percent_of(extent, p),
            Some(SplitSize::Cells(c)) => c,
        };
        if !fits(extent, new_len) {
            let needed = match size {
                None => min.saturating_mul(2),
                Some(SplitSize::Cells(c)) => c.saturating_add(min),
                Some(SplitSize::Percent(p)) => (min..=u16::MAX)
                    .find(|&e| fits(e, percent_of(e, p)))
                    .unwrap_or(u16::MAX),
            };
            return Err(no_room(needed, extent));
        }
        let (keep, new_node) = (extent - new_len, Node::Pane(new));

        if let Some((&idx, parent_path)) = path.split_last() {
            let parent_rect = self.root.rect_of(parent_path, area);
            match self.root.at_mut(parent_path) {
                Some(Node::Split { axis: a, children }) if *a == axis && idx < children.len() => {
                    // Joining the parent keeps one flat row (or column) of panes; weights
                    // become cells so the siblings keep exactly the size they have now.
                    let mut cells = child_extents(axis, children, parent_rect);
                    cells[idx] = keep;
                    rebase(children, &cells);
                    let at = if before { idx } else { idx + 1 };
                    children.insert(at, (u32::from(new_len), new_node).into());
                    return Ok(());
                }
                _ => {}
            }
        }
        let Some(node) = self.root.at_mut(&path) else {
            return Err(LayoutError::UnknownPane(target));
        };
        let old = (u32::from(keep), std::mem::replace(node, Node::Pane(new)));
        let added = (u32::from(new_len), new_node);
        *node = Node::split(axis, if before { [added, old] } else { [old, added] });
        Ok(())
    }

    /// Remove a pane; its space goes to the sibling before it (after it, for the first),
    /// as in tmux, so panes further away keep their size. Returns false if the pane is
    /// unknown or it is the last pane (the caller closes the window instead).
    pub fn remove(&mut self, pane: PaneId) -> bool {
        let path = self.root.path_to(pane).unwrap_or_default();
        let Some((&idx, parent_path)) = path.split_last() else {
            return false;
        };
        let Some(Node::Split { children, .. }) = self.root.at_mut(parent_path) else {
            return false;
        };
        if idx >= children.len() {
            return false;
        }
        let gone = children.remove(idx);
        if let Some(heir) = children.get_mut(idx.saturating_sub(1)) {
            heir.weight = heir.weight.saturating_add(gone.weight);
        }
        normalize(&mut self.root);
        true
    }

    /// Outer rects of all panes, in `panes()` order, tiling `area` exactly. Minimum sizes
    /// are respected where the area allows; a too-small area still gets a tiling, with
    /// panes below the minimum (even 0-size), never overlapping or outside `area`.
    pub fn geometry(&self, area: Rect) -> Vec<(PaneId, Rect)> {
        let mut out = Vec::new();
        self.root.place(area, &mut out);
        out
    }

    /// Move the border of `pane` on side `dir` by `amount` cells toward `dir`; at the
    /// window edge move its opposite border toward `dir` instead (the pane shrinks), as
    /// tmux's resize-pane does. The border is the one of the nearest ancestor split along
    /// `dir`'s axis with a sibling on the needed side. Panes beyond the border give up
    /// space nearest first, none going below its minimum. True if anything changed.
    pub fn resize(&mut self, pane: PaneId, dir: Direction, amount: u16, area: Rect) -> bool {
        let path = self.root.path_to(pane).unwrap_or_default();
        let axis = Axis::of(dir);
        let forward = matches!(dir, Direction::Right | Direction::Down);
        let found = self.border(&path, axis, forward);
        let Some((depth, border)) = found.or_else(|| self.border(&path, axis, !forward)) else {
            return false;
        };
        self.move_border(&path[..depth], axis, border, forward, amount, area)
    }

    /// Make `pane` `size` cells wide (`vertical` false) or high, as tmux's
    /// `resize-pane -x/-y`: its right (bottom) border moves, or its left (top) one when
    /// it is the last pane on that side of the window. Minimum sizes still hold, so the
    /// pane may end up nearer `size` rather than at it. True if anything changed.
    pub fn resize_to(&mut self, pane: PaneId, vertical: bool, size: u16, area: Rect) -> bool {
        let Some((_, rect)) = self.geometry(area).into_iter().find(|(id, _)| *id == pane) else {
            return false;
        };
        let (axis, now) = if vertical {
            (Axis::Y, rect.height)
        } else {
            (Axis::X, rect.width)
        };
        if size == now {
            return false;
        }
        let path = self.root.path_to(pane).unwrap_or_default();
        let (border, after) = match self.border(&path, axis, true) {
            Some(b) => (Some(b), true),
            None => (self.border(&path, axis, false), false),
        };
        let Some((depth, border)) = border else {
            return false;
        };
        // Growing moves the border away from the pane, shrinking towards it.
        let grow = size > now;
        let forward = grow == after;
        let amount = size.abs_diff(now);
        self.move_border(&path[..depth], axis, border, forward, amount, area)
    }

    /// Moves border `border` (between children `border` and `border + 1`) of the split
    /// at `at` by `amount` cells, forward (right, down) or back. Children beyond the
    /// border give up space nearest first, none going below its minimum.
    fn move_border(
        &mut self,
        at: &[usize],
        axis: Axis,
        border: usize,
        forward: bool,
        amount: u16,
        area: Rect,
    ) -> bool {
        let rect = self.root.rect_of(at, area);
        let Some(Node::Split { children, .. }) = self.root.at_mut(at) else {
            return false;
        };
        let mut cells = child_extents(axis, children, rect);
        let (receiver, givers): (usize, Vec<usize>) = if forward {
            (border, (border + 1..cells.len()).collect())
        } else {
            (border + 1, (0..=border).rev().collect())
        };
        let mut left = amount;
        for g in givers {
            let Some(c) = cells.get_mut(g) else { continue };
            let spare = c.saturating_sub(children[g].node.min_extent(axis));
            let take = spare.min(left);
            *c -= take;
            left -= take;
        }
        if left == amount || receiver >= cells.len() {
            return false;
        }
        cells[receiver] = cells[receiver].saturating_add(amount - left);
        rebase(children, &cells);
        true
    }

    /// The nearest ancestor split along `axis` in which the subtree on `path` has a sibling
    /// after it (`after`) or before it: its depth, and the border's index `b` (the border
    /// lying between children `b` and `b + 1`).
    fn border(&self, path: &[usize], axis: Axis, after: bool) -> Option<(usize, usize)> {
        let (mut node, mut found) = (&self.root, None);
        for (depth, &idx) in path.iter().enumerate() {
            let Node::Split { axis: a, children } = node else {
                break;
            };
            let border = if after {
                (idx + 1 < children.len()).then_some(idx)
            } else {
                idx.checked_sub(1)
            };
            found = border.filter(|_| *a == axis).map(|b| (depth, b)).or(found);
            node = &children.get(idx)?.node;
        }
        found
    }

    /// The pane directly adjacent to `pane` on side `dir` in `area`: the one sharing the
    /// longest stretch of that edge, then the one whose center is closest, then the first
    /// in reading order. None at the window edge (no wrap-around).
    pub fn neighbor(&self, pane: PaneId, dir: Direction, area: Rect) -> Option<PaneId> {
        let rects = self.geometry(area);
        let me = rects.iter().find(|(id, _)| *id == pane)?.1;
        // ((near, far) along dir's axis, (start, end) across it), wide enough not to overflow.
        let span = |r: Rect| {
            let (x, y, w, h) = (r.x as u32, r.y as u32, r.width as u32, r.height as u32);
            Axis::of(dir).pick(((x, x + w), (y, y + h)), ((y, y + h), (x, x + w)))
        };
        let forward = matches!(dir, Direction::Right | Direction::Down);
        let ((my_lo, my_hi), (my_start, my_end)) = span(me);
        let mut best: Option<(u32, u32, PaneId)> = None;
        for &(id, r) in &rects {
            let ((lo, hi), (start, end)) = span(r);
            let touches = if forward { lo == my_hi } else { hi == my_lo };
            let overlap = my_end.min(end).saturating_sub(my_start.max(start));
            let distance = (start + end).abs_diff(my_start + my_end);
            let better = best.is_none_or(|(o, d, _)| overlap > o || (overlap == o && distance < d));
            if id != pane && touches && overlap > 0 && better {
                best = Some((overlap, distance, id));
            }
        }
        best.map(|(_, _, id)| id)
    }

    /// Rearrange all panes into a preset, keeping `panes()` order, except that `main` (or
    /// the first pane, if `main` is not here) comes first in the main-* presets, taking
    /// `main_percent` of the width (MainVertical) or height (MainHorizontal). Tiled has
    /// ceil(sqrt(n)) columns, the last row's panes sharing its full width.
    pub fn apply_preset(&mut self, preset: LayoutPreset, main: PaneId, main_percent: u8) {
        let percent = u32::from(main_percent.clamp(1, 99));
        self.apply_preset_share(preset, main, (percent, 100 - percent), None);
    }

    /// [`Self::apply_preset`] with the main pane's share of the window given as weights
    /// (main, the rest): `main-pane-width` in cells is (its cells, the window's rest).
    /// `tiles`: the layout's area with tmux's shared borders, whose presets then share
    /// cells exactly as tmux's do (the last pane of a row gets what is left).
    pub fn apply_preset_share(
        &mut self,
        preset: LayoutPreset,
        main: PaneId,
        share: (u32, u32),
        tiles: Option<Rect>,
    ) {
        let panes = self.panes();
        let first = panes.first().copied().unwrap_or(main);
        let main = if panes.contains(&main) { main } else { first };
        let tiles = tiles.map(|r| (r.width, r.height));
        self.root = preset_tree(preset, &panes, main, share, tiles);
    }

    /// Replace pane id `old` with `new` in place (for respawn). Returns false if `old` is
    /// unknown or `new` is already another pane of this layout.
    pub fn replace(&mut self, old: PaneId, new: PaneId) -> bool {
        let taken = old != new && self.contains(new);
        let path = self.root.path_to(old).filter(|_| !taken);
        match path.and_then(|p| self.root.at_mut(&p)) {
            Some(node) => *node = Node::Pane(new),
            None => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests;
