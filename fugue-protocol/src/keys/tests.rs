//! Key names, normalization, the wire form and legacy encoding.
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
        kitty: 0,
    };
    key(s).encode(modes, &mut out);
    out
}

fn all_codes() -> Vec<KeyCode> {
    use KeyCode::*;
    let mut codes = vec![
        Enter, Tab, BackTab, Backspace, Escape, Up, Down, Left, Right, Home, End, PageUp, PageDown,
        Insert, Delete,
    ];
    codes.extend(names::named_codes());
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
        "hello",
        "echo hi",
        "",
        "C-",
        "M-",
        "C-M-",
        "C-Foo",
        "Return",
        "Esc",
        "F0",
        "F36",
        "F99",
        "kp1",
        "KPenter",
        "Super-",
        "a:release",
        "Enter:repeat",
        "F05",
        "F+1",
        "X-a",
        "^ab",
        "--",
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
        for bits in 0..=255 {
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
    let mut inputs: Vec<&str> = "F0 F99 F255 F256 F-1 F f C- ^ ^^ M- S- - C C-C-C- 日本 C-日本 \
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
    let mut codes = vec![KeyCode::F(0), KeyCode::F(255), KeyCode::Char('\0')];
    codes.extend(names::named_codes());
    for code in codes {
        for bits in 0..=255 {
            for kind in [KeyKind::Press, KeyKind::Repeat, KeyKind::Release] {
                let key = Key {
                    code,
                    mods: Mods(bits),
                    kind,
                };
                let _ = key.to_string();
                let _ = key.chord();
                key.encode(KeyModes::default(), &mut Vec::new());
            }
        }
    }
}

#[test]
fn every_modifier_and_lock_has_a_name() {
    let all = Mods(0xff);
    let name = k(KeyCode::Char('1'), all).to_string();
    assert_eq!(name, "C-M-S-Super-Hyper-Meta-CapsLock-NumLock-1");
    assert_eq!(Key::parse(&name), Some(k(KeyCode::Char('1'), all)));
    assert_eq!(
        key("super-hyper-META-a"),
        k(KeyCode::Char('a'), Mods::SUPER | Mods::HYPER | Mods::META)
    );
    assert_eq!(key("Super--"), k(KeyCode::Char('-'), Mods::SUPER));
    assert_eq!(key("CapsLock"), k(KeyCode::CapsLock, Mods::NONE));
    assert_eq!(
        key("C-CapsLock-Enter"),
        k(KeyCode::Enter, Mods::CTRL | Mods::CAPS_LOCK)
    );
}

#[test]
fn new_key_names() {
    use KeyCode::*;
    let cases = [
        ("F25", F(25)),
        ("F35", F(35)),
        ("KP5", Keypad(KeypadKey::Five)),
        ("KPEnter", Keypad(KeypadKey::Enter)),
        ("KPBegin", Keypad(KeypadKey::Begin)),
        ("KP=", Keypad(KeypadKey::Equal)),
        ("Menu", Menu),
        ("PrintScreen", PrintScreen),
        ("MediaPlayPause", Media(MediaKey::PlayPause)),
        ("VolumeUp", Media(MediaKey::RaiseVolume)),
        ("LeftShift", Modifier(ModifierKey::LeftShift)),
        ("IsoLevel5Shift", Modifier(ModifierKey::IsoLevel5Shift)),
    ];
    for (name, code) in cases {
        assert_eq!(Key::parse(name), Some(k(code, Mods::NONE)), "{name}");
        assert_eq!(k(code, Mods::NONE).to_string(), name);
    }
}

#[test]
fn shift_is_normalized_where_the_character_carries_it() {
    assert_eq!(key("S-a"), Key::char('A'));
    assert_eq!(key("S-A"), Key::char('A'));
    assert_eq!(key("C-S-a"), k(KeyCode::Char('A'), Mods::CTRL));
    assert_eq!(key("C-S-a").to_string(), "C-A");
    // As termina reports an uppercase letter typed: with Shift.
    assert_eq!(k(KeyCode::Char('É'), Mods::SHIFT), Key::char('É'));
    // Which character shift+1 or shift+é makes depends on the layout: kept.
    assert_eq!(key("S-1").mods, Mods::SHIFT);
    assert_eq!(key("S-é").mods, Mods::SHIFT);
    assert_eq!(k(KeyCode::BackTab, Mods::SHIFT), key("BTab"));
}

#[test]
fn chords_ignore_locks_and_event_kinds() {
    let prefix = key("C-b");
    let typed = Key {
        code: KeyCode::Char('b'),
        mods: Mods::CTRL | Mods::NUM_LOCK | Mods::CAPS_LOCK,
        kind: KeyKind::Repeat,
    };
    assert_ne!(typed, prefix);
    assert_eq!(typed.chord(), prefix);
    // Super is a key held, not a state.
    assert_ne!(key("Super-C-b").chord(), prefix);
}

#[test]
fn the_wire_carries_event_kinds_and_send_keys_does_not() {
    let release = key("C-Up").with_kind(KeyKind::Release);
    assert_eq!(release.to_string(), "C-Up:release");
    assert_eq!(Key::from_wire("C-Up:release"), Some(release));
    assert_eq!(
        Key::from_wire("::repeat"),
        Some(Key::char(':').with_kind(KeyKind::Repeat))
    );
    assert_eq!(Key::from_wire(":release"), None);
    assert_eq!(Key::parse("C-Up:release"), None);
    assert_eq!(Key::from_wire("C-Up"), Some(key("C-Up")));
    let wire = rmp_serde::to_vec(&release).unwrap_or_default();
    assert_eq!(rmp_serde::from_slice::<Key>(&wire).ok(), Some(release));
    // Every key of the old set goes on the wire as the name it always had.
    for (name, want) in [
        ("C-c", "C-c"),
        ("M-Enter", "M-Enter"),
        ("F24", "F24"),
        ("KP1", "KP1"),
    ] {
        let wire = rmp_serde::to_vec(&key(name)).unwrap_or_default();
        assert_eq!(Some(wire), rmp_serde::to_vec(want).ok(), "{name}");
    }
}

#[test]
fn legacy_encoding_drops_what_xterm_cannot_say() {
    let bytes = |key: Key| {
        let mut out = Vec::new();
        key.encode(KeyModes::default(), &mut out);
        out
    };
    assert_eq!(bytes(key("a").with_kind(KeyKind::Release)), b"");
    assert_eq!(bytes(key("C-Up").with_kind(KeyKind::Release)), b"");
    assert_eq!(bytes(key("C-Up").with_kind(KeyKind::Repeat)), b"\x1b[1;5A");
    assert_eq!(bytes(key("Super-a")), b"a");
    assert_eq!(bytes(key("Hyper-Meta-C-c")), b"\x03");
    assert_eq!(bytes(key("CapsLock-NumLock-Up")), b"\x1b[A");
    assert_eq!(bytes(key("KP5")), b"5");
    assert_eq!(bytes(key("M-KPEnter")), b"\x1b\r");
    assert_eq!(bytes(key("KPUp")), b"\x1b[A");
    assert_eq!(bytes(key("KPBegin")), b"\x1b[E");
    assert_eq!(bytes(key("C-KPBegin")), b"\x1b[1;5E");
    for silent in [
        "F25",
        "M-F35",
        "Menu",
        "M-MediaPlay",
        "LeftShift",
        "CapsLock",
        "Pause",
    ] {
        assert_eq!(bytes(key(silent)), b"", "{silent}");
    }
}

#[test]
fn legacy_view_of_a_key() {
    assert_eq!(key("a").with_kind(KeyKind::Release).legacy(), None);
    assert_eq!(key("a").with_kind(KeyKind::Repeat).legacy(), Some(key("a")));
    assert_eq!(key("C-KP7").legacy(), Some(key("C-7")));
    assert_eq!(key("Super-C-NumLock-x").legacy(), Some(key("C-x")));
    assert_eq!(key("KPEnter").legacy(), Some(key("Enter")));
}

/// tmux's `0xNN` keys, as iTerm2's control mode sends them: the byte or character
/// with that code; a bad number is no key (typed as it is).
#[test]
fn hex_keys_send_what_tmux_sends() {
    let bytes = |s: &str| {
        let mut out = Vec::new();
        key(s).encode(KeyModes::default(), &mut out);
        out
    };
    assert_eq!(bytes("0x41"), b"A");
    assert_eq!(bytes("0xd"), b"\r");
    assert_eq!(bytes("0x1b"), b"\x1b");
    assert_eq!(bytes("0x3"), [0x03]);
    assert_eq!(bytes("0x1f"), [0x1f]);
    assert_eq!(bytes("0x7f"), [0x7f]);
    assert_eq!(bytes("0xe9"), "é".as_bytes());
    assert!(Key::parse("0xzz").is_none());
    assert!(Key::parse("0x").is_none());
}
