//! fugue patch: cell attributes that do not fit in the 32-byte cell, and hyperlinks.
//!
//! A cell keeps its colours and eight flags inline (bold, dim, italic, underline,
//! inverse, strikethrough, blink, hidden). The rarer ones (an underline style other
//! than single, overline, an underline colour, a hyperlink) are kept once per screen in
//! an [`ExtraTable`]; a cell holds a 16-bit index into it, 0 for "none", so the common
//! cell pays two bytes and no lookup.
//!
//! Both tables are bounded:
//! - [`EXTRAS_MAX`] distinct combinations at once. When the table is full, slots no
//!   cell, pen or saved pen refers to any more are freed (a scan of both grids); if it
//!   is still full, the new combination is not kept and the text is drawn without its
//!   rare attributes (its colours and flags stay).
//! - [`LINKS_MAX`] hyperlinks and [`LINK_BYTES_MAX`] bytes of URIs and ids. Past either,
//!   the oldest link is forgotten, as tmux does: text that still carries it is shown
//!   without a link. Link ids count up and are never reused (they stop at `u32::MAX`;
//!   links opened after that are not kept), so a forgotten link is never confused with
//!   a newer one, even by a reader (fugue's history) that keeps ids longer than the
//!   screen keeps cells.

use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// Distinct combinations of rare attributes kept at once (per screen).
pub const EXTRAS_MAX: usize = 4096;
/// Hyperlinks kept at once (per screen).
pub const LINKS_MAX: usize = 4096;
/// Bytes of hyperlink URIs and ids kept at once (per screen).
pub const LINK_BYTES_MAX: usize = 1 << 20;
/// Longest URI kept, in bytes; longer links are ignored (VTE's limit).
pub const LINK_URI_MAX: usize = 2083;
/// Longest `id=` parameter kept, in bytes; longer links are ignored (VTE's limit).
pub const LINK_ID_MAX: usize = 250;

/// How a cell is underlined (when [`crate::Cell::underline`] is true).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnderlineStyle {
    /// `SGR 4`, `SGR 4:1`.
    #[default]
    Single,
    /// `SGR 4:2`, `SGR 21`.
    Double,
    /// `SGR 4:3`.
    Curly,
    /// `SGR 4:4`.
    Dotted,
    /// `SGR 4:5`.
    Dashed,
}

impl UnderlineStyle {
    const fn bits(self) -> u64 {
        match self {
            Self::Single => 0,
            Self::Double => 1,
            Self::Curly => 2,
            Self::Dotted => 3,
            Self::Dashed => 4,
        }
    }

    const fn from_bits(b: u64) -> Self {
        match b {
            1 => Self::Double,
            2 => Self::Curly,
            3 => Self::Dotted,
            4 => Self::Dashed,
            _ => Self::Single,
        }
    }
}

/// The rare attributes of a cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    /// Meaningful only when the cell is underlined.
    pub underline_style: UnderlineStyle,
    /// `SGR 53`.
    pub overline: bool,
    /// `SGR 58`; [`crate::Color::Default`] draws the underline in the text colour.
    pub underline_color: crate::Color,
    /// The cell's hyperlink (see [`crate::Screen::hyperlink`]); 0 for none.
    pub hyperlink: u32,
}

impl Extra {
    /// Packs the attributes into one number (0 for none): 3 bits of underline
    /// style, 1 of overline, 26 of colour, 32 of link.
    pub(crate) const fn pack(self) -> u64 {
        let color = match self.underline_color {
            crate::Color::Default => 0,
            crate::Color::Idx(i) => (1 << 24) | i as u64,
            crate::Color::Rgb(r, g, b) => {
                (2 << 24) | ((r as u64) << 16) | ((g as u64) << 8) | b as u64
            }
        };
        self.underline_style.bits()
            | ((self.overline as u64) << 3)
            | (color << 4)
            | ((self.hyperlink as u64) << 30)
    }

    #[allow(clippy::as_conversions, clippy::cast_possible_truncation)]
    pub(crate) const fn unpack(v: u64) -> Self {
        let color = (v >> 4) & 0x3ff_ffff;
        let underline_color = match color >> 24 {
            1 => crate::Color::Idx(color as u8),
            2 => crate::Color::Rgb(
                (color >> 16) as u8,
                (color >> 8) as u8,
                color as u8,
            ),
            _ => crate::Color::Default,
        };
        Self {
            underline_style: UnderlineStyle::from_bits(v & 7),
            overline: v & 8 != 0,
            underline_color,
            hyperlink: (v >> 30) as u32,
        }
    }
}

/// The distinct [`Extra`]s the cells of a screen refer to.
#[derive(Clone, Debug)]
pub(crate) struct ExtraTable {
    /// Packed extras by index; 0 marks a free slot (index 0 itself is "none").
    slots: Vec<u64>,
    free: Vec<u16>,
    index: BTreeMap<u64, u16>,
    /// Failed insertions to let pass (dropping their extras) before scanning the
    /// grids again: a table that stays nearly full after a scan is not rescanned on
    /// every new combination.
    pub(crate) backoff: u16,
}

impl Default for ExtraTable {
    fn default() -> Self {
        Self {
            slots: vec![0],
            free: Vec::new(),
            index: BTreeMap::new(),
            backoff: 0,
        }
    }
}

impl ExtraTable {
    /// The packed extras at index `i` (0 for none or an unknown index).
    #[inline]
    pub(crate) fn get(&self, i: u16) -> u64 {
        self.slots.get(usize::from(i)).copied().unwrap_or(0)
    }

    /// The index of `packed`, adding it if there is room.
    pub(crate) fn intern(&mut self, packed: u64) -> Option<u16> {
        if packed == 0 {
            return Some(0);
        }
        if let Some(&i) = self.index.get(&packed) {
            return Some(i);
        }
        let i = if let Some(i) = self.free.pop() {
            i
        } else if self.slots.len() < EXTRAS_MAX {
            let i = u16::try_from(self.slots.len()).ok()?;
            self.slots.push(0);
            i
        } else {
            return None;
        };
        self.slots[usize::from(i)] = packed;
        self.index.insert(packed, i);
        Some(i)
    }

    /// Slots in use.
    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    /// Frees every slot whose index `used` does not mark.
    pub(crate) fn retain(&mut self, used: &[bool]) {
        for (i, slot) in self.slots.iter_mut().enumerate().skip(1) {
            if *slot != 0 && !used.get(i).copied().unwrap_or(false) {
                self.index.remove(slot);
                *slot = 0;
                if let Ok(i) = u16::try_from(i) {
                    self.free.push(i);
                }
            }
        }
    }

    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }
}

/// A hyperlink (`OSC 8`): its `id=` parameter (empty when none) and its URI.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hyperlink {
    /// The `id=` parameter, which ties separate runs of text into one link.
    pub id: String,
    /// The target.
    pub uri: String,
}

/// The hyperlinks of a screen by number, oldest first.
#[derive(Clone, Debug)]
pub(crate) struct LinkTable {
    /// The number of `links[0]`.
    first: u32,
    links: VecDeque<Arc<Hyperlink>>,
    index: BTreeMap<Arc<Hyperlink>, u32>,
    bytes: usize,
}

impl Default for LinkTable {
    fn default() -> Self {
        Self {
            first: 1,
            links: VecDeque::new(),
            index: BTreeMap::new(),
            bytes: 0,
        }
    }
}

impl LinkTable {
    /// The number of the link (`id`, `uri`), adding it (and forgetting the oldest
    /// links past the limits) if it is new. None if it cannot be kept.
    pub(crate) fn intern(&mut self, id: &str, uri: &str) -> Option<u32> {
        if uri.is_empty() || uri.len() > LINK_URI_MAX || id.len() > LINK_ID_MAX {
            return None;
        }
        let link = Hyperlink {
            id: id.into(),
            uri: uri.into(),
        };
        if let Some(&n) = self.index.get(&link) {
            return Some(n);
        }
        let len = u32::try_from(self.links.len()).ok()?;
        let n = self.first.checked_add(len)?;
        if n == u32::MAX {
            return None;
        }
        let size = id.len() + uri.len();
        while !self.links.is_empty()
            && (self.links.len() >= LINKS_MAX
                || self.bytes + size > LINK_BYTES_MAX)
        {
            self.forget_oldest();
        }
        let link = Arc::new(link);
        self.bytes += size;
        self.index.insert(Arc::clone(&link), n);
        self.links.push_back(link);
        Some(n)
    }

    fn forget_oldest(&mut self) {
        if let Some(old) = self.links.pop_front() {
            self.index.remove(&old);
            self.bytes -= old.id.len() + old.uri.len();
            self.first += 1;
        }
    }

    /// Link number `n`, unless it was forgotten.
    pub(crate) fn get(&self, n: u32) -> Option<&Hyperlink> {
        let i = usize::try_from(n.checked_sub(self.first)?).ok()?;
        self.links.get(i).map(|l| &**l)
    }

    pub(crate) fn len(&self) -> usize {
        self.links.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_pack_and_unpack() {
        for e in [
            Extra::default(),
            Extra {
                underline_style: UnderlineStyle::Dashed,
                overline: true,
                underline_color: crate::Color::Rgb(1, 2, 255),
                hyperlink: u32::MAX - 1,
            },
            Extra {
                underline_color: crate::Color::Idx(200),
                ..Extra::default()
            },
        ] {
            assert_eq!(Extra::unpack(e.pack()), e);
        }
        assert_eq!(Extra::default().pack(), 0);
    }

    #[test]
    fn links_are_numbered_once_and_the_oldest_forgotten() {
        let mut t = LinkTable::default();
        let a = t.intern("", "http://a").unwrap();
        assert_eq!(t.intern("", "http://a"), Some(a));
        let b = t.intern("x", "http://a").unwrap();
        assert_ne!(a, b);
        for i in 0..LINKS_MAX {
            t.intern("", &format!("http://{i}")).unwrap();
        }
        assert_eq!(t.len(), LINKS_MAX);
        assert!(t.get(a).is_none() && t.get(b).is_none());
        // A forgotten link opened again gets a new number.
        let again = t.intern("", "http://a").unwrap();
        assert!(again > b);
        assert!(t.intern("", &"u".repeat(LINK_URI_MAX + 1)).is_none());
    }
}
