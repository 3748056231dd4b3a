//! A window's layout as tmux writes it (`#{window_layout}`, `list-windows`): a
//! checksum, then `WxH,X,Y` and either a pane number or `{...}` (side by side) /
//! `[...]` (stacked) of children.
//!
//! tmux's panes share one-cell dividers; fugue's draw their own borders, so the string
//! is what tmux would show for the same split tree and weights in the same window:
//! a split of N children gives them its cells less N-1 dividers, shared by weight. A
//! real tmux accepts it (`select-layout`), and tools that read tmux's strings
//! (tmux-resurrect, tmuxp) read fugue's.

use super::sizing::distribute;
use super::{Axis, Layout, Node, Rect};

impl Layout {
    /// tmux's layout string for this layout in a window of `area`'s size.
    pub fn tmux_string(&self, area: Rect) -> String {
        let mut body = String::new();
        dump(&self.root, Rect { x: 0, y: 0, ..area }, &mut body);
        format!("{:04x},{body}", checksum(&body))
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

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::{Direction, PaneId};

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
            l.tmux_string(area),
            "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}"
        );
        assert_eq!(
            Layout::new(PaneId(7)).tmux_string(area),
            format!("{:04x},80x24,0,0,7", checksum("80x24,0,0,7"))
        );
    }
}
