//! fugue patch: the pen's rare attributes (underline style and colour, overline,
//! hyperlink), kept in the screen's tables (see `extras.rs`), and `OSC 8`.
//!
//! Everything here runs per escape sequence, never per character: a character copies
//! the pen's attributes, index included, as it always did.

use super::{Screen, WrappedScreen};
use crate::extras::{Extra, Hyperlink, UnderlineStyle};
use alloc::string::String;
use alloc::vec::Vec;

impl Screen {
    /// `SGR 0`: the default attributes, keeping the hyperlink (as tmux and xterm
    /// do: a link is ended by `OSC 8` only).
    #[inline]
    pub(crate) fn reset_attrs(&mut self) {
        let ext = self.attrs.ext();
        self.attrs = crate::attrs::Attrs::default();
        if ext != 0 {
            self.keep_only_link(ext);
        }
    }

    #[cold]
    #[inline(never)]
    fn keep_only_link(&mut self, ext: u16) {
        let hyperlink = Extra::unpack(self.extras.get(ext)).hyperlink;
        self.set_pen_extra(Extra {
            hyperlink,
            ..Extra::default()
        });
    }

    /// `SGR 4`, `4:n`, `21`.
    #[inline]
    pub(crate) fn set_underline(&mut self, style: UnderlineStyle) {
        self.attrs.set_underline(true);
        if style != UnderlineStyle::Single || self.attrs.ext() != 0 {
            self.edit_pen_extra(|e| e.underline_style = style);
        }
    }

    /// `SGR 24`, `4:0`.
    #[inline]
    pub(crate) fn clear_underline(&mut self) {
        self.attrs.set_underline(false);
        if self.attrs.ext() != 0 {
            self.edit_pen_extra(|e| e.underline_style = UnderlineStyle::Single);
        }
    }

    /// `SGR 53`, `55`.
    pub(crate) fn set_overline(&mut self, on: bool) {
        if on || self.attrs.ext() != 0 {
            self.edit_pen_extra(|e| e.overline = on);
        }
    }

    /// `SGR 58`, `59`.
    pub(crate) fn set_underline_color(&mut self, color: crate::Color) {
        if color != crate::Color::Default || self.attrs.ext() != 0 {
            self.edit_pen_extra(|e| e.underline_color = color);
        }
    }

    /// Opens hyperlink `n` (0 closes it).
    fn set_pen_link(&mut self, n: u32) {
        if n != 0 || self.attrs.ext() != 0 {
            self.edit_pen_extra(|e| e.hyperlink = n);
        }
    }

    #[cold]
    #[inline(never)]
    fn edit_pen_extra(&mut self, edit: impl FnOnce(&mut Extra)) {
        let mut e = Extra::unpack(self.extras.get(self.attrs.ext()));
        edit(&mut e);
        self.set_pen_extra(e);
    }

    fn set_pen_extra(&mut self, e: Extra) {
        let packed = e.pack();
        let i = match self.extras.intern(packed) {
            Some(i) => i,
            None => {
                if self.extras.backoff > 0 {
                    self.extras.backoff -= 1;
                } else {
                    self.collect_extras();
                }
                // Still full: the text is drawn without its rare attributes.
                self.extras.intern(packed).unwrap_or(0)
            }
        };
        self.attrs.set_ext(i);
    }

    /// Frees the table slots that no cell (on either screen, scrollback included)
    /// and no pen refers to.
    fn collect_extras(&mut self) {
        let mut used = vec![false; self.extras.slots()];
        let mut mark = |i: u16| {
            if let Some(u) = used.get_mut(usize::from(i)) {
                *u = true;
            }
        };
        mark(self.attrs.ext());
        mark(self.saved_attrs.ext());
        for grid in [&self.grid, &self.alternate_grid] {
            for row in grid.all_rows() {
                for cell in row.cell_slice() {
                    mark(cell.extra_index());
                }
            }
        }
        self.extras.retain(&used);
        // Mostly still in use: let a quarter of the table's size in new
        // combinations go (drawn without their rare attributes) before scanning
        // again, so a program that keeps the table full costs one scan per
        // thousand sequences rather than one each.
        if self.extras.len() >= crate::extras::EXTRAS_MAX * 3 / 4 {
            self.extras.backoff =
                u16::try_from(crate::extras::EXTRAS_MAX / 4).unwrap_or(u16::MAX);
        }
    }

    /// The rare attributes of `cell`, a cell of this screen. (fugue patch.)
    #[must_use]
    pub fn extra(&self, cell: &crate::Cell) -> Extra {
        Extra::unpack(self.extras.get(cell.extra_index()))
    }

    /// The rare attributes text written now gets. (fugue patch.)
    #[must_use]
    pub fn pen_extra(&self) -> Extra {
        Extra::unpack(self.extras.get(self.attrs.ext()))
    }

    /// Hyperlink number `n` (from [`Extra::hyperlink`]), unless the table has
    /// forgotten it (see `extras.rs` for the limits). (fugue patch.)
    #[must_use]
    pub fn hyperlink(&self, n: u32) -> Option<&Hyperlink> {
        self.links.get(n)
    }

    /// Distinct combinations of rare attributes and hyperlinks held. (fugue patch.)
    #[must_use]
    pub fn extras_held(&self) -> (usize, usize) {
        (self.extras.len(), self.links.len())
    }

    /// Appends the sequences that give the pen its rare attributes and hyperlink,
    /// after `SGR 0`.
    pub(crate) fn write_pen_extra(&self, out: &mut String) {
        let e = self.pen_extra();
        if self.attrs.underline() && e.underline_style != UnderlineStyle::Single {
            out.push_str(underline_sgr(e.underline_style));
        }
        if e.overline {
            out.push_str("\x1b[53m");
        }
        if e.underline_color != crate::Color::Default {
            out.push_str("\x1b[");
            push_color(out, 58, e.underline_color);
            out.push('m');
        }
        if let Some(link) = self.hyperlink(e.hyperlink) {
            push_osc8(out, link);
        }
    }
}

fn underline_sgr(style: UnderlineStyle) -> &'static str {
    match style {
        UnderlineStyle::Single => "\x1b[4m",
        UnderlineStyle::Double => "\x1b[4:2m",
        UnderlineStyle::Curly => "\x1b[4:3m",
        UnderlineStyle::Dotted => "\x1b[4:4m",
        UnderlineStyle::Dashed => "\x1b[4:5m",
    }
}

/// `base;5;i` or `base;2;r;g;b` (nothing for the default colour).
fn push_color(out: &mut String, base: u8, c: crate::Color) {
    use core::fmt::Write as _;
    let _ = match c {
        crate::Color::Default => Ok(()),
        crate::Color::Idx(i) => write!(out, "{base};5;{i}"),
        crate::Color::Rgb(r, g, b) => write!(out, "{base};2;{r};{g};{b}"),
    };
}

/// `OSC 8 ; id=ID ; URI ST` (no `id=` when the link has none).
pub(crate) fn push_osc8(out: &mut String, link: &Hyperlink) {
    out.push_str("\x1b]8;");
    if !link.id.is_empty() {
        out.push_str("id=");
        out.push_str(&link.id);
    }
    out.push(';');
    out.push_str(&link.uri);
    out.push_str("\x1b\\");
}

impl<CB: crate::Callbacks> WrappedScreen<CB> {
    /// `OSC 8 ; params ; URI ST`: opens a hyperlink, or with an empty URI closes
    /// it. `params` are `key=value` pairs separated by `:`; only `id` means
    /// anything. A link that is not printable text, or longer than the limits in
    /// `extras.rs`, is not kept, and the text that follows has no link.
    pub(crate) fn osc8(&mut self, rest: &[&[u8]]) {
        let Some((params, uri)) = rest.split_first() else {
            return;
        };
        // vte splits the string at every `;`; a URI may contain them.
        let uri: Vec<u8> = uri.join(&b';');
        let screen = &mut self.screen;
        if uri.is_empty() {
            screen.set_pen_link(0);
            return;
        }
        let printable =
            |s: &str| !s.chars().any(char::is_control);
        let id = params
            .split(|&b| b == b':')
            .find_map(|p| p.strip_prefix(b"id="))
            .unwrap_or(b"");
        let n = match (core::str::from_utf8(id), core::str::from_utf8(&uri)) {
            (Ok(id), Ok(uri)) if printable(id) && printable(uri) => {
                screen.links.intern(id, uri).unwrap_or(0)
            }
            _ => 0,
        };
        screen.set_pen_link(n);
    }
}

/// What [`Screen::sgr_more`] made of a parameter.
pub(crate) enum SgrMore {
    Done,
    /// Not an attribute it knows: reported, and the next parameter read.
    Unhandled,
    /// An extended colour of an unknown kind: reported, and the rest of the
    /// sequence skipped (its parameters are the colour's), as for 38 and 48.
    Stop,
    /// The sequence ended or a value was out of range: the rest is skipped.
    End,
}

impl Screen {
    /// The SGR parameters vt100 0.18 ignored: `param` is one (with its colon
    /// subparameters), `rest` the ones after it, for the semicolon form of `58`.
    #[inline(never)]
    pub(crate) fn sgr_more(
        &mut self,
        param: &[u16],
        rest: &mut vte::ParamsIter<'_>,
    ) -> SgrMore {
        let u8_of = |v: u16| u8::try_from(v).ok();
        let rgb = |r: u16, g: u16, b: u16| {
            Some(crate::Color::Rgb(u8_of(r)?, u8_of(g)?, u8_of(b)?))
        };
        match param {
            [4, 0] => self.clear_underline(),
            [4, 1] => self.set_underline(UnderlineStyle::Single),
            [4, 2] => self.set_underline(UnderlineStyle::Double),
            [4, 3] => self.set_underline(UnderlineStyle::Curly),
            [4, 4] => self.set_underline(UnderlineStyle::Dotted),
            [4, 5] => self.set_underline(UnderlineStyle::Dashed),
            // Unknown underline styles are ignored, as tmux does.
            [4, _] => {}
            [21] => self.set_underline(UnderlineStyle::Double),
            [5] | [6] => self.attrs.set_blink(true),
            [25] => self.attrs.set_blink(false),
            [8] => self.attrs.set_hidden(true),
            [28] => self.attrs.set_hidden(false),
            [9] => self.attrs.set_strikethrough(true),
            [29] => self.attrs.set_strikethrough(false),
            [53] => self.set_overline(true),
            [55] => self.set_overline(false),
            [59] => self.set_underline_color(crate::Color::Default),
            // `38:2:<colour space>:r:g:b` (ITU T.416), and 48 and 58 alike.
            &[38, 2, _, r, g, b] => match rgb(r, g, b) {
                Some(c) => self.attrs.set_fgcolor(c),
                None => return SgrMore::End,
            },
            &[48, 2, _, r, g, b] => match rgb(r, g, b) {
                Some(c) => self.attrs.set_bgcolor(c),
                None => return SgrMore::End,
            },
            &[58, 2, r, g, b] | &[58, 2, _, r, g, b] => match rgb(r, g, b) {
                Some(c) => self.set_underline_color(c),
                None => return SgrMore::End,
            },
            &[58, 5, i] => match u8_of(i) {
                Some(i) => self.set_underline_color(crate::Color::Idx(i)),
                None => return SgrMore::End,
            },
            // The semicolon form takes the parameters that follow, as 38 and 48
            // do (vt100 0.18 read them as attributes of their own).
            [58] => {
                let kind = rest.next();
                let mut next = || match rest.next() {
                    Some(&[v]) => u8_of(v),
                    _ => None,
                };
                match kind {
                    Some([2]) => match (next(), next(), next()) {
                        (Some(r), Some(g), Some(b)) => {
                            self.set_underline_color(crate::Color::Rgb(r, g, b));
                        }
                        _ => return SgrMore::End,
                    },
                    Some([5]) => match next() {
                        Some(i) => self.set_underline_color(crate::Color::Idx(i)),
                        None => return SgrMore::End,
                    },
                    Some(_) => return SgrMore::Stop,
                    None => return SgrMore::End,
                }
            }
            _ => return SgrMore::Unhandled,
        }
        SgrMore::Done
    }
}
