//! The colours a program may set and ask about (issue 13): the 256-colour palette
//! (`OSC 4`, reset by `OSC 104`) and the default foreground, background and cursor
//! colours (`OSC 10`/`11`/`12`, reset by `OSC 110`/`111`/`112`).
//!
//! fugue draws nothing itself, so these only answer queries: a program that set a
//! colour reads back what it set; otherwise the foreground and background of the
//! person's terminal, which the client asks at attach ([`OuterColors`]); with no
//! client that answered, the documented defaults (xterm's palette; white on black). Memory is bounded: at most 256
//! palette entries (the index is a byte) and three dynamic colours. vte splits an OSC
//! into at most 16 parameters, so one `OSC 4` sets or asks at most 7 entries; programs
//! that set a whole palette send one per entry or several strings.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A colour as X11 reports it: 16 bits per component.
pub type Rgb = [u16; 3];

/// The default foreground (OSC 10) and cursor (OSC 12) colour: white.
pub const DEFAULT_FG: Rgb = [0xffff; 3];
/// The default background (OSC 11): black.
pub const DEFAULT_BG: Rgb = [0; 3];

#[derive(Debug, Default)]
pub struct Colors {
    /// Palette entries the program set; at most 256 (keyed by a byte).
    palette: BTreeMap<u8, Rgb>,
    /// Foreground, background, cursor, when set.
    dynamic: [Option<Rgb>; 3],
    /// The server's record of the person's terminal colours (None in a pane made
    /// outside a server, as in tests).
    outer: Option<std::sync::Arc<OuterColors>>,
}

/// The foreground and background colours of the person's terminal, as the last
/// attached client that asked it reported them (`client-colors`). tmux answers a
/// pane's query from a client of the pane's session; fugue from the client that
/// reported last (the one most recently attached), documented in docs/terminal.md.
#[derive(Debug, Default)]
pub struct OuterColors(parking_lot::RwLock<[Option<Rgb>; 2]>);

impl OuterColors {
    /// Records what a client's terminal answered (None: it did not say).
    pub fn set(&self, fg: Option<Rgb>, bg: Option<Rgb>) {
        let mut known = self.0.write();
        if fg.is_some() {
            known[0] = fg;
        }
        if bg.is_some() {
            known[1] = bg;
        }
    }

    /// Foreground (0) or background (1), if a terminal said.
    fn get(&self, i: usize) -> Option<Rgb> {
        self.0.read().get(i).copied().flatten()
    }
}

/// xterm's default palette entry `i`: the 16 ANSI colours, the 6x6x6 cube, 24 greys.
pub fn default_palette(i: u8) -> Rgb {
    const ANSI: [[u8; 3]; 16] = [
        [0x00, 0x00, 0x00],
        [0xcd, 0x00, 0x00],
        [0x00, 0xcd, 0x00],
        [0xcd, 0xcd, 0x00],
        [0x00, 0x00, 0xee],
        [0xcd, 0x00, 0xcd],
        [0x00, 0xcd, 0xcd],
        [0xe5, 0xe5, 0xe5],
        [0x7f, 0x7f, 0x7f],
        [0xff, 0x00, 0x00],
        [0x00, 0xff, 0x00],
        [0xff, 0xff, 0x00],
        [0x5c, 0x5c, 0xff],
        [0xff, 0x00, 0xff],
        [0x00, 0xff, 0xff],
        [0xff, 0xff, 0xff],
    ];
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let rgb8 = match i {
        0..=15 => ANSI[usize::from(i)],
        16..=231 => {
            let n = usize::from(i - 16);
            [LEVELS[n / 36], LEVELS[(n / 6) % 6], LEVELS[n % 6]]
        }
        _ => {
            let g = 8 + 10 * (i - 232);
            [g, g, g]
        }
    };
    rgb8.map(|c| u16::from(c) * 257)
}

/// Parses an X11 colour spec: `rgb:R/G/B` (1-4 hex digits each) or `#RGB` with 1-4
/// digits per component, each scaled to 16 bits (`#102030` reads back as
/// `rgb:1010/2020/3030`, as xterm on a true-colour display answers). Colour names are
/// not known (docs/terminal.md): None.
pub fn parse_color(spec: &[u8]) -> Option<Rgb> {
    let spec = std::str::from_utf8(spec).ok()?;
    let hex = |s: &str| {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(s, 16).ok())
            .flatten()
    };
    if let Some(rest) = spec.strip_prefix("rgb:") {
        let mut out = [0u16; 3];
        let mut parts = rest.split('/');
        for slot in &mut out {
            let part = parts.next()?;
            let v = hex(part)?;
            let max = (1u32 << (4 * part.len())) - 1;
            *slot = u16::try_from(v * 0xffff / max).ok()?;
        }
        return parts.next().is_none().then_some(out);
    }
    let digits = spec.strip_prefix('#')?;
    if digits.is_empty() || digits.len() % 3 != 0 || digits.len() > 12 {
        return None;
    }
    let n = digits.len() / 3;
    let max = (1u32 << (4 * n)) - 1;
    let mut out = [0u16; 3];
    for (k, slot) in out.iter_mut().enumerate() {
        let v = hex(digits.get(k * n..(k + 1) * n)?)?;
        *slot = u16::try_from(v * 0xffff / max).ok()?;
    }
    Some(out)
}

fn report(out: &mut Vec<u8>, prefix: &str, [r, g, b]: Rgb) {
    let mut s = String::new();
    let _ = write!(s, "\x1b]{prefix};rgb:{r:04x}/{g:04x}/{b:04x}\x1b\\");
    out.extend(s.as_bytes());
}

fn number(p: &[u8]) -> Option<u16> {
    std::str::from_utf8(p).ok()?.parse().ok()
}

impl Colors {
    /// Palette entry `i` as the program sees it.
    pub fn palette(&self, i: u8) -> Rgb {
        self.palette
            .get(&i)
            .copied()
            .unwrap_or_else(|| default_palette(i))
    }

    /// Answers OSC 10/11/12 from the person's terminal's colours from now on.
    pub fn set_outer(&mut self, outer: std::sync::Arc<OuterColors>) {
        self.outer = Some(outer);
    }

    /// Dynamic colour `n` (10 foreground, 11 background, 12 cursor): what the
    /// program set, else the person's terminal's (the cursor as the foreground, as
    /// xterm's default cursor colour is), else the default.
    pub fn dynamic(&self, n: u16) -> Option<Rgb> {
        let slot = usize::from(n.checked_sub(10)?);
        let set = *self.dynamic.get(slot)?;
        let outer = |i| self.outer.as_ref().and_then(|o| o.get(i));
        let default = if n == 11 {
            outer(1).unwrap_or(DEFAULT_BG)
        } else {
            outer(0).unwrap_or(DEFAULT_FG)
        };
        Some(set.unwrap_or(default))
    }

    /// Handles a colour OSC; answers go to `out`. False for an OSC that is not one.
    pub fn osc(&mut self, params: &[&[u8]], out: &mut Vec<u8>) -> bool {
        let Some((cmd, args)) = params.split_first() else {
            return false;
        };
        match *cmd {
            b"4" => {
                for pair in args.chunks(2) {
                    let [index, spec] = pair else { break };
                    let Some(i) = number(index).and_then(|i| u8::try_from(i).ok()) else {
                        continue;
                    };
                    if *spec == b"?" {
                        report(out, &format!("4;{i}"), self.palette(i));
                    } else if let Some(rgb) = parse_color(spec) {
                        self.palette.insert(i, rgb);
                    }
                }
            }
            b"104" => {
                if args.iter().all(|a| a.is_empty()) {
                    self.palette.clear();
                }
                for i in args.iter().filter_map(|a| number(a)) {
                    if let Ok(i) = u8::try_from(i) {
                        self.palette.remove(&i);
                    }
                }
            }
            b"10" | b"11" | b"12" => {
                // Each argument applies to the next dynamic colour: `OSC 10;?;?` asks
                // for the foreground and the background.
                let first = number(cmd).unwrap_or(10);
                for (n, spec) in (first..=12).zip(args.iter()) {
                    let slot = usize::from(n - 10);
                    if *spec == b"?" {
                        if let Some(rgb) = self.dynamic(n) {
                            report(out, &n.to_string(), rgb);
                        }
                    } else if let (Some(rgb), Some(s)) =
                        (parse_color(spec), self.dynamic.get_mut(slot))
                    {
                        *s = Some(rgb);
                    }
                }
            }
            b"110" | b"111" | b"112" => {
                let slot = number(cmd).map_or(0, |n| usize::from(n.saturating_sub(110)));
                if let Some(s) = self.dynamic.get_mut(slot) {
                    *s = None;
                }
            }
            _ => return false,
        }
        true
    }
}
