//! Writing cells to the terminal with everything a pane's cells carry.
//!
//! ratatui's crossterm backend writes a cell's colours and its nine modifiers, but a
//! pane's cells also have an underline style (double, curly, dotted, dashed), an
//! overline and a hyperlink, which it has no way to write. The first two ride in the
//! modifier bits ratatui leaves unused (it compares and copies all sixteen, so its diff
//! sees them change), hyperlinks in a grid of their own beside the buffer ([`Links`]),
//! and the cells are written here: one full SGR sequence where the look changes (`0;`
//! first, so nothing is left over from the cell before), `OSC 8` where the link does.

use fugue_protocol::screen::{Hyperlink, attr};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use std::io::Write;
use std::sync::Arc;

/// Overline (`SGR 53`), in a modifier bit ratatui does not use.
pub const OVERLINE: Modifier = Modifier::from_bits_retain(1 << 12);
/// The underline style less one (0 single, 1 double, 2 curly, 3 dotted, 4 dashed), in
/// three modifier bits ratatui does not use; meaningful with `UNDERLINED`.
const UNDERLINE_SHIFT: u16 = 13;

/// The modifier bits for the underline style of protocol attributes `attrs`.
pub fn underline_style(attrs: u16) -> Modifier {
    let n = attr::underline_sgr(attrs);
    if n <= 1 {
        Modifier::empty()
    } else {
        Modifier::from_bits_retain((n - 1) << UNDERLINE_SHIFT)
    }
}

/// A hyperlink for every cell of a buffer, row by row (None: no link).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    width: u16,
    cells: Vec<Option<Arc<Hyperlink>>>,
}

impl Links {
    pub fn new(area: Rect) -> Links {
        Links {
            width: area.width,
            cells: vec![None; usize::from(area.width) * usize::from(area.height)],
        }
    }

    pub fn reset(&mut self) {
        self.cells.fill(None);
    }

    fn index(&self, x: u16, y: u16) -> Option<usize> {
        (x < self.width).then(|| usize::from(y) * usize::from(self.width) + usize::from(x))
    }

    pub fn get(&self, x: u16, y: u16) -> Option<&Arc<Hyperlink>> {
        self.index(x, y)
            .and_then(|i| self.cells.get(i))
            .and_then(Option::as_ref)
    }

    pub fn set(&mut self, x: u16, y: u16, link: Option<Arc<Hyperlink>>) {
        if let Some(slot) = self.index(x, y).and_then(|i| self.cells.get_mut(i)) {
            *slot = link;
        }
    }

    /// No links in `area` (something is drawn over it).
    pub fn clear(&mut self, area: Rect) {
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                self.set(x, y, None);
            }
        }
    }

    /// Line `y` of `other` (of the same width) as line `to` of these links.
    pub fn copy_line(&mut self, to: u16, other: &Links, y: u16) {
        for x in 0..self.width.min(other.width) {
            self.set(x, to, other.get(x, y).cloned());
        }
    }
}

/// Two links are the same link when their `id=` and URI are (numbers are per pane).
fn same_link(a: Option<&Arc<Hyperlink>>, b: Option<&Arc<Hyperlink>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b) || (a.id == b.id && a.uri == b.uri),
        _ => false,
    }
}

/// The cells to write to turn what `shown` shows into `next`: ratatui's diff (which
/// knows wide characters), and the cells whose link alone changed.
pub fn diff<'a>(
    shown: &Buffer,
    next: &'a Buffer,
    shown_links: &Links,
    next_links: &Links,
) -> Vec<(u16, u16, &'a Cell)> {
    let mut cells = shown.diff(next);
    let width = next.area.width;
    let mut extra = Vec::new();
    for y in next.area.top()..next.area.bottom() {
        let mut covered = 0u16;
        for x in next.area.left()..next.area.right() {
            let Some(cell) = next.cell((x, y)) else {
                continue;
            };
            let here = covered == 0;
            covered = covered.saturating_sub(1);
            if here {
                covered = (unicode_width::UnicodeWidthStr::width(cell.symbol()) as u16)
                    .saturating_sub(1)
                    .min(width);
            }
            if here && !same_link(shown_links.get(x, y), next_links.get(x, y)) {
                extra.push((x, y, cell));
            }
        }
    }
    if !extra.is_empty() {
        cells.extend(extra);
        cells.sort_by_key(|&(x, y, _)| (y, x));
        cells.dedup_by_key(|&mut (x, y, _)| (y, x));
    }
    cells
}

/// The SGR codes of a ratatui colour (`base` 30 for the foreground, 40 for the
/// background; 58 for the underline, which has no short form).
fn color(out: &mut Vec<u8>, base: u8, c: Color) {
    let ext = if base == 58 { 58 } else { base + 8 };
    let named = match c {
        Color::Reset => return,
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        // The 16 ANSI colours in their short form (`34`, `94`), as tmux writes what a
        // program set with `34`: terminals brighten bold text only for SGR 30-37, and
        // the short form is shorter. vt100 keeps `34` and `38;5;4` alike.
        Color::Indexed(i) if i < 16 => i,
        Color::Indexed(i) => {
            let _ = write!(out, ";{ext};5;{i}");
            return;
        }
        Color::Rgb(r, g, b) => {
            let _ = write!(out, ";{ext};2;{r};{g};{b}");
            return;
        }
    };
    // Writing to a Vec cannot fail.
    let _ = match (base, named) {
        (58, i) => write!(out, ";58;5;{i}"),
        (_, i @ 0..8) => write!(out, ";{}", base + i),
        (_, i) => write!(out, ";{}", base + 60 + i - 8),
    };
}

/// The SGR sequence that gives a terminal in any state the look of `cell`.
fn sgr(out: &mut Vec<u8>, cell: &Cell) {
    let m = cell.modifier;
    out.extend_from_slice(b"\x1b[0");
    for (flag, code) in [
        (Modifier::BOLD, ";1"),
        (Modifier::DIM, ";2"),
        (Modifier::ITALIC, ";3"),
        (Modifier::SLOW_BLINK, ";5"),
        (Modifier::RAPID_BLINK, ";6"),
        (Modifier::REVERSED, ";7"),
        (Modifier::HIDDEN, ";8"),
        (Modifier::CROSSED_OUT, ";9"),
        (OVERLINE, ";53"),
    ] {
        if m.contains(flag) {
            out.extend_from_slice(code.as_bytes());
        }
    }
    if m.contains(Modifier::UNDERLINED) {
        let _ = match (m.bits() >> UNDERLINE_SHIFT) & 0b111 {
            0 => write!(out, ";4"),
            n => write!(out, ";4:{}", n + 1),
        };
    }
    color(out, 30, cell.fg);
    color(out, 40, cell.bg);
    color(out, 58, cell.underline_color);
    out.push(b'm');
}

fn osc8(out: &mut Vec<u8>, link: Option<&Arc<Hyperlink>>) {
    let mut s = String::new();
    match link {
        Some(l) => fugue_protocol::screen::write_osc8(&mut s, &l.id, &l.uri),
        None => fugue_protocol::screen::write_osc8(&mut s, "", ""),
    }
    out.extend_from_slice(s.as_bytes());
}

/// Writes `cells` (in the order given), each with the link `link` gives for its
/// position, and leaves the terminal in the default look with no link open.
pub fn write_cells<'a, 'l>(
    w: &mut impl Write,
    cells: impl IntoIterator<Item = (u16, u16, &'a Cell)>,
    link: impl Fn(u16, u16) -> Option<&'l Arc<Hyperlink>>,
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(4096);
    let mut last: Option<(u16, u16)> = None;
    let mut look: Option<&Cell> = None;
    let mut open: Option<&Arc<Hyperlink>> = None;
    for (x, y, cell) in cells {
        if !matches!(last, Some((lx, ly)) if ly == y && lx.checked_add(1) == Some(x)) {
            let _ = write!(out, "\x1b[{};{}H", u32::from(y) + 1, u32::from(x) + 1);
        }
        last = Some((x, y));
        let same = look.is_some_and(|l| {
            l.fg == cell.fg
                && l.bg == cell.bg
                && l.modifier == cell.modifier
                && l.underline_color == cell.underline_color
        });
        if !same {
            sgr(&mut out, cell);
            look = Some(cell);
        }
        let link = link(x, y);
        if !same_link(open, link) {
            osc8(&mut out, link);
            open = link;
        }
        out.extend_from_slice(cell.symbol().as_bytes());
    }
    if open.is_some() {
        osc8(&mut out, None);
    }
    if look.is_some() {
        out.extend_from_slice(b"\x1b[0m");
    }
    w.write_all(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    fn link(uri: &str) -> Option<Arc<Hyperlink>> {
        Some(Arc::new(Hyperlink {
            number: 1,
            id: String::new(),
            uri: uri.into(),
        }))
    }

    #[test]
    fn cells_are_written_with_every_attribute_and_their_link() {
        let area = Rect::new(0, 0, 4, 1);
        let mut buf = Buffer::empty(area);
        let curly = Style::default()
            .fg(Color::Red)
            .underline_color(Color::Rgb(1, 2, 3))
            .add_modifier(
                Modifier::UNDERLINED
                    | Modifier::CROSSED_OUT
                    | OVERLINE
                    | underline_style(attr::UNDERLINE | attr::CURLY),
            );
        buf.set_string(0, 0, "ab", curly);
        buf.set_string(2, 0, "c", Style::default());
        let mut links = Links::new(area);
        links.set(1, 0, link("http://x"));
        let mut out = Vec::new();
        let cells = diff(&Buffer::empty(area), &buf, &Links::new(area), &links);
        write_cells(&mut out, cells, |x, y| links.get(x, y)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "\x1b[1;1H\x1b[0;9;53;4:3;31;58;2;1;2;3ma\x1b]8;;http://x\x1b\\b\
             \x1b[0m\x1b]8;;\x1b\\c\x1b[0m"
        );
    }

    /// The 16 ANSI colours go out in their short form (bold brightens them in the
    /// terminals that do so only for SGR 30-37); the rest of the 256 as `38;5;N`.
    #[test]
    fn ansi_colours_are_written_short() {
        let area = Rect::new(0, 0, 3, 1);
        let mut buf = Buffer::empty(area);
        let bold = Modifier::BOLD;
        buf.set_string(
            0,
            0,
            "a",
            Style::default().fg(Color::Indexed(4)).add_modifier(bold),
        );
        buf.set_string(
            1,
            0,
            "b",
            Style::default()
                .fg(Color::Indexed(12))
                .bg(Color::Indexed(1)),
        );
        buf.set_string(2, 0, "c", Style::default().fg(Color::Indexed(16)));
        let (before, after) = (Links::new(area), Links::new(area));
        let mut out = Vec::new();
        let cells = diff(&Buffer::empty(area), &buf, &before, &after);
        write_cells(&mut out, cells, |x, y| after.get(x, y)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "\x1b[1;1H\x1b[0;1;34ma\x1b[0;94;41mb\x1b[0;38;5;16mc\x1b[0m"
        );
    }

    /// A link that changes on text that does not is written again.
    #[test]
    fn a_changed_link_alone_is_a_difference() {
        let area = Rect::new(0, 0, 3, 1);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, "abc", Style::default());
        let mut before = Links::new(area);
        before.set(1, 0, link("http://old"));
        let mut after = Links::new(area);
        after.set(1, 0, link("http://new"));
        let cells = diff(&buf, &buf, &before, &after);
        assert_eq!(
            cells.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(),
            vec![(1, 0)]
        );
        assert!(diff(&buf, &buf, &after, &after.clone()).is_empty());
    }
}
