//! The layout tree of a window's panes.
//!
//! Every pane draws its own border (zellij style) rather than sharing one-cell dividers
//! with its neighbours (tmux style). That keeps the geometry simple: the panes' outer
//! rectangles tile the window's area exactly, with no gaps and no overlaps, and a pane
//! needs at least [`MIN_WIDTH`] x [`MIN_HEIGHT`] cells to fit its border and some content.
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

use std::cmp::Reverse;
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

/// Cells along `axis` for each child of a split that fills `rect`.
fn child_extents(axis: Axis, children: &[Child], rect: Rect) -> Vec<u16> {
    let weights: Vec<u32> = children.iter().map(|c| c.weight.max(1)).collect();
    let mins: Vec<u16> = children.iter().map(|c| c.node.min_extent(axis)).collect();
    distribute(axis.extent(rect), &weights, &mins)
}

/// Shares `total` cells out by weight, giving every child at least its minimum when the
/// total allows: children whose proportional share falls short are pinned at their
/// minimum and the rest is shared again among the others, until nobody falls short.
fn distribute(total: u16, weights: &[u32], mins: &[u16]) -> Vec<u16> {
    if mins.iter().map(|&m| u32::from(m)).sum::<u32>() > u32::from(total) {
        // Something must go below its minimum; shrinking in proportion to the minimums
        // keeps every pane as visible as possible and the tiling exact.
        let by_min: Vec<u32> = mins.iter().map(|&m| u32::from(m.max(1))).collect();
        return largest_remainder(total, &by_min);
    }
    let mut sizes: Vec<Option<u16>> = vec![None; weights.len()];
    loop {
        let free: Vec<usize> = (0..weights.len()).filter(|&i| sizes[i].is_none()).collect();
        let rest = total.saturating_sub(sizes.iter().flatten().sum());
        let weight_sum: u128 = free.iter().map(|&i| u128::from(weights[i])).sum();
        let falls_short =
            |i: usize| u128::from(rest) * u128::from(weights[i]) < u128::from(mins[i]) * weight_sum;
        let short: Vec<usize> = free.iter().copied().filter(|&i| falls_short(i)).collect();
        if short.is_empty() {
            let free_weights: Vec<u32> = free.iter().map(|&i| weights[i]).collect();
            for (&i, size) in free.iter().zip(largest_remainder(rest, &free_weights)) {
                sizes[i] = Some(size);
            }
            return sizes.into_iter().map(|s| s.unwrap_or(0)).collect();
        }
        short.into_iter().for_each(|i| sizes[i] = Some(mins[i]));
    }
}

/// Proportional integer shares of `total` that add up to exactly `total`: floors first,
/// then the leftover cells go to the largest remainders (earlier children win ties).
fn largest_remainder(total: u16, weights: &[u32]) -> Vec<u16> {
    let total = u64::from(total);
    let sum: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let share = |i: usize| total * u64::from(weights[i]);
    let mut sizes: Vec<u64> = (0..weights.len()).map(|i| share(i) / sum).collect();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| Reverse(share(i) % sum));
    let leftover = total.saturating_sub(sizes.iter().sum());
    for &i in order.iter().take(leftover as usize) {
        sizes[i] += 1;
    }
    // No share exceeds `total`, which came from a u16.
    sizes.into_iter().map(|s| s as u16).collect()
}

/// Makes a split's weights equal to its children's current cells.
fn rebase(children: &mut [Child], cells: &[u16]) {
    for (child, &len) in children.iter_mut().zip(cells) {
        child.weight = u32::from(len.max(1));
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

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
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

/// `panes` side by side (X) or stacked (Y) in equal shares.
fn even(axis: Axis, panes: &[PaneId]) -> Node {
    match panes {
        [only] => Node::Pane(*only),
        _ => Node::split(axis, panes.iter().map(|&p| (1, Node::Pane(p)))),
    }
}

/// Rearranges the panes (never empty) into `preset`.
fn preset_tree(preset: LayoutPreset, panes: &[PaneId], main: PaneId, percent: u8) -> Node {
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
    let percent = u32::from(percent.clamp(1, 99));
    let rest = even(axis.pick(Axis::Y, Axis::X), &others);
    let main = Node::Pane(main_first);
    Node::split(axis, [(percent, main), (100 - percent, rest)])
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

    /// Split `target`, placing `new` on side `dir` of it, taking `size` of target's extent
    /// along the split axis (None: half, the smaller half on odd sizes). NoRoom when either
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
        let axis = Axis::of(dir);
        let (min, before) = (axis.min(), matches!(dir, Direction::Left | Direction::Up));
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
        let Some(path) = self.root.path_to(target) else {
            return Err(LayoutError::UnknownPane(target));
        };
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
        let rect = self.root.rect_of(&path[..depth], area);
        let Some(Node::Split { children, .. }) = self.root.at_mut(&path[..depth]) else {
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
            let spare = cells[g].saturating_sub(children[g].node.min_extent(axis));
            let take = spare.min(left);
            cells[g] -= take;
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
        let panes = self.panes();
        let first = panes.first().copied().unwrap_or(main);
        let main = if panes.contains(&main) { main } else { first };
        self.root = preset_tree(preset, &panes, main, main_percent);
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
mod tests {
    use super::*;
    use Direction::{Down, Left, Right, Up};
    use LayoutPreset::*;
    use SplitSize::{Cells, Percent};
    use proptest::prelude::*;

    const AREA: Rect = r(0, 0, 160, 47);
    const PRESETS: [LayoutPreset; 5] = [
        EvenHorizontal,
        EvenVertical,
        MainVertical,
        MainHorizontal,
        Tiled,
    ];

    fn p(n: u32) -> PaneId {
        PaneId(n)
    }

    const fn r(x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    fn rects(l: &Layout, area: Rect) -> Vec<Rect> {
        l.geometry(area).into_iter().map(|(_, r)| r).collect()
    }

    fn widths(l: &Layout, area: Rect) -> Vec<u16> {
        rects(l, area).iter().map(|r| r.width).collect()
    }

    fn spread(v: impl IntoIterator<Item = u16> + Clone) -> u16 {
        v.clone().into_iter().max().unwrap_or(0) - v.into_iter().min().unwrap_or(0)
    }

    /// Pane 1 split by each (target, new, dir) in turn, new panes taking half.
    fn build(splits: &[(u32, u32, Direction)], area: Rect) -> Layout {
        let mut l = Layout::new(p(1));
        for &(target, new, dir) in splits {
            l.split(p(target), p(new), dir, None, area).unwrap();
        }
        l
    }

    /// Panes 1..=n side by side in equal shares.
    fn row(n: u32) -> Layout {
        let splits: Vec<_> = (2..=n).map(|i| (i - 1, i, Right)).collect();
        let mut l = build(&splits, r(0, 0, 999, 9));
        l.apply_preset(EvenHorizontal, p(1), 50);
        l
    }

    /// Every cell of `area` covered exactly once; with `strict`, every pane at its minimum.
    fn check_tiling(l: &Layout, area: Rect, strict: bool) {
        validate(&l.root, None, &mut HashSet::new()).unwrap();
        let geo = l.geometry(area);
        assert_eq!(geo.iter().map(|g| g.0).collect::<Vec<_>>(), l.panes());
        let (w, h) = (usize::from(area.width), usize::from(area.height));
        let mut grid = vec![0u8; w * h];
        for &(id, r) in &geo {
            let inside = r.x >= area.x && r.x + r.width <= area.x + area.width;
            let inside = inside && r.y >= area.y && r.y + r.height <= area.y + area.height;
            assert!(inside, "{id} {r:?} outside {area:?}");
            let big = r.width >= MIN_WIDTH && r.height >= MIN_HEIGHT;
            assert!(big || !strict, "{id} {r:?} below the minimum");
            for y in usize::from(r.y - area.y)..usize::from(r.y - area.y + r.height) {
                for x in usize::from(r.x - area.x)..usize::from(r.x - area.x + r.width) {
                    grid[y * w + x] = grid[y * w + x].saturating_add(1);
                }
            }
        }
        assert!(grid.iter().all(|&c| c == 1), "overlaps or gaps in {geo:?}");
    }

    #[test]
    fn split_right_down_right_gives_expected_rects() {
        let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
        let expected = [
            (p(1), r(0, 0, 80, 47)),
            (p(2), r(80, 0, 80, 24)),
            (p(3), r(80, 24, 40, 23)),
            (p(4), r(120, 24, 40, 23)),
        ];
        assert_eq!(l.geometry(AREA), expected);
        l.split(p(1), p(5), Left, None, AREA).unwrap();
        l.split(p(4), p(6), Up, None, AREA).unwrap();
        assert_eq!(l.panes(), [5, 1, 2, 3, 6, 4].map(p));
        assert_eq!(rects(&l, AREA)[0], r(0, 0, 40, 47));
        assert_eq!(rects(&l, AREA)[4], r(120, 24, 40, 11));
        check_tiling(&l, AREA, true);
    }

    #[test]
    fn repeated_right_splits_flatten_and_halve() {
        let l = build(&[(1, 2, Right), (2, 3, Right), (3, 4, Right)], AREA);
        assert!(matches!(&l.root, Node::Split { axis: Axis::X, children } if children.len() == 4));
        assert_eq!(widths(&l, AREA), [80, 40, 20, 20]);
    }

    #[test]
    fn percent_and_cells_sizes_and_errors() {
        let mut l = Layout::new(p(1));
        l.split(p(1), p(2), Right, Some(Percent(25)), AREA).unwrap();
        l.split(p(1), p(3), Down, Some(Cells(30)), AREA).unwrap();
        let expected = [r(0, 0, 120, 17), r(0, 17, 120, 30), r(120, 0, 40, 47)];
        assert_eq!(rects(&l, AREA), expected);

        let mut t = Layout::new(p(1));
        let small = r(0, 0, 9, 20);
        let cases = [
            (Right, None, small, 10, 9),
            (Down, Some(Percent(10)), small, 25, 20),
            (Down, Some(Cells(18)), small, 21, 20),
            (Right, None, r(0, 0, 100, 2), 3, 2),
        ];
        let no_room = |needed, available| LayoutError::NoRoom {
            pane: p(1),
            needed,
            available,
        };
        for (dir, size, area, needed, available) in cases {
            let err = t.split(p(1), p(2), dir, size, area).unwrap_err();
            assert_eq!(err, no_room(needed, available));
            assert!(err.to_string().contains("too small to split"));
        }
        for size in [Percent(0), Percent(100), Percent(120), Cells(0), Cells(4)] {
            let err = t.split(p(1), p(2), Right, Some(size), AREA);
            assert!(matches!(err, Err(LayoutError::InvalidSize(_))));
        }
        assert!(matches!(
            t.split(p(1), p(1), Right, None, AREA),
            Err(LayoutError::InvalidSize(_))
        ));
        let err = t.split(p(7), p(2), Right, None, AREA);
        assert_eq!(err, Err(LayoutError::UnknownPane(p(7))));
        assert_eq!(t, Layout::new(p(1)));
    }

    #[test]
    fn remove_collapses_and_gives_space_to_the_neighbour() {
        for (gone, left, expected) in [
            (2, [1, 3], [100, 50]),
            (1, [2, 3], [100, 50]),
            (3, [1, 2], [50, 100]),
        ] {
            let mut l = row(3);
            assert!(l.remove(p(gone)));
            assert_eq!(
                (l.panes(), widths(&l, r(0, 0, 150, 9))),
                (left.map(p).to_vec(), expected.to_vec())
            );
        }
        // 1 | (2 over (3 | 4)): removing 2 leaves 3 and 4 in the root row, same widths.
        let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
        assert!(l.remove(p(2)));
        assert!(matches!(&l.root, Node::Split { children, .. } if children.len() == 3));
        assert_eq!(widths(&l, AREA), [80, 40, 40]);
        check_tiling(&l, AREA, true);
        assert!(l.remove(p(3)) && l.remove(p(4)));
        assert_eq!(l, Layout::new(p(1)));
        assert!(!l.remove(p(1)), "the last pane stays");
        assert!(!l.remove(p(9)));
        assert_eq!((l.len(), l.is_empty()), (1, false));
    }

    #[test]
    fn replace_keeps_the_place() {
        let mut l = row(3);
        let before = rects(&l, AREA);
        assert!(l.replace(p(2), p(9)) && rects(&l, AREA) == before);
        assert_eq!(l.panes(), [1, 9, 3].map(p));
        assert!(!l.replace(p(2), p(10)) && !l.replace(p(1), p(3)));
    }

    #[test]
    fn resize_grows_shrinks_and_clamps() {
        let mut l = build(&[(1, 2, Right)], AREA);
        assert!(l.resize(p(1), Right, 10, AREA));
        assert_eq!(widths(&l, AREA), [90, 70]);
        // Pane 2 touches the right edge, so its left border moves right.
        assert!(l.resize(p(2), Right, 10, AREA));
        assert_eq!(widths(&l, AREA), [100, 60]);
        // Pane 1 touches the left edge, so its right border moves left.
        assert!(l.resize(p(1), Left, 5, AREA));
        assert_eq!(widths(&l, AREA), [95, 65]);
        assert!(l.resize(p(2), Right, 1000, AREA));
        assert_eq!(widths(&l, AREA), [160 - MIN_WIDTH, MIN_WIDTH]);
        assert!(!l.resize(p(2), Right, 1, AREA));
        assert!(!l.resize(p(1), Up, 3, AREA), "no border along that axis");
        assert!(!l.resize(p(9), Up, 3, AREA) && !l.resize(p(1), Right, 0, AREA));
    }

    #[test]
    fn resize_uses_the_nearest_ancestor_border() {
        let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
        // Pane 3 is first in its own row, so its left border is the root split's.
        assert!(l.resize(p(3), Left, 10, AREA));
        assert_eq!(widths(&l, AREA), [70, 90, 45, 45]);
        // Pane 4's left border is in its own split.
        assert!(l.resize(p(4), Left, 5, AREA));
        assert_eq!(rects(&l, AREA)[3], r(110, 24, 50, 23));
        // Pane 4's top border belongs to its grandparent, the column holding pane 2.
        assert!(l.resize(p(4), Up, 4, AREA));
        assert_eq!(rects(&l, AREA)[1], r(70, 0, 90, 20));
        check_tiling(&l, AREA, true);
        // Growing past a neighbour's minimum takes from the panes beyond it, like tmux.
        let mut l = row(3);
        assert!(l.resize(p(1), Right, 60, r(0, 0, 150, 40)));
        assert_eq!(widths(&l, r(0, 0, 150, 40)), [110, 5, 35]);
    }

    #[test]
    fn neighbors_in_a_grid_and_an_l_shape() {
        let area = r(0, 0, 150, 48);
        let n = |l: &Layout, i, d| l.neighbor(p(i), d, area).map(|p| p.0);
        let all = |l: &Layout, i| [Left, Right, Up, Down].map(|d| n(l, i, d));
        let mut grid = row(4);
        grid.apply_preset(Tiled, p(1), 50);
        assert_eq!(all(&grid, 1), [None, Some(2), None, Some(3)]);
        assert_eq!(all(&grid, 4), [Some(3), None, Some(2), None]);
        assert_eq!((n(&grid, 2, Left), n(&grid, 3, Up)), (Some(1), Some(1)));
        // 1 | (2 over 3): equal overlaps and distances fall back to reading order.
        let mut l = build(&[(1, 2, Right), (2, 3, Down)], area);
        assert_eq!(all(&l, 1), [None, Some(2), None, None]);
        assert_eq!(all(&l, 2), [Some(1), None, None, Some(3)]);
        assert_eq!(all(&l, 3), [Some(1), None, Some(2), None]);
        // Pane 3 now shares more of pane 1's edge than pane 2 does.
        assert!(l.resize(p(2), Up, 10, area));
        assert_eq!((n(&l, 1, Right), n(&l, 9, Right)), (Some(3), None));
        // 4 over (1 | 2 | 3): equal overlaps below 4, so the centre decides.
        l = row(4);
        l.apply_preset(MainHorizontal, p(4), 50);
        assert_eq!(n(&l, 4, Down), Some(2));
    }

    #[test]
    fn presets_for_one_to_seven_panes() {
        let area = r(2, 1, 240, 120);
        for (n, preset) in (1..=7usize).flat_map(|n| PRESETS.map(|preset| (n, preset))) {
            let mut l = row(n as u32);
            // The last pane is the main one, so the main-* presets visibly move it first.
            l.apply_preset(preset, p(n as u32), 60);
            check_tiling(&l, area, true);
            let mut order: Vec<PaneId> = (1..=n as u32).map(p).collect();
            if matches!(preset, MainVertical | MainHorizontal) {
                order.rotate_right(1);
            }
            assert_eq!(l.panes(), order);
            let rs = rects(&l, area);
            let ys: HashSet<u16> = rs.iter().map(|r| r.y).collect();
            let even = |rs: &[Rect], f: fn(&Rect) -> u16| spread(rs.iter().map(f)) <= 1;
            let w: fn(&Rect) -> u16 = |r| r.width;
            let h: fn(&Rect) -> u16 = |r| r.height;
            let (main, rest, cols) = (rs[0], &rs[1..], (1..).find(|c| c * c >= n).unwrap());
            let same_y = |row: &[Rect]| row.iter().all(|r| r.y == row[0].y);
            let ok = match preset {
                _ if n == 1 => rs == [area],
                EvenHorizontal => ys.len() == 1 && even(&rs, w),
                EvenVertical => ys.len() == n && even(&rs, h),
                MainVertical => main == r(2, 1, 144, 120) && rest.iter().all(|r| r.x == 146),
                MainHorizontal => main == r(2, 1, 240, 72) && rest.iter().all(|r| r.y == 73),
                // Rows filled in turn, each row's panes sharing its full width.
                Tiled => ys.len() == n.div_ceil(cols) && rs.chunks(cols).all(same_y),
            };
            let even_rest = match preset {
                MainVertical => even(rest, h),
                MainHorizontal => even(rest, w),
                Tiled => rs.chunks(cols).all(|row| even(row, w)) && even(&rs, h),
                _ => true,
            };
            assert!(
                ok && (n == 1 || even_rest),
                "{preset:?} with {n} panes: {rs:?}"
            );
        }
        // A main pane that is not here, and a percentage out of range.
        let mut l = row(3);
        l.apply_preset(MainVertical, p(42), 0);
        assert_eq!(
            (l.panes(), widths(&l, AREA)[0]),
            ([1, 2, 3].map(p).to_vec(), MIN_WIDTH)
        );
    }

    #[test]
    fn serde_round_trip_and_validation() {
        let mut l = build(&[(1, 2, Right), (2, 3, Down)], AREA);
        l.resize(p(1), Right, 7, AREA);
        let back: Layout = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
        let child = |w, id| format!(r#"{{"weight":{w},"node":{{"Pane":{id}}}}}"#);
        for kids in [
            child(1, 1),
            child(1, 1) + "," + &child(1, 1),
            child(0, 1) + "," + &child(1, 2),
        ] {
            let json = format!(r#"{{"root":{{"Split":{{"axis":"X","children":[{kids}]}}}}}}"#);
            assert!(serde_json::from_str::<Layout>(&json).is_err(), "{json}");
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Split(usize, Direction, Option<SplitSize>),
        Remove(usize),
        Resize(usize, Direction, u16),
        Preset(LayoutPreset, usize, u8),
        Window(u16, u16),
    }

    fn op() -> impl Strategy<Value = Op> {
        let dir = || prop::sample::select(vec![Left, Right, Up, Down]);
        let size = prop_oneof![
            Just(None),
            (0u8..=120).prop_map(|p| Some(Percent(p))),
            (0u16..200).prop_map(|c| Some(Cells(c))),
        ];
        let preset = prop::sample::select(PRESETS.to_vec());
        prop_oneof![
            5 => (any::<usize>(), dir(), size).prop_map(|(i, d, s)| Op::Split(i, d, s)),
            2 => any::<usize>().prop_map(Op::Remove),
            3 => (any::<usize>(), dir(), 0u16..80).prop_map(|(i, d, a)| Op::Resize(i, d, a)),
            1 => (preset, any::<usize>(), any::<u8>()).prop_map(|(p, i, m)| Op::Preset(p, i, m)),
            1 => (1u16..300, 1u16..100).prop_map(|(w, h)| Op::Window(w, h)),
        ]
    }

    proptest! {
        #[test]
        fn random_operations_keep_an_exact_tiling(
            w in 1u16..300,
            h in 1u16..100,
            ops in proptest::collection::vec(op(), 0..60),
        ) {
            let (mut area, mut l, mut next) = (r(3, 2, w, h), Layout::new(p(0)), 1);
            let roomy = |l: &Layout, a: Rect| {
                let n = l.len() as u16;
                a.width >= n * MIN_WIDTH && a.height >= n * MIN_HEIGHT
            };
            for op in ops {
                let panes = l.panes();
                let pick = |i: usize| panes[i % panes.len()];
                let before = l.geometry(area);
                match op {
                    Op::Split(i, dir, size) => {
                        if l.split(pick(i), p(next), dir, size, area).is_ok() {
                            next += 1;
                            // Splitting a pane leaves every other pane where it was.
                            let after = l.geometry(area);
                            let moved = before.iter().any(|g| g.0 != pick(i) && !after.contains(g));
                            prop_assert!(!roomy(&l, area) || !moved);
                        }
                    }
                    Op::Remove(i) => {
                        let n = l.len();
                        prop_assert_eq!(l.remove(pick(i)), n > 1);
                        prop_assert_eq!(l.len(), n.saturating_sub(1).max(1));
                    }
                    Op::Resize(i, dir, amount) => {
                        if !l.resize(pick(i), dir, amount, area) {
                            prop_assert_eq!(l.geometry(area), before);
                        }
                    }
                    Op::Preset(preset, i, pct) => l.apply_preset(preset, pick(i), pct),
                    Op::Window(w, h) => area = r(3, 2, w, h),
                }
                check_tiling(&l, area, roomy(&l, area));
                for d in [Left, Right, Up, Down] {
                    let _ = l.neighbor(pick(0), d, area);
                }
            }
        }
    }
}
