//! A window's layout as tmux writes it (`#{window_layout}`, `list-windows`): a
//! checksum, then `WxH,X,Y` and either a pane number or `{...}` (side by side) /
//! `[...]` (stacked) of children.
//!
//! tmux's panes share one-cell dividers; fugue's draw their own borders, so the string
//! is what tmux would show for the same split tree and weights in the same window:
//! a split of N children gives them its cells less N-1 dividers, shared by weight. A
//! real tmux accepts it (`select-layout`), and tools that read tmux's strings
//! (tmux-resurrect, tmuxp) read fugue's.

use super::sizing::{child_extents, distribute};
use super::{Axis, Borders, Frame, Layout, Node, Rect};
use fugue_protocol::PaneId;

impl Layout {
    /// tmux's layout string for this layout in a window of `area`'s size.
    pub fn tmux_string(&self, area: Rect, borders: Borders) -> String {
        let mut body = String::new();
        let window = Rect { x: 0, y: 0, ..area };
        match borders {
            Borders::Boxed => dump(&self.root, window, &mut body),
            Borders::Shared => {
                let frame = Frame {
                    borders,
                    ..Frame::default()
                };
                dump_tiles(&self.root, frame.layout_area(window), &mut body);
            }
        }
        format!("{:04x},{body}", checksum(&body))
    }
}

/// With shared borders each tile is tmux's cell and the border after it: the string
/// gives the cells exactly as the panes are laid out.
fn dump_tiles(node: &Node, tile: Rect, out: &mut String) {
    out.push_str(&format!(
        "{}x{},{},{}",
        tile.width.saturating_sub(1),
        tile.height.saturating_sub(1),
        tile.x,
        tile.y
    ));
    match node {
        Node::Pane(id) => out.push_str(&format!(",{}", id.0)),
        Node::Split { axis, children } => {
            let (open, close) = match axis {
                Axis::X => ('{', '}'),
                Axis::Y => ('[', ']'),
            };
            out.push(open);
            let mut offset = 0u16;
            for (i, (child, len)) in children
                .iter()
                .zip(child_extents(*axis, children, tile))
                .enumerate()
            {
                if i > 0 {
                    out.push(',');
                }
                dump_tiles(&child.node, axis.slice(tile, offset, len), out);
                offset = offset.saturating_add(len);
            }
            out.push(close);
        }
    }
}

/// tmux's layout checksum: a 16-bit rotate-and-add over the string's bytes.
pub fn checksum(s: &str) -> u16 {
    s.bytes().fold(0u16, |csum, b| {
        let rotated = (csum >> 1) | ((csum & 1) << 15);
        rotated.wrapping_add(u16::from(b))
    })
}

fn dump(node: &Node, rect: Rect, out: &mut String) {
    out.push_str(&format!(
        "{}x{},{},{}",
        rect.width, rect.height, rect.x, rect.y
    ));
    match node {
        Node::Pane(id) => out.push_str(&format!(",{}", id.0)),
        Node::Split { axis, children } => {
            let (open, close) = match axis {
                Axis::X => ('{', '}'),
                Axis::Y => ('[', ']'),
            };
            let dividers = u16::try_from(children.len().saturating_sub(1)).unwrap_or(u16::MAX);
            let content = axis.extent(rect).saturating_sub(dividers);
            let weights: Vec<u32> = children.iter().map(|c| c.weight.max(1)).collect();
            // No minimums: this only describes the tree.
            let sizes = distribute(content, &weights, &vec![0; children.len()]);
            out.push(open);
            let mut offset = 0u16;
            for (i, (child, len)) in children.iter().zip(sizes).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                dump(&child.node, axis.slice(rect, offset, len), out);
                offset = offset.saturating_add(len).saturating_add(1);
            }
            out.push(close);
        }
    }
}

/// Layout strings longer than this are refused: a window holds at most a few hundred
/// panes, each under 40 bytes of layout.
pub const MAX_LAYOUT_BYTES: usize = 16 * 1024;
/// Splits nested deeper than this are refused (the parser recurses once per level).
const MAX_DEPTH: usize = 64;

/// A cell of a parsed tmux layout: its extent across and down, and its contents.
struct Cell {
    width: u32,
    height: u32,
    kind: Kind,
}

enum Kind {
    Pane,
    Split(Axis, Vec<Cell>),
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn number(&mut self) -> Result<u32, String> {
        let start = self.at;
        while self.s.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        std::str::from_utf8(self.s.get(start..self.at).unwrap_or_default())
            .ok()
            .filter(|d| !d.is_empty() && d.len() <= 9)
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("expected a number at byte {start}"))
    }

    fn expect(&mut self, b: u8) -> Result<(), String> {
        if self.s.get(self.at) == Some(&b) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", b as char, self.at))
        }
    }

    fn cell(&mut self, depth: usize) -> Result<Cell, String> {
        if depth > MAX_DEPTH {
            return Err("splits nested too deep".into());
        }
        let width = self.number()?;
        self.expect(b'x')?;
        let height = self.number()?;
        self.expect(b',')?;
        self.number()?;
        self.expect(b',')?;
        self.number()?;
        let (axis, close) = match self.s.get(self.at) {
            Some(b',') => {
                self.at += 1;
                self.number()?;
                return Ok(Cell {
                    width,
                    height,
                    kind: Kind::Pane,
                });
            }
            Some(b'{') => (Axis::X, b'}'),
            Some(b'[') => (Axis::Y, b']'),
            _ => return Err(format!("expected `,`, `{{` or `[` at byte {}", self.at)),
        };
        self.at += 1;
        let mut children = vec![self.cell(depth + 1)?];
        while self.s.get(self.at) == Some(&b',') {
            self.at += 1;
            children.push(self.cell(depth + 1)?);
        }
        self.expect(close)?;
        Ok(Cell {
            width,
            height,
            kind: Kind::Split(axis, children),
        })
    }
}

fn count(cell: &Cell) -> usize {
    match &cell.kind {
        Kind::Pane => 1,
        Kind::Split(_, children) => children.iter().map(count).sum(),
    }
}

/// The node for `cell`, its panes taken from `panes` in order. A child's weight is
/// its extent, so `tmux_string` (which shares the split's cells less tmux's dividers
/// by weight) writes the same string back, and fugue's boxes are within a cell of
/// tmux's panes.
/// With shared borders the weight is the extent and its border, the tile's.
fn build(cell: &Cell, panes: &mut impl Iterator<Item = PaneId>, borders: Borders) -> Node {
    let border = u32::from(borders == Borders::Shared);
    match &cell.kind {
        Kind::Pane => Node::Pane(panes.next().unwrap_or(PaneId(0))),
        Kind::Split(axis, children) => Node::split(
            *axis,
            children.iter().map(|c| {
                let extent = axis.pick(c.width, c.height).saturating_add(border);
                (
                    extent.clamp(1, u32::from(u16::MAX)),
                    build(c, panes, borders),
                )
            }),
        ),
    }
}

impl Layout {
    /// Parses a tmux layout string (`select-layout 'bb62,159x48,0,0{79x48,0,0,1,...}'`)
    /// for a window whose panes are `panes` (in index order): the checksum must match
    /// and the string must have as many panes; the panes fill its cells in order, as
    /// tmux fills them, whatever ids the string names.
    pub fn from_tmux(s: &str, panes: &[PaneId], borders: Borders) -> Result<Layout, String> {
        if s.len() > MAX_LAYOUT_BYTES {
            return Err(format!("longer than {MAX_LAYOUT_BYTES} bytes"));
        }
        let (sum, body) = s
            .split_once(',')
            .filter(|(sum, _)| sum.len() == 4)
            .ok_or("expected a checksum first")?;
        let sum = u16::from_str_radix(sum, 16).map_err(|_| "expected a checksum first")?;
        if sum != checksum(body) {
            return Err("the checksum does not match".into());
        }
        let mut p = Parser {
            s: body.as_bytes(),
            at: 0,
        };
        let cell = p.cell(0)?;
        if p.at != body.len() {
            return Err(format!("unexpected text at byte {}", p.at));
        }
        let need = count(&cell);
        if need != panes.len() {
            return Err(format!("have {} panes but need {need}", panes.len()));
        }
        let mut root = build(&cell, &mut panes.iter().copied(), borders);
        super::normalize(&mut root);
        let mut seen = std::collections::HashSet::new();
        super::validate(&root, None, &mut seen)?;
        Ok(Layout { root })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::{Direction, PaneId};

    #[test]
    fn a_layout_string_reads_back_as_the_same_layout() {
        let area = Rect {
            x: 0,
            y: 0,
            width: 80,
            height: 24,
        };
        let mut l = Layout::new(PaneId(0));
        l.split(
            PaneId(0),
            PaneId(1),
            Direction::Right,
            Some(fugue_protocol::SplitSize::Percent(30)),
            area,
        )
        .unwrap();
        l.split(PaneId(1), PaneId(2), Direction::Down, None, area)
            .unwrap();
        let s = l.tmux_string(area, Borders::Boxed);
        let ids = [PaneId(5), PaneId(6), PaneId(7)];
        let back = Layout::from_tmux(&s, &ids, Borders::Boxed).unwrap();
        let rects = |l: &Layout| {
            l.geometry(area)
                .into_iter()
                .map(|(_, r)| r)
                .collect::<Vec<_>>()
        };
        // tmux shares out a divider fugue does not have: each box within a cell.
        for (a, b) in rects(&back).into_iter().zip(rects(&l)) {
            let near = |x: u16, y: u16| x.abs_diff(y) <= 1;
            assert!(near(a.x, b.x) && near(a.y, b.y), "{a:?} {b:?}");
            assert!(
                near(a.width, b.width) && near(a.height, b.height),
                "{a:?} {b:?}"
            );
        }
        assert_eq!(back.panes(), ids);
        // tmux's own string, from tmux 3.3a.
        let tmux = "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}";
        assert!(Layout::from_tmux(tmux, &ids, Borders::Boxed).is_ok());
        // A wrong checksum, the wrong number of panes, junk.
        assert!(Layout::from_tmux(&tmux.replace("d67e", "d67f"), &ids, Borders::Boxed).is_err());
        assert!(
            Layout::from_tmux(tmux, &ids[..2], Borders::Boxed).is_err_and(|e| e.contains("need 3"))
        );
        let junk = format!("{:04x},80x24,0,0{{", checksum("80x24,0,0{"));
        assert!(Layout::from_tmux(&junk, &ids, Borders::Boxed).is_err());
        let deep = format!("80x24,0,0{},1{}", "{1x1,0,0".repeat(100), "}".repeat(100));
        assert!(
            Layout::from_tmux(
                &format!("{:04x},{deep}", checksum(&deep)),
                &ids,
                Borders::Boxed
            )
            .is_err()
        );
    }

    #[test]
    fn checksum_is_tmuxs() {
        // From tmux 3.3a: an 80x24 window split left/right, the right half split again.
        let body = "80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}";
        assert_eq!(format!("{:04x}", checksum(body)), "d67e");
    }

    #[test]
    fn splits_read_as_tmux_writes_them() {
        let area = Rect {
            x: 0,
            y: 0,
            width: 80,
            height: 24,
        };
        let mut l = Layout::new(PaneId(0));
        l.split(PaneId(0), PaneId(1), Direction::Right, None, area)
            .unwrap();
        l.split(PaneId(1), PaneId(2), Direction::Down, None, area)
            .unwrap();
        assert_eq!(
            l.tmux_string(area, Borders::Boxed),
            "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}"
        );
        assert_eq!(
            Layout::new(PaneId(7)).tmux_string(area, Borders::Boxed),
            format!("{:04x},80x24,0,0,7", checksum("80x24,0,0,7"))
        );
    }

    #[test]
    fn shared_borders_write_the_cells_as_laid_out() {
        let area = Rect {
            x: 0,
            y: 0,
            width: 80,
            height: 24,
        };
        let tiles = Frame {
            borders: Borders::Shared,
            ..Frame::default()
        }
        .layout_area(area);
        let mut l = Layout::new(PaneId(0));
        l.split(PaneId(0), PaneId(1), Direction::Right, None, tiles)
            .unwrap();
        let s = l.tmux_string(area, Borders::Shared);
        assert_eq!(
            s,
            format!(
                "{:04x},80x24,0,0{{40x24,0,0,0,39x24,41,0,1}}",
                checksum("80x24,0,0{40x24,0,0,0,39x24,41,0,1}")
            )
        );
        let back = Layout::from_tmux(&s, &[PaneId(0), PaneId(1)], Borders::Shared).unwrap();
        assert_eq!(back.geometry(tiles), l.geometry(tiles));
    }
}
