use crate::term::BufWrite as _;
use alloc::string::String;

/// Represents a foreground or background color for cells.
#[derive(Eq, PartialEq, Debug, Copy, Clone, Default)]
pub enum Color {
    /// The default terminal color.
    #[default]
    Default,

    /// An indexed terminal color.
    Idx(u8),

    /// An RGB terminal color. The parameters are (red, green, blue).
    Rgb(u8, u8, u8),
}

const TEXT_MODE_INTENSITY: u8 = 0b0000_0011;
const TEXT_MODE_BOLD: u8 = 0b0000_0001;
const TEXT_MODE_DIM: u8 = 0b0000_0010;
const TEXT_MODE_ITALIC: u8 = 0b0000_0100;
const TEXT_MODE_UNDERLINE: u8 = 0b0000_1000;
const TEXT_MODE_INVERSE: u8 = 0b0001_0000;
// fugue patch: the three spare bits of the mode byte.
const TEXT_MODE_STRIKETHROUGH: u8 = 0b0010_0000;
const TEXT_MODE_BLINK: u8 = 0b0100_0000;
const TEXT_MODE_HIDDEN: u8 = 0b1000_0000;

impl Color {
    /// The colour as four bytes, every one of them set (fugue patch: see `Attrs`).
    #[inline]
    const fn pack(self) -> [u8; 4] {
        match self {
            Self::Default => [0; 4],
            Self::Idx(i) => [1, i, 0, 0],
            Self::Rgb(r, g, b) => [2, r, g, b],
        }
    }

    #[inline]
    const fn unpack(b: [u8; 4]) -> Self {
        match b[0] {
            1 => Self::Idx(b[1]),
            2 => Self::Rgb(b[1], b[2], b[3]),
            _ => Self::Default,
        }
    }
}

/// fugue patch: the attributes as twelve bytes: the colours packed in four each
/// (`Color::pack`), the mode byte, the index of the rare attributes, and a byte kept
/// zero. Every byte is set, so comparing two (once per cell when a row is captured,
/// twice for a blank cell) is two wide loads rather than a comparison per enum
/// variant; twelve rather than eleven, so that the second is one load too.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Attrs {
    b: [u8; 12],
}

const FG: usize = 0;
const BG: usize = 4;
const MODE: usize = 8;
/// Two bytes rather than a `u16`, so that the struct keeps an alignment of 1 and the
/// cell stays 32 bytes.
const EXT: usize = 9;

impl Default for Attrs {
    fn default() -> Self {
        Self::new()
    }
}

impl Attrs {
    pub const fn new() -> Self {
        Self { b: [0; 12] }
    }

    /// (fugue patch.)
    #[inline]
    pub const fn fgcolor(&self) -> Color {
        let [f0, f1, f2, f3, ..] = self.b;
        Color::unpack([f0, f1, f2, f3])
    }

    /// (fugue patch.)
    #[inline]
    pub const fn bgcolor(&self) -> Color {
        let [_, _, _, _, b0, b1, b2, b3, ..] = self.b;
        Color::unpack([b0, b1, b2, b3])
    }

    /// What a cell blanked by scrolling, inserting or deleting takes from these
    /// attributes: the background alone (background colour erase, which xterm and tmux
    /// do and `TERM=xterm-256color` promises with `bce`). (fugue patch.)
    #[inline]
    pub fn erased(&self) -> Self {
        let mut a = Self::new();
        a.b[BG..BG + 4].copy_from_slice(&self.b[BG..BG + 4]);
        a
    }

    /// (fugue patch.)
    #[inline]
    pub fn set_fgcolor(&mut self, c: Color) {
        self.b[FG..FG + 4].copy_from_slice(&c.pack());
    }

    /// (fugue patch.)
    #[inline]
    pub fn set_bgcolor(&mut self, c: Color) {
        self.b[BG..BG + 4].copy_from_slice(&c.pack());
    }

    /// The index of the rare attributes (fugue patch).
    #[inline]
    pub(crate) const fn ext(&self) -> u16 {
        u16::from_ne_bytes([self.b[EXT], self.b[EXT + 1]])
    }

    /// (fugue patch.)
    #[inline]
    pub(crate) fn set_ext(&mut self, i: u16) {
        let [lo, hi] = i.to_ne_bytes();
        self.b[EXT] = lo;
        self.b[EXT + 1] = hi;
    }

    /// The mode byte (see `Cell::flags`). (fugue patch.)
    #[inline]
    pub(crate) const fn mode(&self) -> u8 {
        self.b[MODE]
    }

    /// (fugue patch.)
    pub fn strikethrough(&self) -> bool {
        self.b[MODE] & TEXT_MODE_STRIKETHROUGH != 0
    }

    /// (fugue patch.)
    pub fn set_strikethrough(&mut self, on: bool) {
        self.set_flag(TEXT_MODE_STRIKETHROUGH, on);
    }

    /// (fugue patch.)
    pub fn blink(&self) -> bool {
        self.b[MODE] & TEXT_MODE_BLINK != 0
    }

    /// (fugue patch.)
    pub fn set_blink(&mut self, on: bool) {
        self.set_flag(TEXT_MODE_BLINK, on);
    }

    /// (fugue patch.)
    pub fn hidden(&self) -> bool {
        self.b[MODE] & TEXT_MODE_HIDDEN != 0
    }

    /// (fugue patch.)
    pub fn set_hidden(&mut self, on: bool) {
        self.set_flag(TEXT_MODE_HIDDEN, on);
    }

    fn set_flag(&mut self, flag: u8, on: bool) {
        if on {
            self.b[MODE] |= flag;
        } else {
            self.b[MODE] &= !flag;
        }
    }

    pub fn bold(&self) -> bool {
        self.b[MODE] & TEXT_MODE_BOLD != 0
    }

    pub fn dim(&self) -> bool {
        self.b[MODE] & TEXT_MODE_DIM != 0
    }

    fn intensity(&self) -> u8 {
        self.b[MODE] & TEXT_MODE_INTENSITY
    }

    pub fn set_bold(&mut self) {
        self.b[MODE] &= !TEXT_MODE_INTENSITY;
        self.b[MODE] |= TEXT_MODE_BOLD;
    }

    pub fn set_dim(&mut self) {
        self.b[MODE] &= !TEXT_MODE_INTENSITY;
        self.b[MODE] |= TEXT_MODE_DIM;
    }

    pub fn set_normal_intensity(&mut self) {
        self.b[MODE] &= !TEXT_MODE_INTENSITY;
    }

    pub fn italic(&self) -> bool {
        self.b[MODE] & TEXT_MODE_ITALIC != 0
    }

    pub fn set_italic(&mut self, italic: bool) {
        if italic {
            self.b[MODE] |= TEXT_MODE_ITALIC;
        } else {
            self.b[MODE] &= !TEXT_MODE_ITALIC;
        }
    }

    pub fn underline(&self) -> bool {
        self.b[MODE] & TEXT_MODE_UNDERLINE != 0
    }

    pub fn set_underline(&mut self, underline: bool) {
        if underline {
            self.b[MODE] |= TEXT_MODE_UNDERLINE;
        } else {
            self.b[MODE] &= !TEXT_MODE_UNDERLINE;
        }
    }

    pub fn inverse(&self) -> bool {
        self.b[MODE] & TEXT_MODE_INVERSE != 0
    }

    pub fn set_inverse(&mut self, inverse: bool) {
        if inverse {
            self.b[MODE] |= TEXT_MODE_INVERSE;
        } else {
            self.b[MODE] &= !TEXT_MODE_INVERSE;
        }
    }

    pub fn write_escape_code_diff(
        &self,
        contents: &mut String,
        other: &Self,
    ) {
        self.write_escape_code_diff_fmt(contents, other)
            .expect("writing to a String cannot fail");
    }

    pub fn write_escape_code_diff_fmt(
        &self,
        writer: &mut impl alloc::fmt::Write,
        other: &Self,
    ) -> alloc::fmt::Result {
        if self != other && self == &Self::default() {
            return crate::term::ClearAttrs.write_fmt(writer);
        }

        let attrs = crate::term::Attrs::default();

        let attrs = if self.fgcolor() == other.fgcolor() {
            attrs
        } else {
            attrs.fgcolor(self.fgcolor())
        };
        let attrs = if self.bgcolor() == other.bgcolor() {
            attrs
        } else {
            attrs.bgcolor(self.bgcolor())
        };
        let attrs = if self.intensity() == other.intensity() {
            attrs
        } else {
            attrs.intensity(match self.intensity() {
                0 => crate::term::Intensity::Normal,
                TEXT_MODE_BOLD => crate::term::Intensity::Bold,
                TEXT_MODE_DIM => crate::term::Intensity::Dim,
                _ => unreachable!(),
            })
        };
        let attrs = if self.italic() == other.italic() {
            attrs
        } else {
            attrs.italic(self.italic())
        };
        let attrs = if self.underline() == other.underline() {
            attrs
        } else {
            attrs.underline(self.underline())
        };
        let attrs = if self.inverse() == other.inverse() {
            attrs
        } else {
            attrs.inverse(self.inverse())
        };
        // fugue patch: the flags that live in the mode byte's spare bits. (The rare
        // attributes behind `ext` need the screen's table: see
        // `Screen::attributes_formatted`.)
        let attrs = if self.strikethrough() == other.strikethrough() {
            attrs
        } else {
            attrs.strikethrough(self.strikethrough())
        };
        let attrs = if self.blink() == other.blink() {
            attrs
        } else {
            attrs.blink(self.blink())
        };
        let attrs = if self.hidden() == other.hidden() {
            attrs
        } else {
            attrs.hidden(self.hidden())
        };

        attrs.write_fmt(writer)
    }
}
