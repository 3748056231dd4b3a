//! Style directives (`#[fg=red,bold]`) in an expanded format, split into spans for
//! whoever draws them (the status line). The format engine leaves `#[...]` in its
//! output as tmux does; [`spans`] reads them.

/// A colour as tmux's styles name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// `default`: the terminal's (or the inherited style's) own.
    Default,
    /// The 256-colour palette: 0-7 `black`..`white`, 8-15 `brightblack`..,
    /// `colourN`/`colorN`.
    Indexed(u8),
    /// `#rrggbb`.
    Rgb(u8, u8, u8),
}

const NAMES: [&str; 8] = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
];

impl Colour {
    /// Parses tmux's colour names; None for anything else.
    pub fn parse(s: &str) -> Option<Colour> {
        let l = s.to_ascii_lowercase();
        if l == "default" || l == "terminal" {
            return Some(Colour::Default);
        }
        if let Some(i) = NAMES.iter().position(|n| *n == l) {
            return u8::try_from(i).ok().map(Colour::Indexed);
        }
        if let Some(rest) = l.strip_prefix("bright")
            && let Some(i) = NAMES.iter().position(|n| *n == rest)
        {
            return u8::try_from(i + 8).ok().map(Colour::Indexed);
        }
        if let Some(n) = l.strip_prefix("colour").or_else(|| l.strip_prefix("color")) {
            return n.parse().ok().map(Colour::Indexed);
        }
        if let Some(hex) = l.strip_prefix('#')
            && hex.len() == 6
            && hex.is_ascii()
        {
            let p = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            return Some(Colour::Rgb(p(0)?, p(2)?, p(4)?));
        }
        None
    }

    /// The colour's RGB value as xterm draws it, for `#{c:}`.
    pub fn rgb(self) -> Option<(u8, u8, u8)> {
        const BASE: [(u8, u8, u8); 16] = [
            (0, 0, 0),
            (128, 0, 0),
            (0, 128, 0),
            (128, 128, 0),
            (0, 0, 128),
            (128, 0, 128),
            (0, 128, 128),
            (192, 192, 192),
            (128, 128, 128),
            (255, 0, 0),
            (0, 255, 0),
            (255, 255, 0),
            (0, 0, 255),
            (255, 0, 255),
            (0, 255, 255),
            (255, 255, 255),
        ];
        match self {
            Colour::Default => None,
            Colour::Rgb(r, g, b) => Some((r, g, b)),
            Colour::Indexed(i @ 0..=15) => BASE.get(usize::from(i)).copied(),
            Colour::Indexed(i @ 16..=231) => {
                let c = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
                let i = i - 16;
                Some((c(i / 36), c(i / 6 % 6), c(i % 6)))
            }
            Colour::Indexed(i) => {
                let v = 8 + (i - 232) * 10;
                Some((v, v, v))
            }
        }
    }
}

/// Attributes a style turns on, as bits.
pub mod attr {
    pub const BOLD: u16 = 1;
    pub const DIM: u16 = 1 << 1;
    pub const UNDERSCORE: u16 = 1 << 2;
    pub const BLINK: u16 = 1 << 3;
    pub const REVERSE: u16 = 1 << 4;
    pub const HIDDEN: u16 = 1 << 5;
    pub const ITALICS: u16 = 1 << 6;
    pub const STRIKETHROUGH: u16 = 1 << 7;
    pub const OVERLINE: u16 = 1 << 8;
    pub const DOUBLE_UNDERSCORE: u16 = 1 << 9;
    pub const CURLY_UNDERSCORE: u16 = 1 << 10;
    pub const DOTTED_UNDERSCORE: u16 = 1 << 11;
    pub const DASHED_UNDERSCORE: u16 = 1 << 12;
}

const ATTRS: [(&str, u16); 14] = [
    ("bright", attr::BOLD),
    ("bold", attr::BOLD),
    ("dim", attr::DIM),
    ("underscore", attr::UNDERSCORE),
    ("blink", attr::BLINK),
    ("reverse", attr::REVERSE),
    ("hidden", attr::HIDDEN),
    ("italics", attr::ITALICS),
    ("strikethrough", attr::STRIKETHROUGH),
    ("overline", attr::OVERLINE),
    ("double-underscore", attr::DOUBLE_UNDERSCORE),
    ("curly-underscore", attr::CURLY_UNDERSCORE),
    ("dotted-underscore", attr::DOTTED_UNDERSCORE),
    ("dashed-underscore", attr::DASHED_UNDERSCORE),
];

/// Where a span goes on the status line (`align=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Left,
    Centre,
    Right,
    Absolute,
}

/// The style in force for a span: every directive so far, applied in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StyleSpec {
    pub fg: Option<Colour>,
    pub bg: Option<Colour>,
    /// Underline colour (`us=`).
    pub us: Option<Colour>,
    /// [`attr`] bits.
    pub attrs: u16,
    pub align: Align,
    /// `fill=`: the colour of the rest of the line.
    pub fill: Option<Colour>,
    /// `list=on|focus|left-marker|right-marker`, `range=...`, kept as written for the
    /// status line to interpret.
    pub list: Option<String>,
    pub range: Option<String>,
    /// `push-default` / `pop-default` were seen in this directive.
    pub push_default: bool,
    pub pop_default: bool,
}

impl StyleSpec {
    /// Applies one `#[...]`'s contents (comma or space separated, tmux's style_parse).
    /// Unknown words are ignored, as the status line cannot refuse a format.
    pub fn apply(&mut self, directive: &str) {
        self.push_default = false;
        self.pop_default = false;
        for word in directive.split([',', ' ']).filter(|w| !w.is_empty()) {
            let lower = word.to_ascii_lowercase();
            let (key, val) = match lower.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (lower.as_str(), None),
            };
            match (key, val) {
                ("default", None) => {
                    let (l, r) = (self.list.take(), self.range.take());
                    *self = StyleSpec {
                        list: l,
                        range: r,
                        ..StyleSpec::default()
                    };
                }
                ("fg", Some(v)) => self.fg = Colour::parse(v),
                ("bg", Some(v)) => self.bg = Colour::parse(v),
                ("us", Some(v)) => self.us = Colour::parse(v),
                ("fill", Some(v)) => self.fill = Colour::parse(v),
                ("align", Some(v)) => {
                    self.align = match v {
                        "centre" | "center" => Align::Centre,
                        "right" => Align::Right,
                        "absolute-centre" => Align::Absolute,
                        _ => Align::Left,
                    }
                }
                ("list", Some(v)) => self.list = Some(v.to_string()),
                ("norange", None) => self.range = None,
                ("range", Some(v)) => self.range = Some(v.to_string()),
                ("nolist", None) => self.list = None,
                ("push-default", None) => self.push_default = true,
                ("pop-default", None) => self.pop_default = true,
                ("none", None) => self.attrs = 0,
                (k, None) => {
                    if let Some(a) = k.strip_prefix("no").and_then(attr_bit) {
                        self.attrs &= !a;
                    } else if let Some(a) = attr_bit(k) {
                        self.attrs |= a;
                    }
                }
                _ => {}
            }
        }
    }
}

fn attr_bit(name: &str) -> Option<u16> {
    ATTRS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Text under one style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub style: StyleSpec,
}

/// Splits an expanded format at its `#[...]` directives. `##` is a `#` and `#[` without
/// its `]` is text. Empty spans are dropped except where a directive changes the
/// alignment, fill, list or range (the status line needs those markers).
pub fn spans(s: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut style = StyleSpec::default();
    let mut text = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('#') {
        text.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(body) = after.strip_prefix('[')
            && let Some(end) = body.find(']')
        {
            if !text.is_empty() {
                out.push(Span {
                    text: std::mem::take(&mut text),
                    style: style.clone(),
                });
            }
            let before = style.clone();
            style.apply(&body[..end]);
            let marker = before.align != style.align
                || before.list != style.list
                || before.range != style.range
                || before.fill != style.fill;
            if marker {
                out.push(Span {
                    text: String::new(),
                    style: style.clone(),
                });
            }
            rest = &body[end + 1..];
        } else if let Some(r) = after.strip_prefix('#') {
            text.push('#');
            rest = r;
        } else {
            text.push('#');
            rest = after;
        }
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(Span { text, style });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_accumulates() {
        let s = spans("a#[fg=red,bold]b#[nobold bg=colour3]c#[default]d##e");
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].text, "a");
        assert_eq!(s[0].style, StyleSpec::default());
        assert_eq!(s[1].style.fg, Some(Colour::Indexed(1)));
        assert_eq!(s[1].style.attrs, attr::BOLD);
        assert_eq!(s[2].style.attrs, 0);
        assert_eq!(s[2].style.bg, Some(Colour::Indexed(3)));
        assert_eq!(s[2].style.fg, Some(Colour::Indexed(1)));
        assert_eq!((s[3].text.as_str(), s[3].style.fg), ("d#e", None));
    }

    #[test]
    fn markers_and_colours() {
        let s = spans("#[align=right]x#[fg=#ff0080]y#[unclosed");
        assert_eq!(s[0].style.align, Align::Right);
        assert!(s[0].text.is_empty());
        assert_eq!(s[2].style.fg, Some(Colour::Rgb(255, 0, 128)));
        assert_eq!(s[2].text, "y#[unclosed");
        assert_eq!(Colour::parse("brightred"), Some(Colour::Indexed(9)));
        assert_eq!(Colour::parse("colour300"), None);
        assert_eq!(Colour::Indexed(1).rgb(), Some((128, 0, 0)));
    }
}
