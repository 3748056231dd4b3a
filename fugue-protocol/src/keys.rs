//! Key names as tmux spells them, and the bytes a terminal program expects for each key.
//!
//! Parsing follows `tmux send-keys`: an argument that names a key becomes that key, anything
//! else is typed literally. Encoding follows xterm, which is what tmux sends to its panes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitOr, BitOrAssign};
use std::str::FromStr;

/// Modifier bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods(pub u8);

impl Mods {
    pub const NONE: Mods = Mods(0);
    pub const CTRL: Mods = Mods(1);
    pub const ALT: Mods = Mods(2);
    pub const SHIFT: Mods = Mods(4);

    pub fn contains(self, other: Mods) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn without(self, other: Mods) -> Mods {
        Mods(self.0 & !other.0)
    }

    /// The xterm modifier parameter: 1 plus shift=1, alt=2, ctrl=4.
    fn xterm_param(self) -> u8 {
        1 + u8::from(self.contains(Mods::SHIFT))
            + 2 * u8::from(self.contains(Mods::ALT))
            + 4 * u8::from(self.contains(Mods::CTRL))
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
    /// F1..=F24; other numbers never parse and encode to nothing.
    F(u8),
}

/// Named keys in canonical spelling first, then accepted aliases. `Space` is `Char(' ')`.
const NAMES: &[(&str, KeyCode)] = &[
    ("Enter", KeyCode::Enter),
    ("Tab", KeyCode::Tab),
    ("BTab", KeyCode::BackTab),
    ("BSpace", KeyCode::Backspace),
    ("Escape", KeyCode::Escape),
    ("Space", KeyCode::Char(' ')),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PPage", KeyCode::PageUp),
    ("NPage", KeyCode::PageDown),
    ("IC", KeyCode::Insert),
    ("DC", KeyCode::Delete),
    ("PageUp", KeyCode::PageUp),
    ("PgUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("PgDn", KeyCode::PageDown),
    ("Insert", KeyCode::Insert),
    ("Delete", KeyCode::Delete),
];

/// A key with modifiers. Serializes as its canonical tmux name (a string), e.g. "C-c", "M-Enter", "F5", "a".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Key {
    pub code: KeyCode,
    pub mods: Mods,
}

/// The keyboard modes a program has switched on (DECCKM, DECKPAM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyModes {
    /// Application cursor keys: unmodified arrows, Home and End send `ESC O` instead of `ESC [`.
    pub app_cursor: bool,
    /// Application keypad. Tracked so the server can pass it along, but it changes nothing yet:
    /// keypad keys are not modelled as distinct `KeyCode`s.
    pub app_keypad: bool,
}

impl Key {
    /// A key, normalized so that `S-Tab` is `BTab` as tmux has it.
    pub fn new(code: KeyCode, mods: Mods) -> Key {
        Key { code, mods }.normalized()
    }

    /// A character with no modifiers.
    pub fn char(c: char) -> Key {
        Key::new(KeyCode::Char(c), Mods::NONE)
    }

    /// The canonical form: shift+Tab becomes BackTab, since a program cannot tell them apart
    /// and two spellings of one key would break name round-trips.
    pub fn normalized(self) -> Key {
        if self.code == KeyCode::Tab && self.mods.contains(Mods::SHIFT) {
            Key {
                code: KeyCode::BackTab,
                mods: self.mods.without(Mods::SHIFT),
            }
        } else {
            self
        }
    }

    /// Parse a tmux key name. Returns None if `s` is not a key name (then send-keys types it literally).
    pub fn parse(s: &str) -> Option<Key> {
        let mut mods = Mods::NONE;
        let mut rest = s;
        // Byte checks are enough: an ASCII letter followed by `-` makes index 2 a char boundary.
        while let [m, b'-', ..] = rest.as_bytes() {
            mods |= match m.to_ascii_uppercase() {
                b'C' => Mods::CTRL,
                b'M' => Mods::ALT,
                b'S' => Mods::SHIFT,
                _ => break,
            };
            rest = &rest[2..];
        }

        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next(), chars.next()) {
            (None, _, _) => return None,
            (Some(c), None, _) => KeyCode::Char(c),
            // tmux lowercases caret notation, so `^C` is `C-c` as on a terminal.
            (Some('^'), Some(c), None) => {
                mods |= Mods::CTRL;
                KeyCode::Char(c.to_ascii_lowercase())
            }
            _ => lookup_name(rest)?,
        };
        Some(Key::new(code, mods))
    }

    /// Append the bytes a program expects for this key.
    pub fn encode(&self, modes: KeyModes, out: &mut Vec<u8>) {
        let Key { code, mut mods } = self.normalized();
        let code = match code {
            // xterm sends F13..F24 as shifted F1..F12.
            KeyCode::F(n @ 13..=24) => {
                mods |= Mods::SHIFT;
                KeyCode::F(n - 12)
            }
            other => other,
        };

        // Cursor, editing and function keys carry modifiers in a CSI parameter.
        if let Some(seq) = special_sequence(code) {
            let m = mods.xterm_param();
            let bytes = match seq {
                Special::Letter(l, ss3) if mods.is_empty() => {
                    let intro = if ss3 || modes.app_cursor { 'O' } else { '[' };
                    format!("\x1b{intro}{l}")
                }
                Special::Letter(l, _) => format!("\x1b[1;{m}{l}"),
                Special::Tilde(n) if mods.is_empty() => format!("\x1b[{n}~"),
                Special::Tilde(n) => format!("\x1b[{n};{m}~"),
            };
            out.extend_from_slice(bytes.as_bytes());
            return;
        }

        if mods.contains(Mods::ALT) {
            out.push(0x1b);
        }
        match code {
            KeyCode::Char(c) => {
                let c = if mods.contains(Mods::SHIFT) {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                match ctrl_byte(c) {
                    Some(b) if mods.contains(Mods::CTRL) => out.push(b),
                    _ => {
                        let mut buf = [0; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
            }
            KeyCode::Enter => out.push(b'\r'),
            KeyCode::Tab => out.push(b'\t'),
            KeyCode::BackTab => out.extend_from_slice(b"\x1b[Z"),
            KeyCode::Backspace => out.push(0x7f),
            KeyCode::Escape => out.push(0x1b),
            // Covered by `special_sequence`, or an F number outside 1..=24 with nothing to send.
            _ => {}
        }
    }
}

enum Special {
    /// `ESC [ X` or `ESC O X`; the flag forces `ESC O` (F1..F4 always use SS3 when unmodified).
    Letter(char, bool),
    /// `ESC [ n ~`.
    Tilde(u8),
}

fn special_sequence(code: KeyCode) -> Option<Special> {
    Some(match code {
        KeyCode::Up => Special::Letter('A', false),
        KeyCode::Down => Special::Letter('B', false),
        KeyCode::Right => Special::Letter('C', false),
        KeyCode::Left => Special::Letter('D', false),
        KeyCode::Home => Special::Letter('H', false),
        KeyCode::End => Special::Letter('F', false),
        KeyCode::Insert => Special::Tilde(2),
        KeyCode::Delete => Special::Tilde(3),
        KeyCode::PageUp => Special::Tilde(5),
        KeyCode::PageDown => Special::Tilde(6),
        KeyCode::F(n @ 1..=4) => Special::Letter(['P', 'Q', 'R', 'S'][usize::from(n - 1)], true),
        KeyCode::F(n @ 5..=12) => {
            Special::Tilde([15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)])
        }
        _ => return None,
    })
}

/// The control byte a terminal sends for ctrl plus `c`, where there is one.
fn ctrl_byte(c: char) -> Option<u8> {
    Some(match c {
        'a'..='z' | 'A'..='Z' => c as u8 & 0x1f,
        '@' | ' ' | '2' => 0x00,
        '[' | '3' => 0x1b,
        '\\' | '4' => 0x1c,
        ']' | '5' => 0x1d,
        '^' | '6' => 0x1e,
        '_' | '-' | '/' | '7' => 0x1f,
        '?' | '8' => 0x7f,
        _ => return None,
    })
}

fn lookup_name(name: &str) -> Option<KeyCode> {
    if let Some(&(_, code)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Some(code);
    }
    // tmux's keypad names send what the keypad does outside application keypad mode.
    if let Some(k) = name.strip_prefix("KP") {
        return match k {
            "Enter" => Some(KeyCode::Enter),
            _ => {
                let mut chars = k.chars();
                match (chars.next(), chars.next()) {
                    (Some(c @ ('0'..='9' | '/' | '*' | '-' | '+' | '.')), None) => {
                        Some(KeyCode::Char(c))
                    }
                    _ => None,
                }
            }
        };
    }
    let digits = name.strip_prefix(['F', 'f'])?;
    // One spelling per key: no leading zeros, no signs, so `F05` is typed literally.
    if digits.len() > 2 || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (1..=24).contains(&n).then_some(KeyCode::F(n))
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Key { code, mods } = self.normalized();
        for (m, prefix) in [(Mods::CTRL, "C-"), (Mods::ALT, "M-"), (Mods::SHIFT, "S-")] {
            if mods.contains(m) {
                f.write_str(prefix)?;
            }
        }
        match code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => {
                // NAMES lists every named code, so the fallback is never printed.
                let name = NAMES
                    .iter()
                    .find(|(_, c)| *c == other)
                    .map_or("?", |(n, _)| n);
                f.write_str(name)
            }
        }
    }
}

/// Why a string is not a key name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown key name `{input}`. Keys look like a, C-c, M-x, C-M-a, ^c, Enter, Tab, BTab, \
     BSpace, Escape, Space, Up, PPage, NPage, IC, DC or F1..F24"
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

impl TryFrom<String> for Key {
    type Error = KeyParseError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Key::parse(&s).ok_or(KeyParseError { input: s })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Key {
        Key::parse(s).unwrap_or_else(|| panic!("{s:?} should parse"))
    }

    fn k(code: KeyCode, mods: Mods) -> Key {
        Key::new(code, mods)
    }

    fn enc(s: &str, app_cursor: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let modes = KeyModes {
            app_cursor,
            app_keypad: false,
        };
        key(s).encode(modes, &mut out);
        out
    }

    fn all_codes() -> Vec<KeyCode> {
        use KeyCode::*;
        let mut codes = vec![
            Enter, Tab, BackTab, Backspace, Escape, Up, Down, Left, Right, Home, End, PageUp,
            PageDown, Insert, Delete,
        ];
        codes.extend((1..=24).map(F));
        codes.extend(
            [
                'a', 'z', 'A', 'Z', '0', '9', ' ', '-', '^', '%', '@', '[', '\\', '日', 'é', '😀',
            ]
            .map(Char),
        );
        codes
    }

    #[test]
    fn every_named_key_parses() {
        use KeyCode::*;
        let canonical =
            "Enter Tab BTab BSpace Escape Space Up Down Left Right Home End PPage NPage IC DC";
        let codes = [
            Enter,
            Tab,
            BackTab,
            Backspace,
            Escape,
            Char(' '),
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
        ];
        for (name, code) in canonical.split(' ').zip(codes) {
            assert_eq!(Key::parse(name), Some(k(code, Mods::NONE)), "{name}");
            assert_eq!(k(code, Mods::NONE).to_string(), name);
        }
        let aliases = "PageUp=PPage PgUp=PPage PageDown=NPage PgDn=NPage Insert=IC Delete=DC";
        for (alias, name) in aliases.split(' ').filter_map(|a| a.split_once('=')) {
            assert_eq!(Key::parse(alias), Key::parse(name), "{alias}");
        }
        for n in 1..=24 {
            assert_eq!(key(&format!("F{n}")), k(F(n), Mods::NONE));
        }
    }

    #[test]
    fn names_and_modifiers_are_case_insensitive() {
        let enter = k(KeyCode::Enter, Mods::NONE);
        assert_eq!(key("enter"), enter);
        assert_eq!(key("ENTER"), enter);
        assert_eq!(key("f5"), k(KeyCode::F(5), Mods::NONE));
        assert_eq!(key("c-c"), key("C-c"));
        assert_eq!(key("m-s-up"), k(KeyCode::Up, Mods::ALT | Mods::SHIFT));
        // Single characters keep their case.
        assert_eq!(key("A"), Key::char('A'));
        assert_ne!(key("C-A"), key("C-a"));
    }

    #[test]
    fn modifiers_combine_in_any_order() {
        let cma = k(KeyCode::Char('a'), Mods::CTRL | Mods::ALT);
        assert_eq!(key("C-M-a"), cma);
        assert_eq!(key("M-C-a"), cma);
        assert_eq!(key("C-Space"), k(KeyCode::Char(' '), Mods::CTRL));
        assert_eq!(key("C--"), k(KeyCode::Char('-'), Mods::CTRL));
        assert_eq!(key("M-日"), k(KeyCode::Char('日'), Mods::ALT));
        assert_eq!(key("S-Tab"), k(KeyCode::BackTab, Mods::NONE));
        assert_eq!(key("C-S-Tab"), k(KeyCode::BackTab, Mods::CTRL));
        assert_eq!(key("S-Tab").to_string(), "BTab");
    }

    #[test]
    fn non_keys_are_rejected() {
        for s in [
            "hello", "echo hi", "", "C-", "M-", "C-M-", "C-Foo", "Return", "Esc", "F0", "F25",
            "F99", "F05", "F+1", "X-a", "^ab", "--",
        ] {
            assert_eq!(Key::parse(s), None, "{s:?}");
        }
    }

    #[test]
    fn caret_notation() {
        assert_eq!(key("^c"), key("C-c"));
        assert_eq!(key("^C"), key("C-c"));
        assert_eq!(key("^["), key("C-["));
        assert_eq!(key("M-^a"), key("C-M-a"));
        assert_eq!(key("^"), Key::char('^'));
    }

    #[test]
    fn display_parse_round_trips() {
        for code in all_codes() {
            for bits in 0..8 {
                let key = k(code, Mods(bits));
                let name = key.to_string();
                assert_eq!(Key::parse(&name), Some(key), "{name:?}");
            }
        }
        assert_eq!(k(KeyCode::Tab, Mods::SHIFT).to_string(), "BTab");
        let all = Mods::CTRL | Mods::ALT | Mods::SHIFT;
        assert_eq!(k(KeyCode::PageUp, all).to_string(), "C-M-S-PPage");
        assert_eq!(k(KeyCode::Insert, Mods::NONE).to_string(), "IC");
        assert_eq!(k(KeyCode::Char(' '), Mods::CTRL).to_string(), "C-Space");
    }

    #[test]
    fn encodes_keys_the_same_in_both_cursor_modes() {
        // Space-separated names in one entry are synonyms with the same encoding.
        let cases: &[(&str, &str)] = &[
            ("a", "a"),
            ("日 C-日", "日"),
            ("Enter C-Enter S-Enter", "\r"),
            ("Tab", "\t"),
            ("BTab S-Tab", "\x1b[Z"),
            ("BSpace", "\x7f"),
            ("Escape", "\x1b"),
            ("Space S-Space", " "),
            ("C-a C-A C-S-a", "\x01"),
            ("^c ^C", "\x03"),
            ("C-@ C-Space C-2", "\x00"),
            ("C-[ C-3", "\x1b"),
            ("C-\\ C-4", "\x1c"),
            ("C-] C-5", "\x1d"),
            ("C-^ C-6", "\x1e"),
            ("C-_ C-- C-7", "\x1f"),
            ("C-? C-8", "\x7f"),
            ("C-% %", "%"),
            ("M-x", "\x1bx"),
            ("C-M-a", "\x1b\x01"),
            ("M-Enter", "\x1b\r"),
            ("S-a A", "A"),
            ("S-1", "1"),
            ("C-Up", "\x1b[1;5A"),
            ("S-Left", "\x1b[1;2D"),
            ("M-Right", "\x1b[1;3C"),
            ("C-M-S-End", "\x1b[1;8F"),
            ("IC Insert", "\x1b[2~"),
            ("DC", "\x1b[3~"),
            ("PPage", "\x1b[5~"),
            ("NPage", "\x1b[6~"),
            ("C-DC", "\x1b[3;5~"),
            ("M-NPage", "\x1b[6;3~"),
            ("F1", "\x1bOP"),
            ("F2", "\x1bOQ"),
            ("F3", "\x1bOR"),
            ("F4", "\x1bOS"),
            ("C-F1", "\x1b[1;5P"),
            ("S-F4", "\x1b[1;2S"),
            ("F5", "\x1b[15~"),
            ("F6", "\x1b[17~"),
            ("F7", "\x1b[18~"),
            ("F8", "\x1b[19~"),
            ("F9", "\x1b[20~"),
            ("F10", "\x1b[21~"),
            ("F11", "\x1b[23~"),
            ("F12", "\x1b[24~"),
            ("C-F5", "\x1b[15;5~"),
            ("F13 S-F1", "\x1b[1;2P"),
            ("F17 S-F5", "\x1b[15;2~"),
            ("C-F24 C-S-F12", "\x1b[24;6~"),
        ];
        for &(names, want) in cases {
            for name in names.split(' ') {
                for app in [false, true] {
                    assert_eq!(enc(name, app), want.as_bytes(), "{name} app_cursor={app}");
                }
            }
        }
    }

    #[test]
    fn unmodified_cursor_keys_follow_cursor_mode() {
        for (name, last) in "Up:A Down:B Right:C Left:D Home:H End:F"
            .split(' ')
            .filter_map(|p| p.split_once(':'))
        {
            assert_eq!(
                enc(name, false),
                format!("\x1b[{last}").as_bytes(),
                "{name}"
            );
            assert_eq!(enc(name, true), format!("\x1bO{last}").as_bytes(), "{name}");
        }
    }

    #[test]
    fn out_of_range_function_keys_encode_to_nothing() {
        for n in [0, 25, 255] {
            let mut out = Vec::new();
            k(KeyCode::F(n), Mods::CTRL).encode(KeyModes::default(), &mut out);
            assert!(out.is_empty(), "F{n}");
        }
    }

    #[test]
    fn serde_uses_key_names() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, StringDeserializer};
        // fugue-protocol has no serde_json; the string form is checked through serde's own
        // value deserializer and through rmp-serde, the wire format.
        let key = key("C-c");
        let de: StringDeserializer<Error> = "C-c".to_string().into_deserializer();
        assert_eq!(Key::deserialize(de).ok(), Some(key));
        let de: StringDeserializer<Error> = "hello".to_string().into_deserializer();
        assert!(Key::deserialize(de).is_err());
        let wire = rmp_serde::to_vec(&key).unwrap_or_default();
        assert_eq!(Some(wire.clone()), rmp_serde::to_vec("C-c").ok());
        assert_eq!(rmp_serde::from_slice::<Key>(&wire).ok(), Some(key));
        let m_enter = rmp_serde::to_vec(&k(KeyCode::Enter, Mods::ALT)).ok();
        assert_eq!(m_enter, rmp_serde::to_vec("M-Enter").ok());
    }

    #[test]
    fn keypad_names_and_ctrl_slash_send_what_tmux_sends() {
        let bytes = |s: &str| {
            let mut out = Vec::new();
            key(s).encode(KeyModes::default(), &mut out);
            out
        };
        assert_eq!(bytes("C-/"), [0x1f]);
        assert_eq!(bytes("KP1"), b"1");
        assert_eq!(bytes("KP*"), b"*");
        assert_eq!(bytes("KPEnter"), b"\r");
        assert!(Key::parse("KP12").is_none());
    }

    #[test]
    fn from_str_error_is_helpful() {
        let err = "Return".parse::<Key>().err();
        let msg = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("`Return`") && msg.contains("C-c"), "{msg}");
        assert_eq!("M-x".parse::<Key>().ok(), Key::parse("M-x"));
    }

    #[test]
    fn classifies_send_keys_args() {
        assert_eq!(
            classify_send_keys_arg("Enter"),
            SendKeysArg::Key(key("Enter"))
        );
        assert_eq!(classify_send_keys_arg("C-c"), SendKeysArg::Key(key("C-c")));
        assert_eq!(
            classify_send_keys_arg("x"),
            SendKeysArg::Key(Key::char('x'))
        );
        for text in ["echo hi", "Return", "", "C-"] {
            assert_eq!(
                classify_send_keys_arg(text),
                SendKeysArg::Text(text.to_string())
            );
        }
    }

    #[test]
    fn tricky_inputs_do_not_panic() {
        let long = "C-".repeat(10_000) + "a";
        let long_text = "x".repeat(100_000);
        let mut inputs: Vec<&str> =
            "F0 F99 F255 F256 F-1 F f C- ^ ^^ M- S- - C C-C-C- 日本 C-日本 \
                                     ^日 M-😀 é C-é \0 F1日 日-a M-F S-F24 C-\u{301} \u{10FFFF}"
                .split(' ')
                .collect();
        inputs.extend([" ", "  ", "\u{1b}[A"]);
        inputs.push(&long);
        inputs.push(&long_text);
        for s in inputs {
            let parsed = Key::parse(s);
            let _ = classify_send_keys_arg(s);
            if let Some(key) = parsed {
                let mut out = Vec::new();
                key.encode(KeyModes::default(), &mut out);
                assert_eq!(Key::parse(&key.to_string()), Some(key), "{s:?}");
            }
        }
        assert_eq!(Key::parse(&long), Some(k(KeyCode::Char('a'), Mods::CTRL)));
        // Keys built by hand, not by parsing, must display and encode without panicking too.
        for code in [KeyCode::F(0), KeyCode::F(255), KeyCode::Char('\0')] {
            for bits in 0..=255 {
                let key = Key {
                    code,
                    mods: Mods(bits),
                };
                let _ = key.to_string();
                key.encode(KeyModes::default(), &mut Vec::new());
            }
        }
    }
}
