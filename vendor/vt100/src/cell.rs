use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

// chosen to make the size of the cell struct 32 bytes
// fugue patch: 22 -> 19, to make room for the index of the cell's rare attributes
// (see `extras.rs`) and a zero byte that makes comparing attributes two loads (see
// `Attrs`); a cell still holds a base character and up to 15 bytes more (an emoji
// ZWJ sequence of three emoji, or several combining marks).
const CONTENT_BYTES: usize = 19;

const IS_WIDE: u8 = 0b1000_0000;
const IS_WIDE_CONTINUATION: u8 = 0b0100_0000;
const LEN_BITS: u8 = 0b0001_1111;

/// Represents a single terminal cell.
#[derive(Clone, Debug, Eq)]
pub struct Cell {
    contents: [u8; CONTENT_BYTES],
    len: u8,
    attrs: crate::attrs::Attrs,
}
const _: () = assert!(core::mem::size_of::<Cell>() == 32);

impl PartialEq<Self> for Cell {
    fn eq(&self, other: &Self) -> bool {
        if self.len != other.len {
            return false;
        }
        if self.attrs != other.attrs {
            return false;
        }
        let len = self.len();
        self.contents[..len] == other.contents[..len]
    }
}

impl Cell {
    pub(crate) const DEFAULT: Self = Self::new();

    pub(crate) const fn new() -> Self {
        Self {
            contents: [0; CONTENT_BYTES],
            len: 0,
            attrs: crate::attrs::Attrs::new(),
        }
    }

    /// An empty cell with `attrs` (a blank in the background colour of the moment:
    /// see `Attrs::erased`). (fugue patch.)
    pub(crate) const fn blank(attrs: crate::attrs::Attrs) -> Self {
        Self {
            contents: [0; CONTENT_BYTES],
            len: 0,
            attrs,
        }
    }

    fn len(&self) -> usize {
        usize::from(self.len & LEN_BITS)
    }

    /// `set` for a printable ASCII byte, without the width lookup. (fugue patch.)
    #[inline]
    pub(crate) fn set_ascii(&mut self, b: u8, a: crate::attrs::Attrs) {
        self.contents[0] = b;
        self.len = 1;
        self.attrs = a;
    }

    pub(crate) fn set(&mut self, c: char, a: crate::attrs::Attrs) {
        self.len = 0;
        self.append_char(0, c);
        // if we're setting a single character, we can just look at that one
        // character to determine the cell width
        self.set_wide(c.width().unwrap_or(1) > 1);
        self.attrs = a;
    }

    /// Whether `append` would keep another codepoint. (fugue patch.)
    pub(crate) fn has_room(&self) -> bool {
        self.len() < CONTENT_BYTES - 4
    }

    pub(crate) fn append(&mut self, c: char) {
        let len = self.len();
        if len >= CONTENT_BYTES - 4 {
            return;
        }
        if len == 0 {
            self.contents[0] = b' ';
            self.len += 1;
        }

        // we already checked that we have space for another codepoint
        self.append_char(self.len(), c);
    }

    pub(crate) fn set_contents(&mut self, s: &str, a: crate::attrs::Attrs) {
        let mut chars = s.chars();
        let Some(c) = chars.next() else {
            return;
        };
        self.set(c, a);
        for c in chars {
            self.append(c);
        }
    }

    // Writes bytes representing c at start
    // Requires caller to verify start <= CODEPOINTS_IN_CELL * 4
    fn append_char(&mut self, start: usize, c: char) {
        c.encode_utf8(&mut self.contents[start..]);
        self.len += u8::try_from(c.len_utf8()).unwrap();
        // if we're appending characters, we have to account for emoji
        // presentation being requested, which can turn a base character that
        // is otherwise considered to be narrow into a wide character
        if c == '\u{FE0F}' {
            self.set_wide(self.contents().width() > 1);
        }
    }

    pub(crate) fn clear(&mut self, attrs: crate::attrs::Attrs) {
        self.len = 0;
        self.attrs = attrs;
    }

    /// Returns the text contents of the cell.
    ///
    /// Can include multiple unicode characters if combining characters are
    /// used, but will contain at most one character with a non-zero character
    /// width.
    // Since contents has been constructed by appending chars encoded as UTF-8 it will be valid UTF-8
    #[allow(clippy::missing_panics_doc)]
    #[must_use]
    pub fn contents(&self) -> &str {
        core::str::from_utf8(&self.contents[..self.len()]).unwrap()
    }

    /// Returns whether the cell contains any text data.
    #[must_use]
    pub fn has_contents(&self) -> bool {
        self.len() > 0
    }

    /// The cell's character when it is one narrow ASCII byte. (fugue patch.)
    #[must_use]
    #[inline]
    pub fn ascii(&self) -> Option<u8> {
        // `len` holds the byte length and the wide flags: exactly 1 means one byte,
        // no flags.
        (self.len == 1 && self.contents[0] < 0x80).then_some(self.contents[0])
    }

    /// Whether the cell is empty and in the default style, as a cleared cell is.
    /// (fugue patch.)
    #[must_use]
    #[inline]
    pub fn is_default(&self) -> bool {
        self.len == 0 && self.attrs == crate::attrs::Attrs::default()
    }

    /// The cell's text as bytes, without re-checking its UTF-8. (fugue patch.)
    #[must_use]
    #[inline]
    pub fn contents_bytes(&self) -> &[u8] {
        &self.contents[..self.len()]
    }

    /// Whether two cells look the same apart from their text (colours and
    /// attributes), compared at once. (fugue patch.)
    #[must_use]
    #[inline]
    pub fn same_look(&self, other: &Self) -> bool {
        self.attrs == other.attrs
    }

    /// Returns whether the text data in the cell represents a wide character.
    #[must_use]
    pub fn is_wide(&self) -> bool {
        self.len & IS_WIDE != 0
    }

    /// Returns whether the cell contains the second half of a wide character
    /// (in other words, whether the previous cell in the row contains a wide
    /// character)
    #[must_use]
    pub fn is_wide_continuation(&self) -> bool {
        self.len & IS_WIDE_CONTINUATION != 0
    }

    fn set_wide(&mut self, wide: bool) {
        if wide {
            self.len |= IS_WIDE;
        } else {
            self.len &= !IS_WIDE;
        }
    }

    pub(crate) fn set_wide_continuation(&mut self, wide: bool) {
        if wide {
            self.len |= IS_WIDE_CONTINUATION;
        } else {
            self.len &= !IS_WIDE_CONTINUATION;
        }
    }

    pub(crate) fn attrs(&self) -> &crate::attrs::Attrs {
        &self.attrs
    }

    /// Returns the foreground color of the cell.
    #[must_use]
    pub fn fgcolor(&self) -> crate::Color {
        self.attrs.fgcolor()
    }

    /// Returns the background color of the cell.
    #[must_use]
    pub fn bgcolor(&self) -> crate::Color {
        self.attrs.bgcolor()
    }

    /// Returns whether the cell should be rendered with the bold text
    /// attribute.
    #[must_use]
    pub fn bold(&self) -> bool {
        self.attrs.bold()
    }

    /// Returns whether the cell should be rendered with the dim text
    /// attribute.
    #[must_use]
    pub fn dim(&self) -> bool {
        self.attrs.dim()
    }

    /// Returns whether the cell should be rendered with the italic text
    /// attribute.
    #[must_use]
    pub fn italic(&self) -> bool {
        self.attrs.italic()
    }

    /// Returns whether the cell should be rendered with the underlined text
    /// attribute.
    #[must_use]
    pub fn underline(&self) -> bool {
        self.attrs.underline()
    }

    /// Returns whether the cell should be rendered with the inverse text
    /// attribute.
    #[must_use]
    pub fn inverse(&self) -> bool {
        self.attrs.inverse()
    }

    /// The cell's eight flags as one byte: bold 1, dim 2, italic 4, underline 8,
    /// inverse 16, strikethrough 32, blink 64, hidden 128. (fugue patch: to copy a
    /// cell's look without a branch per flag.)
    #[must_use]
    #[inline]
    pub fn flags(&self) -> u8 {
        self.attrs.mode()
    }

    /// Whether the cell is struck through (`SGR 9`). (fugue patch.)
    #[must_use]
    pub fn strikethrough(&self) -> bool {
        self.attrs.strikethrough()
    }

    /// Whether the cell blinks (`SGR 5` or `6`). (fugue patch.)
    #[must_use]
    pub fn blink(&self) -> bool {
        self.attrs.blink()
    }

    /// Whether the cell is hidden (`SGR 8`). (fugue patch.)
    #[must_use]
    pub fn hidden(&self) -> bool {
        self.attrs.hidden()
    }

    /// Whether the cell has rare attributes (underline style, overline,
    /// underline colour, hyperlink), which [`crate::Screen::extra`] or
    /// [`crate::capture::RowContents::extra`] return. (fugue patch.)
    #[must_use]
    #[inline]
    pub fn has_extra(&self) -> bool {
        self.attrs.ext() != 0
    }

    #[inline]
    pub(crate) fn extra_index(&self) -> u16 {
        self.attrs.ext()
    }
}
