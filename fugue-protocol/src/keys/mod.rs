//! Keys: tmux's names for them, and the bytes a terminal program expects for each.
//!
//! A [`Key`] is everything a terminal can tell about a key event (issue 12): every
//! modifier (Ctrl, Alt, Shift, Super, Hyper, Meta) and lock state (Caps Lock, Num Lock),
//! whether it was pressed, repeated or released, and every key a terminal with the kitty
//! keyboard protocol reports (F1..F35, the keypad, media keys, the modifier keys
//! themselves, Menu...). Nothing a client reads is dropped on the way to the server;
//! what a pane gets is decided there, by how the pane asked for keys.
//!
//! Parsing follows `tmux send-keys`: an argument that names a key becomes that key,
//! anything else is typed literally ([`names`]). Encoding follows xterm, which is what
//! tmux sends to its panes ([`legacy`]); keys and modifiers xterm has no bytes for
//! encode to nothing there.

pub mod kitty;
#[cfg(test)]
mod kitty_tests;
mod legacy;
pub mod mouse;
mod names;
#[cfg(test)]
mod tests;

pub use names::{MAX_F, named_codes};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::str::FromStr;

/// Modifier bits, and the lock states a terminal reports with them.
///
/// The bit values are fugue's own (names carry keys on the wire, never these bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods(pub u8);

impl Mods {
    pub const NONE: Mods = Mods(0);
    pub const CTRL: Mods = Mods(1);
    pub const ALT: Mods = Mods(2);
    pub const SHIFT: Mods = Mods(4);
    pub const SUPER: Mods = Mods(8);
    pub const HYPER: Mods = Mods(16);
    /// Meta as its own key (kitty reports it apart from Alt); tmux's `M-` is Alt.
    pub const META: Mods = Mods(32);
    /// Caps Lock was on. A state, not a key held: bindings ignore it ([`Key::chord`]).
    pub const CAPS_LOCK: Mods = Mods(64);
    /// Num Lock was on. A state, not a key held: bindings ignore it ([`Key::chord`]).
    pub const NUM_LOCK: Mods = Mods(128);
    /// What xterm's encoding can carry.
    pub const LEGACY: Mods = Mods(1 | 2 | 4);
    /// The lock states.
    pub const LOCKS: Mods = Mods(64 | 128);

    pub fn contains(self, other: Mods) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn without(self, other: Mods) -> Mods {
        Mods(self.0 & !other.0)
    }

    pub fn only(self, other: Mods) -> Mods {
        Mods(self.0 & other.0)
    }
}

impl BitOr for Mods {
    type Output = Mods;

    fn bitor(self, rhs: Mods) -> Mods {
        Mods(self.0 | rhs.0)
    }
}

impl BitOrAssign for Mods {
    fn bitor_assign(&mut self, rhs: Mods) {
        self.0 |= rhs.0;
    }
}

/// Whether a key went down, auto-repeated, or came up. Terminals report repeats and
/// releases only when a program asks for them (the kitty keyboard protocol's "report
/// event types"); otherwise every key is a press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyKind {
    #[default]
    Press,
    Repeat,
    Release,
}

/// A key on the numeric keypad, as the kitty keyboard protocol tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeypadKey {
    Zero,
    One,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Decimal,
    Divide,
    Multiply,
    Subtract,
    Add,
    Enter,
    Equal,
    Separator,
    Left,
    Right,
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
    Insert,
    Delete,
    /// The middle key (5) with Num Lock off.
    Begin,
}

/// Media keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MediaKey {
    Play,
    Pause,
    PlayPause,
    Reverse,
    Stop,
    FastForward,
    Rewind,
    TrackNext,
    TrackPrevious,
    Record,
    LowerVolume,
    RaiseVolume,
    MuteVolume,
}

/// A modifier key pressed or released on its own (reported only when a program asks
/// for every key as an escape code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModifierKey {
    LeftShift,
    LeftControl,
    LeftAlt,
    LeftSuper,
    LeftHyper,
    LeftMeta,
    RightShift,
    RightControl,
    RightAlt,
    RightSuper,
    RightHyper,
    RightMeta,
    IsoLevel3Shift,
    IsoLevel5Shift,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Char(char),
    Enter,
    Tab,
    BackTab,
    Backspace,
    Escape,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Insert,
    Delete,
    /// F1..=F35; other numbers never parse and encode to nothing. xterm's encoding has
    /// F1..F24 (F13 and above as shifted F1..F12).
    F(u8),
    Keypad(KeypadKey),
    CapsLock,
    ScrollLock,
    NumLock,
    PrintScreen,
    Pause,
    Menu,
    Media(MediaKey),
    Modifier(ModifierKey),
    /// A mouse event as key tables bind it (`WheelUpPane`); it types nothing.
    Mouse(mouse::MouseKey),
}

/// A key event: the key, its modifiers, and whether it is a press, a repeat or a release.
///
/// On the wire a key is its name, as [`Display`](fmt::Display) prints it: the tmux name
/// (`C-c`, `M-Enter`, `F5`, `a`) for every key tmux names, so keys of the old set
/// serialize as before; fugue's own names for the rest (`Super-a`, `F30`, `KP5`,
/// `MediaPlay`); and `:repeat` or `:release` after the name of a repeat or a release,
/// which only the wire accepts ([`Key::from_wire`]), never `send-keys`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Key {
    pub code: KeyCode,
    pub mods: Mods,
    pub kind: KeyKind,
}

/// The keyboard modes a program has switched on (DECCKM, DECKPAM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyModes {
    /// Application cursor keys: unmodified arrows, Home and End send `ESC O` instead of `ESC [`.
    pub app_cursor: bool,
    /// Application keypad. Tracked so the server can pass it along, but it changes
    /// nothing yet: keypad keys send what they sent before keypad keys were told apart
    /// (the character, Enter, the arrow), whatever this says.
    pub app_keypad: bool,
    /// The kitty keyboard protocol's flags the program set ([`kitty`]); 0 is legacy
    /// encoding.
    pub kitty: u8,
}

impl Key {
    /// A key press, normalized ([`Key::normalized`]).
    pub fn new(code: KeyCode, mods: Mods) -> Key {
        Key {
            code,
            mods,
            kind: KeyKind::Press,
        }
        .normalized()
    }

    /// A character with no modifiers.
    pub fn char(c: char) -> Key {
        Key::new(KeyCode::Char(c), Mods::NONE)
    }

    /// The same key with another event kind.
    pub fn with_kind(self, kind: KeyKind) -> Key {
        Key { kind, ..self }
    }

    /// The key as tmux reads a key name in a binding or the `prefix` option: a control
    /// letter has no case (`C-Q` is `C-q`: a legacy terminal sends one byte for both).
    pub fn binding_form(self) -> Key {
        match self.code {
            KeyCode::Char(c)
                if self.mods.contains(Mods::CTRL)
                    && !self.mods.contains(Mods::SHIFT)
                    && c.is_ascii_uppercase() =>
            {
                Key {
                    code: KeyCode::Char(c.to_ascii_lowercase()),
                    ..self
                }
            }
            _ => self,
        }
    }

    /// The canonical form, so that one key has one name (and one binding matches it):
    /// - shift+Tab is BackTab, as tmux has it (a program cannot tell them apart), and
    ///   BackTab reported with Shift is BackTab;
    /// - Shift on a character that Shift already changed is dropped (`S-A` is `A`:
    ///   terminals report `A` with Shift, guessed from its case), and Shift with an ASCII
    ///   lowercase letter makes it uppercase (`C-S-a` is `C-A`): the kitty protocol
    ///   reports ctrl+shift+a as `a` with Shift. (A binding's `C-A` is read as tmux
    ///   reads it, `C-a`: see [`Key::binding_form`]; ctrl+shift+a is bound as `C-S-a`.)
    ///   Shift with other characters is kept: which character it makes depends on the
    ///   keyboard layout.
    pub fn normalized(self) -> Key {
        let shift = self.mods.contains(Mods::SHIFT);
        let (code, mods) = match self.code {
            KeyCode::Tab | KeyCode::BackTab if shift => {
                (KeyCode::BackTab, self.mods.without(Mods::SHIFT))
            }
            KeyCode::Char(c) if shift && c.is_ascii_lowercase() => (
                KeyCode::Char(c.to_ascii_uppercase()),
                self.mods.without(Mods::SHIFT),
            ),
            KeyCode::Char(c) if shift && c.is_uppercase() => {
                (self.code, self.mods.without(Mods::SHIFT))
            }
            code => (code, self.mods),
        };
        Key {
            code,
            mods,
            kind: self.kind,
        }
    }

    /// The key as bindings see it: a press, without lock states. Caps Lock or Num Lock
    /// being on must not stop the prefix from working, and a repeat of a bound key is
    /// the key again.
    pub fn chord(self) -> Key {
        Key {
            code: self.code,
            mods: self.mods.without(Mods::LOCKS),
            kind: KeyKind::Press,
        }
        .normalized()
    }

    /// The key as a terminal without the kitty protocol reports it, which is what every
    /// consumer of keys knew before keys became lossless: None for a release (such
    /// terminals report none); a keypad key as the key it types (`KP5` is `5`, `KPEnter`
    /// is Enter, `KPUp` is Up; `KPBegin` stays itself, xterm has a sequence for it);
    /// only Ctrl, Alt and Shift kept; a repeat as a press.
    pub fn legacy(self) -> Option<Key> {
        if self.kind == KeyKind::Release {
            return None;
        }
        let code = match self.code {
            KeyCode::Keypad(k) => k.typed(),
            c => c,
        };
        Some(Key::new(code, self.mods.only(Mods::LEGACY)))
    }

    /// [`Key::parse`], or what a command line says of a name that is no key.
    pub fn parse_named(s: &str) -> Result<Key, String> {
        Key::parse(s).ok_or_else(|| {
            format!("unknown key: {s} (keys are written as tmux writes them: a, C-a, M-Left, F5, Space, Enter, ...)")
        })
    }

    /// Parse a tmux key name, or one of fugue's names for keys tmux does not name.
    /// Returns None if `s` is not a key name (then send-keys types it literally). Always
    /// a press: `:release` and `:repeat` are for the wire only.
    pub fn parse(s: &str) -> Option<Key> {
        names::parse(s)
    }

    /// A key's name as the wire carries it: [`Key::parse`]'s names, and a release or a
    /// repeat with `:release` or `:repeat` after the name.
    pub fn from_wire(s: &str) -> Option<Key> {
        for (suffix, kind) in [(":release", KeyKind::Release), (":repeat", KeyKind::Repeat)] {
            if let Some(name) = s.strip_suffix(suffix)
                && !name.is_empty()
            {
                return names::parse(name).map(|k| k.with_kind(kind));
            }
        }
        names::parse(s)
    }

    /// Append the bytes a program expects for this key: the kitty protocol's encoding
    /// if the program asked for it ([`KeyModes::kitty`]), else legacy (xterm)
    /// encoding, which has nothing for a release or for keys xterm cannot say.
    pub fn encode(&self, modes: KeyModes, out: &mut Vec<u8>) {
        let flags = modes.kitty & kitty::ALL_FLAGS;
        if flags != 0 {
            kitty::encode(*self, flags, modes.app_cursor, out);
        } else if let Some(key) = self.legacy() {
            legacy::encode(key, modes, out);
        }
    }
}

impl KeypadKey {
    /// What the key types when the keypad is not told apart (Num Lock decides between
    /// the digit and the arrow before the terminal reports the key).
    pub fn typed(self) -> KeyCode {
        use KeypadKey as K;
        match self {
            K::Zero => KeyCode::Char('0'),
            K::One => KeyCode::Char('1'),
            K::Two => KeyCode::Char('2'),
            K::Three => KeyCode::Char('3'),
            K::Four => KeyCode::Char('4'),
            K::Five => KeyCode::Char('5'),
            K::Six => KeyCode::Char('6'),
            K::Seven => KeyCode::Char('7'),
            K::Eight => KeyCode::Char('8'),
            K::Nine => KeyCode::Char('9'),
            K::Decimal => KeyCode::Char('.'),
            K::Divide => KeyCode::Char('/'),
            K::Multiply => KeyCode::Char('*'),
            K::Subtract => KeyCode::Char('-'),
            K::Add => KeyCode::Char('+'),
            K::Enter => KeyCode::Enter,
            K::Equal => KeyCode::Char('='),
            K::Separator => KeyCode::Char(','),
            K::Left => KeyCode::Left,
            K::Right => KeyCode::Right,
            K::Up => KeyCode::Up,
            K::Down => KeyCode::Down,
            K::PageUp => KeyCode::PageUp,
            K::PageDown => KeyCode::PageDown,
            K::Home => KeyCode::Home,
            K::End => KeyCode::End,
            K::Insert => KeyCode::Insert,
            K::Delete => KeyCode::Delete,
            K::Begin => KeyCode::Keypad(K::Begin),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        names::write(*self, f)
    }
}

/// Why a string is not a key name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown key name `{input}`. Keys look like a, C-c, M-x, C-M-a, ^c, Enter, Tab, BTab, \
     BSpace, Escape, Space, Up, PPage, NPage, IC, DC, F1..F35, KP0..KP9, Super-a, Menu \
     (docs/terminal.md lists them all)"
)]
pub struct KeyParseError {
    pub input: String,
}

impl FromStr for Key {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Key::parse(s).ok_or_else(|| KeyParseError {
            input: s.to_string(),
        })
    }
}

/// The wire's form (see [`Key`]).
impl TryFrom<String> for Key {
    type Error = KeyParseError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Key::from_wire(&s).ok_or(KeyParseError { input: s })
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        key.to_string()
    }
}

/// Splits `send-keys` arguments the tmux way: each argument that is a key name becomes a key, any other argument is literal text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendKeysArg {
    Key(Key),
    Text(String),
}

pub fn classify_send_keys_arg(arg: &str) -> SendKeysArg {
    match Key::parse(arg) {
        Some(key) => SendKeysArg::Key(key),
        None => SendKeysArg::Text(arg.to_string()),
    }
}
