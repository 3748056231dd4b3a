//! The legacy (xterm) key encoding stays byte for byte what it was before keys became
//! lossless (issue 12).
//!
//! `tests/data/legacy_keys.tsv` was written by the encoder as it was before that change
//! (`FUGUE_BLESS=1 cargo test -p fugue-protocol --test legacy_keys` on commit 0e31ed4):
//! every key name the old parser knew (named keys, F1..F24, the keypad names, every
//! printable ASCII character and a few others), under every combination of Ctrl, Alt and
//! Shift, with the bytes it sent in each of the four keyboard modes. The file is the old
//! encoder's word; this test holds the new encoder to it.

use fugue_protocol::keys::{Key, KeyModes};
use std::fmt::Write as _;

fn names() -> Vec<String> {
    let mut keys: Vec<String> =
        "Enter Tab BTab BSpace Escape Space Up Down Left Right Home End PPage NPage IC DC \
         PageUp PgUp PageDown PgDn Insert Delete \
         KP0 KP1 KP2 KP3 KP4 KP5 KP6 KP7 KP8 KP9 KP/ KP* KP- KP+ KP. KPEnter"
            .split_whitespace()
            .map(String::from)
            .collect();
    keys.extend((1..=24).map(|n| format!("F{n}")));
    keys.extend((0x21u8..=0x7e).map(|b| char::from(b).to_string()));
    keys.extend(["é", "É", "日", "😀", "ß"].map(String::from));
    let mut out = Vec::new();
    for prefix in ["", "C-", "M-", "S-", "C-M-", "C-S-", "M-S-", "C-M-S-"] {
        for k in &keys {
            out.push(format!("{prefix}{k}"));
        }
    }
    // Caret notation.
    out.extend(["^a", "^C", "^[", "^?", "^@", "M-^x"].map(String::from));
    out
}

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".into();
    }
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn table() -> String {
    let mut out = String::new();
    for name in names() {
        let key = Key::parse(&name).unwrap_or_else(|| panic!("{name:?} is a key name"));
        let _ = write!(out, "{name}");
        for (app_cursor, app_keypad) in [(false, false), (true, false), (false, true), (true, true)]
        {
            let mut bytes = Vec::new();
            let modes = KeyModes {
                app_cursor,
                app_keypad,
                ..KeyModes::default()
            };
            key.encode(modes, &mut bytes);
            let _ = write!(out, "\t{}", hex(&bytes));
        }
        out.push('\n');
    }
    out
}

#[test]
fn legacy_encoding_is_byte_for_byte_what_it_was() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/legacy_keys.tsv");
    let now = table();
    if std::env::var_os("FUGUE_BLESS").is_some() {
        std::fs::write(path, &now).expect("write the golden table");
    }
    let want = std::fs::read_to_string(path).expect("the golden table");
    let mut differ = Vec::new();
    for (w, n) in want.lines().zip(now.lines()) {
        if w != n {
            differ.push(format!("was  {w}\nnow  {n}"));
        }
    }
    assert_eq!(want.lines().count(), now.lines().count(), "rows");
    assert!(
        differ.is_empty(),
        "{} keys encode differently:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
