//! The kitty keyboard protocol's encoding, against the examples of its specification
//! (<https://sw.kovidgoyal.net/kitty/keyboard-protocol/>) and kitty's behaviour.

use super::kitty::*;
use super::*;

fn enc(name: &str, flags: u8) -> String {
    enc_in(name, flags, false)
}

fn enc_in(name: &str, flags: u8, app_cursor: bool) -> String {
    let key = Key::from_wire(name).unwrap_or_else(|| panic!("{name}"));
    let mut out = Vec::new();
    let modes = KeyModes {
        app_cursor,
        app_keypad: false,
        kitty: flags,
    };
    key.encode(modes, &mut out);
    String::from_utf8_lossy(&out).replace('\x1b', "^[")
}

fn check(flags: u8, cases: &[(&str, &str)]) {
    for (name, want) in cases {
        assert_eq!(enc(name, flags), *want, "{name} with flags {flags}");
    }
}

#[test]
fn disambiguate_tells_apart_what_legacy_encoding_merges() {
    check(
        DISAMBIGUATE,
        &[
            ("a", "a"),
            ("A", "A"),
            ("é", "é"),
            ("%", "%"),
            ("Space", " "),
            // Tab and C-i, Escape and M-[, Enter and C-m: distinct.
            ("Tab", "\t"),
            ("C-i", "^[[105;5u"),
            ("Escape", "^[[27u"),
            ("M-[", "^[[91;3u"),
            ("Enter", "\r"),
            ("C-m", "^[[109;5u"),
            ("S-Enter", "^[[13;2u"),
            ("C-Enter", "^[[13;5u"),
            ("M-Enter", "^[[13;3u"),
            ("BSpace", "\x7f"),
            ("C-BSpace", "^[[127;5u"),
            ("BTab", "^[[9;2u"),
            ("C-BTab", "^[[9;6u"),
            ("C-a", "^[[97;5u"),
            ("C-A", "^[[97;6u"),
            ("M-x", "^[[120;3u"),
            ("C-M-x", "^[[120;7u"),
            ("C-Space", "^[[32;5u"),
            ("Super-a", "^[[97;9u"),
            ("Hyper-Meta-a", "^[[97;49u"),
            ("Up", "^[[A"),
            ("C-Up", "^[[1;5A"),
            ("S-End", "^[[1;2F"),
            ("F1", "^[[P"),
            ("F3", "^[[13~"),
            ("C-F4", "^[[1;5S"),
            ("F5", "^[[15~"),
            ("C-F5", "^[[15;5~"),
            ("F13", "^[[57376u"),
            ("F35", "^[[57398u"),
            ("IC", "^[[2~"),
            ("NPage", "^[[6~"),
            ("KP5", "^[[57404u"),
            ("KPEnter", "^[[57414u"),
            ("C-KPUp", "^[[57419;5u"),
            ("KPBegin", "^[[57427u"),
            ("Menu", "^[[57363u"),
            ("MediaPlay", "^[[57428u"),
            ("VolumeMute", "^[[57440u"),
            // Lock states only with every key as an escape code.
            ("NumLock-C-a", "^[[97;5u"),
            ("CapsLock-a", "a"),
            // Releases and modifier keys need their flags; a repeat is a press.
            ("a:release", ""),
            ("C-a:repeat", "^[[97;5u"),
            ("LeftShift", ""),
        ],
    );
}

#[test]
fn cursor_key_mode_applies_only_without_disambiguation() {
    assert_eq!(enc_in("Up", DISAMBIGUATE, true), "^[[A");
    assert_eq!(enc_in("Up", ASSOCIATED_TEXT, true), "^[OA");
    assert_eq!(enc_in("C-Up", ASSOCIATED_TEXT, true), "^[[1;5A");
}

#[test]
fn event_types_report_repeats_and_releases() {
    check(
        DISAMBIGUATE | EVENT_TYPES,
        &[
            ("a", "a"),
            ("a:repeat", "a"),
            ("a:release", "^[[97;1:3u"),
            ("A:release", "^[[97;2:3u"),
            ("C-a:repeat", "^[[97;5:2u"),
            ("C-a:release", "^[[97;5:3u"),
            ("Up:release", "^[[1;1:3A"),
            ("C-Up:repeat", "^[[1;5:2A"),
            ("Escape:release", "^[[27;1:3u"),
            ("F5:release", "^[[15;1:3~"),
            // Enter, Tab and Backspace: their bytes, and no release.
            ("Enter:repeat", "\r"),
            ("Enter:release", ""),
            ("Tab:release", ""),
            ("BSpace:release", ""),
            ("C-Enter:release", "^[[13;5:3u"),
        ],
    );
}

#[test]
fn without_disambiguation_text_keys_keep_legacy_bytes() {
    check(
        EVENT_TYPES,
        &[
            ("C-a", "\x01"),
            ("M-a", "^[a"),
            ("C-M-a", "^[\x01"),
            ("C-Space", "\0"),
            ("Escape", "^["),
            ("M-Enter", "^[\r"),
            ("M-Tab", "^[\t"),
            ("BTab", "^[[Z"),
            ("C-BSpace", "\x08"),
            // Ctrl+Shift and Super have no legacy bytes.
            ("C-A", "^[[97;6u"),
            ("Super-a", "^[[97;9u"),
            ("a:release", "^[[97;1:3u"),
            // Keypad keys are the keys they type.
            ("KP5", "5"),
            ("KPEnter", "\r"),
        ],
    );
}

#[test]
fn all_keys_as_escape_codes() {
    check(
        DISAMBIGUATE | ALL_KEYS,
        &[
            ("a", "^[[97u"),
            ("A", "^[[97;2u"),
            ("Enter", "^[[13u"),
            ("Tab", "^[[9u"),
            ("BSpace", "^[[127u"),
            ("Escape", "^[[27u"),
            ("LeftShift", "^[[57441u"),
            ("S-LeftShift", "^[[57441;2u"),
            ("NumLock-a", "^[[97;129u"),
            ("CapsLock-A", "^[[97;66u"),
        ],
    );
    check(
        DISAMBIGUATE | ALL_KEYS | ALTERNATE_KEYS,
        &[
            ("A", "^[[97:65;2u"),
            ("a", "^[[97u"),
            ("C-A", "^[[97:65;6u"),
        ],
    );
    // The specification's examples of associated text.
    check(
        DISAMBIGUATE | ALL_KEYS | ASSOCIATED_TEXT,
        &[
            ("A", "^[[97;2;65u"),
            ("a", "^[[97;;97u"),
            ("C-a", "^[[97;5u"),
            ("Enter", "^[[13u"),
        ],
    );
    check(
        DISAMBIGUATE | EVENT_TYPES | ALL_KEYS | ASSOCIATED_TEXT,
        &[("a:release", "^[[97;1:3u"), ("a:repeat", "^[[97;1:2;97u")],
    );
}

#[test]
fn unknown_flag_bits_are_ignored() {
    assert_eq!(enc("C-a", 0xe0), "\x01");
    assert_eq!(enc("C-a", 0xe0 | DISAMBIGUATE), "^[[97;5u");
}

#[test]
fn every_key_in_every_mode_encodes_without_panicking() {
    let mut codes: Vec<KeyCode> = names::named_codes().collect();
    codes.extend(
        [
            'a',
            'A',
            'é',
            'É',
            'ß',
            '日',
            '\0',
            '\u{7f}',
            ' ',
            '%',
            '~',
            '\u{10FFFF}',
        ]
        .map(KeyCode::Char),
    );
    codes.extend([
        KeyCode::F(0),
        KeyCode::F(36),
        KeyCode::F(255),
        KeyCode::BackTab,
    ]);
    for code in codes {
        for bits in [0u8, 1, 2, 4, 5, 7, 8, 0x40, 0x80, 0xff] {
            for kind in [KeyKind::Press, KeyKind::Repeat, KeyKind::Release] {
                for flags in 0..=ALL_FLAGS {
                    let key = Key {
                        code,
                        mods: Mods(bits),
                        kind,
                    };
                    let mut out = Vec::new();
                    key.encode(
                        KeyModes {
                            app_cursor: bits & 1 == 0,
                            app_keypad: false,
                            kitty: flags,
                        },
                        &mut out,
                    );
                }
            }
        }
    }
}
