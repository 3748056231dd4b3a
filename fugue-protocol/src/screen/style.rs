//! Colours and the look of a cell: what a [`super::StyleRun`] holds.

use serde::{Deserialize, Serialize};

/// A terminal color packed in 32 bits: default, one of 256 indexed colors, or RGB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Color(pub u32);

const INDEXED: u32 = 1 << 24;
const RGB: u32 = 2 << 24;

/// What a [`Color`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorKind {
    Default,
    Indexed(u8),
    Rgb(u8, u8, u8),
}

impl Color {
    pub const DEFAULT: Color = Color(0);

    pub fn indexed(i: u8) -> Color {
        Color(INDEXED | u32::from(i))
    }

    pub fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color(RGB | (u32::from(r) << 16) | (u32::from(g) << 8) | u32::from(b))
    }

    pub fn kind(self) -> ColorKind {
        let [tag, a, b, c] = self.0.to_be_bytes();
        match tag {
            1 => ColorKind::Indexed(c),
            2 => ColorKind::Rgb(a, b, c),
            _ => ColorKind::Default,
        }
    }
}

/// Cell attributes.
pub mod attr {
    pub const BOLD: u16 = 1;
    pub const DIM: u16 = 2;
    pub const ITALIC: u16 = 4;
    /// Underlined, in the style [`UNDERLINE_STYLE`] holds.
    pub const UNDERLINE: u16 = 8;
    pub const INVERSE: u16 = 16;
    pub const STRIKETHROUGH: u16 = 32;
    pub const BLINK: u16 = 64;
    pub const HIDDEN: u16 = 128;
    pub const OVERLINE: u16 = 256;
    /// Three bits of underline style: 0 single, then [`DOUBLE`], [`CURLY`],
    /// [`DOTTED`], [`DASHED`] (the `n` of `SGR 4:n`, less one).
    pub const UNDERLINE_STYLE: u16 = 0b111 << 9;
    pub const DOUBLE: u16 = 1 << 9;
    pub const CURLY: u16 = 2 << 9;
    pub const DOTTED: u16 = 3 << 9;
    pub const DASHED: u16 = 4 << 9;

    /// The `n` of `SGR 4:n` for these attributes (1 single, ..., 5 dashed), 0 when
    /// not underlined.
    pub fn underline_sgr(attrs: u16) -> u16 {
        if attrs & UNDERLINE == 0 {
            0
        } else {
            ((attrs & UNDERLINE_STYLE) >> 9) + 1
        }
    }
}

/// The look of a cell.
///
/// 12 bytes, so that a [`super::StyleRun`] is 16: a colored history line holds one run per
/// change of style. The rare parts of a look (underline colour, hyperlink) are kept
/// once per row, and `extra` numbers them (see [`super::Row::extra`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Style {
    pub fg: Color,
    pub bg: Color,
    /// See [`attr`].
    pub attrs: u16,
    /// The row's [`Extra`] number `extra` (0: none). Meaningful within its row only:
    /// read it through [`super::CellRef::extra`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra: u16,
}

fn is_zero(v: &u16) -> bool {
    *v == 0
}

/// The rare parts of a cell's look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Extra {
    /// The colour of the underline (`SGR 58`); default: the text's.
    pub underline: Color,
    /// The pane's hyperlink number (0: none); its URI travels as a [`Hyperlink`].
    pub link: u32,
}

impl Extra {
    pub fn is_none(&self) -> bool {
        *self == Extra::default()
    }
}

/// A hyperlink (`OSC 8`), numbered within its pane.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hyperlink {
    pub number: u32,
    /// The `id=` parameter (empty when none).
    pub id: String,
    pub uri: String,
}

/// Appends `OSC 8 ; id=ID ; URI ST`, or the sequence that ends a link when `uri` is
/// empty.
pub fn write_osc8(out: &mut String, id: &str, uri: &str) {
    out.push_str("\x1b]8;");
    if !id.is_empty() && !uri.is_empty() {
        out.push_str("id=");
        out.push_str(id);
    }
    out.push(';');
    out.push_str(uri);
    out.push_str("\x1b\\");
}

impl Style {
    pub fn is_default(&self) -> bool {
        *self == Style::default()
    }

    /// Appends the SGR sequence that switches a terminal from any state to this style
    /// with this underline colour. The codes are tmux's (`capture-pane -e`): `4:n`
    /// for an underline style other than single, `53` for overline, `58;5;n` or
    /// `58;2;r;g;b` for the underline colour.
    pub fn write_sgr(&self, underline: Color, out: &mut String) {
        use std::fmt::Write;
        out.push_str("\x1b[0");
        let flags = [
            (attr::BOLD, ";1"),
            (attr::DIM, ";2"),
            (attr::ITALIC, ";3"),
            (attr::BLINK, ";5"),
            (attr::INVERSE, ";7"),
            (attr::HIDDEN, ";8"),
            (attr::STRIKETHROUGH, ";9"),
            (attr::OVERLINE, ";53"),
        ];
        for (bit, code) in flags {
            if self.attrs & bit != 0 {
                out.push_str(code);
            }
        }
        match attr::underline_sgr(self.attrs) {
            0 => {}
            1 => out.push_str(";4"),
            n => {
                let _ = write!(out, ";4:{n}");
            }
        }
        for (color, base, ext) in [(self.fg, 30u8, 38u8), (self.bg, 40, 48)] {
            // Writing to a String cannot fail.
            let _ = match color.kind() {
                ColorKind::Default => Ok(()),
                ColorKind::Indexed(i) if i < 8 => write!(out, ";{}", base + i),
                ColorKind::Indexed(i) if i < 16 => write!(out, ";{}", base + 60 + (i - 8)),
                ColorKind::Indexed(i) => write!(out, ";{ext};5;{i}"),
                ColorKind::Rgb(r, g, b) => write!(out, ";{ext};2;{r};{g};{b}"),
            };
        }
        let _ = match underline.kind() {
            ColorKind::Default => Ok(()),
            ColorKind::Indexed(i) => write!(out, ";58;5;{i}"),
            ColorKind::Rgb(r, g, b) => write!(out, ";58;2;{r};{g};{b}"),
        };
        out.push('m');
    }
}

/// tmux's codes for cell attributes, in the order of its grid.c table: bold 1, dim
/// 2, italic 3, underline 4, blink 5, reverse 7, hidden 8, strikethrough 9, the
/// underline styles 42 to 45 (written `4:2` to `4:5`), overline 53.
fn tmux_attr_codes(attrs: u16) -> impl Iterator<Item = u8> {
    let style = attr::underline_sgr(attrs);
    let table: [(bool, u8); 13] = [
        (attrs & attr::BOLD != 0, 1),
        (attrs & attr::DIM != 0, 2),
        (attrs & attr::ITALIC != 0, 3),
        (style == 1, 4),
        (attrs & attr::BLINK != 0, 5),
        (attrs & attr::INVERSE != 0, 7),
        (attrs & attr::HIDDEN != 0, 8),
        (attrs & attr::STRIKETHROUGH != 0, 9),
        (style == 2, 42),
        (style == 3, 43),
        (style == 4, 44),
        (style == 5, 45),
        (attrs & attr::OVERLINE != 0, 53),
    ];
    table.into_iter().filter(|(on, _)| *on).map(|(_, c)| c)
}

/// A colour's SGR parameters as tmux writes them: `base` + n for the first eight,
/// `bright` + n for the next eight, `ext;5;n` or `ext;2;r;g;b` beyond, `default` for
/// none (or nothing, for the underline colour, whose `default` is 0).
fn tmux_color_codes(c: Color, base: u8, bright: u8, ext: u8, default: u8) -> ([u8; 5], usize) {
    match c.kind() {
        ColorKind::Default if default == 0 => ([0; 5], 0),
        ColorKind::Default => ([default, 0, 0, 0, 0], 1),
        ColorKind::Indexed(i) if i < 8 && base != 0 => ([base + i, 0, 0, 0, 0], 1),
        ColorKind::Indexed(i) if i < 16 && bright != 0 => ([bright + i - 8, 0, 0, 0, 0], 1),
        ColorKind::Indexed(i) => ([ext, 5, i, 0, 0], 3),
        ColorKind::Rgb(r, g, b) => ([ext, 2, r, g, b], 5),
    }
}

impl Style {
    /// Appends what tmux 3.5's `capture-pane -e` writes between a cell of look `last`
    /// (with its underline colour) and one of this look: `0` first when an
    /// attribute (or the underline colour) goes, the attributes that come, then
    /// each colour that changed (a default one not repeated after a `0`).
    pub fn write_sgr_after(&self, underline: Color, last: (Style, Color), out: &mut String) {
        use std::fmt::Write;
        let (was, was_underline) = last;
        let reset = tmux_attr_codes(was.attrs)
            .any(|c| !tmux_attr_codes(self.attrs).any(|n| n == c))
            || (was_underline != Color::DEFAULT && underline == Color::DEFAULT);
        let mut codes: Vec<u8> = Vec::new();
        if reset {
            codes.push(0);
        }
        let before = if reset { 0 } else { was.attrs };
        codes.extend(
            tmux_attr_codes(self.attrs).filter(|c| !tmux_attr_codes(before).any(|b| b == *c)),
        );
        if !codes.is_empty() {
            out.push_str("\x1b[");
            for (i, c) in codes.iter().enumerate() {
                if i > 0 {
                    out.push(';');
                }
                // Writing to a String cannot fail. The underline styles are `4:n`;
                // tmux writes overline as `5:3` too (blink with a sub-parameter to
                // a terminal), fugue writes `53`.
                let _ = match *c {
                    42..=45 => write!(out, "4:{}", c % 10),
                    c => write!(out, "{c}"),
                };
            }
            out.push('m');
        }
        let colors = [
            ((self.fg, was.fg), (30, 90, 38, 39)),
            ((self.bg, was.bg), (40, 100, 48, 49)),
            ((underline, was_underline), (0, 0, 58, 0)),
        ];
        for ((now, then), (base, bright, ext, default)) in colors {
            let (new, n) = tmux_color_codes(now, base, bright, ext, default);
            let (old, o) = tmux_color_codes(then, base, bright, ext, default);
            let (new, old) = (&new[..n], &old[..o]);
            if new.is_empty() || (!reset && new == old) || (reset && (new[0] == 39 || new[0] == 49))
            {
                continue;
            }
            out.push_str("\x1b[");
            for (i, c) in new.iter().enumerate() {
                let _ = write!(out, "{}{c}", if i > 0 { ";" } else { "" });
            }
            out.push('m');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_pack_and_unpack() {
        assert_eq!(Color::DEFAULT.kind(), ColorKind::Default);
        assert_eq!(Color::indexed(200).kind(), ColorKind::Indexed(200));
        assert_eq!(Color::rgb(1, 2, 3).kind(), ColorKind::Rgb(1, 2, 3));
    }

    #[test]
    fn sgr_covers_every_color_kind() {
        let s = Style {
            fg: Color::indexed(9),
            bg: Color::rgb(1, 2, 3),
            attrs: attr::BOLD | attr::UNDERLINE,
            extra: 0,
        };
        let mut out = String::new();
        s.write_sgr(Color::DEFAULT, &mut out);
        assert_eq!(out, "\x1b[0;1;4;91;48;2;1;2;3m");
        let mut out = String::new();
        Style {
            fg: Color::indexed(123),
            ..Style::default()
        }
        .write_sgr(Color::DEFAULT, &mut out);
        assert_eq!(out, "\x1b[0;38;5;123m");
    }

    /// Issue 13: the attributes beyond vt100 0.18's five, with tmux's codes.
    #[test]
    fn sgr_covers_every_attribute_and_underline_style() {
        let sgr = |attrs: u16, underline: Color| {
            let mut out = String::new();
            Style {
                attrs,
                ..Style::default()
            }
            .write_sgr(underline, &mut out);
            out
        };
        assert_eq!(
            sgr(
                attr::STRIKETHROUGH | attr::BLINK | attr::HIDDEN | attr::OVERLINE,
                Color::DEFAULT
            ),
            "\x1b[0;5;8;9;53m"
        );
        for (style, n) in [
            (0, 4),
            (attr::DOUBLE, 42),
            (attr::CURLY, 43),
            (attr::DOTTED, 44),
            (attr::DASHED, 45),
        ] {
            let code = if n == 4 {
                "4".to_string()
            } else {
                format!("4:{}", n % 10)
            };
            assert_eq!(
                sgr(attr::UNDERLINE | style, Color::DEFAULT),
                format!("\x1b[0;{code}m")
            );
        }
        // A style without the underline bit is not an underline.
        assert_eq!(sgr(attr::CURLY, Color::DEFAULT), "\x1b[0m");
        assert_eq!(
            sgr(attr::UNDERLINE, Color::rgb(1, 2, 3)),
            "\x1b[0;4;58;2;1;2;3m"
        );
        assert_eq!(sgr(attr::UNDERLINE, Color::indexed(9)), "\x1b[0;4;58;5;9m");
    }

    /// tmux 3.5's `capture-pane -e` codes (grid.c's grid_string_cells_code): from
    /// the look before, a colour that changed alone; `0` when an attribute goes, and
    /// then no default colour repeated.
    #[test]
    fn sgr_after_writes_what_changed_as_tmux() {
        let red = Style {
            fg: Color::indexed(1),
            ..Style::default()
        };
        let bold_green = Style {
            fg: Color::indexed(2),
            attrs: attr::BOLD,
            ..Style::default()
        };
        let after = |now: Style, last: Style| {
            let mut out = String::new();
            now.write_sgr_after(Color::DEFAULT, (last, Color::DEFAULT), &mut out);
            out
        };
        assert_eq!(after(red, Style::default()), "\x1b[31m");
        assert_eq!(after(Style::default(), red), "\x1b[39m");
        assert_eq!(after(bold_green, Style::default()), "\x1b[1m\x1b[32m");
        assert_eq!(after(Style::default(), bold_green), "\x1b[0m");
        let over = Style {
            attrs: attr::OVERLINE | attr::UNDERLINE | attr::DOUBLE,
            bg: Color::rgb(1, 2, 3),
            ..Style::default()
        };
        assert_eq!(after(over, red), "\x1b[4:2;53m\x1b[39m\x1b[48;2;1;2;3m");
        let mut out = String::new();
        Style::default().write_sgr_after(Color::DEFAULT, (red, Color::indexed(5)), &mut out);
        assert_eq!(out, "\x1b[0m", "the underline colour gone resets");
    }
}
