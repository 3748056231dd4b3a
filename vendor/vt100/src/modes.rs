//! fugue patch: terminal state upstream vt100 does not keep. Character sets (SCS
//! designations of G0-G3, SO/SI, LS2/LS3, single shifts SS2/SS3), tab stops, insert
//! mode (IRM), autowrap (DECAWM), reverse wraparound, new-line mode (LNM), and the DEC
//! private modes a program may ask about (DECRQM) that vt100 records but does not act
//! on. Kept in a file of its own so that upstream's `screen.rs` changes little.

use alloc::vec::Vec;

/// A 94-character set a program designated into G0-G3.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum Charset {
    /// US ASCII (`ESC ( B`), and every set fugue does not map.
    #[default]
    Ascii,
    /// DEC Special Graphics (`ESC ( 0`): line drawing.
    DecSpecial,
    /// United Kingdom (`ESC ( A`): `#` is a pound sign.
    Uk,
}

/// DEC Special Graphics, `0x5f..=0x7e`, as xterm shows them (`0x5f` is a blank).
const DEC_SPECIAL: [char; 32] = [
    ' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺',
    '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
];

impl Charset {
    /// The set a designation's final byte names. `0` and `2` (DEC Special Graphics and
    /// its alternate-ROM twin, which xterm draws the same) map line drawing, `A` the UK
    /// pound sign; every other set (ASCII, the national sets, DEC Supplemental) is taken
    /// as ASCII: output is UTF-8, so there is nothing to remap in the upper half.
    fn from_final(b: u8) -> Self {
        match b {
            b'0' | b'2' => Self::DecSpecial,
            b'A' => Self::Uk,
            _ => Self::Ascii,
        }
    }

    fn map(self, c: char) -> char {
        match self {
            Self::Ascii => c,
            Self::DecSpecial => match u32::from(c) {
                n @ 0x5f..=0x7e => DEC_SPECIAL
                    .get(usize::try_from(n - 0x5f).unwrap_or(0))
                    .copied()
                    .unwrap_or(c),
                _ => c,
            },
            Self::Uk => {
                if c == '#' {
                    '£'
                } else {
                    c
                }
            }
        }
    }
}

/// G0-G3, which of them is invoked into GL, and a pending single shift.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Charsets {
    g: [Charset; 4],
    /// The set invoked into GL (0-3): SI picks G0, SO G1, LS2 G2, LS3 G3.
    gl: u8,
    /// SS2 or SS3 was received: the next printed character comes from G2 or G3.
    single: Option<u8>,
}

impl Charsets {
    /// Whether printing needs no mapping at all (the common case: ASCII in GL).
    pub fn is_plain(&self) -> bool {
        self.single.is_none() && self.g[usize::from(self.gl & 3)] == Charset::Ascii
    }

    /// `ESC ( F`, `ESC ) F`, `ESC * F`, `ESC + F`: designates `slot` (0-3).
    pub fn designate(&mut self, slot: usize, final_byte: u8) {
        if let Some(g) = self.g.get_mut(slot) {
            *g = Charset::from_final(final_byte);
        }
    }

    /// SI, SO, LS2, LS3: invokes G`n` into GL.
    pub fn lock_shift(&mut self, n: u8) {
        self.gl = n & 3;
    }

    /// SS2, SS3: the next printed character only comes from G`n`.
    pub fn single_shift(&mut self, n: u8) {
        self.single = Some(n & 3);
    }

    /// The character `c` stands for in the invoked set; ends a single shift.
    pub fn map(&mut self, c: char) -> char {
        let n = self.single.take().unwrap_or(self.gl);
        self.g[usize::from(n & 3)].map(c)
    }
}

/// Tab stops, one flag per column: memory in proportion to the width (which the
/// caller bounds), nothing more.
#[derive(Clone, Debug)]
pub struct TabStops {
    stops: Vec<bool>,
}

impl TabStops {
    /// Every 8 columns, as a terminal starts.
    pub fn new(cols: u16) -> Self {
        let mut t = Self { stops: Vec::new() };
        t.resize(cols);
        t
    }

    /// Keeps the stops of the columns that remain; new columns get the default stops
    /// (every 8), as xterm does.
    pub fn resize(&mut self, cols: u16) {
        let cols = usize::from(cols);
        if cols <= self.stops.len() {
            self.stops.truncate(cols);
        } else {
            let from = self.stops.len();
            self.stops.extend((from..cols).map(|c| c > 0 && c % 8 == 0));
        }
    }

    /// HTS: a stop at `col`.
    pub fn set(&mut self, col: u16) {
        if let Some(s) = self.stops.get_mut(usize::from(col)) {
            *s = true;
        }
    }

    /// TBC 0: no stop at `col`.
    pub fn clear(&mut self, col: u16) {
        if let Some(s) = self.stops.get_mut(usize::from(col)) {
            *s = false;
        }
    }

    /// TBC 3: no stops at all.
    pub fn clear_all(&mut self) {
        self.stops.fill(false);
    }

    /// The column `count` stops right of `col`, or the last column.
    pub fn forward(&self, col: u16, count: u16) -> u16 {
        let last = self.stops.len().saturating_sub(1);
        let mut at = usize::from(col).min(last);
        for _ in 0..count.max(1) {
            match self.stops.iter().skip(at + 1).position(|s| *s) {
                Some(n) => at += n + 1,
                None => {
                    at = last;
                    break;
                }
            }
        }
        u16::try_from(at).unwrap_or(u16::MAX)
    }

    /// The column `count` stops left of `col`, or the first column.
    pub fn backward(&self, col: u16, count: u16) -> u16 {
        let mut at = usize::from(col).min(self.stops.len());
        for _ in 0..count.max(1) {
            match self.stops.get(..at).and_then(|s| s.iter().rposition(|s| *s)) {
                Some(n) => at = n,
                None => {
                    at = 0;
                    break;
                }
            }
        }
        u16::try_from(at).unwrap_or(0)
    }

    /// The columns with a stop (for tests and reports).
    pub fn columns(&self) -> impl Iterator<Item = u16> + '_ {
        self.stops
            .iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .filter_map(|(c, _)| u16::try_from(c).ok())
    }
}

/// DEC private modes vt100 records so that DECRQM can report them, but does not act
/// on (a multiplexer may pass them on): cursor blinking, focus events, alternate
/// scroll, urxvt mouse encoding, synchronized output. A fixed list: one bit each.
const RECORDED: [u16; 5] = [12, 1004, 1007, 1015, 2026];

/// The longest device control string data reported to `Callbacks::dcs`; longer
/// strings are dropped as they arrive, so the buffer never holds more.
pub const DCS_LIMIT: usize = 256;

/// The device control string being read, if it may be reported.
#[derive(Clone, Debug, Default)]
pub struct Dcs {
    open: bool,
    intermediates: [u8; 2],
    n_intermediates: u8,
    action: char,
    pub data: Vec<u8>,
}

impl Dcs {
    pub fn hook(&mut self, intermediates: &[u8], action: char) {
        self.data.clear();
        self.open = intermediates.len() <= 2;
        for (slot, b) in self.intermediates.iter_mut().zip(intermediates) {
            *slot = *b;
        }
        self.n_intermediates = u8::try_from(intermediates.len().min(2)).unwrap_or(2);
        self.action = action;
    }

    pub fn put(&mut self, byte: u8) {
        if !self.open {
            return;
        }
        if self.data.len() < DCS_LIMIT {
            self.data.push(byte);
        } else {
            self.open = false;
            self.data.clear();
        }
    }

    /// Ends the string: its intermediates and action if it is to be reported.
    pub fn unhook(&mut self) -> Option<([u8; 2], usize, char)> {
        let open = core::mem::take(&mut self.open);
        open.then_some((
            self.intermediates,
            usize::from(self.n_intermediates),
            self.action,
        ))
    }
}

/// The modes and character sets of one terminal (shared by its two screens, as in
/// xterm).
#[derive(Clone, Debug)]
pub struct Modes {
    pub charsets: Charsets,
    /// Saved by DECSC (and `CSI s`, `?1048h`, `?1049h`), restored by DECRC.
    pub saved_charsets: Charsets,
    pub tabs: TabStops,
    /// IRM (`CSI 4 h`): printing shifts the rest of the line right.
    pub insert: bool,
    /// DECAWM (`?7`): printing past the last column wraps. On by default.
    pub autowrap: bool,
    /// Reverse wraparound (`?45`): backspace at the first column goes to the end of
    /// the line above (with autowrap on).
    pub reverse_wrap: bool,
    /// LNM (`CSI 20 h`): line feed also returns the carriage.
    pub newline: bool,
    /// DECCOLM (`?3`) as last set: the pane's width does not change, but a program may
    /// ask what it set.
    pub columns_132: bool,
    /// fugue patch: the cursor (row, col) `?1049h` saved on entering the alternate
    /// screen, kept after leaving it (tmux's `alternate_saved_x/y`); None until then.
    pub alternate_saved: Option<(u16, u16)>,
    recorded: u8,
    /// The device control string being read (DECRQSS).
    pub dcs: Dcs,
    /// Printing takes upstream's paths (the printable-ASCII fast path, else the
    /// general one): fast paths on, ASCII in GL, no single shift, no insert mode,
    /// autowrap on. The one flag `text` tests per character; when it is off,
    /// `text_special` runs instead.
    pub ascii_direct: bool,
}

impl Modes {
    pub fn new(cols: u16) -> Self {
        Self {
            charsets: Charsets::default(),
            saved_charsets: Charsets::default(),
            tabs: TabStops::new(cols),
            insert: false,
            autowrap: true,
            reverse_wrap: false,
            newline: false,
            columns_132: false,
            alternate_saved: None,
            recorded: 0,
            dcs: Dcs::default(),
            ascii_direct: true,
        }
    }

    /// Recomputes the flag `text` tests; call after any change to the fields it
    /// derives from.
    pub fn update(&mut self, fast_paths: bool) {
        self.ascii_direct =
            fast_paths && self.charsets.is_plain() && !self.insert && self.autowrap;
    }

    /// Records a mode of the `RECORDED` list; others are ignored.
    pub fn record(&mut self, mode: u16, on: bool) {
        if let Some(bit) = RECORDED.iter().position(|m| *m == mode) {
            let bit = 1u8 << bit;
            if on {
                self.recorded |= bit;
            } else {
                self.recorded &= !bit;
            }
        }
    }

    /// A recorded mode's state, None for modes not on the list.
    pub fn recorded(&self, mode: u16) -> Option<bool> {
        RECORDED
            .iter()
            .position(|m| *m == mode)
            .map(|bit| self.recorded & (1u8 << bit) != 0)
    }

    /// DECSTR: what a soft reset puts back (tab stops and recorded modes stay, as in
    /// xterm).
    pub fn soft_reset(&mut self) {
        self.charsets = Charsets::default();
        self.saved_charsets = Charsets::default();
        self.insert = false;
        self.autowrap = true;
        self.reverse_wrap = false;
    }
}
